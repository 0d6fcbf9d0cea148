#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A live table as an entity, with every option the declaration API has: its own key (any
/// type, composite, `AUTOINCREMENT`, `WITHOUT ROWID`), `STRICT`, column names other than the
/// property's, SQL type texts, date storage, CHECKs, collations, default expressions and
/// foreign keys onto any key column.
extension IntrospectionReader {
    /// The entity a table declares as, or nil with the reasons in `blocking`.
    func entity(for table: LiveSchema.Table, blocking: inout [String], kept: inout [String]) throws -> Schema.Entity? {
        guard let definition = definitions[table.name.sqlFolded] else {
            blocking.append("its CREATE TABLE statement could not be read")
            return nil
        }
        let keyColumns = table.columns.filter { $0.primaryKeyPosition > 0 }.sorted {
            $0.primaryKeyPosition < $1.primaryKeyPosition
        }
        let implicitID = implicitIDTables.contains(table.name.sqlFolded)
        let hasRowidAlias = table.hasRowidAlias(definition: definition)
        // Key columns written DESC (`INTEGER PRIMARY KEY DESC`, no alias of the rowid, among them).
        let descending = definition.descendingKeyColumns

        let profiles = try valueProfiles(of: table, strict: definition.strict)
        let samples = try storageClasses(of: table)
        let columnDefinitions = Dictionary(
            definition.columns.map { ($0.name.sqlFolded, $0) }, uniquingKeysWith: { first, _ in first })
        var attributes: [Schema.Attribute] = []
        for column in table.columns where !(implicitID && column.primaryKeyPosition > 0) {
            if column.hidden != 0 && !Self.isGenerated(column) {
                noteHidden(column, kept: &kept)
                continue
            }
            if let attribute = attribute(
                for: column, in: table, definition: definition,
                columnDefinition: columnDefinitions[column.name.sqlFolded],
                hasRowidAlias: hasRowidAlias, profile: profiles[column.name.sqlFolded],
                sample: samples[column.name.sqlFolded],
                blocking: &blocking, kept: &kept)
            {
                var declared = Self.declaringGenerated(attribute, column: column, definition: definition)
                if descending.contains(column.name.sqlFolded) { declared.options.append("descending") }
                attributes.append(declared)
            }
        }
        if attributes.isEmpty && blocking.isEmpty {
            blocking.append("it has no column: a declared entity needs at least one attribute")
        }
        let constraints = Self.constraints(of: definition, kept: &kept)
        let indexes = try self.indexes(
            of: table, definition: definition, declaredUnique: constraints, blocking: &blocking, kept: &kept)
        guard blocking.isEmpty else { return nil }
        Self.nameProperties(&attributes, implicitID: implicitID)
        return Schema.Entity(
            name: table.name, attributes: attributes, indexes: indexes,
            primaryKey: implicitID ? nil : keyColumns.map(\.name),
            isAutoincrement: !implicitID && definition.hasAutoincrement,
            isWithoutRowID: definition.withoutRowid, isStrict: definition.strict, constraints: constraints,
            primaryKeyOnConflict: definition.keyConflict)
    }

    /// The table's constraints a declaration says as ``Schema/TableConstraint``s: its table
    /// CHECKs, UNIQUE constraints (on a column or the table: SQLite's own index, origin `u`) and
    /// foreign keys over several columns, or over one column written without the referenced
    /// column (`REFERENCES blob`: the parent's key, which `PRAGMA foreign_key_list` reports as no
    /// column, unlike `REFERENCES blob (rid)`); a column's CHECK that is named or not its first. A
    /// column's first unnamed CHECK is its attribute's `check:`, another one-column foreign key
    /// its attribute's `references:`. A clause none of these can say is listed.
    static func constraints(of definition: TableDefinition, kept: inout [String]) -> [Schema.TableConstraint] {
        var result: [Schema.TableConstraint] = []
        for column in definition.columns {
            // A DEFERRABLE right after REFERENCES is part of its text (the parser reads it so).
            for reference in column.constraints {
                guard case .references = reference.kind,
                    let key = TableDefinition.tableConstraint(of: reference, on: column.name),
                    case .foreignKey(let clause) = key.kind, clause.referencedColumns == nil
                else { continue }
                result.append(key)
            }
            let checks = column.constraints.filter { $0.kind == .check }
            for (position, check) in checks.enumerated() {
                guard let constraint = Schema.TableConstraint(parsing: check.text) else { continue }
                if position > 0 || constraint.name != nil { result.append(constraint) }
            }
            for unique in column.constraints where unique.kind == .unique {
                if let constraint = TableDefinition.tableConstraint(of: unique, on: column.name) {
                    result.append(constraint)
                }
            }
        }
        for constraint in definition.constraints {
            switch constraint.kind {
            case .check, .unique, .foreignKey:
                let declared = Schema.TableConstraint(parsing: constraint.text)
                if case .foreignKey = constraint.kind, constraint.columns.count == 1,
                    case .foreignKey(let clause)? = declared?.kind, clause.referencedColumns != nil
                {
                    continue
                }
                if let declared {
                    result.append(declared)
                } else if constraint.kind != .unique {
                    kept.append("table constraint \(constraint.text), which a declaration cannot say")
                }
            case .primaryKey, .name:
                continue
            }
        }
        return result
    }

    /// Whether a table is declared with the default key: exactly `"id" INTEGER PRIMARY KEY`, an
    /// alias of the rowid, without `AUTOINCREMENT`, and with some other column to declare. Any
    /// other key (`AlbumId`, `Id`, a TEXT or composite key, `AUTOINCREMENT`) is declared as the
    /// table's own, on its columns.
    static func declaresImplicitID(_ table: LiveSchema.Table, definition: TableDefinition) -> Bool {
        let keys = table.columns.filter { $0.primaryKeyPosition > 0 }
        guard keys.count == 1, keys[0].name == Schema.primaryKeyColumn, keys[0].declaredType.uppercased() == "INTEGER",
            !definition.withoutRowid, !definition.hasAutoincrement,
            table.columns.contains(where: { $0.primaryKeyPosition == 0 && $0.hidden == 0 })
        else { return false }
        return table.hasRowidAlias(definition: definition)
    }

    /// One column as an attribute: its Swift type (from the declared type and the values), SQL
    /// type text, nullability, default, CHECK, collation and foreign key.
    private func attribute(
        for column: LiveSchema.Column, in table: LiveSchema.Table, definition: TableDefinition,
        columnDefinition: TableDefinition.Column?,
        hasRowidAlias: Bool, profile: ValueProfile?, sample: StorageClasses?, blocking: inout [String],
        kept: inout [String]
    ) -> Schema.Attribute? {
        var defaultValue = column.defaultValue
        if let value = defaultValue {
            if column.notNull && value.uppercased() == "NULL" {
                kept.append("column \(column.name) is NOT NULL with the default NULL, which a declaration cannot say")
                defaultValue = nil
            } else if let literal = SQLExpressionText.legacyStringDefault(value) {
                // `DEFAULT ""`: SQLite's legacy spelling of the string literal `''`.
                defaultValue = literal
            } else if !SQLLiteral.isLiteral(value) && !SQLExpressionText.isParenthesized(value) {
                // `PRAGMA table_info` drops the parentheses of `DEFAULT (1 + 1)`: a declaration writes them.
                if SQLExpressionText.isParenthesized("(\(value))") {
                    defaultValue = "(\(value))"
                } else {
                    kept.append("column \(column.name) has the default \(value), which a declaration cannot say")
                    defaultValue = nil
                }
            }
        }
        guard
            let type = ColumnTypeInference(
                column: column, profile: profile, defaultValue: defaultValue, isStrict: definition.strict,
                sample: sample
            )
            .inferred(blocking: &blocking, kept: &kept)
        else {
            return nil
        }
        // SQLite allows NULL in a key column of a rowid table, except the rowid itself: such a key
        // property is declared optional.
        let keyNeverNull = column.primaryKeyPosition > 0 && (definition.withoutRowid || hasRowidAlias)
        let isOptional = !(column.notNull || keyNeverNull)
        var check: String?
        var collation: String?
        for constraint in columnDefinition?.constraints ?? [] {
            switch constraint.kind {
            case .check:
                guard constraint == columnDefinition?.constraints.first(where: { $0.kind == .check }),
                    let expression = SQLExpressionText.checkExpression(of: constraint.text)
                else { continue }
                // A named CHECK, or a second one, is a table constraint (``constraints(of:kept:)``).
                if check == nil && !constraint.text.uppercased().hasPrefix("CONSTRAINT") {
                    check = expression
                }
            case .collate(let name):
                collation = name.uppercased() == "BINARY" ? nil : name
            default:
                break
            }
        }
        let blocked = blocking.count
        let references = foreignKey(of: column, in: table, definition: definition, blocking: &blocking, kept: &kept)
        guard blocking.count == blocked else { return nil }
        return Schema.Attribute(
            name: column.name, valueType: type.valueType, isOptional: isOptional, defaultValue: defaultValue,
            references: references, sqlType: type.sqlType, dateStorage: type.dateStorage,
            check: check, collation: collation,
            notNullOnConflict: isOptional ? nil : definition.notNullConflict(of: column.name))
    }

    /// The column's foreign key, nil when it has none or (saying why in `blocking`) when it cannot be declared.
    private func foreignKey(
        of column: LiveSchema.Column, in table: LiveSchema.Table, definition: TableDefinition,
        blocking: inout [String], kept: inout [String]
    ) -> Schema.ForeignKey? {
        let keys = table.foreignKeys.filter { $0.from.count == 1 && $0.from[0].sqlFolded == column.name.sqlFolded }
        guard let key = keys.first else { return nil }
        guard keys.count == 1 else {
            blocking.append("column \(column.name) has \(keys.count) foreign keys: a declared column has one")
            return nil
        }
        guard let target = tablesByName[key.table.sqlFolded] else {
            blocking.append("column \(column.name) REFERENCES \(key.table), which is not a table of the file")
            return nil
        }
        // No column list means the parent's primary key.
        let targetKey = target.columns.filter { $0.primaryKeyPosition > 0 }.sorted {
            $0.primaryKeyPosition < $1.primaryKeyPosition
        }
        let referenced: String
        if let to = key.to[0] {
            referenced = target.column(named: to)?.name ?? to
        } else if targetKey.count == 1 {
            // Written without the column: declared as a table constraint (``constraints(of:kept:)``).
            return nil
        } else {
            blocking.append(
                "column \(column.name) REFERENCES \(target.name) without a column, whose key is (\(targetKey.map(\.name).joined(separator: ", "))): a declared foreign key names one column"
            )
            return nil
        }
        let ontoImplicitID = implicitIDTables.contains(target.name.sqlFolded) && referenced == Schema.primaryKeyColumn
        let deferred = SchemaComparison.isDeferred(column: column.name, in: definition)
        let text =
            definition.column(named: column.name)?.constraints.first(where: {
                if case .references = $0.kind { return true } else { return false }
            })?.text
            ?? definition.constraints.first(where: {
                if case .foreignKey = $0.kind, $0.columns == [column.name.sqlFolded] {
                    return true
                } else {
                    return false
                }
            })?.text
        if let text {
            let words = text.uppercased()
            if words.contains("MATCH") || (words.contains("DEFERRABLE") && !deferred) {
                kept.append("column \(column.name): \(text)")
            }
        }
        let onUpdate = key.onUpdate.uppercased()
        return Schema.ForeignKey(
            table: target.name, onDelete: key.onDelete.uppercased(), column: ontoImplicitID ? nil : referenced,
            onUpdate: onUpdate == "NO ACTION" ? nil : onUpdate, isDeferred: deferred ? true : nil)
    }

    /// Gives each attribute an idiomatic Swift property name (``SwiftNames``), recorded as
    /// ``Schema/Attribute/propertyName`` where it differs from the column's. Names already
    /// idiomatic are kept first; a clash gets `2`, `3`…; `id` is left to the default key.
    static func nameProperties(_ attributes: inout [Schema.Attribute], implicitID: Bool) {
        var taken: Set<String> = implicitID ? [Schema.primaryKeyColumn] : []
        let wanted = attributes.map { SwiftNames.propertyName(forColumn: $0.name) }
        var names = [String?](repeating: nil, count: attributes.count)
        for (index, attribute) in attributes.enumerated()
        where wanted[index] == attribute.name && !taken.contains(attribute.name) {
            names[index] = attribute.name
            taken.insert(attribute.name)
        }
        for index in attributes.indices where names[index] == nil {
            names[index] = SwiftNames.unique(wanted[index], taken: &taken)
        }
        for index in attributes.indices {
            attributes[index].propertyName = names[index] == attributes[index].name ? nil : names[index]
        }
    }

    /// The values of the columns whose Swift type depends on them (date and NUMERIC-affinity
    /// columns, and a STRICT table's `ANY` ones), read in as few passes over the table as
    /// SQLite's limit on a result's columns allows (a pass reads up to 100 columns' worth);
    /// empty when it has none.
    private func valueProfiles(of table: LiveSchema.Table, strict: Bool) throws -> [String: ValueProfile] {
        let profiled = table.columns.filter {
            $0.hidden == 0 && (ColumnTypeInference.needsValues($0) || (strict && ColumnTypeInference.isAny($0)))
        }
        guard !profiled.isEmpty else { return [:] }
        var result: [String: ValueProfile] = [:]
        for start in stride(from: 0, to: profiled.count, by: 100) {
            let chunk = profiled[start..<min(start + 100, profiled.count)]
            guard
                let row = try db.rows(
                    "SELECT \(chunk.map(Self.profileExpressions).joined(separator: ", ")) FROM \(SQL.quoteIdentifier(table.name))"
                ).first
            else { continue }
            var base = 0
            for column in chunk {
                let value = { (offset: Int) in row[base + offset] }
                let texts = Int(value(0).int64Value ?? 0)
                if ColumnTypeInference.isDateName(column.declaredType) {
                    result[column.name.sqlFolded] = ValueProfile(
                        texts: texts, numbers: Int(value(1).int64Value ?? 0), smallest: value(2).doubleValue,
                        largest: value(3).doubleValue, textsNotDates: Int(value(4).int64Value ?? 0))
                    base += 5
                } else if ColumnTypeInference.isAny(column) {
                    result[column.name.sqlFolded] = ValueProfile(
                        texts: texts, numbers: Int(value(1).int64Value ?? 0) + Int(value(2).int64Value ?? 0),
                        smallest: nil, largest: nil, textsNotDates: 0,
                        reals: Int(value(2).int64Value ?? 0), blobs: Int(value(3).int64Value ?? 0))
                    base += 4
                } else {
                    result[column.name.sqlFolded] = ValueProfile(
                        texts: texts, numbers: 0, smallest: nil, largest: nil, textsNotDates: 0)
                    base += 1
                }
            }
        }
        return result
    }

    /// What one column's profile selects: a date column needs the kinds and range of its values;
    /// an `ANY` one how many of each storage class; another NUMERIC one whether it holds text.
    private static func profileExpressions(_ column: LiveSchema.Column) -> String {
        let c = SQL.quoteIdentifier(column.name)
        let numbers = "IN ('integer', 'real')"
        if ColumnTypeInference.isDateName(column.declaredType) {
            return
                "sum(typeof(\(c)) = 'text'), sum(typeof(\(c)) \(numbers)), min(CASE WHEN typeof(\(c)) \(numbers) THEN \(c) END), "
                + "max(CASE WHEN typeof(\(c)) \(numbers) THEN \(c) END), "
                + "sum(typeof(\(c)) = 'text' AND \(c) NOT GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]*')"
        }
        if ColumnTypeInference.isAny(column) {
            return
                "sum(typeof(\(c)) = 'text'), sum(typeof(\(c)) = 'integer'), sum(typeof(\(c)) = 'real'), sum(typeof(\(c)) = 'blob')"
        }
        return "sum(typeof(\(c)) = 'text')"
    }
}

extension IntrospectionReader {
    /// The storage classes each column holds in the table's first
    /// ``ColumnTypeInference/sampledRows`` rows, read in passes of at most 100 columns.
    func storageClasses(of table: LiveSchema.Table) throws -> [String: StorageClasses] {
        let columns = table.columns.filter { $0.hidden == 0 }
        guard !columns.isEmpty else { return [:] }
        var result: [String: StorageClasses] = [:]
        for start in stride(from: 0, to: columns.count, by: 100) {
            let chunk = columns[start..<min(start + 100, columns.count)]
            let selected = chunk.map { SQL.quoteIdentifier($0.name) }.joined(separator: ", ")
            let counts = chunk.map { column -> String in
                let c = SQL.quoteIdentifier(column.name)
                return ["text", "integer", "real", "blob"].map { "sum(typeof(\(c)) = '\($0)')" }.joined(separator: ", ")
            }.joined(separator: ", ")
            guard
                let row = try db.rows(
                    "SELECT \(counts) FROM (SELECT \(selected) FROM \(SQL.quoteIdentifier(table.name)) LIMIT \(ColumnTypeInference.sampledRows))"
                ).first
            else { continue }
            for (offset, column) in chunk.enumerated() {
                let count = { (index: Int) in Int(row[offset * 4 + index].int64Value ?? 0) }
                result[column.name.sqlFolded] = StorageClasses(
                    texts: count(0), integers: count(1), reals: count(2), blobs: count(3))
            }
        }
        return result
    }
}

/// How many values of each storage class a column holds, in a bounded sample of its rows.
struct StorageClasses: Sendable, Hashable {
    var texts = 0, integers = 0, reals = 0, blobs = 0

    /// `text (2), blob (3)`.
    var description: String {
        [(texts, "text"), (integers, "integer"), (reals, "real"), (blobs, "blob")].filter { $0.0 > 0 }.map {
            "\($0.1) (\($0.0))"
        }.joined(separator: ", ")
    }
}

/// What a column's stored values are, for the columns whose Swift type depends on them.
struct ValueProfile: Sendable, Hashable {
    /// How many values are TEXT.
    var texts: Int
    /// How many values are INTEGER or REAL.
    var numbers: Int
    /// The smallest and largest number stored, if any.
    var smallest: Double?
    var largest: Double?
    /// How many TEXT values do not start `YYYY-MM-DD`.
    var textsNotDates: Int
    /// Of a STRICT table's `ANY` column: how many of the numbers are REAL, and how many values are BLOBs.
    var reals = 0
    var blobs = 0
}
