// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "SchemaMigrations",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "SchemaMigrations", targets: ["SchemaMigrations"]),
        .executable(name: "sample-trips", targets: ["SampleTrips"]),
    ],
    targets: [
        // The system SQLite, linked as `sqlite3`; on Debian `libsqlite3-dev` provides the header.
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .target(name: "SchemaMigrations", dependencies: ["CSQLite"]),
        .executableTarget(name: "SampleTrips", dependencies: ["SchemaMigrations"], path: "Sources/SampleTrips"),
        .testTarget(name: "SchemaMigrationsTests", dependencies: ["SchemaMigrations", "CSQLite"]),
    ],
    swiftLanguageModes: [.v6]
)
