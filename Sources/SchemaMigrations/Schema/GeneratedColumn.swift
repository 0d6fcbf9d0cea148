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
    /// A rebuild of the table (any change SQLite's `ALTER TABLE` cannot make) copies its rows into
    /// a new table, and SQLite computes every `STORED` value again. Where the expression calls a
    /// function the application registers, the migration first compares what it would compute
    /// with what is stored, and refuses the stage naming the rows that differ (a function that
    /// changed, or one registered as deterministic that is not), unless the declaration accepts
    /// the recomputation: `.stored("slug(title)", recomputesOnRebuild: true)`.
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
        /// Whether a rebuild into this version may store recomputed values that differ from those
        /// stored (a `STORED` column whose function the application changed on purpose). Not part
        /// of the schema's hash: it says how to migrate, not what is stored. `false` for `VIRTUAL`
        /// columns, which store nothing.
        public var recomputesOnRebuild: Bool

        /// A column computed by `expression`, stored or virtual.
        /// - Parameters:
        ///   - expression: SQL over the row's other columns (`price * quantity`).
        ///   - storage: `.virtual` (computed when read) or `.stored` (computed when written).
        ///   - recomputesOnRebuild: for a `STORED` column only: accept values a rebuild computes
        ///     differently from those stored, instead of refusing the stage.
        public init(expression: String, storage: Storage, recomputesOnRebuild: Bool = false) {
            self.expression = expression
            self.storage = storage
            self.recomputesOnRebuild = recomputesOnRebuild
        }

        /// `GENERATED ALWAYS AS (expression) VIRTUAL`.
        public static func virtual(_ expression: String) -> GeneratedColumn {
            GeneratedColumn(expression: expression, storage: .virtual)
        }

        /// `GENERATED ALWAYS AS (expression) STORED`.
        /// - Parameters:
        ///   - expression: SQL over the row's other columns (`lower(email)`).
        ///   - recomputesOnRebuild: accept values a rebuild computes differently from those stored
        ///     (a function the application changed on purpose) instead of refusing the stage.
        public static func stored(_ expression: String, recomputesOnRebuild: Bool = false) -> GeneratedColumn {
            GeneratedColumn(expression: expression, storage: .stored, recomputesOnRebuild: recomputesOnRebuild)
        }

        private enum CodingKeys: String, CodingKey { case expression, storage, recomputesOnRebuild }

        /// Reads a snapshot's `generated` object; `recomputesOnRebuild` is `false` where absent.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                expression: try container.decode(String.self, forKey: .expression),
                storage: try container.decode(Storage.self, forKey: .storage),
                recomputesOnRebuild: try container.decodeIfPresent(Bool.self, forKey: .recomputesOnRebuild) ?? false)
        }

        /// Writes `recomputesOnRebuild` only when set, so snapshots without it read as before.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(expression, forKey: .expression)
            try container.encode(storage, forKey: .storage)
            if recomputesOnRebuild { try container.encode(true, forKey: .recomputesOnRebuild) }
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
            recomputesOnRebuild = false
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
