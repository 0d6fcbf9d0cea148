import Foundation

@testable import SchemaMigrations

/// Checks one `CREATE TABLE` statement against SQLite itself: SQLite creates the table, the parser
/// reads the text SQLite stored, and every fact SQLite reports must agree with the parsed
/// definition; then the definition, written back under another name, must give a table SQLite
/// describes exactly as it describes the original. Shared by the corpus and the fuzzer.
enum DefinitionRoundTrip {
    /// What SQLite reports about a table, names of automatic indexes left out.
    struct Facts: Equatable, CustomStringConvertible {
        /// pragma_table_xinfo: name, type, notnull, dflt_value, pk, hidden.
        var columns: [[String]]
        /// pragma_foreign_key_list: id, seq, table, from, to, on_update, on_delete, match.
        var foreignKeys: [[String]]
        /// pragma_index_list and pragma_index_xinfo: unique, origin, partial, then every column's (cid, name, desc, coll, key).
        var indexes: [String]
        /// pragma_table_list: type, ncol, wr, strict.
        var flags: [String]
        /// Whether the database has `sqlite_sequence` (made for the first AUTOINCREMENT table).
        var autoincrement: Bool

        var description: String {
            "columns \(columns)\nforeign keys \(foreignKeys)\nindexes \(indexes)\nflags \(flags) autoincrement \(autoincrement)"
        }
    }

    /// The outcome for one statement: nil when SQLite rejects it, else the list of disagreements.
    /// - Parameter typeNames: whether to compare declared types with SQLite's report too; SQLite
    ///   reports odd texts for odd types (`[real] C` is "real]  "), which damaged statements make.
    static func check(_ statement: String, typeNames: Bool = true) -> [String]? {
        guard let db = try? SQLiteConnection(path: ":memory:") else { return ["cannot open an in-memory database"] }
        do { try db.execute(statement) } catch { return nil }
        // Text SQLite runs without making a table (a damaged statement cut down to a comment).
        if (try? db.scalar("SELECT count(*) FROM sqlite_schema")?.int64Value) == 0 { return nil }
        do {
            return try problems(in: db, statement: statement, typeNames: typeNames)
        } catch {
            return ["unexpected error: \(error)"]
        }
    }

    private static func problems(in db: SQLiteConnection, statement: String, typeNames: Bool) throws -> [String] {
        let tables = try db.rows(
            "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
        guard tables.count == 1, let table = tables[0][0].stringValue, let stored = tables[0][1].stringValue else {
            return ["expected one table, found \(tables.count)"]
        }
        let definition: TableDefinition
        do {
            definition = try TableDefinition(parsing: stored)
        } catch {
            return ["the parser refused SQLite's own text: \(error)\n  stored: \(stored)"]
        }
        var problems = agreement(of: definition, with: try facts(table, db), stored: stored, typeNames: typeNames)

        // Round trip: the definition, written back, makes a table SQLite cannot tell apart.
        let copySQL = definition.sql(named: "copy")
        let copyDB = try SQLiteConnection(path: ":memory:")
        do {
            try copyDB.execute(copySQL)
        } catch {
            return problems + [
                "SQLite refused the written-back definition: \(error)\n  stored:  \(stored)\n  written: \(copySQL)"
            ]
        }
        let original = try facts(table, db)
        let copy = try facts("copy", copyDB)
        if original != copy {
            problems.append(
                "the copy differs\n  stored:  \(stored)\n  written: \(copySQL)\n  original: \(original)\n  copy:     \(copy)"
            )
        }
        // The copy's own text reads back as the same definition (nothing changes a second time).
        if let copyStored = try copyDB.scalar("SELECT sql FROM sqlite_schema WHERE name = 'copy'")?.stringValue {
            var reparsed = try? TableDefinition(parsing: copyStored)
            reparsed?.name = definition.name
            if reparsed != definition {
                problems.append("the copy's text parses to another definition\n  written: \(copyStored)")
            }
        }
        // Every token inside the parentheses survives, in order (the commas between clauses aside).
        if try bodyTokens(stored) != bodyTokens(copySQL) {
            problems.append("tokens were lost or changed\n  stored:  \(stored)\n  written: \(copySQL)")
        }
        return problems
    }

    /// The parsed definition against what SQLite says of the table it created from the same text.
    static func agreement(of definition: TableDefinition, with facts: Facts, stored: String, typeNames: Bool = true)
        -> [String]
    {
        var problems: [String] = []
        func note(_ what: String) { problems.append("\(what)\n  stored: \(stored)") }
        let names = facts.columns.map { $0[0] }
        guard names == definition.columns.map(\.name) else {
            note("column names \(definition.columns.map(\.name)), SQLite says \(names)")
            return problems
        }
        for (column, row) in zip(definition.columns, facts.columns) {
            let (type, notNull, defaultText, pk, hidden) = (row[1], row[2] == "1", row[3], Int(row[4])!, row[5])
            if typeNames && sqliteTypeName(declaredType(of: column)) != type {
                note("\(column.name): type text \(column.typeText), SQLite says \(type)")
            }
            let explicitNotNull = column.constraints.contains { $0.kind == .notNull }
            if explicitNotNull && !notNull { note("\(column.name): NOT NULL parsed, SQLite says nullable") }
            if notNull && !explicitNotNull && !(pk > 0 && (definition.withoutRowid || definition.strict)) {
                note("\(column.name): SQLite says NOT NULL, the parser found none")
            }
            let parsedDefault =
                column.constraints.last { $0.kind == .defaultValue }.map { defaultExpression(of: $0.text) } ?? "∅"
            if parsedDefault != defaultText {
                note("\(column.name): default \(parsedDefault), SQLite says \(defaultText)")
            }
            if expectedPrimaryKeyPosition(of: column, in: definition) != pk {
                note("\(column.name): pk \(expectedPrimaryKeyPosition(of: column, in: definition)), SQLite says \(pk)")
            }
            if expectedHidden(column) != hidden {
                note("\(column.name): hidden \(expectedHidden(column)), SQLite says \(hidden)")
            }
        }
        if definition.withoutRowid != (facts.flags[2] == "1") {
            note("WITHOUT ROWID \(definition.withoutRowid), SQLite says wr = \(facts.flags[2])")
        }
        if definition.strict != (facts.flags[3] == "1") {
            note("STRICT \(definition.strict), SQLite says strict = \(facts.flags[3])")
        }
        if definition.hasAutoincrement != facts.autoincrement {
            note("AUTOINCREMENT \(definition.hasAutoincrement), SQLite says \(facts.autoincrement)")
        }
        let referencing =
            definition.columns.flatMap(\.constraints).filter { if case .references = $0.kind { true } else { false } }
            .count
            + definition.constraints.filter { if case .foreignKey = $0.kind { true } else { false } }.count
        let keys = Set(facts.foreignKeys.map { $0[0] }).count
        if referencing != keys { note("\(referencing) foreign keys parsed, SQLite has \(keys)") }
        return problems
    }

    static func facts(_ table: String, _ db: SQLiteConnection) throws -> Facts {
        let name = [SQLiteValue.text(table)]
        func render(_ rows: [[SQLiteValue]]) -> [[String]] { rows.map { $0.map { $0.isNull ? "∅" : $0.description } } }
        let columns = render(
            try db.rows(
                "SELECT name, type, \"notnull\", dflt_value, pk, hidden FROM pragma_table_xinfo(?) ORDER BY cid", name))
        let keys = render(
            try db.rows(
                "SELECT id, seq, \"table\", \"from\", \"to\", on_update, on_delete, \"match\" FROM pragma_foreign_key_list(?) ORDER BY id, seq",
                name))
        var indexes: [String] = []
        for index in try db.rows("SELECT name, \"unique\", origin, partial FROM pragma_index_list(?)", name) {
            let parts = render(
                try db.rows(
                    "SELECT cid, name, \"desc\", coll, key FROM pragma_index_xinfo(?) ORDER BY seqno", [index[0]]))
            indexes.append("\(index[1]) \(index[2]) \(index[3]) \(parts)")
        }
        let flags =
            render(
                try db.rows(
                    "SELECT type, ncol, wr, strict FROM pragma_table_list WHERE schema = 'main' AND name = ?", name)
            ).first ?? []
        // AUTOINCREMENT leaves one trace outside the text: creating such a table creates
        // sqlite_sequence, so each table is checked in a database of its own.
        let autoincrement =
            try db.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'sqlite_sequence'")?.int64Value == 1
        return Facts(
            columns: columns, foreignKeys: keys, indexes: indexes.sorted(), flags: flags, autoincrement: autoincrement)
    }

    /// The type SQLite reports for a declared type text: a type written as one quoted token is
    /// unquoted, SQLite's six standard names (INT, INTEGER, REAL, TEXT, BLOB, ANY) are reported in
    /// upper case, and any other text that starts with a quote keeps what that quote holds.
    static func sqliteTypeName(_ typeText: String) -> String {
        let tokenizer = SQLTokenizer(typeText)
        guard let tokens = try? tokenizer.tokens(), let first = tokens.first else { return typeText }
        let quoted = first.kind == .quotedIdentifier || first.kind == .string
        let whole = tokens.count == 1 && quoted ? tokenizer.name(of: first) : typeText
        if ["INT", "INTEGER", "REAL", "TEXT", "BLOB", "ANY"].contains(whole.uppercased()) { return whole.uppercased() }
        return quoted ? tokenizer.name(of: first) : typeText
    }

    /// The declared type as SQLite's parser takes it: a `GENERATED ALWAYS` right after the type
    /// name (not after a parenthesized size) is read as words of the type, then "always" and "generated" are cut off the end, with the
    /// white space before each (build.c, sqlite3AddColumn) but not a comment in between.
    static func declaredType(of column: TableDefinition.Column) -> String {
        let isSpace: (Character) -> Bool = { " \t\n\r\u{0B}\u{0C}".contains($0) }
        func trimmed(_ text: Substring) -> Substring {
            var text = text
            while let last = text.last, isSpace(last) { text.removeLast() }
            return text
        }
        var type = trimmed(Substring(column.typeText))
        guard !type.isEmpty, type.last != ")", let first = column.constraints.first, first.kind == .generated else {
            return String(type)
        }
        let tokenizer = SQLTokenizer(first.text)
        guard let tokens = try? tokenizer.tokens(), tokens.count > 1, tokenizer.isKeyword(tokens[0], "GENERATED") else {
            return String(type)
        }
        type = Substring(String(type) + " " + tokenizer.text(0, tokens[1].end))
        if type.count >= 16, type.suffix(6).lowercased() == "always" {
            type = trimmed(type.dropLast(6))
            if type.count >= 9, type.suffix(9).lowercased() == "generated" { type = trimmed(type.dropLast(9)) }
        }
        return String(type)
    }

    /// The default expression's text as SQLite records it: inside the parentheses (trimmed), or the
    /// signed literal as written.
    static func defaultExpression(of constraintText: String) -> String {
        let tokenizer = SQLTokenizer(constraintText)
        guard let tokens = try? tokenizer.tokens(),
            let keyword = tokens.firstIndex(where: { tokenizer.isKeyword($0, "DEFAULT") }),
            keyword + 1 < tokens.count
        else { return "?" }
        let value = tokens[keyword + 1]
        if value.kind == .leftParenthesis {
            return tokenizer.text(value.end, tokens.last!.start).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return tokenizer.text(value.start, tokens.last!.end)
    }

    static func expectedPrimaryKeyPosition(of column: TableDefinition.Column, in definition: TableDefinition) -> Int {
        if column.constraints.contains(where: { if case .primaryKey = $0.kind { true } else { false } }) { return 1 }
        for constraint in definition.constraints where constraint.kind == .primaryKey {
            if let index = constraint.columns.firstIndex(of: column.name.sqlFolded) { return index + 1 }
        }
        return 0
    }

    static func expectedHidden(_ column: TableDefinition.Column) -> String {
        guard let generated = column.constraints.first(where: { $0.kind == .generated }) else { return "0" }
        let tokenizer = SQLTokenizer(generated.text)
        let last = (try? tokenizer.tokens())?.last
        return last.map { tokenizer.isKeyword($0, "STORED") } == true ? "3" : "2"
    }

    /// The texts of the tokens between a statement's outer parentheses, commas between clauses left out.
    static func bodyTokens(_ sql: String) throws -> [String] {
        let tokenizer = SQLTokenizer(sql)
        var result: [String] = []
        var depth = 0
        for token in try tokenizer.tokens() {
            if token.kind == .rightParenthesis {
                depth -= 1
                if depth == 0 { break }
            }
            if depth > 0 && !(depth == 1 && token.kind == .comma) { result.append(tokenizer.text(of: token)) }
            if token.kind == .leftParenthesis { depth += 1 }
        }
        return result
    }
}
