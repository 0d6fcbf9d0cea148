/// A statement prepared on the leader by ``DqliteClient/prepare(_:)``: run it with
/// ``DqliteClient/exec(_:_:)-(DqliteStatement,_)`` or ``DqliteClient/query(_:_:)-(DqliteStatement,_)``,
/// release it with ``DqliteClient/finalize(_:)``. It belongs to the connection it was prepared on:
/// after ``DqliteClient/reconnect()``, prepare it again.
public struct DqliteStatement: Sendable {
    /// The server's id for the statement.
    let id: UInt32
    /// The statement's SQL.
    public let sql: String
    /// How many parameters the statement takes.
    public let parameterCount: Int
    /// The connection it was prepared on.
    let generation: Int
}
