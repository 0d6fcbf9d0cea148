import Foundation
import Testing

@testable import SchemaMigrations

/// Random `CREATE TABLE` statements (``CreateTableGenerator``), each checked by the same round trip
/// against SQLite as the corpus (``DefinitionRoundTrip``); statements SQLite rejects are skipped and
/// counted. Damaged statements must parse or throw `TableDefinition.ParseError`, never crash; a
/// damaged one SQLite still accepts goes through the round trip too.
///
/// A few hundred cases run in `swift test`; set `SCHEMAMIGRATIONS_FUZZ_CASES` for more and
/// `SCHEMAMIGRATIONS_FUZZ_SEED` to replay a run (each run prints its seed).
@Suite struct TableDefinitionFuzzTests {
    static let environment = ProcessInfo.processInfo.environment
    static let cases = environment["SCHEMAMIGRATIONS_FUZZ_CASES"].flatMap(Int.init) ?? 300
    static let seed = environment["SCHEMAMIGRATIONS_FUZZ_SEED"].flatMap(UInt64.init) ?? 20_261_122

    @Test func randomStatementsRoundTripThroughSQLite() {
        var generator = CreateTableGenerator(seed: Self.seed)
        var (checked, rejected, failures) = (0, 0, [String]())
        let start = Date()
        for index in 0..<Self.cases {
            let statement = generator.statement()
            guard let problems = DefinitionRoundTrip.check(statement) else {
                rejected += 1
                continue
            }
            checked += 1
            if !problems.isEmpty { failures.append("case \(index): \(statement)\n" + problems.joined(separator: "\n")) }
        }
        print(
            "CREATE TABLE fuzz: seed \(Self.seed), \(Self.cases) statements, \(checked) round-tripped, \(rejected) rejected by SQLite and skipped, \(failures.count) failed, \(String(format: "%.2f", Date().timeIntervalSince(start))) s"
        )
        if let path = Self.environment["SCHEMAMIGRATIONS_FUZZ_LOG"] {
            try? failures.joined(separator: "\n\n").write(toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n\n"))")
        // Most statements must be ones SQLite takes, or the generator tests little.
        #expect(checked * 2 > Self.cases, "only \(checked) of \(Self.cases) statements were legal")
    }

    @Test func renamesRewriteWhatSQLitesRenameColumnRewrites() {
        var generator = CreateTableGenerator(seed: Self.seed &+ 2)
        var random = CreateTableGenerator.Random(state: Self.seed &+ 3)
        var (checked, failures) = (0, [String]())
        for index in 0..<Self.cases {
            let statement = generator.statement()
            let tableQuery =
                "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
            guard let db = try? SQLiteConnection(path: ":memory:"), (try? db.execute(statement)) != nil,
                let row = try? db.rows(tableQuery).first, let table = row[0].stringValue,
                let stored = row[1].stringValue,
                var definition = try? TableDefinition(parsing: stored)
            else { continue }
            let column = random.pick(definition.columns).name
            let new = random.pick(["renamed", "re named", "re\"named", "naïve", "X"]) + String(index)
            // An index over some columns, named like one of them, partial or on an expression.
            let names = definition.columns.map { SQL.quoteIdentifier($0.name) }
            let indexSQL =
                "CREATE \(random.chance(50) ? "UNIQUE " : "")INDEX \(random.pick(definition.columns.map(\.nameText))) ON \(SQL.quoteIdentifier(table)) ("
                + random.pick(names) + random.pick(["", " DESC", " COLLATE NOCASE", " COLLATE nocase ASC"])
                + (random.chance(40) ? ", lower(\(random.pick(names)))" : "") + ")"
                + (random.chance(40) ? " WHERE \(random.pick(names)) IS NOT NULL AND \(random.pick(names)) <> 'x'" : "")
            let withIndex = (try? db.execute(indexSQL)) != nil
            // SQLite refuses some renames (a generated column's expression it cannot re-resolve…): skipped.
            guard
                (try? db.execute(
                    "ALTER TABLE \(SQL.quoteIdentifier(table)) RENAME COLUMN \(SQL.quoteIdentifier(column)) TO \(SQL.quoteIdentifier(new))"
                )) != nil,
                let renamed = try? db.rows(tableQuery).first?[1].stringValue
            else { continue }
            definition.renameColumns([column.sqlFolded: new])
            checked += 1
            let ours = definition.sql(named: table)
            if (try? DefinitionRoundTrip.bodyTokens(ours)) != (try? DefinitionRoundTrip.bodyTokens(renamed)) {
                failures.append(
                    "case \(index): rename \(column) → \(new)\n  stored: \(stored)\n  SQLite: \(renamed)\n  ours:   \(ours)"
                )
            }
            if withIndex,
                let sqliteIndex = try? db.scalar(
                    "SELECT sql FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL")?.stringValue
            {
                let oursIndex = TableDefinition.substitute([column.sqlFolded: new], in: indexSQL)
                if oursIndex != sqliteIndex {
                    failures.append(
                        "case \(index): rename \(column) → \(new) in an index\n  SQLite: \(sqliteIndex)\n  ours:   \(oursIndex)"
                    )
                }
            }
        }
        print(
            "CREATE TABLE rename fuzz: seed \(Self.seed &+ 2), \(Self.cases) statements, \(checked) renamed by SQLite and compared, \(failures.count) failed"
        )
        #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n\n"))")
    }

    /// One edit of one column, on random statements: SQLite takes the result, and only that
    /// column's type, NOT NULL or default changes.
    @Test func editsChangeOnlyTheEditedColumn() throws {
        var generator = CreateTableGenerator(seed: Self.seed &+ 4)
        var random = CreateTableGenerator.Random(state: Self.seed &+ 5)
        var (checked, failures) = (0, [String]())
        for index in 0..<Self.cases {
            let statement = generator.statement()
            guard let db = try? SQLiteConnection(path: ":memory:"), (try? db.execute(statement)) != nil,
                let row = try? db.rows(
                    "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
                ).first,
                let table = row[0].stringValue, let stored = row[1].stringValue,
                var definition = try? TableDefinition(parsing: stored)
            else { continue }
            let before = try DefinitionRoundTrip.facts(table, db)
            // Key columns aside: a type or NULL change there changes what SQLite makes of the key
            // (a rowid alias, AUTOINCREMENT, the implicit NOT NULL of STRICT and WITHOUT ROWID).
            let keyColumns = Set(before.columns.filter { $0[4] != "0" }.map { $0[0] })
            let candidates = definition.columns.filter { !$0.isGenerated && !keyColumns.contains($0.name) }
            guard !candidates.isEmpty else { continue }
            let column = random.pick(candidates).name
            var expected = before.columns
            let position = expected.firstIndex { $0[0] == column }!
            let edit: String
            switch random.below(4) {
            case 0:
                definition.setType("TEXT", column: column)
                expected[position][1] = "TEXT"
                edit = "setType TEXT"
            case 1:
                definition.setNotNull(true, column: column)
                expected[position][2] = "1"
                edit = "setNotNull true"
            case 2:
                definition.setNotNull(false, column: column)
                expected[position][2] = "0"
                edit = "setNotNull false"
            default:
                definition.setDefault("'x''y'", column: column)
                expected[position][3] = "'x''y'"
                edit = "setDefault"
            }
            let sql = definition.sql(named: "edited")
            let copy = try SQLiteConnection(path: ":memory:")
            do { try copy.execute(sql) } catch {
                failures.append(
                    "case \(index): \(edit) \(column): SQLite refused \(error)\n  stored: \(stored)\n  edited: \(sql)")
                continue
            }
            checked += 1
            let after = try DefinitionRoundTrip.facts("edited", copy)
            if after.columns != expected || after.foreignKeys != before.foreignKeys || after.flags != before.flags
                || (edit != "setType TEXT" && after.indexes != before.indexes)
            {
                failures.append(
                    "case \(index): \(edit) \(column)\n  stored: \(stored)\n  edited: \(sql)\n  expected \(expected)\n  got      \(after.columns)"
                )
            }
        }
        print(
            "CREATE TABLE edit fuzz: seed \(Self.seed &+ 4), \(Self.cases) statements, \(checked) edited and compared, \(failures.count) failed"
        )
        #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n\n"))")
    }

    @Test func damagedStatementsParseOrThrowAParseError() {
        var generator = CreateTableGenerator(seed: Self.seed &+ 1)
        var (parsed, refused, accepted, legalRefused, failures, refusedLegal) = (0, 0, 0, 0, [String](), [String]())
        for index in 0..<Self.cases {
            let damaged = generator.mutate(generator.statement())
            var wasParsed = false
            do {
                let definition = try TableDefinition(parsing: damaged)
                _ = definition.sql(named: "copy")
                parsed += 1
                wasParsed = true
            } catch is TableDefinition.ParseError {
                refused += 1
            } catch {
                failures.append("case \(index): \(damaged)\n  threw \(type(of: error)): \(error)")
            }
            // SQLite still takes some damaged statements (a doubled word inside a comment…). One the
            // parser reads must round-trip; one it refuses is a safe refusal (a rebuild of such a
            // table stops before writing), counted: `a GENERATED ALWAYS ALWAYS AS (1)` is legal.
            if let problems = DefinitionRoundTrip.check(damaged, typeNames: false) {
                accepted += 1
                if !wasParsed {
                    legalRefused += 1
                    refusedLegal.append("case \(index): \(damaged)")
                } else if !problems.isEmpty {
                    failures.append("case \(index): \(damaged)\n" + problems.joined(separator: "\n"))
                }
            }
        }
        if let path = Self.environment["SCHEMAMIGRATIONS_FUZZ_LOG"] {
            try? refusedLegal.joined(separator: "\n\n").write(
                toFile: path + ".refused", atomically: true, encoding: .utf8)
        }
        print(
            "CREATE TABLE damage fuzz: seed \(Self.seed &+ 1), \(Self.cases) statements, \(parsed) parsed, \(refused) refused with ParseError, \(accepted) accepted by SQLite (\(legalRefused) of them refused by the parser), \(failures.count) failed"
        )
        #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n\n"))")
    }
}
