import Foundation
import SchemaMigrations

/// Runs the benchmark cases and prints a table: our median, the reference's median measured in
/// the same process run, their ratio, and peak memory.
public struct BenchmarkRunner {
    public struct Configuration: Sendable {
        public var sizes: [Int] = [100_000, 1_000_000]
        public var runs = 5
        public var upToDateRuns = 200
        public var plannerEntities = 500
        /// The `introspect` case's database: tables, and columns per table (200 × 20: 4,000 columns).
        public var introspectTables = 200
        public var introspectColumns = 20
        /// How many tables (of 20 columns) the scaffold case introspects and renders.
        public var scaffoldTables = 200
        /// How many small files the fleet case migrates, and how many at once (nil: the number of cores).
        public var fleetFiles = 1000
        public var fleetJobs: Int?
        public var directory = FileManager.default.temporaryDirectory.appendingPathComponent("schemamigrations-bench")
        /// The cases to run, by name (``Case``); all but `stall` by default (it runs each change
        /// offline and online under an application's writes: minutes at 1,000,000 rows).
        public var cases = Set(Case.allCases).subtracting([.stall])
        public init() {}
    }

    /// The benchmark's cases, as named on the command line (`--cases rebuild,custom`).
    public enum Case: String, CaseIterable, Sendable {
        case planner, introspect, dryrun, rebuild, alter, addcolumn, custom, uptodate, fleet, progress, scaffold, stall
    }

    /// One row of the results table.
    public struct Row: Sendable {
        public var name: String
        public var ours: Timing
        public var reference: Timing
        public var referenceName: String
        public var peakMiB: Double?
        /// The median of the rounds' ratios: each round times ours and the reference back to back,
        /// so a slow moment of a noisy machine weighs on both sides of a ratio rather than on one
        /// median. The ratio of the medians when the sample counts differ.
        public var ratio: Double {
            guard ours.samples.count == reference.samples.count, !ours.samples.isEmpty else {
                return ours.median / reference.median
            }
            return Timing(samples: zip(ours.samples, reference.samples).map { $0 / $1 }).median
        }
    }

    public let configuration: Configuration
    public internal(set) var rows: [Row] = []
    /// The writer-stall case's figures: an application's writes during offline and online migrations.
    public internal(set) var stallResults: [WriterStallResult] = []
    /// "same" when our V2 output holds exactly the reference's rows and schema, per size.
    public internal(set) var verification: [String] = []

    public init(configuration: Configuration) { self.configuration = configuration }

    public mutating func run(log: (String) -> Void = { print($0) }) throws {
        let dir = configuration.directory
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let cases = configuration.cases
        if cases.contains(.planner) { try plannerCase(log: log) }
        if cases.contains(.introspect) { try introspectCase(log: log) }
        if cases.contains(.fleet) { try fleetCase(log: log) }
        if cases.contains(.scaffold) { try scaffoldCase(log: log) }
        for size in configuration.sizes where !cases.subtracting([.planner, .introspect, .fleet, .scaffold]).isEmpty {
            log("building V1 with \(size) trips and \(2 * size) bucket items…")
            let template = dir.appendingPathComponent("v1-\(size).sqlite")
            try BenchmarkWorkload.createV1(at: template, trips: size)
            if cases.contains(.dryrun) { try dryRunCase(size: size, template: template, log: log) }
            if cases.contains(.progress) { try progressCase(size: size, template: template, log: log) }
            if cases.contains(.stall) { try writerStallCase(size: size, template: template, log: log) }
            if cases.contains(.rebuild) {
                try rebuildCase(size: size, template: template, log: log)
            } else if !cases.isDisjoint(with: [.addcolumn, .custom, .uptodate]) {
                // The later cases start from V2: migrate once, untimed.
                let v2 = dir.appendingPathComponent("ours-v2-\(size).sqlite")
                try Measure.freshCopy(of: template, to: v2)
                try Migrator(
                    plan: BenchPlan.self, options: MigrationOptions(targetVersion: BenchTripV2.versionIdentifier)
                ).migrate(databaseAt: v2)
            }
            if cases.contains(.alter) { try alterCase(size: size, template: template, log: log) }
            if cases.contains(.addcolumn) || cases.contains(.uptodate) {
                try addColumnCase(size: size, log: log, record: cases.contains(.addcolumn))
            }
            if cases.contains(.custom) { try customStageCase(size: size, log: log) }
            if cases.contains(.uptodate) { try upToDateCase(size: size, log: log) }
        }
    }

    private mutating func rebuildCase(size: Int, template: URL, log: (String) -> Void) throws {
        let dir = configuration.directory
        try pairedCase(
            "rebuild \(size) rows (+\(2 * size) children)", referenceName: "hand-written 12-step SQL",
            check: "rebuild \(size)", against: "the hand-written SQL",
            from: template, ours: dir.appendingPathComponent("ours-v2-\(size).sqlite"),
            reference: dir.appendingPathComponent("reference-v2-\(size).sqlite"),
            runOurs: {
                try Migrator(
                    plan: BenchPlan.self, options: MigrationOptions(targetVersion: BenchTripV2.versionIdentifier)
                ).migrate(databaseAt: $0)
            },
            runReference: BenchmarkWorkload.runHandWrittenV2, log: log)
    }

    /// "Cheaper than the recipe": a V1 → V2 whose every change `ALTER TABLE` and `CREATE INDEX`
    /// make in place, against the same changes written as SQLite's 12-step rebuild.
    private mutating func alterCase(size: Int, template: URL, log: (String) -> Void) throws {
        let dir = configuration.directory
        try pairedCase(
            "no rebuild needed: renames, drop, add, index, \(size) rows",
            referenceName: "the same as hand-written 12-step SQL", check: "no rebuild \(size)",
            against: "the hand-written SQL", from: template,
            ours: dir.appendingPathComponent("alter-ours-\(size).sqlite"),
            reference: dir.appendingPathComponent("alter-reference-\(size).sqlite"),
            runOurs: { try Migrator(plan: BenchAlterPlan.self).migrate(databaseAt: $0) },
            runReference: BenchmarkWorkload.runHandWrittenAlterRecipe, log: log)
    }

    /// Runs ours and the reference on fresh copies of `source`, `runs` rounds, alternating which
    /// goes first; adds the row (peak memory of our runs) and whether both reached the same rows
    /// and schema.
    mutating func pairedCase(
        _ name: String, referenceName: String, check: String, against: String, from source: URL,
        ours: URL, reference: URL, runOurs: (URL) throws -> Void, runReference: (URL) throws -> Void,
        log: (String) -> Void
    ) throws {
        var oursTimes: [Double] = []
        var referenceTimes: [Double] = []
        var peak: Double?
        for round in 0..<configuration.runs {
            try Measure.freshCopy(of: source, to: ours)
            try Measure.freshCopy(of: source, to: reference)
            func timeOurs() throws {
                Measure.resetPeakResident()
                oursTimes.append(try Measure.seconds { try runOurs(ours) })
                peak = Swift.max(peak ?? 0, Measure.peakResidentMiB() ?? 0)
            }
            func timeReference() throws { referenceTimes.append(try Measure.seconds { try runReference(reference) }) }
            if round % 2 == 0 {
                try timeOurs()
                try timeReference()
            } else {
                try timeReference()
                try timeOurs()
            }
        }
        rows.append(
            Row(
                name: name, ours: Timing(samples: oursTimes), reference: Timing(samples: referenceTimes),
                referenceName: referenceName, peakMiB: peak))
        let same = try Fingerprint.of(ours) == Fingerprint.of(reference)
        verification.append("\(check): data and schema \(same ? "same" : "DIFF") as \(against)")
        log(rows.last!.formatted)
    }

    /// The dry run of V1 → V2 with its impact figures (rows rewritten, non-empty values dropped,
    /// NULLs taking a default), against one full scan of the table.
    private mutating func dryRunCase(size: Int, template: URL, log: (String) -> Void) throws {
        let migrator = Migrator(
            plan: BenchPlan.self, options: MigrationOptions(targetVersion: BenchTripV2.versionIdentifier))
        var ours: [Double] = []
        var scan: [Double] = []
        var lost: Int64 = 0
        Measure.resetPeakResident()
        for _ in 0..<max(configuration.runs, 5) {
            ours.append(
                try Measure.seconds {
                    lost = try migrator.plan(databaseAt: template).stages[0].steps.compactMap(\.impact).reduce(0) {
                        $0 + $1.lostValues
                    }
                })
            scan.append(
                try Measure.seconds {
                    _ = try SQLiteConnection(path: template.path, mode: .readOnly).scalar(
                        "SELECT sum(length(destination)) FROM trip")
                })
        }
        rows.append(
            Row(
                name: "dry run with impact, \(size) rows (\(lost) values would be lost)", ours: Timing(samples: ours),
                reference: Timing(samples: scan),
                referenceName: "one full scan of the table", peakMiB: Measure.peakResidentMiB()))
        log(rows.last!.formatted)
    }

    /// Also leaves `v3-<size>.sqlite` for the up-to-date case; `record: false` skips the table row.
    private mutating func addColumnCase(size: Int, log: (String) -> Void, record: Bool) throws {
        let dir = configuration.directory
        let v2 = dir.appendingPathComponent("ours-v2-\(size).sqlite")
        let work = dir.appendingPathComponent("v3-\(size).sqlite")
        let empty = dir.appendingPathComponent("empty-v2.sqlite")
        let emptyWork = dir.appendingPathComponent("empty-v3.sqlite")
        try? FileManager.default.removeItem(at: empty)
        try Migrator(plan: BenchPlan.self, options: MigrationOptions(targetVersion: BenchTripV2.versionIdentifier))
            .migrate(databaseAt: empty)
        var full: [Double] = []
        var none: [Double] = []
        Measure.resetPeakResident()
        for _ in 0..<max(configuration.runs, 5) {
            try Measure.freshCopy(of: v2, to: work)
            try Measure.freshCopy(of: empty, to: emptyWork)
            full.append(try Measure.seconds { try Migrator(plan: BenchPlan.self).migrate(databaseAt: work) })
            none.append(try Measure.seconds { try Migrator(plan: BenchPlan.self).migrate(databaseAt: emptyWork) })
        }
        guard record else { return }
        rows.append(
            Row(
                name: "add optional column, \(size) rows", ours: Timing(samples: full),
                reference: Timing(samples: none),
                referenceName: "the same on an empty table", peakMiB: Measure.peakResidentMiB()))
        log(rows.last!.formatted)
    }

    private mutating func customStageCase(size: Int, log: (String) -> Void) throws {
        try customStageCase(
            size: size, plan: BenchCustomPlan.self, label: "properties: name, budget",
            reference: ("hand-written prepared-statement loop", BenchmarkWorkload.runHandWrittenFill), log: log)
        // Against the loop doing the same work (every column read), and against the expert's
        // loop reading three: the cost of not naming the properties a loop uses.
        try customStageCase(
            size: size, plan: BenchCustomPlanEveryProperty.self, label: "every property read",
            reference: (
                "hand-written loop reading every column", BenchmarkWorkload.runHandWrittenFillReadingEveryColumn
            ), log: log)
        try customStageCase(
            size: size, plan: BenchCustomPlanEveryProperty.self, label: "every property read",
            reference: ("hand-written prepared-statement loop", BenchmarkWorkload.runHandWrittenFill), log: log)
    }

    private mutating func customStageCase(
        size: Int, plan: any SchemaMigrationPlan.Type, label: String,
        reference: (name: String, run: (URL) throws -> Void), log: (String) -> Void
    ) throws {
        let dir = configuration.directory
        try pairedCase(
            "custom stage enumerates + updates \(size) rows (\(label))",
            referenceName: reference.name,
            check: "custom stage \(size) (\(label))", against: "the hand-written loop",
            from: dir.appendingPathComponent("ours-v2-\(size).sqlite"),
            ours: dir.appendingPathComponent("custom-ours-\(size).sqlite"),
            reference: dir.appendingPathComponent("custom-reference-\(size).sqlite"),
            runOurs: { try Migrator(plan: plan).migrate(databaseAt: $0) },
            runReference: reference.run, log: log)
    }

    /// Planner at scale: two 500-entity × 40-attribute schemas, 10% of the entities changed.
    private mutating func plannerCase(log: (String) -> Void) throws {
        let (source, target) = PlannerScaleCase.schemas(entities: configuration.plannerEntities, attributes: 40)
        var times: [Double] = []
        var hashing: [Double] = []
        var steps = 0
        Measure.resetPeakResident()
        for _ in 0..<max(configuration.runs, 5) {
            times.append(try Measure.seconds { steps = try source.migrationStage(to: target).steps.count })
            hashing.append(
                Measure.seconds {
                    _ = source.versionHash
                    _ = target.versionHash
                })
        }
        rows.append(
            Row(
                name:
                    "planner: \(configuration.plannerEntities) entities × 40 attributes, 10% changed (\(steps) steps)",
                ours: Timing(samples: times),
                reference: Timing(samples: hashing), referenceName: "hashing both schemas",
                peakMiB: Measure.peakResidentMiB()))
        log(rows.last!.formatted)
    }

    private mutating func upToDateCase(size: Int, log: (String) -> Void) throws {
        let current = configuration.directory.appendingPathComponent("v3-\(size).sqlite")
        var ours: [Double] = []
        var withInit: [Double] = []
        var reference: [Double] = []
        Measure.resetPeakResident()
        let migrator = Migrator(plan: BenchPlan.self)  // an app makes its migrator once
        for _ in 0..<configuration.upToDateRuns {
            ours.append(
                try Measure.seconds {
                    let result = try migrator.migrate(databaseAt: current)
                    precondition(result.outcome == .upToDate)
                })
            withInit.append(
                try Measure.seconds {
                    let result = try Migrator(plan: BenchPlan.self).migrate(databaseAt: current)
                    precondition(result.outcome == .upToDate)
                })
            reference.append(
                try Measure.seconds {
                    _ = try SQLiteConnection(path: current.path, mode: .readWrite).scalar("PRAGMA user_version")
                })
        }
        rows.append(
            Row(
                name: "up-to-date check, \(size) rows", ours: Timing(samples: ours),
                reference: Timing(samples: reference),
                referenceName: "open + PRAGMA user_version", peakMiB: Measure.peakResidentMiB()))
        log(rows.last!.formatted)
        rows.append(
            Row(
                name: "up-to-date check incl. Migrator(plan:), \(size) rows", ours: Timing(samples: withInit),
                reference: Timing(samples: reference),
                referenceName: "open + PRAGMA user_version", peakMiB: Measure.peakResidentMiB()))
        log(rows.last!.formatted)
    }

    /// The results as a Markdown table.
    public var table: String {
        var lines = [
            "| case | ours median (min–max) | reference | reference median | ratio | peak RSS |",
            "|---|---|---|---|---|---|",
        ]
        for row in rows {
            let unit = row.ours.median
            lines.append(
                "| \(row.name) | \(Self.format(row.ours.median)) (\(Self.format(row.ours.min, like: unit))–\(Self.format(row.ours.max, like: unit))) | \(row.referenceName) | \(Self.format(row.reference.median)) | \(String(format: "%.2f×", row.ratio)) | \(row.peakMiB.map { String(format: "%.0f MiB", $0) } ?? "n/a") |"
            )
        }
        return lines.joined(separator: "\n")
    }

    /// Seconds, or milliseconds below 10 ms; `like` picks the unit from another figure, so that a
    /// median and its spread read in one unit.
    static func format(_ seconds: Double, like reference: Double? = nil) -> String {
        (reference ?? seconds) < 0.01 ? String(format: "%.3f ms", seconds * 1000) : String(format: "%.3f s", seconds)
    }
}

extension BenchmarkRunner.Row {
    var formatted: String {
        "\(name): ours \(BenchmarkRunner.format(ours.median)), \(referenceName) \(BenchmarkRunner.format(reference.median)), ratio \(String(format: "%.2f", ratio))"
    }
}

/// A digest of a database's `trip` and `bucket_item` rows (every value through `quote()`) and of
/// the schema as SQLite understands it, to show two migrations reached the same result.
enum Fingerprint {
    static func of(_ url: URL) throws -> String {
        let db = try SQLiteConnection(path: url.path, mode: .readOnly)
        var hasher = RowDigest()
        for table in ["trip", "bucket_item"] {
            let columns = try db.rows("SELECT name FROM pragma_table_info(?) ORDER BY name", [.text(table)]).map {
                $0[0].stringValue!
            }
            hasher.add(table + ":" + columns.joined(separator: ","))
            let statement = try db.prepare(
                "SELECT \(columns.map { "quote(\(SQL.quoteIdentifier($0)))" }.joined(separator: " || '|' || ")) FROM \(table) ORDER BY id"
            )
            while try statement.step() { hasher.add(statement.column(0).stringValue ?? "") }
            // Indexes by their columns and uniqueness, not their names, which a rebuild may choose differently.
            var indexes: [String] = []
            for index in try db.rows("SELECT name, \"unique\" FROM pragma_index_list(?)", [.text(table)]) {
                let info = try db.rows("SELECT name FROM pragma_index_info(?) ORDER BY seqno", [index[0]]).map {
                    $0[0].stringValue ?? ""
                }
                indexes.append(
                    "index(" + info.joined(separator: ",") + ")" + (index[1].int64Value == 1 ? " unique" : ""))
            }
            for index in indexes.sorted() { hasher.add(index) }
            for column in try db.rows(
                "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?) ORDER BY name", [.text(table)]
            ) {
                hasher.add(column.map(\.sqlLiteral).joined(separator: " "))
            }
        }
        return hasher.hex
    }
}

/// A running digest (FNV-1a 64, enough to tell two results apart in a benchmark).
struct RowDigest {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325
    mutating func add(_ text: String) {
        for byte in text.utf8 { state = (state ^ UInt64(byte)) &* 0x100_0000_01b3 }
        state = (state ^ 0x0A) &* 0x100_0000_01b3
    }
    var hex: String { String(state, radix: 16) }
}
