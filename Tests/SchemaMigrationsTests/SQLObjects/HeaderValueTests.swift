import Foundation
import Testing

@testable import SchemaMigrations

/// `PRAGMA application_id` and `PRAGMA user_version` where a version owns them: set by a new
/// install and by the stage that changes them, compared by verification, left alone where the
/// version says nothing, read by the scaffold.
@Suite struct HeaderValueTests {
    enum NotesV1: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Note.self]
        static let applicationID = 0x4D4F_4F4E
        static let userVersion: Int32 = 7
        final class Note: PersistentModel {
            var text = ""
            init() {}
        }
    }

    static func header(_ db: TemporaryDatabase) throws -> [[String]] {
        try db.rows(
            "SELECT (SELECT application_id FROM pragma_application_id), (SELECT user_version FROM pragma_user_version)")
    }

    @Test func aVersionSetsItsHeaderAndAStageChangesIt() throws {
        let v1 = try Schema(NotesV1.self)
        #expect(v1.applicationID == 0x4D4F_4F4E && v1.userVersion == 7)
        var v2 = v1
        v2.version = Schema.Version(2, 0, 0)
        v2.userVersion = 8
        var v3 = v2
        v3.version = Schema.Version(3, 0, 0)
        v3.entities[0].attributes.append(PlanBuilder.attribute("title", .string, optional: true))
        v3.userVersion = nil  // the application's from here on: left as it is

        let db = TemporaryDatabase()
        try PlanBuilder.migrator([v1]).migrate(databaseAt: db.url)
        #expect(try Self.header(db) == [["1297043278", "7"]])

        let migrator = try PlanBuilder.migrator([v1, v2, v3])
        let report = try migrator.plan(databaseAt: db.url)
        let steps = report.stages.flatMap { $0.steps.map { "\($0.step.summary): \($0.sql)" } }
        #expect(
            steps == [
                #"Set user_version to 8: ["PRAGMA user_version = 8"]"#,
                #"Add column Note.title TEXT: ["ALTER TABLE \"Note\" ADD COLUMN \"title\" TEXT"]"#,
            ], "\(steps)")
        try migrator.migrate(databaseAt: db.url)
        #expect(try Self.header(db) == [["1297043278", "8"]])

        // The application changes what V3 leaves to it; verification is content; then it
        // changes what V3 owns, and verification says so.
        try db.execute("PRAGMA user_version = 42")
        #expect(try migrator.verify(databaseAt: db.url).isUpToDate)
        try db.execute("PRAGMA application_id = 5")
        #expect {
            try migrator.verify(databaseAt: db.url)
        } throws: { error in
            (error as? MigrationError)?.details.contains("application_id is 5, declared 1297043278") == true
        }

        // A new install at V3 sets what V3 sets (application_id), and leaves user_version, which V3
        // leaves to the application, at SQLite's 0.
        let created = TemporaryDatabase()
        try migrator.migrate(databaseAt: created.url)
        #expect(try Self.header(created) == [["1297043278", "0"]])
    }

    @Test func aValueTheHeaderCannotHoldIsRefused() throws {
        var schema = try Schema(NotesV1.self)
        schema.userVersion = Int(Int32.max) + 1
        #expect {
            try schema.validate()
        } throws: { error in
            (error as? MigrationError)?.message
                == "version 1.0.0 sets user_version to 2147483648, which SQLite's 32-bit header field cannot hold"
        }
        let json = try Schema(NotesV1.self).snapshotJSON()
        #expect(json.contains(#""applicationID": 1297043278"#) && json.contains(#""userVersion": 7"#), "\(json)")
        #expect(try Schema(snapshotJSON: Data(json.utf8)) == Schema(NotesV1.self))
        #expect(Snapshot(scanning: Data(json.utf8))?.schema == (try Schema(NotesV1.self)))
    }

    @Test func theScaffoldDeclaresTheFilesHeader() throws {
        let db = TemporaryDatabase()
        try db.execute(
            "CREATE TABLE Note (id INTEGER PRIMARY KEY, text TEXT NOT NULL); PRAGMA application_id = -17; PRAGMA user_version = 3"
        )
        let found = try SchemaIntrospection(databaseAt: db.url)
        #expect(found.schema.applicationID == -17 && found.schema.userVersion == 3)
        let source = SwiftDeclarations(schema: found.schema, name: "Notes").source
        #expect(
            source.contains("    public static let applicationID = -17\n    public static let userVersion = 3\n"),
            "\(source)")
        #expect(try PlanBuilder.migrator([found.schema]).migrate(databaseAt: db.url).adopted)
    }
}
