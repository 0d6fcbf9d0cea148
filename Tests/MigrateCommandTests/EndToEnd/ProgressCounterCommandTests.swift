import Foundation
import SchemaMigrations
import Testing

/// `apply --progress` numbers the steps of the whole run with one counter: the backup first,
/// then the custom stage's code and steps and the next stage's, `[1/N]` to `[N/N]`.
@Suite struct ProgressCounterCommandTests {
    @Test func everyLineOfARunCountsTowardsOneTotal() throws {
        let scratch = Scratch()
        let database = try scratch.sampleTrips("v1.sqlite")
        let result = try BuiltCommand.sampleTrips([
            "apply", "--database", database, "--progress", "--backup", scratch.path("v1.backup"),
        ])
        #expect(result.status == 0, "\(result)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        let counter = try Regex(#"\[([0-9]+)/([0-9]+)\] "#)
        let counters = lines.compactMap { line -> (step: Int, total: Int)? in
            guard let match = line.firstMatch(of: counter), let step = match[1].substring.flatMap({ Int($0) }),
                let total = match[2].substring.flatMap({ Int($0) })
            else { return nil }
            return (step, total)
        }
        #expect(counters.count == lines.count, "every line has its counter: \(lines)")
        let total = try #require(counters.first?.total)
        #expect(counters.allSatisfy { $0.total == total }, "one total: \(lines)")
        #expect(counters.map(\.step) == counters.map(\.step).sorted(), "the numbers only grow: \(lines)")
        #expect(counters.last?.step == total, "the last step is N of N: \(lines)")
        #expect(lines.first?.contains("] \(database): [1/\(total)] backup ") == true, "\(lines)")
        #expect(
            lines.contains { $0.hasSuffix("] \(database): 1.0.0 → 2.0.0 [2/\(total)] willMigrate runs") }, "\(lines)")
    }
}
