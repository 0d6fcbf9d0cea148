extension TablePlan {
    /// One table's declared table constraints compared by meaning, the source's in the target's
    /// column and table names: which the target no longer declares and which it adds. Either
    /// needs a rebuild (SQLite's `ALTER TABLE` adds or drops no constraint).
    struct ConstraintComparison {
        /// Source constraints the target does not declare, in the target's names.
        let removed: [Schema.TableConstraint]
        /// Target constraints the source did not declare.
        let added: [Schema.TableConstraint]
        /// Target constraints the source declared already.
        private let kept: [Schema.TableConstraint]
        private let sourceTable: String
        private let entity: String
        private let targetToSource: [String: String]
        private let sourceColumns: Set<String>

        /// - Parameters:
        ///   - renamedTo: source column → target column, for the stage's column renames.
        ///   - entityRenames: source entity → target entity, for foreign keys onto renamed tables.
        ///   - columnRenames: each entity's column renames by its target name (folded), source
        ///     column (folded) → target column: a foreign key's referenced columns are the
        ///     referenced entity's, this one's when it references itself
        ///     (``TablePlan/columnRenames(matches:version:)``).
        init(
            source: Schema.Entity, target: Schema.Entity, renamedTo: [String: String], entityRenames: [String: String],
            columnRenames: [String: [String: String]] = [:]
        ) {
            let substitution = Dictionary(
                renamedTo.map { ($0.key.sqlFolded, $0.value) }, uniquingKeysWith: { first, _ in first })
            let renamedSource = source.constraints.map { constraint in
                var renamed = constraint.renamingColumns(substitution)
                if case .foreignKey(var key) = renamed.kind {
                    if let table = entityRenames.first(where: { $0.key.sqlFolded == key.table.sqlFolded })?.value {
                        key.table = table
                    }
                    let referenced =
                        key.table.sqlFolded == target.name.sqlFolded ? substitution : columnRenames[key.table.sqlFolded]
                    if let referenced, let columns = key.referencedColumns {
                        key.referencedColumns = columns.map { referenced[$0.sqlFolded] ?? $0 }
                    }
                    renamed.kind = .foreignKey(key)
                }
                return renamed
            }
            let sourceMeanings = Set(renamedSource.map(\.meaning))
            let targetMeanings = Set(target.constraints.map(\.meaning))
            removed = renamedSource.filter { !targetMeanings.contains($0.meaning) }
            added = target.constraints.filter { !sourceMeanings.contains($0.meaning) }
            kept = target.constraints.filter { sourceMeanings.contains($0.meaning) }
            sourceTable = source.name
            entity = target.name
            targetToSource = Dictionary(renamedTo.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
            sourceColumns = Set(
                (source.hasImplicitID ? [Schema.primaryKeyColumn] : []) + source.attributes.map(\.name.sqlFolded))
        }

        /// What the rebuild says of them, for the summary.
        var rebuildReasons: [String] {
            (removed.isEmpty ? [] : ["no more " + removed.map { "`\($0.sql)`" }.joined(separator: ", ")])
                + (added.isEmpty ? [] : ["new " + added.map { "`\($0.sql)`" }.joined(separator: ", ")])
        }

        /// The duplicates check of each new UNIQUE constraint, in the columns the table has
        /// before the stage (a new column cannot hold duplicates yet: it has one default), and of
        /// each kept one over a column whose collation changes (`collationBecomes`: source column →
        /// new collation), its values compared as the new table compares them.
        func uniquenessChecks(collationBecomes: [String: String] = [:]) -> [DataCheck] {
            let keptOverChanges = kept.filter { constraint in
                guard case .unique(let columns) = constraint.kind else { return false }
                return columns.contains { collationBecomes[targetToSource[$0] ?? $0] != nil }
            }
            return (added + keptOverChanges).compactMap { constraint in
                guard case .unique(let columns) = constraint.kind else { return nil }
                let sourceColumns = columns.map { targetToSource[$0] ?? $0 }
                guard sourceColumns.allSatisfy({ self.sourceColumns.contains($0.sqlFolded) }) else { return nil }
                return .noDuplicates(
                    table: sourceTable, columns: sourceColumns, entity: entity, properties: columns,
                    collations: collationBecomes.filter { sourceColumns.contains($0.key) })
            }
        }
    }
}
