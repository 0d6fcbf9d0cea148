import Foundation
import Testing

/// A user's Swift 6 package (strict concurrency) declares versions, plans and stages with our API
/// and builds without a single warning (`-warnings-as-errors`).
@Suite struct ConsumerPackageTests {
    @Test(.timeLimit(.minutes(10)))
    func aStrictSwift6ConsumerBuildsWithoutWarnings() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let consumer = root.appendingPathComponent("Tests/ConsumerPackage")
        // Outside the package's own .build, so the outer `swift test` and this build never share a
        // lock; shared with the scaffold package's build (the same flags, the same checkout), so
        // SchemaMigrations is compiled once for both (SwiftPM makes the second build wait).
        let scratch = stableScratchDirectory("schemamigrations-packages", for: root.path)
        let (status, text) = try ProgramRun.run([
            "swift", "build", "--package-path", consumer.path, "--scratch-path", scratch.path,
            "-Xswiftc", "-warnings-as-errors",
        ])
        #expect(status == 0, "\(text)")
        #expect(!text.contains("warning:"), "\(text)")
    }
}
