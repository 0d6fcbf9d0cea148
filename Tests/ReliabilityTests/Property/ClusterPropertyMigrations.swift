import DqliteClient
import DqliteTestCluster
import Foundation
import SchemaMigrationsCluster
import Testing

@testable import SchemaMigrations

extension Reliability {
    /// The property family's cases (random schemas, data, SQLite features the declarations do not
    /// speak of, one or two lightweight stages), each loaded into a database of a 3-node dqlite
    /// cluster and migrated there over the wire, and migrated locally from the same file. The
    /// executor is the same code on both: every node must end with exactly the local file's
    /// content, or refuse with the same code and stay unchanged.
    ///
    /// Quick mode runs `ClusterPropertyMigrations.quickCases` cases; `RELIABILITY_LONG=1` runs
    /// `longCases`. Skipped without `dqlite-demo`.
    @Suite(.serialized, .enabled(if: DqliteBinaries.available, Comment(rawValue: DqliteBinaries.skipMessage)))
    struct ClusterPropertyMigrations {
        static let quickCases = 12
        static let longCases = 400

        @Test(.timeLimit(.minutes(60)))
        func theClusterEndsWhereTheLocalFileDoes() throws {
            let config = ReliabilityConfig.current
            let cases = config.long ? Self.longCases : Self.quickCases
            let scratch = Scratch("cluster-property")
            let cluster = try DqliteCluster()
            defer { cluster.stop() }
            var tally = PropertyTally()
            for index in 0..<cases {
                let testCase = PropertyMigrations.generate(seed: config.seed, index: index)
                let url = scratch.url("case-\(index).sqlite")
                let (problems, code) = try Self.run(testCase, url: url, cluster: cluster, database: "case-\(index)")
                tally.record(testCase, passed: problems.isEmpty, refusedWith: code)
                #expect(
                    problems.isEmpty,
                    "cluster property case \(index) (\(config.reproduction)):\n\(problems.joined(separator: "\n"))\n\(testCase.description)"
                )
                scratch.removeDatabase(url)
            }
            ReliabilityConfig.summary("cluster property", tally.summary)
        }

        static func run(_ testCase: PropertyMigrations.Case, url: URL, cluster: DqliteCluster, database: String) throws
            -> (problems: [String], refusal: MigrationError.Code?)
        {
            try testCase.features.createV1(testCase.versions[0], at: url, plan: "property")
            try ClusterLoad.copy(fileAt: url, to: database, on: cluster.addresses)
            let before = try cluster.contents(of: database)
            guard Set(before).count == 1 else { return (["the nodes disagree after loading V1"], nil) }
            let stages = zip(testCase.versions, testCase.versions.dropFirst()).map {
                PlannedStage(from: $0.version, to: $1.version, kind: .lightweight)
            }
            let migrator = Migrator(
                resolvedPlan: try ResolvedPlan(
                    name: "property", schemas: testCase.versions.map(\.schema), stages: stages))

            let local = Result { try migrator.migrate(databaseAt: url) }
            let remote = Result { try migrator.migrate(cluster: cluster.addresses, database: database) }
            switch (local, remote) {
            case (.failure(let localError as MigrationError), .failure(let clusterError as MigrationError)):
                var problems: [String] = []
                if localError.code != clusterError.code {
                    problems.append(
                        "refused locally with \(localError.code), on the cluster with \(clusterError.code):\n\(localError)\n---\n\(clusterError)"
                    )
                }
                if try cluster.contents(of: database) != before { problems.append("refused, but the cluster changed") }
                return (problems, localError.code)
            case (.failure(let error), .success):
                return (["refused locally, migrated on the cluster:\n\(error)"], nil)
            case (.success, .failure(let error)):
                return (["migrated locally, refused on the cluster:\n\(error)"], nil)
            case (.failure(let error), _), (_, .failure(let error)):
                return (["unexpected error: \(error)"], nil)
            case (.success(let localResult), .success(let clusterResult)):
                var problems: [String] = []
                if localResult.toVersion != clusterResult.toVersion {
                    problems.append("local reached \(localResult.toVersion), the cluster \(clusterResult.toVersion)")
                }
                let contents = try cluster.contents(of: database)
                if Set(contents).count != 1 { problems.append("the nodes hold different content") }
                let metadata: Set<String> = [Migrator.metadataTable]
                let localContent = try DumpContent.render(fileAt: url.path, excluding: metadata)
                let clusterContent = try DumpContent.render(
                    DqliteClient.dump(database, at: cluster.addresses[0]), excluding: metadata)
                if localContent != clusterContent {
                    problems.append(
                        "the cluster's content differs from the local file's:\n"
                            + Self.firstDifference(localContent, clusterContent))
                }
                return (problems, nil)
            }
        }

        static func firstDifference(_ local: String, _ cluster: String) -> String {
            let a = local.split(separator: "\n", omittingEmptySubsequences: false)
            let b = cluster.split(separator: "\n", omittingEmptySubsequences: false)
            let index = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
            return
                "line \(index + 1): local \(index < a.count ? String(a[index]) : "(end)")\n        cluster \(index < b.count ? String(b[index]) : "(end)")"
        }
    }
}

/// Copies a local SQLite file into a (new) database of a dqlite cluster, statement by statement
/// in one transaction: the tables as their SQL says, every row with its rowid and exact values
/// (bound, not printed), `sqlite_sequence`, then the indexes, views and triggers in the order
/// the file created them. Foreign keys are off for the load, as in a `.dump` script: a key onto
/// columns whose unique index comes after the rows would fail every insert ("foreign key
/// mismatch"), and the file's rows are what they are.
enum ClusterLoad {
    static func copy(fileAt url: URL, to database: String, on nodes: [String]) throws {
        let file = try SQLiteConnection(path: url.path, mode: .readOnly)
        let client = try DqliteClient(nodes: nodes, database: database)
        defer { client.close() }
        try client.exec("PRAGMA foreign_keys = OFF")
        try client.exec("BEGIN")
        let objects = try file.rows(
            "SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
        )
        for object in objects where object[0].stringValue == "table" {
            let name = object[1].stringValue ?? ""
            let sql = object[2].stringValue ?? ""
            // A virtual table's shadow tables come with it, and its rows go through it.
            let kind = try file.scalar(
                "SELECT type FROM pragma_table_list WHERE schema = 'main' AND name = ?", [.text(name)])
            if kind == .text("shadow") { continue }
            try client.exec(sql)
            let columns = try file.rows("SELECT name FROM pragma_table_xinfo(?) WHERE hidden = 0", [.text(name)])
                .compactMap { $0[0].stringValue }
            let withoutRowid =
                try file.scalar("SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = ?", [.text(name)])
                == .integer(1)
            let rowid =
                withoutRowid
                ? nil : ["rowid", "_rowid_", "oid"].first { alias in !columns.contains { $0.lowercased() == alias } }
            let list = (rowid.map { [$0] } ?? []) + columns.map(SQL.quoteIdentifier)
            let insert =
                "INSERT INTO \(SQL.quoteIdentifier(name)) (\(list.joined(separator: ", "))) VALUES (\(list.map { _ in "?" }.joined(separator: ", ")))"
            for row in try file.rows("SELECT \(list.joined(separator: ", ")) FROM \(SQL.quoteIdentifier(name))") {
                try client.exec(insert, row.map(DqliteValue.init))
            }
        }
        if try file.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'sqlite_sequence'") == .integer(1) {
            try client.exec("DELETE FROM sqlite_sequence")
            for row in try file.rows("SELECT name, seq FROM sqlite_sequence") {
                try client.exec("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", row.map(DqliteValue.init))
            }
        }
        for object in objects where object[0].stringValue != "table" { try client.exec(object[2].stringValue ?? "") }
        try client.exec("COMMIT")
    }
}
