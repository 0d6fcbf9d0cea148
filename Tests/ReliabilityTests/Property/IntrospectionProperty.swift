import Foundation
import Testing

@testable import SchemaMigrations

extension Reliability {
    /// Random V1 databases, made by hand or by the migrator and then altered by the app's SQL
    /// (AUTOINCREMENT, STRICT, CHECKs, hand-named and partial indexes, triggers, views): every
    /// table of the model is declarable by introspection, the snapshot adopts the file with no
    /// stage and no row changed, and `verify` then passes.
    @Suite struct IntrospectionProperty {
        @Test(.timeLimit(.minutes(30)))
        func aSnapshotOfARandomDatabaseAdoptsIt() throws {
            let config = ReliabilityConfig.current
            let scratch = Scratch("introspection")
            var tables = 0
            var notes = 0
            for index in 0..<config.propertyCases {
                let testCase = PropertyMigrations.generate(seed: config.seed, index: index)
                let url = scratch.url("case-\(index).sqlite")
                try testCase.features.createV1(testCase.versions[0], at: url, plan: "probe")
                // unversioned, as found
                try SQLiteConnection(path: url.path).execute("DROP TABLE IF EXISTS \"_schema_migrations\"")
                let names = testCase.versions[0].tables.map(\.entity.name)
                let rows = {
                    try names.map {
                        try SQLiteConnection(path: url.path, mode: .readOnly).rows(
                            "SELECT * FROM \"\($0)\" ORDER BY id")
                    }
                }
                let before = try rows()
                let context = "introspection case \(index) (\(config.reproduction)):\n\(testCase.description)"

                let found = try SchemaIntrospection(databaseAt: url)
                // The probes' log table has no primary key: declared too, keyed by its rowid.
                #expect(
                    found.schema.entityNames.filter { $0 != "_probe_log" } == names,
                    "\(context)\nundeclarable: \(found.undeclarable)")
                #expect(found.undeclarable.isEmpty, "\(context)\nundeclarable: \(found.undeclarable)")
                if let log = found.schema.entity(named: "_probe_log") { #expect(log.primaryKey == [], "\(context)") }
                let directory = scratch.url("plan-\(index)")
                try PlanDirectory(name: "snapshot", schemas: [found.schema], stages: []).write(to: directory)
                let migrator = try Migrator(planDirectory: directory)
                let result = try migrator.migrate(databaseAt: url)
                #expect(result.adopted && result.stages.isEmpty, "\(context)")
                #expect(try rows() == before, "\(context)")
                #expect(try migrator.verify(databaseAt: url).isUpToDate, "\(context)")
                tables += found.schema.entities.count
                notes += found.notCarried.reduce(0) { $0 + $1.notes.count }
                scratch.removeDatabase(url)
            }
            ReliabilityConfig.summary(
                "introspection",
                "cases=\(config.propertyCases) tables=\(tables) adopted-with-zero-differences=\(tables) kept-not-carried=\(notes)"
            )
        }
    }
}
