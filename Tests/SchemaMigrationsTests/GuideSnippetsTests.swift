import Foundation
import Testing

/// Every Swift snippet of MIGRATIONS.md type-checks as written, in Swift 6, against the module
/// this test was built with: the guide's declarations, stages and calls are the API, never an
/// older spelling. The README's models (`TripsMigrationPlan` and its versions) come first, as
/// the guide assumes them; each `##` section's snippets share a namespace (one continues
/// another: the scaffolded `ShopSchemaV1`, then the `ShopSchemaV2` written beside it); a
/// snippet of statements runs in a function given `url`; a stage expression is a
/// `MigrationStage`; a package manifest's lines are left to the README's package test.
@Suite struct GuideSnippetsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    struct Snippet {
        var section: String
        var line: Int
        var text: String
    }

    /// The ```swift blocks of a page, each with the `##` section it is in and its first line.
    static func snippets(of page: String) throws -> [Snippet] {
        let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
        var result: [Snippet] = []
        var section = ""
        var current: (line: Int, lines: [Substring])?
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if current == nil, line.hasPrefix("## ") { section = String(line) }
            if current == nil, line == "```swift" {
                current = (number + 2, [])
            } else if let open = current, line == "```" {
                result.append(Snippet(section: section, line: open.line, text: open.lines.joined(separator: "\n")))
                current = nil
            } else {
                current?.lines.append(line)
            }
        }
        return result
    }

    /// Whether the snippet is statements (run in a function) rather than declarations.
    static func isStatements(_ code: [Substring]) -> Bool {
        guard let first = code.first(where: { !$0.hasPrefix("//") && !$0.isEmpty }) else { return false }
        return ["let ", "var ", "try ", "_ = ", "print(", "MigrateCommand."].contains { first.hasPrefix($0) }
    }

    /// One Swift file: the README's models, then each section's snippets in an enum of its own.
    static func program() throws -> (source: String, count: Int) {
        let readmeModels = try #require(
            ReadmeSnippetsTests.snippets().first { $0.contains("enum TripsMigrationPlan") })
        var imports: Set<String> = ["import Foundation", "import SchemaMigrations"]
        var sections: [String: [String]] = [:]
        var order: [String] = []
        let snippets = try snippets(of: "MIGRATIONS.md")
        var count = 0
        for (position, snippet) in snippets.enumerated() {
            let lines = snippet.text.split(separator: "\n", omittingEmptySubsequences: false)
            let trimmed = snippet.text.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.hasPrefix(".package(") || trimmed.hasPrefix(".executableTarget(") { continue }
            count += 1
            for line in lines where line.hasPrefix("import ") && line != "import TripsModel" {
                imports.insert(String(line))
            }
            let code = lines.filter { !$0.hasPrefix("import ") }
            let body: String
            if trimmed.hasPrefix(".") {
                body = "static let stage\(position): MigrationStage = \(code.joined(separator: "\n"))"
            } else if isStatements(code) {
                body = "static func run\(position)(url: URL) throws {\n\(code.joined(separator: "\n"))\n}"
            } else {
                body = code.joined(separator: "\n")
            }
            let marker = "// MIGRATIONS.md line \(snippet.line)"
            if sections[snippet.section] == nil { order.append(snippet.section) }
            sections[snippet.section, default: []].append(marker + "\n" + body)
        }
        var source = imports.sorted().joined(separator: "\n") + "\n\n"
        source += readmeModels.split(separator: "\n").filter { !$0.hasPrefix("import ") }.joined(separator: "\n")
        for (index, section) in order.enumerated() {
            source += "\n\n// \(section)\nenum GuideSection\(index) {\n"
            source += sections[section]!.joined(separator: "\n\n") + "\n}\n"
        }
        return (source, count)
    }

    @Test(.timeLimit(.minutes(2)))
    func everySwiftSnippetOfTheGuideTypeChecks() throws {
        let (source, count) = try Self.program()
        #expect(count >= 12)
        let result = try DeclarationMisspellingTests.typecheck(source, importing: false)
        // Each error with the guide's snippet it is in: the nearest marker above its line.
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        let located = result.output.split(separator: "\n").filter { $0.contains("error:") }.map { error -> String in
            guard let match = error.firstMatch(of: /Declarations\.swift:(\d+):/), let number = Int(match.1) else {
                return String(error)
            }
            let marker = lines.prefix(number).last { $0.hasPrefix("// MIGRATIONS.md line") } ?? "before any snippet"
            return "\(marker): \(error)"
        }
        #expect(result.status == 0, "\(located.joined(separator: "\n"))")
    }
}
