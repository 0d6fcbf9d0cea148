import SchemaMigrations
import SchemaMigrationsCluster

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `status`, `plan`, `apply` and `verify` on a dqlite cluster: `--cluster HOST:PORT,HOST:PORT
/// --name DB` in place of `--database`. The subcommand is swapped for its cluster form when
/// `--cluster` is on the command line (``MigrateCommand/run(_:console:environment:)``).
enum ClusterSubcommands {
    static let names: Set<String> = ["status", "plan", "apply", "verify"]

    static let cluster = CommandOption.value(
        "--cluster", "HOST:PORT,…", required: true,
        help: "a dqlite cluster: some or all of its nodes' addresses, comma-separated (followers are fine)")
    static let name = CommandOption.value(
        "--name", "DB", required: true, help: "the database's name in the dqlite cluster")

    /// Whether the words after a subcommand name a cluster.
    static func named(in words: [String]) -> Bool {
        words.contains { $0 == "--cluster" || $0.hasPrefix("--cluster=") }
    }

    /// Whether `subcommand` runs on a cluster: `--cluster` on the command line, or
    /// `MIGRATE_CLUSTER` when the command line names no file (`--database`, `--databases-from`).
    /// - Throws: ``UsageError`` when only the environment chooses, and it names both a cluster
    ///   and files (`MIGRATE_CLUSTER` and `MIGRATE_DATABASE`).
    static func chosen(by words: [String], environment: [String: String], for subcommand: Subcommand) throws -> Bool {
        if named(in: words) { return true }
        guard names.contains(subcommand.name), let nodes = environment[EnvironmentDefaults.variable(for: cluster)],
            !nodes.isEmpty
        else { return false }
        let files = SharedOptions.databaseChoice
        if words.contains(where: { word in files.contains { word == $0 || word.hasPrefix($0 + "=") } }) { return false }
        let fileVariables = files.map(EnvironmentDefaults.variable(forName:)).filter {
            !(environment[$0] ?? "").isEmpty
        }
        guard fileVariables.isEmpty else {
            throw UsageError(
                "\(EnvironmentDefaults.variable(for: cluster)) and \(fileVariables.joined(separator: " and ")) cannot be given together",
                subcommand: subcommand.name,
                remedy: "unset one of them, or choose on the command line: --cluster or --database")
        }
        return true
    }

    /// The built-in subcommands, those that take a cluster saying so in their help.
    static func noting(_ subcommands: [Subcommand]) -> [Subcommand] {
        subcommands.map { subcommand in
            guard names.contains(subcommand.name) else { return subcommand }
            var noted = subcommand
            noted.discussion +=
                (noted.discussion.isEmpty ? "" : "\n")
                + "On a dqlite cluster: --cluster HOST:PORT,HOST:PORT --name DB in place of --database (see `\(subcommand.name) --cluster x --help`)."
            return noted
        }
    }

    /// The cluster form of `subcommand`, or the subcommand itself when it has none.
    static func variant(of subcommand: Subcommand, hasSwiftPlan: Bool) -> Subcommand {
        guard names.contains(subcommand.name) else { return subcommand }
        var options = [
            cluster, name, SharedOptions.plan(hasSwiftPlan: hasSwiftPlan), SharedOptions.format(["text", "json"]),
        ]
        if subcommand.name != "verify" { options.insert(SharedOptions.to, at: 3) }
        if subcommand.name == "apply" {
            options.append(
                .value("--backup", "PATH", help: "where to write the leader's DUMP, as a SQLite file, before writing"))
        }
        if subcommand.name == "plan" {
            options.append(
                .flag(
                    "--simulate",
                    help:
                        "also apply the plan to a DUMP of the leader's database, locally, and report whether it succeeds and each step's time"
                ))
            options.append(SharedOptions.loadExtension)  // the local copy's connections; the leader has its own
        }
        let which = subcommand.name
        let fileForm = subcommand.options
        let clusterForm = options
        return Subcommand(
            name: which, abstract: subcommand.abstract,
            discussion: """
                On a dqlite cluster, through its wire protocol. status and verify read the leader over the \
                wire; plan (and --simulate) reads a DUMP of the leader's database, locally. apply write-locks the leader \
                (BEGIN IMMEDIATE), runs the migration there, custom stages included, and commits: all or \
                nothing, replicated at COMMIT. --backup writes a DUMP taken in that transaction first.
                """,
            options: options,
            run: { invocation in
                try refuseFileFormVariables(
                    which, fileForm: fileForm, clusterForm: clusterForm, invocation.environment)
                return try run(which, invocation)
            })
    }

    /// The file form's options whose variables the cluster form leaves aside without changing what
    /// it migrates or writes, and why. Every other option of the file form that the cluster form
    /// lacks is refused when its variable is set (``refuseFileFormVariables(_:fileForm:clusterForm:_:)``).
    static let ignoredVariables: [String: String] = [
        "--database": "the cluster is the other choice of the database",
        "--databases-from": "the cluster is the other choice of the database",
        "--jobs": "only a fleet of files is migrated in parallel",
        "--progress": "it changes what is shown, not what is done",
        "--no-backup": "the cluster form backs up only when --backup names a path",
        "--show-values": "it applies to the Markdown report, which the cluster form does not write",
    ]

    /// Why the cluster form refuses a file-form option's variable, where more can be said than that
    /// it has no such option, by option (or by `subcommand option` when it differs between them);
    /// and the values it accepts because they ask for what it does anyway.
    static let refusals: [String: (reason: String, accepted: Set<String>)] = [
        "apply --deny-destructive": (
            "a cluster's apply does not refuse destructive steps; review them with plan --cluster", []
        ),
        "plan --deny-destructive": (
            "a cluster's plan does not exit 5 for destructive steps; read its warnings instead", []
        ),
        "apply --require-compatible": (
            "a cluster's apply does not classify stages; review them with lint --require-compatible", []
        ),
        "plan --require-compatible": (
            "a cluster's plan does not exit 5 for breaking stages; review them with lint --require-compatible", []
        ),
        "--allow-data-loss": (
            "a cluster's migration never drops the data a way back to an older version would drop: it refuses that way back",
            []
        ),
        "--online": (noOnlineRebuilds, []),
        "--chunk-target": (noOnlineRebuilds, []),
        "--pause-file": (noOnlineRebuilds, []),
        "--transaction": ("a cluster's apply runs the whole plan in one transaction", ["plan"]),
        "--load-extension": (
            "the leader runs the migration with the extensions its own nodes load, never this process's", []
        ),
    ]
    private static let noOnlineRebuilds =
        "online rebuilds are not available on a dqlite cluster, whose migration write-locks the leader for one transaction"

    /// Refuses a variable set for an option of the file form (`fileForm`) that the cluster form
    /// (`clusterForm`) does not have and that is not in ``ignoredVariables``: a pipeline that set
    /// one must not get the migration without it, and without a word. A flag's variable counts
    /// only when it sets the flag.
    /// - Throws: ``UsageError`` naming the first such variable, before any node is contacted.
    static func refuseFileFormVariables(
        _ which: String, fileForm: [CommandOption], clusterForm: [CommandOption], _ environment: [String: String]
    ) throws {
        let clusterOptions = Set(clusterForm.map(\.name))
        for option in fileForm where !clusterOptions.contains(option.name) && ignoredVariables[option.name] == nil {
            let variable = EnvironmentDefaults.variable(for: option)
            guard let value = environment[variable], !value.isEmpty else { continue }
            if !option.takesValue, EnvironmentDefaults.boolean(value) == false { continue }
            let refusal = refusals["\(which) \(option.name)"] ?? refusals[option.name]
            if refusal?.accepted.contains(value) == true { continue }
            throw UsageError(
                "\(variable)=\(value): "
                    + (refusal?.reason ?? "the cluster form of \(which) has no \(option.name), and would run without it"),
                subcommand: which, remedy: "unset \(variable) for the cluster's migration")
        }
    }

    static func run(_ which: String, _ invocation: Invocation) throws -> MigrateExitCode {
        let arguments = invocation.arguments
        let nodes = (arguments.value("--cluster") ?? "").split(separator: ",").map { $0.trimmingWhitespace() }.filter {
            !$0.isEmpty
        }
        guard !nodes.isEmpty else {
            throw UsageError("--cluster: no node address", subcommand: which, remedy: "give HOST:PORT,HOST:PORT")
        }
        let database = arguments.value("--name") ?? ""
        let migrator = try invocation.migrator { options in
            if which == "apply", let backup = arguments.value("--backup") {
                options.backupURL = URL(fileURLWithPath: backup)
            }
        }
        let outcome: DatabaseOutcome
        do {
            switch which {
            case "status":
                outcome = StatusSubcommand.outcome(of: try migrator.status(cluster: nodes, database: database))
            case "verify":
                let status = try migrator.verify(cluster: nodes, database: database)
                var verified = StatusSubcommand.outcome(of: status)
                verified.status = .success
                verified.summary = "the schema matches version \(status.currentVersion.map(\.description) ?? "none")"
                verified.text = "database: \(database)\n\(verified.summary)\n"
                verified.json["matches"] = true
                outcome = verified
            case "plan":
                let report = try migrator.plan(cluster: nodes, database: database)
                var planned = DatabaseOutcome(
                    database: database, status: .success, text: report.description + "\n", summary: "planned",
                    json: JSONOutput.object(parsing: try report.json()))
                if let refusal = report.refusals.max(by: {
                    MigrateExitCode(for: $0).severity < MigrateExitCode(for: $1).severity
                }) {
                    planned.status = MigrateExitCode(for: refusal)
                    planned.message =
                        "the migration would be refused:\n" + report.refusals.map(\.description).joined(separator: "\n")
                    planned.summary = "refused"
                    planned.json["error"] = JSONOutput.error(refusal)
                } else if arguments.flag("--simulate") {
                    let simulated = PlanSubcommand.attach(
                        try migrator.simulate(cluster: nodes, database: database), to: &planned)
                    if planned.status != .success { planned.summary = "fails on a copy" }
                    if invocation.format(default: "text") == "text" { planned.text += "\n" + simulated }
                }
                outcome = planned
            default:
                let result = try migrator.migrate(cluster: nodes, database: database)
                outcome = ApplySubcommand.outcome(of: result, database: database, backupAsked: nil)
            }
        } catch {
            outcome = DatabaseOutcome(database: database, error: error)
        }
        return FleetOutput(
            console: invocation.console, json: invocation.format(default: "text") == "json",
            layout: which == "plan" ? .details : .table
        ).print([outcome])
    }
}
