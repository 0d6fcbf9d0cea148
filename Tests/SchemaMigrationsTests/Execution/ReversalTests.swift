import Foundation
import Testing

@testable import SchemaMigrations

/// Taking a deploy back: a database at V2 migrated to V1 by reversing the stage from the
/// declarations. Each change kind's way back, then compared with a database created at V1.
@Suite struct ReversalTests {
    typealias A = PlanBuilder

    /// Creates `Person` at V1 with the fixture's rows, migrates to V2 (`newer`), runs `between`,
    /// then takes it back to V1 and checks the schema equals a database created at V1.
    @discardableResult
    static func roundTrip(
        newer: [Schema.Entity], older: [Schema.Entity] = [PersonFixture.person], between: String? = nil,
        allowDataLoss: Bool = false, kind: StageKind = .lightweight
    ) throws -> (TemporaryDatabase, MigrationResult) {
        let db = TemporaryDatabase()
        let (v1, v2) = (A.schema(1, older), A.schema(2, newer))
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(PersonFixture.rows)
        try A.migrator([v1, v2], kind: kind).migrate(databaseAt: db.url)
        if let between { try db.execute(between) }
        let back = try A.migrator(
            [v1, v2], kind: kind,
            options: MigrationOptions(targetVersion: v1.version, allowDataLoss: allowDataLoss)
        ).migrate(databaseAt: db.url)
        #expect(try db.recordedVersion() == "1.0.0")
        #expect(back.fromVersion == v2.version && back.toVersion == v1.version)
        #expect(back.stages.allSatisfy { $0.isReversal })
        let created = TemporaryDatabase()
        try A.migrator([v1]).migrate(databaseAt: created.url)
        let (live, fresh) = (try SemanticSchema.lines(db.url.path), try SemanticSchema.lines(created.url.path))
        #expect(live == fresh, "\(SemanticSchema.difference(live, fresh))")
        return (db, back)
    }

    static let everyone = [["1", "'Ada'", "36"], ["2", "'Alan'", "NULL"], ["3", "'Grace'", "85"]]

    @Test func addedEntityIsDroppedOnTheWayBack() throws {
        let tag = Schema.Entity(name: "Tag", attributes: [A.attribute("label", .string, default: "''")])
        let (db, back) = try Self.roundTrip(newer: [PersonFixture.person, tag])
        #expect(back.stages[0].steps.map(\.op) == [.dropTable])
        #expect(try db.rows("SELECT id, name, age FROM Person ORDER BY id") == Self.everyone)
    }

    @Test func removedEntityComesBackEmpty() throws {
        let tag = Schema.Entity(name: "Tag", attributes: [A.attribute("label", .string, default: "''")])
        let (db, back) = try Self.roundTrip(newer: [PersonFixture.person], older: [PersonFixture.person, tag])
        #expect(back.stages[0].steps.map(\.op) == [.createTable])
        #expect(try db.rows("SELECT count(*) FROM Tag") == [["0"]])
    }

    @Test func renamedEntityIsRenamedBack() throws {
        var member = PersonFixture.person
        (member.name, member.originalName) = ("Member", "Person")
        let (db, back) = try Self.roundTrip(newer: [member])
        #expect(back.stages[0].steps.map(\.op) == [.renameTable])
        #expect(back.stages[0].steps[0].sql == [#"ALTER TABLE "Member" RENAME TO "Person""#])
        #expect(try db.rows("SELECT id, name, age FROM Person ORDER BY id") == Self.everyone)
    }

    @Test func renamedAttributeIsRenamedBack() throws {
        let newer = PersonFixture.person {
            $0.attributes[2] = A.attribute("mail", .string, optional: true, originalName: "email")
        }
        let (db, back) = try Self.roundTrip(newer: [newer])
        #expect(back.stages[0].steps.map(\.op) == [.renameColumn])
        #expect(
            try db.rows("SELECT email FROM Person ORDER BY id") == [
                ["'ada@example.com'"], ["NULL"], ["'grace@example.com'"],
            ])
    }

    @Test func swappedAttributesAreSwappedBack() throws {
        let newer = PersonFixture.person {
            $0.attributes[0] = A.attribute("email", .string, default: "''", originalName: "name")
            $0.attributes[2] = A.attribute("name", .string, optional: true, originalName: "email")
            $0.indexes = [Schema.Index(["email"])]
        }
        let (db, _) = try Self.roundTrip(newer: [newer])
        #expect(try db.rows("SELECT id, name, age FROM Person ORDER BY id") == Self.everyone)
        #expect(try db.rows("SELECT email FROM Person WHERE id = 1") == [["'ada@example.com'"]])
    }

    @Test func addedOptionalAttributeIsDroppedWhenEmpty() throws {
        let newer = PersonFixture.person { $0.attributes.append(A.attribute("nickname", .string, optional: true)) }
        let (db, back) = try Self.roundTrip(newer: [newer])
        #expect(back.stages[0].steps.map(\.op) == [.dropColumn])
        #expect(try db.rows("SELECT id, name, age FROM Person ORDER BY id") == Self.everyone)
    }

    @Test func removedAttributeComesBackWithItsDefault() throws {
        let older = PersonFixture.person {
            $0.attributes.append(A.attribute("score", .double, default: "1.5"))
        }
        let (db, back) = try Self.roundTrip(newer: [PersonFixture.person], older: [older])
        #expect(back.stages[0].steps.map(\.op) == [.addColumn])
        #expect(try db.rows("SELECT score FROM Person ORDER BY id") == [["1.5"], ["1.5"], ["1.5"]])
    }

    @Test func exactTypeChangeGoesBackWhereTheWayBackIsExact() throws {
        // Forward bool → integer is exact (the value as is); back integer → bool is not a conversion
        // the planner makes, so it is refused; integer → string and back is refused the same way.
        let older = PersonFixture.person { $0.attributes[1] = A.attribute("age", .double, optional: true) }
        let newer = PersonFixture.person { $0.attributes[1] = A.attribute("age", .string, optional: true) }
        let db = TemporaryDatabase()
        let (v1, v2) = (A.schema(1, [older]), A.schema(2, [newer]))
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(PersonFixture.rows)
        try A.migrator([v1, v2]).migrate(databaseAt: db.url)
        let before = try db.bytes()
        #expect {
            try A.migrator([v1, v2], options: MigrationOptions(targetVersion: v1.version)).migrate(databaseAt: db.url)
        } throws: { error in
            let error = error as? MigrationError
            return error?.code == .unsupportedChange
                && error?.message.contains("taking back the stage 1.0.0 → 2.0.0") == true
                && error?.message.contains("from string to double") == true
        }
        #expect(try db.bytes() == before)
    }

    @Test func integerToDoubleWidenedForwardIsNarrowedBackOnlyByRefusal() throws {
        let newer = PersonFixture.person { $0.attributes[1] = A.attribute("age", .double, optional: true) }
        let db = TemporaryDatabase()
        let (v1, v2) = (A.schema(1, [PersonFixture.person]), A.schema(2, [newer]))
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(PersonFixture.rows)
        try A.migrator([v1, v2]).migrate(databaseAt: db.url)
        let before = try db.bytes()
        let back = try A.migrator([v1, v2], options: MigrationOptions(targetVersion: v1.version))
        #expect(throws: MigrationError.self) { try back.migrate(databaseAt: db.url) }
        #expect(throws: MigrationError.self) { try back.plan(databaseAt: db.url) }
        #expect(try db.bytes() == before)
    }

    @Test func optionalityChangesGoBack() throws {
        // Forward: age becomes non-optional with a default (NULLs take 0); back: optional again.
        let newer = PersonFixture.person { $0.attributes[1] = A.attribute("age", .integer, default: "0") }
        let (db, back) = try Self.roundTrip(newer: [newer])
        #expect(back.stages[0].steps.map(\.op) == [.rebuildTable])
        #expect(try db.rows("SELECT age FROM Person ORDER BY id") == [["36"], ["0"], ["85"]])
    }

    @Test func addedIndexIsDroppedAndRemovedIndexComesBack() throws {
        let newer = PersonFixture.person { $0.indexes = [Schema.Index(["age"])] }
        let (db, back) = try Self.roundTrip(newer: [newer])
        #expect(Set(back.stages[0].steps.map(\.op)) == [.dropIndex, .createIndex])
        #expect(try db.indexes("Person") == ["(name)"])
    }

    @Test func addedViewAndTriggerAreDropped() throws {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [PersonFixture.person])
        var v2 = A.schema(2, [PersonFixture.person])
        v2.sqlObjects = [
            Schema.SQLObject(.view, "CREATE VIEW Adult AS SELECT id, name FROM Person WHERE age >= 18"),
            Schema.SQLObject(
                .trigger,
                "CREATE TRIGGER PersonNamed AFTER INSERT ON Person BEGIN UPDATE Person SET name = trim(name) WHERE id = NEW.id; END"
            ),
        ]
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(PersonFixture.rows)
        try A.migrator([v1, v2]).migrate(databaseAt: db.url)
        #expect(try db.scalar("SELECT count(*) FROM sqlite_schema WHERE type IN ('view', 'trigger')")?.int64Value == 2)
        try A.migrator([v1, v2], options: MigrationOptions(targetVersion: v1.version)).migrate(databaseAt: db.url)
        #expect(try db.scalar("SELECT count(*) FROM sqlite_schema WHERE type IN ('view', 'trigger')")?.int64Value == 0)
        #expect(try db.recordedVersion() == "1.0.0")
    }

    @Test func threeVersionsBackInOneTransactionNewestFirst() throws {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [PersonFixture.person])
        let v2 = A.schema(
            2,
            [
                PersonFixture.person {
                    $0.attributes[2] = A.attribute("mail", .string, optional: true, originalName: "email")
                }
            ])
        let v3 = A.schema(
            3,
            [
                PersonFixture.person {
                    $0.attributes[2] = A.attribute("mail", .string, optional: true)
                    $0.attributes.append(A.attribute("nickname", .string, optional: true))
                }
            ])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(PersonFixture.rows)
        try A.migrator([v1, v2, v3]).migrate(databaseAt: db.url)
        let back = try A.migrator([v1, v2, v3], options: MigrationOptions(targetVersion: v1.version)).migrate(
            databaseAt: db.url)
        #expect(back.stages.map(\.header.description) == ["3.0.0 → 2.0.0 (revert)", "2.0.0 → 1.0.0 (revert)"])
        #expect(try db.rows("SELECT email FROM Person WHERE id = 3") == [["'grace@example.com'"]])
        let history = try A.migrator([v1, v2, v3]).history(databaseAt: db.url)
        #expect(history.suffix(2).map(\.kind) == ["revert", "revert"])
        #expect(history.last?.from == v2.version && history.last?.to == v1.version)
    }

    @Test func anAdoptedDatabaseMigratedInOneRunIsRevertedToTheVersionItWasAdoptedAt() throws {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [PersonFixture.person])
        let v2 = A.schema(2, [PersonFixture.person { $0.attributes.append(A.attribute("a", .string, optional: true)) }])
        let v3 = A.schema(
            3,
            [
                PersonFixture.person {
                    $0.attributes.append(A.attribute("a", .string, optional: true))
                    $0.attributes.append(A.attribute("b", .string, optional: true))
                }
            ])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute("DROP TABLE _schema_migrations")  // unversioned: recognised as 1.0.0 by its tables
        let migrator = try A.migrator([v1, v2, v3])
        let result = try migrator.migrate(databaseAt: db.url)
        #expect(result.adopted && result.stages.count == 2)
        #expect(try migrator.history(databaseAt: db.url).map(\.kind) == ["adopt", "lightweight", "lightweight"])
        #expect(try migrator.revertTarget(databaseAt: db.url) == v1.version)
        // A later run is reverted on its own.
        try A.migrator([v1, v2, v3], options: MigrationOptions(targetVersion: v2.version)).migrate(databaseAt: db.url)
        try migrator.migrate(databaseAt: db.url)
        #expect(try migrator.revertTarget(databaseAt: db.url) == v2.version)
    }

    @Test func sameVersionIsUpToDateAndUndeclaredVersionIsRefused() throws {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [PersonFixture.person])
        let v2 = A.schema(2, [PersonFixture.person { $0.attributes.removeLast() }])
        try A.migrator([v1, v2]).migrate(databaseAt: db.url)
        let before = try db.bytes()
        let same = try A.migrator([v1, v2], options: MigrationOptions(targetVersion: v2.version)).migrate(
            databaseAt: db.url)
        #expect(same.outcome == .upToDate)
        let missing = try A.migrator([v1, v2], options: MigrationOptions(targetVersion: Schema.Version(0, 9, 0)))
        #expect {
            try missing.migrate(databaseAt: db.url)
        } throws: { ($0 as? MigrationError)?.code == .invalidPlan }
        #expect(try db.bytes() == before)
    }
}
