import Foundation
import Testing

@testable import SchemaMigrations

/// The dry run measures what each step would do to the live data, puts what can lose data first,
/// and never writes.
@Suite struct DryRunReportTests {
    typealias A = PlanBuilder

    static let person = PersonFixture.person
    /// V2 of Person: `email` dropped, `age` non-optional with a default (one rebuild).
    static let personV2 = PersonFixture.person { entity in
        entity.attributes.removeAll { $0.name == "email" }
        entity.attributes[1] = A.attribute("age", .integer, default: "0")
    }

    /// A database with Person at V1 and its three rows (Alan has no age and no email).
    static func populated(_ source: [Schema.Entity] = [person], rows: String = PersonFixture.rows) throws
        -> TemporaryDatabase
    {
        let db = TemporaryDatabase()
        try A.migrator([A.schema(1, source)]).migrate(databaseAt: db.url)
        try db.execute(rows)
        return db
    }

    @Test func aRebuildReportsRowsNullsAndLostValuesAndWarnsDestructiveFirst() throws {
        let db = try Self.populated()
        let report = try A.migrator([A.schema(1, [Self.person]), A.schema(2, [Self.personV2])]).plan(databaseAt: db.url)
        let step = try #require(report.stages.first?.steps.first)
        #expect(step.step.op == .rebuildTable)
        let impact = try #require(step.impact)
        #expect(impact.rows == 3)
        #expect(impact.nonEmptyValues == [.init(column: "Person.email", count: 2)])
        #expect(impact.nulls == [.init(column: "Person.age", count: 1, defaultValue: "0")])
        #expect(report.warnings.count == 2)
        #expect(report.warnings[0].hasPrefix("destructive: Rebuild table Person"))
        #expect(report.warnings[0].hasSuffix("(2 non-empty values)"))
        #expect(report.warnings[1] == "Person.age: 1 row holds NULL and will take the default 0")

        let text = report.description
        let warning = try #require(text.range(of: "WARNING: destructive: Rebuild table Person"))
        let stage = try #require(text.range(of: "stage 1.0.0 → 2.0.0"))
        #expect(warning.lowerBound < stage.lowerBound)
        #expect(text.contains("impact: Person.email: 2 non-empty values lost"))
        #expect(text.contains("impact: Person.age: 1 NULL takes the default 0"))
    }

    @Test func aDroppedTableReportsItsRowsAndValues() throws {
        let tag = Schema.Entity(name: "Tag", attributes: [A.attribute("label", .string, optional: true)])
        let db = try Self.populated(
            [Self.person, tag], rows: PersonFixture.rows + "INSERT INTO Tag (label) VALUES ('a'), (''), (NULL);")
        let report = try A.migrator([A.schema(1, [Self.person, tag]), A.schema(2, [Self.person])]).plan(
            databaseAt: db.url)
        let step = try #require(report.stages[0].steps.first { $0.step.op == .dropTable })
        #expect(step.impact?.rows == 3)
        #expect(step.impact?.nonEmptyValues == [.init(column: "Tag.label", count: 1)])
        #expect(report.warnings == ["destructive: Drop table Tag and all its rows (1 non-empty value in 3 rows)"])
    }

    @Test func aNewUniqueConstraintReportsItsDuplicatesAndTheRefusal() throws {
        let db = try Self.populated(
            rows: PersonFixture.rows + "INSERT INTO Person (name) VALUES ('Ada'), ('Ada'), ('Alan');")
        let unique = PersonFixture.person { $0.indexes.append(Schema.Index(["name"], isUnique: true)) }
        let report = try A.migrator([A.schema(1, [Self.person]), A.schema(2, [unique])]).plan(databaseAt: db.url)
        let step = try #require(report.stages[0].steps.first { $0.step.op == .createIndex })
        let duplicates = try #require(step.impact?.duplicates.first)
        #expect(duplicates.columns == ["name"] && duplicates.total == 2)
        #expect(duplicates.values == [.init(value: "'Ada'", rows: 3), .init(value: "'Alan'", rows: 2)])
        #expect(report.refusals.map(\.code) == [.dataViolation])
        #expect(report.description.contains("impact: (name): 2 values shared by several rows: 'Ada' ×3, 'Alan' ×2"))
    }

    @Test func onlyTheFirstStageIsMeasured() throws {
        let db = try Self.populated()
        let v3 = PersonFixture.person { $0.attributes.removeAll { $0.name == "age" } }
        let report = try A.migrator([A.schema(1, [Self.person]), A.schema(2, [Self.personV2]), A.schema(3, [v3])]).plan(
            databaseAt: db.url)
        #expect(report.stages.count == 2)
        #expect(report.stages[0].steps.allSatisfy { $0.impact != nil })
        #expect(report.stages[1].steps.allSatisfy { $0.impact == nil })
    }

    @Test func theJSONCarriesTheImpactAndWarnings() throws {
        let db = try Self.populated()
        let report = try A.migrator([A.schema(1, [Self.person]), A.schema(2, [Self.personV2])]).plan(databaseAt: db.url)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])
        #expect((object["warnings"] as? [String])?.count == 2)
        let stages = try #require(object["stages"] as? [[String: Any]])
        let step = try #require((stages[0]["steps"] as? [[String: Any]])?.first)
        let impact = try #require(step["impact"] as? [String: Any])
        #expect(impact["rows"] as? Int == 3)
        let lost = try #require((impact["nonEmptyValues"] as? [[String: Any]])?.first)
        #expect(lost["column"] as? String == "Person.email" && lost["count"] as? Int == 2)
        let nulls = try #require((impact["nulls"] as? [[String: Any]])?.first)
        #expect(
            nulls["column"] as? String == "Person.age" && nulls["count"] as? Int == 1
                && nulls["defaultValue"] as? String == "0")
        #expect((impact["duplicates"] as? [Any])?.isEmpty == true)
    }

    @Test func theMarkdownLeadsWithWarningsThenATablePerStage() throws {
        let db = try Self.populated()
        let markdown = try A.migrator([A.schema(1, [Self.person]), A.schema(2, [Self.personV2])]).plan(
            databaseAt: db.url
        ).markdown
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "### Migration of `test.sqlite`: 1.0.0 → 2.0.0")
        let warning = try #require(lines.firstIndex(of: "> [!WARNING]"))
        let stage = try #require(lines.firstIndex(of: "#### Stage 1.0.0 → 2.0.0 (lightweight)"))
        #expect(warning < stage)
        #expect(lines[warning + 1].hasPrefix("> - destructive: Rebuild table Person"))
        // The stage's class first: dropping a column and making one NOT NULL break 1.0.0's code.
        #expect(lines[stage + 2] == "**Breaking:** 1.0.0's code fails on it.")
        let table = try #require(lines.firstIndex(of: "| # | Step | Cost | Impact |"))
        #expect(lines[(stage + 4)..<(table - 1)].allSatisfy { $0.hasPrefix("- ") })
        #expect(lines[table + 2].hasPrefix("| 1 | Rebuild table Person"))
        #expect(
            lines[table + 2].hasSuffix(
                "| rewrites rows: 3, **destructive**, **breaking** | Person.email: 2 non-empty values lost<br>Person.age: 1 NULL takes the default 0 |"
            ))
        #expect(lines.contains("```sql"))
    }

    @Test func theDryRunNeverWritesEvenWhenTheFileIsWritable() throws {
        let db = try Self.populated()
        let before = try db.bytes()
        let migrator = try A.migrator([A.schema(1, [Self.person]), A.schema(2, [Self.personV2])])
        _ = try migrator.plan(databaseAt: db.url)
        _ = try migrator.script(databaseAt: db.url)
        _ = try migrator.status(databaseAt: db.url)
        #expect(try db.bytes() == before)
        #expect(try db.recordedVersion() == "1.0.0")
    }
}
