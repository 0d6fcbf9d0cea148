import Foundation
import Testing

@testable import SchemaMigrations

extension Reliability {
    /// Hostile database files: every migration ends in a typed `MigrationError` with the file's
    /// bytes unchanged, or in a correct migration (sound, at the new version, no row lost).
    @Suite struct DatabaseFuzz {
        @Test(.timeLimit(.minutes(60)))
        func hostileFilesEndInATypedErrorOrACorrectMigration() throws {
            let config = ReliabilityConfig.current
            let scratch = Scratch("fuzz-database")
            let pristine = scratch.url("pristine.sqlite")
            let pristineWAL = scratch.url("pristine-wal.sqlite")
            try FaultFixture.populate(pristine, wal: false)
            try FaultFixture.populate(pristineWAL, wal: true)
            var tally = FuzzTally()
            for index in 0..<max(DatabaseMutations.kinds.count, config.fuzzCases / 2) {
                var mutations = DatabaseMutations(
                    random: SeededRandom(seed: config.seed, family: "fuzz-database", index: index),
                    pristine: pristine, pristineWAL: pristineWAL)
                // Every kind in turn first, then kinds at random.
                let kind =
                    index < DatabaseMutations.kinds.count
                    ? DatabaseMutations.kinds[index]
                    : DatabaseMutations.kinds[
                        Int.random(in: 0..<DatabaseMutations.kinds.count, using: &mutations.random)]
                let directory = scratch.url("case-\(index)")
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
                let url = directory.appendingPathComponent("db.sqlite")
                try mutations.make(kind, at: url)
                let outcome = Watchdog.run("fuzz-database \(config.reproduction) case \(index) \(kind)", seconds: 30) {
                    DatabaseFuzz.run(url, scratch: directory)
                }
                tally.record(outcome, mutation: kind)
                #expect(outcome != nil, "hang: database case \(index) (\(kind)); \(config.reproduction)")
                #expect(
                    outcome?.problems.isEmpty != false,
                    "database case \(index) (\(kind)): \(outcome?.problems.joined(separator: "; ") ?? ""); \(config.reproduction)"
                )
                Scratch.makeMutable(directory.path)
                _ = try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
                try? FileManager.default.removeItem(at: directory)
            }
            ReliabilityConfig.summary("fuzz-databases", tally.summary)
        }

        /// Reads what the file holds (through a copy, so the file is not touched), migrates it,
        /// and judges the outcome.
        static func run(_ url: URL, scratch: URL) -> FuzzOutcome {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
            let before = url.databaseBytes()
            let leftBehind = before.keys.contains("-wal") || before.keys.contains("-journal")
            var source: DatabaseState?
            var sourceItems: Int?
            var sourceNoteCheck: String?
            var unreadable = "no file"
            if exists && !isDirectory.boolValue {
                let copy = scratch.appendingPathComponent("source-copy.sqlite")
                for (suffix, data) in before { try? data.write(to: URL(fileURLWithPath: copy.path + suffix)) }
                do { source = try DatabaseState.read(copy, plan: FaultFixture.planName) } catch {
                    unreadable = "\(error)"
                }
                sourceItems = try? itemRows(copy)
                sourceNoteCheck = quickCheck(copy, table: "Note")
            }
            do {
                let result = try FaultFixture.migrator().migrate(databaseAt: url)
                return FuzzOutcome(
                    ending: result.outcome.rawValue,
                    problems: judgeSuccess(
                        url, source: source, sourceItems: sourceItems, sourceNoteCheck: sourceNoteCheck,
                        unreadable: unreadable))
            } catch let error as MigrationError {
                var problems: [String] = []
                if leftBehind {
                    // SQLite itself replays a WAL or a hot journal left behind: the contents must not change.
                    let after = try? DatabaseState.read(url, plan: FaultFixture.planName)
                    if let source, after != source {
                        problems.append(
                            "\(error.code) error, but the contents changed: \(after?.description ?? "unreadable"), was \(source)"
                        )
                    }
                } else if url.databaseBytes()[""] != before[""] {
                    problems.append("\(error.code) error, but the file's bytes changed: \(error)")
                }
                return FuzzOutcome(ending: error.code.rawValue, problems: problems)
            } catch {
                return FuzzOutcome(
                    ending: "untyped", problems: ["threw \(type(of: error)), not a MigrationError: \(error)"])
            }
        }

        /// A migration that succeeded: the file is at the new version with as many rows as it had,
        /// and sound, or at least no less sound than it was (`quick_check` lets a database whose
        /// indexes lack rows through; the tables rebuilt get new indexes, the others keep theirs).
        ///
        /// A damaged table the plan never reads (`Note`, which V3 only renames) is carried through
        /// as it was, so a source that could not be read in full may give a result that cannot
        /// either; then `Item`, which the plan rebuilds and rewrites, must come out whole and sound.
        /// The same holds when the result can be read but `integrity_check` finds that damage:
        /// every other table must pass `quick_check`, and `Note` must have failed it before.
        static func judgeSuccess(
            _ url: URL, source: DatabaseState?, sourceItems: Int?, sourceNoteCheck: String?, unreadable: String
        ) -> [String] {
            guard let after = try? DatabaseState.read(url, plan: FaultFixture.planName) else {
                guard source == nil else { return ["migrated a readable file to one that cannot be read"] }
                guard let sourceItems else { return ["migrated although Item could not be read (\(unreadable))"] }
                let check = quickCheck(url, table: "Item")
                let items = try? itemRows(url)
                return check == "ok" && items == sourceItems
                    ? []
                    : [
                        "migrated a damaged file: Item has \(items.map(String.init) ?? "unreadable") rows (\(sourceItems) before), quick_check \(check ?? "failed")"
                    ]
            }
            var problems: [String] = []
            if after.version != "3.0.0" { problems.append("migrated, but the version is \(after.version ?? "none")") }
            guard let source else { return problems + ["migrated a file that could not be read (\(unreadable))"] }
            let before = Set(source.integrity.components(separatedBy: "; "))
            let now = Set(after.integrity.components(separatedBy: "; "))
            // When integrity_check could not even finish on the source, an index lacking rows of an
            // untouched table afterwards is the damage it had (no write drops an index entry alone).
            let onlyIndexEntries = now.allSatisfy {
                $0.contains("missing from index") || $0.contains("wrong # of entries in index")
            }
            let damageKept =
                now.isSubset(of: before) || (source.integrity == "integrity_check failed" && onlyIndexEntries)
            let othersSound = ["sqlite_schema", "Item", "_schema_migrations"].allSatisfy {
                quickCheck(url, table: $0) == "ok"
            }
            let carriedFromNote = sourceNoteCheck != "ok" && othersSound
            if after.integrity != "ok" && !damageKept && !carriedFromNote {
                problems.append(
                    "migrated, but integrity_check says \(after.integrity.prefix(300)); before: \(source.integrity.prefix(300))"
                )
            }
            if after.rows != source.rows { problems.append("\(source.rows) rows before, \(after.rows) after") }
            return problems
        }

        /// `PRAGMA quick_check` of one table and its indexes: "ok", the findings, or nil when it fails.
        static func quickCheck(_ url: URL, table: String) -> String? {
            guard let db = try? SQLiteConnection(path: url.path, mode: .readWrite) else { return nil }
            return try? db.rows("PRAGMA quick_check(\(SQL.quoteString(table)))").map { $0.first?.description ?? "" }
                .joined(separator: "; ")
        }

        /// Every row of `Item`, read in full; throws when any cannot be read.
        static func itemRows(_ url: URL) throws -> Int {
            let db = try SQLiteConnection(path: url.path, mode: .readWrite)
            let statement = try db.prepare("SELECT * FROM Item")
            var rows = 0
            while try statement.step() {
                _ = statement.row()
                rows += 1
            }
            return rows
        }
    }
}
