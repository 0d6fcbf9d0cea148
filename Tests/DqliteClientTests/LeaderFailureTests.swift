import DqliteTestCluster
import Foundation
import Testing

@testable import DqliteClient

/// The leader killed (SIGKILL, by PID) while a client works: each test has its own cluster.
@Suite("The leader dies", .serialized, .enabled(if: DqliteBinaries.available, DqliteBinaries.skipReason))
struct LeaderFailureTests {
    @Test(
        "Killed mid-transaction: the next request fails with .connectionClosed, the client reconnects to the new leader, the change is gone"
    )
    func killedMidTransaction() async throws {
        try await DqliteCluster.with { cluster in
            let client = try DqliteClient(nodes: cluster.addresses, database: "orders")
            try client.exec("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT)")
            try client.exec("INSERT INTO item(name) VALUES ('kept')")
            let insert = try client.prepare("INSERT INTO item(name) VALUES (?)")
            try client.exec("BEGIN IMMEDIATE")
            try client.exec(insert, ["lost 1"])
            let leader = try #require(cluster.addresses.firstIndex(of: client.leaderAddress ?? ""))

            cluster.kill(node: leader)
            let error = try #require(throws: DqliteError.self) { try client.exec(insert, ["lost 2"]) }
            #expect(error.code == .connectionClosed)
            #expect(error.address == cluster.addresses[leader])
            #expect(client.leaderAddress == nil)

            try client.reconnect()
            #expect(client.leaderAddress != nil && client.leaderAddress != cluster.addresses[leader])
            #expect(try client.query("SELECT name FROM item").rows == [[.text("kept")]])
            #expect(try client.query("PRAGMA quick_check").scalar == .text("ok"))
            let stale = try #require(throws: DqliteError.self) { try client.exec(insert, ["again"]) }
            #expect(stale.code == .misuse)
        }
    }

    @Test(
        "Killed just after COMMIT was sent: .commitOutcomeUnknown, and after reconnecting the data is all there or not at all"
    )
    func killedDuringCommit() async throws {
        try await DqliteCluster.with { cluster in
            let client = try DqliteClient(nodes: cluster.addresses, database: "orders")
            try client.exec("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            try client.exec("BEGIN IMMEDIATE")
            try client.exec(
                """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300000)
                INSERT INTO item SELECT i, 'item ' || i FROM n
                """)
            let leader = try #require(cluster.addresses.firstIndex(of: client.leaderAddress ?? ""))
            let pid = cluster.nodes[leader].pid
            // COMMIT on the wire, no answer read
            client.afterSending = { sql in if sql == "COMMIT" { kill(pid, SIGKILL) } }

            let error = try #require(throws: DqliteError.self) { try client.exec("COMMIT") }
            #expect(error.code == .commitOutcomeUnknown)
            #expect(error.message.contains("may or may not have been committed"))
            cluster.kill(node: leader)  // reaps it
            client.afterSending = nil

            try client.reconnect()
            #expect(client.leaderAddress != cluster.addresses[leader])
            let count = try #require(try client.query("SELECT count(*) FROM item").scalar?.integer)
            #expect(count == 0 || count == 300_000, "a transaction is all or nothing, found \(count) rows")
            #expect(try client.query("PRAGMA quick_check").scalar == .text("ok"))
        }
    }
}
