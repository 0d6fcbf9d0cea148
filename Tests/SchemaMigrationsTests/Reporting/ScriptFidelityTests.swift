import Foundation
import Testing

@testable import SchemaMigrations

/// `plan --format sql` does what `apply` does, run as the `sqlite3` shell runs it: custom
/// statements that start or end with a comment, and doubles bound to statements, included.
@Suite struct ScriptFidelityTests {
    typealias A = PlanBuilder

    /// Runs a script's text as the shell would: dot-commands skipped, the rest as SQL.
    static func runLikeTheShell(_ text: String, on db: TemporaryDatabase) throws {
        let sql = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix(".") }.joined(
            separator: "\n")
        try db.connect().execute(sql)
    }

    /// Every table's rows (metadata without its timings) and the schema, values as literals.
    static func dump(_ db: TemporaryDatabase) throws -> [[String]] {
        var result = try db.rows("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name")
        for row in try db.rows(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        {
            let name = row[0].dropFirst().dropLast().replacingOccurrences(of: "''", with: "'")
            let columns =
                name == "_schema_migrations"
                ? "plan, seq, version, hash, kind, fromVersion, schemaCookie, snapshot" : "*"
            result += try db.rows("SELECT \(columns) FROM \(SQL.quoteIdentifier(name)) ORDER BY 1, 2")
        }
        return result + (try db.rows("PRAGMA schema_version"))
    }

    static func copies(of original: TemporaryDatabase) throws -> (TemporaryDatabase, TemporaryDatabase) {
        let scripted = TemporaryDatabase()
        let applied = TemporaryDatabase()
        try FileManager.default.copyItem(at: original.url, to: scripted.url)
        try FileManager.default.copyItem(at: original.url, to: applied.url)
        return (scripted, applied)
    }

    /// A double below the smallest normal one, which SQLite's text conversion reads imprecisely.
    static let subnormal = Double(sign: .plus, exponent: -1030, significand: 1.5)

    @Test func customStatementsWithCommentsAndExactDoublesAreInTheScript() throws {
        let original = try DryRunReportTests.populated()
        let v1 = A.schema(1, [DryRunReportTests.person])
        let v2 = A.schema(
            2, [PersonFixture.person { $0.attributes.append(A.attribute("score", .double, optional: true)) }])
        let migrator = try A.migrator(
            [v1, v2], kind: .custom,
            didMigrate: { context in
                try context.execute("-- Alan retired\nDELETE FROM Person WHERE name = 'Alan'")
                try context.execute("UPDATE Person SET age = age + 1 WHERE name = 'Ada' -- birthday")
                try context.execute("/* note */ UPDATE Person SET email = 'g@example.com' WHERE id = 3 /* done */")
                try context.update("Person", id: 1, values: ["score": 0.1 + 0.2])
                try context.execute(
                    "UPDATE Person SET score = ?1 * 3 WHERE id = :id", arguments: [.real(1.0 / 3.0), .integer(3)])
                try context.insert("Person", values: ["name": "Linus ?:@$ '--", "score": Self.subnormal])
                try context.insert("Person", values: ["name": "nul\u{0}inside", "score": 1e-5])
            })
        let script = try migrator.script(databaseAt: original.url)
        let (scripted, applied) = try Self.copies(of: original)
        try Self.runLikeTheShell(script.text, on: scripted)
        try migrator.migrate(databaseAt: applied.url)
        #expect(try Self.dump(scripted) == Self.dump(applied))
        #expect(
            try applied.rows("SELECT name, score FROM Person ORDER BY id") == [
                ["'Ada'", "0.30000000000000004"], ["'Grace'", "1.0"],
                ["'Linus ?:@$ ''--'", SQLiteValue.real(Self.subnormal).sqlLiteral], ["'nul\u{0}inside'", "1e-05"],
            ])
        #expect(try migrator.status(databaseAt: scripted.url).isUpToDate)
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") {
            let shelled = TemporaryDatabase()
            try FileManager.default.copyItem(at: original.url, to: shelled.url)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            process.arguments = [shelled.path]
            let input = Pipe()
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            input.fileHandleForWriting.write(Data(script.text.utf8))
            try input.fileHandleForWriting.close()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            #expect(try Self.dump(shelled) == Self.dump(applied))
        }
    }

    @Test func parametersAreWrittenAsSQLiteNumbersThem() {
        let values: [Int32: SQLiteValue] = [1: .integer(7), 2: .text("a'b"), 3: .real(0.1), 5: .blob([0, 255])]
        let names = [":x": Int32(5), "@y": 3]
        let sql = "SELECT ?, '?', \"?\", ?, [?], -- ?\n :x, /* ? */ @y, ?2, ?, x"
        #expect(
            StatementRecorder.expand(sql, values: values) { names[$0] ?? 0 }
                == "SELECT 7, '?', \"?\", 'a''b', [?], -- ?\n X'00FF', /* ? */ (CAST(3602879701896397 AS REAL) / 36028797018963968 /* 0.1 */), 'a''b', NULL, x"
        )
    }
}

extension ScriptFidelityTests {
    @Test func everyDoubleIsWrittenAsSQLThatSQLiteReadsExactly() throws {
        let db = try SQLiteConnection(path: ":memory:")
        var random = SQLQuotingTests.Generator(state: 42)
        var values: [Double] = [
            8.098557281790756e-302, -5.062431790702987e-303, .leastNonzeroMagnitude, .leastNormalMagnitude,
            .greatestFiniteMagnitude,
            -.greatestFiniteMagnitude, 0.1 + 0.2, 1.0 / 3.0, Self.subnormal, Double.leastNormalMagnitude.nextDown,
        ]
        for _ in 0..<2000 { values.append(Double(bitPattern: random.next() & 0xFFEF_FFFF_FFFF_FFFF)) }
        for value in values where value.isFinite {
            let read = try db.scalar("SELECT \(SQLiteValue.exactLiteral(for: value))")
            #expect(read == .real(value), "\(value) written as \(SQLiteValue.exactLiteral(for: value))")
        }
    }
}
