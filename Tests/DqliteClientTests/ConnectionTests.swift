import DqliteClient
import Foundation
import Testing

@Suite("Connecting to a dqlite cluster", .serialized, .enabled(if: DqliteBinaries.available, DqliteBinaries.skipReason))
struct ConnectionTests {
    @Test("A client given a follower's address first finds the leader and runs SQL there")
    func followerFirst() async throws {
        try await DqliteCluster.with { cluster in
            let leader = try cluster.leaderIndex()
            let followers = cluster.addresses.indices.filter { $0 != leader }.map { cluster.addresses[$0] }
            let client = try DqliteClient(nodes: followers + [cluster.addresses[leader]], database: "app")
            #expect(client.leaderAddress == cluster.addresses[leader])
            let version = try client.query("SELECT sqlite_version()").scalar?.text
            #expect(version?.hasPrefix("3.") == true)
        }
    }
}
