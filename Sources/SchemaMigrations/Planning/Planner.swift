/// Diffs two consecutive versions into the steps of one stage.
///
/// A pure function of (source schema, target schema, stage kind): it never sees Swift types nor
/// the database. Every change to one table coalesces into at most one rebuild; where SQLite's
/// `ALTER TABLE` and index statements reach the same result, they are used instead. Anything a
/// stage cannot do safely is refused here, before any write, naming the entity and property.
struct Planner {
    var capabilities = SQLiteCapabilities.current
    /// The application's collations and functions, which declared SQL may use (``DeclaredSQLCheck``).
    var environment = SQLEnvironment.none

    /// Plans the stage from `source` to `target`.
    /// - Throws: `MigrationError` with code `unsupportedChange`.
    func plan(from source: Schema, to target: Schema, kind: StageKind) throws -> PlannedStage {
        for entity in target.entities {
            try DeclaredSQLCheck.check(entity, version: target.version, environment: environment)
        }
        try DeclaredSQLCheck.checkSQLObjects(of: target, environment: environment)
        var stage = PlannedStage(source: source, target: target, kind: kind)
        let matches = try NameMatching.match(
            targets: target.entities, sources: source.entities, name: { $0.name }, originalName: { $0.originalName },
            describe: { "entity '\($0)'" }, version: target.version, entity: nil)

        var dropIndexes: [StepAction] = []
        var columnRenames: [StepAction] = []
        var tableChanges: [StepAction] = []
        var creates: [StepAction] = []
        var createIndexes: [StepAction] = []

        var entityRenames: [String: String] = [:]
        for match in matches {
            if let source = match.source, source.name != match.target.name {
                entityRenames[source.name] = match.target.name
            }
        }
        let matchedSources = Set(matches.compactMap { $0.source?.name })
        let renamedColumns = TablePlan.columnRenames(matches: matches, version: target.version)
        let declaredIndexNames = Set(
            target.entities.flatMap { entity in entity.indexes.map { $0.resolvedName(table: entity.name).sqlFolded } })
        // Renames are a permutation (swaps, case-only renames, a dropped table's name taken): see RenameOrder.
        let tableOrder = RenameOrder(
            entityRenames.map { ($0.key, $0.value) }.sorted { $0.0 < $1.0 },
            dropped: source.entities.filter { !matchedSources.contains($0.name) }.map(\.name),
            declared: (source.entities + target.entities).map(\.name))
        let renames = tableOrder.renames.map { StepAction.renameTable(from: $0.from, to: $0.to) }
        let drops = source.entities.filter { !matchedSources.contains($0.name) }.map {
            StepAction.dropTable(tableOrder.droppedMoved[$0.name] ?? $0.name)
        }

        for match in matches {
            guard let sourceEntity = match.source else {
                creates.append(.createTable(match.target))
                continue
            }
            try RelationshipChanges.check(
                source: sourceEntity, target: match.target, entityRenames: entityRenames, version: target.version,
                sourceSchema: source, targetSchema: target)
            let table = try TablePlan(
                source: sourceEntity, target: match.target, kind: kind, version: target.version,
                capabilities: capabilities, entityRenames: entityRenames, declaredIndexNames: declaredIndexNames,
                columnRenames: renamedColumns)
            stage.checks += table.checks
            stage.finalizingChecks += table.finalizingChecks
            dropIndexes += table.dropIndexes
            columnRenames += table.renames
            tableChanges += table.changes
            createIndexes += table.createIndexes
            if let finalizing = table.finalizingRebuild {
                stage.finalizingSteps.append(MigrationStep(action: .rebuild(finalizing)))
            }
        }
        // Every rename runs before anything is rebuilt or dropped, with the whole schema in place, so
        // SQLite's RENAME rewrites every reference (foreign keys, CHECKs, indexes, views, triggers).
        var touched = Set<String>()
        for action in dropIndexes + renames + columnRenames + drops + tableChanges
            + stage.finalizingSteps.map(\.action)
        {
            switch action {
            case .dropTable(let table): touched.insert(table.sqlFolded)
            case .dropColumn(_, let column): touched.insert(column.sqlFolded)
            case .renameTable(let from, _), .renameColumn(_, let from, _): touched.insert(from.sqlFolded)
            case .rebuild(let rebuild): touched.formUnion(rebuild.droppedColumns.map(\.sqlFolded))
            default: break
            }
        }
        let objects = SQLObjectPlan(source: source, target: target, touched: touched)
        stage.steps =
            (objects.drops + dropIndexes + renames + columnRenames + drops + tableChanges + creates
            + createIndexes + objects.rebuilds + objects.creates + Self.headerChanges(from: source, to: target)).map {
                MigrationStep(action: $0)
            }
        return stage
    }

    /// The header values the target sets that the source did not set alike; a value the target
    /// leaves nil stays the application's, as the database has it.
    static func headerChanges(from source: Schema?, to target: Schema) -> [StepAction] {
        [
            ("application_id", source?.applicationID, target.applicationID),
            ("user_version", source?.userVersion, target.userVersion),
        ]
        .compactMap { pragma, old, new in
            guard let new, new != old else { return nil }
            return .setHeader(pragma: pragma, value: new)
        }
    }
}
