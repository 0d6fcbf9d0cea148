@testable import SchemaMigrations

/// A seeded generator of legal-looking `CREATE TABLE` statements that mixes every feature the
/// parser must keep: all quoting styles, keywords in any case, white space and comments between
/// any two tokens, every column and table constraint, foreign key clauses, generated columns,
/// STRICT and WITHOUT ROWID. Some statements break a rule SQLite checks beyond the grammar (two
/// primary keys, AUTOINCREMENT without a rowid); the fuzzer lets SQLite decide and skips those.
struct CreateTableGenerator {
    /// SplitMix64: small, fast, and the same sequence on every platform for a seed.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
        mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    }

    var random: Random
    private var columns: [(name: String, generated: Bool)] = []
    private var usedNames: Set<String> = []
    private var hasPrimaryKey = false

    init(seed: UInt64) { random = Random(state: seed) }

    // MARK: Tokens and what goes between them

    /// White space or a comment (something always separates two tokens).
    private mutating func gap() -> String {
        random.pick([
            " ", " ", " ", "  ", "\n", "\t", " /* c */ ", "/**/", " -- note\n", "\n  ", " /* ( ' \" */ ", " -- ) ,\n",
        ])
    }

    /// A keyword in random case, possibly several words.
    private mutating func keyword(_ text: String) -> String {
        text.split(separator: " ").map { word -> String in
            switch random.below(3) {
            case 0: return word.uppercased()
            case 1: return word.lowercased()
            default:
                return String(
                    word.enumerated().map {
                        $0.offset % 2 == 0 ? Character($0.element.uppercased()) : Character($0.element.lowercased())
                    })
            }
        }.joined(separator: gap())
    }

    /// The name written in a random quoting style it allows.
    private mutating func quote(_ name: String, allowString: Bool = false) -> String {
        let bare =
            name.utf8.allSatisfy { SQLTokenizer.isIdentifierByte($0) }
            && !(name.utf8.first.map(SQLTokenizer.isDigit) ?? true)
            && !Self.reserved.contains(name.uppercased())
        var styles = ["double", "backtick"]
        if bare { styles += ["bare", "bare"] }
        if !name.contains("]") { styles.append("bracket") }
        if allowString { styles.append("string") }
        switch random.pick(styles) {
        case "bare": return name
        case "double": return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        case "backtick": return "`" + name.replacingOccurrences(of: "`", with: "``") + "`"
        case "bracket": return "[" + name + "]"
        default: return "'" + name.replacingOccurrences(of: "'", with: "''") + "'"
        }
    }

    /// Keywords SQLite reserves (a bare one cannot be a name), of those the names below might hit.
    static let reserved: Set<String> = [
        "SELECT", "FROM", "WHERE", "ORDER", "GROUP", "TABLE", "CHECK", "DEFAULT", "NULL", "NOT", "PRIMARY",
        "UNIQUE", "REFERENCES", "CONSTRAINT", "FOREIGN", "COLLATE", "AS", "AND", "OR", "IN", "IS", "CREATE",
    ]

    private mutating func freshName(_ pool: [String]) -> String {
        while true {
            var name = random.pick(pool)
            if usedNames.contains(name.sqlFolded) { name += String(random.below(1000)) }
            if usedNames.insert(name.sqlFolded).inserted { return name }
        }
    }

    static let columnNames = [
        "a", "b", "price", "Note", "key", "action", "match", "end", "replace", "temp", "generated", "rowid2", "naïve",
        "表",
        "🙂", "col with space", "it's", "say \"hi\"", "back`tick", "x]y", "select", "from", "Order", "ÄÖÜ", "a\u{00A0}b",
    ]

    // MARK: Expressions

    /// A reference to an existing column, quoted as an identifier (never as a string).
    private mutating func columnReference(nonGenerated: Bool = false) -> String? {
        let candidates = columns.filter { !nonGenerated || !$0.generated }
        guard !candidates.isEmpty else { return nil }
        let name = random.pick(candidates).name
        return random.chance(50) ? "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : quote(name)
    }

    private mutating func literal() -> String {
        random.pick([
            "1", "0", "-1", "2.5", ".5", "1e3", "0x1F", "'text'", "'it''s'", "'a)b'", "'(('", "'--'", "'/*'", "x'00ff'",
            "NULL", "TRUE", "'é'",
        ])
    }

    /// A small expression over existing columns, nested `depth` deep at most.
    private mutating func expression(depth: Int = 2, nonGenerated: Bool = false) -> String {
        let leaf = columnReference(nonGenerated: nonGenerated) ?? literal()
        guard depth > 0 else { return random.chance(60) ? leaf : literal() }
        let inner = expression(depth: depth - 1, nonGenerated: nonGenerated)
        let other = expression(depth: depth - 1, nonGenerated: nonGenerated)
        switch random.below(10) {
        case 0: return "(" + gap() + inner + gap() + ")"
        case 1: return keyword("abs") + "(" + inner + ")"
        case 2: return keyword("coalesce") + "(" + inner + "," + gap() + other + ")"
        case 3: return inner + gap() + random.pick(["+", "-", "*", "||", "<>", "!=", "=", "<=", ">="]) + gap() + other
        case 4: return inner + gap() + keyword("IN") + gap() + "(" + literal() + ", (" + literal() + "))"
        case 5:
            return keyword("CASE WHEN") + gap() + inner + gap() + keyword("THEN") + gap() + other + gap()
                + keyword("ELSE") + gap() + literal() + gap() + keyword("END")
        case 6: return inner + gap() + keyword("IS NOT NULL")
        case 7: return "'{\"a\":1}'" + gap() + "->>" + gap() + "'$.a'"
        case 8: return keyword("length") + "(" + inner + ")" + gap() + ">" + gap() + "0"
        default: return leaf
        }
    }

    // MARK: Clauses

    private mutating func conflict() -> String {
        random.chance(25)
            ? gap() + keyword("ON CONFLICT") + gap()
                + keyword(random.pick(["ROLLBACK", "ABORT", "FAIL", "IGNORE", "REPLACE"])) : ""
    }

    private mutating func constraintName() -> String {
        random.chance(20)
            ? keyword("CONSTRAINT") + gap() + quote(freshName(["c", "named", "pk", "it's", "名"]), allowString: true)
                + gap() : ""
    }

    private mutating func foreignKeyArguments() -> String {
        var text = ""
        for _ in 0..<random.below(4) {
            switch random.below(4) {
            case 0, 1:
                text +=
                    gap() + keyword("ON " + random.pick(["DELETE", "UPDATE"])) + gap()
                    + keyword(random.pick(["SET NULL", "SET DEFAULT", "CASCADE", "RESTRICT", "NO ACTION"]))
            case 2: text += gap() + keyword("MATCH") + gap() + keyword(random.pick(["SIMPLE", "FULL", "PARTIAL"]))
            default: text += gap() + keyword("ON INSERT CASCADE")
            }
        }
        if random.chance(30) {
            text += gap() + keyword(random.pick(["DEFERRABLE", "NOT DEFERRABLE"]))
            if random.chance(60) { text += gap() + keyword("INITIALLY " + random.pick(["DEFERRED", "IMMEDIATE"])) }
        }
        return text
    }

    private mutating func reference(columns count: Int) -> String {
        var text = keyword("REFERENCES") + gap() + quote(random.pick(["parent", "p q", "Parent"]))
        if count > 1 || random.chance(60) {
            text +=
                gap() + "("
                + (0..<count).map { _ in quote(random.pick(["id", "x", "y z"])) }.joined(separator: "," + gap()) + ")"
        }
        return text + foreignKeyArguments()
    }

    private mutating func columnConstraint(type: String, strict: Bool) -> String {
        let name = constraintName()
        switch random.below(12) {
        case 0: return name + keyword("NOT NULL") + conflict()
        case 1: return name + keyword("NULL") + conflict()
        case 2: return name + keyword("UNIQUE") + conflict()
        case 3: return name + keyword("CHECK") + gap() + "(" + expression() + ")"
        case 4:
            let value = random.pick([
                literal(), "(" + expression(depth: 1) + ")",
                random.pick(["-", "+"]) + gap() + random.pick(["1", "2.5", "0x10"]),
                keyword(random.pick(["CURRENT_TIMESTAMP", "CURRENT_DATE", "CURRENT_TIME"])),
            ])
            return name + keyword("DEFAULT") + gap() + value
        case 5:
            return name + keyword("COLLATE") + gap()
                + random.pick(["NOCASE", "nocase", "BINARY", "RTRIM", "\"NOCASE\""])
        case 6: return name + reference(columns: 1)
        case 7 where !hasPrimaryKey:
            hasPrimaryKey = true
            let direction = random.chance(40) ? gap() + keyword(random.pick(["ASC", "DESC"])) : ""
            let autoincrement =
                type.uppercased() == "INTEGER" && random.chance(40) ? gap() + keyword("AUTOINCREMENT") : ""
            return name + keyword("PRIMARY KEY") + direction + conflict() + autoincrement
        case 8 where random.chance(50): return name + keyword(random.pick(["DEFERRABLE", "NOT DEFERRABLE"]))
        case 9 where random.chance(30): return keyword("CONSTRAINT") + gap() + quote(freshName(["dangling"]))
        default: return name + keyword("NOT NULL")
        }
    }

    private mutating func column(strict: Bool) -> String {
        let name = freshName(Self.columnNames)
        let types =
            strict
            ? ["INT", "INTEGER", "REAL", "TEXT", "BLOB", "ANY", "integer", "Text"]
            : [
                "", "", "INT", "INTEGER", "TEXT", "REAL", "BLOB", "NUMERIC", "VARCHAR(255)", "DECIMAL(10, 5)",
                "DECIMAL ( +10 , -5 )", "UNSIGNED BIG INT",
                "DOUBLE PRECISION", "\"my type\"", "'text'", "[real]", "NVARCHAR(+5)", "DATETIME", "BOOLEAN",
                "NATIVE CHARACTER(70)", "generated text",
            ]
        let type = random.pick(types)
        var text =
            quote(name, allowString: true)
            + (type.isEmpty ? "" : gap() + type.split(separator: " ").joined(separator: gap()))
        var generated = false
        for _ in 0..<random.below(4) {
            text += gap() + columnConstraint(type: type, strict: strict)
        }
        if random.chance(15) {
            generated = true
            // Only white space around a GENERATED ALWAYS that follows the type: SQLite reads those
            // words as part of the type and cuts them off again, leaving any comment there in the
            // declared type it reports (a quirk the round trip keeps, but this check cannot model).
            let name = constraintName()
            let spaced = random.pick([" ", "\n", "  "])
            text +=
                spaced + name + (random.chance(50) ? "GENERATED" + spaced + "ALWAYS" + gap() : "") + keyword("AS")
                + gap()
                + "(" + expression(nonGenerated: true) + ")"
                + (random.chance(60) ? gap() + keyword(random.pick(["STORED", "VIRTUAL"])) : "")
            if random.chance(30) { text += gap() + keyword("NOT NULL") }
        }
        columns.append((name, generated))
        return text
    }

    private mutating func columnList(_ count: Int, modifiers: Bool) -> String {
        let chosen = (0..<count).map { _ in random.pick(columns).name }
        return "(" + gap()
            + chosen.map { name -> String in
                var item = quote(name)
                if modifiers && random.chance(10) { item = "(" + item + ")" }
                if modifiers && random.chance(20) {
                    item += gap() + keyword("COLLATE") + gap() + random.pick(["NOCASE", "RTRIM"])
                }
                if modifiers && random.chance(20) { item += gap() + keyword(random.pick(["ASC", "DESC"])) }
                return item
            }.joined(separator: "," + gap()) + gap() + ")"
    }

    private mutating func tableConstraint() -> String {
        let name = constraintName()
        switch random.below(5) {
        case 0 where !hasPrimaryKey:
            hasPrimaryKey = true
            return name + keyword("PRIMARY KEY") + gap() + columnList(1 + random.below(2), modifiers: true) + conflict()
        case 1: return name + keyword("UNIQUE") + gap() + columnList(1 + random.below(3), modifiers: true) + conflict()
        case 2: return name + keyword("CHECK") + gap() + "(" + expression() + ")" + conflict()
        case 3:
            let count = 1 + random.below(2)
            return name + keyword("FOREIGN KEY") + gap() + columnList(count, modifiers: false) + gap()
                + reference(columns: count)
        default:
            return random.chance(20)
                ? keyword("CONSTRAINT") + gap() + quote(freshName(["dangling"]))
                : name + keyword("UNIQUE") + gap() + columnList(1, modifiers: false)
        }
    }

    /// The next statement.
    mutating func statement() -> String {
        columns = []
        usedNames = []
        hasPrimaryKey = false
        let strict = random.chance(20)
        let withoutRowid = random.chance(20)
        var parts: [String] = []
        for _ in 0..<(1 + random.below(5)) { parts.append(column(strict: strict)) }
        var constraints: [String] = []
        for _ in 0..<random.below(4) { constraints.append(tableConstraint()) }
        if withoutRowid && !hasPrimaryKey {
            hasPrimaryKey = true
            constraints.append(keyword("PRIMARY KEY") + gap() + columnList(1, modifiers: false))
        }
        var body = parts.joined(separator: gap() + "," + gap())
        for (index, constraint) in constraints.enumerated() {
            // Between table constraints SQLite also takes no comma at all.
            body += (index > 0 && random.chance(20) ? gap() : gap() + "," + gap()) + constraint
        }
        var options: [String] = []
        if strict { options.append(keyword("STRICT")) }
        if withoutRowid { options.append(keyword("WITHOUT") + gap() + keyword("ROWID")) }
        if random.chance(50) { options.reverse() }
        let table = quote(freshName(["t", "Table", "select", "a b", "tàble"]), allowString: true)
        return keyword("CREATE TABLE") + gap() + (random.chance(10) ? keyword("IF NOT EXISTS") + gap() : "") + table
            + gap() + "(" + gap() + body + gap() + ")"
            + (options.isEmpty ? "" : gap() + options.joined(separator: gap() + "," + gap()))
    }

    /// `statement` damaged one way: cut short, a parenthesis or quote dropped or added, a token doubled.
    mutating func mutate(_ statement: String) -> String {
        var bytes = Array(statement.utf8)
        guard !bytes.isEmpty else { return statement }
        switch random.below(5) {
        case 0:
            bytes = Array(bytes.prefix(random.below(bytes.count)))
        case 1:
            let marks = bytes.indices.filter { bytes[$0] == UInt8(ascii: "(") || bytes[$0] == UInt8(ascii: ")") }
            if let index = marks.isEmpty ? nil : random.pick(marks) { bytes.remove(at: index) }
        case 2:
            bytes.insert(random.pick(Array("()'\"[]`,;-/*".utf8)), at: random.below(bytes.count + 1))
        case 3:
            let start = random.below(bytes.count)
            let length = min(bytes.count - start, 1 + random.below(12))
            bytes.insert(contentsOf: bytes[start..<(start + length)], at: start)
        default:
            let start = random.below(bytes.count)
            bytes.removeSubrange(start..<min(bytes.count, start + 1 + random.below(8)))
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
