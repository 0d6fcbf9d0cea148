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

    func print(_ outcomes: [DatabaseOutcome]) -> ExitCode {
        let several = outcomes.count > 1
        for outcome in outcomes {
            if let message = outcome.message {
                console.error((several ? "\(outcome.database): " : "") + message + (message.hasSuffix("\n") ? "" : "\n"))
            }
        }
        if json {
            console.output(JSONOutput.string(several ? outcomes.map(\.jsonObject) as Any : outcomes[0].jsonObject))
        } else if several && layout == .table {
            console.output(FleetOutput.table(outcomes))
        } else {
            console.output(outcomes.map(\.text).filter { !$0.isEmpty }.joined(separator: "\n"))
        }
        return ExitCode.worst(outcomes.map(\.status))
    }

    /// `DATABASE  STATUS  RESULT` aligned, then `20 databases: 19 ok (0), 1 refused (5); exit status 5`.
    static func table(_ outcomes: [DatabaseOutcome]) -> String {
        let width = (outcomes.map(\.database.count) + ["DATABASE".count]).max()! + 2
        var lines = ["DATABASE".padding(toLength: width, withPad: " ", startingAt: 0) + "STATUS  RESULT"]
        for outcome in outcomes {
            lines.append(outcome.database.padding(toLength: width, withPad: " ", startingAt: 0)
                         + "\(outcome.status.rawValue)".padding(toLength: 8, withPad: " ", startingAt: 0) + outcome.summary)
        }
        let counts = ExitCode.allCases.compactMap { status -> String? in
            let count = outcomes.filter { $0.status == status }.count
            return count == 0 ? nil : "\(count) \(status)"
        }
        lines.append("\(outcomes.count) databases: \(counts.joined(separator: ", ")); exit status \(ExitCode.worst(outcomes.map(\.status)).rawValue)")
        return lines.joined(separator: "\n") + "\n"
    }
}
