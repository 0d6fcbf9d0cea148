// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "SchemaMigrations",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "SchemaMigrations", targets: ["SchemaMigrations"]),
        .library(name: "SchemaMigrationsTesting", targets: ["SchemaMigrationsTesting"]),
        .library(name: "MigrateCommand", targets: ["MigrateCommand"]),
        .library(name: "SchemaMigrationsCluster", targets: ["SchemaMigrationsCluster"]),
        .executable(name: "migrate", targets: ["migrate"]),
        .executable(name: "sample-trips", targets: ["SampleTrips"]),
        .executable(name: "schemamigrations-bench", targets: ["schemamigrations-bench"]),
    ],
    targets: [
        // The system SQLite, linked as `sqlite3`; on Debian `libsqlite3-dev` provides the header.
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .target(name: "SchemaMigrations", dependencies: ["CSQLite"]),
        // The testing library: databases created at any declared version, migrated, validated
        // against a new install, read back; fixtures of released versions tested on every release.
        .target(name: "SchemaMigrationsTesting", dependencies: ["SchemaMigrations"]),
        // The `migrate` command as a library (an app embeds it with its Swift plan), and the bare
        // executable that reads JSON plan directories.
        .target(
            name: "MigrateCommand",
            dependencies: ["SchemaMigrations", "SchemaMigrationsCluster", "SchemaMigrationsTesting"]),
        // hot-functions.order is the shipped build's link order (README, "Shipping the binary").
        .executableTarget(name: "migrate", dependencies: ["MigrateCommand"], exclude: ["hot-functions.order"]),
        // The bundled example: the SampleTrips plan (Fixtures/SampleTrips/Plan) and its command.
        .target(name: "SampleTripsPlan", dependencies: ["SchemaMigrations"], path: "Fixtures/SampleTrips/Plan"),
        .executableTarget(
            name: "SampleTrips", dependencies: ["MigrateCommand", "SchemaMigrations", "SampleTripsPlan"],
            path: "Sources/SampleTrips"),
        // Benchmarks against hand-written SQL: a library (so the test suite smoke-runs it) and its command.
        .target(name: "MigrationBenchmarks", dependencies: ["SchemaMigrations", "MigrateCommand"]),
        .executableTarget(name: "schemamigrations-bench", dependencies: ["MigrationBenchmarks"]),
        .testTarget(
            name: "SchemaMigrationsTests",
            dependencies: [
                "SchemaMigrations", "SchemaMigrationsTesting", "MigrationBenchmarks", "SampleTripsPlan", "CSQLite",
            ]),
        // Runs the built `migrate` and `sample-trips` executables end to end, so it depends on them.
        .testTarget(
            name: "MigrateCommandTests",
            dependencies: [
                "MigrateCommand", "SchemaMigrations", "SampleTripsPlan", "MigrationBenchmarks", "migrate",
                "SampleTrips",
            ]),
        // The reliability suite: a fault-injecting SQLite VFS, a child process the tests kill and
        // race, and the tests (quick in `swift test`; the long mode in RELIABILITY.md).
        .target(name: "CFaultVFS", linkerSettings: [.linkedLibrary("sqlite3")]),
        .executableTarget(name: "reliability-driver", dependencies: ["SchemaMigrations"]),
        .testTarget(
            name: "ReliabilityTests",
            dependencies: [
                "SchemaMigrations", "SchemaMigrationsCluster", "DqliteClient", "DqliteTestCluster", "CFaultVFS",
                "CSQLite", "reliability-driver",
            ]),
        // A client for dqlite (Raft-replicated SQLite) over its wire protocol, POSIX sockets only,
        // and its tests against a 3-node cluster of `dqlite-demo` processes (skipped when absent).
        .target(name: "DqliteClient"),
        // The migration of a dqlite cluster: run on the leader over the wire, in one transaction.
        .target(name: "SchemaMigrationsCluster", dependencies: ["SchemaMigrations", "DqliteClient"]),
        // A 3-node dqlite-demo cluster on loopback, for the tests: started, watched and stopped by PID.
        .target(
            name: "DqliteTestCluster", dependencies: ["DqliteClient", "CSQLite"],
            path: "Tests/Support/DqliteTestCluster"),
        .testTarget(
            name: "DqliteClientTests",
            dependencies: [
                "DqliteClient", "DqliteTestCluster", "CSQLite", "SchemaMigrationsCluster", "SchemaMigrations",
                "SampleTripsPlan", "MigrateCommand",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
