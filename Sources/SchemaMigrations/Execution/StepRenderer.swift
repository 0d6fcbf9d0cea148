/// The SQL of a stage's steps as they run on this database: rendered against one snapshot of the
/// live schema, read once for the stage and handed along, never read again here. An index is
/// dropped under the name the database gave it, a new index takes the next free name, a dropped
/// column takes its indexes with it, and a rebuild starts from the live table's own definition
/// (``TableRebuild/statements(live:renamesApplied:version:newName:)``, steps 4 to 8).
///
/// ```swift
/// var renderer = StepRenderer(live: try LiveSchema.read(from: db, onlyTables: tables), version: to)
/// for step in steps {
///     let sql = try renderer.statements(for: step.action)
///     for statement in sql { try db.execute(statement) }
///     renderer.record(step.action)   // the snapshot follows the stage's own changes
/// }
/// ```
///
/// The migration renders with the stage's renames applied (they ran before the snapshot was
/// taken); the dry run, which reads the database before them, renders with them shown applied to
/// the text, from the same code.
struct StepRenderer {
    /// The live schema, as the stage's steps so far left it.
    private(set) var live: LiveSchema
    /// Whether the stage's renames have run on ``live`` (false in a dry run).
    let renamesApplied: Bool
    /// The version the stage reaches, for messages.
    let version: Schema.Version
    /// Whether the connection erases the pages it frees (`PRAGMA secure_delete`): a rebuild then
    /// drops the old table's indexes before its copy (``FreedPages``).
    let freedPagesAreErased: Bool

    init(live: LiveSchema, renamesApplied: Bool = true, version: Schema.Version, freedPagesAreErased: Bool = false) {
        self.live = live
        self.renamesApplied = renamesApplied
        self.version = version
        self.freedPagesAreErased = freedPagesAreErased
    }

    /// The statements `action` runs on the database ``live`` describes.
    /// - Throws: `MigrationError` when a rebuild would have to remove something the plan does not name.
    func statements(for action: StepAction) throws -> [String] {
        try renderedStatements(for: action).map(\.sql)
    }

    /// The statements `action` runs on the database ``live`` describes, each with the long work it
    /// does that progress reports: the rebuild's copy, an index's build.
    func renderedStatements(for action: StepAction) throws -> [RenderedStatement] {
        switch action {
        case .dropColumn(let table, let column):
            let dropped = indexes(droppedWith: column, of: table)
            return (dropped.map { "DROP INDEX \(SQL.quoteIdentifier($0.name))" } + action.plannedStatements).map {
                RenderedStatement($0)
            }
        case .createIndex(let table, let index):
            return [
                RenderedStatement(
                    EntitySQL.createIndex(freelyNamed(index, table: table), table: table), work: .buildingIndex)
            ]
        case .dropIndex(let table, let index):
            return [RenderedStatement("DROP INDEX \(SQL.quoteIdentifier(liveName(of: index, table: table)))")]
        case .rebuild:
            guard let rendering = try rendering(of: action) else { return RenderedStatement.planned(action) }
            return Self.renderedStatements(of: rendering)
        case .createTable, .dropTable, .renameTable, .addColumn, .renameColumn, .createObject, .dropObject,
            .rebuildVirtualTable, .setHeader:
            return RenderedStatement.planned(action)
        }
    }

    /// A rebuild's statements, each with the long work it does: its copy, its indexes' builds.
    static func renderedStatements(of rendering: TableRebuild.Rendering) -> [RenderedStatement] {
        rendering.statements.enumerated().map { position, sql in
            RenderedStatement(
                sql,
                work: position == rendering.copyPosition
                    ? .copyingRows : rendering.indexPositions.contains(position) ? .buildingIndex : nil)
        }
    }

    /// For a rebuild whose live table is in the snapshot: its statements and what it carries over
    /// and removes; nil for any other step.
    func rendering(of action: StepAction) throws -> TableRebuild.Rendering? {
        guard case .rebuild(let rebuild) = action,
            let table = live.table(named: renamesApplied ? rebuild.table : rebuild.sourceTable)
        else { return nil }
        return try rebuild.statements(
            live: table, renamesApplied: renamesApplied, version: version, newName: freeTemporaryName(for: rebuild),
            statisticsTables: ["sqlite_stat1", "sqlite_stat4"].filter { live.objectNames.contains($0) },
            freedPagesAreErased: freedPagesAreErased)
    }

    /// Keeps ``live`` true to the database once `action` ran: the names it freed
    /// and took, the indexes and tables it dropped. A rename is not followed (SQLite rewrites the
    /// names in every table, index, trigger and view): the stage reads a new snapshot after it.
    mutating func record(_ action: StepAction) {
        switch action {
        case .dropIndex(let table, let index):
            remove(indexNamed: liveName(of: index, table: table), from: table)
        case .dropColumn(let table, let column):
            for index in indexes(droppedWith: column, of: table) { remove(indexNamed: index.name, from: table) }
            update(table) { $0.columns.removeAll { $0.name.sqlFolded == column.sqlFolded } }
        case .createIndex(let table, let index):
            live.objectNames.insert(freelyNamed(index, table: table).resolvedName(table: table).sqlFolded)
        case .createTable(let entity):
            live.objectNames.insert(entity.name.sqlFolded)
            for index in entity.indexes { live.objectNames.insert(index.resolvedName(table: entity.name).sqlFolded) }
        case .dropTable(let table):
            for index in live.table(named: table)?.indexes ?? [] { live.objectNames.remove(index.name.sqlFolded) }
            live.objectNames.remove(table.sqlFolded)
            live.tables.removeAll { $0.name.sqlFolded == table.sqlFolded }
        case .rebuild(let rebuild):
            // The old table's indexes went with it; those the rebuild wrote (as the old table had
            // them, or declared anew) are the new table's.
            let written =
                (try? rendering(of: action))?.parts.indexes
                ?? rebuild.target.indexes.map { EntitySQL.createIndex($0, table: rebuild.table) }
            for index in live.table(named: rebuild.table)?.indexes ?? [] {
                live.objectNames.remove(index.name.sqlFolded)
            }
            live.tables.removeAll { $0.name.sqlFolded == rebuild.table.sqlFolded }
            for sql in written {
                if let name = try? OnlineTableChange.renamed(indexSQL: sql, to: "", on: "").name {
                    live.objectNames.insert(name.sqlFolded)
                }
            }
        case .createObject(let object, _):
            live.objectNames.insert(object.name.sqlFolded)
        case .dropObject(let object, _):
            live.objectNames.remove(object.name.sqlFolded)
        case .renameTable, .renameColumn, .addColumn, .rebuildVirtualTable, .setHeader:
            break
        }
    }

    // MARK: - Names as the database has them

    /// The indexes made by `CREATE INDEX` on `column` of `table`: SQLite refuses to drop a column an index uses.
    private func indexes(droppedWith column: String, of table: String) -> [LiveSchema.Index] {
        live.table(named: table)?.indexes.filter { index in
            index.origin == .createIndex && index.columns.contains { $0.sqlFolded == column.sqlFolded }
        } ?? []
    }

    /// `index`, named: an index kept its name across a rename (`Trip_start` now on `begin`); a new
    /// one on a re-added `start` takes the next free name.
    private func freelyNamed(_ index: Schema.Index, table: String) -> Schema.Index {
        var index = index
        let taken = live.objectNames
        if index.name == nil, taken.contains(index.defaultName(table: table).sqlFolded) {
            let base = index.defaultName(table: table)
            index.name = (2...).lazy.map { "\(base)_\($0)" }.first { !taken.contains($0.sqlFolded) }
        }
        return index
    }

    /// The name the rebuild's new table is created under: ``TableRebuild/temporaryName``, or, when
    /// the database already has a table, index, view or trigger of that name (a name only this
    /// library makes, but legal to make by hand), the next free one after it.
    private func freeTemporaryName(for rebuild: TableRebuild) -> String {
        TemporaryName.free(rebuild.temporaryName, avoiding: live.objectNames)
    }

    /// The name of the live index made for the declared `index` (an index made by hand beside it stays).
    private func liveName(of index: Schema.Index, table: String) -> String {
        let declared = index.resolvedName(table: table)
        let structure = index.structure
        let candidates =
            live.table(named: table)?.indexes.filter { live in
                guard live.origin == .createIndex else { return false }
                return structure.terms == nil
                    ? live.structure == structure && !live.isPartial : live.fullStructure == structure
            } ?? []
        return LiveSchema.Index.madeForDeclaration(among: candidates, named: declared, table: table)?.name ?? declared
    }

    private mutating func remove(indexNamed name: String, from table: String) {
        live.objectNames.remove(name.sqlFolded)
        update(table) { $0.indexes.removeAll { $0.name.sqlFolded == name.sqlFolded } }
    }

    private mutating func update(_ table: String, _ change: (inout LiveSchema.Table) -> Void) {
        guard let position = live.tables.firstIndex(where: { $0.name.sqlFolded == table.sqlFolded }) else { return }
        change(&live.tables[position])
    }
}

/// One statement of a step as it runs, and the long work it does that progress reports (nil for
/// a statement that is quick whatever the table's size).
struct RenderedStatement: Equatable {
    var sql: String
    var work: MigrationProgress.Activity?

    init(_ sql: String, work: MigrationProgress.Activity? = nil) {
        self.sql = sql
        self.work = work
    }

    /// `action`'s statements as planned from the declared schemas, labelled by how they are built:
    /// a new table's indexes, a rebuild's copy (the second statement) and its indexes (after the
    /// rename), a new index.
    static func planned(_ action: StepAction) -> [RenderedStatement] {
        let statements = action.plannedStatements
        switch action {
        case .createTable:
            return statements.enumerated().map { RenderedStatement($1, work: $0 == 0 ? nil : .buildingIndex) }
        case .rebuild:
            return statements.enumerated().map { position, sql in
                RenderedStatement(
                    sql,
                    work: position == TableRebuild.declaredCopyPosition
                        ? .copyingRows : position >= TableRebuild.declaredIndexStart ? .buildingIndex : nil)
            }
        case .createIndex:
            return statements.map { RenderedStatement($0, work: .buildingIndex) }
        case .rebuildVirtualTable:
            return statements.enumerated().map { RenderedStatement($1, work: $0 == 1 ? .copyingRows : nil) }
        case .dropTable, .renameTable, .addColumn, .renameColumn, .dropColumn, .dropIndex, .createObject, .dropObject,
            .setHeader:
            return statements.map { RenderedStatement($0) }
        }
    }
}
