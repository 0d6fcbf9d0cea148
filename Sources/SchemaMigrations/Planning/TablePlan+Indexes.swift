extension TablePlan {
    /// One table's indexes compared by structure, in the target's column names: which are
    /// retired, added or renamed, and which uniqueness the data must allow.
    struct IndexComparison {
        /// A source index: as declared (the live table has it under that name and columns) and
        /// with its columns renamed as the target names them.
        typealias SourceIndex = (declared: Schema.Index, renamed: Schema.Index)

        /// Source indexes whose structure the target no longer has.
        let retired: [SourceIndex]
        /// Target indexes the source did not have.
        let added: [Schema.Index]
        /// Source indexes the target keeps under another declared name. SQLite has no RENAME
        /// INDEX, and only the live table knows the old name, so the rebuild retires the index
        /// (found by its columns) and creates it under its new name.
        let renamed: [(declared: Schema.Index, renamed: Schema.Index, newName: String)]
        private let target: Schema.Entity
        /// The table as the checks find it: before the stage's renames.
        private let sourceTable: String
        private let sourceStructures: Set<IndexStructure>
        private let targetToSource: [String: String]

        /// - Parameter claimedElsewhere: index names (folded) the target version declares for
        ///   other tables. A source index the target keeps without naming it keeps its live name,
        ///   unless another declaration takes that name, another table's (index names are the
        ///   whole database's) or another index's of this table (a named index whose definition
        ///   changed, beside an unnamed one of the old definition): it is then renamed to its
        ///   default name.
        init(
            source: Schema.Entity, target: Schema.Entity, renamedTo: [String: String],
            claimedElsewhere: Set<String> = []
        ) {
            let sourceIndexes = source.indexes.map { ($0, $0.renamingColumns(renamedTo)) }
            sourceStructures = Set(sourceIndexes.map(\.1.structure))
            // Each target index continues at most one source index of its structure: first one of
            // the same name, then any (a table may hold several indexes over the same columns,
            // each under its own name).
            var unmatched = Array(sourceIndexes.indices)
            var pairs: [(source: Int, target: Schema.Index)] = []
            var unpaired: [Schema.Index] = []
            for index in target.indexes {
                let position =
                    unmatched.firstIndex {
                        sourceIndexes[$0].1.structure == index.structure
                            && sourceIndexes[$0].1.resolvedName(table: target.name).sqlFolded
                                == index.resolvedName(table: target.name).sqlFolded
                    } ?? unmatched.firstIndex { sourceIndexes[$0].1.structure == index.structure }
                if let position {
                    pairs.append((unmatched.remove(at: position), index))
                } else {
                    unpaired.append(index)
                }
            }
            retired = unmatched.map { sourceIndexes[$0] }
            added = unpaired
            let namedHere = Set(target.indexes.compactMap { $0.name?.sqlFolded })
            // A join table's index names follow its own name (the layout's, not a declaration).
            renamed =
                target.isJoinTable
                ? []
                : pairs.compactMap { position, kept in
                    let (declared, renamed) = sourceIndexes[position]
                    guard let name = kept.name else {
                        let live = declared.resolvedName(table: source.name).sqlFolded
                        guard claimedElsewhere.contains(live) || namedHere.contains(live) else { return nil }
                        return (declared, renamed, kept.resolvedName(table: target.name))
                    }
                    guard name.sqlFolded != renamed.name?.sqlFolded else { return nil }
                    return (declared, renamed, name)
                }
            self.target = target
            sourceTable = source.name
            targetToSource = Dictionary(uniqueKeysWithValues: renamedTo.map { ($0.value, $0.key) })
        }

        /// The duplicates checks of new unique indexes, and of kept unique indexes over columns
        /// whose NULLs take a default (NULLs never clash in a UNIQUE index, but that default can).
        /// A unique index with expressions or a `WHERE` is checked by SQLite as it is created.
        /// In a custom stage willMigrate runs first and may remove the duplicates. Each check
        /// compares values under the collation the new table gives them (`collationBecomes`:
        /// source column → new collation), so a kept unique index over a column that turns
        /// `NOCASE` is checked too.
        func uniquenessChecks(nullsBecome: [String: String], collationBecomes: [String: String] = [:])
            -> [DataCheck]
        {
            let keptOverChanges = target.indexes.filter { index in
                index.isUnique && sourceStructures.contains(index.structure)
                    && index.columns.contains {
                        targetToSource[$0].map { nullsBecome[$0] != nil || collationBecomes[$0] != nil } ?? false
                    }
            }
            return (added.filter(\.isUnique) + keptOverChanges).filter { !$0.hasExpressions }.compactMap { index in
                let sourceColumns = index.columns.compactMap { targetToSource[$0] }
                if sourceColumns.count != index.columns.count {
                    // A column the stage adds holds its default in every row: the index is then
                    // unique only where its other columns are (a NULL, or a default computed per
                    // row, never clashes, and needs no check).
                    let added = index.columns.filter { targetToSource[$0] == nil }.map { target.attribute(named: $0) }
                    let constant = added.allSatisfy { attribute in
                        guard let value = attribute?.defaultValue else { return false }
                        return value.uppercased() != "NULL" && !SQLExpressionText.isNonConstantDefault(value)
                    }
                    guard constant else { return nil }
                    if sourceColumns.isEmpty {
                        // Every row takes the same key: a second row clashes.
                        let value = added.compactMap { $0?.defaultValue }.joined(separator: ", ")
                        return DataCheck.atMostOneRow(
                            table: sourceTable, entity: target.name, properties: index.columns,
                            value: added.count == 1 ? value : "(\(value))")
                    }
                }
                return DataCheck.noDuplicates(
                    table: sourceTable, columns: sourceColumns, entity: target.name, properties: index.columns,
                    nullsBecome: nullsBecome, collations: collationBecomes.filter { sourceColumns.contains($0.key) })
            }
        }

        /// What a rebuild says of the indexes it adds and retires.
        var rebuildReasons: [String] {
            (added.isEmpty
                ? []
                : ["new " + added.map { ($0.isUnique ? "unique " : "") + $0.termsDescription }.joined(separator: ", ")])
                + (retired.isEmpty
                    ? []
                    : [
                        "no more "
                            + retired.map { ($0.renamed.isUnique ? "unique " : "") + $0.renamed.termsDescription }
                            .joined(separator: ", ")
                    ])
        }
    }
}
