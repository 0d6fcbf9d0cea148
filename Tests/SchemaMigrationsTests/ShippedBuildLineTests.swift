import Foundation
import Testing

/// The shipped build's line is one line everywhere: what README and MIGRATIONS.md tell users to
/// run is what CI builds and checks (`.ci/run`) and what the peers harness times
/// (`Benchmarks/peers/contestants.txt`), so none of them can drift to flags the others lack.
@Suite struct ShippedBuildLineTests {
    static let root = ReadmeSnippetsTests.root
    static let start = "swift build -c release --product migrate --static-swift-stdlib --disable-local-rpath"

    /// The line starting with ``start`` in `page`, its `\` continuations joined and its spaces
    /// collapsed; what follows it on the harness's line (`| …`) or after `--package-path` is left out.
    static func buildLine(in page: String) throws -> String? {
        let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
        guard let found = text.range(of: start) else { return nil }
        var line = ""
        for part in text[found.lowerBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            if trimmed.hasSuffix("\\") {
                line += trimmed.dropLast() + " "
            } else {
                line += trimmed
                break
            }
        }
        if let harness = line.range(of: " --package-path") { line = String(line[..<harness.lowerBound]) }
        return line.split(separator: " ").joined(separator: " ")
    }

    @Test func theDocumentedLineIsTheOneCIBuildsAndTheHarnessTimes() throws {
        let documented = try #require(try Self.buildLine(in: "README.md"))
        #expect(documented.contains("--symbol-ordering-file=Sources/migrate/hot-functions.order"))
        for page in ["MIGRATIONS.md", ".ci/run", "Benchmarks/peers/contestants.txt", "Fixtures/bench/README.md"] {
            #expect(try Self.buildLine(in: page) == documented, "\(page)'s build line differs from README's")
        }
    }

    @Test func theLinkOrderItNamesIsInTheRepository() throws {
        let order = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/migrate/hot-functions.order"), encoding: .utf8)
        let functions = order.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(functions.count > 1000, "the link order lists \(functions.count) functions")
        #expect(Set(functions).count == functions.count, "the link order lists a function twice")
    }
}
