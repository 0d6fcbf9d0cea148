/// A table rebuilt by SQLite's generalized ALTER TABLE procedure, starting from the live table's
/// own definition: what the plan changes is changed, everything else is written back as the
/// database had it (CHECKs, collations, `AUTOINCREMENT` and its counter, `STRICT`,
/// `WITHOUT ROWID`, generated columns, expression defaults, every foreign key clause, and every
/// index, partial and expression indexes included, under its own name).
///
/// Steps 4 to 8 of SQLite's generalized ALTER TABLE procedure
/// (<https://www.sqlite.org/lang_altertable.html#otheralter>); ``AlterTableProcedure`` lists all
/// twelve and where each is carried out.
struct TableRebuild: Sendable {
    /// How one target column is written and filled.
    struct Column: Sendable {
        /// The declared target attribute.
        var attribute: Schema.Attribute
        /// The SQL expression over the old table giving the new value (the column itself, or a
        /// conversion of it), named as the column is named once the stage's renames have run;
        /// nil for a column new in this stage, which takes its default.
        var expression: String?
        /// What the plan changes in the column's definition; the rest is kept as it is.
        var changesType = false
        var changesOptionality = false
        var changesDefault = false
        var changesReference = false
        var changesCheck = false
        var changesCollation = false
        var changesGenerated = false
        /// The column's name before the stage's renames (for the dry run, which reads the table before they run).
        var sourceName: String?
    }

    /// The table's name before and after the rebuild.
    var table: String
    /// The table's name before the stage (it differs when the entity is renamed).
    var sourceTable: String
    /// The target definition (named `table`).
    var target: Schema.Entity
    /// The target columns, in order.
    var columns: [Column]
    /// Columns created without NOT NULL for now, because a custom stage's `didMigrate` fills them.
    var nullableColumns: Set<String>
    /// Old columns that are not copied.
    var droppedColumns: [String]
    /// Old indexes (in target column names) that the target no longer declares, with the name they
    /// were created with: not recreated. A live index of the same columns under another name (made
    /// by hand beside the declared one) stays.
    var retiredIndexes: [(index: Schema.Index, name: String)]
    /// The reasons, in words, for the summary.
    var reasons: [String]
    /// Whether the plan turns `STRICT` on or off (otherwise the table keeps its own).
    var changesStrict = false
    /// Target columns that held stored values and become generated: SQLite computes them anew,
    /// replacing what was stored (destructive).
    var replacedByGenerated: [String] = []

    var temporaryName: String { TableNames.temporaryPrefix + table }

    var summary: String {
        "Rebuild table \(table) (copies every row): " + reasons.joined(separator: "; ")
    }

    /// The statements of one rebuild, and what it keeps and removes, in words.
    struct Rendering: Sendable {
        var statements: [String]
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
    }

    /// The rebuild's statements as planned from the declared schemas alone (no live table: a stage
    /// the dry run shows before the database has reached its source version).
    var declaredStatements: [String] {
        let quotedTemporary = SQL.quoteIdentifier(temporaryName)
        let keepsRowid = target.hasImplicitID
        let copied = columns.filter { $0.expression != nil && $0.attribute.generated == nil }  // SQLite computes generated columns
        let targetColumns = (keepsRowid ? [SQL.quoteIdentifier(Schema.primaryKeyColumn)] : []) + copied.map { SQL.quoteIdentifier($0.attribute.name) }
        let sources = (keepsRowid ? [SQL.quoteIdentifier(Schema.primaryKeyColumn)] : []) + copied.map { $0.expression! }
        return [EntitySQL.createTable(target, named: temporaryName, nullable: nullableColumns),
                "INSERT INTO \(quotedTemporary) (\(targetColumns.joined(separator: ", "))) SELECT \(sources.joined(separator: ", ")) FROM \(SQL.quoteIdentifier(table))",
                "DROP TABLE \(SQL.quoteIdentifier(table))",
                "ALTER TABLE \(quotedTemporary) RENAME TO \(SQL.quoteIdentifier(table))"]
            + target.indexes.map { EntitySQL.createIndex($0, table: table) }
    }

    /// Steps 4 to 8 of the procedure for the live table `live`.
    ///
    /// - Parameter renamesApplied: whether the stage's column renames have already run on `live`
    ///   (when it runs), or not (the dry run, which shows them applied to the text).
    /// - Throws: `MigrationError`, before anything is written, when a dropped column is needed by
    ///   something that stays (a CHECK over other columns too, a generated column, an expression
    ///   or partial index), or the table's definition cannot be read.
    /// - Parameter newName: the name the new table is created under (``temporaryName`` offline).
    func statements(live: LiveSchema.Table, renamesApplied: Bool, version: Schema.Version, newName: String? = nil) throws -> Rendering {
        let temporaryName = newName ?? self.temporaryName
        var definition = try live.definition()
        var substitution: [String: String] = [:]
        if !renamesApplied {
            for column in columns { if let source = column.sourceName, source != column.attribute.name { substitution[source.sqlFolded] = column.attribute.name } }
            if !substitution.isEmpty { definition.renameColumns(substitution) }
        }
        var carriedOver = TableRebuild.features(of: definition)
        // 4. "Use CREATE TABLE to construct a new table "new_X" that is in the desired revised format of table X."
        for column in columns {
            let name = column.attribute.name
            guard column.expression != nil, definition.column(named: name) != nil else {
                try definition.addColumn(definition: EntitySQL.columnDefinition(column.attribute, forceNullable: nullableColumns.contains(name)))
                continue
            }
            if column.changesType { definition.setType(column.attribute.declaredType, column: name) }
            if column.changesOptionality || nullableColumns.contains(name) {
                definition.setNotNull(!column.attribute.isOptional && !nullableColumns.contains(name), column: name)
            }
            if column.changesDefault { definition.setDefault(column.attribute.defaultValue, column: name) }
            if column.changesReference { definition.setReference(column.attribute.references, column: name) }
            if column.changesCheck { definition.setCheck(column.attribute.check, column: name) }
            if column.changesCollation { definition.setCollation(column.attribute.collation, column: name) }
            if column.changesGenerated { definition.setGenerated(column.attribute.generated, column: name) }
        }
        var removed: [String] = []
        for dropped in droppedColumns {
            removed += try definition.dropColumn(dropped, entity: target.name, version: version).map { "\(table).\(dropped): \($0)" }
        }
        carriedOver = carriedOver.filter { feature in !removed.contains { $0.hasSuffix(feature) } }
        if changesStrict { definition.strict = target.isStrict }
        var statements = [definition.sql(named: temporaryName)]

        // 5. "Transfer content from X into new_X using a statement like: INSERT INTO new_X SELECT ... FROM X."
        let expressions = Dictionary(columns.compactMap { column in column.expression.map { (column.attribute.name.sqlFolded, $0) } },
                                     uniquingKeysWith: { first, _ in first })
        // New name (folded) → the name the live table has until the renames run.
        let liveNames = Dictionary(substitution.map { ($0.value.sqlFolded, $0.key) }, uniquingKeysWith: { first, _ in first })
        var targets: [String] = []
        var sources: [String] = []
        var sourcesBeforeRenames: [String] = []
        for column in definition.columns where !column.isGenerated {
            let folded = column.name.sqlFolded
            let liveName = liveNames[folded] ?? column.name
            guard live.column(named: liveName) != nil else { continue }  // new: takes its default
            targets.append(SQL.quoteIdentifier(column.name))
            let expression = expressions[folded] ?? SQL.quoteIdentifier(column.name)
            sources.append(renamesApplied ? expression : TableDefinition.substitute(substitution, in: expression))
            sourcesBeforeRenames.append(renamesApplied ? expression : TableDefinition.substitute(liveNames, in: expression))
        }
        // A rowid table keeps its rowids even without an INTEGER PRIMARY KEY column (they may be
        // referenced: full-text search content, the app's own bookkeeping).
        if !definition.withoutRowid, !live.hasRowidAlias,
           let rowid = ["rowid", "oid", "_rowid_"].first(where: { name in definition.column(named: name) == nil && live.column(named: name) == nil }) {
            targets.insert(rowid, at: 0)
            sources.insert(rowid, at: 0)
            sourcesBeforeRenames.insert(rowid, at: 0)
        }
        let quotedTable = SQL.quoteIdentifier(renamesApplied ? table : sourceTable)
        let quotedTemporary = SQL.quoteIdentifier(temporaryName)
        statements.append("INSERT INTO \(quotedTemporary) (\(targets.joined(separator: ", "))) SELECT \(sources.joined(separator: ", ")) FROM \(quotedTable)")
        let sequenceStart = statements.count
        if definition.hasAutoincrement {
            // The AUTOINCREMENT counter moves with the table: the highest id ever handed out, not
            // the highest still present, so a deleted id is never handed out again.
            let temporary = SQL.quoteString(temporaryName), old = SQL.quoteString(renamesApplied ? table : sourceTable)
            statements.append("INSERT INTO sqlite_sequence (name, seq) SELECT \(temporary), 0 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = \(temporary))")
            statements.append("UPDATE sqlite_sequence SET seq = max(seq, IFNULL((SELECT seq FROM sqlite_sequence WHERE name = \(old)), 0)) WHERE name = \(temporary)")
        }
        let sequence = Array(statements[sequenceStart...])
        // 6. "Drop the old table X: DROP TABLE X."
        statements.append("DROP TABLE \(quotedTable)")
        // 7. "Change the name of new_X to X using: ALTER TABLE new_X RENAME TO X."
        statements.append("ALTER TABLE \(quotedTemporary) RENAME TO \(SQL.quoteIdentifier(table))")

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
            declared.terms == nil ? !index.isPartial && !index.columns.contains("<expr>") && structure(of: index) == declared
                                  : fullStructure(of: index) == declared
        }
        var retiring = Set<String>()  // the live index each retired declaration stands for: its own name first
        for retired in retiredIndexes {
            let candidates = live.indexes.filter { index in
                index.origin == .createIndex && retires(index, retired.index.structure)
            }
            if let chosen = LiveSchema.Index.madeForDeclaration(among: candidates, named: retired.name, table: sourceTable) {
                retiring.insert(chosen.name)
            }
        }
        var present = Set<IndexStructure>()
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
                    throw MigrationError(.unsupportedChange, "cannot drop '\(target.name).\(dropped)': the index \(index.name), `\(sql)`, uses it",
                                         entity: target.name, property: dropped, version: version,
                                         remedy: "keep the column, or drop the index first in a custom stage's willMigrate")
                }
                removed.append("\(table): the index \(index.name) on the dropped column \(dropped)")
                continue
            }
            present.insert(structure(of: index))
            present.insert(fullStructure(of: index))
            statements.append(renamesApplied ? sql : TableDefinition.substitute(substitution, in: sql))
            carriedOver.append("index \(index.name)")
        }
        for index in target.indexes where !present.contains(index.structure) {
            statements.append(EntitySQL.createIndex(index, table: table))
        }
        let indexStart = statements.firstIndex { $0.hasPrefix("ALTER TABLE \(quotedTemporary) RENAME TO") }.map { $0 + 1 } ?? statements.count
        let parts = Parts(createTable: statements[0], copyTargets: targets, copySources: sources, copySourcesBeforeRenames: sourcesBeforeRenames, sourceTable: renamesApplied ? table : sourceTable,
                          sequence: sequence, indexes: Array(statements[indexStart...]), withoutRowid: definition.withoutRowid)
        return Rendering(statements: statements, carriedOver: carriedOver, removed: removed, parts: parts)
    }

    /// The clauses of a definition that a declaration does not speak of, in words.
    private static func features(of definition: TableDefinition) -> [String] {
        var features: [String] = []
        for column in definition.columns {
            for constraint in column.constraints {
                switch constraint.kind {
                case .check, .collate, .generated, .deferrable, .primaryKey(autoincrement: true): features.append("`\(constraint.text)`")
                case .references: if constraint.text.uppercased().contains("ON UPDATE") || constraint.text.uppercased().contains("DEFERRABLE") { features.append("`\(constraint.text)`") }
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
