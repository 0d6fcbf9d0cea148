import SchemaMigrations

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Prints the outcomes of one subcommand over one or more databases, and gives the exit status:
/// the worst of them.
///
/// One database: its full text (or its JSON object). Several: each full text, or a summary
/// table with a line per database and a total (or a JSON array). Errors go to standard error,
/// prefixed by the database's path when there are several.
struct FleetOutput {
    enum Layout {
        /// Every database's full text, one after the other (a report).
        case details
        /// One line per database when there are several (a status, an apply).
        case table
    }

    let console: Console
    let json: Bool
    let layout: Layout

    func print(_ outcomes: [DatabaseOutcome]) -> MigrateExitCode {
        let several = outcomes.count > 1
        for outcome in outcomes {
            if let message = outcome.message {
                console.error(
                    (several ? "\(outcome.database): " : "") + message + (message.hasSuffix("\n") ? "" : "\n"))
            }
        }
        if json {
            console.output(JSONOutput.string(several ? outcomes.map(\.jsonObject) as Any : outcomes[0].jsonObject))
        } else if several && layout == .table {
            console.output(FleetOutput.table(outcomes))
        } else {
            console.output(outcomes.map(\.text).filter { !$0.isEmpty }.joined(separator: "\n"))
        }
        return MigrateExitCode.worst(outcomes.map(\.status))
    }

    /// `DATABASE  STATUS  TIME  RESULT  BACKUP` aligned (BACKUP only when a backup was kept),
    /// then `20 databases: 19 ok (0), 1 refused (5); exit status 5`.
    static func table(_ outcomes: [DatabaseOutcome]) -> String {
        let times = outcomes.map { $0.duration.map(FleetOutput.time) ?? "-" }
        let hasBackups = outcomes.contains { $0.backup != nil }
        let results = outcomes.map(\.summary)
        func column(_ header: String, _ values: [String]) -> Int { (values.map(\.count) + [header.count]).max()! + 2 }
        let widths = [
            column("DATABASE", outcomes.map(\.database)), 8, column("TIME", times),
            hasBackups ? column("RESULT", results) : 0,
        ]
        func line(_ cells: [String]) -> String {
            zip(cells.dropLast(), widths).map { $0.paddedRight(toWidth: $1) }.joined() + cells[cells.count - 1]
        }
        var lines = [line(["DATABASE", "STATUS", "TIME", "RESULT"] + (hasBackups ? ["BACKUP"] : []))]
        for (index, outcome) in outcomes.enumerated() {
            lines.append(
                line(
                    [outcome.database, "\(outcome.status.rawValue)", times[index], results[index]]
                        + (hasBackups ? [outcome.backup ?? "-"] : [])))
        }
        let counts = MigrateExitCode.allCases.compactMap { status -> String? in
            let count = outcomes.filter { $0.status == status }.count
            return count == 0 ? nil : "\(count) \(status)"
        }
        lines.append(
            "\(outcomes.count) databases: \(counts.joined(separator: ", ")); exit status \(MigrateExitCode.worst(outcomes.map(\.status)).rawValue)"
        )
        return lines.joined(separator: "\n") + "\n"
    }

    /// `4.2 ms`, `1.35 s`.
    static func time(_ seconds: TimeInterval) -> String {
        seconds < 1 ? (seconds * 1000).fixedPoint(1) + " ms" : seconds.fixedPoint(2) + " s"
    }
}
