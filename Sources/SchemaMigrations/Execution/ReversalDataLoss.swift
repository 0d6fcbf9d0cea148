/// What a way back to an older version would drop of the live data: the rows of the tables, and
/// the non-empty values (neither NULL nor `''` nor `X''`) of the columns, that the newer versions
/// added. Measured on the database as it is, before anything is written, for every stage of the
/// way back: a column a later version renamed is followed to its live name; a column a later
/// version dropped holds nothing the way back could lose (it comes back with its default).
///
/// The migration refuses such a loss unless ``MigrationOptions/allowDataLoss`` is set; the dry run
/// counts it and refuses it in the same words.
struct ReversalDataLoss: Sendable {
    /// Every table and column of the way back that holds data, in the order the stages drop them.
    var losses: [DataLoss] = []

    /// Measures `stages` (a way back, newest first, as ``ResolvedPlan/plannedStages(from:to:planner:)``
    /// plans it) on `db`, which is at the first stage's source version. Stages going forward lose
    /// nothing here (their destructive steps are the dry run's warnings).
    init(_ stages: [PlannedStage], db: any SQLQuerying) throws {
        guard let first = stages.first, first.isReversal else { return }
        // The live name of each table and column of the version the walk is at.
        var liveTables: [String: String] = [:]
        var liveColumns: [String: [String: String]] = [:]
        for entity in first.source.entities {
            liveTables[entity.name] = entity.name
            liveColumns[entity.name] = Dictionary(
                entity.attributes.filter { $0.generated == nil }.map { ($0.name, $0.name) },
                uniquingKeysWith: { first, _ in first })
        }
        for stage in stages {
            guard let reversal = stage.reversal else { continue }
            for table in reversal.droppedTables {
                guard let live = liveTables[table] else { continue }
                let rows = try Self.count(in: live, where: nil, db: db)
                if rows > 0 { losses.append(DataLoss(stage: stage.header, table: table, column: nil, count: rows)) }
            }
            for (table, columns) in reversal.droppedColumns.sorted(by: { $0.key < $1.key }) {
                guard let live = liveTables[table] else { continue }
                for column in columns {
                    guard let liveColumn = liveColumns[table]?[column] else { continue }
                    let values = try Self.count(
                        in: live, where: "length(\(SQL.quoteIdentifier(liveColumn))) > 0", db: db)
                    if values > 0 {
                        losses.append(DataLoss(stage: stage.header, table: table, column: column, count: values))
                    }
                }
            }
            var nextTables: [String: String] = [:]
            var nextColumns: [String: [String: String]] = [:]
            for (newer, older) in reversal.tables {
                guard let live = liveTables[newer] else { continue }
                nextTables[older] = live
                for (newerColumn, olderColumn) in reversal.columns[newer] ?? [:] {
                    if let liveColumn = liveColumns[newer]?[newerColumn] {
                        nextColumns[older, default: [:]][olderColumn] = liveColumn
                    }
                }
            }
            (liveTables, liveColumns) = (nextTables, nextColumns)
        }
    }

    private static func count(in table: String, where condition: String?, db: any SQLQuerying) throws -> Int64 {
        try db.scalar("SELECT count(*) FROM \(SQL.quoteIdentifier(table))" + (condition.map { " WHERE \($0)" } ?? ""))?
            .int64Value ?? 0
    }

    /// The refusal of a way back that drops data, naming each stage, table or column and count;
    /// nil when it drops nothing.
    func refusal(from current: Schema.Version, to target: Schema.Version) -> MigrationError? {
        guard let first = losses.first else { return nil }
        let total = losses.reduce(Int64(0)) { $0 + $1.count }
        return MigrationError(
            .unsupportedChange,
            "taking the database back from \(current) to \(target) would drop data the newer versions added: the stage \(first.description)"
                + (losses.count > 1 ? ", and \(losses.count - 1) more (\(total) in all)" : ""),
            entity: first.table, property: first.column, version: first.stage.from,
            remedy:
                "copy what must be kept elsewhere, then allow the loss (`--allow-data-loss`, or MigrationOptions.allowDataLoss in code); or stay at \(current)",
            details: losses.map(\.description))
    }
}

/// One table or column a way back to an older version drops, with the data it holds: what
/// ``MigrationReport/dataLoss`` lists, and what ``MigrationOptions/allowDataLoss`` must allow.
public struct DataLoss: Sendable, Hashable, CustomStringConvertible {
    /// The stage that drops it (a stage taken back: ``StageHeader/isReversal``).
    public var stage: StageHeader
    /// The table, as the stage's newer version names it.
    public var table: String
    /// The column, as the stage's newer version names it; nil when the whole table goes.
    public var column: String?
    /// Non-empty values (neither NULL nor empty) in the column, or rows in the table.
    public var count: Int64

    /// `3.0.0 → 2.0.0 drops 'Trip.notes': 2 non-empty values`.
    public var description: String {
        // Counted here rather than with Reporting's helper: Execution comes before Reporting.
        let plural = count == 1 ? "" : "s"
        return column.map { "\(stage.versions) drops '\(table).\($0)': \(count) non-empty value\(plural)" }
            ?? "\(stage.versions) drops the table '\(table)': \(count) row\(plural)"
    }
}
