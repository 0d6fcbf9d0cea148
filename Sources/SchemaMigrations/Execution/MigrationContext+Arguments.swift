/// The data API's checks of what a custom stage's code passes it: a filter is one SQL expression,
/// an ordering an ordering list, the arguments as many as the placeholders, a batch size and a
/// limit within range. Each refusal is a `MigrationError` with code `invalidArgument` naming the
/// call and the entity; like any error in a custom stage, it rolls the whole migration back.
extension MigrationContext {
    /// The most rows ``forEach(_:where:arguments:properties:batchSize:_:)`` holds at once: a
    /// larger `batchSize` reads batches of this many rows.
    public static let maximumBatchSize = 10_000

    /// `filter` as SQL to put after `WHERE`: in parentheses, each on a line of its own, so that a
    /// trailing `--` comment ends before what follows. Nil for no filter.
    /// - Throws: `MigrationError` (`invalidArgument`) for an empty filter, or one that is not one
    ///   balanced expression (a `;`, an unbalanced parenthesis: nothing may run after it).
    func filterClause(_ filter: String?, call: String, entity: String) throws -> String? {
        guard let filter else { return nil }
        guard filter.contains(where: { !$0.isWhitespace }) else {
            throw Self.invalidArgument(
                call, entity, "was given an empty filter: pass nil (or leave `where:` out) for every row",
                remedy: "leave `where:` out, or write a condition over the table's columns such as \"count > ?\"")
        }
        guard SQLExpressionText.isOneExpression(filter) else {
            throw Self.invalidArgument(
                call, entity, "was given a filter that is not one SQL expression: \(filter)",
                remedy:
                    "write one condition over the table's columns, with balanced parentheses and no ';', and pass values as arguments for its ? placeholders"
            )
        }
        return "(\n\(filter)\n)"
    }

    /// `orderBy` as SQL to put after `ORDER BY`, on a line of its own. Nil for the default order.
    /// - Throws: `MigrationError` (`invalidArgument`) for an empty ordering, or one that is not a
    ///   list of orderings (a `;`, an unbalanced parenthesis, a `LIMIT` or `OFFSET` of its own).
    func orderingClause(_ orderBy: String?, call: String, entity: String) throws -> String? {
        guard let orderBy else { return nil }
        let remedy =
            "write orderings over the table's columns, such as \"name COLLATE NOCASE, startDate DESC\", or leave `orderBy:` out for the key's order"
        guard orderBy.contains(where: { !$0.isWhitespace }) else {
            throw Self.invalidArgument(call, entity, "was given an empty ordering", remedy: remedy)
        }
        guard SQLExpressionText.isOrderingList(orderBy) else {
            throw Self.invalidArgument(
                call, entity, "was given an ordering that is not a list of orderings: \(orderBy)", remedy: remedy)
        }
        return "\(orderBy)\n"
    }

    /// Prepares a statement holding the caller's SQL.
    /// - Throws: `MigrationError` (`invalidArgument`) with SQLite's words when it does not compile.
    func preparing(_ sql: String, call: String, entity: String) throws -> any PreparedStatement {
        do {
            return try db.prepareStatement(sql)
        } catch let error as SQLiteError {
            throw MigrationError(
                .invalidArgument, "\(call)(\"\(entity)\") could not run its query: \(error.message)", entity: entity,
                version: schema.version,
                remedy: "write the filter and ordering over the table's column names, with a ? for each argument",
                sqliteError: error)
        }
    }

    /// Binds the caller's arguments to the first parameters and `bounds` (the data API's own, last
    /// in the statement) to the last ones.
    /// - Throws: `MigrationError` (`invalidArgument`) when the arguments are not as many as the
    ///   caller's placeholders (where the connection can tell how many there are).
    func bind(
        _ arguments: [SQLiteValue], bounds: [SQLiteValue] = [], to statement: any PreparedStatement, call: String,
        entity: String
    ) throws {
        let total = statement.parameterCount ?? arguments.count + bounds.count
        let placeholders = total - bounds.count
        guard placeholders == arguments.count else {
            throw Self.invalidArgument(
                call, entity,
                "was given \(counted(arguments.count, "argument")) for \(counted(placeholders, "placeholder"))",
                remedy: "pass one argument for each ? of the filter and ordering, in order")
        }
        try statement.bind(arguments)
        for (offset, bound) in bounds.enumerated() { try statement.bind(bound, at: placeholders + offset + 1) }
    }

    static func invalidArgument(_ call: String, _ entity: String, _ problem: String, remedy: String) -> MigrationError {
        MigrationError(.invalidArgument, "\(call)(\"\(entity)\") \(problem)", entity: entity, remedy: remedy)
    }
}

extension SQLExpressionText {
    /// Whether `text` is what may follow `ORDER BY`: balanced, no `;`, and no `LIMIT` or `OFFSET`
    /// outside parentheses (the data API adds its own).
    static func isOrderingList(_ text: String) -> Bool {
        guard let words = topLevelWords(text) else { return false }
        return !words.contains("limit") && !words.contains("offset")
    }
}
