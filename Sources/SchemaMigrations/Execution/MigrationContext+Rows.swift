extension MigrationContext {
    /// Rows of an entity, optionally filtered and sorted.
    ///
    /// ```swift
    /// let paris = try context.fetch("Trip", where: "destination = ?", arguments: [.text("Paris")], orderBy: "startDate DESC")
    /// ```
    /// - Parameters:
    ///   - entity: the entity's name in this closure's version (its table's name).
    ///   - filter: one SQL expression over the table's column names, with a `?` for each of
    ///     `arguments`; nil for every row.
    ///   - arguments: the values of the filter's and ordering's `?` placeholders, in order: as
    ///     many as there are placeholders.
    ///   - orderBy: what follows `ORDER BY`, over column names (`"name COLLATE NOCASE, startDate DESC"`);
    ///     nil for the key's order (`id`).
    ///   - limit: the most rows to return, 0 or more; nil for all.
    ///   - properties: the properties to read (`id` always is; each is read once however often
    ///     named); nil for all of them.
    /// - Throws: `MigrationError`: `invalidArgument` for an empty filter or ordering, one that is
    ///   not one expression (or ordering list), one SQLite cannot compile, arguments that do not
    ///   match the placeholders, or a negative limit; `invalidSchema` for an entity or property
    ///   the version does not declare.
    /// - Complexity: loads every matching row; use ``forEach(_:where:arguments:properties:batchSize:_:)`` for large tables.
    public func fetch(
        _ entity: String, where filter: String? = nil, arguments: [SQLiteValue] = [], orderBy: String? = nil,
        limit: Int? = nil,
        properties: [String]? = nil
    ) throws -> [MigrationRow] {
        let table = try entityTable(entity)
        let addressing = RowAddressing(table)
        let condition = try filterClause(filter, call: "fetch", entity: table.name)
        let order = try orderingClause(orderBy, call: "fetch", entity: table.name) ?? addressing.order
        if let limit, limit < 0 {
            throw Self.invalidArgument(
                "fetch", table.name, "was given limit \(limit): a limit is 0 or more",
                remedy: "pass 0 or more, or leave `limit:` out for every row")
        }
        var sql =
            "SELECT \(try selectList(properties, of: table, addressing: addressing)) FROM \(SQL.quoteIdentifier(table.name))"
        if let condition { sql += " WHERE \(condition)" }
        sql += " ORDER BY \(order)"
        if let limit { sql += " LIMIT \(limit)" }
        let statement = try preparing(sql, call: "fetch", entity: table.name)
        try bind(arguments, to: statement, call: "fetch", entity: table.name)
        var rows: [MigrationRow] = []
        var columns: RowColumns?  // read from the first row: a statement over the wire has its columns once it ran
        var values: [SQLiteValue] = []
        while try statement.step() {
            let named =
                columns ?? Self.columns(of: statement, partial: properties != nil, addressing: addressing, table: table)
            columns = named
            // Each row its own values: a row kept keeps only them.
            values.removeAll(keepingCapacity: true)
            let id = Self.read(statement, columns: named, addressing: addressing, into: &values)
            rows.append(MigrationRow(entity: table.name, id: id, columns: named, storage: .own(values)))
        }
        return rows
    }

    /// Calls `body` with every matching row, reading `batchSize` rows at a time in `id` order, so
    /// memory stays flat however large the table. `body` may insert, update or delete rows.
    /// Reports progress (rows done / total) through the migrator's progress callback.
    ///
    /// ```swift
    /// try context.forEach("Trip", properties: ["name", "budget"]) { trip in
    ///     let label = "\(try trip.value("name", as: String.self)) / \(try trip.value("budget", as: Int?.self) ?? 0)"
    ///     try context.update("Trip", id: trip.id, values: ["label": label])
    /// }
    /// ```
    ///
    /// Which rows it visits: those whose `id` is at most the greatest `id` the table held when
    /// `forEach` started, that match `filter` when their batch is read, in `id` order, each `id`
    /// once. So rows the body inserts are not visited (SQLite gives a new row an `id` above every
    /// other), unless the body chooses an `id` below that greatest one itself, or the table holds
    /// `Int64.max` (SQLite then picks unused ids at random); a row the body deletes or changes
    /// before its batch is read is seen as it is then, or not at all; a row whose `id` the body
    /// changes to one not reached yet is visited again.
    ///
    /// - Parameters:
    ///   - entity: the entity's name in this closure's version (its table's name).
    ///   - filter: one SQL expression over the table's column names, with a `?` for each of
    ///     `arguments`; nil for every row.
    ///   - arguments: the values of the filter's `?` placeholders, in order.
    ///   - properties: the properties to read (`id` always is); nil for all of them. Naming the few
    ///     a loop uses makes each row cheaper to read on a wide table.
    ///   - batchSize: how many rows to read at a time, 1 or more; above ``maximumBatchSize`` it
    ///     reads that many.
    ///   - body: called with each row, in the order of `id`.
    /// - Throws: `MigrationError`: `invalidArgument` for a batch size below 1, or a filter or
    ///   arguments ``fetch(_:where:arguments:orderBy:limit:properties:)`` refuses;
    ///   `unsupportedChange` for a WITHOUT ROWID table (its rows have no `id`); whatever `body` throws.
    /// - Complexity: O(rows); memory O(batchSize).
    public func forEach(
        _ entity: String, where filter: String? = nil, arguments: [SQLiteValue] = [], properties: [String]? = nil,
        batchSize: Int = 1000,
        _ body: (MigrationRow) throws -> Void
    ) throws {
        let table = try entityTable(entity)
        guard batchSize >= 1 else {
            throw Self.invalidArgument(
                "forEach", table.name, "was given batchSize \(batchSize): a batch holds at least 1 row",
                remedy:
                    "pass 1 or more (at most \(Self.maximumBatchSize) rows are held at once), or leave `batchSize:` out"
            )
        }
        let batchSize = min(batchSize, Self.maximumBatchSize)
        let addressing = RowAddressing(table)
        let quotedTable = SQL.quoteIdentifier(table.name)
        let id = try addressing.requireID(entity: table.name, call: "forEach", version: schema.version)
        let condition = try filterClause(filter, call: "forEach", entity: table.name).map { "\($0) AND " } ?? ""
        let select =
            "SELECT \(try selectList(properties, of: table, addressing: addressing)) FROM \(quotedTable) WHERE \(condition)"
        let limit = " ORDER BY \(id) LIMIT \(batchSize)"
        // The bounds come last, so the filter's placeholders are the first parameters. The first
        // batch has no lower bound (an id may be Int64.min); the next ones start after the last id.
        let first = try preparing(select + "\(id) <= ?" + limit, call: "forEach", entity: table.name)
        let next = try preparing(select + "\(id) > ? AND \(id) <= ?" + limit, call: "forEach", entity: table.name)
        try bind(arguments, bounds: [.integer(0)], to: first, call: "forEach", entity: table.name)
        first.reset()
        // The rows that exist now end at the greatest id: what the body inserts comes after it.
        guard let greatest = try db.scalar("SELECT max(\(id)) FROM \(quotedTable)")?.int64Value else { return }
        // The total is only for progress reports: without a callback, no count(*).
        let total = progress == nil ? 0 : try count(entity, where: filter, arguments: arguments)
        var columns: RowColumns?  // read from the first row: a statement over the wire has its columns once it ran
        var lastID: Int64?
        var done = 0
        // The batch: its rows' ids, and their values row after row, which its rows share. Once the
        // body keeps a row beyond its call, each row gets values of its own: a row kept holds its
        // own values only, and at most one batch is held for the rows kept before that was known.
        var ids: [Int64] = []
        var values: [SQLiteValue] = []
        var bodyKeepsRows = false
        ids.reserveCapacity(batchSize)
        while true {
            let statement = lastID == nil ? first : next
            statement.reset()
            try bind(
                arguments, bounds: (lastID.map { [.integer($0)] } ?? []) + [.integer(greatest)], to: statement,
                call: "forEach", entity: table.name)
            ids.removeAll(keepingCapacity: true)
            values.removeAll(keepingCapacity: true)
            while try statement.step() {
                let named =
                    columns
                    ?? Self.columns(of: statement, partial: properties != nil, addressing: addressing, table: table)
                columns = named
                ids.append(Self.read(statement, columns: named, addressing: addressing, into: &values))
            }
            statement.reset()  // release the read cursor before body writes
            guard let last = ids.last, let columns else { break }
            let width = columns.names.count
            if bodyKeepsRows {
                for (index, id) in ids.enumerated() {
                    let own = Array(values[index * width..<(index + 1) * width])
                    try body(MigrationRow(entity: table.name, id: id, columns: columns, storage: .own(own)))
                }
            } else {
                var shared = RowBatchValues(values)
                for (index, id) in ids.enumerated() {
                    try body(
                        MigrationRow(
                            entity: table.name, id: id, columns: columns, storage: .batch(shared, start: index * width))
                    )
                }
                bodyKeepsRows = !isKnownUniquelyReferenced(&shared)
            }
            done += ids.count
            progress?(
                MigrationProgress(
                    from: stage.from, to: stage.to, summary: "\(entity): \(done) / \(total) rows", rowsDone: done,
                    rowsTotal: total))
            guard last < greatest else { break }
            lastID = last
        }
    }

    /// The number of rows of an entity, optionally filtered.
    /// - Throws: `MigrationError` for a filter or arguments ``fetch(_:where:arguments:orderBy:limit:properties:)`` refuses.
    public func count(_ entity: String, where filter: String? = nil, arguments: [SQLiteValue] = []) throws -> Int {
        let table = try entityTable(entity)
        let condition = try filterClause(filter, call: "count", entity: table.name)
        let statement = try preparing(
            "SELECT count(*) FROM \(SQL.quoteIdentifier(table.name))" + (condition.map { " WHERE \($0)" } ?? ""),
            call: "count", entity: table.name)
        try bind(arguments, to: statement, call: "count", entity: table.name)
        return try statement.step() ? Int(statement.column(0).int64Value ?? 0) : 0
    }

    /// `id` and the properties asked for, quoted, each under its property's name; `*` for every
    /// property when columns and properties are named alike.
    /// - Throws: `MigrationError` naming a property the entity does not have.
    private func selectList(_ properties: [String]?, of table: Schema.Entity, addressing: RowAddressing) throws
        -> String
    {
        try RowAddressing.selectList(properties, of: table, addressing: addressing) { noSuchProperty($0, of: table) }
    }

    private static func columns(
        of statement: any PreparedStatement, partial: Bool, addressing: RowAddressing, table: Schema.Entity
    ) -> RowColumns {
        let first = addressing.selectsRowid ? 1 : 0
        let dates = table.attributes.compactMap { attribute in attribute.dateStorage.map { (attribute.property, $0) } }
        return RowColumns(
            names: (first..<statement.columnCount).map(statement.columnName), isPartial: partial,
            dateStorage: Dictionary(dates, uniquingKeysWith: { first, _ in first }))
    }

    /// Appends the current row's values to `values`, in column order.
    /// - Returns: the row's id (0 for a WITHOUT ROWID table).
    private static func read(
        _ statement: any PreparedStatement, columns: RowColumns, addressing: RowAddressing,
        into values: inout [SQLiteValue]
    ) -> Int64 {
        let start = values.count
        let first = addressing.selectsRowid ? 1 : 0  // the rowid, when selected, comes first
        for position in 0..<columns.names.count { values.append(statement.column(first + position)) }
        if addressing.selectsRowid { return statement.column(0).int64Value ?? 0 }
        guard addressing.idExpression != nil, let id = columns.position(of: Schema.primaryKeyColumn) else { return 0 }
        return values[start + id].int64Value ?? 0
    }

    /// The error for a property name `table` does not declare at this stage's version.
    func noSuchProperty(_ name: String, of table: Schema.Entity) -> MigrationError {
        MigrationError(
            .invalidSchema, "'\(table.name)' has no property '\(name)' at version \(schema.version)",
            entity: table.name, property: name, version: schema.version,
            remedy: (Suggestion.remedy(for: name, among: table.attributes.map(\.property)).map { $0 + " " } ?? "")
                + "use one of: " + table.attributes.map(\.property).joined(separator: ", "))
    }

    /// The entity's declaration at this stage's version.
    /// - Throws: `MigrationError` naming an entity the version does not declare.
    func entityTable(_ entity: String) throws -> Schema.Entity {
        if let last = lastEntity, last.name == entity { return last }
        if let table = entitiesByName[entity] {
            lastEntity = table
            return table
        }
        guard let table = schema.entity(named: entity), !table.isJoinTable else {
            let names = schema.entities.filter { !$0.isJoinTable }.map(\.name)
            throw MigrationError(
                .invalidSchema, "version \(schema.version) has no entity '\(entity)'",
                entity: entity, version: schema.version,
                remedy: (Suggestion.remedy(for: entity, among: names).map { $0 + " " } ?? "")
                    + "use one of: " + names.joined(separator: ", "))
        }
        entitiesByName[entity] = table
        return table
    }
}
