/// One step of a stage: what it does, in words and in SQL, and what it costs.
public struct MigrationStep: Sendable, CustomStringConvertible {
    /// What kind of change a step makes. The raw values are the `op` keys of JSON reports.
    public enum Operation: String, Sendable, Codable, CaseIterable {
        case createTable, dropTable, renameTable, addColumn, dropColumn, renameColumn, rebuildTable, createIndex,
            dropIndex, createView, dropView, createTrigger, dropTrigger, createVirtualTable, dropVirtualTable,
            rebuildVirtualTable, setHeader
    }

    /// What kind of change this is.
    public var op: Operation { action.operation }
    /// The table it changes (its name after the step).
    public var table: String { action.table }
    /// The step in words: "Rename column Trip.start_date to startDate".
    public var summary: String { action.summary }
    /// Whether it copies every row of the table (O(rows)), rather than changing the schema only (O(1)).
    public var rewritesRows: Bool { action.rewritesRows }
    /// Whether it can lose data: dropping a table or a column, or replacing a column's stored
    /// values with computed ones (a column made generated).
    public var destructive: Bool { action.destructive }
    /// Whether it reads every row of its table: a rebuild's copy, a dropped column's rewrite, a
    /// dropped table's pages, a new index's build. `PRAGMA quick_check` checks such a table first.
    var readsWholeTable: Bool { [.rebuildTable, .dropColumn, .dropTable, .createIndex].contains(op) }
    /// Whether the table it leaves is written anew by the migration (created or rebuilt): the
    /// migration's own output, not data of the app's to check.
    var writesTableAnew: Bool { op == .rebuildTable || op == .createTable }
    /// Whether it can leave a row pointing at a missing parent (a table dropped or copied anew);
    /// SQLite's rename, add and drop column keep every rowid and reference.
    var mayBreakReferences: Bool { op == .rebuildTable || op == .dropTable }
    /// Whether views and triggers naming its table must be set aside while it runs (the table is
    /// briefly missing, and every ALTER re-parses the whole schema).
    var setsAsideDependents: Bool { op == .rebuildTable || op == .dropTable || op == .rebuildVirtualTable }
    /// Whether its SQL is rendered from the live table: indexes named as the database has them,
    /// a rebuild from the table's own definition.
    var rendersFromLiveTable: Bool { [.rebuildTable, .dropColumn, .dropIndex, .createIndex].contains(op) }
    /// The SQL it runs, as planned from the declared schemas. When applied, a rebuild also
    /// recreates the table's own extra indexes and triggers, and the views, that the live database has.
    public var sql: [String] { action.plannedStatements }

    let action: StepAction

    /// The step in words, as the dry run lists it.
    public var description: String { summary }
}

/// The internal form of a step, rendered to SQL against the live schema when it runs (``StepRenderer``).
enum StepAction: Sendable {
    case createTable(Schema.Entity)
    case dropTable(String)
    case renameTable(from: String, to: String)
    case addColumn(table: String, attribute: Schema.Attribute, forceNullable: Bool)
    case dropColumn(table: String, column: String)
    case renameColumn(table: String, from: String, to: String)
    case createIndex(table: String, index: Schema.Index)
    case dropIndex(table: String, index: Schema.Index)
    case rebuild(TableRebuild)
    /// A view, trigger or virtual table the target declares made: new, or made again.
    case createObject(Schema.SQLObject, reason: SQLObjectChange)
    /// A view, trigger or virtual table the source declares dropped: gone from the target, or
    /// dropped to be made again.
    case dropObject(Schema.SQLObject, reason: SQLObjectChange)
    /// A virtual table whose declaration changed: made anew beside the old one, the old one's
    /// rows copied over (the columns both have), the old one dropped and the new one renamed.
    case rebuildVirtualTable(from: Schema.SQLObject, to: Schema.SQLObject)
    /// A header value the target sets: `PRAGMA application_id = N` or `PRAGMA user_version = N`.
    case setHeader(pragma: String, value: Int)

    var operation: MigrationStep.Operation {
        switch self {
        case .createTable: return .createTable
        case .dropTable: return .dropTable
        case .renameTable: return .renameTable
        case .addColumn: return .addColumn
        case .dropColumn: return .dropColumn
        case .renameColumn: return .renameColumn
        case .createIndex: return .createIndex
        case .dropIndex: return .dropIndex
        case .rebuild: return .rebuildTable
        case .createObject(let object, _):
            switch object.kind {
            case .view: return .createView
            case .trigger: return .createTrigger
            case .virtualTable: return .createVirtualTable
            }
        case .dropObject(let object, _):
            switch object.kind {
            case .view: return .dropView
            case .trigger: return .dropTrigger
            case .virtualTable: return .dropVirtualTable
            }
        case .rebuildVirtualTable: return .rebuildVirtualTable
        case .setHeader: return .setHeader
        }
    }

    var table: String {
        switch self {
        case .createTable(let entity): return entity.name
        case .dropTable(let table): return table
        case .renameTable(_, let to): return to
        case .addColumn(let table, _, _), .dropColumn(let table, _), .renameColumn(let table, _, _),
            .createIndex(let table, _), .dropIndex(let table, _):
            return table
        case .rebuild(let rebuild): return rebuild.table
        case .createObject(let object, _), .dropObject(let object, _), .rebuildVirtualTable(_, let object):
            return object.name
        case .setHeader(let pragma, _): return pragma
        }
    }

    var rewritesRows: Bool {
        switch self {
        case .rebuild, .dropColumn, .rebuildVirtualTable: return true
        default: return false
        }
    }

    var destructive: Bool {
        switch self {
        case .dropTable, .dropColumn: return true
        case .dropObject(let object, .removed): return object.kind == .virtualTable
        case .rebuild(let rebuild): return !rebuild.droppedColumns.isEmpty || !rebuild.replacedByGenerated.isEmpty
        default: return false
        }
    }

    var summary: String {
        switch self {
        case .createTable(let entity):
            return
                "Create table \(entity.name) (\(counted(entity.attributes.count, "column")), \(counted(entity.indexes.count, "index", plural: "indexes")))"
        case .dropTable(let table): return "Drop table \(table) and all its rows"
        case .renameTable(let from, let to): return "Rename table \(from) to \(to)"
        case .addColumn(let table, let attribute, let forceNullable):
            let note = forceNullable ? " (NULL until didMigrate fills it; NOT NULL is enforced after)" : ""
            return
                "Add column \(table).\(attribute.name) \(EntitySQL.typeAndConstraints(attribute, forceNullable: forceNullable))\(note)"
        case .dropColumn(let table, let column): return "Drop column \(table).\(column) and its values"
        case .renameColumn(let table, let from, let to): return "Rename column \(table).\(from) to \(to)"
        case .createIndex(let table, let index):
            return
                "Create \(index.isUnique ? "unique index" : "index") \(index.resolvedName(table: table)) on \(table)\(index.termsDescription)"
        case .dropIndex(let table, let index):
            return
                "Drop \(index.isUnique ? "unique index" : "index") \(index.hasExpressions ? index.resolvedName(table: table) + " " : "")on \(table)\(index.termsDescription)"
        case .rebuild(let rebuild): return rebuild.summary
        case .createObject(let object, .new): return "Create \(object)"
        case .createObject(let object, let reason): return "Recreate \(object) (\(reason))"
        case .dropObject(let object, .removed):
            return "Drop \(object)" + (object.kind == .virtualTable ? " and all its rows" : "")
        case .dropObject(let object, let reason): return "Drop \(object) to recreate it (\(reason))"
        case .rebuildVirtualTable(_, let object):
            return "Rebuild \(object) (\(SQLObjectChange.changed)), copying its rows"
        case .setHeader(let pragma, let value): return "Set \(pragma) to \(value)"
        }
    }

    private func counted(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
    }

    /// The statements this step runs as planned from the declared schemas alone: an index dropped
    /// by its declared name, a rebuild from the declared target. When it runs (and in a dry run)
    /// the step is rendered against the live schema instead (``StepRenderer``).
    var plannedStatements: [String] {
        switch self {
        case .createTable(let entity):
            return [EntitySQL.createTable(entity)]
                + entity.indexes.map { EntitySQL.createIndex($0, table: entity.name) }
        case .dropTable(let table):
            return ["DROP TABLE \(SQL.quoteIdentifier(table))"]
        case .renameTable(let from, let to):
            return ["ALTER TABLE \(SQL.quoteIdentifier(from)) RENAME TO \(SQL.quoteIdentifier(to))"]
        case .addColumn(let table, let attribute, let forceNullable):
            return [
                "ALTER TABLE \(SQL.quoteIdentifier(table)) ADD COLUMN \(EntitySQL.columnDefinition(attribute, forceNullable: forceNullable))"
            ]
        case .dropColumn(let table, let column):
            return ["ALTER TABLE \(SQL.quoteIdentifier(table)) DROP COLUMN \(SQL.quoteIdentifier(column))"]
        case .renameColumn(let table, let from, let to):
            return [
                "ALTER TABLE \(SQL.quoteIdentifier(table)) RENAME COLUMN \(SQL.quoteIdentifier(from)) TO \(SQL.quoteIdentifier(to))"
            ]
        case .createIndex(let table, let index):
            return [EntitySQL.createIndex(index, table: table)]
        case .dropIndex(let table, let index):
            return ["DROP INDEX \(SQL.quoteIdentifier(index.resolvedName(table: table)))"]
        case .rebuild(let rebuild):
            return rebuild.declaredStatements
        case .createObject(let object, _):
            return [object.sql]
        case .dropObject(let object, _):
            return [object.dropStatement]
        case .rebuildVirtualTable(let from, let to):
            return VirtualTableRebuild(from: from, to: to).declaredStatements
        case .setHeader(let pragma, let value):
            return ["PRAGMA \(pragma) = \(value)"]
        }
    }
}

/// Why a stage makes or drops a declared view, trigger or virtual table.
enum SQLObjectChange: Sendable, Hashable, CustomStringConvertible {
    /// The target declares it and the source does not (made), or the reverse (dropped).
    case new, removed
    /// Both declare it, with different SQL.
    case changed
    /// It reads an object the stage drops or changes, so it is made again after it.
    case reads(String)
    /// It names a table or column (folded) the stage drops or renames.
    case names(String)

    var description: String {
        switch self {
        case .new: return "new"
        case .removed: return "removed"
        case .changed: return "its SQL changed"
        case .reads(let name): return "it reads \(name), which changes"
        case .names(let name): return "it names \(name), which the stage drops or renames"
        }
    }
}
