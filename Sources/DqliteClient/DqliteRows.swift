/// The rows a query returned, every batch gathered.
///
/// ```swift
/// let rows = try client.query("SELECT id, name FROM trip ORDER BY id")
/// for row in rows.rows { print(row[0].integer!, row[1].text!) }
/// ```
public struct DqliteRows: Equatable, Sendable {
    /// The result columns' names, in order.
    public let columns: [String]
    /// The rows, each with one value per column.
    public let rows: [[DqliteValue]]

    /// The values of the column named `name`, one per row.
    public func column(_ name: String) -> [DqliteValue]? {
        columns.firstIndex(of: name).map { index in rows.map { $0[index] } }
    }

    /// The first column of the first row: the answer to `SELECT count(*) …` and the like.
    public var scalar: DqliteValue? { rows.first?.first }
}

/// A database as one node holds it, from a DUMP request.
public struct DqliteDump: Equatable, Sendable {
    /// The database file's bytes (its pages up to the size page 1 records).
    public let database: [UInt8]
    /// The write-ahead log's bytes (frames not yet checkpointed into the file).
    public let wal: [UInt8]
}
