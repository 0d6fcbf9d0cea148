/// A table rebuilt by SQLite's generalized ALTER TABLE procedure: a new table is created with the
/// target definition, the rows are copied, the old table is dropped and the new one takes its name.
///
/// Never the other way round (renaming the old table first would rewrite the references other
/// tables, triggers and views hold to it). Foreign keys are off for the whole migration, so
/// dropping the old table fires no cascade on child rows.
///
/// Related SQLite documentation: <https://www.sqlite.org/lang_altertable.html#otheralter>
struct TableRebuild: Sendable {
    /// The table's name before and after the rebuild.
    var table: String
    /// The target definition (named `table`).
    var target: Schema.Entity
    /// For each target column filled from the old table: the SQL expression over the old table's
    /// columns (`"start_date"`, `CAST("budget" AS REAL)`, `IFNULL("destination", '')`).
    /// Columns not listed take their default.
    var columnSources: [(column: String, expression: String)]
    /// Columns created without NOT NULL for now, because a custom stage's `didMigrate` fills them.
    var nullableColumns: Set<String>
    /// Old columns that are not copied.
    var droppedColumns: [String]
    /// Old index structures (in target column names) that the target no longer declares: they
    /// are not recreated even when the live table has them.
    var retiredIndexes: Set<IndexStructure>
    /// The reasons, in words, for the summary.
    var reasons: [String]

    var temporaryName: String { TableNames.temporaryPrefix + table }

    var summary: String {
        "Rebuild table \(table) (copies every row): " + reasons.joined(separator: "; ")
    }

    /// The rebuild's statements. With the live table, its extra indexes (created by hand, not
    /// declared) and its triggers are recreated too.
    func statements(live: LiveSchema.Table?, dependents: [LiveSchema.Dependent]) -> [String] {
        let quotedTable = SQL.quoteIdentifier(table)
        let quotedTemporary = SQL.quoteIdentifier(temporaryName)
        var statements = [EntitySQL.createTable(target, named: temporaryName, nullable: nullableColumns)]
        let keepsRowid = !target.isJoinTable
        let targetColumns = (keepsRowid ? [Schema.primaryKeyColumn] : []) + columnSources.map(\.column)
        let sourceExpressions = (keepsRowid ? [SQL.quoteIdentifier(Schema.primaryKeyColumn)] : []) + columnSources.map(\.expression)
        statements.append("INSERT INTO \(quotedTemporary) (\(targetColumns.map(SQL.quoteIdentifier).joined(separator: ", "))) SELECT \(sourceExpressions.joined(separator: ", ")) FROM \(quotedTable)")
        statements.append("DROP TABLE \(quotedTable)")
        statements.append("ALTER TABLE \(quotedTemporary) RENAME TO \(quotedTable)")
        statements += target.indexes.map { EntitySQL.createIndex($0, table: table) }
        if let live {
            let declared = Set(target.indexes.map(\.structure)).union(retiredIndexes)
            let targetNames = Set(([Schema.primaryKeyColumn] + target.attributes.map(\.name)).map { $0.lowercased() })
            for index in live.indexes where index.origin == "c" && !declared.contains(index.structure) {
                // An index someone created by hand: keep it when its columns still exist unchanged.
                if let sql = index.sql, index.columns.allSatisfy({ targetNames.contains($0.lowercased()) }) {
                    statements.append(sql)
                }
            }
        }
        statements += dependents.filter { $0.kind == .trigger && $0.tableName.caseInsensitiveCompare(table) == .orderedSame }.map(\.sql)
        return statements
    }
}
