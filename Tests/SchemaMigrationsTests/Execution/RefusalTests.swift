import Foundation
import Testing

@testable import SchemaMigrations

/// Every refusal: the exact error, and the database file unchanged, byte for byte.
@Suite struct RefusalTests {
    typealias A = PlanBuilder
    static let person = PersonFixture.person

    /// A V1 database with rows; `attempt` must throw; the file must be unchanged afterwards.
    static func refusal(
        to target: [Schema.Entity], rows: String = PersonFixture.rows, kind: StageKind = .lightweight,
        willMigrate: (@Sendable (MigrationContext) throws -> Void)? = nil,
        didMigrate: (@Sendable (MigrationContext) throws -> Void)? = nil
    ) throws -> MigrationError {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [person])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(rows)
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) {
            try A.migrator([v1, A.schema(2, target)], kind: kind, willMigrate: willMigrate, didMigrate: didMigrate)
                .migrate(databaseAt: db.url)
        }
        #expect(try db.bytes() == before, "the database must be unchanged after: \(error)")
        #expect(try db.recordedVersion() == "1.0.0")
        return error
    }

    static func person(_ change: (inout Schema.Entity) -> Void) -> Schema.Entity { PersonFixture.person(change) }

    @Test func nonOptionalWithoutDefaultOnANonEmptyTable() throws {
        let error = try Self.refusal(to: [Self.person { $0.attributes.append(A.attribute("rating", .integer)) }])
        #expect(error.code == .unsupportedChange)
        #expect(
            error.message
                == "cannot add non-optional attribute 'Person.rating' without a default value to a table with 3 rows")
        #expect(error.entity == "Person" && error.property == "rating")
        #expect(
            error.remedy
                == "give 'rating' a default value, make it optional, or add it in a custom stage whose didMigrate fills it"
        )
    }

    @Test func nonOptionalWithoutDefaultOnAnEmptyTableIsAllowed() throws {
        let (db, _) = try PersonFixture.migrate(
            to: [Self.person { $0.attributes.append(A.attribute("rating", .integer)) }], rows: "")
        #expect(try db.columns("Person")["rating"] == "INTEGER NOT NULL")
    }

    @Test func originalNameThatDoesNotExistInTheSource() throws {
        let error = try Self.refusal(to: [
            Self.person { $0.attributes[2] = A.attribute("mail", .string, optional: true, originalName: "e_mail") }
        ])
        #expect(error.code == .unsupportedChange)
        #expect(
            error.message
                == "property 'Person.mail' says it was renamed from 'e_mail', but version 2.0.0 is preceded by no property 'Person.e_mail'"
        )
        #expect(error.property == "mail")
    }

    @Test func entityOriginalNameThatDoesNotExist() throws {
        let error = try Self.refusal(to: [
            Self.person {
                $0.name = "Member"
                $0.originalName = "People"
            }
        ])
        #expect(error.code == .unsupportedChange)
        #expect(error.entity == "Member")
        #expect(
            error.message
                == "entity 'Member' says it was renamed from 'People', but version 2.0.0 is preceded by no entity 'People'"
        )
    }

    @Test func twoPropertiesClaimingOneOriginalName() throws {
        let error = try Self.refusal(to: [
            Self.person {
                $0.attributes = [
                    A.attribute("name", .string, default: "''"), A.attribute("age", .integer, optional: true),
                    A.attribute("mail", .string, optional: true, originalName: "email"),
                    A.attribute("contact", .string, optional: true, originalName: "email"),
                ]
            }
        ])
        #expect(error.code == .unsupportedChange)
        #expect(
            error.message
                == "property 'Person.mail' and property 'Person.contact' both continue property 'Person.email' of the previous version"
        )
    }

    @Test func renameWithAnIncompatibleTypeChange() throws {
        let error = try Self.refusal(to: [
            Self.person {
                $0.attributes[1] = A.attribute("years", .string, optional: true, originalName: "age").with(type: .date)
            }
        ])
        #expect(error.code == .unsupportedChange)
        #expect(
            error.message
                == "a lightweight stage cannot change 'Person.years' from integer to date while renaming it from 'age': there is no lossless conversion"
        )
        #expect(error.remedy?.hasSuffix("or rename in one version and change the type in the next") == true)
    }

    @Test func typeChangeWithoutConversion() throws {
        let error = try Self.refusal(to: [
            Self.person { $0.attributes[0] = A.attribute("name", .integer, default: "0") }
        ])
        #expect(
            error.message
                == "a lightweight stage cannot change 'Person.name' from string to integer: there is no lossless conversion"
        )
    }

    @Test func uniqueConstraintWhereTheDataHoldsDuplicates() throws {
        let error = try Self.refusal(
            to: [Self.person { $0.indexes.append(Schema.Index(["age"], isUnique: true)) }],
            rows: PersonFixture.rows + "INSERT INTO Person (name, age) VALUES ('Bob', 36), ('Eve', 36), ('Zed', 85);")
        #expect(error.code == .dataViolation)
        #expect(error.message == "cannot make (age) unique on 'Person': 2 values are shared by more than one row")
        #expect(error.details == ["36 is shared by 3 rows", "85 is shared by 2 rows"])
    }

    @Test func compositeUniqueConstraintListsTheDuplicateCombinations() throws {
        let error = try Self.refusal(
            to: [Self.person { $0.indexes.append(Schema.Index(["name", "age"], isUnique: true)) }],
            rows: PersonFixture.rows + "INSERT INTO Person (name, age) VALUES ('Ada', 36);")
        #expect(error.details == ["('Ada', 36) is shared by 2 rows"])
    }

    @Test func nullsTakingADefaultUnderAKeptUniqueIndexAreRefusedBeforeAnyWrite() throws {
        let unique = Self.person { $0.indexes.append(Schema.Index(["email"], isUnique: true)) }
        let db = TemporaryDatabase()
        let v1 = A.schema(1, [unique])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(PersonFixture.rows)  // Alan's email is NULL
        try db.execute("INSERT INTO Person (name) VALUES ('Bob')")  // a second NULL: both would become ''
        let before = try db.bytes()
        var v2entity = unique
        v2entity.attributes[2] = A.attribute("email", .string, default: "''")
        let error = try #require(throws: MigrationError.self) {
            try A.migrator([v1, A.schema(2, [v2entity])]).migrate(databaseAt: db.url)
        }
        #expect(error.code == .dataViolation)
        #expect(error.details == ["'' is shared by 2 rows"])
        #expect(try db.bytes() == before)
    }

    @Test func optionalToNonOptionalWithoutDefaultWhenRowsHoldNull() throws {
        let error = try Self.refusal(to: [Self.person { $0.attributes[1] = A.attribute("age", .integer) }])
        #expect(error.code == .dataViolation)
        #expect(error.message == "'Person.age' cannot become non-optional: 1 row holds NULL")
        #expect(error.details == ["rows with NULL (id): 2"])
    }

    @Test func aCustomStageThatThrowsRollsEverythingBack() throws {
        struct Oops: Error {}
        let error = try Self.refusal(
            to: [Self.person { $0.attributes.append(A.attribute("nickname", .string, optional: true)) }], kind: .custom,
            willMigrate: { context in try context.execute("DELETE FROM Person WHERE id = 1") },
            didMigrate: { context in
                try context.execute("UPDATE Person SET nickname = 'x'")
                throw Oops()
            })
        #expect(error.code == .customStageFailed)
        #expect(error.message == "didMigrate of the stage 1.0.0 → 2.0.0 threw; everything was rolled back")
        #expect(error.cause.map { "\($0)" } == "Oops()")
    }

    @Test func aCustomStageThatLeavesARequiredValueEmpty() throws {
        let error = try Self.refusal(
            to: [Self.person { $0.attributes.append(A.attribute("rating", .integer)) }], kind: .custom,
            didMigrate: { context in try context.execute("UPDATE Person SET rating = age") })
        #expect(error.code == .dataViolation)
        #expect(error.message == "'Person.rating' cannot become non-optional: 1 row holds NULL")
        #expect(error.details == ["rows with NULL (id): 2"])
    }

    @Test func aCustomStageFillsARequiredValue() throws {
        let db2 = TemporaryDatabase()
        let v1 = A.schema(1, [Self.person])
        let v2 = A.schema(2, [Self.person { $0.attributes.append(A.attribute("rating", .integer)) }])
        try A.migrator([v1]).migrate(databaseAt: db2.url)
        try db2.execute(PersonFixture.rows)
        let migrated = try A.migrator(
            [v1, v2], kind: .custom,
            didMigrate: { context in
                try context.execute("UPDATE Person SET rating = IFNULL(age, 0) * 10")
            }
        ).migrate(databaseAt: db2.url)
        #expect(migrated.stages[0].steps.map(\.op) == [.addColumn])
        #expect(migrated.stages[0].finalizingSteps.map(\.op) == [.rebuildTable])
        #expect(try db2.columns("Person")["rating"] == "INTEGER NOT NULL")
        #expect(
            try db2.rows("SELECT id, rating FROM Person ORDER BY id") == [["1", "360"], ["2", "0"], ["3", "850"]])
    }
}

extension Schema.Attribute {
    func with(type: Schema.ValueType) -> Schema.Attribute {
        var copy = self
        copy.valueType = type
        return copy
    }
}
