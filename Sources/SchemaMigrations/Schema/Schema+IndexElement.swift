#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Schema {
    /// One term of an index: a column or an SQL expression, with an optional collating sequence
    /// and order.
    ///
    /// ```swift
    /// .column("name", collation: "NOCASE")          // "name" COLLATE NOCASE
    /// .column("startDate", descending: true)         // "startDate" DESC
    /// .expression("lower(email)")                    // lower(email)
    /// .expression("json_extract(data, '$.kind')")
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_createindex.html>,
    /// <https://www.sqlite.org/expridx.html>
    public struct IndexElement: Codable, Hashable, Sendable, CustomStringConvertible {
        /// The column's name, for a column term.
        public var column: String?
        /// The expression as SQL, for an expression term.
        public var expression: String?
        /// `COLLATE name`, when given.
        public var collation: String?
        /// `DESC` when true.
        public var isDescending: Bool

        /// A column term.
        public static func column(_ name: String, collation: String? = nil, descending: Bool = false) -> IndexElement {
            IndexElement(column: name, expression: nil, collation: collation, isDescending: descending)
        }

        /// An expression term: deterministic SQL over the table's columns (`lower(email)`).
        public static func expression(_ sql: String, collation: String? = nil, descending: Bool = false) -> IndexElement
        {
            IndexElement(column: nil, expression: sql, collation: collation, isDescending: descending)
        }

        /// A plain ascending column with no collation: an index of only these needs no elements.
        var isPlainColumn: Bool { column != nil && collation == nil && !isDescending }

        /// `"name" COLLATE NOCASE DESC`, `lower(email)`.
        var sql: String {
            (column.map(SQL.quoteIdentifier) ?? expression ?? "")
                + (collation.map { " COLLATE \($0)" } ?? "") + (isDescending ? " DESC" : "")
        }

        /// The element as it reads in `CREATE INDEX`.
        public var description: String {
            (column ?? expression ?? "") + (collation.map { " COLLATE \($0)" } ?? "") + (isDescending ? " DESC" : "")
        }

        private enum CodingKeys: String, CodingKey { case column, expression, collation, isDescending }

        /// Decodes an element from a schema snapshot: a column name alone, or its full form.
        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            column = try container.decodeIfPresent(String.self, forKey: .column)
            expression = try container.decodeIfPresent(String.self, forKey: .expression)
            collation = try container.decodeIfPresent(String.self, forKey: .collation)
            isDescending = try container.decodeIfPresent(Bool.self, forKey: .isDescending) ?? false
        }

        /// Writes only what is set, so a snapshot says `{"expression":"lower(email)"}`.
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(column, forKey: .column)
            try container.encodeIfPresent(expression, forKey: .expression)
            try container.encodeIfPresent(collation, forKey: .collation)
            if isDescending { try container.encode(true, forKey: .isDescending) }
        }

        init(column: String?, expression: String?, collation: String?, isDescending: Bool) {
            self.column = column
            self.expression = expression
            self.collation = collation
            self.isDescending = isDescending
        }
    }
}

/// The parts of a `CREATE INDEX` statement a declaration speaks of: its terms and its `WHERE`.
///
/// ```swift
/// let parsed = IndexStatement(sql: #"CREATE UNIQUE INDEX u ON "User" (lower(email) DESC) WHERE deleted_at IS NULL"#)
/// parsed?.terms       // [.expression("lower(email)", descending: true)]
/// parsed?.predicate   // "deleted_at IS NULL"
/// ```
struct IndexStatement: Sendable, Hashable {
    var terms: [Schema.IndexElement]
    var predicate: String?

    /// Nil when the text is not a `CREATE INDEX … ON table (…)` statement.
    init?(sql: String) {
        let tokenizer = SQLTokenizer(sql)
        guard let tokens = try? tokenizer.tokens(),
            let on = tokens.firstIndex(where: { tokenizer.isKeyword($0, "ON") }),
            let open = tokens[on...].firstIndex(where: { $0.kind == .leftParenthesis })
        else { return nil }
        var depth = 0
        var termStart = open + 1
        var ranges: [Range<Int>] = []
        var close: Int?
        for position in (open + 1)..<tokens.count {
            switch tokens[position].kind {
            case .leftParenthesis: depth += 1
            case .rightParenthesis where depth == 0:
                ranges.append(termStart..<position)
                close = position
            case .rightParenthesis: depth -= 1
            case .comma where depth == 0:
                ranges.append(termStart..<position)
                termStart = position + 1
            default: break
            }
            if close != nil { break }
        }
        guard let close, ranges.allSatisfy({ !$0.isEmpty }) else { return nil }
        terms = ranges.map { IndexStatement.term(tokens[$0], tokenizer) }
        if close + 1 < tokens.count, tokenizer.isKeyword(tokens[close + 1], "WHERE"), close + 2 < tokens.count {
            let end = tokens.last!.kind == .semicolon ? tokens.count - 2 : tokens.count - 1
            predicate = end >= close + 2 ? tokenizer.text(tokens[close + 2].start, tokens[end].end) : nil
        } else {
            predicate = nil
        }
    }

    /// One indexed term: a trailing `ASC`/`DESC` and `COLLATE name` taken apart, a lone name a column.
    private static func term(_ slice: ArraySlice<SQLTokenizer.Token>, _ tokenizer: SQLTokenizer) -> Schema.IndexElement
    {
        var tokens = Array(slice)
        var descending = false
        if let last = tokens.last, tokens.count > 1,
            tokenizer.isKeyword(last, "DESC") || tokenizer.isKeyword(last, "ASC")
        {
            descending = tokenizer.isKeyword(last, "DESC")
            tokens.removeLast()
        }
        var collation: String?
        if tokens.count > 2, tokenizer.isKeyword(tokens[tokens.count - 2], "COLLATE") {
            collation = tokenizer.name(of: tokens[tokens.count - 1])
            tokens.removeLast(2)
        }
        if tokens.count == 1, tokens[0].kind == .word || tokens[0].kind == .quotedIdentifier {
            return .column(tokenizer.name(of: tokens[0]), collation: collation, descending: descending)
        }
        return .expression(
            tokenizer.text(tokens.first!.start, tokens.last!.end), collation: collation, descending: descending)
    }
}
