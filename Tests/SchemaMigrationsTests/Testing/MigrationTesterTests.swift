import Foundation
import SampleTripsPlan
import SchemaMigrationsTesting
import Testing

@testable import SchemaMigrations

/// The testing library as README shows it, on the bundled three-version plan with a custom stage:
/// every upgrade path created, filled, migrated, validated and read back.
@Suite struct MigrationTesterTests {
    let tester = MigrationTester(plan: TripsMigrationPlan.self)

    @Test func theUpgradePathsAreEveryVersionToEveryLaterOne() throws {
        #expect(try tester.upgradePaths().map(\.description) == ["1.0.0 → 2.0.0", "1.0.0 → 3.0.0", "2.0.0 → 3.0.0"])
        #expect(try MigrationTester(plan: OtherAppPlan.self).upgradePaths().isEmpty)
    }

    @Test func everyPathKeepsTheRowsPutInAtItsStart() throws {
        for path in try tester.upgradePaths() {
            let database = try tester.database(at: path.from)
            #expect(try database.version() == path.from)
            // V1 allows two trips of one name; V2's custom stage keeps the first.
            let names =
                path.from == TripsSchemaV1.versionIdentifier ? ["Lisbon", "Lisbon", "Oslo"] : ["Lisbon", "Oslo"]
            let startProperty = path.from == TripsSchemaV3.versionIdentifier ? "startDate" : "start_date"
            try database.write { context in
                for (offset, name) in names.enumerated() {
                    let trip = try context.insert(
                        "Trip",
                        values: [
                            "name": name, "destination": "Europe",
                            startProperty: Date(timeIntervalSince1970: 1_700_000_000 + Double(offset) * 86_400),
                        ])
                    _ = try context.insert("BucketListItem", values: ["title": "see \(name)", "trip_id": trip])
                }
            }
            let result = try database.migrate(to: path.to)
            #expect(result.toVersion == path.to, "\(path)")
            try database.validate()
            let readStart = path.to == TripsSchemaV3.versionIdentifier ? "startDate" : "start_date"
            let trips = try database.read { context in
                try context.fetch("Trip", orderBy: "id").map {
                    (try $0.value("name", as: String.self), try $0.value(readStart, as: Date.self))
                }
            }
            #expect(trips.map(\.0) == ["Lisbon", "Oslo"], "\(path)")
            #expect(
                trips.map(\.1.timeIntervalSince1970)
                    == [1_700_000_000, 1_700_000_000 + (names.count - 1) * 86_400].map(Double.init), "\(path)")
            // The duplicate's bucket list item went with it (the delete rule cascades).
            #expect(try database.read { try $0.count("BucketListItem") } == 2, "\(path)")
        }
    }

    @Test func oneStageAtATimeReachesWhatAllAtOnceReaches() throws {
        let stepwise = try tester.database(at: TripsSchemaV1.versionIdentifier)
        try stepwise.migrate(to: TripsSchemaV2.versionIdentifier)
        try stepwise.validate()
        try stepwise.migrate()
        try stepwise.validate()
        #expect(try stepwise.version() == TripsSchemaV3.versionIdentifier)
        #expect(try stepwise.migrate().outcome == .upToDate)
    }

    @Test func validationNamesWhatDiffersFromANewInstall() throws {
        let database = try tester.database(at: TripsSchemaV2.versionIdentifier)
        try database.execute(
            "CREATE INDEX by_destination ON Trip(destination); CREATE VIEW Names AS SELECT name FROM Trip")
        let failure = try #require(throws: MigrationTestFailure.self) { try database.validate() }
        #expect(failure.kind == .schemaDiffers)
        #expect(failure.version == TripsSchemaV2.versionIdentifier)
        #expect(failure.onlyInCreated.isEmpty)
        #expect(failure.onlyHere.count == 2)
        #expect(
            failure.onlyHere.contains {
                $0.hasPrefix("table trip index: origin c, unique 0, partial 0, columns destination")
            })
        #expect(failure.onlyHere.contains { $0.hasPrefix("view names:") })
        #expect(failure.description.contains("only in this database:\n    table trip index: origin c"))
    }

    @Test func aVersionThePlanDoesNotDeclareIsRefusedNamingThoseItDoes() throws {
        let error = try #require(throws: MigrationError.self) { try tester.database(at: Schema.Version(2, 5, 0)) }
        #expect(error.code == .invalidPlan)
        #expect(error.message.contains("2.5.0"))
        #expect(error.remedy?.contains("1.0.0, 2.0.0, 3.0.0") == true)
    }

    @Test func readIsReadOnlyAndAThrowingWriteKeepsNothing() throws {
        let database = try tester.database(at: TripsSchemaV3.versionIdentifier)
        #expect(throws: (any Error).self) {
            try database.read { context in _ = try context.insert("Trip", values: ["name": "x"]) }
        }
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try database.write { context in
                _ = try context.insert("Trip", values: ["name": "kept?"])
                throw Stop()
            }
        }
        #expect(try database.rows("SELECT count(*) FROM Trip") == [[.integer(0)]])
    }

    @Test func aFileThatIsNoDatabaseIsSaidSo() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sm-tester-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = directory.appendingPathComponent("notes.sqlite")
        try Data(String(repeating: "not a database ", count: 300).utf8).write(to: text)
        let failure = try #require(throws: MigrationTestFailure.self) { try tester.database(copying: text) }
        #expect(failure.kind == .notADatabase)
        #expect(failure.message.hasPrefix("notes.sqlite cannot be read as a SQLite database"))
        let missing = try #require(throws: MigrationTestFailure.self) {
            try tester.database(copying: directory.appendingPathComponent("gone.sqlite"))
        }
        #expect(missing.kind == .notADatabase && missing.message.hasSuffix("gone.sqlite does not exist"))
    }
}

/// Deploys taken back, tested the same way: every newer version to every older one.
@Suite struct DowngradePathTests {
    static let v1 = PlanBuilder.schema(
        1, [Schema.Entity(name: "Note", attributes: [PlanBuilder.attribute("title", .string, default: "''")])])
    static let v2 = PlanBuilder.schema(
        2,
        [
            Schema.Entity(
                name: "Note",
                attributes: [
                    PlanBuilder.attribute("title", .string, default: "''"),
                    PlanBuilder.attribute("tag", .string, optional: true),
                ])
        ])

    @Test func everyVersionGoesBackToEveryEarlierOneKeepingItsRows() throws {
        let tester = MigrationTester(migrator: try PlanBuilder.migrator([Self.v1, Self.v2]))
        #expect(try tester.downgradePaths().map(\.description) == ["2.0.0 → 1.0.0"])
        #expect(
            try MigrationTester(plan: TripsMigrationPlan.self).downgradePaths().map(\.description) == [
                "3.0.0 → 2.0.0", "3.0.0 → 1.0.0", "2.0.0 → 1.0.0",
            ])
        let database = try tester.database(at: Schema.Version(2, 0, 0))
        try database.write { context in _ = try context.insert("Note", values: ["title": "kept"]) }
        try database.migrate(to: Schema.Version(1, 0, 0))
        try database.validate()
        #expect(try database.read { try $0.fetch("Note").map { try $0.value("title", as: String.self) } } == ["kept"])

        // A value the newer version added is refused on the way back unless the loss is allowed.
        let tagged = try tester.database(at: Schema.Version(2, 0, 0))
        try tagged.write { context in _ = try context.insert("Note", values: ["title": "x", "tag": "red"]) }
        let error = try #require(throws: MigrationError.self) { try tagged.migrate(to: Schema.Version(1, 0, 0)) }
        #expect(error.message.contains("would drop data the newer versions added"), "\(error)")
        var options = MigrationOptions()
        options.allowDataLoss = true
        let allowing = MigrationTester(migrator: try PlanBuilder.migrator([Self.v1, Self.v2], options: options))
        let copy = try allowing.database(copying: tagged.url)
        try copy.migrate(to: Schema.Version(1, 0, 0))
        try copy.validate()
    }
}
