extension MigrationContext {
    /// Rows of an entity, optionally filtered and sorted.
    ///
    /// ```swift
    /// let paris = try context.fetch("Trip", where: "destination = ?", arguments: [.text("Paris")], orderBy: "startDate DESC")
    /// ```
    /// - Parameters:
    ///   - filter: an SQL expression over the entity's property names, with `?` placeholders.
    ///   - orderBy: an SQL ordering over property names; defaults to `id`.
    ///   - properties: the properties to read (`id` always is); nil for all of them.
    /// - Complexity: loads every matching row; use ``forEach(_:where:arguments:properties:batchSize:_:)`` for large tables.
    public func fetch(_ entity: String, where filter: String? = nil, arguments: [SQLiteValue] = [], orderBy: String? = nil, limit: Int? = nil,
                      properties: [String]? = nil) throws -> [MigrationRow] {
        let table = try entityTable(entity)
        let addressing = RowAddressing(table)
        var sql = "SELECT \(try selectList(properties, of: table, addressing: addressing)) FROM \(SQL.quoteIdentifier(table.name))"
        if let filter { sql += " WHERE \(filter)" }
        sql += " ORDER BY \(orderBy ?? addressing.order)"
        if let limit { sql += " LIMIT \(limit)" }
        let statement = try db.prepareStatement(sql)
        try statement.bind(arguments)
        var rows: [MigrationRow] = []
        var columns: RowColumns?  // read from the first row: a statement over the wire has its columns once it ran
        while try statement.step() {
            let named = columns ?? Self.columns(of: statement, partial: properties != nil, addressing: addressing, table: table)
            columns = named
            rows.append(row(from: statement, entity: table.name, columns: named, addressing: addressing))
        }
        return rows
    }

    /// Calls `body` with every matching row, reading `batchSize` rows at a time in `id` order, so
    /// memory stays flat however large the table. `body` may update or delete the rows it is given.
    /// Reports progress (rows done / total) through the migrator's progress callback.
    ///
    /// ```swift
    /// try context.forEach("Trip", properties: ["name", "budget"]) { trip in
    ///     let label = "\(try trip.value("name", as: String.self)) / \(try trip.value("budget", as: Int?.self) ?? 0)"
    ///     try context.update("Trip", id: trip.id, values: ["label": label])
    /// }
    /// ```
    /// - Parameters:
    ///   - properties: the properties to read (`id` always is); nil for all of them. Naming the few
    ///     a loop uses makes each row cheaper to read on a wide table.
    /// - Complexity: O(rows); memory O(batchSize).
    public func forEach(_ entity: String, where filter: String? = nil, arguments: [SQLiteValue] = [], properties: [String]? = nil, batchSize: Int = 1000,
                        _ body: (MigrationRow) throws -> Void) throws {
        let table = try entityTable(entity)
        let addressing = RowAddressing(table)
        let quotedTable = SQL.quoteIdentifier(table.name), id = try addressing.requireID(entity: table.name, call: "forEach", version: schema.version)
        let condition = filter.map { "(\($0)) AND " } ?? ""
        // The total is only for progress reports: without a callback, no count(*).
        let total = progress == nil ? 0 : try count(entity, where: filter, arguments: arguments)
        let select = "SELECT \(try selectList(properties, of: table, addressing: addressing)) FROM \(quotedTable) WHERE "
        let limit = " ORDER BY \(id) LIMIT \(max(1, batchSize))"
        // The first batch has no lower bound (an id may be Int64.min); the next ones start after the last id.
        let first = try db.prepareStatement(select + (filter.map { "(\($0))" } ?? "1") + limit)
        let next = try db.prepareStatement(select + "\(condition)\(id) > ?" + limit)
        var columns: RowColumns?  // read from the first row: a statement over the wire has its columns once it ran
        var lastID: Int64?
        var done = 0
        var batch: [MigrationRow] = []
        batch.reserveCapacity(batchSize)
        while true {
            let statement = lastID == nil ? first : next
            statement.reset()
            try statement.bind(arguments + (lastID.map { [.integer($0)] } ?? []))
            batch.removeAll(keepingCapacity: true)
            while try statement.step() {
                let named = columns ?? Self.columns(of: statement, partial: properties != nil, addressing: addressing, table: table)
                columns = named
                batch.append(row(from: statement, entity: table.name, columns: named, addressing: addressing))
            }
            statement.reset()  // release the read cursor before body writes
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

    /// `id` and the properties asked for, quoted, each under its property's name; `*` for every
    /// property when columns and properties are named alike.
    /// - Throws: `MigrationError` naming a property the entity does not have.
    private func selectList(_ properties: [String]?, of table: Schema.Entity, addressing: RowAddressing) throws -> String {
        try RowAddressing.selectList(properties, of: table, addressing: addressing) { noSuchProperty($0, of: table) }
    }

    private static func columns(of statement: any PreparedStatement, partial: Bool, addressing: RowAddressing, table: Schema.Entity) -> RowColumns {
        let first = addressing.selectsRowid ? 1 : 0
        let dates = table.attributes.compactMap { attribute in attribute.dateStorage.map { (attribute.property, $0) } }
        return RowColumns(names: (first..<statement.columnCount).map(statement.columnName), isPartial: partial,
                          dateStorage: Dictionary(dates, uniquingKeysWith: { first, _ in first }))
    }

    private func row(from statement: any PreparedStatement, entity: String, columns: RowColumns, addressing: RowAddressing) -> MigrationRow {
        if addressing.selectsRowid {
            let storage = (0..<columns.names.count).map { statement.column($0 + 1) }
            return MigrationRow(entity: entity, id: statement.column(0).int64Value ?? 0, columns: columns, storage: storage)
        }
        let storage = (0..<columns.names.count).map(statement.column)
        let id = addressing.idExpression == nil ? 0 : columns.position(of: Schema.primaryKeyColumn).flatMap { storage[$0].int64Value } ?? 0
        return MigrationRow(entity: entity, id: id, columns: columns, storage: storage)
    }

    /// The error for a property name `table` does not declare at this stage's version.
    func noSuchProperty(_ name: String, of table: Schema.Entity) -> MigrationError {
        MigrationError(.invalidSchema, "'\(table.name)' has no property '\(name)' at version \(schema.version)",
                       entity: table.name, property: name, version: schema.version,
                       remedy: "use one of: " + table.attributes.map(\.property).joined(separator: ", "))
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
