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
