#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension MigrationContext {
    /// Inserts a row. Values are Swift values of the attributes' types (`String`, `Date`, an enum,
    /// a Codable struct…), or nil; properties not given take their default. An entity with the
    /// default key takes its `id` among the values too (an integer); otherwise SQLite chooses it.
    ///
    /// ```swift
    /// let id = try context.insert("Trip", values: ["name": "Paris", "startDate": Date()])
    /// ```
    /// - Returns: the new row's `id`.
    /// - Throws: `MigrationError`: `invalidSchema` for a property the version does not declare
    ///   (or a generated one), `invalidArgument` for a property given twice (by its name and its
    ///   column's), `typeMismatch` for a value its attribute cannot store (an integer beyond
    ///   `Int64`, a NaN); SQLite's error for a constraint the row breaks.
    @discardableResult
    public func insert(_ entity: String, values: [String: Any?]) throws -> Int64 {
        let table = try entityTable(entity)
        let stored = try storedValues(values, of: table, call: "insert")
        let columns = stored.map { SQL.quoteIdentifier($0.column) }.joined(separator: ", ")
        let sql =
            stored.isEmpty
            ? "INSERT INTO \(SQL.quoteIdentifier(table.name)) DEFAULT VALUES"
            : "INSERT INTO \(SQL.quoteIdentifier(table.name)) (\(columns)) VALUES (\(stored.map { _ in "?" }.joined(separator: ", ")))"
        try execute(sql, arguments: stored.map(\.value))
        return sqlite3LastInsertRowID
    }

    /// Sets properties of the row with `id`.
    ///
    /// ```swift
    /// try context.update("Trip", id: trip.id, values: ["notes": nil, "budget": 1200])
    /// ```
    /// - Throws: `MigrationError`: `invalidArgument` when no row has `id`, for a property given
    ///   twice, or for `id` among the values (a row's id is not changed here: use
    ///   ``execute(_:arguments:)``); otherwise as ``insert(_:values:)``.
    public func update(_ entity: String, id: Int64, values: [String: Any?]) throws {
        // A loop setting the same property row after row: no lookups beyond two string compares.
        if values.count == 1, let last = lastUpdate, last.entity == entity, let (name, value) = values.first,
            last.property == name
        {
            let statement = last.statement
            defer { statement.reset() }
            let stored: SQLiteValue
            if let value, let common = Self.commonStoredValue(value, as: last.valueType) {
                stored = common
            } else {
                stored = try storedValue(value, attribute: last.attribute, of: last.table)
            }
            if !StoredValueCheck.isReadable(stored, as: last.valueType, affinity: last.affinity) {
                footprint?.recordUnprovenWrite(table: last.table, column: last.attribute.name)
            }
            try statement.bind(stored, at: 1)
            try statement.bind(.integer(id), at: 2)
            try statement.step()
            if db.changes == 0 { throw noRowToUpdate(last.table, id: id) }
            return
        }
        let table = try entityTable(entity)
        let stored = try storedValues(values, of: table, call: "update")
        guard !stored.isEmpty else { return }
        let columns = stored.count == 1 ? stored[0].column : stored.map(\.column).joined(separator: "\u{0}")
        let statement: any PreparedStatement
        if let cached = updateStatements[table.name]?[columns] {
            statement = cached
        } else {
            let assignments = stored.map { "\(SQL.quoteIdentifier($0.column)) = ?" }.joined(separator: ", ")
            let id = try RowAddressing(table).requireID(
                entity: table.name, call: "update(_:id:values:)", version: schema.version)
            // What it writes is told apart from other statements' writes: its values are proven below.
            footprint?.isCompilingDataAPIUpdate = true
            defer { footprint?.isCompilingDataAPIUpdate = false }
            statement = try db.prepareStatement(
                "UPDATE \(SQL.quoteIdentifier(table.name)) SET \(assignments) WHERE \(id) = ?")
            updateStatements[table.name, default: [:]][columns] = statement
        }
        for (column, attribute, value) in stored
        where !(attribute.map { StoredValueCheck.isReadable(value, as: $0.valueType, affinity: $0.affinity) } ?? false)
        {
            footprint?.recordUnprovenWrite(table: table.name, column: column)
        }
        // Remembered under the name as given, with the declaration that name resolved to.
        if values.count == 1, let given = values.first?.key, let attribute = attribute(named: given, of: table) {
            lastUpdate = RepeatedUpdate(
                entity: entity, table: table.name, property: given, attribute: attribute, statement: statement)
        }
        try runUpdate(statement, values: stored.map(\.value), id: id)
        if db.changes == 0 { throw noRowToUpdate(table.name, id: id) }
    }

    private func noRowToUpdate(_ table: String, id: Int64) -> MigrationError {
        Self.invalidArgument(
            "update", table, "found no row with id \(id)",
            remedy: "update the ids forEach or fetch returned, or insert the row first")
    }

    private func runUpdate(_ statement: any PreparedStatement, values: [SQLiteValue], id: Int64) throws {
        defer { statement.reset() }
        for (position, value) in values.enumerated() { try statement.bind(value, at: position + 1) }
        try statement.bind(.integer(id), at: values.count + 1)
        try statement.step()
    }

    /// Deletes the row with `id`, applying the declared delete rules itself (SQLite's foreign key
    /// enforcement is off during a migration): `cascade` deletes related rows (recursively),
    /// `nullify` clears their references, `deny` and `noAction` refuse while related rows exist.
    /// - Throws: `MigrationError` with code `dataViolation` naming the related rows when a rule denies it.
    public func delete(_ entity: String, id: Int64) throws {
        let table = try entityTable(entity)
        let column = try RowAddressing(table).requireID(
            entity: table.name, call: "delete(_:id:)", version: schema.version)
        _ = try deleteRows(in: table.name, where: "\(column) = ?", arguments: [.integer(id)])
    }

    /// Deletes the rows matching `filter`, applying the delete rules as ``delete(_:id:)`` does.
    /// - Returns: how many rows of `entity` were deleted.
    /// - Throws: `MigrationError` for a filter or arguments ``fetch(_:where:arguments:orderBy:limit:properties:)``
    ///   refuses (an empty filter included), and as ``delete(_:id:)``.
    @discardableResult
    public func delete(_ entity: String, where filter: String, arguments: [SQLiteValue] = []) throws -> Int {
        let table = try entityTable(entity)
        let condition = try filterClause(filter, call: "delete", entity: table.name) ?? "1"
        // Compiled once to check it, before any row goes.
        let check = try preparing(
            "SELECT 1 FROM \(SQL.quoteIdentifier(table.name)) WHERE \(condition)", call: "delete", entity: table.name)
        try bind(arguments, to: check, call: "delete", entity: table.name)
        return try deleteRows(in: table.name, where: condition, arguments: arguments)
    }

    /// Deletes the rows first, then follows the references to them: a cycle of cascades ends
    /// because rows already deleted are not found again. A denial throws, and the migration's
    /// transaction undoes everything.
    ///
    /// The rows' numbers and the keys other rows refer to them by are read before the rows go: in
    /// memory for up to ``deletedKeysInMemory`` rows, otherwise into a temporary table (SQLite's
    /// temporary storage, which spills to a file), so memory stays flat however many rows go.
    private func deleteRows(in table: String, where filter: String, arguments: [SQLiteValue]) throws -> Int {
        let quoted = SQL.quoteIdentifier(table)
        let references = schema.entities.flatMap { child in
            child.attributes.compactMap { column in
                column.references.flatMap { $0.table == table ? (child, column, $0) : nil }
            }
        }
        // Nothing refers to these rows: one statement, and the filter is evaluated once.
        if references.isEmpty {
            try db.execute("DELETE FROM \(quoted) WHERE \(filter)", arguments)
            return db.changes
        }
        // The rows' numbers (none in a WITHOUT ROWID table), then each key column referenced.
        let number = schema.entity(named: table)?.isWithoutRowID == true ? nil : rowKey(of: table)
        var keyColumns: [String] = []
        for (_, _, key) in references where !keyColumns.contains(key.referencedColumn) {
            keyColumns.append(key.referencedColumn)
        }
        let selected = ((number.map { [$0] } ?? []) + keyColumns.map(SQL.quoteIdentifier)).joined(separator: ", ")
        let read = "SELECT \(selected) FROM \(quoted) WHERE \(filter)"
        let first = number == nil ? 0 : 1
        let rows = try db.rows(read + " LIMIT \(Self.deletedKeysInMemory + 1)", arguments)
        if rows.count > Self.deletedKeysInMemory {
            return try deleteRows(
                in: table, where: filter, arguments: arguments, references: references, reading: read,
                keyColumns: keyColumns, numbered: number != nil)
        }
        var referenced: [String: [SQLiteValue]] = [:]
        for (offset, column) in keyColumns.enumerated() {
            referenced[column] = rows.map { $0[first + offset] }.filter { $0 != .null }
        }
        let deleted: Int
        if let number {
            let ids = rows.compactMap { $0[0].int64Value }
            guard !ids.isEmpty else { return 0 }
            try db.execute(
                "DELETE FROM \(quoted) WHERE \(number) IN (\(ids.map(String.init).joined(separator: ", ")))")
            deleted = ids.count
        } else {
            deleted = rows.count
            guard deleted > 0 else { return 0 }
            try db.execute("DELETE FROM \(quoted) WHERE \(filter)", arguments)
        }
        try followReferences(references, of: table) { key in
            guard let values = referenced[key], !values.isEmpty else { return nil }
            return "IN (\(values.map(\.sqlLiteral).joined(separator: ", ")))"
        }
        return deleted
    }

    /// The same for more rows than ``deletedKeysInMemory``: their numbers and keys go into a
    /// temporary table, dropped when done, which the references are followed through. Its columns
    /// have no type, so they hold the values as read, and `+` strips their affinity in the
    /// comparisons: a referencing column compares with them as with the same values written out.
    ///
    /// The table is `_schema_migrations_deleting_N`, N the cascade's depth, unless the temporary
    /// schema holds something of that name already (the application's own table, index, view or
    /// trigger on a lent connection, or one the stage's code made): then the next free name.
    private func deleteRows(
        in table: String, where filter: String, arguments: [SQLiteValue],
        references: [(Schema.Entity, Schema.Attribute, Schema.ForeignKey)], reading read: String,
        keyColumns: [String], numbered: Bool
    ) throws -> Int {
        let taken = Set(try db.rows("SELECT name FROM temp.sqlite_schema").compactMap { $0[0].stringValue?.sqlFolded })
        let name = TemporaryName.free("_schema_migrations_deleting_\(deletionDepth)", avoiding: taken)
        let scratch = "temp." + SQL.quoteIdentifier(name)
        let first = numbered ? 1 : 0
        let columns = (0..<(first + keyColumns.count)).map { "c\($0)" }
        try db.execute("CREATE TEMP TABLE \(scratch) (\(columns.joined(separator: ", ")))")
        // A scratch table left behind (the connection failing) is a TEMP table: it goes with the
        // connection, and the next deletion takes a free name beside it.
        defer { try? db.execute("DROP TABLE IF EXISTS \(scratch)") }
        try db.execute("INSERT INTO \(scratch) \(read)", arguments)
        let quoted = SQL.quoteIdentifier(table)
        if numbered {
            try db.execute("DELETE FROM \(quoted) WHERE \(rowKey(of: table)) IN (SELECT +c0 FROM \(scratch))")
        } else {
            try db.execute("DELETE FROM \(quoted) WHERE \(filter)", arguments)
        }
        let deleted = db.changes
        deletionDepth += 1
        defer { deletionDepth -= 1 }
        try followReferences(references, of: table) { key in
            guard let offset = keyColumns.firstIndex(of: key) else { return nil }
            let column = "c\(first + offset)"
            let any = try db.scalar("SELECT EXISTS (SELECT 1 FROM \(scratch) WHERE \(column) IS NOT NULL)")
            guard any?.int64Value == 1 else { return nil }
            return "IN (SELECT +\(column) FROM \(scratch) WHERE \(column) IS NOT NULL)"
        }
        return deleted
    }

    /// Applies each reference's delete rule to the rows that refer to the deleted ones: those whose
    /// column matches what `match` gives for the key it references (nil: none do).
    private func followReferences(
        _ references: [(Schema.Entity, Schema.Attribute, Schema.ForeignKey)], of table: String,
        matching match: (String) throws -> String?
    ) throws {
        for (child, column, key) in references {
            guard let matching = try match(key.referencedColumn) else { continue }
            let quotedChild = SQL.quoteIdentifier(child.name)
            let quotedColumn = SQL.quoteIdentifier(column.name)
            let condition = "\(quotedColumn) \(matching)"
            switch key.onDelete {
            case "CASCADE":
                _ = try deleteRows(in: child.name, where: condition, arguments: [])
            case "SET NULL":
                try db.execute("UPDATE \(quotedChild) SET \(quotedColumn) = NULL WHERE \(condition)")
            default:
                let keyList =
                    child.keyColumns.isEmpty
                    ? "rowid" : child.keyColumns.map(SQL.quoteIdentifier).joined(separator: ", ")
                let related = try db.rows(
                    "SELECT \(keyList) FROM \(quotedChild) WHERE \(condition) ORDER BY \(keyList) LIMIT 10"
                )
                .map { row in
                    row.count == 1 ? row[0].description : "(" + row.map(\.description).joined(separator: ", ") + ")"
                }
                if !related.isEmpty {
                    throw MigrationError(
                        .dataViolation,
                        "cannot delete from '\(table)': rows of '\(child.name)' still refer to it through '\(column.property)' (delete rule \(key.onDelete == "RESTRICT" ? "deny" : key.onDelete.lowercased()))",
                        entity: table, property: column.property, version: schema.version,
                        remedy: "delete or re-point the related rows first",
                        details: ["\(child.name) rows: " + related.joined(separator: ", ")])
                }
            }
        }
    }

    /// How to name a table's rows by their real key: an entity's `id` (its integer primary key, the
    /// rowid itself), else (a join table) whichever of `rowid`, `_rowid_`, `oid` no column shadows (a model
    /// may well have a property named `rowid`, and then that name means the property).
    /// What numbers the rows of `table` (its `id`, or a rowid name no column shadows).
    private func rowKey(of table: String) -> String {
        schema.entity(named: table).flatMap { RowAddressing($0).idExpression } ?? "rowid"
    }

    private var sqlite3LastInsertRowID: Int64 { db.lastInsertRowID }

    private func attribute(named name: String, of table: Schema.Entity) -> Schema.Attribute? {
        if let attributes = attributesByEntity[table.name] { return attributes[name] }
        // By property name, and by column name where the two differ.
        let attributes = Dictionary(
            table.attributes.map { ($0.property, $0) } + table.attributes.map { ($0.name, $0) },
            uniquingKeysWith: { first, _ in first })
        attributesByEntity[table.name] = attributes
        return attributes[name]
    }

    /// The values as stored, by column, sorted by the names given, each with the declaration it
    /// is stored for (none for an insert's `id`).
    private func storedValues(_ values: [String: Any?], of table: Schema.Entity, call: String) throws -> [(
        column: String, attribute: Schema.Attribute?, value: SQLiteValue
    )] {
        var given: [String: String] = [:]  // column, folded → the name it was given by
        return try values.sorted { $0.key < $1.key }.map { name, value in
            if name == Schema.primaryKeyColumn && table.hasImplicitID {
                guard call == "insert" else {
                    throw Self.invalidArgument(
                        call, table.name,
                        "cannot change a row's id; use execute(_:arguments:) with an UPDATE of \"id\"",
                        remedy: "leave id out of the values")
                }
                guard let value,
                    let number = StoredValueType.unwrap(value).flatMap({ $0 as? any BinaryInteger }).flatMap({
                        Int64(exactly: $0)
                    })
                else {
                    throw MigrationError(
                        .typeMismatch,
                        "the id of a new '\(table.name)' must be an integer that fits Int64, not \(value.map { "\(type(of: $0))" } ?? "nil")",
                        entity: table.name, property: name, version: schema.version)
                }
                return (name, nil, .integer(number))
            }
            guard let attribute = attribute(named: name, of: table) else { throw noSuchProperty(name, of: table) }
            if let other = given.updateValue(name, forKey: attribute.name.sqlFolded) {
                throw MigrationError(
                    .invalidArgument,
                    "'\(table.name).\(attribute.property)' was given twice, as '\(other)' and as '\(name)'",
                    entity: table.name, property: attribute.property, version: schema.version,
                    remedy: "give each property once")
            }
            if let generated = attribute.generated {
                throw MigrationError(
                    .invalidSchema,
                    "'\(table.name).\(attribute.property)' is generated (\(generated.clause)): SQLite computes its values, and a write to it is refused",
                    entity: table.name, property: attribute.property, version: schema.version,
                    remedy:
                        "write the columns its expression reads instead, or leave '\(attribute.property)' out of the values"
                )
            }
            return (attribute.name, attribute, try storedValue(value, attribute: attribute, of: table.name))
        }
    }

    /// The declared type's common case, with one cast (an optional holding one unwraps too); nil
    /// for any other value, which ``storedValue(_:attribute:of:)`` converts.
    static func commonStoredValue(_ value: Any, as valueType: Schema.ValueType) -> SQLiteValue? {
        switch valueType {
        case .string: if let text = value as? String { return .text(text) }
        case .integer: if let number = value as? Int { return .integer(Int64(number)) }
        case .double: if let number = value as? Double, !number.isNaN { return .real(number) }
        default: break
        }
        return nil
    }

    private func storedValue(_ value: Any?, attribute: Schema.Attribute, of table: String) throws -> SQLiteValue {
        guard let value else { return .null }
        if let stored = Self.commonStoredValue(value, as: attribute.valueType) { return stored }
        guard let value = StoredValueType.unwrap(value) else { return .null }
        if let raw = value as? SQLiteValue { return raw }
        if let number = value as? any BinaryFloatingPoint, number.isNaN {
            throw MigrationError(
                .typeMismatch, "NaN cannot be stored in '\(table).\(attribute.property)': SQLite stores it as NULL",
                entity: table, property: attribute.property, column: attribute.name, version: schema.version,
                remedy: "store nil, or a number")
        }
        if let storage = attribute.dateStorage, let date = value as? Date { return storage.storedValue(date) }
        do {
            return try StoredValueType.storedValue(value, as: attribute.valueType)
        } catch {
            throw MigrationError(
                .typeMismatch,
                "a \(type(of: value)) cannot be stored in '\(table).\(attribute.property)', which holds \(attribute.valueType.rawValue) values",
                entity: table, property: attribute.property, column: attribute.name, version: schema.version)
        }
    }
}
