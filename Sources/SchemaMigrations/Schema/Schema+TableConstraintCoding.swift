/// A table constraint in a snapshot: one of `check` (the expression), `unique` (the columns) or
/// `foreignKey` (an object), and `name` when it has one; a `unique` one's `onConflict`
/// (`"REPLACE"`) when it has one. Clauses a foreign key leaves out are left out of its object.
extension Schema.TableConstraint {
    private enum CodingKeys: String, CodingKey { case name, check, unique, foreignKey, onConflict }
    private enum KeyCodingKeys: String, CodingKey {
        case columns, table, referencedColumns, onDelete, onUpdate, match, deferrable
    }

    /// Reads what ``encode(to:)`` writes; refuses an object that is not exactly one kind of constraint.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decodeIfPresent(String.self, forKey: .name)
        let kinds = [CodingKeys.check, .unique, .foreignKey].filter(container.contains)
        guard kinds.count == 1 else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: container.codingPath,
                    debugDescription: "a table constraint has exactly one of check, unique and foreignKey"))
        }
        let onConflict = try container.decodeIfPresent(Schema.ConflictResolution.self, forKey: .onConflict)
        guard onConflict == nil || kinds[0] == .unique else {
            throw DecodingError.dataCorruptedError(
                forKey: .onConflict, in: container, debugDescription: "only a unique constraint has onConflict")
        }
        switch kinds[0] {
        case .check: self.init(.check(try container.decode(String.self, forKey: .check)), name: name)
        case .unique:
            self.init(
                .unique(try container.decode([String].self, forKey: .unique)), name: name, onConflict: onConflict)
        default:
            let key = try container.nestedContainer(keyedBy: KeyCodingKeys.self, forKey: .foreignKey)
            self.init(
                .foreignKey(
                    ForeignKey(
                        columns: try key.decode([String].self, forKey: .columns),
                        table: try key.decode(String.self, forKey: .table),
                        referencedColumns: try key.decodeIfPresent([String].self, forKey: .referencedColumns),
                        onDelete: try key.decodeIfPresent(Schema.ForeignKeyAction.self, forKey: .onDelete),
                        onUpdate: try key.decodeIfPresent(Schema.ForeignKeyAction.self, forKey: .onUpdate),
                        match: try key.decodeIfPresent(String.self, forKey: .match),
                        deferrable: try key.decodeIfPresent(Schema.ForeignKeyTiming.self, forKey: .deferrable))),
                name: name)
        }
    }

    /// Writes the kind's key and `name` when there is one.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch kind {
        case .check(let expression): try container.encode(expression, forKey: .check)
        case .unique(let columns):
            try container.encode(columns, forKey: .unique)
            try container.encodeIfPresent(onConflict, forKey: .onConflict)
        case .foreignKey(let foreignKey):
            var key = container.nestedContainer(keyedBy: KeyCodingKeys.self, forKey: .foreignKey)
            try key.encode(foreignKey.columns, forKey: .columns)
            try key.encode(foreignKey.table, forKey: .table)
            try key.encodeIfPresent(foreignKey.referencedColumns, forKey: .referencedColumns)
            try key.encodeIfPresent(foreignKey.onDelete, forKey: .onDelete)
            try key.encodeIfPresent(foreignKey.onUpdate, forKey: .onUpdate)
            try key.encodeIfPresent(foreignKey.match, forKey: .match)
            try key.encodeIfPresent(foreignKey.deferrable, forKey: .deferrable)
        }
        try container.encodeIfPresent(name, forKey: .name)
    }

    /// What ``init(from:)`` reads, for the strict snapshot reader.
    init(scanning json: StrictJSON) throws {
        let object = try StrictObject(json, keys: ["name", "check", "unique", "foreignKey", "onConflict"])
        let name = try object.optional("name", \.string)
        let onConflict = try object.optional("onConflict") {
            $0.string.flatMap { Schema.ConflictResolution(rawValue: $0) }
        }
        let kinds = object.members.filter { $0.key != "name" && $0.key != "onConflict" }
        guard kinds.count == 1 else { throw StrictObject.OutsideSubset() }
        if let expression = try object.optional("check", \.string) {
            guard onConflict == nil else { throw StrictObject.OutsideSubset() }
            self.init(.check(expression), name: name)
        } else if let columns = try object.optional("unique", \.strings) {
            self.init(.unique(columns), name: name, onConflict: onConflict)
        } else {
            let key = try StrictObject(
                try object.required("foreignKey") { $0 },
                keys: ["columns", "table", "referencedColumns", "onDelete", "onUpdate", "match", "deferrable"])
            self.init(
                .foreignKey(
                    ForeignKey(
                        columns: try key.required("columns", \.strings), table: try key.required("table", \.string),
                        referencedColumns: try key.optional("referencedColumns", \.strings),
                        onDelete: try key.optional("onDelete") { $0.string.flatMap(Schema.ForeignKeyAction.init) },
                        onUpdate: try key.optional("onUpdate") { $0.string.flatMap(Schema.ForeignKeyAction.init) },
                        match: try key.optional("match", \.string),
                        deferrable: try key.optional("deferrable") {
                            $0.string.flatMap(Schema.ForeignKeyTiming.init(rawValue:))
                        })),
                name: name)
        }
    }
}
