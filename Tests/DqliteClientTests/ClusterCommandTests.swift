import DqliteClient
import DqliteTestCluster
import Foundation
import MigrateCommand
import SampleTripsPlan
import SchemaMigrations
import Testing

/// `migrate status|plan|apply|verify --cluster … --name DB`, run as the command's library.
@Suite(
    "The migrate command on a dqlite cluster", .serialized,
    .enabled(if: DqliteBinaries.available, DqliteBinaries.skipReason))
struct ClusterCommandTests {
    @Test(
        "status says 1.0.0 pending (exit 3), plan refuses nothing, apply migrates (exit 0), verify and status then pass"
    )
    func statusApplyVerify() throws {
        let cluster = try ClusterTrips.sharedCluster()
        try ClusterTrips.createV1(on: cluster, "trips-command", trips: 300)
        let nodes = cluster.addresses.joined(separator: ",")
        let command = MigrateCommand(plan: TripsMigrationPlan.self, name: "trips-migrate")

        let status = Captured()
        #expect(
            command.run(
                ["status", "--cluster", nodes, "--name", "trips-command"], console: status.console, environment: [:])
                == .pending)
        #expect(status.output.contains("current version: 1.0.0"))

        let plan = Captured()
        #expect(
            command.run(
                ["plan", "--cluster", nodes, "--name", "trips-command"], console: plan.console, environment: [:])
                == .success)
        #expect(plan.output.contains("3.0.0"))

        let apply = Captured()
        #expect(
            command.run(
                ["apply", "--cluster", nodes, "--name", "trips-command"], console: apply.console, environment: [:])
                == .success,
            "\(apply.output)\(apply.errors)")
        #expect(
            try ClusterTrips.state(of: "trips-command", at: cluster.addresses[0]).version
                == TripsSchemaV3.versionIdentifier)

        let verify = Captured()
        #expect(
            command.run(
                ["verify", "--cluster", nodes, "--name", "trips-command"], console: verify.console, environment: [:])
                == .success)
        #expect(verify.output.contains("matches version 3.0.0"))
    }

    @Test(
        "plan --simulate on a DUMP: the migration succeeds on a copy; a custom stage that throws fails there, with the cluster unchanged"
    )
    func planSimulate() throws {
        let cluster = try ClusterTrips.sharedCluster()
        try ClusterTrips.createV1(on: cluster, "trips-simulate", trips: 200)
        let nodes = cluster.addresses.joined(separator: ",")
        let before = try cluster.contents(of: "trips-simulate")

        let succeeds = Captured()
        #expect(
            MigrateCommand(plan: TripsMigrationPlan.self, name: "trips-migrate")
                .run(
                    ["plan", "--cluster", nodes, "--name", "trips-simulate", "--simulate"], console: succeeds.console,
                    environment: [:]) == .success,
            "\(succeeds.output)\(succeeds.errors)")
        #expect(
            succeeds.output.contains(
                "database: trips-simulate\nsimulation: the migration succeeds on a copy of today's data: 1.0.0 → 3.0.0"),
            "\(succeeds.output)")

        let fails = Captured()
        let code = MigrateCommand(plan: ThrowingPlan.self, name: "trips-migrate")
            .run(
                ["plan", "--cluster", nodes, "--name", "trips-simulate", "--simulate"], console: fails.console,
                environment: [:])
        #expect(code != .success)
        #expect(fails.output.contains("simulation: the migration FAILS on a copy of today's data"), "\(fails.output)")
        #expect(fails.errors.contains("didMigrate of the stage 2.0.0 → 3.0.0 threw"), "\(fails.errors)")
        #expect(try cluster.contents(of: "trips-simulate") == before)
    }

    @Test("--cluster without --name is a usage error naming --name")
    func missingName() {
        let captured = Captured()
        let status = MigrateCommand(plan: TripsMigrationPlan.self, name: "trips-migrate")
            .run(["apply", "--cluster", "127.0.0.1:1"], console: captured.console, environment: [:])
        #expect(status == .usageError)
        #expect(captured.errors.contains("--name"))
    }
}

/// Everything a command printed.
final class Captured: @unchecked Sendable {
    private let lock = NSLock()
    private var out = "", err = ""
    var output: String { lock.withLock { out } }
    var errors: String { lock.withLock { err } }
    var console: Console {
        Console(
            output: { text in self.lock.withLock { self.out += text } },
            error: { text in self.lock.withLock { self.err += text } }, errorIsTerminal: false)
    }
}
