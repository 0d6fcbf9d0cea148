/// Measures what the steps of the first pending stage would do to the live data, with read-only
/// queries: rows rewritten or dropped, non-empty values in dropped columns, NULLs a new NOT NULL
/// meets, duplicates a new uniqueness constraint meets.
struct ImpactMeasurement {
    let db: SQLiteConnection
    /// The database as it is: the stage's source version.
    let live: LiveSchema
    let source: Schema
    let target: Schema
    /// The stage's data checks; their uniqueness checks say which columns to look for duplicates in.
    let checks: [DataCheck]
    /// What earlier steps already reported (a column's NULLs, a constraint's duplicates), so that a
    /// custom stage's finalizing rebuild does not report it again.
    private var reported = Set<String>()

    init(db: SQLiteConnection, live: LiveSchema, source: Schema, target: Schema, checks: [DataCheck]) {
        self.db = db
        self.live = live
        self.source = source
        self.target = target
        self.checks = checks
    }

    mutating func measure(_ step: MigrationStep) throws -> MigrationReport.Impact {
        var impact = MigrationReport.Impact()
        if step.rewritesRows || step.op == .dropTable, step.op != .rebuildTable, live.table(named: step.table) != nil {
            impact.rows = try count(in: step.table)
        }
        switch step.action {
        case .dropTable(let table):
            let columns =
                live.table(named: table)?.columns.filter { $0.hidden == 0 && $0.primaryKeyPosition == 0 }.map(\.name)
                ?? []
            impact.nonEmptyValues = try columns.map { try nonEmptyValues(table: table, column: $0) }
        case .dropColumn(let table, let column):
            impact.nonEmptyValues = [try nonEmptyValues(table: table, column: column)]
        case .rebuild(let rebuild):
            try measureInOneScan(rebuild, into: &impact)
            impact.duplicates = try duplicates(for: step)
        case .createIndex:
            impact.duplicates = try duplicates(for: step)
        default:
            break
        }
        return impact
    }

    /// A rebuild's rows, the non-empty values of its dropped columns and the NULLs its new NOT NULLs
    /// meet, counted in one pass over the table rather than one per figure.
    private mutating func measureInOneScan(_ rebuild: TableRebuild, into impact: inout MigrationReport.Impact) throws {
        let sourceTable = sourceEntity(of: rebuild.table)?.name ?? rebuild.table
        guard let liveTable = live.table(named: sourceTable) else { return }
        let dropped = rebuild.droppedColumns.filter { liveTable.column(named: $0) != nil }
        let tightened = nullableBecomingRequired(in: rebuild.target)
        let sums =
            dropped.map { "sum(length(\(SQL.quoteIdentifier($0))) > 0)" }
            + tightened.map { "sum(\(SQL.quoteIdentifier($0.old.name)) IS NULL)" }
        let row =
            try db.rows(
                "SELECT " + (["count(*)"] + sums).joined(separator: ", ") + " FROM \(SQL.quoteIdentifier(sourceTable))"
            ).first ?? []
        func value(_ index: Int) -> Int64 { index < row.count ? row[index].int64Value ?? 0 : 0 }
        impact.rows = value(0)
        impact.nonEmptyValues = dropped.enumerated().map { .init(column: "\(sourceTable).\($1)", count: value(1 + $0)) }
        impact.nulls = tightened.enumerated().map { offset, pair in
            .init(
                column: "\(sourceTable).\(pair.old.name)", count: value(1 + dropped.count + offset),
                defaultValue: pair.new.defaultValue)
        }
        impact.replacedValues = try replacedValues(rebuild, liveTable: liveTable)
    }

    /// For each column the rebuild makes generated, the rows whose stored value differs from the
    /// one SQLite will compute: the expression is evaluated over the live rows, each column read
    /// under its target name (a new column as its default), so renames in the same stage are seen.
    private func replacedValues(_ rebuild: TableRebuild, liveTable: LiveSchema.Table) throws -> [MigrationReport.Impact
        .ColumnCount]
    {
        guard !rebuild.replacedByGenerated.isEmpty else { return [] }
        let named = rebuild.columns.map { column -> String in
            let value =
                column.sourceName.flatMap { liveTable.column(named: $0) }.map { SQL.quoteIdentifier($0.name) } ?? column
                .attribute.defaultValue ?? "NULL"
            return "\(value) AS \(SQL.quoteIdentifier(column.attribute.name))"
        }
        let differs = rebuild.replacedByGenerated.compactMap { name in
            rebuild.target.attribute(named: name)?.generated.map {
                "sum(\(SQL.quoteIdentifier(name)) IS NOT (\($0.expression)))"
            }
        }
        let rows = "(SELECT \(named.joined(separator: ", ")) FROM \(SQL.quoteIdentifier(liveTable.name)))"
        // An expression over something this connection lacks (a function the app registers) is not measured.
        guard let row = try? db.rows("SELECT " + differs.joined(separator: ", ") + " FROM " + rows).first else {
            return []
        }
        return zip(rebuild.replacedByGenerated, row).map {
            .init(column: "\(rebuild.table).\($0)", count: $1.int64Value ?? 0)
        }
    }

    /// The attributes of `entity` that are required now and were optional in the source, not reported yet.
    private mutating func nullableBecomingRequired(in entity: Schema.Entity) -> [(
        old: Schema.Attribute, new: Schema.Attribute
    )] {
        guard let sourceEntity = sourceEntity(of: entity.name) else { return [] }
        return entity.attributes.filter { !$0.isOptional }.compactMap { attribute in
            guard
                let old = sourceEntity.attribute(named: attribute.name)
                    ?? attribute.originalName.flatMap(sourceEntity.attribute(named:)),
                old.isOptional, reported.insert("nulls \(entity.name).\(attribute.name)").inserted
            else { return nil }
            return (old, attribute)
        }
    }

    private func count(in table: String, where condition: String? = nil) throws -> Int64 {
        try db.scalar("SELECT count(*) FROM \(SQL.quoteIdentifier(table))" + (condition.map { " WHERE \($0)" } ?? ""))?
            .int64Value ?? 0
    }

    /// Rows whose value is neither NULL nor empty (`''`, `X''`): 0 counts, since it is data.
    private func nonEmptyValues(table: String, column: String) throws -> MigrationReport.Impact.ColumnCount {
        let rows =
            live.table(named: table)?.column(named: column) == nil
            ? 0
            : try count(in: table, where: "length(\(SQL.quoteIdentifier(column))) > 0")
        return .init(column: "\(table).\(column)", count: rows)
    }

    /// The entity of the source version that `table` (a target name) continues.
    private func sourceEntity(of table: String) -> Schema.Entity? {
        source.entity(named: table) ?? target.entity(named: table)?.originalName.flatMap(source.entity(named:))
    }

    /// The duplicates each new uniqueness constraint the step creates would meet.
    private mutating func duplicates(for step: MigrationStep) throws -> [MigrationReport.Impact.Duplicates] {
        try checks.compactMap { check -> MigrationReport.Impact.Duplicates? in
            guard
                case .noDuplicates(
                    let table, let columns, let entity, let properties, let nullsBecome, let collations) = check,
                entity == step.table
            else { return nil }
            if case .createIndex(_, let index) = step.action, !(index.isUnique && index.columns == properties) {
                return nil
            }
            guard reported.insert("unique \(entity)(\(properties.joined(separator: ", ")))").inserted else {
                return nil
            }
            let shared = try DataCheck.duplicates(
                in: table, columns: columns, nullsBecome: nullsBecome, collations: collations, db: db, limit: 10)
            let total =
                shared.isEmpty
                ? 0
                : try db.scalar(
                    "SELECT count(*) FROM (\(DataCheck.duplicatesQuery(table: table, columns: columns, nullsBecome: nullsBecome, collations: collations)))"
                )?.int64Value ?? 0
            return .init(
                columns: properties, total: total, values: shared.map { .init(value: $0.values, rows: $0.count) })
        }
    }
}
