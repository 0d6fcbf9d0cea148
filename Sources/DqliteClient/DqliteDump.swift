/// A database as one node holds it, from a DUMP request.
public struct DqliteDump: Equatable, Sendable {
    /// The database file's bytes (its pages up to the size page 1 records).
    public let database: [UInt8]
    /// The write-ahead log's bytes (frames not yet checkpointed into the file).
    public let wal: [UInt8]
}

/// What ``DqliteClient/dump(writingTo:)`` wrote: the database file's size and its write-ahead
/// log's (0 when the node had no log, and no `-wal` file was written).
public struct DqliteDumpSizes: Equatable, Sendable {
    /// The database file's bytes.
    public var database: Int
    /// The write-ahead log's bytes.
    public var wal: Int
}
