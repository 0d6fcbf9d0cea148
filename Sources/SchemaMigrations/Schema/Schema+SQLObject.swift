extension Schema {
    /// A view, trigger or virtual table a version declares, as the `CREATE` statement SQLite
    /// stores for it.
    ///
    /// ```swift
    /// static let sqlObjects: [Schema.SQLObject] = [
    ///     .view("CREATE VIEW PostCount AS SELECT authorID, count(*) AS posts FROM Post GROUP BY authorID"),
    ///     .trigger("CREATE TRIGGER Post_touch AFTER UPDATE ON Post BEGIN UPDATE Author SET updatedAt = NEW.updatedAt WHERE id = NEW.authorID; END"),
    ///     .virtualTable("CREATE VIRTUAL TABLE PostText USING fts5(title, body)"),
    /// ]
    /// ```
    ///
    /// A database created at the version has each object, created after the tables in the order
    /// declared; a stage drops the objects the next version no longer declares, drops and
    /// recreates those whose SQL changed (and the ones that read them), and copies a changed
    /// virtual table's rows into its new definition. Spacing, case and quoting of the SQL do
    /// not count as a change.
    public struct SQLObject: Codable, Hashable, Sendable, CustomStringConvertible {
        /// What the statement creates. The raw values are the snapshot's `kind` keys.
        public enum Kind: String, Codable, Hashable, Sendable, CaseIterable {
            case view, trigger, virtualTable
            /// The words of its `CREATE` statement and of the dry run: `view`, `trigger`, `virtual table`.
            public var words: String { self == .virtualTable ? "virtual table" : rawValue }
            /// The keywords after `CREATE` that make one.
            var keywords: [String] {
                switch self {
                case .view: return ["VIEW"]
                case .trigger: return ["TRIGGER"]
                case .virtualTable: return ["VIRTUAL", "TABLE"]
                }
            }
        }

        /// What it is.
        public let kind: Kind
        /// The `CREATE VIEW`, `CREATE TRIGGER` or `CREATE VIRTUAL TABLE` statement, as written.
        public let sql: String
        /// What the statement's tokens say, read once: the planner, the comparison and the
        /// checks ask for the name and the names it mentions many times.
        let statement: SQLObjectStatement
        /// Its name as the statement spells it (quotes removed); empty when the statement names
        /// nothing a version can hold (``Schema/validate()`` refuses it, saying why).
        public var name: String { statement.name ?? "" }

        /// An object of `kind` created by `sql`.
        public init(_ kind: Kind, _ sql: String) {
            self.kind = kind
            self.sql = sql
            statement = SQLObjectStatement(sql)
        }

        /// The object a file's `CREATE VIEW | TRIGGER | VIRTUAL TABLE` statement makes, of the
        /// kind the statement says; nil for any other statement.
        init?(stored sql: String) {
            let statement = SQLObjectStatement(sql)
            guard let kind = statement.kind else { return nil }
            self.kind = kind
            self.sql = sql
            self.statement = statement
        }

        /// Reads what ``encode(to:)`` writes: the kind and the statement.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(try container.decode(Kind.self, forKey: .kind), try container.decode(String.self, forKey: .sql))
        }

        /// Equal when the kind and the statement, as written, are.
        public static func == (lhs: SQLObject, rhs: SQLObject) -> Bool { lhs.kind == rhs.kind && lhs.sql == rhs.sql }

        /// Hashes the kind and the statement, as written.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(kind)
            hasher.combine(sql)
        }

        /// A view: `.view("CREATE VIEW Recent AS SELECT * FROM Post WHERE date > unixepoch() - 86400")`.
        public static func view(_ sql: String) -> SQLObject { SQLObject(.view, sql) }
        /// A trigger: `.trigger("CREATE TRIGGER … AFTER INSERT ON Post BEGIN …; END")`.
        public static func trigger(_ sql: String) -> SQLObject { SQLObject(.trigger, sql) }
        /// A virtual table, any module (FTS5, FTS4, R*Tree, …): its shadow tables are the
        /// module's, never declared. `.virtualTable("CREATE VIRTUAL TABLE PostText USING fts5(title, body)")`.
        public static func virtualTable(_ sql: String) -> SQLObject { SQLObject(.virtualTable, sql) }

        /// `view PostCount`.
        public var description: String { "\(kind.words) \(name)" }

        /// The statement as SQLite reads it: spacing, case and quoting do not count, nor what
        /// SQLite leaves out of the text it stores (`IF NOT EXISTS`, a `main.` before the name, a
        /// final semicolon).
        var normalizedSQL: String {
            let bytes = Array(sql.utf8)
            guard let range = statement.qualifiedNameRange else {
                return SQLExpressionText.normalized(sql)
            }
            var rest = String(decoding: bytes[range.upperBound...], as: UTF8.self)
            while let last = rest.unicodeScalars.last, last == ";" || last.properties.isWhitespace {
                rest.unicodeScalars.removeLast()
            }
            return "create \(kind.words) \(name.sqlFolded) " + SQLExpressionText.normalized(rest)
        }

        /// The names the statement mentions (lower-cased), its own included: what tells that a
        /// view reads another, or a trigger a view.
        var mentionedNames: Set<String> { statement.mentionedNames }

        /// `DROP VIEW "PostCount"`.
        var dropStatement: String {
            "DROP \(kind == .virtualTable ? "TABLE" : kind.keywords[0]) \(SQL.quoteIdentifier(name))"
        }

        /// The statement creating it under `name` (already quoted, `temp."x"` allowed) instead of
        /// its own, schema prefix included: a changed virtual table is made beside the old one
        /// before its rows move. The name's tokens are replaced, nothing else.
        func sql(namedSQL name: String) -> String {
            guard let range = statement.qualifiedNameRange else { return sql }
            let bytes = Array(sql.utf8)
            return String(decoding: bytes[..<range.lowerBound], as: UTF8.self) + name
                + String(decoding: bytes[range.upperBound...], as: UTF8.self)
        }

        /// Of `objects` (a file's, in its order), those a version can declare when the tables
        /// `leftOut` are not declared, and each of the others with why: one that names a table
        /// left out (a trigger on it, a view reading it), or an object left out, goes too. Told by
        /// the names each statement mentions, so a column called like such a table counts.
        static func declarable(_ objects: [SQLObject], leftOut tables: [String])
            -> (kept: [SQLObject], leftOut: [SchemaIntrospection.TableNotes])
        {
            var missing = Set(tables.map(\.sqlFolded))
            var kept: [SQLObject] = []
            var leftOut: [SchemaIntrospection.TableNotes] = []
            for object in objects {
                let read = object.mentionedNames.subtracting([object.name.sqlFolded])
                if let name = tables.first(where: { read.contains($0.sqlFolded) })
                    ?? objects.first(where: { missing.contains($0.name.sqlFolded) && read.contains($0.name.sqlFolded) }
                    )?
                    .name
                {
                    leftOut.append(.init(table: object.name, notes: ["\(object) names \(name), which is left out"]))
                    missing.insert(object.name.sqlFolded)
                } else {
                    kept.append(object)
                }
            }
            return (kept, leftOut)
        }

        private enum CodingKeys: String, CodingKey { case kind, sql }
    }
}

/// What the head of a `CREATE VIEW | TRIGGER | VIRTUAL TABLE` statement says: the kind, whether it
/// is `TEMP`, and the name with its byte range. Tokens, never a search of the text.
struct SQLObjectStatement: Sendable {
    var kind: Schema.SQLObject.Kind?
    var isTemporary = false
    var schemaName: String?
    var name: String?
    /// The bytes of `schema.name` or `name`.
    var qualifiedNameRange: Range<Int>?
    /// A virtual table's module: `fts5` of `USING fts5(…)`.
    var module: String?
    /// Every name the statement mentions (lower-cased), its own included; empty when it cannot
    /// be tokenized.
    var mentionedNames: Set<String> = []

    init(_ sql: String) {
        let tokenizer = SQLTokenizer(sql)
        guard let tokens = try? tokenizer.tokens() else { return }
        mentionedNames = tokenizer.identifiers(in: tokens[...])
        guard let first = tokens.first, tokenizer.isKeyword(first, "CREATE") else { return }
        var index = 1
        func keyword(_ word: String) -> Bool {
            guard index < tokens.count, tokenizer.isKeyword(tokens[index], word) else { return false }
            index += 1
            return true
        }
        if keyword("TEMP") || keyword("TEMPORARY") { isTemporary = true }
        if keyword("VIEW") {
            kind = .view
        } else if keyword("TRIGGER") {
            kind = .trigger
        } else if keyword("VIRTUAL") && keyword("TABLE") {
            kind = .virtualTable
        } else {
            return
        }
        let mark = index
        if !(keyword("IF") && keyword("NOT") && keyword("EXISTS")) { index = mark }
        func isName(_ token: SQLTokenizer.Token) -> Bool {
            token.kind == .word || token.kind == .quotedIdentifier || token.kind == .string
        }
        guard index < tokens.count, isName(tokens[index]) else { return }
        var nameToken = tokens[index]
        let start = nameToken.start
        if index + 2 < tokens.count, tokens[index + 1].kind == .symbol, tokenizer.text(of: tokens[index + 1]) == ".",
            isName(tokens[index + 2])
        {
            schemaName = tokenizer.name(of: nameToken)
            nameToken = tokens[index + 2]
        }
        name = tokenizer.name(of: nameToken)
        qualifiedNameRange = start..<nameToken.end
        if kind == .virtualTable, let using = tokens.firstIndex(where: { tokenizer.isKeyword($0, "USING") }),
            using + 1 < tokens.count
        {
            module = tokenizer.name(of: tokens[using + 1])
        }
    }
}
