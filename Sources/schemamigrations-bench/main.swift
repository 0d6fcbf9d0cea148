import Foundation
import MigrationBenchmarks

// schemamigrations-bench: times our migrations against the hand-written SQL an expert would
// run, in the same process run. Build in release mode:
//
//   swift run -c release schemamigrations-bench [--rows 100000,1000000] [--runs 5] [--uptodate-runs 200]
//                                               [--cases planner,…,scaffold,stall] (stall only when named)
//                                               [--fleet-files 1000] [--fleet-jobs N]

var configuration = BenchmarkRunner.Configuration()
var arguments = CommandLine.arguments.dropFirst()
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("schemamigrations-bench: \(message)\n".utf8))
    exit(2)
}
while let argument = arguments.popFirst() {
    switch argument {
    case "--rows":
        guard let value = arguments.popFirst() else { fail("--rows needs a value, like 100000,1000000") }
        let sizes = value.split(separator: ",").compactMap { Int($0) }
        guard !sizes.isEmpty, sizes.allSatisfy({ $0 > 0 }) else {
            fail("--rows takes positive integers separated by commas")
        }
        configuration.sizes = sizes
    case "--runs":
        guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else {
            fail("--runs needs a positive integer")
        }
        configuration.runs = value
    case "--uptodate-runs":
        guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else {
            fail("--uptodate-runs needs a positive integer")
        }
        configuration.upToDateRuns = value
    case "--cases":
        guard let value = arguments.popFirst() else { fail("--cases needs a value, like rebuild,custom") }
        let names = value.split(separator: ",").map(String.init)
        let cases = names.compactMap(BenchmarkRunner.Case.init(rawValue:))
        guard !cases.isEmpty, cases.count == names.count else {
            fail(
                "--cases takes names separated by commas, from: "
                    + BenchmarkRunner.Case.allCases.map(\.rawValue).joined(separator: ", "))
        }
        configuration.cases = Set(cases)
    case "--fleet-files":
        guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else {
            fail("--fleet-files needs a positive integer")
        }
        configuration.fleetFiles = value
    case "--fleet-jobs":
        guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else {
            fail("--fleet-jobs needs a positive integer")
        }
        configuration.fleetJobs = value
    case "--dir":
        guard let value = arguments.popFirst() else { fail("--dir needs a path") }
        configuration.directory = URL(fileURLWithPath: value)
    case "--help", "-h":
        print(
            "usage: schemamigrations-bench [--rows N[,N…]] [--runs K] [--uptodate-runs K] [--cases NAME[,NAME…]] [--fleet-files N] [--fleet-jobs N] [--dir PATH]"
        )
        exit(0)
    default:
        fail("unknown argument '\(argument)'; see --help")
    }
}

var runner = BenchmarkRunner(configuration: configuration)
do {
    try runner.run()
    print("")
    print(runner.table)
    print("")
    for line in runner.verification { print(line) }
    print(
        "(\(configuration.runs) runs per migration case, \(configuration.upToDateRuns) up-to-date checks; \(ProcessInfo.processInfo.activeProcessorCount) cores)"
    )
} catch {
    FileHandle.standardError.write(Data("schemamigrations-bench: \(error)\n".utf8))
    exit(1)
}
