import Foundation
import Testing

@testable import SchemaMigrations

extension Reliability {
    /// The property family's random plans, each stage made custom with code that runs statements
    /// starting and ending with comments and binds random doubles: the SQL script (`plan --format
    /// sql`), run as the shell runs it on one copy, leaves the same full dump as `apply` on another;
    /// where `apply` refuses, so does the script.
    @Suite struct ScriptReplay {
        static func customStages(of testCase: PropertyMigrations.Case, seed: UInt64, index: Int) -> [PlannedStage] {
            zip(testCase.versions, testCase.versions.dropFirst()).enumerated().map { number, pair in
                var random = SeededRandom(seed: seed, family: "script-replay", index: index * 8 + number)
                let doubles =
                    (0..<3).map { _ in
                        Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF) * (random.chance(0.5) ? 1 : -1)
                    }
                    + [Double.random(in: 0..<1, using: &random), 0.1 + 0.2]
                let table = "side_\(number)"
                return PlannedStage(
                    from: pair.0.version, to: pair.1.version, kind: .custom,
                    willMigrate: { context in
                        try context.execute(
                            "-- created by the stage's code\nCREATE TABLE \(table) (x REAL, t TEXT) -- trailing comment"
                        )
                        for value in doubles {
                            try context.execute(
                                "/* a value */ INSERT INTO \(table) VALUES (?, ?) -- bound",
                                arguments: [.real(value), .text("it's -- \(value)")])
                        }
                    },
                    didMigrate: { context in
                        try context.execute("UPDATE \(table) SET t = t || ' seen' -- after the steps")
                    })
            }
        }

        /// Every table's rows (metadata without its timings) and the schema, values as SQL literals.
        static func dump(_ url: URL) throws -> [[String]] {
            let db = try SQLiteConnection(path: url.path, mode: .readOnly)
            var result = try db.rows("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name").map {
                $0.map(\.sqlLiteral)
            }
            for row in try db.rows(
                "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            {
                let name = row[0].stringValue ?? ""
                let columns =
                    name == TableNames.metadata
                    ? "plan, seq, version, hash, kind, fromVersion, schemaCookie, snapshot" : "*"
                // A WITHOUT ROWID table (an FTS5 table's shadow tables) has no rowid to order by.
                let withoutRowID =
                    try db.scalar("SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = ?", [.text(name)])
                    == .integer(1)
                let rows = try db.rows(
                    "SELECT \(columns) FROM \(SQL.quoteIdentifier(name))" + (withoutRowID ? "" : " ORDER BY rowid")
                ).map { $0.map(\.sqlLiteral) }
                result +=
                    withoutRowID ? rows.sorted { $0.joined(separator: "\u{1}") < $1.joined(separator: "\u{1}") } : rows
            }
            return result
        }

        @Test func theScriptLeavesTheDumpApplyLeaves() throws {
            let config = ReliabilityConfig.current
            let scratch = Scratch("script-replay")
            let cases = max(10, config.propertyCases / 5)
            var compared = 0
            var refused = 0
            for index in 0..<cases {
                let testCase = PropertyMigrations.generate(seed: config.seed, index: index)
                let original = scratch.url("case-\(index).sqlite")
                let scripted = scratch.url("case-\(index)-script.sqlite")
                let applied = scratch.url("case-\(index)-apply.sqlite")
                try Migrator(
                    resolvedPlan: try ResolvedPlan(name: "property", schemas: [testCase.versions[0].schema], stages: [])
                ).migrate(databaseAt: original)
                try testCase.versions[0].insertRows(into: SQLiteConnection(path: original.path))
                // The application's function its triggers call, on the migrator's connections and
                // on the one that runs the script, as the script's header asks.
                let environment = SQLEnvironment(functions: [SQLObjectGenerator.function])
                let migrator = Migrator(
                    resolvedPlan: try ResolvedPlan(
                        name: "property", schemas: testCase.versions.map(\.schema),
                        stages: Self.customStages(of: testCase, seed: config.seed, index: index)),
                    options: MigrationOptions(sqlEnvironment: environment))
                let script: MigrationScript
                do {
                    script = try migrator.script(databaseAt: original)
                } catch let error as MigrationError {
                    try FileManager.default.copyItem(at: original, to: applied)
                    #expect(
                        throws: MigrationError.self,
                        "case \(index) (\(config.reproduction)): the script was refused (\(error.code)) but apply was not"
                    ) {
                        try migrator.migrate(databaseAt: applied)
                    }
                    refused += 1
                    continue
                }
                try FileManager.default.copyItem(at: original, to: scripted)
                try FileManager.default.copyItem(at: original, to: applied)
                let sql = script.text.split(separator: "\n", omittingEmptySubsequences: false).filter {
                    !$0.hasPrefix(".")
                }.joined(separator: "\n")
                try SQLiteConnection(path: scripted.path, environment: environment).execute(sql)
                try migrator.migrate(databaseAt: applied)
                let (scriptDump, applyDump) = (try Self.dump(scripted), try Self.dump(applied))
                let firstDifference =
                    zip(scriptDump, applyDump).first { $0 != $1 }.map { "script: \($0.0)\napply:  \($0.1)" }
                    ?? "row counts \(scriptDump.count) vs \(applyDump.count)"
                #expect(
                    scriptDump == applyDump,
                    "case \(index) (\(config.reproduction))\n\(firstDifference)\n\(testCase.description)")
                compared += 1
                for url in [original, scripted, applied] { scratch.removeDatabase(url) }
            }
            ReliabilityConfig.summary(
                "script-replay", "cases=\(cases) compared=\(compared) refused-both-ways=\(refused)")
        }
    }
}
