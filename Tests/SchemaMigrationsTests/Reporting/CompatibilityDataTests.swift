import Foundation
import Testing

@testable import SchemaMigrations

/// The library's side of compatibility: ``MigrationOptions/requireCompatible`` refuses a breaking
/// stage before anything is written (the dry run first, in the same words), and the reasons
/// that depend on the data or change only the values read, shown one by one on a real database
/// with the previous version's own statements.
@Suite struct CompatibilityDataTests {
    typealias A = PlanBuilder
    typealias P = PersonFixture

    static func person(_ change: (inout Schema.Entity) -> Void) -> Schema.Entity { P.person(change) }

    /// Person at V1 with its three rows, and a migrator to V2 (`target`) with `options`.
    static func atV1(
        to target: [Schema.Entity], kind: StageKind = .lightweight, options: MigrationOptions = MigrationOptions()
    ) throws -> (TemporaryDatabase, Migrator) {
        let db = TemporaryDatabase()
        try A.migrator([A.schema(1, [P.person])]).migrate(databaseAt: db.url)
        try db.execute(P.rows)
        return (db, try A.migrator([A.schema(1, [P.person]), A.schema(2, target)], kind: kind, options: options))
    }

    @Test func requireCompatibleRefusesABreakingStageBeforeAnyWriteAndTheDryRunSaysItFirst() throws {
        var options = MigrationOptions()
        options.requireCompatible = true
        let renamed = Self.person {
            $0.attributes[2] = A.attribute("mail", .string, optional: true, originalName: "email")
        }
        let (db, migrator) = try Self.atV1(to: [renamed], kind: .custom, options: options)
        let backup = db.url.appendingPathExtension("backup")
        var withBackup = migrator
        withBackup.options.backupURL = backup
        let before = try Data(contentsOf: db.url)

        let report = try migrator.plan(databaseAt: db.url)
        #expect(report.hasBreakingStages)
        let refusal = try #require(report.refusals.first { $0.code == .incompatibleChange })
        let error = try #require(throws: MigrationError.self) { try withBackup.migrate(databaseAt: db.url) }
        #expect(error.code == .incompatibleChange)
        #expect(error.description == refusal.description, "the dry run refuses first, in the same words")
        #expect(
            error.description == """
                error: stage 1.0.0 → 2.0.0 breaks the code of version 1.0.0, which instances not yet updated still run
                  entity: Person, property: email, version: 2.0.0
                  - 1.0.0 → 2.0.0: renames column Person.email to mail: the previous version reads and writes email
                  - 1.0.0 → 2.0.0: a custom stage; its willMigrate / didMigrate code is not classified
                  fix: \(MigrationError.expandContractRemedy)
                """)
        #expect(try Data(contentsOf: db.url) == before, "refused: the file is byte for byte as it was")
        #expect(!FileManager.default.fileExists(atPath: backup.path), "and no backup was written")

        // Off (the default), the same plan migrates.
        var plain = migrator
        plain.options.requireCompatible = false
        #expect(try plain.migrate(databaseAt: db.url).toVersion == Schema.Version(2, 0, 0))
    }

    /// The framing a dqlite cluster's migration runs through refuses too, under its lock, before
    /// its `beforeStages` (the cluster's backup) and before any write.
    @Test func requireCompatibleRefusesInEveryFramingBeforeItsBackup() throws {
        var options = MigrationOptions()
        options.requireCompatible = true
        let (db, migrator) = try Self.atV1(to: [Self.person { $0.attributes.removeLast() }], options: options)
        let before = try Data(contentsOf: db.url)
        let connection = try db.connect()
        nonisolated(unsafe) var backedUp = false
        let error = try #require(throws: MigrationError.self) {
            try migrator.migrate(framedBy: FileFraming(connection: connection), beforeStages: { backedUp = true })
        }
        #expect(error.code == .incompatibleChange)
        #expect(error.details == ["1.0.0 → 2.0.0: drops column Person.email: the previous version reads and writes it"])
        #expect(!backedUp)
        #expect(try Data(contentsOf: db.url) == before)
    }

    @Test func requireCompatibleLetsACompatibleStageRun() throws {
        var options = MigrationOptions()
        options.requireCompatible = true
        let added = Self.person { $0.attributes.append(A.attribute("nickname", .string, optional: true)) }
        let (db, migrator) = try Self.atV1(to: [added], options: options)
        #expect(try migrator.plan(databaseAt: db.url).refusals.isEmpty)
        #expect(try migrator.migrate(databaseAt: db.url).toVersion == Schema.Version(2, 0, 0))
        // The previous version's insert, all its columns given, still runs.
        try db.execute("INSERT INTO Person (name, age, email) VALUES ('Edsger', NULL, NULL)")
    }

    @Test func creatingTheSchemaIsCompatibleAndNeverRefused() throws {
        var options = MigrationOptions()
        options.requireCompatible = true
        let db = TemporaryDatabase()
        let migrator = try A.migrator(
            [A.schema(1, [P.person]), A.schema(2, [Self.person { $0.attributes.removeLast() }])], options: options)
        let report = try migrator.plan(databaseAt: db.url)
        #expect(report.refusals.isEmpty && !report.hasBreakingStages)
        #expect(report.description.contains("\n  compatible: it creates the schema; no code ran before it\n"))
        #expect(try migrator.migrate(databaseAt: db.url).outcome == .created)
    }

    @Test func aNewUniqueRefusesThePreviousVersionsInsertOfARepeatedValueOnly() throws {
        let unique = Self.person { $0.indexes.append(Schema.Index(["email"], isUnique: true)) }
        let (db, migrator) = try Self.atV1(to: [unique])
        let reason = try #require(try migrator.lint().stages[0].compatibility.reasons.first)
        #expect(reason.kind == .uniqueAdded && reason.effect == .writesMayFail && reason.dependsOnData)
        try migrator.migrate(databaseAt: db.url)
        #expect(throws: SQLiteError.self) {
            try db.execute("INSERT INTO Person (name, age, email) VALUES ('Ada 2', 1, 'ada@example.com')")
        }
        try db.execute("INSERT INTO Person (name, age, email) VALUES ('Barbara', 1, 'barbara@example.com')")
    }

    @Test func aNewCheckRefusesThePreviousVersionsWritesItBreaksOnly() throws {
        let checked = Self.person { $0.constraints = [.check("age IS NULL OR age >= 0")] }
        let (db, migrator) = try Self.atV1(to: [checked])
        let reason = try #require(try migrator.lint().stages[0].compatibility.reasons.first)
        #expect(reason.kind == .checkAdded && reason.effect == .writesMayFail)
        try migrator.migrate(databaseAt: db.url)
        #expect(throws: SQLiteError.self) {
            try db.execute("INSERT INTO Person (name, age, email) VALUES ('Negative', -1, NULL)")
        }
        try db.execute("INSERT INTO Person (name, age, email) VALUES ('Positive', 1, NULL)")
    }

    @Test func aTypeChangeLetsThePreviousVersionsStatementsRunButItReadsOtherValues() throws {
        let real = Self.person { $0.attributes[1].valueType = .double }
        let (db, migrator) = try Self.atV1(to: [real])
        let reason = try #require(try migrator.lint().stages[0].compatibility.reasons.first)
        #expect(reason.kind == .typeChanged && reason.effect == .valuesDiffer)
        try migrator.migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Person (name, age, email) VALUES ('Edsger', 72, NULL)")
        // What the previous version wrote as an integer, it reads back as a REAL.
        let types = try db.rows("SELECT typeof(age) FROM Person WHERE age IS NOT NULL ORDER BY id").map { $0[0] }
        #expect(types == ["'real'", "'real'", "'real'"], "\(types)")
    }
}
