import Foundation
import Testing

@testable import SchemaMigrations

extension Reliability.Regressions {
    /// Found by the database file fuzzer: a database with a damaged page was migrated as if it
    /// were sound: rows in the damaged pages were silently not copied, or the migration
    /// "succeeded" and left a file that could not be read. With one page zeroed at a time, every
    /// migration must now refuse (`notADatabase`, file untouched) or migrate without reading
    /// damaged data: the table the plan rebuilds and rewrites (`Item`) holds exactly what it holds
    /// when the pristine file is migrated, and passes `quick_check`. A damaged table the plan only
    /// renames (`Note`) is not read, so it may stay as damaged as it was: repairing it is the
    /// owner's (RELIABILITY.md).
    @Test func aDatabaseWithADamagedPageIsRefusedUntouched() throws {
        let scratch = Scratch("regression")
        let pristine = scratch.url("pristine.sqlite")
        try FaultFixture.populate(pristine, wal: false)
        let bytes = [UInt8](try Data(contentsOf: pristine))
        let migrated = scratch.url("migrated.sqlite")
        try Data(bytes).write(to: migrated)
        try FaultFixture.migrator().migrate(databaseAt: migrated)
        let items = try Self.items(migrated)
        var refused = 0
        for page in 1..<(bytes.count / 4096) {
            let url = scratch.url("page-\(page).sqlite")
            var damaged = bytes
            for i in page * 4096..<(page + 1) * 4096 { damaged[i] = 0 }
            try Data(damaged).write(to: url)
            do {
                try FaultFixture.migrator().migrate(databaseAt: url)
                let after = try? Self.items(url)
                #expect(
                    after == items,
                    "page \(page) zeroed: migrated, Item then held \(after.map { "\($0.rows) rows, quick_check \($0.check)" } ?? "unreadable rows"), not \(items.rows) rows"
                )
            } catch let error as MigrationError {
                refused += 1
                #expect(
                    try Data(contentsOf: url) == Data(damaged),
                    "page \(page) zeroed: \(error.code), but the file changed")
            }
        }
        #expect(refused > 0)
    }

    /// Found by the long run's database fuzzer once custom code's checks followed what the code
    /// touches: a flipped byte in page 1's b-tree header (the schema table's, which every stage
    /// writes and no table's check covers) was migrated through. The schema table is checked
    /// before each stage now.
    @Test func aDamagedSchemaPageIsRefusedUntouched() throws {
        let scratch = Scratch("regression")
        let url = scratch.url("db.sqlite")
        try FaultFixture.populate(url, wal: false)
        var bytes = [UInt8](try Data(contentsOf: url))
        bytes[100 + 7] = 239  // page 1's "fragmented free bytes", after the 100-byte file header
        try Data(bytes).write(to: url)
        let error = try #require(throws: MigrationError.self) { try FaultFixture.migrator().migrate(databaseAt: url) }
        #expect(error.code == .notADatabase)
        #expect(error.details.contains { $0.contains("reported as 239 on page 1") })
        #expect(try Data(contentsOf: url) == Data(bytes))
    }

    struct ItemState: Equatable {
        var rows: Int
        var checksum: UInt64
        var check: String
    }

    /// `Item`'s rows (checksum and count) and `PRAGMA quick_check('Item')`.
    static func items(_ url: URL) throws -> ItemState {
        let db = try SQLiteConnection(path: url.path, mode: .readOnly)
        var hasher = FNV1a()
        var rows = 0
        let statement = try db.prepare(
            "SELECT quote(id) || quote(name) || quote(category) || quote(amount) || quote(weight) || quote(rating) || quote(score) FROM Item ORDER BY id"
        )
        while try statement.step() {
            hasher.add(statement.column(0).stringValue ?? "")
            rows += 1
        }
        let check = try db.rows("PRAGMA quick_check('Item')").map { $0.first?.description ?? "" }.joined(
            separator: "; ")
        return ItemState(rows: rows, checksum: hasher.value, check: check)
    }

    /// Found by the benchmark after the check above was added for the whole database: adding an
    /// optional column to a 1,000,000-row table went from 3 ms to 0.3 s. The check now reads only
    /// what a stage reads: the schema table alone for `ADD COLUMN`, the rebuilt table for a
    /// rebuild, and for a custom stage each table its code touches, just before the code's first
    /// statement on it.
    @Test func theCheckReadsOnlyWhatTheStageReads() throws {
        let item = Schema.Entity(
            name: "Item", attributes: [Schema.Attribute(name: "name", valueType: .string, defaultValue: "''")])
        let other = Schema.Entity(
            name: "Other", attributes: [Schema.Attribute(name: "x", valueType: .integer, isOptional: true)])
        var added = item
        var retyped = item
        added.attributes.append(Schema.Attribute(name: "note", valueType: .string, isOptional: true))
        retyped.attributes[0].isOptional = true  // a rebuild
        let v1 = Schema(version: Schema.Version(1, 0, 0), entities: [item, other])
        let schema = "PRAGMA quick_check('sqlite_schema')"  // every stage writes it; a few pages
        let nothing: @Sendable (MigrationContext) throws -> Void = { _ in }
        let readsOther: @Sendable (MigrationContext) throws -> Void = { context in
            _ = try context.scalar("SELECT count(*) FROM Other")
        }
        let cases: [(Schema.Entity, (@Sendable (MigrationContext) throws -> Void)?, [String])] = [
            (added, nil, [schema]), (retyped, nil, [schema, "PRAGMA quick_check('Item')"]),
            (added, nothing, [schema]), (added, readsOther, [schema, "PRAGMA quick_check('Other')"]),
        ]
        for (target, code, expected) in cases {
            let scratch = Scratch("regression")
            let url = scratch.url("db.sqlite")
            try Migrator(resolvedPlan: try ResolvedPlan(name: "default", schemas: [v1], stages: [])).migrate(
                databaseAt: url)
            let v2 = Schema(version: Schema.Version(2, 0, 0), entities: [target, other])
            let stage = PlannedStage(
                from: v1.version, to: v2.version, kind: code == nil ? .lightweight : .custom, didMigrate: code)
            let db = try SQLiteConnection(path: url.path)
            let recorder = StatementRecorder()
            db.startRecording(into: recorder)
            try Migrator(resolvedPlan: try ResolvedPlan(name: "default", schemas: [v1, v2], stages: [stage])).migrate(
                using: db)
            db.stopRecording()
            let checks = recorder.entries.compactMap { entry -> String? in
                if case .statement(let sql, _) = entry, sql.hasPrefix("PRAGMA quick_check") { return sql }
                return nil
            }
            #expect(
                checks == expected,
                "\(code == nil ? "lightweight" : "custom") stage to \(target.attributes.map(\.name))")
        }
    }
}
