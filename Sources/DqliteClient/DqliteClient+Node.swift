#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension DqliteClient {
    /// The database as the leader holds it: the file's pages and the write-ahead log, in memory.
    /// For a database of any size, ``dump(writingTo:)`` writes them to disk as they arrive instead.
    ///
    /// Write both to disk (`name` and `name-wal`) and SQLite opens the copy as the database.
    public func dump() throws -> DqliteDump {
        var sink = InMemoryDump()
        try Self.dump(database, at: try leaderForDump(), options: options, into: &sink)
        return sink.dump
    }

    /// Writes the database as the leader holds it to `path`, and its write-ahead log to
    /// `path-wal` when it has one: SQLite opens the two as the database. The bytes go to disk as
    /// they arrive, so memory stays flat however large the database.
    ///
    /// ```swift
    /// let sizes = try client.dump(writingTo: "/backups/trips.sqlite")
    /// print(sizes.database, sizes.wal)
    /// ```
    ///
    /// Files at `path` and `path-wal` are replaced; a `path-shm` or `path-journal`, which SQLite
    /// would read with the new file, is removed, as is a `path-wal` when the node has no log. On
    /// a failure nothing is left at `path` or `path-wal`: to keep an older copy until a new one is
    /// whole, write beside it and rename.
    /// - Throws: `DqliteError`: what the node answered, `.connectionClosed` or `.timeout` as for
    ///   any request, `.protocolError` for a malformed answer, `.localFile` when a file cannot be
    ///   created or written.
    @discardableResult
    public func dump(writingTo path: String) throws -> DqliteDumpSizes {
        let address = try leaderForDump()
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
        var writer = try DumpFileWriter(path: path)
        do {
            try Self.dump(database, at: address, options: options, into: &writer)
            try writer.finish()
        } catch {
            try? writer.finish()
            for suffix in ["", "-wal"] { unlink(path + suffix) }
            throw error
        }
        return writer.sizes
    }

    /// The database `name` as the node at `address` holds it, leader or not: comparing every
    /// node's dump shows whether the replicas agree.
    public static func dump(_ name: String, at address: String, options: Options = Options()) throws -> DqliteDump {
        var sink = InMemoryDump()
        try dump(name, at: address, options: options, into: &sink)
        return sink.dump
    }

    private static func dump(_ name: String, at address: String, options: Options, into sink: inout some DumpSink)
        throws
    {
        let node = try NodeConnection(
            address: address, connectTimeout: options.connectTimeout, requestTimeout: options.requestTimeout)
        defer { node.close() }
        try node.dump(name, into: &sink)
    }

    private func leaderForDump() throws -> String {
        guard let address = leaderAddress else {
            throw DqliteError(code: .connectionClosed, message: "not connected to the leader: call reconnect()")
        }
        return address
    }

    /// The cluster's nodes and their roles, as the node at `address` knows them.
    public static func cluster(at address: String, options: Options = Options()) throws -> [DqliteNode] {
        let node = try NodeConnection(
            address: address, connectTimeout: options.connectTimeout, requestTimeout: options.requestTimeout)
        defer { node.close() }
        return try node.cluster()
    }

    /// Which node the node at `address` believes leads the cluster (nil: it knows of none).
    public static func leader(accordingTo address: String, options: Options = Options()) throws -> String? {
        let node = try NodeConnection(
            address: address, connectTimeout: options.connectTimeout, requestTimeout: options.requestTimeout)
        defer { node.close() }
        return try node.leader()
    }
}
