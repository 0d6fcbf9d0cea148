extension MigrationContext {
    /// Rows of an entity, optionally filtered and sorted.
    ///
    /// ```swift
    /// let paris = try context.fetch("Trip", where: "destination = ?", arguments: [.text("Paris")], orderBy: "startDate DESC")
    /// ```
    /// - Parameters:
    ///   - filter: an SQL expression over the entity's property names, with `?` placeholders.
    ///   - orderBy: an SQL ordering over property names; defaults to `id`.
    /// - Complexity: loads every matching row; use ``forEach(_:where:arguments:batchSize:_:)`` for large tables.
    public func fetch(_ entity: String, where filter: String? = nil, arguments: [SQLiteValue] = [], orderBy: String? = nil, limit: Int? = nil) throws -> [MigrationRow] {
        let table = try entityTable(entity)
        var sql = "SELECT * FROM \(SQL.quoteIdentifier(table.name))"
        if let filter { sql += " WHERE \(filter)" }
        sql += " ORDER BY \(orderBy ?? SQL.quoteIdentifier(Schema.primaryKeyColumn))"
        if let limit { sql += " LIMIT \(limit)" }
        return try readRows(sql, arguments: arguments, entity: table.name)
    }

    /// Calls `body` with every matching row, reading `batchSize` rows at a time in `id` order, so
    /// memory stays flat however large the table. `body` may update or delete the rows it is given.
    /// Reports progress (rows done / total) through the migrator's progress callback.
    /// - Complexity: O(rows); memory O(batchSize).
    public func forEach(_ entity: String, where filter: String? = nil, arguments: [SQLiteValue] = [], batchSize: Int = 1000,
                        _ body: (MigrationRow) throws -> Void) throws {
        let table = try entityTable(entity)
        let quotedTable = SQL.quoteIdentifier(table.name), id = SQL.quoteIdentifier(Schema.primaryKeyColumn)
        let condition = filter.map { "(\($0)) AND " } ?? ""
        let total = try count(entity, where: filter, arguments: arguments)
        let statement = try db.prepare("SELECT * FROM \(quotedTable) WHERE \(condition)\(id) > ? ORDER BY \(id) LIMIT \(max(1, batchSize))")
        var lastID = Int64.min
        var done = 0
        while true {
            try statement.reset()
            try statement.bind(arguments + [.integer(lastID)])
            var batch: [MigrationRow] = []
            batch.reserveCapacity(batchSize)
            let columns = Self.columnIndex(of: statement)
            while try statement.step() { batch.append(row(from: statement, entity: table.name, columns: columns)) }
            try statement.reset()  // release the read cursor before body writes
            guard let last = batch.last else { break }
            for row in batch { try body(row) }
            done += batch.count
            lastID = last.id
            progress?(MigrationProgress(from: stage.from, to: stage.to, stepIndex: 0, stepCount: 1,
                                        summary: "\(entity): \(done) / \(total) rows", rowsDone: done, rowsTotal: total))
        }
    }

    /// The number of rows of an entity, optionally filtered.
    public func count(_ entity: String, where filter: String? = nil, arguments: [SQLiteValue] = []) throws -> Int {
        let table = try entityTable(entity)
        let sql = "SELECT count(*) FROM \(SQL.quoteIdentifier(table.name))" + (filter.map { " WHERE \($0)" } ?? "")
        return Int(try db.scalar(sql, arguments)?.int64Value ?? 0)
    }

    func readRows(_ sql: String, arguments: [SQLiteValue], entity: String) throws -> [MigrationRow] {
        let statement = try db.prepare(sql)
        try statement.bind(arguments)
        var rows: [MigrationRow] = []
        let columns = Self.columnIndex(of: statement)
        while try statement.step() { rows.append(row(from: statement, entity: entity, columns: columns)) }
        return rows
    }

    private static func columnIndex(of statement: SQLiteStatement) -> [String: Int] {
        var index: [String: Int] = [:]
        for position in 0..<statement.columnCount { index[statement.columnName(position)] = position }
        return index
    }

    private func row(from statement: SQLiteStatement, entity: String, columns: [String: Int]) -> MigrationRow {
        let storage = (0..<statement.columnCount).map(statement.column)
        let id = columns[Schema.primaryKeyColumn].flatMap { storage[$0].int64Value } ?? 0
        return MigrationRow(entity: entity, id: id, columnIndex: columns, storage: storage)
    }

    /// The entity's declaration at this stage's version.
    /// - Throws: `MigrationError` naming an entity the version does not declare.
    func entityTable(_ entity: String) throws -> Schema.Entity {
        if let last = lastEntity, last.name == entity { return last }
        if let table = entitiesByName[entity] { lastEntity = table; return table }
        guard let table = schema.entity(named: entity), !table.isJoinTable else {
            throw MigrationError(.invalidSchema, "version \(schema.version) has no entity '\(entity)'",
                                 entity: entity, version: schema.version,
                                 remedy: "use one of: " + schema.entities.filter { !$0.isJoinTable }.map(\.name).joined(separator: ", "))
        }
        entitiesByName[entity] = table
        return table
    }
}
