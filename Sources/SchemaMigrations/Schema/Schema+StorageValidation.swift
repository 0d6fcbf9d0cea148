#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Schema {
    /// The affinities a column declared with an explicit SQL type may have for each kind of value:
    /// those that store the values as they are given. (A NUMERIC column turns the text `'1.50'`
    /// into a number, so it cannot hold `String` or `Decimal` values unchanged.)
    static func acceptedAffinities(for valueType: ValueType) -> Set<StorageType> {
        switch valueType {
        case .integer, .bool: return [.integer, .numeric]
        case .double, .date: return [.real, .numeric]
        case .string, .uuid, .url, .decimal, .json: return [.text]
        // Blobs are stored as given whatever the affinity (a geometry in a column declared POINT),
        // and an SQLiteValue is whatever SQLite stored.
        case .data, .sqliteValue: return [.blob, .integer, .real, .text, .numeric]
        }
    }

    /// Checks what an entity declares about its columns and key: SQL types that agree with the
    /// values, a key over non-optional attributes, foreign keys onto a declared entity's key.
    func validateStorage(of entity: Entity) throws {
        func fail(_ message: String, property: String? = nil, remedy: String) -> MigrationError {
            MigrationError(
                .invalidSchema, message, entity: entity.name, property: property, version: version, remedy: remedy)
        }
        for attribute in entity.attributes {
            let label = "'\(entity.name).\(attribute.property)'"
            if let sqlType = attribute.sqlType {
                // A type name is words, then at most one parenthesised pair of numbers: `NUMERIC(10, 2)`.
                let tokens = (try? SQLTokenizer(sqlType).tokens()) ?? []
                // Empty: no declared type at all (BLOB affinity), as `CREATE TABLE t (notes)` writes it.
                let isTypeName =
                    sqlType.isEmpty
                    || tokens.first?.kind == .word
                        && tokens.allSatisfy { token in
                            [.word, .number, .leftParenthesis, .rightParenthesis, .comma].contains(token.kind)
                                || (token.kind == .symbol
                                    && ["+", "-"].contains(SQLTokenizer(sqlType).text(of: token)))
                        }
                guard isTypeName else {
                    throw fail(
                        "the SQL type of \(label) is not a type name: \(sqlType)", property: attribute.property,
                        remedy: "write a type name such as INTEGER, TEXT, NVARCHAR(160), NUMERIC(10,2) or DATETIME")
                }
                let accepted =
                    attribute.dateStorage.map { $0 == .iso8601Text ? [.text, .numeric] : [.real, .numeric] }
                    ?? Schema.acceptedAffinities(for: attribute.valueType)
                // A STRICT table's ANY column keeps every value as given: no affinity to change them.
                guard accepted.contains(attribute.affinity) || (entity.isStrict && sqlType.uppercased() == "ANY") else {
                    throw fail(
                        "\(label) holds \(attribute.valueType.rawValue) values but is declared \(sqlType), whose affinity is \(attribute.affinity.rawValue): SQLite would change the values it stores",
                        property: attribute.property,
                        remedy:
                            "declare a type of \(accepted.map(\.rawValue).sorted().joined(separator: " or ")) affinity, or change the property's Swift type"
                    )
                }
            }
            if let check = attribute.check, !SQLExpressionText.isOneExpression(check) {
                throw fail(
                    "the CHECK of \(label) is not one SQL expression: \(check)", property: attribute.property,
                    remedy:
                        "write one expression over the table's columns, with balanced parentheses and no ';', such as length(name) > 0"
                )
            }
            if let collation = attribute.collation, (try? SQLTokenizer(collation).tokens())?.map(\.kind) != [.word] {
                throw fail(
                    "the collation of \(label) is not a collation name: \(collation)", property: attribute.property,
                    remedy: "name one: NOCASE, RTRIM, BINARY, or one the app registers")
            }
            if let storage = attribute.dateStorage, attribute.valueType != .date {
                throw fail(
                    "\(label) holds \(attribute.valueType.rawValue) values, but declares the date storage \(storage.rawValue)",
                    property: attribute.property,
                    remedy: "use dateStorage only on a Date property")
            }
            if let key = attribute.references {
                guard let target = self.entity(named: key.table) else {
                    throw fail(
                        "\(label) references '\(key.table)', which version \(version) does not declare",
                        property: attribute.property,
                        remedy: "add \(key.table) to the version's models, or correct the reference")
                }
                guard
                    target.keyColumns.contains(key.referencedColumn)
                        || target.uniqueness.contains(where: { $0.columns == [key.referencedColumn] })
                else {
                    throw fail(
                        "\(label) references '\(key.table).\(key.referencedColumn)', which is neither its primary key nor unique",
                        property: attribute.property,
                        remedy: "reference one of: " + target.keyColumns.joined(separator: ", "))
                }
                for action in [key.onDelete] + (key.onUpdate.map { [$0] } ?? [])
                where !SQLLiteral.foreignKeyActions.contains(action) {
                    throw fail(
                        "the action of \(label)'s foreign key is not one of SQLite's: \(action)",
                        property: attribute.property,
                        remedy: "use " + SQLLiteral.foreignKeyActions.sorted().joined(separator: ", "))
                }
            }
        }
        if entity.isStrict,
            let attribute = entity.attributes.first(where: {
                !["INT", "INTEGER", "REAL", "TEXT", "BLOB", "ANY"].contains($0.declaredType.uppercased())
            })
        {
            throw fail(
                "'\(entity.name)' is STRICT, which does not allow the type \(attribute.declaredType) of '\(entity.name).\(attribute.property)'",
                property: attribute.property,
                remedy: "declare it INTEGER, REAL, TEXT, BLOB, INT or ANY, or make the table not STRICT")
        }
        if entity.isStrict,
            let attribute = entity.attributes.first(where: {
                $0.valueType == .sqliteValue && $0.declaredType.uppercased() != "ANY"
            })
        {
            throw fail(
                "'\(entity.name).\(attribute.property)' is an SQLiteValue in a STRICT table, whose \(attribute.declaredType) column would refuse values of other storage classes",
                property: attribute.property,
                remedy: "declare it @Attribute(sqlType: \"ANY\"), the STRICT type that keeps every value as given")
        }
        for attribute in entity.attributes where attribute.isDescending {
            guard entity.primaryKey?.contains(attribute.name) == true else {
                throw fail(
                    "'\(entity.name).\(attribute.property)' is .descending but not in the primary key: only a key column has an order of its own",
                    property: attribute.property,
                    remedy:
                        "mark it .primaryKey (or list it in primaryKey), or declare an index with .column(_:descending:)"
                )
            }
            guard !entity.isAutoincrement else {
                throw fail(
                    "'\(entity.name).\(attribute.property)' is .descending and AUTOINCREMENT, which SQLite allows only on an INTEGER PRIMARY KEY in ascending order",
                    property: attribute.property, remedy: "remove .descending or .autoincrement")
            }
        }
        if let key = entity.primaryKey, !entity.isJoinTable {
            for column in key {
                guard let attribute = entity.attribute(named: column) else {
                    throw fail(
                        "the primary key of '\(entity.name)' names '\(column)', which is not one of its columns",
                        property: column,
                        remedy: "use one of: " + entity.attributes.map(\.name).joined(separator: ", "))
                }
                // SQLite allows NULL in a key of a rowid table, except in INTEGER PRIMARY KEY (the
                // rowid itself); WITHOUT ROWID keys are NOT NULL.
                // (`INTEGER PRIMARY KEY DESC` is no rowid: it may hold NULL.)
                if attribute.isOptional
                    && (entity.isWithoutRowID || entity.isAutoincrement
                        || (key.count == 1 && attribute.declaredType.uppercased() == "INTEGER"
                            && !attribute.isDescending))
                {
                    throw fail(
                        "'\(entity.name).\(attribute.property)' is in the primary key but optional, which \(entity.isWithoutRowID ? "a WITHOUT ROWID table" : "an INTEGER PRIMARY KEY (the rowid)") cannot hold",
                        property: attribute.property, remedy: "make it non-optional: a key identifies a row")
                }
            }
        }
        for relationship in entity.relationships {
            if let destination = self.entity(named: relationship.destination), !destination.hasImplicitID {
                throw fail(
                    "'\(entity.name).\(relationship.name)' is a @Relationship to '\(destination.name)', which declares its own primary key",
                    property: relationship.name,
                    remedy:
                        "store the key in an attribute: @Attribute(references: .to(\"\(destination.name)\")) var \(relationship.name)ID = …"
                )
            }
        }
    }

    /// Gives each attribute's foreign key without a column the referenced entity's single key column.
    mutating func resolveReferencedColumns() {
        let keys = Dictionary(entities.map { ($0.name, $0.primaryKey) }, uniquingKeysWith: { first, _ in first })
        for entity in entities.indices {
            for attribute in entities[entity].attributes.indices {
                guard var key = entities[entity].attributes[attribute].references, key.column == nil,
                    let columns = keys[key.table] ?? nil, columns.count == 1
                else { continue }
                key.column = columns[0]
                entities[entity].attributes[attribute].references = key
            }
        }
    }
}
