/// What reading a database needs from a connection: statements in, rows out.
///
/// The readers of a database's schema (``LiveSchema``), version (`VersionDetection`), metadata,
/// other tools' bookkeeping and the data checks take one, so they work alike on a local file
/// (``SQLiteConnection``) and on a replicated database reached over a wire protocol (the dqlite
/// client conforms in `SchemaMigrationsCluster`). What only a local connection can do (prepared
/// statements, the authorizer, tracing, backup) stays on ``SQLiteConnection``.
package protocol SQLQuerying: AnyObject {
    /// Where the database is, for messages: a file's path, or a cluster's database name.
    var path: String { get }
    /// Runs statements that return no rows.
    /// - Throws: `SQLiteError`, with SQLite's extended code and message.
    func execute(_ sql: String) throws
    /// Runs one statement that returns no rows, with arguments bound in order.
    /// - Throws: `SQLiteError`, with SQLite's extended code and message.
    func execute(_ sql: String, _ arguments: [SQLiteValue]) throws
    /// Runs one statement with arguments bound in order, and returns every row.
    /// - Throws: `SQLiteError`, with SQLite's extended code and message.
    func rows(_ sql: String, _ arguments: [SQLiteValue]) throws -> [[SQLiteValue]]
    /// What the reader of the live schema (Schema's `LiveSchema`) keeps of its last read on this
    /// connection, so that reading the same schema again reads no table in detail twice. The
    /// reader checks it against the schema before every use; a connection that keeps nothing (the
    /// default) is read in full every time.
    var schemaCache: AnyObject? { get set }
}

extension SQLQuerying {
    /// Nothing kept: every read of the schema reads it in full.
    package var schemaCache: AnyObject? {
        get { nil }
        set {}
    }

    /// Every row of a statement with no arguments.
    package func rows(_ sql: String) throws -> [[SQLiteValue]] { try rows(sql, []) }

    /// The first column of the first row, or nil when there is none.
    package func scalar(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> SQLiteValue? {
        try rows(sql, arguments).first?.first
    }

    /// Reads an integer pragma, such as `foreign_keys` or `schema_version`.
    package func pragmaInteger(_ name: String) throws -> Int64 {
        try scalar("PRAGMA \(name)")?.int64Value ?? 0
    }
}

extension SQLiteConnection: SQLQuerying {}
