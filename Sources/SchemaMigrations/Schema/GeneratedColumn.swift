#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Schema {
    /// A generated column's definition: `GENERATED ALWAYS AS (expression) VIRTUAL` or `STORED`.
    ///
    /// ```swift
    /// @Attribute(generated: .virtual("price * quantity")) var total: Double? = nil
    /// @Attribute(generated: .stored("lower(email)")) var emailKey: String? = nil
    /// ```
    ///
    /// Its values are computed by SQLite: inserts and updates never write them. A `VIRTUAL` column
    /// is computed when read and can be added with `ALTER TABLE ADD COLUMN`; a `STORED` one is
    /// computed when its row is written and takes room in the file (adding one rebuilds the table).
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/gencol.html>
    public struct GeneratedColumn: Codable, Hashable, Sendable {
        /// Where the values live.
        public enum Storage: String, Codable, Hashable, Sendable {
            /// Computed when read; takes no room in the file.
            case virtual
            /// Computed when the row is written, and stored.
            case stored
        }

        /// The expression, as SQL over the row's other columns (`price * quantity`).
        public var expression: String
        /// `VIRTUAL` or `STORED`.
        public var storage: Storage

        /// A column computed by `expression`, stored or virtual.
        public init(expression: String, storage: Storage) {
            self.expression = expression
            self.storage = storage
        }

        /// `GENERATED ALWAYS AS (expression) VIRTUAL`.
        public static func virtual(_ expression: String) -> GeneratedColumn {
            GeneratedColumn(expression: expression, storage: .virtual)
        }

        /// `GENERATED ALWAYS AS (expression) STORED`.
        public static func stored(_ expression: String) -> GeneratedColumn {
            GeneratedColumn(expression: expression, storage: .stored)
        }

        /// The column constraint: `GENERATED ALWAYS AS (price * quantity) VIRTUAL`.
        var clause: String { "GENERATED ALWAYS AS (\(expression)) \(storage == .stored ? "STORED" : "VIRTUAL")" }

        /// Whether `other` is the same as SQLite reads it (spacing, case and quoting aside).
        func isSame(as other: GeneratedColumn) -> Bool {
            storage == other.storage
                && SQLExpressionText.normalized(expression) == SQLExpressionText.normalized(other.expression)
        }

        /// The definition a column constraint's text (`AS (a + b) STORED`) says, if it is one.
        init?(constraintText text: String) {
            let tokenizer = SQLTokenizer(text)
            guard let tokens = try? tokenizer.tokens(),
                let open = tokens.firstIndex(where: { $0.kind == .leftParenthesis }),
                let close = tokens.lastIndex(where: { $0.kind == .rightParenthesis }), open < close
            else { return nil }
            expression = tokenizer.text(tokens[open].end, tokens[close].start).trimmingWhitespace()
            storage = tokens[(close + 1)...].contains { tokenizer.isKeyword($0, "STORED") } ? .stored : .virtual
        }
    }
}

extension TableDefinition {
    /// The generated definition of `column`, nil for an ordinary column.
    func generated(of column: String) -> Schema.GeneratedColumn? {
        guard let constraint = self.column(named: column)?.constraints.first(where: { $0.kind == .generated }) else {
            return nil
        }
        return Schema.GeneratedColumn(constraintText: constraint.text)
    }

    /// Replaces the column's `GENERATED ALWAYS AS (…)` clause; nil makes it an ordinary column.
    /// A generated column has no `DEFAULT`, so one is removed.
    mutating func setGenerated(_ generated: Schema.GeneratedColumn?, column: String) {
        guard let index = columnIndex(named: column) else { return }
        columns[index].constraints.removeAll { $0.kind == .generated }
        if let generated {
            columns[index].constraints.removeAll { $0.kind == .defaultValue }
            columns[index].constraints.append(
                .init(
                    kind: .generated, text: generated.clause,
                    identifiers: SQLTokenizer(generated.expression).identifierSet()))
        }
    }
}
