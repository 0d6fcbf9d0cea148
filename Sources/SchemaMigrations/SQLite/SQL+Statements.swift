import CSQLite

extension SQL {
    /// The statements of `sql`, each with its terminating semicolon, in order; text after the
    /// last complete statement (a comment, spaces) is dropped unless it holds a statement without
    /// its semicolon, which comes last. SQLite decides where a statement ends (`sqlite3_complete`):
    /// a semicolon inside a string, a comment or a trigger's `BEGIN … END` does not end one.
    ///
    /// A connection that sends statements one request at a time (the dqlite cluster's) splits
    /// what custom code runs as one string.
    package static func statements(in sql: String) -> [String] {
        let utf8 = sql.utf8
        // Most statements a migration sends have no semicolon at all: nothing to split.
        guard utf8.contains(UInt8(ascii: ";")) else {
            guard let first = utf8.first(where: { !isSpace($0) }) else { return [] }
            return first == UInt8(ascii: "-") || first == UInt8(ascii: "/") ? (isEmpty(sql) ? [] : [sql]) : [sql]
        }
        var statements: [String] = []
        var start = utf8.startIndex
        var index = utf8.startIndex
        while let semicolon = utf8[index...].firstIndex(of: UInt8(ascii: ";")) {
            index = utf8.index(after: semicolon)
            let candidate = String(sql[start..<index])
            guard sqlite3_complete(candidate) != 0 else { continue }
            if !isEmpty(candidate) { statements.append(candidate.trimmingLeadingWhitespace) }
            start = index
        }
        let rest = String(sql[start...])
        if !isEmpty(rest) { statements.append(rest.trimmingLeadingWhitespace) }
        return statements
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    /// True when `text` holds semicolons, comments and spaces alone: no statement.
    private static func isEmpty(_ text: String) -> Bool {
        guard let tokens = try? SQLTokenizer(text).tokens() else { return false }
        return tokens.allSatisfy { $0.kind == .semicolon }
    }
}

extension String {
    fileprivate var trimmingLeadingWhitespace: String { String(drop(while: \.isWhitespace)) }
}
