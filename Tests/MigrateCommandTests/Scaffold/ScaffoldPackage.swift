import Foundation
import SchemaMigrations
import Testing

/// One Swift 6 package, built once per test run, holding every scaffolded file the tests compile:
/// the declared cases rendered by `SwiftDeclarations`, and the shop database scaffolded by the
/// built `migrate scaffold`, with a V2 written by hand. Its one executable prints what the
/// generated versions read back as, and adopts and migrates a database with the generated plan.
///
/// The package depends on this checkout by path and is built with `-warnings-as-errors` in a
/// scratch directory outside `.build` (so the outer `swift test` and this build never share a
/// lock), the same one each run, so a second run rebuilds only what changed.
struct ScaffoldPackage: Sendable {
    var root: URL
    /// `swift build`'s exit status and output.
    var buildStatus: Int32
    var buildLog: String
    /// What `migrate scaffold` did with the shop database.
    var scaffold: CommandResult
    /// The Swift file it wrote.
    var shopSource: String
    /// The generated sources of the declared cases, by case name.
    var caseSources: [String: String]
    /// What `migrate scaffold` did with each corpus database, by name.
    var corpusScaffolds: [String: CommandResult]

    var executable: URL { Self.scratch.appendingPathComponent("debug/ScaffoldCheck") }

    /// Where the package is built: the scratch directory `ConsumerPackageTests` builds the
    /// consumer package in (the same flags, the same checkout), so SchemaMigrations is compiled
    /// once for both; named as that test names it, by a stable hash of the checkout's path and of
    /// the names of its Swift sources.
    static var scratch: URL {
        let repository = BuiltCommand.repositoryRoot
        let sources = repository.appendingPathComponent("Sources")
        let files = (FileManager.default.enumerator(atPath: sources.path)?.allObjects as? [String] ?? []).filter {
            $0.hasSuffix(".swift")
        }.sorted()
        let key = ([repository.path] + files).joined(separator: "\n")
        let hash = key.utf8.reduce(UInt64(5381)) { ($0 &* 33) &+ UInt64($1) } % 1_000_000
        return FileManager.default.temporaryDirectory.appendingPathComponent("schemamigrations-packages-\(hash)")
    }

    /// The package, built on first use. Every test that needs it waits for the one build.
    static let shared: Result<ScaffoldPackage, any Error> = Result { try ScaffoldPackage.build() }

    static func build() throws -> ScaffoldPackage {
        let repository = BuiltCommand.repositoryRoot
        // Named by a stable hash of the checkout's path (`hashValue` changes with every process).
        let pathHash = repository.path.utf8.reduce(UInt64(5381)) { ($0 &* 33) &+ UInt64($1) } % 1_000_000
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "schemamigrations-scaffold-\(pathHash)")
        let sources = root.appendingPathComponent("Package/Sources/ScaffoldCheck")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        // Written only when changed, so that a second run rebuilds nothing it need not.
        func write(_ text: String, _ name: String) throws {
            let url = sources.appendingPathComponent(name)
            if (try? Data(contentsOf: url)) != Data(text.utf8) { try Data(text.utf8).write(to: url) }
        }

        // The shop database, scaffolded by the built command as a user would.
        let database = root.appendingPathComponent("shop.sqlite")
        try? FileManager.default.removeItem(at: database)
        try ShopDatabase.create(at: database)
        let scaffolded = root.appendingPathComponent("ShopSchemaV1.swift")
        try? FileManager.default.removeItem(at: scaffolded)
        let scaffold = try BuiltCommand.migrate([
            "scaffold", "--database", database.path, "--output", scaffolded.path, "--name", "Shop",
        ])
        let shopSource = (try? String(contentsOf: scaffolded, encoding: .utf8)) ?? ""
        try write(shopSource, "ShopSchemaV1.swift")
        try write(ShopDatabase.versionTwo, "ShopSchemaV2.swift")
        try write(GeoDatabase.versionTwo, "GeoSchemaV2.swift")

        // The corpus: databases made without us, scaffolded the same way.
        var corpusScaffolds: [String: CommandResult] = [:]
        for database in ScaffoldCorpus.databases {
            let url = root.appendingPathComponent("\(database.name).sqlite")
            try? FileManager.default.removeItem(at: url)
            try database.create(url)
            let output = root.appendingPathComponent("\(database.name)ScaffoldV1.swift")
            try? FileManager.default.removeItem(at: output)
            corpusScaffolds[database.name] = try BuiltCommand.migrate([
                "scaffold", "--database", url.path, "--output", output.path, "--name", database.name,
            ])
            try write((try? String(contentsOf: output, encoding: .utf8)) ?? "", "\(database.name)ScaffoldV1.swift")
        }

        var caseSources: [String: String] = [:]
        for (name, version) in ScaffoldCases.versions {
            // Rendered without the declared property names, as from a live file: names come from columns.
            var schema = try Schema(version)
            for entity in schema.entities.indices {
                for attribute in schema.entities[entity].attributes.indices {
                    schema.entities[entity].attributes[attribute].propertyName = nil
                }
            }
            let source = SwiftDeclarations(schema: schema, name: name).source
            caseSources[name] = source
            try write(source, "\(name)SchemaV1.swift")
        }
        for (name, planName, schema) in ScaffoldSchemaCases.cases {
            let source = SwiftDeclarations(schema: schema, name: planName).source
            caseSources[name] = source
            try write(source, "\(name)SchemaV1.swift")
        }
        try write(mainSource, "main.swift")
        try Data(
            """
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
                name: "ScaffoldCheck",
                platforms: [.macOS(.v13)],
                dependencies: [.package(name: "SchemaMigrations", path: \(SwiftDeclarationsQuoting.literal(repository.path)))],
                targets: [.executableTarget(name: "ScaffoldCheck", dependencies: [.product(name: "SchemaMigrations", package: "SchemaMigrations")])],
                swiftLanguageModes: [.v6]
            )
            """.utf8
        ).write(to: root.appendingPathComponent("Package/Package.swift"))

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "swift", "build", "--package-path", root.appendingPathComponent("Package").path,
            "--scratch-path", Self.scratch.path, "-Xswiftc", "-warnings-as-errors",
        ]
        let log = root.appendingPathComponent("build.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = process.standardOutput
        try process.run()
        process.waitUntilExit()
        return ScaffoldPackage(
            root: root, buildStatus: process.terminationStatus, buildLog: try String(contentsOf: log, encoding: .utf8),
            scaffold: scaffold, shopSource: shopSource, caseSources: caseSources, corpusScaffolds: corpusScaffolds)
    }

    /// Runs the built program.
    func run(_ arguments: [String]) throws -> CommandResult {
        try BuiltCommand.runProgram(executable.path, arguments)
    }

    /// The program: `schemas` prints every generated version's snapshot (one JSON object, case
    /// name → snapshot text; `Shop` for the scaffolded database); `adopt PATH` verifies, migrates and verifies again with the generated
    /// one-version plan; `upgrade PATH` migrates with the hand-written V2.
    static let mainSource = """
        import Foundation
        import SchemaMigrations

        let cases: [(String, any VersionedSchema.Type)] = [\((ScaffoldCases.versions.map { ($0.name, "\($0.name)SchemaV1") } + [("Shop", "ShopSchemaV1")]
            + ScaffoldSchemaCases.schemaTypeNames.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }).map { "(\"\($0.0)\", \($0.1).self)" }.joined(separator: ", "))]

        func describe(_ status: MigrationStatus) -> String {
            "version \\(status.currentVersion.map(String.init(describing:)) ?? "none") recorded \\(status.isRecorded) upToDate \\(status.isUpToDate)"
        }

        do {
            let arguments = Array(CommandLine.arguments.dropFirst())
            switch arguments.first {
            case "schemas":
                var snapshots: [String: String] = [:]
                for (name, version) in cases { snapshots[name] = try Schema(version).snapshotJSON() }
                let data = try JSONSerialization.data(withJSONObject: snapshots, options: [.sortedKeys])
                print(String(decoding: data, as: UTF8.self))
            case "adopt":
                let url = URL(fileURLWithPath: arguments[1])
                let plans: [String: any SchemaMigrationPlan.Type] = [\((["Shop"] + ScaffoldCorpus.databases.map(\.name)).map { "\"\($0)\": \($0)MigrationPlan.self" }.joined(separator: ", "))]
                let migrator = Migrator(plan: plans[arguments.count > 2 ? arguments[2] : "Shop"]!)
                print("verify:", describe(try migrator.verify(databaseAt: url)))
                let result = try migrator.migrate(databaseAt: url)
                print("migrate:", result.outcome.rawValue, "adopted \\(result.adopted)", result.toVersion)
                print("verify:", describe(try migrator.verify(databaseAt: url)))
            case "upgrade":
                let url = URL(fileURLWithPath: arguments[1])
                let migrator = Migrator(plan: arguments.count > 2 && arguments[2] == "Geo" ? GeoMigrationPlanV2.self : ShopMigrationPlanV2.self)
                let result = try migrator.migrate(databaseAt: url)
                print("migrate:", result.outcome.rawValue, result.fromVersion.map(String.init(describing:)) ?? "none", "->", result.toVersion)
                print("verify:", describe(try migrator.verify(databaseAt: url)))
            default:
                print("usage: ScaffoldCheck schemas | adopt PATH [PLAN] | upgrade PATH [Geo]")
                exit(2)
            }
        } catch {
            FileHandle.standardError.write(Data("\\(error)\\n".utf8))
            exit(1)
        }
        """
}

/// A Swift string literal of a path, for the generated manifest.
enum SwiftDeclarationsQuoting {
    static func literal(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
