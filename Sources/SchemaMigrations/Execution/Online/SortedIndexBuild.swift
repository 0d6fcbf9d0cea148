#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An index an online rebuild adds to its shadow after the copy, in key order, instead of row by
/// row as the copy writes: a `WITHOUT ROWID` table whose rows are the index's entries (its key
/// columns, then the shadow's rowid) is filled in the index's order, so that each chunk appends
/// to a few pages where a row-by-row build writes a page per row all over the index; the cut-over
/// makes it the shadow's index through `writable_schema` (SQLite's own record format is the same
/// for both b-trees: the key columns, then the rowid, compared by the same collations and order).
///
/// Only an index whose entries the table can be kept equal to is built so:
/// - not `UNIQUE`, no `WHERE`, and every term a column of the shadow with its collation and
///   order (no expression, no column twice), each column `NOT NULL` (a `WITHOUT ROWID` table's
///   key holds no NULL) and not generated;
/// - on a shadow whose key is its rowid alias (``TableDefinition/rowidAlias``: `INTEGER PRIMARY
///   KEY`, or `PRIMARY KEY (id)` over one `INTEGER` column; a `VACUUM` cannot renumber its rows
///   under the entries) and that has no other unique constraint or index (an application's
///   `OR REPLACE` deletes the rows it replaces through one without firing a trigger, which would
///   leave their entries behind; a row it replaces by rowid has the new row's rowid, which the
///   source's insert trigger deletes from the shadow first).
///
/// Every other index is built in the shadow as the rows arrive (``OnlineTableChange``).
///
/// While the entries are built, triggers on the shadow keep them equal to its rows and note the
/// rowids they touched (``OnlineTableChange/touchedRows``); the build writes, in key order, the
/// entries of the rows no trigger touched, read once from the shadow into a temporary table.
///
/// Related SQLite documentation: <https://www.sqlite.org/fileformat2.html#index_btree_cell_format>,
/// <https://www.sqlite.org/withoutrowid.html>
struct SortedIndexBuild: Sendable, Equatable {
    /// One term of the index: a column of the shadow.
    struct Term: Sendable, Equatable {
        /// The column's name.
        var column: String
        /// The affinity the shadow's column has.
        var affinity: Schema.StorageType
        /// The collation the index compares the term with (the term's own, else the column's).
        var collation: String?
        /// `DESC`.
        var descending: Bool
    }

    /// The index's position among the rebuild's indexes (``TableRebuild/Parts/indexes``).
    let position: Int
    /// The entries' table until the cut-over, which gives the index this name on the shadow.
    let name: String
    /// The index's statement on the shadow, under ``name``: its text after the cut-over.
    let indexSQL: String
    /// The name the index has once the stage is done.
    let finalName: String
    /// The shadow.
    let shadow: String
    /// The key columns in order.
    let terms: [Term]
    /// The entries' column holding the shadow's rowid.
    let rowidColumn: String

    /// The entries' table: the terms' columns with the shadow's affinities and the index's
    /// collations, then the rowid, all of them the key, in the index's order.
    var createTableSQL: String {
        let columns = terms.map { term in
            "\(SQL.quoteIdentifier(term.column)) \(term.affinity.rawValue) NOT NULL"
                + (term.collation.map { " COLLATE \(SQL.quoteIdentifier($0))" } ?? "")
        }
        let key = terms.map { SQL.quoteIdentifier($0.column) + ($0.descending ? " DESC" : "") }
        return "CREATE TABLE \(SQL.quoteIdentifier(name)) (\(columns.joined(separator: ", ")), "
            + "\(SQL.quoteIdentifier(rowidColumn)) INTEGER NOT NULL, "
            + "PRIMARY KEY (\((key + [SQL.quoteIdentifier(rowidColumn)]).joined(separator: ", ")))) WITHOUT ROWID"
    }

    /// The entries' columns, quoted, in order.
    var quotedColumns: [String] { (terms.map(\.column) + [rowidColumn]).map(SQL.quoteIdentifier) }

    /// The order of the entries' table's key, for a `SELECT` of the entries under the column
    /// names `terms` and `rowidColumn`.
    var keyOrder: String {
        terms.map { term in
            SQL.quoteIdentifier(term.column) + (term.collation.map { " COLLATE \(SQL.quoteIdentifier($0))" } ?? "")
                + (term.descending ? " DESC" : "")
        }.joined(separator: ", ") + ", " + SQL.quoteIdentifier(rowidColumn)
    }

    /// The trigger statements that add the entry of the shadow's row `NEW` (`row` "NEW") or
    /// remove that of `OLD`, keyed by the shadow's rowid named `rowid`. Neither can meet a
    /// conflict, whatever policy the application's statement gives the trigger's statements.
    func triggerStatement(adding row: String, rowid: String) -> String {
        let values = terms.map { "\(row).\(SQL.quoteIdentifier($0.column))" } + ["\(row).\(rowid)"]
        return "INSERT INTO \(SQL.quoteIdentifier(name)) (\(quotedColumns.joined(separator: ", "))) "
            + "SELECT \(values.joined(separator: ", ")) WHERE NOT EXISTS (SELECT 1 FROM \(SQL.quoteIdentifier(name)) "
            + "WHERE \(matching(row, rowid: rowid)));"
    }

    /// The statement that removes the entry of the shadow's row `row` ("OLD").
    func triggerStatement(removing row: String, rowid: String) -> String {
        "DELETE FROM \(SQL.quoteIdentifier(name)) WHERE \(matching(row, rowid: rowid));"
    }

    private func matching(_ row: String, rowid: String) -> String {
        (terms.map { "\(SQL.quoteIdentifier($0.column)) = \(row).\(SQL.quoteIdentifier($0.column))" }
            + ["\(SQL.quoteIdentifier(rowidColumn)) = \(row).\(rowid)"]).joined(separator: " AND ")
    }

    /// The statements of the cut-over that make the entries' table the shadow's index: the pages
    /// stay, the schema row says what they are (its rowid comes after the shadow's, which SQLite
    /// needs to load an index after its table).
    var conversionStatements: [String] {
        [
            "UPDATE sqlite_schema SET type = 'index', tbl_name = \(SQL.quoteString(shadow)), sql = \(SQL.quoteString(indexSQL)) "
                + "WHERE type = 'table' AND name = \(SQL.quoteString(name))"
        ]
    }

    /// The indexes of a rebuild the online change builds in key order, nil when the shadow
    /// allows none (the rules above).
    /// - Parameters:
    ///   - parts: the rebuild rendered with the shadow's name.
    ///   - name: the name the shadow gives the index at a position (``OnlineTableChange/shadowIndex(at:of:)``).
    static func builds(parts: TableRebuild.Parts, shadow: String, name: (Int) -> String) -> [SortedIndexBuild] {
        builds(
            createTable: parts.createTable, indexes: parts.indexes, candidates: parts.shadowBuiltIndexes,
            shadow: shadow,
            name: name)
    }

    /// The builds for the shadow `createTable` among the `indexes` at the positions `candidates`
    /// (those the shadow builds), under the rules above.
    static func builds(
        createTable: String, indexes: [String], candidates: [Int], shadow: String, name: (Int) -> String
    ) -> [SortedIndexBuild] {
        guard let table = try? TableDefinition(parsing: createTable), table.rowidAlias != nil,
            !table.constraints.contains(where: { $0.kind == .unique }),
            !table.columns.contains(where: { column in column.constraints.contains { $0.kind == .unique } }),
            !indexes.contains(where: { Self.isUnique($0) })
        else { return [] }
        return candidates.compactMap { position in
            guard let terms = Self.terms(of: indexes[position], in: table),
                let sql = try? OnlineTableChange.renamed(indexSQL: indexes[position], to: name(position), on: shadow)
                    .sql,
                let finalName = try? OnlineTableChange.renamed(indexSQL: indexes[position], to: "", on: "").name
            else { return nil }
            var rowid = "_sm_rowid"
            while terms.contains(where: { $0.column.sqlFolded == rowid.sqlFolded }) { rowid += "_" }
            return SortedIndexBuild(
                position: position, name: name(position), indexSQL: sql, finalName: finalName, shadow: shadow,
                terms: terms,
                rowidColumn: rowid)
        }
    }

    /// Whether an index statement is `CREATE UNIQUE INDEX`.
    static func isUnique(_ sql: String) -> Bool {
        let tokenizer = SQLTokenizer(sql)
        let tokens = tokenizer.leadingTokens(3)
        return tokens.count >= 2 && tokenizer.isKeyword(tokens[1], "UNIQUE")
    }

    /// The terms of `CREATE INDEX name ON table (column [COLLATE name] [ASC|DESC], …)` with
    /// nothing after the list, each a distinct column of `table` that is NOT NULL and not
    /// generated; nil for any other index.
    static func terms(of sql: String, in table: TableDefinition) -> [Term]? {
        let tokenizer = SQLTokenizer(sql)
        guard let tokens = try? tokenizer.tokens(),
            let on = tokens.firstIndex(where: { tokenizer.isKeyword($0, "ON") }),
            on + 2 < tokens.count, tokens[on + 2].kind == .leftParenthesis,
            tokens.last?.kind == .rightParenthesis
        else { return nil }
        let list = tokens[(on + 3)..<(tokens.count - 1)]
        guard !list.contains(where: { $0.kind == .leftParenthesis || $0.kind == .rightParenthesis }) else {
            return nil
        }
        var terms: [Term] = []
        for part in list.split(whereSeparator: { $0.kind == .comma }) {
            let words = Array(part)
            guard let first = words.first, first.kind == .word || first.kind == .quotedIdentifier,
                let column = table.column(named: tokenizer.name(of: first)), !column.isGenerated,
                column.constraints.contains(where: { $0.kind == .notNull }),
                !terms.contains(where: { $0.column.sqlFolded == column.name.sqlFolded })
            else { return nil }
            var collation: String? = column.constraints.compactMap { constraint -> String? in
                if case .collate(let name) = constraint.kind { return name } else { return nil }
            }.last
            var descending = false
            var rest = words.dropFirst()
            if let word = rest.first, tokenizer.isKeyword(word, "COLLATE") {
                guard rest.count >= 2 else { return nil }
                collation = tokenizer.name(of: rest[rest.startIndex + 1])
                rest = rest.dropFirst(2)
            }
            if let word = rest.first, tokenizer.isKeyword(word, "ASC") || tokenizer.isKeyword(word, "DESC") {
                descending = tokenizer.isKeyword(word, "DESC")
                rest = rest.dropFirst()
            }
            guard rest.isEmpty else { return nil }
            let type = column.typeText
            let affinity: Schema.StorageType =
                table.strict && type.uppercased() == "ANY" ? .blob : Schema.StorageType(affinityOf: type)
            terms.append(Term(column: column.name, affinity: affinity, collation: collation, descending: descending))
        }
        return terms.isEmpty ? nil : terms
    }
}
