import Foundation
import Testing

@testable import SchemaMigrations

extension Reliability.Regressions {
    /// An app whose model starts with `Date()`, `UUID()` and a `Set` launches twice: the second
    /// launch finds the database up to date, where the version's hash used to change with each
    /// launch and the second was refused ("a released version must never change").
    @Suite struct NonConstantDefaults {
        @Test func aSecondLaunchIsUpToDate() throws {
            let scratch = Scratch("launch")
            let url = scratch.url("app.sqlite")
            let first = try DriverProcess.run(["launch", "--database", url.path])
            #expect(first.status == 0, "\(first.output)")
            #expect(first.output.contains("outcome=created"))
            let db = try SQLiteConnection(path: url.path)
            try db.execute("INSERT INTO Visit (createdAt, token, note) VALUES (1, 'x', 'kept')")
            let second = try DriverProcess.run(["launch", "--database", url.path])
            #expect(second.status == 0, "\(second.output)")
            #expect(second.output.contains("outcome=upToDate"))
            let lines = { (output: String) in
                output.split(separator: "\n").filter { $0.hasPrefix("hash=") || $0.hasPrefix("tags=") }
            }
            #expect(lines(first.output) == lines(second.output))
            #expect(second.output.contains(#"tags='["alpha","beta","delta","epsilon","eta","gamma","theta","zeta"]'"#))
            #expect(try db.rows("SELECT note FROM Visit").map { $0[0].stringValue } == ["kept"])
        }
    }
}
