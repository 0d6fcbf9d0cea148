import Foundation
import Testing

/// Every Swift snippet of README.md compiles, as a user would paste it: the snippets are pulled
/// out of the page and built in a package of their own, against this checkout, the way
/// `Tests/ConsumerPackage` is. Declarations (a snippet starting with `import`) are a module,
/// `TripsModel`; the `.package(…)` and `.executableTarget(…)` lines go into its `Package.swift`
/// as they are; the embedding `main.swift` is that executable's; any other snippet is the body
/// of a function (or, starting with `.`, a `MigrationStage` expression) in a third target.
@Suite struct ReadmeSnippetsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The ```swift blocks of README.md, in order.
    static func snippets() throws -> [String] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        var snippets: [String] = [], current: [Substring]?
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" { current = [] } else if current != nil, line == "```" {
                snippets.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return snippets
    }

    @Test func theReadmeHasNoPathOutsideTheRepository() throws {
        for page in ["README.md", "BENCHMARKS.md", "MIGRATIONS.md", "RELIABILITY.md", "Fixtures/bench/README.md"] {
            let text = try String(contentsOf: Self.root.appendingPathComponent(page), encoding: .utf8)
            #expect(!text.contains("../shared") && !text.contains("/work/"), "\(page) points outside the repository")
        }
    }

    @Test(.timeLimit(.minutes(10)))
    func everySwiftSnippetOfTheReadmeCompiles() throws {
        let snippets = try Self.snippets()
        #expect(snippets.count >= 5)
        let directory = stableScratchDirectory("schemamigrations-readme", for: Self.root.path)
        let package = directory.appendingPathComponent("App")
        try? FileManager.default.removeItem(at: package)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // The dependency line names a checkout called SchemaMigrations beside the app: this one.
        let link = directory.appendingPathComponent("SchemaMigrations")
        try? FileManager.default.removeItem(at: link)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: Self.root)

        var manifestLines: [String] = [], models: [String] = [], mains: [String] = [], bodies: [String] = []
        for snippet in snippets {
            let trimmed = snippet.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.hasPrefix(".package(") || trimmed.hasPrefix(".executableTarget(") {
                manifestLines += trimmed.split(separator: "\n").map(String.init)
            } else if trimmed.hasPrefix("import") {
                if trimmed.contains("MigrateCommand.main(") { mains.append(trimmed) } else { models.append(trimmed) }
            } else if trimmed.hasPrefix(".") {
                bodies.append("let stage: MigrationStage = \(trimmed)\n_ = stage")
            } else {
                bodies.append(trimmed)
            }
        }
        let dependencies = manifestLines.filter { $0.hasPrefix(".package(") }
        let targets = manifestLines.filter { $0.hasPrefix(".executableTarget(") }
        #expect(dependencies.count == 1 && targets.count == 1 && mains.count == 1 && !models.isEmpty)
        let executable = try #require(targets.first?.firstMatch(of: /name: "([^"]+)"/)).1

        func write(_ text: String, _ path: String) throws {
            let url = package.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        try write("""
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
                name: "App",
                platforms: [.macOS(.v13)],
                dependencies: [
                    \(dependencies.joined(separator: "\n        "))
                ],
                targets: [
                    .target(name: "TripsModel", dependencies: [.product(name: "SchemaMigrations", package: "SchemaMigrations"), .product(name: "SchemaMigrationsCluster", package: "SchemaMigrations")]),
                    \(targets.joined(separator: "\n        "))
                    .executableTarget(name: "Snippets", dependencies: ["TripsModel", .product(name: "SchemaMigrations", package: "SchemaMigrations")]),
                ],
                swiftLanguageModes: [.v6]
            )
            """, "Package.swift")
        for (index, model) in models.enumerated() { try write(model + "\n", "Sources/TripsModel/Snippet\(index).swift") }
        try write(mains[0] + "\n", "Sources/\(executable)/main.swift")
        try write("import Foundation\nimport SchemaMigrations\nimport TripsModel\n\n" + bodies.enumerated().map { index, body in
            "func snippet\(index)(url: URL, grdbHandle: OpaquePointer) throws {\n" + body.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n") + "\n}\n"
        }.joined(separator: "\n"), "Sources/Snippets/main.swift")

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "build", "--package-path", package.path, "--scratch-path", directory.appendingPathComponent("build").path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
    }
}
