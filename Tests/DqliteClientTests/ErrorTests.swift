import DqliteClient
import DqliteTestCluster
import Foundation
import Testing

@Suite("dqlite errors as typed errors", .serialized, .enabled(if: DqliteBinaries.available, DqliteBinaries.skipReason))
struct ErrorTests {
    /// A client on the shared cluster with a `trip` table holding one row, and the leader's dump.
    private func setUp(_ name: String) throws -> (DqliteClient, DqliteDump) {
        let client = try DqliteClient(nodes: try DqliteCluster.shared().addresses, database: name)
        try client.exec("CREATE TABLE trip(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
        try client.exec("INSERT INTO trip VALUES (1, 'Lisbon')")
        return (client, try client.dump())
    }

    @Test("A syntax error comes back with SQLite's code, message and the SQL, and changes nothing")
    func syntaxError() throws {
        let (client, before) = try setUp("syntax")
        let error = try #require(throws: DqliteError.self) { try client.exec("INSERT INTO trip VALUES (2, 'Porto'") }
        #expect(error.code == .sqlite)
        #expect(error.sqliteCode == 1)
        #expect(error.message == "incomplete input")
        #expect(error.sql == "INSERT INTO trip VALUES (2, 'Porto'")
        #expect(error.address == client.leaderAddress)
        #expect("\(error)".hasPrefix("dqlite SQLite error (SQLite 1): incomplete input - at 127.0.0.1:"))
        #expect(try client.dump() == before)
    }

    @Test("A constraint failure comes back as .constraint with SQLite's extended code, and changes nothing")
    func constraint() throws {
        let (client, before) = try setUp("constraint")
        let unique = try #require(throws: DqliteError.self) {
            try client.exec("INSERT INTO trip VALUES (?, ?)", [2, "Lisbon"])
        }
        #expect(unique.code == .constraint)
        #expect(unique.sqliteCode == 2067)  // SQLITE_CONSTRAINT_UNIQUE
        #expect(unique.message == "UNIQUE constraint failed: trip.name")
        let notNull = try #require(throws: DqliteError.self) { try client.exec("INSERT INTO trip VALUES (3, NULL)") }
        #expect(notNull.sqliteCode == 1299)  // SQLITE_CONSTRAINT_NOTNULL
        #expect(try client.dump() == before)
        #expect(try client.query("SELECT count(*) FROM trip").scalar == .integer(1))
    }

    @Test("A SELECT sent with exec is refused with a message saying to use query; an INSERT sent with query is not run")
    func wrongStatementKind() throws {
        let (client, before) = try setUp("kinds")
        let select = try #require(throws: DqliteError.self) { try client.exec("SELECT name FROM trip") }
        #expect(select.code == .wrongStatementKind)
        #expect(select.sqliteCode == 100)
        #expect(select.message.contains("send it with query"))
        let insert = try #require(throws: DqliteError.self) { try client.query("INSERT INTO trip VALUES (2, 'Porto')") }
        #expect(insert.code == .wrongStatementKind)
        #expect(insert.message.contains("send it with exec"))
        #expect(try client.dump() == before)
        #expect(try client.query("SELECT name FROM trip").rows == [[.text("Lisbon")]])
    }

    @Test(
        "A second client's write while another holds a transaction fails at once with .busy (5); after COMMIT it goes through"
    )
    func busy() throws {
        let (holder, _) = try setUp("busy")
        let other = try DqliteClient(nodes: try DqliteCluster.shared().addresses, database: "busy")
        try holder.exec("BEGIN IMMEDIATE")
        try holder.exec("INSERT INTO trip VALUES (2, 'Porto')")
        let error = try #require(throws: DqliteError.self) { try other.exec("INSERT INTO trip VALUES (3, 'Faro')") }
        #expect(error.code == .busy)
        #expect(error.sqliteCode == 5)
        #expect(error.message == "database is locked")
        try holder.exec("COMMIT")
        try other.exec("INSERT INTO trip VALUES (3, 'Faro')")
        #expect(try other.query("SELECT name FROM trip ORDER BY id").column("name") == ["Lisbon", "Porto", "Faro"])
    }
}

/// Nodes that cannot answer: no cluster needed, so these run everywhere.
@Suite("Unreachable dqlite nodes")
struct UnreachableNodeTests {
    @Test("No node listening: the leader search gives up after its timeout naming each node's answer")
    func noLeader() throws {
        let ports = try FreePorts.pick(2)
        let addresses = ports.map { "127.0.0.1:\($0)" }
        let options = DqliteClient.Options(connectTimeout: .milliseconds(200), leaderSearchTimeout: .milliseconds(500))
        let start = ContinuousClock.now
        let error = try #require(throws: DqliteError.self) {
            try DqliteClient(nodes: addresses, database: "none", options: options)
        }
        #expect(error.code == .noLeader)
        #expect(error.message.contains("\(addresses[0]): dqlite connection closed"))
        #expect(error.message.contains(addresses[1]))
        #expect(ContinuousClock.now - start < .seconds(3))
    }

    @Test("A node that accepts the connection but never answers: .timeout after the request timeout, not a hang")
    func silentNode() throws {
        let listener = try SilentListener()
        let options = DqliteClient.Options(
            connectTimeout: .milliseconds(500), requestTimeout: .milliseconds(300),
            leaderSearchTimeout: .milliseconds(100))
        let start = ContinuousClock.now
        let error = try #require(throws: DqliteError.self) {
            try DqliteClient(nodes: [listener.address], database: "silent", options: options)
        }
        #expect(error.code == .noLeader)
        #expect(error.message.contains("\(listener.address): dqlite timeout"))
        #expect(ContinuousClock.now - start < .seconds(2))
    }
}
