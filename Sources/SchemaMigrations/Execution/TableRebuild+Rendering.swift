/// Steps 4 to 8 of SQLite's generalized ALTER TABLE procedure for one ``TableRebuild``, rendered
/// against the live table's own definition at execution (and by the dry run, from the same
/// snapshot): what the plan changes is changed, everything else is written back as the database
/// had it. ``StepRenderer`` calls it for a rebuild step; an online change for its shadow table.
extension TableRebuild {
    /// The statements of one rebuild, and what it keeps and removes, in words.
    struct Rendering: Sendable {
        var statements: [String]
        /// The position in ``statements`` of the copy (`INSERT INTO new_X … SELECT … FROM X`).
        var copyPosition: Int
        /// The positions in ``statements`` of the indexes the new table gets (step 8).
        var indexPositions: Range<Int>
        /// What the live table had that the rebuild writes back: constraints, collations, indexes, the counter.
        var carriedOver: [String]
        /// What goes with the dropped columns besides their values.
        var removed: [String]
        /// The parts the statements are made of, for a rebuild that copies outside one transaction
        /// (``OnlineTableChange``): the same definition, column mapping and conversions.
        var parts: Parts
    }

    /// The pieces of a rendered rebuild, each as the offline statements use it.
    struct Parts: Sendable {
        /// `CREATE TABLE` of the new table, under the name it was rendered for.
        var createTable: String
        /// The columns the copy writes, quoted, in order (the rowid first when it is kept apart).
        var copyTargets: [String]
        /// The expression over the source table for each of ``copyTargets``, in the column names the
        /// table has once the stage's renames ran (or, when rendered with them applied, has now).
        var copySources: [String]
        /// The same expressions in the column names the live table has now, before the stage's
        /// renames: what an online change's copy and triggers read while the renames wait for the cut-over.
        var copySourcesBeforeRenames: [String]
        /// The source table's name, unquoted, as the copy reads it.
        var sourceTable: String
        /// The statements that carry the `AUTOINCREMENT` counter over (empty without one).
        var sequence: [String]
        /// `CREATE INDEX` of each index the rebuilt table gets, naming the table by its final name.
        var indexes: [String]
        /// Whether the table is `WITHOUT ROWID`.
        var withoutRowid: Bool
        /// The indexes carried over whose every entry stays valid in the new table, by position in
        /// ``indexes``, with the live index's name: not unique, the rows keep their rowids, and every
        /// column the index reads (its keys, expressions and `WHERE`) is copied unchanged. An online
        /// change moves these to the new table instead of building them again row by row.
        var unchangedIndexes: [Int: String] = [:]
        /// The new table's generated columns, each with the column of the source table it reads as
        /// (for ``RecomputedStoredValues``).
        var generated: [GeneratedSource] = []

        /// The positions in ``indexes`` of those an online change builds in its shadow: all but
        /// the ``unchangedIndexes``.
        var shadowBuiltIndexes: [Int] { indexes.indices.filter { unchangedIndexes[$0] == nil } }
    }

    /// A generated column of the new table.
    struct GeneratedSource: Sendable {
        /// Its name in the new table.
        var name: String
        /// Its name in the source table as the copy reads it (``Parts/sourceTable``), nil for a new column.
        var sourceName: String?
        /// The expression, in the new table's column names, when the column is `STORED` in both
        /// tables with the same expression: SQLite computes again the values the copy leaves out.
        var recomputedExpression: String?
    }

    /// Steps 4 to 8 of the procedure for the live table `live`.
    ///
    /// - Parameter renamesApplied: whether the stage's column renames have already run on `live`
    ///   (when it runs), or not (the dry run, which shows them applied to the text).
    /// - Throws: `MigrationError`, before anything is written, when a dropped column is needed by
    ///   something that stays (a CHECK over other columns too, a generated column, an expression
    ///   or partial index), or the table's definition cannot be read.
    /// - Parameter newName: the name the new table is created under (``temporaryName`` offline).
    /// - Parameter statisticsTables: the `ANALYZE` statistics tables the database has
    ///   (`sqlite_stat1`, `sqlite_stat4`): the rows of the table and of each index it keeps as it
    ///   was move with it (`DROP TABLE` deletes a table's statistics, and a rename leaves them).
    /// - Parameter freedPagesAreErased: whether the connection runs with `PRAGMA secure_delete` on.
    ///   The old table's own indexes are then dropped before the copy, which writes its rows into
    ///   their pages (erased and journaled in any case) instead of growing the file.
    func statements(
        live: LiveSchema.Table, renamesApplied: Bool, version: Schema.Version, newName: String? = nil,
        statisticsTables: [String] = [], freedPagesAreErased: Bool = false
    ) throws -> Rendering {
        let temporaryName = newName ?? self.temporaryName
        var definition = try live.definition()
        var substitution: [String: String] = [:]
        if !renamesApplied {
            for column in columns {
                if let source = column.sourceName, source != column.attribute.name {
                    substitution[source.sqlFolded] = column.attribute.name
                }
            }
            if !substitution.isEmpty { definition.renameColumns(substitution) }
        }
        // The declared constraints a stage drops and adds; what it adds is not carried over.
        let liveConstraints = Set(definition.constraints.map(\.text))
        try definition.changeConstraints(removing: removedConstraints, adding: addedConstraints)
        let addedTexts = Set(
            definition.constraints.map(\.text).filter { !liveConstraints.contains($0) }.map { "`\($0)`" })
        var carriedOver = TableRebuild.features(of: definition).filter { !addedTexts.contains($0) }
        // 4. "Use CREATE TABLE to construct a new table "new_X" that is in the desired revised format of table X."
        for column in columns {
            let name = column.attribute.name
            guard column.expression != nil, definition.column(named: name) != nil else {
                try definition.addColumn(
                    definition: EntitySQL.columnDefinition(
                        column.attribute, forceNullable: nullableColumns.contains(name)))
                continue
            }
            if column.changesType { definition.setType(column.attribute.declaredType, column: name) }
            if column.changesOptionality || column.changesNotNullConflict || nullableColumns.contains(name) {
                definition.setNotNull(
                    !column.attribute.isOptional && !nullableColumns.contains(name),
                    onConflict: column.attribute.notNullOnConflict, column: name)
            }
            if column.changesDefault { definition.setDefault(column.attribute.defaultValue, column: name) }
            if column.changesReference { definition.setReference(column.attribute.references, column: name) }
            if column.changesCheck { definition.setCheck(column.attribute.check, column: name) }
            if column.changesCollation { definition.setCollation(column.attribute.collation, column: name) }
            if column.changesGenerated { definition.setGenerated(column.attribute.generated, column: name) }
        }
        var removed: [String] = []
        for dropped in droppedColumns {
            removed += try definition.dropColumn(dropped, entity: target.name, version: version).map {
                "\(table).\(dropped): \($0)"
            }
        }
        carriedOver = carriedOver.filter { feature in !removed.contains { $0.hasSuffix(feature) } }
        if changesStrict { definition.strict = target.isStrict }
        if changesKeyConflict { try definition.setKeyConflict(target.primaryKeyOnConflict) }
        var statements = [definition.sql(named: temporaryName)]
        if freedPagesAreErased {
            // With secure_delete, DROP TABLE journals and zeroes every page it frees, and the
            // copy, run first, appends every page it writes to the file. The indexes made by
            // CREATE INDEX (a constraint's index goes only with its table) are dropped first,
            // so the copy fills their pages, already journaled and zeroed, in their place. Without
            // it, a freed page is written only when reused, and reusing it costs a journal write
            // that a page past the old end of the file does not: the original order is then faster.
            for index in live.indexes.reversed() where index.origin == .createIndex && index.sql != nil {
                statements.append("DROP INDEX \(SQL.quoteIdentifier(index.name))")
            }
        }

        // 5. "Transfer content from X into new_X using a statement like: INSERT INTO new_X SELECT ... FROM X."
        // `OR ABORT`: a constraint the table keeps may say `ON CONFLICT REPLACE` or `IGNORE`, which
        // would settle a collision the copy meets (under a new collation, say) by dropping a row;
        // the statement's own policy overrides it, so the copy fails and everything rolls back.
        let expressions = Dictionary(
            columns.compactMap { column in column.expression.map { (column.attribute.name.sqlFolded, $0) } },
            uniquingKeysWith: { first, _ in first })
        // New name (folded) → the name the live table has until the renames run.
        let liveNames = Dictionary(
            substitution.map { ($0.value.sqlFolded, $0.key) }, uniquingKeysWith: { first, _ in first })
        var targets: [String] = []
        var sources: [String] = []
        var sourcesBeforeRenames: [String] = []
        // The columns (folded, as named after the renames) whose stored values the copy keeps as they are.
        var copiedUnchanged = Set<String>()
        let changedColumns = Set(
            columns.filter { $0.changesType || $0.changesCollation || $0.changesGenerated }.map {
                $0.attribute.name.sqlFolded
            })
        for column in definition.columns where !column.isGenerated {
            let folded = column.name.sqlFolded
            let liveName = liveNames[folded] ?? column.name
            guard live.column(named: liveName) != nil else { continue }  // new: takes its default
            targets.append(SQL.quoteIdentifier(column.name))
            let expression = expressions[folded] ?? SQL.quoteIdentifier(column.name)
            if expression == SQL.quoteIdentifier(column.name), !changedColumns.contains(folded), !changesStrict {
                copiedUnchanged.insert(folded)
            }
            sources.append(renamesApplied ? expression : TableDefinition.substitute(substitution, in: expression))
            sourcesBeforeRenames.append(
                renamesApplied ? expression : TableDefinition.substitute(liveNames, in: expression))
        }
        // A rowid table keeps its rowids even without an INTEGER PRIMARY KEY column (they may be
        // referenced: full-text search content, the app's own bookkeeping).
        var keepsRowids = false
        if !definition.withoutRowid, !live.hasRowidAlias,
            let rowid = SQL.freeRowidName(isColumn: {
                definition.column(named: $0) != nil || live.column(named: $0) != nil
            })
        {
            targets.insert(rowid, at: 0)
            sources.insert(rowid, at: 0)
            sourcesBeforeRenames.insert(rowid, at: 0)
            keepsRowids = true
        } else if !definition.withoutRowid, live.hasRowidAlias,
            let key = live.columns.first(where: { $0.primaryKeyPosition > 0 })
        {
            // The key column is the rowid on both sides when it is copied as it is into a column
            // that stays the table's rowid alias (however its key is written).
            let name = substitution[key.name.sqlFolded] ?? key.name
            keepsRowids =
                copiedUnchanged.contains(name.sqlFolded) && definition.rowidAlias?.name.sqlFolded == name.sqlFolded
        }
        let quotedTable = SQL.quoteIdentifier(renamesApplied ? table : sourceTable)
        let quotedTemporary = SQL.quoteIdentifier(temporaryName)
        var copyPosition = statements.count
        statements.append(
            "INSERT OR ABORT INTO \(quotedTemporary) (\(targets.joined(separator: ", "))) SELECT \(sources.joined(separator: ", ")) FROM \(quotedTable)"
        )
        let sequenceStart = statements.count
        if definition.hasAutoincrement {
            // The AUTOINCREMENT counter moves with the table exactly as it is: the copy set the new
            // table's to the highest id still present, but the old one's is the highest ever handed
            // out (so a deleted id is never handed out again), and it may even be lower than an id
            // present (`sqlite_sequence` is writable): ALTER TABLE keeps it as it is, and so does a rebuild.
            let temporary = SQL.quoteString(temporaryName)
            let old = SQL.quoteString(renamesApplied ? table : sourceTable)
            statements.append("DELETE FROM sqlite_sequence WHERE name = \(temporary)")
            statements.append(
                "INSERT INTO sqlite_sequence (name, seq) SELECT \(temporary), seq FROM sqlite_sequence WHERE name = \(old)"
            )
        }
        let sequence = Array(statements[sequenceStart...])
        // 6. "Drop the old table X: DROP TABLE X."
        statements.append("DROP TABLE \(quotedTable)")
        // 7. "Change the name of new_X to X using: ALTER TABLE new_X RENAME TO X."
        statements.append("ALTER TABLE \(quotedTemporary) RENAME TO \(SQL.quoteIdentifier(table))")
        let indexStart = statements.count

        // 8. "Use CREATE INDEX, CREATE TRIGGER, and CREATE VIEW to reconstruct indexes, triggers,
        //    and views associated with table X." Indexes here, each as the database had it.
        let droppedNames = Set(droppedColumns.map(\.sqlFolded))
        // A live index's columns and uniqueness, its columns named as after the renames.
        func structure(of index: LiveSchema.Index) -> IndexStructure {
            index.structure.renamingColumns(substitution)
        }
        func fullStructure(of index: LiveSchema.Index) -> IndexStructure {
            index.fullStructure.renamingColumns(substitution)
        }
        // A declaration of plain columns retires a live index of those columns only, never a
        // partial or expression one; a declaration with expressions or a WHERE, the one it says.
        func retires(_ index: LiveSchema.Index, _ declared: IndexStructure) -> Bool {
            declared.terms == nil
                ? !index.isPartial && !index.columns.contains("<expr>") && structure(of: index) == declared
                : fullStructure(of: index) == declared
        }
        var retiring = Set<String>()  // the live index each retired declaration stands for: its own name first
        for retired in retiredIndexes {
            let candidates = live.indexes.filter { index in
                index.origin == .createIndex && retires(index, retired.index.structure)
            }
            if let chosen = LiveSchema.Index.madeForDeclaration(
                among: candidates, named: retired.name, table: sourceTable)
            {
                retiring.insert(chosen.name)
            }
        }
        // Whether every entry of a live index stays valid in the new table: the rowids are kept and
        // every word of its text that names a column (the rest are keywords, collations) is copied
        // unchanged. A unique index never moves: an application's `OR REPLACE` deletes the rows it
        // conflicts with without a delete trigger, and only the shadow's own copy of the index
        // deletes them there.
        func movable(_ index: LiveSchema.Index) -> Bool {
            keepsRowids && !index.isUnique && readsOnlyCopiedColumns(index)
        }
        // Whether a live index (made by CREATE INDEX) reads columns, and only columns the copy
        // keeps as they are.
        func readsOnlyCopiedColumns(_ index: LiveSchema.Index) -> Bool {
            guard index.origin == .createIndex, let sql = index.sql else { return false }
            let read = SQLTokenizer(sql).indexedColumnNames().filter { live.column(named: $0) != nil }.map {
                (substitution[$0] ?? $0).sqlFolded
            }
            return !read.isEmpty && read.allSatisfy(copiedUnchanged.contains)
        }
        var present = Set<IndexStructure>()
        var unchangedIndexes: [Int: String] = [:]
        var keptNames = Set<String>()
        for index in live.indexes.reversed() {
            guard index.origin == .createIndex, let sql = index.sql else {
                present.insert(structure(of: index))  // made by the table's own constraints
                present.insert(fullStructure(of: index))
                continue
            }
            if retiring.contains(index.name) { continue }
            let mentioned = SQLTokenizer(sql).indexedColumnNames()
            if let dropped = droppedNames.first(where: { mentioned.contains($0) }) {
                if index.isPartial || index.columns.contains("<expr>") {
                    throw MigrationError(
                        .unsupportedChange,
                        "cannot drop '\(target.name).\(dropped)': the index \(index.name), `\(sql)`, uses it",
                        entity: target.name, property: dropped, version: version,
                        remedy: "keep the column, or drop the index first in a custom stage's willMigrate")
                }
                removed.append("\(table): the index \(index.name) on the dropped column \(dropped)")
                continue
            }
            present.insert(structure(of: index))
            present.insert(fullStructure(of: index))
            if movable(index) { unchangedIndexes[statements.count - indexStart] = index.name }
            keptNames.insert(index.name.sqlFolded)
            statements.append(renamesApplied ? sql : TableDefinition.substitute(substitution, in: sql))
            carriedOver.append("index \(index.name)")
        }
        // A declared index the table has (under another name, or made for a constraint) is kept as
        // it is; one the stage adds is created as declared, as CREATE INDEX creates it when the
        // table is not rebuilt: beside an index of the same columns made by hand (unless that one
        // has its name), and under the next free name when a kept index has the default one.
        for var index in target.indexes
        where !present.contains(index.structure)
            || (addedIndexes.contains(index.structure)
                && !keptNames.contains(index.resolvedName(table: table).sqlFolded))
        {
            if index.name == nil, keptNames.contains(index.defaultName(table: table).sqlFolded) {
                let base = index.defaultName(table: table)
                index.name = (2...).lazy.map { "\(base)_\($0)" }.first { !keptNames.contains($0.sqlFolded) }
            }
            keptNames.insert(index.resolvedName(table: table).sqlFolded)
            let sql = EntitySQL.createIndex(index, table: table)
            // An index the stage retires whose entries are this one's (the same terms once the
            // renames ran: a declared index renamed after its renamed columns) moves under the new name.
            if !index.isUnique, let declared = IndexStructure(statement: sql, isUnique: false) {
                let moved = Set(unchangedIndexes.values)
                if let retired = live.indexes.first(where: { candidate in
                    retiring.contains(candidate.name) && !moved.contains(candidate.name) && movable(candidate)
                        && fullStructure(of: candidate) == declared
                }) {
                    unchangedIndexes[statements.count - indexStart] = retired.name
                }
            }
            statements.append(sql)
        }
        var indexRange = indexStart..<statements.count
        if !statisticsTables.isEmpty {
            // The statistics of the rows (a row with no index) and of each index kept as the
            // database had it, over columns copied unchanged, stay true of the new table. DROP
            // TABLE deletes a table's rows and DROP INDEX an index's (by name, whatever the
            // table), so first, before the old indexes may be dropped, they are put under the new
            // table with their index names prefixed, then given back their names once the indexes
            // are made again. The rows of other indexes go with the old table: none is better
            // than a wrong one. They are under the table's name before the stage (a rename leaves them).
            let kept = live.indexes.filter { !retiring.contains($0.name) && readsOnlyCopiedColumns($0) }.map {
                SQL.quoteString($0.name)
            }
            let owned = "idx IS NULL" + (kept.isEmpty ? "" : " OR idx IN (\(kept.joined(separator: ", ")))")
            let prefix = SQL.quoteString(temporaryName + ".")
            let moveOut = statisticsTables.map {
                "UPDATE \(SQL.quoteIdentifier($0)) SET tbl = \(SQL.quoteString(temporaryName)), idx = \(prefix) || idx WHERE tbl = \(SQL.quoteString(sourceTable)) AND (\(owned))"
            }
            statements.insert(contentsOf: moveOut, at: 1)  // right after CREATE TABLE of the new table
            copyPosition += moveOut.count
            indexRange = (indexRange.lowerBound + moveOut.count)..<(indexRange.upperBound + moveOut.count)
            statements += statisticsTables.map {
                "UPDATE \(SQL.quoteIdentifier($0)) SET tbl = \(SQL.quoteString(table)), idx = substr(idx, length(\(prefix)) + 1) WHERE tbl = \(SQL.quoteString(temporaryName))"
            }
        }
        let changedGenerated = Set(columns.filter(\.changesGenerated).map { $0.attribute.name.sqlFolded })
        let generated = definition.columns.filter(\.isGenerated).map { column -> GeneratedSource in
            let folded = column.name.sqlFolded
            let sourceName = renamesApplied ? column.name : liveNames[folded] ?? column.name
            let expression = definition.generated(of: column.name)
            let recomputed =
                expression?.storage == .stored && !changedGenerated.contains(folded)
                && live.column(named: sourceName)?.hidden == 3
            return GeneratedSource(
                name: column.name, sourceName: live.column(named: sourceName) == nil ? nil : sourceName,
                recomputedExpression: recomputed ? expression?.expression : nil)
        }
        let parts = Parts(
            createTable: statements[0], copyTargets: targets, copySources: sources,
            copySourcesBeforeRenames: sourcesBeforeRenames, sourceTable: renamesApplied ? table : sourceTable,
            sequence: sequence, indexes: Array(statements[indexRange]), withoutRowid: definition.withoutRowid,
            unchangedIndexes: unchangedIndexes, generated: generated)
        return Rendering(
            statements: statements, copyPosition: copyPosition, indexPositions: indexRange,
            carriedOver: carriedOver, removed: removed, parts: parts)
    }

    /// The clauses of a definition that a declaration does not speak of, in words.
    private static func features(of definition: TableDefinition) -> [String] {
        var features: [String] = []
        for column in definition.columns {
            for constraint in column.constraints {
                switch constraint.kind {
                case .check, .collate, .generated, .deferrable, .primaryKey(autoincrement: true):
                    features.append("`\(constraint.text)`")
                case .references:
                    if constraint.text.uppercased().contains("ON UPDATE")
                        || constraint.text.uppercased().contains("DEFERRABLE")
                    {
                        features.append("`\(constraint.text)`")
                    }
                default: break
                }
            }
        }
        features += definition.constraints.filter { $0.kind != .name }.map { "`\($0.text)`" }
        if definition.withoutRowid { features.append("WITHOUT ROWID") }
        if definition.strict { features.append("STRICT") }
        return features
    }
}
