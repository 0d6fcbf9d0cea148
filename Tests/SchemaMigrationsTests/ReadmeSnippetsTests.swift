import Foundation
import Testing

/// Every Swift snippet of README.md compiles, as a user would paste it: the snippets are pulled
/// out of the page and built in a package of their own, against this checkout, the way
/// `Tests/ConsumerPackage` is. Declarations (a snippet starting with `import`) are a module,
/// `TripsModel`; the `.package(…)` and `.executableTarget(…)` lines go into its `Package.swift`
/// as they are; the embedding `main.swift` is that executable's; a snippet importing
/// `SchemaMigrationsTesting` is a test of a test target, which runs and must pass; any other
/// snippet is the body of a function (or, starting with `.`, a `MigrationStage` expression) in a
/// third target.
@Suite struct ReadmeSnippetsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The ```swift blocks of README.md, in order.
    static func snippets() throws -> [String] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        var snippets: [String] = []
        var current: [Substring]?
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
            } else if current != nil, line == "```" {
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

    /// The pages that must read as a reference: today's behaviour and figures, no history.
    static let referencePages = ["README.md", "MIGRATIONS.md", "BENCHMARKS.md", "RELIABILITY.md"]

    /// README stays a newcomer's path, and no page names a commit or an issue: git keeps history.
    @Test func theDocsReadAsAReferenceWithNoCommitNorIssue() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.filter { $0 == "\n" }.count
        #expect(
            lines <= 300,
            "README.md has \(lines) lines: keep it a newcomer's path, and move reference material to MIGRATIONS.md")
        for page in Self.referencePages {
            let text = try String(contentsOf: Self.root.appendingPathComponent(page), encoding: .utf8)
            #expect(Self.commitLikeWords(in: text).isEmpty, "\(page) names commits: \(Self.commitLikeWords(in: text))")
            #expect(Self.issueReferences(in: text).isEmpty, "\(page) names issues: \(Self.issueReferences(in: text))")
        }
    }

    @Test func theHistoryCheckTellsACommitFromANumberAndAnIssueFromAnAnchor() {
        #expect(
            Self.commitLikeWords(in: "Run at 40aace7, before (e34e43d); 5257e02.") == ["40aace7", "e34e43d", "5257e02"])
        let sha256 = String(repeating: "3f9a", count: 16)
        #expect(
            Self.commitLikeWords(
                in: "`-5.192078619703863e-235`, deadbeef, 1234567, 0x2ab, 1e400, \(sha256), 550e8400-e29b-41d4"
            ).isEmpty)
        #expect(Self.issueReferences(in: "see #21, (issue 6) and Issues 13 and 15") == ["#21", "issue 6", "Issues 13"])
        #expect(
            Self.issueReferences(
                in: "[In process](#1-in-process), &#39;, a `#` in a name, #name, RELIABILITY_SEED=20261122"
            ).isEmpty)
    }

    /// Words that look like a commit: 7 to 40 lowercase hex digits, with a digit and a letter
    /// (`40aace7`). A word runs over letters, digits, `_`, `.` and `-` and is trimmed of `.` and
    /// `-`, so `-5.192078619703863e-235` is one word and no commit. A schema's SHA-256 is shown
    /// whole (64 digits, longer than any commit name), never shortened.
    static func commitLikeWords(in text: String) -> [String] {
        let wordCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
        let hexDigits = Set("0123456789abcdef")
        return text.split { !wordCharacters.contains($0) }
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ".-")) }
            .filter { word in
                (7...40).contains(word.count) && word.allSatisfy { hexDigits.contains($0) }
                    && word.contains(where: \.isNumber) && word.contains(where: \.isLetter)
            }
    }

    /// Issue references: `#21` (not a link anchor such as `#1-in-process`, nor `&#39;`), and
    /// `issue 21` / `issues 13` in any case.
    static func issueReferences(in text: String) -> [String] {
        let numbered = text.matches(of: /#[0-9]+(?![A-Za-z0-9_-])/).filter { match in
            guard match.range.lowerBound > text.startIndex else { return true }
            let before = text[text.index(before: match.range.lowerBound)]
            return !(before.isLetter || before.isNumber || before == "&" || before == "_")
        }
        let worded = text.matches(of: /\bissues?\s+#?[0-9]+/.ignoresCase())
        return (numbered.map(\.range) + worded.map(\.range)).sorted { $0.lowerBound < $1.lowerBound }.map {
            String(text[$0])
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

        var manifestLines: [String] = []
        var models: [String] = []
        var mains: [String] = []
        var bodies: [String] = []
        var tests: [String] = []
        for snippet in snippets {
            let trimmed = snippet.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.hasPrefix(".package(") || trimmed.hasPrefix(".executableTarget(") {
                manifestLines += trimmed.split(separator: "\n").map(String.init)
            } else if trimmed.hasPrefix("import") && trimmed.contains("import SchemaMigrationsTesting") {
                tests.append(trimmed)
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
        #expect(dependencies.count == 1 && targets.count == 1 && mains.count == 1 && !models.isEmpty && !tests.isEmpty)
        let executable = try #require(targets.first?.firstMatch(of: /name: "([^"]+)"/)).1

        func write(_ text: String, _ path: String) throws {
            let url = package.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        try write(
            """
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
                    .testTarget(name: "AppTests", dependencies: ["TripsModel", .product(name: "SchemaMigrationsTesting", package: "SchemaMigrations")]),
                ],
                swiftLanguageModes: [.v6]
            )
            """, "Package.swift")
        for (index, model) in models.enumerated() {
            try write(model + "\n", "Sources/TripsModel/Snippet\(index).swift")
        }
        try write(mains[0] + "\n", "Sources/\(executable)/main.swift")
        for (index, test) in tests.enumerated() {
            try write(test + "\n", "Tests/AppTests/Snippet\(index).swift")
        }
        try write(
            "import Foundation\nimport SchemaMigrations\nimport TripsModel\n\n"
                + bodies.enumerated().map { index, body in
                    "func snippet\(index)(url: URL, grdbHandle: OpaquePointer) throws {\n"
                        + body.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n") + "\n}\n"
                }.joined(separator: "\n"), "Sources/Snippets/main.swift")

        // Builds every snippet, then runs the tests README shows.
        let (status, text) = try ProgramRun.run([
            "swift", "test", "--package-path", package.path, "--scratch-path",
            directory.appendingPathComponent("build").path,
        ])
        #expect(status == 0, "\(text)")
        #expect(text.contains("Test everyUpgradePath() passed"), "\(text)")
    }
}
