import Foundation
import Testing

@testable import SchemaMigrations

extension Reliability {
    /// An online migration killed with SIGKILL at any moment, while the application writes:
    /// the database opens at the old version with every committed write, or at the new one; run
    /// again, it finishes at the new version, every write still there; `integrity_check` and
    /// `foreign_key_check` are clean every time.
    @Suite struct OnlineCrashSafety {
        static let rows = 40_000
        static let kills = 20

        /// The application's writes the driver printed as committed, replayed as expectations.
        struct Writes {
            var present: Set<Int64> = [], absent: Set<Int64> = [], prices: [Int64: Int64] = [:]

            init(_ lines: [String]) {
                for line in lines where line.hasPrefix("write ") {
                    let words = line.split(separator: " ").compactMap { Int64($0) }
                    if line.hasPrefix("write insert "), let id = words.first { present.insert(id) }
                    if line.hasPrefix("write update "), words.count == 2 { prices[words[0]] = words[1] }
                    if line.hasPrefix("write delete "), let id = words.first {
                        absent.insert(id)
                        prices[id] = nil
                    }
                }
            }

            func problems(in url: URL) throws -> [String] {
                let db = try SQLiteConnection(path: url.path, mode: .readOnly)
                var problems: [String] = []
                for id in present
                where try db.scalar("SELECT count(*) FROM Item WHERE id = ?", [.integer(id)])?.int64Value != 1 {
                    problems.append("inserted item \(id) is missing")
                }
                for id in absent
                where try db.scalar("SELECT count(*) FROM Item WHERE id = ?", [.integer(id)])?.int64Value != 0 {
                    problems.append("deleted item \(id) is back")
                }
                for (id, price) in prices
                where try db.scalar("SELECT price FROM Item WHERE id = ?", [.integer(id)])?.int64Value != price {
                    problems.append("item \(id) lost its price \(price)")
                }
                if let integrity = try db.scalar("PRAGMA integrity_check")?.stringValue, integrity != "ok" {
                    problems.append("integrity_check: \(integrity)")
                }
                let violations = try db.rows("PRAGMA foreign_key_check")
                if !violations.isEmpty {
                    problems.append("foreign_key_check: \(violations.count) violations, first \(violations[0])")
                }
                return problems
            }
        }

        static func version(_ url: URL) throws -> String? {
            try SQLiteConnection(path: url.path, mode: .readOnly)
                .scalar(
                    #"SELECT "version" FROM "_schema_migrations" WHERE "plan" = 'reliability' ORDER BY "seq" DESC LIMIT 1"#
                )?.stringValue
        }

        @Test(.timeLimit(.minutes(30)))
        func killedOnlineMigrationsUnderWritesKeepEveryWriteAndResume() throws {
            let config = ReliabilityConfig.current
            var random = SeededRandom(seed: config.seed, family: "online-crash", index: 0)
            let scratch = Scratch("online-crash")
            let pristine = scratch.url("online-pristine.sqlite")
            let populated = try DriverProcess.run([
                "populate", "--database", pristine.path, "--rows", String(Self.rows), "--journal", "wal",
            ])
            try #require(populated.status == 0, "populate: \(populated.output)")

            let calibration = try scratch.copyDatabase(pristine, to: "online-calibration.sqlite")
            let started = Date()
            let run = try DriverProcess.run(["migrate", "--database", calibration.path, "--online", "--write-load"])
            let duration = Date().timeIntervalSince(started)
            try #require(run.status == 0, "calibration: \(run.output)")
            #expect(try Self.version(calibration) == "2.0.0")
            scratch.removeDatabase(calibration)

            var atOld = 0
            var atNew = 0
            var inProgress = 0
            for kill in 0..<Self.kills {
                let url = try scratch.copyDatabase(pristine, to: "online-trial-\(kill).sqlite")
                let delay =
                    duration * 1.5 * (Double(kill) + Double.random(in: 0..<1, using: &random)) / Double(Self.kills)
                let driver = try DriverProcess([
                    "migrate", "--database", url.path, "--online", "--write-load", "--progress",
                ])
                usleep(useconds_t(delay * 1_000_000))
                driver.kill()
                let lines = driver.wait().output.split(separator: "\n").map(String.init)
                let context =
                    "kill \(kill) after \(String(format: "%.3f", delay)) s of \(String(format: "%.3f", duration)) s; last: \(lines.last { $0.hasPrefix("progress") } ?? "none"); \(config.reproduction)"
                let writes = Writes(lines)
                let version = try Self.version(url)
                #expect(version == "1.0.0" || version == "2.0.0", "\(context): version \(version ?? "none")")
                if version == "1.0.0" { atOld += 1 } else { atNew += 1 }
                if try OnlineState.read(from: SQLiteConnection(path: url.path, mode: .readOnly)) != nil {
                    inProgress += 1
                }
                let problems = try writes.problems(in: url)
                #expect(problems.isEmpty, "\(context): \(problems.prefix(5))")

                let resumed = try DriverProcess.run(["migrate", "--database", url.path, "--online"])
                #expect(resumed.status == 0, "resuming after \(context): \(resumed.output)")
                #expect(try Self.version(url) == "2.0.0", "resumed after \(context)")
                let after = try writes.problems(in: url)
                #expect(after.isEmpty, "resumed after \(context): \(after.prefix(5))")
                let leftovers = try SQLiteConnection(path: url.path, mode: .readOnly)
                    .rows(
                        "SELECT name FROM sqlite_schema WHERE name LIKE '\\_sm\\_%' ESCAPE '\\' OR name = '_schema_migrations_online'"
                    )
                #expect(leftovers.isEmpty, "resumed after \(context): left \(leftovers)")
                scratch.removeDatabase(url)
            }
            ReliabilityConfig.summary(
                "online-crash",
                "kills=\(Self.kills) old=\(atOld) new=\(atNew) change-in-progress-at-kill=\(inProgress) calibration=\(String(format: "%.2f", duration)) s"
            )
        }
    }
}
