import Foundation
import MigrateCommand
import SampleTripsPlan

/// `fixture --database PATH [--trips N]`: a populated V1 SampleTrips database to migrate.
enum FixtureSubcommand {
    static func make() -> Subcommand {
        Subcommand(
            name: "fixture",
            abstract: "Creates a populated V1 SampleTrips database to try the other subcommands on",
            discussion:
                "Replaces any file at PATH. Every fourth trip shares the name of the one before, so V2's unique name needs the custom stage.",
            options: [
                .value("--database", "PATH", required: true, help: "the database file to create"),
                .value("--trips", "N", help: "how many trips (default 1000)"),
            ],
            run: run)
    }

    static func run(_ invocation: Invocation) throws -> MigrateExitCode {
        let path = invocation.arguments.value("--database")!
        let trips = try invocation.arguments.count("--trips") ?? 1000
        let url = URL(fileURLWithPath: path)
        for suffix in ["", "-journal", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
        try SampleTripsFixture.createV1(at: url, trips: trips)
        invocation.console.output(
            "created a V1 SampleTrips database with \(trips) trips (every fourth shares a name) at \(url.path)\n")
        return .success
    }
}
