/// What a custom stage's `willMigrate` and `didMigrate` closures work with: the database inside
/// the migration's transaction, at the stage's source schema (`willMigrate`) or target schema
/// (`didMigrate`).
///
/// ```swift
/// willMigrate: { context in
///     try context.execute("""
///         DELETE FROM Trip WHERE id NOT IN (SELECT min(id) FROM Trip GROUP BY name)
///         """)
/// }
/// ```
///
/// Everything done through the context is part of the migration: if anything fails, it is all
/// rolled back. Do not keep the context beyond the closure.
public final class MigrationContext {
    /// The schema the database is at while the closure runs, as stored (relationships appear as
    /// their `…_id` columns).
    public let schema: Schema
    let db: any MigrationDatabase
    let stage: (from: Schema.Version, to: Schema.Version)
    let progress: (@Sendable (MigrationProgress) -> Void)?
    /// What watches the code: told which columns ``update(_:id:values:)`` writes and whether it
    /// could prove each value readable, so the check after the code need not read them again.
    let footprint: CodeFootprint?
    /// Prepared statements reused across calls: a loop of a million updates prepares one statement.
    private var statements: [String: any PreparedStatement] = [:]
    /// UPDATE statements by table and columns, so a loop prepares once.
    var updateStatements: [String: [String: any PreparedStatement]] = [:]
    /// The last single-property update, reused without lookups by a loop that repeats it.
    var lastUpdate: RepeatedUpdate?
    /// How deep the delete rules' cascades are: names the temporary table each level reads.
    var deletionDepth = 0
    /// Lookups by name, built on first use.
    var entitiesByName: [String: Schema.Entity] = [:]
    var lastEntity: Schema.Entity?
    var attributesByEntity: [String: [String: Schema.Attribute]] = [:]

    init(
        schema: Schema, db: any MigrationDatabase, stage: (from: Schema.Version, to: Schema.Version),
        progress: (@Sendable (MigrationProgress) -> Void)?, footprint: CodeFootprint? = nil
    ) {
        self.schema = schema
        self.db = db
        self.stage = stage
        self.progress = progress
        self.footprint = footprint
    }

    /// Runs SQL (one or more statements), the escape hatch for anything the data API lacks.
    public func execute(_ sql: String) throws {
        try db.execute(sql)
    }

    /// Runs one statement with `?` arguments. The statement is prepared once and reused: the
    /// context keeps up to 64 distinct statements prepared.
    public func execute(_ sql: String, arguments: [SQLiteValue]) throws {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        while try statement.step() {}
    }

    /// The most statements ``execute(_:arguments:)`` keeps prepared. A loop that splices its
    /// values into the SQL, a new statement on every call, then prepares each one as
    /// ``execute(_:)`` does, instead of keeping one per row until the stage ends.
    static let statementCacheLimit = 64

    /// The most rows whose keys a delete that follows references holds in memory; above, they go
    /// into a temporary table.
    static let deletedKeysInMemory = 1000

    /// How many statements ``execute(_:arguments:)`` keeps prepared now.
    var cachedStatementCount: Int { statements.count }

    func cachedStatement(_ sql: String) throws -> any PreparedStatement {
        if let statement = statements[sql] {
            statement.reset()
            return statement
        }
        let statement = try db.prepareStatement(sql)
        if statements.count >= Self.statementCacheLimit { statements.removeAll() }
        statements[sql] = statement
        return statement
    }

    /// The rows of a query, each as its values in column order.
    public func rows(_ sql: String, arguments: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        try db.rows(sql, arguments)
    }

    /// The first value of the first row of a query.
    public func scalar(_ sql: String, arguments: [SQLiteValue] = []) throws -> SQLiteValue? {
        try db.scalar(sql, arguments)
    }

}

/// A single-property update a loop repeats row after row: the entity and the property as the
/// caller named them, the table, the declaration the name resolved to and the prepared statement.
/// A class, so that each call reads it without copying the declaration.
final class RepeatedUpdate {
    let entity: String
    let table: String
    let property: String
    let attribute: Schema.Attribute
    /// The declaration's value type and affinity, read on each call without copying the declaration.
    let valueType: Schema.ValueType
    let affinity: Schema.StorageType
    let statement: any PreparedStatement

    init(entity: String, table: String, property: String, attribute: Schema.Attribute, statement: any PreparedStatement)
    {
        self.entity = entity
        self.table = table
        self.property = property
        self.attribute = attribute
        self.valueType = attribute.valueType
        self.affinity = attribute.affinity
        self.statement = statement
    }
}
