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
