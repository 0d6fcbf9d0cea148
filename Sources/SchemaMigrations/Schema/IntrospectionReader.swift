import Foundation

/// Turns each live table into an entity where the declaration model can say it, and otherwise
/// says why not; notes what a declared table has that the model does not carry.
struct IntrospectionReader {
    let live: LiveSchema
    let db: SQLiteConnection
    var entities: [Schema.Entity] = []
    var undeclarable: [SchemaIntrospection.TableNotes] = []
    var notCarried: [SchemaIntrospection.TableNotes] = []
    var bookkeeping: [String] = []
    /// Triggers and views: kept by every migration, never in a snapshot.
    var dependents: [SchemaIntrospection.TableNotes] = []

    /// The tables by lower-cased name (SQLite names ignore case): one lookup per foreign key
    /// rather than a scan of every table.
    let tablesByName: [String: LiveSchema.Table]

    init(live: LiveSchema, db: SQLiteConnection) {
        self.live = live
        self.db = db
        self.tablesByName = Dictionary(live.tables.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
    }

    mutating func read() throws {
        // `PRAGMA table_list` (SQLite 3.37) tells virtual and shadow tables apart.
        let kinds = Dictionary((try? db.rows("SELECT name, type FROM pragma_table_list WHERE schema = 'main'"))?.compactMap { row -> (String, String)? in
            guard let name = row[0].stringValue, let type = row[1].stringValue else { return nil }
            return (name.lowercased(), type)
        } ?? [], uniquingKeysWith: { first, _ in first })
        for table in live.tables {
            if Schema.isReservedTableName(table.name) || ForeignMigrationHistory.isBookkeepingTable(table.name) {
                bookkeeping.append(table.name)
                continue
            }
            switch kinds[table.name.lowercased()] {
            case "virtual"?:
                undeclarable.append(.init(table: table.name, notes: ["a virtual table: declarations cannot say one"]))
                continue
            case "shadow"?:
                undeclarable.append(.init(table: table.name, notes: ["a virtual table's shadow table: it belongs to the virtual table"]))
                continue
            default:
                break
            }
            var blocking: [String] = [], kept: [String] = []
            let entity = try read(table, blocking: &blocking, kept: &kept)
            if blocking.isEmpty, let entity {
                entities.append(entity)
                if !kept.isEmpty { notCarried.append(.init(table: table.name, notes: kept)) }
            } else {
                undeclarable.append(.init(table: table.name, notes: blocking))
            }
        }
        for dependent in live.dependents {
            dependents.append(.init(table: dependent.name, notes: [
                dependent.kind == .view ? "view: kept by every migration, not in the snapshot"
                                        : "trigger on \(dependent.tableName): kept by every migration, not in the snapshot",
            ]))
        }
    }

    private func read(_ table: LiveSchema.Table, blocking: inout [String], kept: inout [String]) throws -> Schema.Entity? {
        guard let definition = try? TableDefinition(parsing: table.sql) else {
            blocking.append("its CREATE TABLE statement could not be read")
            return nil
        }
        let keyColumns = table.columns.filter { $0.primaryKeyPosition > 0 }.sorted { $0.primaryKeyPosition < $1.primaryKeyPosition }
        if definition.withoutRowid {
            blocking.append("a WITHOUT ROWID table: declarations cannot say one yet")
        } else if keyColumns.isEmpty {
            blocking.append("it has no PRIMARY KEY (its rows are keyed by the hidden rowid): declared tables have \"id\" INTEGER PRIMARY KEY, and declaring another key is not possible yet")
        } else if !table.hasIntegerPrimaryKey {
            let described = keyColumns.map { "\($0.name) \($0.declaredType.isEmpty ? "untyped" : $0.declaredType)" }.joined(separator: ", ")
            blocking.append("its primary key is (\(described)): declared tables have \"id\" INTEGER PRIMARY KEY, and declaring another key is not possible yet")
        } else {
            if keyColumns[0].name != Schema.primaryKeyColumn { kept.append("its key column is spelled \(keyColumns[0].name); a snapshot's table spells it \"id\"") }
            if definition.hasAutoincrement { kept.append("AUTOINCREMENT on \(keyColumns[0].name)") }
        }
        if definition.strict { kept.append("STRICT") }
        for constraint in definition.constraints where constraint.kind == .check { kept.append("table constraint \(constraint.text)") }

        var attributes: [Schema.Attribute] = []
        for column in table.columns where column.primaryKeyPosition == 0 || !table.hasIntegerPrimaryKey {
            if column.hidden != 0 {
                kept.append("generated column \(column.name)")
                continue
            }
            if let attribute = attribute(for: column, in: table, definition: definition, blocking: &blocking, kept: &kept) {
                attributes.append(attribute)
            }
        }
        if attributes.isEmpty && blocking.isEmpty { blocking.append("it has no column besides its key: a declared entity needs at least one attribute") }
        for key in table.foreignKeys where key.from.count > 1 {
            blocking.append("FOREIGN KEY (\(key.from.joined(separator: ", "))) REFERENCES \(key.table): a composite foreign key cannot be declared yet")
        }
        let indexes = try self.indexes(of: table, definition: definition, blocking: &blocking, kept: &kept)
        guard blocking.isEmpty else { return nil }
        return Schema.Entity(name: table.name, attributes: attributes, indexes: indexes)
    }

    private func attribute(for column: LiveSchema.Column, in table: LiveSchema.Table, definition: TableDefinition,
                           blocking: inout [String], kept: inout [String]) -> Schema.Attribute? {
        let valueType: Schema.ValueType
        switch column.affinity {
        case .integer: valueType = .integer
        case .real: valueType = .double
        case .text: valueType = .string
        case .blob: valueType = .data
        case .numeric:
            blocking.append("column \(column.name) is \(column.declaredType) (NUMERIC affinity): no declarable Swift type is stored as NUMERIC yet")
            return nil
        }
        if column.declaredType.isEmpty {
            kept.append("column \(column.name) is untyped; a snapshot's table declares it BLOB")
        } else if column.declaredType.uppercased() != valueType.storageType.rawValue {
            kept.append("column \(column.name) is declared \(column.declaredType); a snapshot's table declares it \(valueType.storageType.rawValue) (the same affinity)")
        }
        var defaultValue = column.defaultValue
        if let value = defaultValue, !SQLLiteral.isLiteral(value) || (column.notNull && value.uppercased() == "NULL") {
            kept.append("column \(column.name) has the default \(value), which a declaration cannot say yet")
            defaultValue = nil
        }
        for constraint in definition.column(named: column.name)?.constraints ?? [] {
            switch constraint.kind {
            case .check: kept.append("column \(column.name): \(constraint.text)")
            case .collate(let name) where name.uppercased() != "BINARY": kept.append("column \(column.name): \(constraint.text)")
            default: break
            }
        }
        var references: Schema.ForeignKey?
        let keys = table.foreignKeys.filter { $0.from.count == 1 && $0.from[0].caseInsensitiveCompare(column.name) == .orderedSame }
        if keys.count > 1 {
            blocking.append("column \(column.name) has \(keys.count) foreign keys: a declared column has one")
        } else if let key = keys.first {
            let target = tablesByName[key.table.lowercased()]
            let ontoID = key.to[0].map { $0.lowercased() == Schema.primaryKeyColumn } ?? (target?.hasIntegerPrimaryKey ?? false)
            if !ontoID || target?.hasIntegerPrimaryKey == false {
                blocking.append("column \(column.name) REFERENCES \(key.table)(\(key.to[0] ?? "its primary key")): a foreign key onto a column other than \"id\" cannot be declared yet")
            } else {
                references = Schema.ForeignKey(table: target?.name ?? key.table, onDelete: key.onDelete.uppercased())
                if key.onUpdate.uppercased() != "NO ACTION" { kept.append("column \(column.name): ON UPDATE \(key.onUpdate)") }
                if let text = definition.column(named: column.name)?.constraints.first(where: { if case .references = $0.kind { return true } else { return false } })?.text
                    ?? definition.constraints.first(where: { if case .foreignKey = $0.kind, $0.columns == [column.name.lowercased()] { return true } else { return false } })?.text,
                   text.uppercased().contains("DEFERRABLE") || text.uppercased().contains("MATCH") {
                    kept.append("column \(column.name): \(text)")
                }
            }
        }
        return Schema.Attribute(name: column.name, valueType: valueType, isOptional: !column.notNull, defaultValue: defaultValue, references: references)
    }

    /// Declared indexes for plain and unique indexes over columns; a unique one that is partial,
    /// over expressions or with another collation blocks the table (declaring it would be stricter
    /// or looser than the file); a plain one of those kinds is kept, not declared.
    private func indexes(of table: LiveSchema.Table, definition: TableDefinition, blocking: inout [String], kept: inout [String]) throws -> [Schema.Index] {
        // A column's own COLLATE is the default of an index on it: only another one counts.
        func columnCollation(_ name: String?) -> String {
            for constraint in name.flatMap({ definition.column(named: $0) })?.constraints ?? [] {
                if case .collate(let collation) = constraint.kind { return collation.uppercased() }
            }
            return "BINARY"
        }
        var result: [Schema.Index] = []
        let columnsByName = Dictionary(table.columns.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        for index in table.indexes where index.origin != .primaryKey {  // in creation order, oldest first
            let details = try db.rows("SELECT name, \"desc\", coll FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno", [.text(index.name)])
            let expression = details.contains { $0[0].isNull }
            let collated = details.contains { ($0[2].stringValue ?? "BINARY").uppercased() != columnCollation($0[0].stringValue) }
            let descending = details.contains { $0[1].int64Value == 1 }
            let what = "\(index.isUnique ? "unique index" : "index") \(index.name)"
            if expression || index.isPartial || collated {
                let kind = expression ? "over expressions" : index.isPartial ? "partial" : "collated unlike its column"
                if index.isUnique { blocking.append("\(what) is \(kind): a declaration cannot say one yet") }
                else { kept.append("\(what) (\(kind))") }
                continue
            }
            if descending { kept.append("\(what) has DESC columns; a snapshot's index is ascending") }
            let columns = index.columns.map { name in
                columnsByName[name.lowercased()].map { $0.primaryKeyPosition > 0 && table.hasIntegerPrimaryKey ? Schema.primaryKeyColumn : $0.name } ?? name
            }
            if let same = result.first(where: { $0.columns == columns && $0.isUnique == index.isUnique }) {
                // A declaration says each index once: the file's second one is kept as it is.
                kept.append("\(what) has the columns of \(same.name ?? "a UNIQUE constraint") (\(columns.joined(separator: ", "))); only one is in the snapshot")
                continue
            }
            if index.origin == .uniqueConstraint {
                kept.append("UNIQUE (\(columns.joined(separator: ", "))) is a constraint of the table; a snapshot declares it as a unique index")
                result.append(Schema.Index(columns, isUnique: true))
            } else {
                result.append(Schema.Index(columns, isUnique: index.isUnique, name: index.name))
            }
        }
        return result
    }
}
