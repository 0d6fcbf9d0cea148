import Foundation
import Testing
@testable import SchemaMigrations

extension Reliability.Regressions {
    /// Found by the database file fuzzer: a database with a damaged page was migrated as if it
    /// were sound: rows in the damaged pages were silently not copied, or the migration
    /// "succeeded" and left a file that could not be read. With one page zeroed at a time, every
    /// migration must now refuse (`notADatabase`, file untouched) or keep every row, soundly.
    @Test func aDatabaseWithADamagedPageIsRefusedUntouched() throws {
        let scratch = Scratch("regression")
        let pristine = scratch.url("pristine.sqlite")
        try FaultFixture.populate(pristine, wal: false)
        let rows = try DatabaseState.read(pristine, plan: FaultFixture.planName).rows
        let bytes = [UInt8](try Data(contentsOf: pristine))
        var refused = 0
        for page in 1..<(bytes.count / 4096) {
            let url = scratch.url("page-\(page).sqlite")
            var damaged = bytes
            for i in page * 4096..<(page + 1) * 4096 { damaged[i] = 0 }
            try Data(damaged).write(to: url)
            do {
                try FaultFixture.migrator().migrate(databaseAt: url)
                let after = try? DatabaseState.read(url, plan: FaultFixture.planName)
                #expect(after?.integrity == "ok" && after?.rows == rows, "page \(page) zeroed: migrated to \(after?.description ?? "a file that cannot be read"), had \(rows) rows")
            } catch let error as MigrationError {
                refused += 1
                #expect(try Data(contentsOf: url) == Data(damaged), "page \(page) zeroed: \(error.code), but the file changed")
            }
        }
        #expect(refused > 0)
    }

    /// Found by the benchmark after the check above was added for the whole database: adding an
    /// optional column to a 1,000,000-row table went from 3 ms to 0.3 s. The check now reads only
    /// what a stage reads: nothing for `ADD COLUMN`, the rebuilt table for a rebuild, everything
    /// before a custom stage's code.
    @Test func theCheckReadsOnlyWhatTheStageReads() throws {
        let item = Schema.Entity(name: "Item", attributes: [Schema.Attribute(name: "name", valueType: .string, defaultValue: "''")])
        let other = Schema.Entity(name: "Other", attributes: [Schema.Attribute(name: "x", valueType: .integer, isOptional: true)])
        var added = item, retyped = item
        added.attributes.append(Schema.Attribute(name: "note", valueType: .string, isOptional: true))
        retyped.attributes[0].isOptional = true  // a rebuild
        let v1 = Schema(version: Schema.Version(1, 0, 0), entities: [item, other])
        for (target, kind, expected) in [(added, StageKind.lightweight, [String]()), (retyped, .lightweight, ["PRAGMA quick_check('Item')"]),
                                         (added, .custom, ["PRAGMA quick_check(10)"])] {
            let scratch = Scratch("regression")
            let url = scratch.url("db.sqlite")
            try Migrator(resolvedPlan: try ResolvedPlan(name: "default", schemas: [v1], stages: [])).migrate(databaseAt: url)
            let v2 = Schema(version: Schema.Version(2, 0, 0), entities: [target, other])
            let nothing: @Sendable (MigrationContext) throws -> Void = { _ in }
            let stage = ResolvedStage(from: v1.version, to: v2.version, kind: kind, didMigrate: kind == .custom ? nothing : nil)
            let db = try SQLiteConnection(path: url.path)
            let recorder = StatementRecorder()
            db.startRecording(into: recorder)
            try Migrator(resolvedPlan: try ResolvedPlan(name: "default", schemas: [v1, v2], stages: [stage])).migrate(connection: db.handle)
            db.stopRecording()
            let checks = recorder.entries.compactMap { entry -> String? in
                if case .statement(let sql, _) = entry, sql.hasPrefix("PRAGMA quick_check") { return sql }
                return nil
            }
            #expect(checks == expected, "\(kind) stage to \(target.attributes.map(\.name))")
        }
    }
}
