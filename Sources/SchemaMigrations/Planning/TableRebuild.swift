/// A table rebuilt by SQLite's generalized ALTER TABLE procedure, starting from the live table's
/// own definition: what the plan changes is changed, everything else is written back as the
/// database had it (CHECKs, collations, `AUTOINCREMENT` and its counter, `STRICT`,
/// `WITHOUT ROWID`, generated columns, expression defaults, every foreign key clause, and every
/// index, partial and expression indexes included, under its own name).
///
/// Steps 4 to 8 of SQLite's generalized ALTER TABLE procedure
/// (<https://www.sqlite.org/lang_altertable.html#otheralter>); ``AlterTableProcedure`` lists all
/// twelve and where each is carried out. This is the plan of the rebuild, from the schemas alone;
/// its SQL against the live table is rendered when it runs (``StepRenderer``).
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
        var changesNotNullConflict = false
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
    /// Whether the primary key's conflict clause changes (`ON CONFLICT REPLACE` on or off).
    var changesKeyConflict = false
    /// Target columns that held stored values and become generated: SQLite computes them anew,
    /// replacing what was stored (destructive).
    var replacedByGenerated: [String] = []
    /// The indexes the stage declares anew (the source version did not) or under a new name
    /// (SQLite has no RENAME INDEX): each is created as
    /// declared, as `CREATE INDEX` creates it on a table that is not rebuilt, even beside an
    /// index of the same columns the table has without declaring it (made by hand).
    var addedIndexes: Set<IndexStructure> = []
    /// The table constraints the source version declared and the target does not (in the
    /// target's names): the live table's constraints with their meaning are left out.
    var removedConstraints: [Schema.TableConstraint] = []
    /// The table constraints the target declares anew: written after the live table's own,
    /// unless it has one with the same meaning already.
    var addedConstraints: [Schema.TableConstraint] = []

    var temporaryName: String { TableNames.temporaryPrefix + table }

    var summary: String {
        "Rebuild table \(table) (copies every row): " + reasons.joined(separator: "; ")
    }

    /// In ``declaredStatements``: the copy's position, and where the indexes start (after the
    /// create, the copy, the drop and the rename).
    static let declaredCopyPosition = 1
    static let declaredIndexStart = 4

    /// The rebuild's statements as planned from the declared schemas alone (no live table: a stage
    /// the dry run shows before the database has reached its source version).
    var declaredStatements: [String] {
        let quotedTemporary = SQL.quoteIdentifier(temporaryName)
        let keepsRowid = target.hasImplicitID
        // SQLite computes generated columns
        let copied = columns.filter { $0.expression != nil && $0.attribute.generated == nil }
        let targetColumns =
            (keepsRowid ? [SQL.quoteIdentifier(Schema.primaryKeyColumn)] : [])
            + copied.map { SQL.quoteIdentifier($0.attribute.name) }
        let sources = (keepsRowid ? [SQL.quoteIdentifier(Schema.primaryKeyColumn)] : []) + copied.map { $0.expression! }
        return [
            EntitySQL.createTable(target, named: temporaryName, nullable: nullableColumns),
            "INSERT OR ABORT INTO \(quotedTemporary) (\(targetColumns.joined(separator: ", "))) SELECT \(sources.joined(separator: ", ")) FROM \(SQL.quoteIdentifier(table))",
            "DROP TABLE \(SQL.quoteIdentifier(table))",
            "ALTER TABLE \(quotedTemporary) RENAME TO \(SQL.quoteIdentifier(table))",
        ]
            + target.indexes.map { EntitySQL.createIndex($0, table: table) }
    }
}
