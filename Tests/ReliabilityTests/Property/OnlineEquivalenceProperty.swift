import CSQLite
import Foundation
import Testing

@testable import SchemaMigrations

extension Reliability {
    /// Online rebuilds against offline: the property family's random plans, migrated online while the
    /// application writes between the copy's chunks, and offline with the same writes made before
    /// each stage, leave the same database: every schema object's text, every row of every table
    /// with its rowid, the `AUTOINCREMENT` counters, the recorded versions. Where one refuses, the
    /// other refuses with the same code at the same stage, and the files still agree. Every write
    /// the application makes must succeed or fail alike on both (the shadow's triggers must never
    /// make a write fail that would succeed offline), and the dry run must say which stages run
    /// online as the migration then does.
    ///
    /// The cases are the property family's (`SchemaGenerator`, `ChangeGenerator`, `SQLiteFeatures`)
    /// with a few hundred rows a table, so that a copy takes several chunks, and foreign keys
    /// between the V1 tables, with an index on some. The writes are made through a connection of
    /// the application's (foreign keys on) from the `shouldPause` hook, which the copy calls before
    /// each chunk holding no lock; they are in the terms of the version the online stage starts
    /// from (the one the application still uses until the cut-over). Offline, the same statements
    /// run on the other copy before the stage they were made during.
    ///
    /// `RELIABILITY_ONLINE_CASES` sets the count (40 quick, 1,000 with `RELIABILITY_LONG=1`). How
    /// many writes land between which chunks depends on the chunk sizes, which adapt to the
    /// machine's speed: a seed replays the same plans, data and statements, not the same interleaving.
    @Suite struct OnlineEquivalenceProperty {
        /// One case: a property case with more rows and foreign keys, the journal mode, and how
        /// many writes the application makes at most.
        struct Case {
            var base: PropertyMigrations.Case
            var foreignKeys: [String]
            var wal: Bool
            var writeBudget: Int

            var description: String {
                base.description + "\nforeign keys: "
                    + (foreignKeys.isEmpty ? "none" : foreignKeys.joined(separator: ", "))
                    + "\njournal: \(wal ? "WAL" : "rollback"), writes at most \(writeBudget)"
            }
        }

        /// The chunk target: small, so that the copy of a few hundred rows takes several chunks.
        static let chunkTargetMilliseconds = 0.5

        static func generate(seed: UInt64, index: Int) -> Case {
            var generator = SchemaGenerator(
                random: SeededRandom(seed: seed, family: "online-equivalence", index: index))
            var first = generator.database(rows: 220...520, emptyChance: 0.05)
            let foreignKeys = addForeignKeys(to: &first, generator: &generator)
            var versions = [first]
            var stages: [GeneratedStage] = []
            for number in 2...(generator.random.chance(0.3) ? 3 : 2) {
                // The property family's changes, drawn again (most of the time) until the stage is
                // one the online path takes: a rebuild, and nothing that makes the stage offline.
                var stage = generator.stage(from: versions.last!, to: Schema.Version(number, 0, 0))
                for _ in 0..<30 where !runsOnline(stage) && !generator.random.chance(0.15) {
                    stage = generator.stage(from: versions.last!, to: Schema.Version(number, 0, 0))
                }
                followReferences(from: versions.last!, into: &stage.target)
                while versions.contains(where: { $0.schema.versionHash == stage.target.schema.versionHash }) {
                    generator.forceChange(&stage)
                }
                versions.append(stage.target)
                stages.append(stage)
            }
            var featureRandom = SeededRandom(seed: seed, family: "online-equivalence-features", index: index)
            var features = SQLiteFeatures.generate(for: versions, random: &featureRandom)
            if features.madeByHand {
                // More counters than the property family has: the cut-over carries each over.
                for table in versions[0].tables
                where SQLiteFeatures.finalTable(table.entity.name, in: versions) != nil && featureRandom.chance(0.4) {
                    features.autoincrement.insert(table.entity.name)
                }
                // A table whose key is a table constraint has no AUTOINCREMENT: its counter row is
                // one the application wrote into `sqlite_sequence`, which only a table with
                // AUTOINCREMENT makes.
                if !features.autoincrement.contains(where: { features.tableKey[$0] == nil }) {
                    for name in features.autoincrement { features.tableKey[name] = nil }
                }
            }
            let base = PropertyMigrations.Case(versions: versions, stages: stages, features: features)
            return Case(
                base: base, foreignKeys: foreignKeys, wal: featureRandom.chance(0.5),
                writeBudget: Int.random(in: 20...60, using: &featureRandom))
        }

        /// Changes that rebuild a table (under the online planner, which also rebuilds for a dropped
        /// column and an added index).
        static let rebuildingChanges: Set<String> = [
            "remove attribute", "optional→non-optional with default", "non-optional→optional", "default change",
            "attribute hashModifier", "add index",
        ]
        /// Changes that make a stage run offline: a renamed table, and data checks over whole tables.
        static let offlineChanges: Set<String> = [
            "rename entity", "add uniqueness", "optional→non-optional without default",
            "add non-optional without default", "type change integer→double", "type change integer→string",
            "type change integer→decimal", "type change double→string", "type change bool→string",
        ]

        /// Whether the stage's changes, by kind, are ones the online path takes (the model's guess;
        /// the migration's own decision is counted).
        static func runsOnline(_ stage: GeneratedStage) -> Bool {
            stage.refusals.isEmpty && stage.kinds.allSatisfy { !offlineChanges.contains($0) }
                && stage.kinds.contains { rebuildingChanges.contains($0) || $0.hasPrefix("type change") }
        }

        /// Gives some V1 tables an optional integer column referencing an earlier table's `id`
        /// (each `ON DELETE` action), holding existing ids or NULL, indexed half the time.
        /// - Returns: the references, in words.
        static func addForeignKeys(to database: inout ModelDatabase, generator: inout SchemaGenerator) -> [String] {
            guard database.tables.count >= 2 else { return [] }
            var described: [String] = []
            for child in 1..<database.tables.count where generator.random.chance(0.7) {
                let parent = Int.random(in: 0..<child, using: &generator.random)
                let parentName = database.tables[parent].entity.name
                let parentIDs = database.tables[parent].rows.map(\.id)
                let onDelete = ["CASCADE", "SET NULL", "RESTRICT", "NO ACTION"][
                    Int.random(in: 0..<4, using: &generator.random)]
                let attribute = Schema.Attribute(
                    name: generator.attributeName(), valueType: .integer, isOptional: true,
                    references: Schema.ForeignKey(table: parentName, onDelete: onDelete))
                database.tables[child].entity.attributes.append(attribute)
                if generator.random.chance(0.5) {
                    database.tables[child].entity.indexes.append(Schema.Index([attribute.name]))
                }
                for row in database.tables[child].rows.indices {
                    database.tables[child].rows[row].values[attribute.name] =
                        parentIDs.isEmpty || generator.random.chance(0.2)
                        ? .null : .integer(parentIDs[Int.random(in: 0..<parentIDs.count, using: &generator.random)])
                }
                described.append(
                    "\(database.tables[child].entity.name).\(attribute.name) → \(parentName) ON DELETE \(onDelete)")
            }
            return described
        }

        /// Points each reference of `target` (copied from `previous` by the change generator) at
        /// the referenced table's name in `target`, following a rename; drops it when the stage
        /// removes that table (a changed foreign key, which the rebuild makes offline).
        static func followReferences(from previous: ModelDatabase, into target: inout ModelDatabase) {
            for table in target.tables.indices {
                for attribute in target.tables[table].entity.attributes.indices {
                    guard let reference = target.tables[table].entity.attributes[attribute].references,
                        previous.table(reference.table) != nil
                    else { continue }
                    let next =
                        target.tables.first(where: { $0.entity.originalName == reference.table })
                        ?? target.tables.first(where: { $0.entity.name == reference.table })
                    if let next {
                        target.tables[table].entity.attributes[attribute].references?.table = next.entity.name
                    } else {
                        target.tables[table].entity.attributes[attribute].references = nil
                    }
                }
            }
        }

        @Test(.timeLimit(.minutes(60)))
        func onlineWithTheApplicationsWritesEqualsOfflineWithTheSameWrites() throws {
            let config = ReliabilityConfig.current
            let scratch = Scratch("online-equivalence")
            var tally = OnlineEquivalenceTally()
            let began = Date()
            for index in 0..<config.onlineCases {
                let testCase = Self.generate(seed: config.seed, index: index)
                let result = try Self.run(testCase, seed: config.seed, index: index, scratch: scratch)
                tally.record(testCase, result)
                let message: Comment =
                    "online equivalence case \(index) (\(config.reproduction)):\n\(result.problems.joined(separator: "\n"))\n\(testCase.description)\n\(result.writeSummary)"
                #expect(result.problems.isEmpty, message)
            }
            tally.seconds = Date().timeIntervalSince(began)
            ReliabilityConfig.summary("online-equivalence", tally.summary)
            // A run where nothing went online would prove nothing.
            #expect(
                config.onlineCases < 10 || tally.stagesOnline * 4 >= tally.stages,
                "only \(tally.stagesOnline) of \(tally.stages) stages ran online (\(config.reproduction))")
            #expect(config.onlineCases < 10 || tally.writesDuringCopy > 0, "no write was made during a copy")
        }

        /// What one case did, and what went wrong.
        struct Outcome {
            var problems: [String] = []
            /// The error code both paths refused with, nil when both migrated.
            var refusal: MigrationError.Code?
            /// Stages whose rebuilds ran through shadow tables, and their chunks.
            var stagesOnline = 0
            var chunks = 0
            /// Indexes the online change built after the copy, in key order.
            var indexesInKeyOrder = 0
            var writes: [WritingApplication.Write] = []
            var skipped: String?

            var writeSummary: String {
                "writes (\(writes.count)):\n"
                    + writes.prefix(40).map {
                        "  [\($0.from)] \($0.sql)" + ($0.error.map { " -- failed: \($0)" } ?? "")
                    }.joined(separator: "\n")
                    + (writes.count > 40 ? "\n  …" : "")
            }
        }

        static func run(_ testCase: Case, seed: UInt64, index: Int, scratch: Scratch) throws -> Outcome {
            var result = Outcome()
            let versions = testCase.base.versions
            let original = scratch.url("case-\(index).sqlite")
            try testCase.base.features.createV1(versions[0], at: original, plan: "property")
            if testCase.wal { try SQLiteConnection(path: original.path).execute("PRAGMA journal_mode = WAL") }
            let onlineURL = try scratch.copyDatabase(original, to: "case-\(index)-online.sqlite")
            let offlineURL = try scratch.copyDatabase(original, to: "case-\(index)-offline.sqlite")
            defer { for url in [original, onlineURL, offlineURL] { scratch.removeDatabase(url) } }
            let stages = zip(versions, versions.dropFirst()).map {
                PlannedStage(from: $0.version, to: $1.version, kind: .lightweight)
            }
            let plan: ResolvedPlan
            do {
                plan = try ResolvedPlan(name: "property", schemas: versions.map(\.schema), stages: stages)
            } catch let error as MigrationError {
                result.skipped = "plan refused: \(error.code)"
                return result
            }

            // The dry run's word on the first stage: online or not.
            var options = MigrationOptions()
            options.online = OnlineRebuildOptions(chunkTargetMilliseconds: Self.chunkTargetMilliseconds)
            let predicted = (try? Migrator(resolvedPlan: plan, options: options).plan(databaseAt: original))?.online?
                .stages.first

            // Online, the application writing between chunks.
            let application = try WritingApplication(
                url: onlineURL, versions: versions,
                random: SeededRandom(seed: seed, family: "online-equivalence-writes", index: index),
                budget: testCase.writeBudget)
            let events = ProgressLog()
            options.online?.shouldPause = { application.betweenChunks() }
            options.progress = { events.append($0) }
            let online = Swift.Result {
                try Migrator(resolvedPlan: plan, options: options).migrate(databaseAt: onlineURL)
            }
            result.writes = application.log
            if let failure = application.failure { result.problems.append("the application's hook failed: \(failure)") }
            for write in application.blobWritesThatWentThrough {
                result.problems.append("an incremental blob write went through during the copy: \(write)")
            }
            let cutOvers = events.all.filter { $0.activity == .cuttingOver }
            result.stagesOnline = cutOvers.count
            result.chunks = events.all.filter { $0.activity == .copyingOnline }.count
            result.indexesInKeyOrder =
                Set(
                    events.all.filter { $0.activity == .copyingOnline && $0.summary.hasPrefix("Build the index ") }
                        .map { "\(String(describing: $0.from)) \($0.summary)" }
                ).count
            if let predicted {
                let ran = cutOvers.contains { $0.from == predicted.from && $0.to == predicted.to }
                let reached: Bool
                if case .success = online { reached = true } else { reached = ran }
                if reached && ran != predicted.runsOnline {
                    result.problems.append(
                        "the dry run says the stage \(predicted.from) → \(predicted.to) runs \(predicted.runsOnline ? "online" : "offline") (\(predicted.offlineReasons.joined(separator: "; "))), it ran \(ran ? "online" : "offline")"
                    )
                }
            }

            // Offline, stage by stage, each stage's writes made before it.
            let offline = try SQLiteConnection(path: offlineURL.path)
            try offline.execute("PRAGMA foreign_keys = ON")
            var offlineError: (any Error)?
            for stage in stages {
                for write in application.log where write.from == stage.from {
                    var error: String?
                    if write.kind == WritingApplication.blobWrite {
                        // Refused online by the copy's guard: offline has no copy to guard.
                        guard write.error == nil else { continue }
                        error = WritingApplication.replayBlobWrite(write, on: offline)
                    } else {
                        do { try offline.execute(write.sql) } catch let failure as SQLiteError {
                            error = WritingApplication.describe(failure)
                        }
                    }
                    if error != write.error {
                        result.problems.append(
                            "the write `\(write.sql)` \(write.error.map { "failed online (\($0))" } ?? "succeeded online") but \(error.map { "failed offline (\($0))" } ?? "succeeded offline")"
                        )
                    }
                }
                var stageOptions = MigrationOptions()
                stageOptions.targetVersion = stage.to
                do {
                    try Migrator(resolvedPlan: plan, options: stageOptions).migrate(databaseAt: offlineURL)
                } catch let error as MigrationError
                    where error.code == .unsupportedChange && error.version.map({ $0 > stage.to }) == true
                {
                    // A database made by hand whose tables match a later version too is adopted at
                    // the latest (as online adopts it): this stage is behind it already.
                    continue
                } catch {
                    offlineError = error
                    break
                }
            }

            switch (online, offlineError) {
            case (.success, nil):
                break
            case (.failure(let onlineError), let offlineError?):
                if let onlineError = onlineError as? MigrationError, let offlineError = offlineError as? MigrationError
                {
                    result.refusal = onlineError.code
                    if onlineError.code != offlineError.code || onlineError.version != offlineError.version {
                        result.problems.append(
                            "online refused with \(onlineError.code) at \(onlineError.version?.description ?? "?"), offline with \(offlineError.code) at \(offlineError.version?.description ?? "?"):\n\(onlineError)\n---\n\(offlineError)"
                        )
                    }
                } else {
                    result.problems.append("unexpected errors:\n\(onlineError)\n---\n\(offlineError)")
                }
            case (.failure(let error), nil):
                result.problems.append("online failed, offline migrated:\n\(error)")
            case (.success, let error?):
                result.problems.append("online migrated, offline failed:\n\(error)")
            }

            let (onlineDump, offlineDump) = (try Self.dump(onlineURL), try Self.dump(offlineURL))
            if onlineDump != offlineDump {
                let onlineOnly = onlineDump.filter { !offlineDump.contains($0) }
                let offlineOnly = offlineDump.filter { !onlineDump.contains($0) }
                result.problems.append(
                    "the dumps differ (\(onlineDump.count) lines online, \(offlineDump.count) offline)\nonline only:\n"
                        + onlineOnly.prefix(12).map { "  " + $0 }.joined(separator: "\n") + "\noffline only:\n"
                        + offlineOnly.prefix(12).map { "  " + $0 }.joined(separator: "\n"))
            }
            let db = try SQLiteConnection(path: onlineURL.path, mode: .readOnly)
            let integrity = try db.rows("PRAGMA integrity_check").map { $0.map(\.description).joined() }
            if integrity != ["ok"] { result.problems.append("integrity_check online: \(integrity)") }
            let dangling = try db.rows("PRAGMA foreign_key_check")
            if !dangling.isEmpty {
                result.problems.append(
                    "foreign_key_check online: \(dangling.prefix(5).map { $0.map(\.description).joined(separator: " ") })"
                )
            }
            return result
        }

        /// What a user sees of the database: every schema object's type, name, table and text;
        /// every row of every table with its rowid, values as SQL literals (so storage classes
        /// count); the metadata's rows without their timings and snapshots.
        static func dump(_ url: URL) throws -> [String] {
            let db = try SQLiteConnection(path: url.path, mode: .readOnly)
            var lines = try db.rows("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name").map {
                "schema " + $0.map(\.sqlLiteral).joined(separator: " | ")
            }
            let tables = try db.rows(
                "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
            ).compactMap { $0[0].stringValue }
            // Tables without a rowid (an online change's index entries left behind): by their key.
            let withoutRowid = Set(
                try db.rows(
                    "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql LIKE '%WITHOUT ROWID'"
                ).compactMap { $0[0].stringValue })
            for table in tables + ["sqlite_sequence"] {
                guard try db.scalar("SELECT 1 FROM sqlite_schema WHERE name = ?", [.text(table)]) != nil else {
                    continue
                }
                // A counter's row has no rowid of meaning; the metadata's timings and snapshots differ.
                let columns =
                    table == TableNames.metadata
                    ? #""plan", "seq", "version", "hash", "kind", "fromVersion""#
                    : table == "sqlite_sequence" ? "name, seq" : withoutRowid.contains(table) ? "*" : "rowid, *"
                let order = table == "sqlite_sequence" ? "name" : withoutRowid.contains(table) ? "1" : "rowid"
                lines += try db.rows("SELECT \(columns) FROM \(SQL.quoteIdentifier(table)) ORDER BY \(order)").map {
                    "\(table): " + $0.map(\.sqlLiteral).joined(separator: ", ")
                }
            }
            return lines
        }
    }
}

/// The application of an online equivalence case: its own connection to the database being
/// migrated (foreign keys on, as an app has them), writing a few statements each time the copy
/// asks `shouldPause` (between chunks, no lock held), in the terms of the version the online
/// stage starts from, until its budget is spent. Each statement and its outcome is logged, so
/// that the offline copy gets the same writes.
final class WritingApplication: @unchecked Sendable {
    struct Write {
        /// The version the application used: the online stage's source.
        var from: Schema.Version
        var kind: String
        var sql: String
        /// SQLite's error, nil when the write succeeded.
        var error: String?
    }

    private let db: SQLiteConnection
    private let versions: [ModelDatabase]
    private var random: SeededRandom
    private var budget: Int
    private(set) var log: [Write] = []
    /// An error of the hook itself (not of a write), which fails the case.
    private(set) var failure: String?

    init(url: URL, versions: [ModelDatabase], random: SeededRandom, budget: Int) throws {
        db = try SQLiteConnection(path: url.path, busyTimeout: 5)
        try db.execute("PRAGMA foreign_keys = ON")
        self.versions = versions
        self.random = random
        self.budget = budget
    }

    static func describe(_ error: SQLiteError) -> String { "\(error.resultCode.rawValue) \(error.message)" }

    /// The `shouldPause` hook: writes, then lets the copy go on.
    func betweenChunks() -> Bool {
        do {
            guard budget > 0,
                let from = try db.scalar(
                    "SELECT \"fromVersion\" FROM \(SQL.quoteIdentifier(TableNames.onlineState)) WHERE \"id\" = 1")?
                    .stringValue.flatMap(Schema.Version.init),
                let version = versions.first(where: { $0.version == from })
            else { return false }
            for _ in 0..<min(budget, Int.random(in: 0...4, using: &random)) {
                budget -= 1
                let (kind, sql) = try random.chance(0.06) ? schemaAction(in: version) : statement(in: version)
                if kind == Self.blobWrite {
                    try attemptBlobWrite(sql, from: from)
                    continue
                }
                var error: String?
                do { try db.execute(sql) } catch let failure as SQLiteError {
                    error = Self.describe(failure)
                    if !db.isAutocommit { try db.execute("ROLLBACK") }
                }
                log.append(Write(from: from, kind: kind, sql: sql, error: error))
            }
        } catch {
            failure = "\(error)"
        }
        return false
    }

    // MARK: What triggers cannot see

    /// The kind of a write made through incremental blob I/O, which the offline copy does not replay.
    static let blobWrite = "blob write"
    /// Blob writes that went through while the copy's guard was on the table: each is a guard failure.
    private(set) var blobWritesThatWentThrough: [String] = []

    /// Something the application does beside the copy that no trigger sees: a `VACUUM`, an index of
    /// its own, its table dropped and made again (rows, indexes and triggers as they were), an
    /// incremental blob write. The schema changes go through `PRAGMA schema_version`, which the
    /// copy watches; the blob write must fail while the copy runs.
    private func schemaAction(in version: ModelDatabase) throws -> (kind: String, sql: String) {
        let table = version.tables[Int.random(in: 0..<version.tables.count, using: &random)].entity.name
        let columns = try db.rows("SELECT name, type, hidden FROM pragma_table_xinfo(?)", [.text(table)])
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            return ("vacuum", "VACUUM")
        case 1:
            let plain = columns.filter { $0[2].int64Value == 0 }.compactMap { $0[0].stringValue }
            guard let column = plain.randomElement(using: &random) else { return ("vacuum", "VACUUM") }
            let index = "app_ix_\(Int.random(in: 0..<1_000_000, using: &random))"
            return (
                "index of the application's", "CREATE INDEX \(quoted(index)) ON \(quoted(table)) (\(quoted(column)))"
            )
        case 2:
            // Only a table no other table references: dropping a parent deletes through its keys.
            let referenced = try db.rows(
                "SELECT 1 FROM sqlite_schema s, pragma_foreign_key_list(s.name) k WHERE s.type = 'table' AND k.\"table\" = ? COLLATE NOCASE",
                [.text(table)])
            guard referenced.isEmpty,
                let create = try db.scalar(
                    "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?", [.text(table)])?.stringValue
            else { return ("vacuum", "VACUUM") }
            let own = try db.rows(
                "SELECT sql FROM sqlite_schema WHERE tbl_name = ? AND type IN ('index', 'trigger') AND sql IS NOT NULL AND name NOT LIKE '\\_sm\\_%' ESCAPE '\\' ORDER BY rowid",
                [.text(table)]
            ).compactMap { $0[0].stringValue }
            let stored = columns.filter { $0[2].int64Value == 0 }.compactMap { $0[0].stringValue }.map(quoted)
                .joined(separator: ", ")
            let sql =
                [
                    "BEGIN", "CREATE TEMP TABLE \"app_keep\" AS SELECT \(stored) FROM \(quoted(table))",
                    "DROP TABLE \(quoted(table))", create,
                ]
                + ["INSERT INTO \(quoted(table)) (\(stored)) SELECT \(stored) FROM temp.\"app_keep\""] + own
                + ["DROP TABLE temp.\"app_keep\"", "COMMIT"]
            return ("table dropped and made again", sql.joined(separator: ";\n"))
        default:
            // A table being copied: elsewhere a blob write is an ordinary write (offline has no
            // such write to replay).
            let copied =
                (try db.scalar("SELECT \"tables\" FROM \(quoted(TableNames.onlineState)) WHERE \"id\" = 1")?.stringValue
                ?? "")
                .split(separator: "\n").map { String($0.dropFirst(TableNames.onlinePrefix.count)) }
            guard copied.contains(table) else { return ("vacuum", "VACUUM") }
            let text = columns.filter { $0[2].int64Value == 0 && ($0[1].stringValue ?? "").uppercased() == "TEXT" }
                .compactMap { $0[0].stringValue }
            guard let column = text.randomElement(using: &random) else { return ("vacuum", "VACUUM") }
            return (Self.blobWrite, "\(table)\n\(column)")
        }
    }

    /// Opens `table.column` of a row holding text for incremental writing and overwrites its first
    /// byte. While the copy's guard index is on the table the write must be refused; one that goes
    /// through then is recorded, and fails the case. Without the guard (the application dropped
    /// and made the table again, taking the guard and the triggers with it) the write is an
    /// ordinary one: the copy must start over and keep it, so it is logged for the offline side
    /// to make at the same point (`table`, `column` and `rowid` on three lines).
    private func attemptBlobWrite(_ target: String, from: Schema.Version) throws {
        let parts = target.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2,
            let rowid = try db.scalar(
                "SELECT rowid FROM \(quoted(parts[0])) WHERE typeof(\(quoted(parts[1]))) = 'text' AND length(\(quoted(parts[1]))) > 0 LIMIT 1"
            )?.int64Value
        else { return }
        let guarded =
            try db.scalar(
                "SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = ? AND tbl_name = ?",
                [.text(TableNames.blobGuard(on: parts[0])), .text(parts[0])]) != nil
        let error = Self.overwriteFirstByte(on: db, table: parts[0], column: parts[1], rowid: rowid)
        log.append(Write(from: from, kind: Self.blobWrite, sql: "\(target)\n\(rowid)", error: error))
        if error == nil && guarded { blobWritesThatWentThrough.append("\(parts[0]).\(parts[1]) rowid \(rowid)") }
    }

    /// Writes one byte (`Z`) at the start of `table.column` of row `rowid` through incremental
    /// blob I/O, which fires no trigger; SQLite's error, nil when the write went through.
    static func overwriteFirstByte(on db: SQLiteConnection, table: String, column: String, rowid: Int64) -> String? {
        var blob: OpaquePointer?
        let code = sqlite3_blob_open(db.handle, "main", table, column, rowid, 1, &blob)
        defer { if let blob { sqlite3_blob_close(blob) } }
        guard code == SQLITE_OK, let blob else { return String(cString: sqlite3_errmsg(db.handle)) }
        var byte: UInt8 = 0x5A
        let written = sqlite3_blob_write(blob, &byte, 1, 0)
        return written == SQLITE_OK ? nil : String(cString: sqlite3_errmsg(db.handle))
    }

    /// Makes a blob write the application made online (see ``attemptBlobWrite(_:from:)``) on the
    /// offline side; SQLite's error, nil when it went through.
    static func replayBlobWrite(_ write: Write, on db: SQLiteConnection) -> String? {
        let parts = write.sql.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let rowid = Int64(parts[2]) else { return "malformed blob write \(write.sql)" }
        return overwriteFirstByte(on: db, table: parts[0], column: parts[1], rowid: rowid)
    }

    // MARK: Statements

    private func quoted(_ name: String) -> String { SQL.quoteIdentifier(name) }

    /// The table's smallest and largest id, nil when it is empty.
    private func idRange(_ table: String) throws -> ClosedRange<Int64>? {
        let row = try db.rows("SELECT min(\"id\"), max(\"id\") FROM \(quoted(table))")[0]
        guard let low = row[0].int64Value, let high = row[1].int64Value else { return nil }
        return low...high
    }

    /// The id of a row that exists, picked at random; nil when the table is empty.
    private func existingID(_ table: String) throws -> Int64? {
        guard let range = try idRange(table) else { return nil }
        let probe = Int64.random(in: range, using: &random)
        return try db.scalar(
            "SELECT \"id\" FROM \(quoted(table)) WHERE \"id\" >= ? ORDER BY \"id\" LIMIT 1", [.integer(probe)])?
            .int64Value
    }

    /// An id around the table's: often free, sometimes taken (then the write fails, or replaces).
    private func nearbyID(_ table: String) throws -> Int64 {
        let high = try idRange(table)?.upperBound ?? 0
        return Int64.random(in: 1...(high + 30), using: &random)
    }

    /// A value the version accepts for `attribute`, as an SQL literal: an existing parent id for a
    /// reference, NULL a quarter of the time when optional.
    private func value(for attribute: Schema.Attribute) throws -> String {
        if let reference = attribute.references {
            if attribute.isOptional && random.chance(0.2) { return "NULL" }
            return try existingID(reference.table).map(String.init) ?? (attribute.isOptional ? "NULL" : "1")
        }
        if attribute.isOptional && random.chance(0.25) { return "NULL" }
        return PropertyValues.random(attribute.valueType, using: &random).sqlLiteral
    }

    /// Another row's values of a unique index's columns, so that the write meets it (and an `OR
    /// REPLACE` write deletes that row).
    private func collidingValues(_ table: ModelDatabase.Table) throws -> [String: String] {
        let unique = table.entity.indexes.filter(\.isUnique)
        guard !unique.isEmpty, let id = try existingID(table.entity.name) else { return [:] }
        let index = unique[Int.random(in: 0..<unique.count, using: &random)]
        let row = try db.rows(
            "SELECT \(index.columns.map { "quote(\(quoted($0)))" }.joined(separator: ", ")) FROM \(quoted(table.entity.name)) WHERE \"id\" = ?",
            [.integer(id)])
        guard let values = row.first else { return [:] }
        return Dictionary(
            uniqueKeysWithValues: zip(index.columns, values.map { $0.stringValue ?? "NULL" }))
    }

    /// One statement of the application's on a random table of `version`.
    private func statement(in version: ModelDatabase) throws -> (kind: String, sql: String) {
        let table = version.tables[Int.random(in: 0..<version.tables.count, using: &random)]
        let entity = table.entity
        let name = quoted(entity.name)
        let attributes = entity.attributes
        func some() -> [Schema.Attribute] {
            let count = Int.random(in: 1...min(2, attributes.count), using: &random)
            return Array(attributes.shuffled(using: &random).prefix(count))
        }
        let roll = Double.random(in: 0..<1, using: &random)
        switch roll {
        case ..<0.36:
            // INSERT: sometimes with an id of its own (in a gap, below or past the copy's mark).
            let withID = roll >= 0.26
            let given = attributes.filter { attribute in
                !(attribute.isOptional || attribute.defaultValue != nil) || !random.chance(0.2)
            }
            var columns = given.map { quoted($0.name) }
            var values = try given.map { try value(for: $0) }
            if withID {
                columns.insert("\"id\"", at: 0)
                values.insert(String(try nearbyID(entity.name)), at: 0)
            }
            guard !columns.isEmpty else { return ("insert", "INSERT INTO \(name) DEFAULT VALUES") }
            // OR IGNORE: a statement's conflict policy is also that of the triggers it fires.
            let ignore = withID && random.chance(0.4)
            return (
                ignore ? "insert or ignore" : withID ? "insert with id" : "insert",
                "INSERT \(ignore ? "OR IGNORE " : "")INTO \(name) (\(columns.joined(separator: ", "))) VALUES (\(values.joined(separator: ", ")))"
            )
        case ..<0.46:
            // INSERT OR REPLACE: over an existing row, or meeting another row's unique values.
            let id = try random.chance(0.5) ? (existingID(entity.name) ?? nearbyID(entity.name)) : nearbyID(entity.name)
            let colliding = random.chance(0.6) ? try collidingValues(table) : [:]
            let values = try attributes.map { try colliding[$0.name] ?? value(for: $0) }
            return (
                colliding.isEmpty ? "replace" : "replace meeting a unique index",
                "INSERT OR REPLACE INTO \(name) (\"id\", \(attributes.map { quoted($0.name) }.joined(separator: ", "))) VALUES (\(id), \(values.joined(separator: ", ")))"
            )
        case ..<0.72:
            // UPDATE of non-key columns: one row or a range; sometimes OR REPLACE or OR IGNORE onto
            // another row's unique values.
            guard let id = try existingID(entity.name) else { return ("insert", "INSERT INTO \(name) DEFAULT VALUES") }
            let colliding = random.chance(0.2) ? try collidingValues(table) : [:]
            let assignments =
                colliding.isEmpty
                ? try some().map { "\(quoted($0.name)) = \(try value(for: $0))" }
                : colliding.sorted { $0.key < $1.key }.map { "\(quoted($0.key)) = \($0.value)" }
            let range = random.chance(0.2)
            let condition =
                range ? "\"id\" BETWEEN \(id) AND \(id + Int64.random(in: 1...20, using: &random))" : "\"id\" = \(id)"
            let policy =
                colliding.isEmpty
                ? (random.chance(0.1) ? "OR IGNORE" : "") : random.chance(0.5) ? "OR REPLACE" : "OR IGNORE"
            return (
                "update" + (range ? " range" : "") + (policy.isEmpty ? "" : " " + policy.lowercased()),
                "UPDATE \(policy.isEmpty ? "" : policy + " ")\(name) SET \(assignments.joined(separator: ", ")) WHERE \(condition)"
            )
        case ..<0.78:
            // UPDATE of the key: the row moves to another rowid (behind or past the copy's mark).
            guard let id = try existingID(entity.name) else { return ("insert", "INSERT INTO \(name) DEFAULT VALUES") }
            return ("update key", "UPDATE \(name) SET \"id\" = \(try nearbyID(entity.name)) WHERE \"id\" = \(id)")
        default:
            guard let id = try existingID(entity.name) else { return ("insert", "INSERT INTO \(name) DEFAULT VALUES") }
            if random.chance(0.2) {
                return (
                    "delete range",
                    "DELETE FROM \(name) WHERE \"id\" BETWEEN \(id) AND \(id + Int64.random(in: 1...15, using: &random))"
                )
            }
            return ("delete", "DELETE FROM \(name) WHERE \"id\" = \(id)")
        }
    }
}

/// Progress events, collected from the migrating thread.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [MigrationProgress] = []

    func append(_ event: MigrationProgress) { lock.withLock { events.append(event) } }

    var all: [MigrationProgress] { lock.withLock { events } }
}

/// What the online equivalence cases covered, for the summary line.
struct OnlineEquivalenceTally {
    var cases = 0, skipped = 0, migrated = 0, failed = 0, stages = 0, stagesOnline = 0, chunks = 0
    var indexesInKeyOrder = 0
    var writesDuringCopy = 0, writesFailed = 0, rows = 0, foreignKeys = 0, wal = 0
    var seconds: TimeInterval = 0
    var refusals: [String: Int] = [:]
    var writeKinds: [String: Int] = [:]
    var changes: [String: Int] = [:]
    var features: [String: Int] = [:]

    mutating func record(
        _ testCase: Reliability.OnlineEquivalenceProperty.Case, _ result: Reliability.OnlineEquivalenceProperty.Outcome
    ) {
        cases += 1
        if result.skipped != nil {
            skipped += 1
            return
        }
        if !result.problems.isEmpty {
            failed += 1
        } else if let code = result.refusal {
            refusals[code.rawValue, default: 0] += 1
        } else {
            migrated += 1
        }
        stages += testCase.base.stages.count
        stagesOnline += result.stagesOnline
        chunks += result.chunks
        indexesInKeyOrder += result.indexesInKeyOrder
        writesDuringCopy += result.writes.count
        writesFailed += result.writes.filter { $0.error != nil }.count
        for write in result.writes { writeKinds[write.kind, default: 0] += 1 }
        rows += testCase.base.versions[0].tables.reduce(0) { $0 + $1.rows.count }
        foreignKeys += testCase.foreignKeys.count
        if testCase.wal { wal += 1 }
        for stage in testCase.base.stages {
            for kind in stage.kinds { changes[kind.hasPrefix("type change") ? "type change" : kind, default: 0] += 1 }
        }
        for feature in testCase.base.features.kinds { features[feature, default: 0] += 1 }
    }

    private func list(_ counts: [String: Int]) -> String {
        "[" + counts.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "]"
    }

    var summary: String {
        "cases=\(cases) equal-after-migrating=\(migrated) refused-alike=\(refusals.values.reduce(0, +)) failed=\(failed) skipped=\(skipped) "
            + "stages=\(stages) stages-online=\(stagesOnline) chunks=\(chunks) indexes-in-key-order=\(indexesInKeyOrder) source-rows=\(rows) foreign-keys=\(foreignKeys) wal=\(wal) "
            + "writes-during-copy=\(writesDuringCopy) writes-refused-alike=\(writesFailed) seconds=\(String(format: "%.1f", seconds)) "
            + "refusals=\(list(refusals)) writes=\(list(writeKinds)) changes=\(list(changes)) features=\(list(features))"
    }
}
