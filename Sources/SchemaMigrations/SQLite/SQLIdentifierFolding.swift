extension String {
    /// The name as SQLite compares identifiers: ASCII letters folded to lower case, every other
    /// character as it is (SQLite does not fold `Ä` to `ä`). The key for sets and dictionaries
    /// of table, column, index and pragma names.
    var sqlFolded: String {
        guard utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else { return self }
        return String(
            decoding: utf8.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 32 : $0 }, as: UTF8.self)
    }
}
