/// One schema object and a collation or function it needs that the connection lacks: a line of
/// the refusal that names them (``SQLEnvironmentNeed``).
struct SQLEnvironmentFinding: Hashable, Comparable, Sendable {
    var need: SQLEnvironmentNeed
    /// `table`, `index`, `trigger`, `view`, or `declared table` for what a stage creates.
    var objectKind: String
    var objectName: String
    /// The table it belongs to (its own name for a table).
    var table: String

    /// `the index tags_unique (on tags) uses the collation unicase`.
    var sentence: String {
        let verb = need.kind == .function ? "calls" : "uses"
        let owner = ["table", "view", "declared table"].contains(objectKind) ? "" : " (on \(table))"
        return "the \(objectKind) \(objectName)\(owner) \(verb) \(need)"
    }

    static func < (lhs: SQLEnvironmentFinding, rhs: SQLEnvironmentFinding) -> Bool {
        (lhs.need, lhs.objectName.sqlFolded) < (rhs.need, rhs.objectName.sqlFolded)
    }

    /// The objects whose SQL names `need`, in sentences: what a refusal met while reading lists.
    static func objects(needing need: SQLEnvironmentNeed, in db: any SQLQuerying) -> [String] {
        let rows =
            (try? db.rows("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE sql IS NOT NULL ORDER BY rowid"))
            ?? []
        return rows.compactMap { row in
            guard let kind = row[0].stringValue, let name = row[1].stringValue, let table = row[2].stringValue,
                let sql = row[3].stringValue,
                SQLTokenizer(sql).identifierSet().contains(need.name.sqlFolded)
            else { return nil }
            return SQLEnvironmentFinding(need: need, objectKind: kind, objectName: name, table: table).sentence
        }
    }
}
