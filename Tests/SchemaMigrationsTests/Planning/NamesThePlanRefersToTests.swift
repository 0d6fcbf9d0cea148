import Foundation
import Testing

@testable import SchemaMigrations

/// The names a plan refers to (an `originalName`, an entity or property a custom stage names)
/// get a "did you mean" when one is close, as the command's options do; and an error names a
/// property one way: its Swift name, with its column where that differs.
@Suite struct NamesThePlanRefersToTests {
    typealias A = PlanBuilder
    typealias P = PurePlanning

    @Test func aPropertysOriginalNameTypoSuggestsThePreviousVersionsProperty() throws {
        let error = try #require(throws: MigrationError.self) {
            try P.stage(
                from: [P.person()],
                to: [
                    P.person { $0.attributes[2] = A.attribute("mail", .string, optional: true, originalName: "emial") }
                ])
        }
        #expect(
            error.description == """
                error: property 'Person.mail' says it was renamed from 'emial', but version 2.0.0 is preceded by no property 'Person.emial'
                  entity: Person, property: mail, version: 2.0.0
                  fix: did you mean 'email'? correct originalName to the name in the previous version, or remove it to add property 'Person.mail' as new
                """)
    }

    @Test func anEntitysOriginalNameTypoSuggestsThePreviousVersionsEntity() throws {
        let error = try #require(throws: MigrationError.self) {
            try P.stage(
                from: [P.person()],
                to: [
                    P.person {
                        $0.name = "People"
                        $0.originalName = "Persn"
                    }
                ])
        }
        #expect(
            error.remedy
                == "did you mean 'Person'? correct originalName to the name in the previous version, or remove it to add entity 'People' as new"
        )
    }

    /// Nothing close: no guess, the remedy as it was.
    @Test func anOriginalNameFarFromEveryNameGetsNoGuess() throws {
        let error = try #require(throws: MigrationError.self) {
            try P.stage(
                from: [P.person()],
                to: [P.person { $0.attributes[2] = A.attribute("mail", .string, optional: true, originalName: "zzz") }])
        }
        #expect(
            error.remedy
                == "correct originalName to the name in the previous version, or remove it to add property 'Person.mail' as new"
        )
    }

    /// A name a property kept (already continued) is no guess for another's typo.
    @Test func aContinuedPropertyIsNoGuess() throws {
        let error = try #require(throws: MigrationError.self) {
            try P.stage(
                from: [P.person()],
                to: [
                    P.person {
                        $0.attributes.append(A.attribute("years", .integer, optional: true, originalName: "agee"))
                    }
                ])
        }
        #expect(error.remedy?.hasPrefix("did you mean") == false)
    }

    @Test func aCustomStagesEntityAndPropertyTyposSuggestTheDeclaredNames() throws {
        let v1 = A.schema(1, [PersonFixture.person])
        let v2 = A.schema(
            2, [PersonFixture.person { $0.attributes.append(A.attribute("nick", .string, optional: true)) }])
        let db = TemporaryDatabase()
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(PersonFixture.rows)
        var error = try #require(throws: MigrationError.self) {
            try A.migrator([v1, v2], kind: .custom, didMigrate: { try $0.forEach("Persons") { _ in } }).migrate(
                databaseAt: db.url)
        }
        #expect(error.remedy == "did you mean 'Person'? use one of: Person")
        error = try #require(throws: MigrationError.self) {
            try A.migrator(
                [v1, v2], kind: .custom, didMigrate: { try $0.forEach("Person", properties: ["nik"]) { _ in } }
            )
            .migrate(databaseAt: db.url)
        }
        #expect(error.remedy == "did you mean 'nick'? use one of: name, age, email, nick")
        #expect(try db.recordedVersion() == "1.0.0")
    }

    /// `@Attribute(column: "word_count") var wordCount: Int` added in a custom stage whose
    /// didMigrate fills nothing: the refusal names `wordCount`, its column beside it.
    @Test func anErrorNamesThePropertyByItsSwiftNameWithItsColumn() throws {
        var wordCount = A.attribute("word_count", .integer)
        wordCount.propertyName = "wordCount"
        let v1 = A.schema(1, [PersonFixture.person])
        let v2 = A.schema(2, [PersonFixture.person { $0.attributes.append(wordCount) }])
        let db = TemporaryDatabase()
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(PersonFixture.rows)
        let error = try #require(throws: MigrationError.self) {
            try A.migrator([v1, v2], kind: .custom).migrate(databaseAt: db.url)
        }
        #expect(
            error.description == """
                error: 'Person.wordCount' cannot become non-optional: 3 rows hold NULL
                  entity: Person, property: wordCount (column word_count), version: 2.0.0
                  - rows with NULL (id): 1, 2, 3
                  fix: make didMigrate set 'wordCount' on every row, or give it a default value
                """)
        #expect(error.property == "wordCount" && error.column == "word_count")
    }

    /// A lightweight stage's refusal names it the same way.
    @Test func aLightweightRefusalNamesThePropertyTheSameWay() throws {
        var wordCount = A.attribute("word_count", .integer)
        wordCount.propertyName = "wordCount"
        let v1 = A.schema(1, [PersonFixture.person])
        let v2 = A.schema(2, [PersonFixture.person { $0.attributes.append(wordCount) }])
        let db = TemporaryDatabase()
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(PersonFixture.rows)
        let error = try #require(throws: MigrationError.self) {
            try A.migrator([v1, v2]).migrate(databaseAt: db.url)
        }
        #expect(
            error.description == """
                error: cannot add non-optional attribute 'Person.wordCount' without a default value to a table with 3 rows
                  entity: Person, property: wordCount (column word_count), version: 2.0.0
                  fix: give 'wordCount' a default value, make it optional, or add it in a custom stage whose didMigrate fills it
                """)
    }

    /// One edit-distance helper for the command's options and the plan's names.
    @Test func theSuggestionIsTheCommandsOwn() {
        #expect(Suggestion.closest(to: "--databse", among: ["--database", "--plan"]) == "--database")
        #expect(Suggestion.remedy(for: "Persn", among: ["Trip", "Person"]) == "did you mean 'Person'?")
    }
}
