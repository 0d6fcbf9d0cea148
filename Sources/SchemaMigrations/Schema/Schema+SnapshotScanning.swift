#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Snapshots read without `JSONDecoder`, as each type's `init(from:)` reads them (``StrictJSON``):
/// the `migrate` command reads every snapshot of its plan on every run, and a process that starts,
/// finds the database up to date and ends spent most of its reading in `Codable`'s generic
/// machinery. A snapshot this reader does not take (see ``StrictObject``) goes to `JSONDecoder`,
/// which decodes it or refuses it as before.
extension Snapshot {
    /// The snapshot in `data`, nil when `JSONDecoder` must read it.
    init?(scanning data: Data) {
        let snapshot = data.withUnsafeBytes { bytes in
            StrictJSON.parse(bytes).flatMap { try? Snapshot(scanning: $0) }
        }
        guard let snapshot else { return nil }
        self = snapshot
    }

    private init(scanning json: StrictJSON) throws {
        let object = try StrictObject(
            json, keys: ["format", "version", "hash", "entities", "sqlObjects", "applicationID", "userVersion"])
        format = try object.optional("format", \.integer) ?? 1
        version = try object.required("version", Schema.Version.init(scanning:))
        hash = try object.optional("hash", \.string)
        entities = try object.required("entities") { try StrictObject.array($0, Schema.Entity.init(scanning:)) }
        sqlObjects = try object.optional("sqlObjects") { try StrictObject.array($0, Schema.SQLObject.init(scanning:)) }
        applicationID = try object.optional("applicationID", \.integer)
        userVersion = try object.optional("userVersion", \.integer)
    }
}

extension Schema.SQLObject {
    init(scanning json: StrictJSON) throws {
        let object = try StrictObject(json, keys: ["kind", "sql"])
        self.init(
            try object.required("kind") { $0.string.flatMap(Kind.init(rawValue:)) },
            try object.required("sql", \.string))
    }
}

extension Schema.Version {
    /// What ``init(from:)`` reads: a string like `2.0.0`.
    init?(scanning json: StrictJSON) {
        guard let text = json.string, let version = Schema.Version(text) else { return nil }
        self = version
    }
}

extension Schema.Entity {
    init(scanning json: StrictJSON) throws {
        let object = try StrictObject(
            json,
            keys: [
                "name", "originalName", "hashModifier", "attributes", "indexes", "relationships", "primaryKey",
                "isAutoincrement", "isWithoutRowID", "isStrict", "constraints", "primaryKeyOnConflict",
            ])
        self.init(
            name: try object.required("name", \.string),
            originalName: try object.optional("originalName", \.string),
            hashModifier: try object.optional("hashModifier", \.string),
            attributes: try object.required("attributes") {
                try StrictObject.array($0, Schema.Attribute.init(scanning:))
            },
            indexes: try object.optional("indexes") { try StrictObject.array($0, Schema.Index.init(scanning:)) } ?? [],
            relationships: try object.optional("relationships") {
                try StrictObject.array($0, Schema.Relationship.init(scanning:))
            } ?? [],
            primaryKey: try object.optional("primaryKey", \.strings),
            isAutoincrement: try object.optional("isAutoincrement", \.bool) ?? false,
            isWithoutRowID: try object.optional("isWithoutRowID", \.bool) ?? false,
            isJoinTable: false,
            isStrict: try object.optional("isStrict", \.bool) ?? false,
            constraints: try object.optional("constraints") {
                try StrictObject.array($0, Schema.TableConstraint.init(scanning:))
            } ?? [],
            primaryKeyOnConflict: try object.optional("primaryKeyOnConflict") {
                $0.string.flatMap { Schema.ConflictResolution(rawValue: $0) }
            })
    }
}

extension Schema.Attribute {
    init(scanning json: StrictJSON) throws {
        let object = try StrictObject(
            json,
            keys: [
                "name", "valueType", "isOptional", "defaultValue", "originalName", "hashModifier", "options",
                "swiftType", "references", "propertyName", "sqlType", "dateStorage", "check", "collation", "generated",
                "notNullOnConflict",
            ])
        self.init(
            name: try object.required("name", \.string),
            valueType: try object.required("valueType") { $0.string.flatMap(Schema.ValueType.init(rawValue:)) },
            isOptional: try object.optional("isOptional", \.bool) ?? false,
            defaultValue: try object.optional("defaultValue", \.string),
            originalName: try object.optional("originalName", \.string),
            hashModifier: try object.optional("hashModifier", \.string),
            options: try object.optional("options", \.strings) ?? [],
            swiftType: try object.optional("swiftType", \.string),
            references: try object.optional("references", Schema.ForeignKey.init(scanning:)),
            propertyName: try object.optional("propertyName", \.string),
            sqlType: try object.optional("sqlType", \.string),
            dateStorage: try object.optional("dateStorage") { $0.string.flatMap(Schema.DateStorage.init(rawValue:)) },
            check: try object.optional("check", \.string),
            collation: try object.optional("collation", \.string),
            generated: try object.optional("generated", Schema.GeneratedColumn.init(scanning:)),
            notNullOnConflict: try object.optional("notNullOnConflict") {
                $0.string.flatMap { Schema.ConflictResolution(rawValue: $0) }
            })
    }
}

extension Schema.ForeignKey {
    /// What the synthesized `init(from:)` reads.
    init(scanning json: StrictJSON) throws {
        let object = try StrictObject(json, keys: ["table", "onDelete", "column", "onUpdate", "isDeferred"])
        self.init(
            table: try object.required("table", \.string), onDelete: try object.required("onDelete", \.string),
            column: try object.optional("column", \.string), onUpdate: try object.optional("onUpdate", \.string),
            isDeferred: try object.optional("isDeferred", \.bool))
    }
}

extension Schema.GeneratedColumn {
    /// What the synthesized `init(from:)` reads.
    init(scanning json: StrictJSON) throws {
        let object = try StrictObject(json, keys: ["expression", "storage", "recomputesOnRebuild"])
        self.init(
            expression: try object.required("expression", \.string),
            storage: try object.required("storage") { $0.string.flatMap(Storage.init(rawValue:)) },
            recomputesOnRebuild: try object.optional("recomputesOnRebuild", \.bool) ?? false)
    }
}

extension Schema.Index {
    init(scanning json: StrictJSON) throws {
        let object = try StrictObject(json, keys: ["columns", "isUnique", "name", "elements", "predicate"])
        self.init(
            try object.optional("columns", \.strings) ?? [], isUnique: try object.optional("isUnique", \.bool) ?? false,
            name: try object.optional("name", \.string))
        elements = try object.optional("elements") { try StrictObject.array($0, Schema.IndexElement.init(scanning:)) }
        predicate = try object.optional("predicate", \.string)
        if let elements { columns = elements.compactMap(\.column) }
    }
}

extension Schema.IndexElement {
    init(scanning json: StrictJSON) throws {
        let object = try StrictObject(json, keys: ["column", "expression", "collation", "isDescending"])
        self.init(
            column: try object.optional("column", \.string), expression: try object.optional("expression", \.string),
            collation: try object.optional("collation", \.string),
            isDescending: try object.optional("isDescending", \.bool) ?? false)
    }
}

extension Schema.Relationship {
    init(scanning json: StrictJSON) throws {
        let object = try StrictObject(
            json,
            keys: [
                "name", "destination", "isToMany", "isOptional", "deleteRule", "inverse", "originalName",
                "hashModifier",
            ])
        self.init(
            name: try object.required("name", \.string), destination: try object.required("destination", \.string),
            isToMany: try object.optional("isToMany", \.bool) ?? false,
            isOptional: try object.optional("isOptional", \.bool) ?? true,
            deleteRule: try object.optional("deleteRule") { $0.string.flatMap(DeleteRule.init(rawValue:)) } ?? .nullify,
            inverse: try object.optional("inverse", \.string),
            originalName: try object.optional("originalName", \.string),
            hashModifier: try object.optional("hashModifier", \.string))
    }
}
