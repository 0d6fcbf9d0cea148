import Foundation
import Testing

@testable import SchemaMigrations

/// A composite foreign key a table declares onto itself, when a stage renames the table or the
/// key's columns: the constraint the next version no longer declares goes, whatever names it was
/// written with; the one it keeps stays, in the new names. Found by the property family, which
/// gives tables such keys: the removed key stayed behind the rename, onto columns that had lost
/// their unique index, and SQLite refused the stage's foreign-key check ("foreign key mismatch").
@Suite struct SelfReferenceRenameTests {
    static func trip(_ name: String, originalName: String? = nil, column: String, linked: Bool) -> Schema.Entity {
        let columns = ["id", column]
        return Schema.Entity(
            name: name, originalName: originalName,
            attributes: [
                Schema.Attribute(
                    name: column, valueType: .string, originalName: column == "title" ? nil : "title")
            ],
            indexes: linked ? [Schema.Index(columns, isUnique: true, name: "trip_key")] : [],
            constraints: linked
                ? [
                    .foreignKey(
                        columns, references: name, columns: columns, onDelete: .cascade,
                        deferrable: .initiallyDeferred, name: "itself")
                ] : [])
    }

    static func migrate(from v1: Schema.Entity, to v2: Schema.Entity) throws -> TemporaryDatabase {
        let schemas = [
            Schema(version: Schema.Version(1, 0, 0), entities: [v1]),
            Schema(version: Schema.Version(2, 0, 0), entities: [v2]),
        ]
        let db = TemporaryDatabase()
        let first = try ResolvedPlan(name: "trips", schemas: [schemas[0]], stages: [])
        try Migrator(resolvedPlan: first).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO \(SQL.quoteIdentifier(v1.name)) (id, title) VALUES (1, 'coast'), (2, 'hills')")
        let plan = try ResolvedPlan(
            name: "trips", schemas: schemas,
            stages: [PlannedStage(from: schemas[0].version, to: schemas[1].version, kind: .lightweight)])
        try Migrator(resolvedPlan: plan).migrate(databaseAt: db.url)
        #expect(try Migrator(resolvedPlan: plan).verify(databaseAt: db.url).isUpToDate)
        return db
    }

    @Test(arguments: ["title", "name"])
    func aRenamedTableLosesTheKeyItNoLongerDeclares(column: String) throws {
        let db = try Self.migrate(
            from: Self.trip("Trip", column: "title", linked: true),
            to: Self.trip("Journey", originalName: "Trip", column: column, linked: false))
        #expect(try db.rows("SELECT count(*) FROM pragma_foreign_key_list('Journey')") == [["0"]])
        #expect(try db.rows("SELECT id, \(column) FROM Journey ORDER BY id") == [["1", "'coast'"], ["2", "'hills'"]])
    }

    @Test(arguments: ["title", "name"])
    func aRenamedTableKeepsTheKeyItStillDeclaresInItsNewNames(column: String) throws {
        let db = try Self.migrate(
            from: Self.trip("Trip", column: "title", linked: true),
            to: Self.trip("Journey", originalName: "Trip", column: column, linked: true))
        #expect(
            try db.rows("SELECT \"table\", \"from\", \"to\" FROM pragma_foreign_key_list('Journey') ORDER BY seq")
                == [
                    ["'Journey'", "'id'", "'id'"],
                    ["'Journey'", "\(SQL.quoteString(column))", "\(SQL.quoteString(column))"],
                ])
        #expect(try db.rows("SELECT count(*) FROM pragma_foreign_key_check('Journey')") == [["0"]])
    }

    /// The same for a key onto another table whose referenced column the stage renames: SQLite's
    /// `RENAME COLUMN` writes the new name into the child's key, so the key the child no longer
    /// declares is found in the parent's new names.
    @Test func aKeyOntoARenamedParentColumnGoesWhenNoLongerDeclared() throws {
        func parent(_ column: String) -> Schema.Entity {
            Schema.Entity(
                name: "Country",
                attributes: [
                    Schema.Attribute(name: column, valueType: .string, originalName: column == "code" ? nil : "code")
                ], indexes: [Schema.Index([column], isUnique: true, name: "country_code")])
        }
        func city(linked: Bool, parentColumn: String) -> Schema.Entity {
            Schema.Entity(
                name: "City", attributes: [Schema.Attribute(name: "country", valueType: .string)],
                constraints: linked
                    ? [.foreignKey(["country"], references: "Country", columns: [parentColumn], name: "in_country")]
                    : [])
        }
        let schemas = [
            Schema(
                version: Schema.Version(1, 0, 0), entities: [parent("code"), city(linked: true, parentColumn: "code")]),
            Schema(
                version: Schema.Version(2, 0, 0), entities: [parent("iso"), city(linked: false, parentColumn: "iso")]),
        ]
        let db = TemporaryDatabase()
        try Migrator(resolvedPlan: try ResolvedPlan(name: "places", schemas: [schemas[0]], stages: []))
            .migrate(databaseAt: db.url)
        try db.execute(
            "INSERT INTO Country (id, code) VALUES (1, 'FR'); INSERT INTO City (id, country) VALUES (1, 'FR')")
        let plan = try ResolvedPlan(
            name: "places", schemas: schemas,
            stages: [PlannedStage(from: schemas[0].version, to: schemas[1].version, kind: .lightweight)])
        try Migrator(resolvedPlan: plan).migrate(databaseAt: db.url)
        #expect(try db.rows("SELECT count(*) FROM pragma_foreign_key_list('City')") == [["0"]])
        #expect(try db.rows("SELECT City.id, iso FROM City JOIN Country ON iso = country") == [["1", "'FR'"]])
        let created = TemporaryDatabase()
        try Migrator(resolvedPlan: plan).migrate(databaseAt: created.url)
        #expect(try SemanticSchema.lines(created.path) == SemanticSchema.lines(db.path))
    }

    /// The dry run of a stage that renames such a table and drops the key's column: the walk of the
    /// stage on the schema shows what runs; the table's text alone (the key still naming the old
    /// table) once made it refuse the drop the migration makes.
    @Test func theDryRunOfARenamedTableDroppingTheKeysColumnShowsWhatRuns() throws {
        func trip(_ name: String, linked: Bool) -> Schema.Entity {
            Schema.Entity(
                name: name, originalName: name == "Trip" ? nil : "Trip",
                attributes: [Schema.Attribute(name: "title", valueType: .string)]
                    + (linked ? [Schema.Attribute(name: "note", valueType: .string, isOptional: true)] : []),
                indexes: linked ? [Schema.Index(["id", "note"], isUnique: true, name: "trip_note")] : [],
                constraints: linked ? [.foreignKey(["id", "note"], references: name, columns: ["id", "note"])] : [])
        }
        let schemas = [
            Schema(version: Schema.Version(1, 0, 0), entities: [trip("Trip", linked: true)]),
            Schema(version: Schema.Version(2, 0, 0), entities: [trip("Journey", linked: false)]),
        ]
        let db = TemporaryDatabase()
        try Migrator(resolvedPlan: try ResolvedPlan(name: "trips", schemas: [schemas[0]], stages: []))
            .migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Trip (id, title, note) VALUES (1, 'coast', 'windy')")
        let migrator = Migrator(
            resolvedPlan: try ResolvedPlan(
                name: "trips", schemas: schemas,
                stages: [PlannedStage(from: schemas[0].version, to: schemas[1].version, kind: .lightweight)]))
        let report = try migrator.plan(databaseAt: db.url)
        #expect(report.refusals.isEmpty, "\(report.refusals)")
        let shown = report.stages.flatMap { $0.steps.flatMap(\.sql) }
        let ran = try migrator.script(databaseAt: db.url).statements.filter {
            !$0.contains(SQL.quoteIdentifier(TableNames.metadata)) && !$0.hasPrefix("PRAGMA ")
        }
        #expect(shown == ran)
        let rebuild = try #require(report.stages.first?.steps.first { $0.step.summary.hasPrefix("Rebuild") })
        #expect(rebuild.sql.contains { $0.hasPrefix("CREATE TABLE") && !$0.contains("FOREIGN KEY") }, "\(rebuild.sql)")
        try migrator.migrate(databaseAt: db.url)
        #expect(try db.rows("SELECT id, title FROM Journey") == [["1", "'coast'"]])
    }
}
