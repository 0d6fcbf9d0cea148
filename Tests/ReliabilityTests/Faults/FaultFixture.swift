import Foundation

@testable import SchemaMigrations

/// A small database and a three-version plan for the I/O fault sweeps: every N costs a whole
/// migration, so the data is small (300 items) while the migration still rebuilds a table,
/// renames another and rewrites every row in a custom stage.
struct FaultFixture {
    static let planName = "faults"

    static func attribute(
        _ name: String, _ type: Schema.ValueType, optional: Bool = false, default value: String? = nil,
        originalName: String? = nil
    ) -> Schema.Attribute {
        Schema.Attribute(
            name: name, valueType: type, isOptional: optional, defaultValue: value, originalName: originalName)
    }

    static let schemas: [Schema] = {
        let note = Schema.Entity(
            name: "Note",
            attributes: [attribute("text", .string, default: "''"), attribute("itemID", .integer, optional: true)],
            indexes: [Schema.Index(["itemID"])])
        let v1 = Schema(
            version: Schema.Version(1, 0, 0),
            entities: [
                Schema.Entity(
                    name: "Item",
                    attributes: [
                        attribute("name", .string, default: "''"), attribute("category", .string, optional: true),
                        attribute("price", .integer, default: "0"), attribute("weight", .double, optional: true),
                        attribute("legacy", .string, optional: true),
                    ], indexes: [Schema.Index(["name"])]),
                note,
            ])
        let item2 = Schema.Entity(
            name: "Item",
            attributes: [
                attribute("name", .string, default: "''"), attribute("category", .string, default: "''"),
                attribute("amount", .double, default: "0.0", originalName: "price"),
                attribute("weight", .double, optional: true),
                attribute("rating", .double, optional: true),
            ], indexes: [Schema.Index(["name"]), Schema.Index(["name", "amount"])])
        let v2 = Schema(version: Schema.Version(2, 0, 0), entities: [item2, note])
        var item3 = item2
        item3.attributes.append(attribute("score", .integer, default: "0"))
        var comment = note
        comment.name = "Comment"
        comment.originalName = "Note"
        comment.indexes = [Schema.Index(["itemID"], name: "Note_itemID")]
        let v3 = Schema(version: Schema.Version(3, 0, 0), entities: [item3, comment])
        return [v1, v2, v3]
    }()

    /// The plan, migrating with `options`; its last stage's `didMigrate` rewrites every item.
    static func migrator(options: MigrationOptions = MigrationOptions()) throws -> Migrator {
        let stages = [
            PlannedStage(from: schemas[0].version, to: schemas[1].version, kind: .lightweight),
            PlannedStage(
                from: schemas[1].version, to: schemas[2].version, kind: .custom,
                didMigrate: { context in
                    try context.execute("UPDATE Item SET score = length(name) * 1000 + CAST(amount AS INTEGER)")
                }),
        ]
        return Migrator(
            resolvedPlan: try ResolvedPlan(name: planName, schemas: schemas, stages: stages), options: options)
    }

    /// A V1 database with 300 items and 60 notes, in rollback-journal or WAL mode.
    static func populate(_ url: URL, wal: Bool, rows: Int = 300) throws {
        try migrator(options: MigrationOptions(targetVersion: schemas[0].version)).migrate(databaseAt: url)
        let db = try SQLiteConnection(path: url.path, mode: .readWrite)
        if wal { try db.execute("PRAGMA journal_mode = WAL") }
        try db.transaction {
            for id in 1...rows {
                try db.execute(
                    "INSERT INTO Item (id, name, category, price, weight, legacy) VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        .integer(Int64(id)), .text("item \(id) " + String(repeating: "y", count: id % 31)),
                        id % 4 == 0 ? .null : .text("c\(id % 9)"), .integer(Int64(id * 13 % 1000)),
                        id % 3 == 0 ? .null : .real(Double(id) / 4), .text(String(repeating: "legacy ", count: id % 5)),
                    ])
                if id % 5 == 0 {
                    try db.execute(
                        "INSERT INTO Note (text, itemID) VALUES (?, ?)", [.text("note \(id)"), .integer(Int64(id))])
                }
            }
        }
    }
}
