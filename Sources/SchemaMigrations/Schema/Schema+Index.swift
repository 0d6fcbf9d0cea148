#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Schema {
    /// An index over one or more columns of an entity; a unique index is a uniqueness constraint.
    ///
    /// Indexes are compared by their columns and uniqueness, not by name: an index keeps the name
    /// it was created with (for example across a column rename), and a new one is named
    /// ``defaultName(table:)``. An index may also have ``elements`` (expressions, `COLLATE`,
    /// `DESC`) and a ``predicate`` (a partial index's `WHERE`): those are compared too, as SQLite
    /// reads the SQL text, and such an index must be named.
    ///
    /// ```swift
    /// Schema.Index(elements: [.expression("lower(email)")], isUnique: true, name: "Customer_email_lower",
    ///              predicate: "deleted_at IS NULL")
    /// ```
    public struct Index: Codable, Hashable, Sendable {
        /// The indexed columns, in order. For an index with ``elements``: the columns among them.
        public var columns: [String]
        /// Whether the index enforces uniqueness of the column combination.
        public var isUnique: Bool
        /// An explicit name, or nil for ``defaultName(table:)``.
        public var name: String?
        /// The index's terms, when one is an expression or has a `COLLATE` or `DESC`; nil for an
        /// index over ``columns`` alone.
        public var elements: [IndexElement]?
        /// A partial index's `WHERE` condition, as SQL (`deleted_at IS NULL`); nil for an index of every row.
        public var predicate: String?

        /// An index on `columns`, unique or not, named after its table and columns unless `name` is given.
        public init(_ columns: [String], isUnique: Bool = false, name: String? = nil) {
            self.columns = columns
            self.isUnique = isUnique
            self.name = name
        }

        /// An index over `elements` (columns and expressions), partial when `predicate` is given.
        public init(elements: [IndexElement], isUnique: Bool = false, name: String?, predicate: String? = nil) {
            self.columns = elements.compactMap(\.column)
            self.isUnique = isUnique
            self.name = name
            // An index of plain ascending columns needs no elements: it is written as before.
            self.elements = elements.allSatisfy(\.isPlainColumn) ? nil : elements
            self.predicate = predicate
        }

        /// Decodes an index from a schema snapshot; keys a snapshot leaves out take their defaults.
        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            columns = try container.decodeIfPresent([String].self, forKey: .columns) ?? []
            isUnique = try container.decodeIfPresent(Bool.self, forKey: .isUnique) ?? false
            name = try container.decodeIfPresent(String.self, forKey: .name)
            elements = try container.decodeIfPresent([IndexElement].self, forKey: .elements)
            predicate = try container.decodeIfPresent(String.self, forKey: .predicate)
            if let elements { columns = elements.compactMap(\.column) }
        }

        /// `Trip_name_startDate` for an index, `Trip_name_startDate_unique` for a uniqueness constraint.
        public func defaultName(table: String) -> String {
            ([table] + columns).joined(separator: "_") + (isUnique ? "_unique" : "")
        }

        /// The name the index is created with.
        public func resolvedName(table: String) -> String { name ?? defaultName(table: table) }

        /// Whether `other` declares this index again: the same structure, and no two names
        /// that tell them apart (an unnamed one, or the same name). Two indexes of one structure
        /// named otherwise are two indexes, as SQLite holds them.
        func isSameDeclaration(as other: Index) -> Bool {
            structure == other.structure
                && (name == nil || other.name == nil || name?.sqlFolded == other.name?.sqlFolded)
        }

        /// Whether the index is more than plain ascending columns: it has an expression, a
        /// `COLLATE` or `DESC` term, or a `WHERE`; it is then compared by its terms and condition.
        public var hasExpressions: Bool { elements?.contains { !$0.isPlainColumn } == true || predicate != nil }

        /// The terms as SQL, as they appear between the parentheses of `CREATE INDEX … ON t (…)`.
        var termsSQL: [String] { elements?.map(\.sql) ?? columns.map(SQL.quoteIdentifier) }

        /// The index as it reads after columns are renamed (`renamedTo` maps old names to new):
        /// its columns, and the names in its expressions and `WHERE`, as SQLite's `RENAME COLUMN`
        /// rewrites them.
        func renamingColumns(_ renamedTo: [String: String]) -> Index {
            var copy = self
            copy.columns = columns.map { renamedTo[$0] ?? $0 }
            guard hasExpressions else { return copy }
            let substitution = Dictionary(
                renamedTo.filter { $0.key != $0.value }.map { ($0.key.sqlFolded, $0.value) },
                uniquingKeysWith: { first, _ in first })
            guard !substitution.isEmpty else { return copy }
            copy.elements = elements?.map { element in
                var renamed = element
                renamed.column = element.column.map { renamedTo[$0] ?? $0 }
                renamed.expression = element.expression.map { TableDefinition.substitute(substitution, in: $0) }
                return renamed
            }
            copy.predicate = predicate.map { TableDefinition.substitute(substitution, in: $0) }
            return copy
        }

        /// `(name, startDate)`, `UNIQUE (lower(email)) WHERE deleted_at IS NULL`, for reports.
        var termsDescription: String {
            "(" + (elements?.map(\.description) ?? columns).joined(separator: ", ") + ")"
                + (predicate.map { " WHERE \($0)" } ?? "")
        }

        /// What identifies an index when comparing two schemas: its columns and uniqueness, and
        /// for an index with expressions or a `WHERE`, its terms and predicate as SQLite reads them.
        var structure: IndexStructure {
            guard hasExpressions else { return IndexStructure(columns: columns, isUnique: isUnique) }
            return IndexStructure(
                columns: [], isUnique: isUnique, terms: termsSQL.map(IndexStructure.normalizedTerm),
                predicate: predicate.map(SQLExpressionText.normalized))
        }
    }
}

/// An index's identity for comparisons: columns (in order) and uniqueness, not its name; for an
/// index with expressions or a `WHERE`, its terms and predicate normalized as SQLite reads them
/// (spacing, keyword case and identifier quoting do not count).
struct IndexStructure: Hashable, Sendable, CustomStringConvertible {
    var columns: [String]
    var isUnique: Bool
    /// Each term normalized (``IndexStructure/normalizedTerm(_:)``), or nil for an index of plain columns.
    var terms: [String]? = nil
    /// The `WHERE` condition normalized, or nil.
    var predicate: String? = nil

    var description: String {
        (isUnique ? "UNIQUE " : "") + "(" + (terms ?? columns).joined(separator: ", ") + ")"
            + (predicate.map { " WHERE \($0)" } ?? "")
    }

    /// A term as SQLite reads it: tokens normalized, an explicit `ASC` (the default) left out.
    static func normalizedTerm(_ text: String) -> String {
        let normalized = SQLExpressionText.normalized(text)
        return normalized.hasSuffix(" asc") ? String(normalized.dropLast(4)) : normalized
    }

    /// The structure with its columns renamed (`substitution` maps folded old names to new
    /// names), as SQLite's `RENAME COLUMN` rewrites an index.
    func renamingColumns(_ substitution: [String: String]) -> IndexStructure {
        guard !substitution.isEmpty else { return self }
        var copy = self
        copy.columns = columns.map { substitution[$0.sqlFolded] ?? $0 }
        copy.terms = terms?.map { IndexStructure.normalizedTerm(TableDefinition.substitute(substitution, in: $0)) }
        copy.predicate = predicate.map {
            SQLExpressionText.normalized(TableDefinition.substitute(substitution, in: $0))
        }
        return copy
    }
}

extension IndexStructure {
    /// The structure a `CREATE INDEX` statement gives, every term and its `WHERE` normalized; nil
    /// when the text is not one.
    init?(statement sql: String, isUnique: Bool) {
        guard let statement = IndexStatement(sql: sql) else { return nil }
        self.init(
            columns: [], isUnique: isUnique, terms: statement.terms.map { IndexStructure.normalizedTerm($0.sql) },
            predicate: statement.predicate.map(SQLExpressionText.normalized))
    }
}

extension LiveSchema {
    /// See ``LiveSchema/Index/fullStructure``.
    static func fullStructure(of index: Index) -> IndexStructure {
        index.sql.flatMap { IndexStructure(statement: $0, isUnique: index.isUnique) } ?? index.structure
    }
}

extension LiveSchema.Index {
    /// Whether declaring this index needs its terms (a ``NamedIndex``): it has an expression, a
    /// `COLLATE` or `DESC` term, or a `WHERE`.
    var hasExpressions: Bool {
        guard let sql, let statement = IndexStatement(sql: sql) else { return false }
        return statement.predicate != nil || statement.terms.contains { !$0.isPlainColumn }
    }
}
