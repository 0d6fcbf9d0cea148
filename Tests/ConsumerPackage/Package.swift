// swift-tools-version:6.0
// A user's package in Swift 6 language mode (strict concurrency): it must declare versions,
// plans and stages with SchemaMigrations' API, and embed the migrate command, without a single
// warning. Built by ConsumerPackageTests with -warnings-as-errors.
import PackageDescription

let package = Package(
    name: "Consumer",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "SchemaMigrations", path: "../..")],
    targets: [
        .executableTarget(
            name: "Consumer",
            dependencies: [
                .product(name: "SchemaMigrations", package: "SchemaMigrations"),
                .product(name: "SchemaMigrationsTesting", package: "SchemaMigrations"),
            ]),
        // The migrate command embedded with the user's plan (README, "The migrate command").
        .executableTarget(
            name: "ConsumerMigrate",
            dependencies: [
                .product(name: "MigrateCommand", package: "SchemaMigrations"),
                .product(name: "SchemaMigrations", package: "SchemaMigrations"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
