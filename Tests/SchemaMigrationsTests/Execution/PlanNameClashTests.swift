import Foundation
import Testing

@testable import SchemaMigrations

/// Two plans sharing one file under the same name (both kept the default) are told apart from a
/// changed released version: the refusal names the clash and the fix.
@Suite struct PlanNameClashTests {
    typealias A = PlanBuilder

    static let app = [
        A.schema(1, [Schema.Entity(name: "Note", attributes: [A.attribute("text", .string, default: "''")])])
    ]
    static let library = (1...3).map {
        A.schema(
            $0,
            [
                Schema.Entity(
                    name: "Tag",
                    attributes: [A.attribute("label", .string, default: "''")]
                        + (1..<$0).map { A.attribute("extra\($0)", .string, optional: true) })
            ])
    }

    @Test(arguments: [1, 3])
    func theSecondPlanOfTheSameNameIsRefusedNamingTheClash(libraryVersion: Int) throws {
        let db = TemporaryDatabase()
        try A.migrator(Array(Self.library.prefix(libraryVersion))).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Tag (label) VALUES ('swift')")
        let before = try db.bytes()
        let calls: [() throws -> Void] = [
            { try A.migrator(Self.app).migrate(databaseAt: db.url) },
            { _ = try A.migrator(Self.app).status(databaseAt: db.url) },
        ]
        for call in calls {
            let error = try #require(throws: MigrationError.self) { try call() }
            #expect(error.code == .invalidPlan)
            #expect(
                error.message
                    == "the database records version \(libraryVersion).0.0 of another plan also named 'default', whose tables (Tag) are not this plan's: two plans share a name"
            )
            #expect(error.remedy?.contains("static let name") == true)
        }
        #expect(try db.bytes() == before)
    }

    @Test func plansWithTheirOwnNamesShareAFile() throws {
        let db = TemporaryDatabase()
        try A.migrator(Self.library, name: "tags").migrate(databaseAt: db.url)
        try A.migrator(Self.app, name: "notes").migrate(databaseAt: db.url)
        #expect(try db.recordedVersion(plan: "tags") == "3.0.0")
        #expect(try db.recordedVersion(plan: "notes") == "1.0.0")
    }

    @Test func aChangedReleasedVersionIsStillCalledThat() throws {
        let db = TemporaryDatabase()
        try A.migrator(Self.app).migrate(databaseAt: db.url)
        var changed = Self.app
        changed[0].entities[0].attributes.append(A.attribute("title", .string, optional: true))
        let error = try #require(throws: MigrationError.self) { try A.migrator(changed).migrate(databaseAt: db.url) }
        #expect(error.message.hasPrefix("version 1.0.0 was applied with schema hash"))
    }
}
