import Foundation
import Testing

@testable import SchemaMigrations

/// A way back that would drop what the newer versions added: counted by the dry run, refused
/// (the file byte for byte unchanged) unless `allowDataLoss`, and the dry run's SQL is the
/// migration's, in order.
@Suite struct ReversalDataLossTests {
    typealias A = PlanBuilder

    static let v1 = A.schema(1, [PersonFixture.person])
    static let v2 = A.schema(
        2,
        [
            PersonFixture.person { $0.attributes.append(A.attribute("nick", .string, optional: true)) },
            Schema.Entity(name: "Tag", attributes: [A.attribute("label", .string, default: "''")]),
        ])
    /// V3 renames V2's `nick` to `nickname`, and adds `score`.
    static let v3 = A.schema(
        3,
        [
            PersonFixture.person {
                $0.attributes.append(A.attribute("nickname", .string, optional: true, originalName: "nick"))
                $0.attributes.append(A.attribute("score", .integer, optional: true))
            },
            Schema.Entity(name: "Tag", attributes: [A.attribute("label", .string, default: "''")]),
        ])

    /// A database at V3 whose rows fill what V2 and V3 added: 2 nicknames, 1 score (0 counts:
    /// it is data), one empty string (not data), 3 tags.
    static func database() throws -> TemporaryDatabase {
        let db = TemporaryDatabase()
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(PersonFixture.rows)
        try A.migrator([v1, v2, v3]).migrate(databaseAt: db.url)
        try db.execute(
            """
            UPDATE Person SET nickname = 'Addie' WHERE id = 1; UPDATE Person SET nickname = 'Gracie' WHERE id = 3;
            UPDATE Person SET nickname = '' WHERE id = 2; UPDATE Person SET score = 0 WHERE id = 2;
            INSERT INTO Tag (label) VALUES ('a'), ('b'), ('c');
            """)
        return db
    }

    static func migrator(allowDataLoss: Bool = false, to version: Schema.Version = v1.version) throws -> Migrator {
        try A.migrator(
            [v1, v2, v3], options: MigrationOptions(targetVersion: version, allowDataLoss: allowDataLoss))
    }

    @Test func theDryRunCountsWhatEachStageOfTheWayBackDrops() throws {
        let db = try Self.database()
        let before = try db.bytes()
        let report = try Self.migrator().plan(databaseAt: db.url)
        #expect(report.stages.map(\.header.description) == ["3.0.0 → 2.0.0 (revert)", "2.0.0 → 1.0.0 (revert)"])
        #expect(
            report.dataLoss.map(\.description) == [
                "3.0.0 → 2.0.0 drops 'Person.score': 1 non-empty value",
                "2.0.0 → 1.0.0 drops the table 'Tag': 3 rows",
                "2.0.0 → 1.0.0 drops 'Person.nick': 2 non-empty values",
            ])
        let refusal = try #require(report.refusals.first)
        #expect(refusal.code == .unsupportedChange)
        #expect(
            refusal.message
                == "taking the database back from 3.0.0 to 1.0.0 would drop data the newer versions added: the stage 3.0.0 → 2.0.0 drops 'Person.score': 1 non-empty value, and 2 more (6 in all)"
        )
        #expect(refusal.description.contains("\n  fix: copy what must be kept elsewhere, then allow the loss"))
        #expect(report.warnings.first == "data loss: 3.0.0 → 2.0.0 drops 'Person.score': 1 non-empty value")
        let json = try #require(JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])
        #expect((json["stages"] as? [[String: Any]])?.map { $0["kind"] as? String } == ["revert", "revert"])
        let losses = try #require(json["dataLoss"] as? [[String: Any]])
        #expect(losses.first?["table"] as? String == "Person" && losses.first?["column"] as? String == "score")
        #expect(losses.first?["from"] as? String == "3.0.0" && losses.first?["count"] as? Int == 1)
        #expect(try db.bytes() == before)
    }

    @Test func theMigrationRefusesTheLossBeforeWritingAnything() throws {
        let db = try Self.database()
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) { try Self.migrator().migrate(databaseAt: db.url) }
        #expect(error.message.hasPrefix("taking the database back from 3.0.0 to 1.0.0 would drop data"))
        #expect(error.entity == "Person" && error.property == "score" && error.version == Self.v3.version)
        #expect(error.details.count == 3)
        #expect(try db.bytes() == before)
        #expect(try db.recordedVersion() == "3.0.0")
    }

    @Test func allowedTheLossTheWayBackKeepsEveryRowOfTheOlderColumns() throws {
        let db = try Self.database()
        let result = try Self.migrator(allowDataLoss: true).migrate(databaseAt: db.url)
        #expect(result.toVersion == Self.v1.version)
        #expect(try db.recordedVersion() == "1.0.0")
        #expect(try db.columns("Person").keys.sorted() == ["age", "email", "id", "name"])
        #expect(
            try db.rows("SELECT id, name, age, email FROM Person ORDER BY id") == [
                ["1", "'Ada'", "36", "'ada@example.com'"], ["2", "'Alan'", "NULL", "NULL"],
                ["3", "'Grace'", "85", "'grace@example.com'"],
            ])
        #expect(try db.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'Tag'")?.int64Value == 0)
    }

    @Test func emptyAddedColumnsAndTablesGoBackWithoutBeingAllowed() throws {
        let db = TemporaryDatabase()
        try A.migrator([Self.v1]).migrate(databaseAt: db.url)
        try db.execute(PersonFixture.rows)
        try A.migrator([Self.v1, Self.v2, Self.v3]).migrate(databaseAt: db.url)
        try db.execute("UPDATE Person SET nickname = ''")  // empty: not data
        let report = try Self.migrator().plan(databaseAt: db.url)
        #expect(report.dataLoss.isEmpty && report.refusals.isEmpty)
        try Self.migrator().migrate(databaseAt: db.url)
        #expect(try db.recordedVersion() == "1.0.0")
    }

    @Test func oneStageBackCountsOnlyWhatThatStageDrops() throws {
        let db = try Self.database()
        let report = try Self.migrator(to: Self.v2.version).plan(databaseAt: db.url)
        #expect(report.dataLoss.map(\.description) == ["3.0.0 → 2.0.0 drops 'Person.score': 1 non-empty value"])
        // Measured on the live data of the first stage as any dry run: the dropped column's values.
        let drop = try #require(report.stages.first?.steps.first { $0.step.op == .dropColumn })
        #expect(drop.impact?.nonEmptyValues.map(\.count) == [1])
    }

    @Test func theDryRunShowsTheStatementsTheWayBackRunsInOrder() throws {
        let db = try Self.database()
        let report = try Self.migrator(allowDataLoss: true).plan(databaseAt: db.url)
        let planned = report.stages.flatMap { $0.steps.flatMap(\.sql) }
        let connection = try db.connect()
        let recorder = StatementRecorder()
        connection.startRecording(into: recorder)
        defer { connection.stopRecording() }
        try Self.migrator(allowDataLoss: true).migrate(using: connection)
        let ran = recorder.entries.compactMap { entry -> String? in
            guard case .statement(let sql, readOnly: false) = entry else { return nil }
            return sql
        }
        // Every statement the dry run shows ran, in the same order; what runs besides them is the
        // framing (transaction, settings, checks) and the metadata row.
        var remaining = ran[...]
        for statement in planned {
            guard let found = remaining.firstIndex(of: statement) else {
                Issue.record("the dry run's statement did not run (in order): \(statement)\nran: \(ran)")
                return
            }
            remaining = remaining[(found + 1)...]
        }
        let schemaChanges = ran.filter { statement in
            !statement.contains("_schema_migrations")
                && ["CREATE", "DROP", "ALTER", "INSERT"].contains { statement.hasPrefix($0) }
        }
        #expect(schemaChanges.count == planned.filter { !$0.hasPrefix("PRAGMA") }.count, "\(schemaChanges)\n\(planned)")
    }

    @Test func deniedDestructiveStepsAreTheDryRunsWarningsOnTheWayBack() throws {
        let db = try Self.database()
        let report = try Self.migrator(allowDataLoss: true).plan(databaseAt: db.url)
        #expect(report.hasDestructiveSteps)
        #expect(report.refusals.isEmpty)
    }
}
