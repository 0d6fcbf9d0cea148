extension DqliteClient {
    /// The database as the leader holds it: the file's pages and the write-ahead log.
    ///
    /// Write both to disk (`name` and `name-wal`) and SQLite opens the copy as the database.
    public func dump() throws -> DqliteDump {
        guard let address = leaderAddress else {
            throw DqliteError(code: .connectionClosed, message: "not connected to the leader: call reconnect()")
        }
        return try Self.dump(database, at: address, options: options)
    }

    /// The database `name` as the node at `address` holds it, leader or not: comparing every
    /// node's dump shows whether the replicas agree.
    public static func dump(_ name: String, at address: String, options: Options = Options()) throws -> DqliteDump {
        let node = try NodeConnection(
            address: address, connectTimeout: options.connectTimeout, requestTimeout: options.requestTimeout)
        defer { node.close() }
        return try node.dump(name)
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
