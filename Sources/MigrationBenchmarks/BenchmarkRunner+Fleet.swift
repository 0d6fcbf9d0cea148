import Foundation
import MigrateCommand
import SchemaMigrations

extension BenchmarkRunner {
    /// A fleet of small files (10 trips each, V1 → V2, a rebuild each) migrated by the `migrate`
    /// command in process, `--jobs` at a time with a backup each, against the library migrating
    /// them one after the other without backups.
    mutating func fleetCase(log: (String) -> Void) throws {
        let count = configuration.fleetFiles
        let jobs = configuration.fleetJobs ?? ProcessInfo.processInfo.activeProcessorCount
        let dir = configuration.directory.appendingPathComponent("fleet")
        let template = configuration.directory.appendingPathComponent("fleet-v1.sqlite")
        try BenchmarkWorkload.createV1(at: template, trips: 10)
        let files = (0..<count).map { dir.appendingPathComponent(String(format: "tenant-%04d.sqlite", $0)) }
        func freshFleet() throws {
            try? FileManager.default.removeItem(at: dir)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            for file in files { try FileManager.default.copyItem(at: template, to: file) }
            sync()
        }
        let silent = Console(output: { _ in }, error: { _ in }, errorIsTerminal: false)
        let command = MigrateCommand(plan: BenchPlan.self, name: "bench-migrate")
        let arguments = [
            "apply", "--database", dir.path + "/tenant-*.sqlite", "--to", BenchTripV2.versionIdentifier.description,
            "--jobs", "\(jobs)", "--backup", configuration.directory.appendingPathComponent("fleet-backups").path,
        ]
        var ours: [Double] = []
        var reference: [Double] = []
        Measure.resetPeakResident()
        for round in 0..<configuration.runs {
            func timeOurs() throws {
                try freshFleet()
                try? FileManager.default.removeItem(at: configuration.directory.appendingPathComponent("fleet-backups"))
                var status = MigrateExitCode.success
                ours.append(Measure.seconds { status = command.run(arguments, console: silent, environment: [:]) })
                guard status == .success else { throw MigrationError(.sqlite, "the fleet case exited \(status)") }
            }
            func timeReference() throws {
                try freshFleet()
                let migrator = Migrator(
                    plan: BenchPlan.self, options: MigrationOptions(targetVersion: BenchTripV2.versionIdentifier))
                reference.append(try Measure.seconds { for file in files { try migrator.migrate(databaseAt: file) } })
            }
            if round % 2 == 0 {
                try timeOurs()
                try timeReference()
            } else {
                try timeReference()
                try timeOurs()
            }
        }
        let perFile = Timing(samples: ours).median / Double(count) * 1000
        rows.append(
            Row(
                name:
                    "fleet: \(count) files of 10 trips, migrate apply --jobs \(jobs) with backups (\(String(format: "%.2f", perFile)) ms per file)",
                ours: Timing(samples: ours), reference: Timing(samples: reference),
                referenceName: "Migrator.migrate, one file after another, no backup", peakMiB: Measure.peakResidentMiB()
            ))
        log(rows.last!.formatted)
        try? FileManager.default.removeItem(at: dir)
        try? FileManager.default.removeItem(at: configuration.directory.appendingPathComponent("fleet-backups"))
    }

    /// The 12-step rebuild with a progress callback receiving every event (rows copied, index
    /// heartbeats, backup pages), against the same rebuild without one: the cost of progress.
    mutating func progressCase(size: Int, template: URL, log: (String) -> Void) throws {
        let dir = configuration.directory
        let events = EventCounter()
        try pairedCase(
            "rebuild \(size) rows with a progress callback", referenceName: "the same without one",
            check: "progress \(size)", against: "without progress",
            from: template, ours: dir.appendingPathComponent("progress-ours-\(size).sqlite"),
            reference: dir.appendingPathComponent("progress-reference-\(size).sqlite"),
            runOurs: { url in
                let options = MigrationOptions(
                    targetVersion: BenchTripV2.versionIdentifier, progress: { _ in events.add() })
                try Migrator(plan: BenchPlan.self, options: options).migrate(databaseAt: url)
            },
            runReference: {
                try Migrator(
                    plan: BenchPlan.self, options: MigrationOptions(targetVersion: BenchTripV2.versionIdentifier)
                ).migrate(databaseAt: $0)
            },
            log: log)
        log("  (\(events.count / max(1, configuration.runs)) progress events per migration)")
    }
}

/// Counts progress events from any thread.
final class EventCounter: @unchecked Sendable {
    // Sendable: the count is guarded by the lock.
    private let lock = NSLock()
    private var value = 0
    func add() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}
