import DqliteTestCluster
import Foundation
import Testing

@testable import DqliteClient

@Suite("Connecting to a dqlite cluster", .serialized, .enabled(if: DqliteBinaries.available, DqliteBinaries.skipReason))
struct ConnectionTests {
    @Test("A client given followers' addresses first finds the leader and runs SQL there")
    func followerFirst() throws {
        let cluster = try DqliteCluster.shared()
        let leader = try cluster.leaderIndex()
        let followers = cluster.addresses.indices.filter { $0 != leader }.map { cluster.addresses[$0] }
        let client = try DqliteClient(nodes: followers + [cluster.addresses[leader]], database: "connect")
        #expect(client.leaderAddress == cluster.addresses[leader])
        #expect(try client.query("SELECT sqlite_version()").scalar?.text?.hasPrefix("3.") == true)
    }

    @Test("A client given only one follower's address reaches the leader that follower names")
    func singleFollower() throws {
        let cluster = try DqliteCluster.shared()
        let leader = try cluster.leaderIndex()
        let follower = cluster.addresses[(leader + 1) % cluster.addresses.count]
        #expect(try DqliteClient.leader(accordingTo: follower) == cluster.addresses[leader])
        let client = try DqliteClient(nodes: [follower], database: "connect")
        #expect(client.leaderAddress == cluster.addresses[leader])
        #expect(try DqliteClient.cluster(at: follower).map(\.role) == [.voter, .voter, .voter])
    }

    @Test("A follower asked to run SQL answers 'not leader' (10250), reported as .notLeader")
    func followerRefusesSQL() throws {
        let cluster = try DqliteCluster.shared()
        let leader = try cluster.leaderIndex()
        let follower = cluster.addresses[(leader + 1) % cluster.addresses.count]
        let node = try NodeConnection(address: follower, connectTimeout: .seconds(2), requestTimeout: .seconds(5))
        defer { node.close() }
        _ = try node.call(.client(id: 7))
        _ = try node.call(.open(name: "connect"))
        let error = try #require(throws: DqliteError.self) {
            try node.call(.execSQL(database: 0, sql: "CREATE TABLE t(a)", parameters: []), sql: "CREATE TABLE t(a)")
        }
        #expect(error.code == .notLeader)
        #expect(error.sqliteCode == DqliteError.notLeaderCode)
        #expect(error.address == follower)
    }
}

@Suite(
    "A dqlite database written to disk as it arrives", .serialized,
    .enabled(if: DqliteBinaries.available, DqliteBinaries.skipReason))
struct DumpToDiskTests {
    @Test(
        "dump(writingTo:) writes the leader's file and log byte for byte as dump() holds them, and SQLite opens the copy"
    )
    func dumpWritingToMatchesTheDumpInMemory() throws {
        let client = try DqliteClient(nodes: try DqliteCluster.shared().addresses, database: "dump-to-disk")
        try client.exec("CREATE TABLE IF NOT EXISTS note(id INTEGER PRIMARY KEY, body BLOB)")
        try client.exec("DELETE FROM note")
        try client.exec(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO note SELECT i, randomblob(700) FROM n"
        )
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dump-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("copy.sqlite").path

        let sizes = try client.dump(writingTo: path)
        let inMemory = try client.dump()
        #expect(sizes == DqliteDumpSizes(database: inMemory.database.count, wal: inMemory.wal.count))
        #expect(sizes.database + sizes.wal > 2000 * 700)
        #expect(FileManager.default.contents(atPath: path).map { Array($0) } == inMemory.database)
        #expect(FileManager.default.contents(atPath: path + "-wal").map { Array($0) } ?? [] == inMemory.wal)
        let copy = try DumpContent.render(fileAt: path)
        #expect(copy == (try DumpContent.render(inMemory)))
        #expect(copy.split(separator: "\n").filter { $0.hasPrefix("|i:") }.count == 2000)
    }
}
