import SchemaMigrations

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `snapshot`: writes a JSON plan directory (plan.json and one schema snapshot per version),
/// from the embedded Swift plan or from `--plan DIR` (normalizing it).
enum SnapshotSubcommand {
    static func make(hasSwiftPlan: Bool) -> Subcommand {
        Subcommand(
            name: "snapshot",
            abstract: "Writes a JSON plan directory: plan.json and one schema snapshot per version",
            discussion: """
                From the embedded Swift plan, or from --plan DIR, rewritten in canonical form. A plan with a \
                custom stage is refused (exit 5, nothing written): the migrate command cannot load a directory \
                holding one, since only the Swift plan has the stage's code; --from keeps the part after it, and \
                --include-custom-stages writes the whole plan all the same. Commit the snapshots: a released \
                version must never change (FrozenVersions.changes(in:comparedTo:) tells when one did). \
                --from and --through keep a range of versions, for example the lightweight tail of a plan \
                for the bare migrate command. With --database PATH, a one-version plan (1.0.0) of that \
                database's schema (its own keys, type texts, date storage, CHECKs, collations, foreign keys \
                and index names included), which adopts it with zero differences; refused (exit 5) when a \
                table cannot be declared (no primary key, a composite foreign key…), listing why.
                """,
            options: [
                .value(
                    "--plan", "DIR",
                    help: hasSwiftPlan
                        ? "a JSON plan directory to rewrite instead of the embedded plan"
                        : "the JSON plan directory to rewrite (or --database PATH)"),
                .value(
                    "--database", "PATH",
                    help: "snapshot this database's schema instead, as version 1.0.0 of a one-version plan"),
                .value("--name", "NAME", help: "with --database: the plan's name (default: the file's name)"),
                .flag(
                    "--leave-out-undeclarable",
                    help:
                        "with --database: write the tables that can be declared, listing the others, instead of refusing"
                ),
                .value("--output", "DIR", required: true, help: "the directory to write (created if needed)"),
                .value("--from", "VERSION", help: "the first version to keep"),
                .value("--through", "VERSION", help: "the last version to keep"),
                .flag(
                    "--include-custom-stages",
                    help:
                        "write a plan with custom stages all the same, to freeze every version (migrate --plan refuses such a directory)"
                ),
            ],
            alternatives: [["--plan", "--database"]],
            run: run)
    }

    static func run(_ invocation: Invocation) throws -> MigrateExitCode {
        let arguments = invocation.arguments
        if arguments.value("--plan") != nil && arguments.value("--database") != nil {
            throw UsageError(
                "\(arguments.label("--plan")) and \(arguments.label("--database")) cannot be given together",
                subcommand: arguments.subcommand, remedy: "snapshot a plan directory, or a database, not both")
        }
        if let database = arguments.value("--database") {
            return try DatabaseSnapshot.run(invocation, database: database)
        }
        let from = try arguments.version("--from")
        let through = try arguments.version("--through")
        if let from, let through, from > through {
            throw UsageError(
                "\(arguments.label("--from")) \(from) is after \(arguments.label("--through")) \(through)",
                subcommand: arguments.subcommand,
                remedy: "--from is the first version to keep, --through the last")
        }
        let output = try outputDirectory(arguments)
        let directory: PlanDirectory
        do {
            if let path = arguments.value("--plan") {
                directory = try PlanDirectory(contentsOf: URL(fileURLWithPath: path))
            } else if let plan = invocation.plan {
                directory = try PlanDirectory(plan: plan)
            } else {
                throw UsageError("missing --plan DIR", subcommand: arguments.subcommand)
            }
        } catch let error as MigrationError {
            throw CommandFailure(
                status: MigrateExitCode.planNotLoaded,
                message: "\(invocation.commandName): the plan cannot be loaded\n\(error)", error: error)
        }
        let kept: PlanDirectory
        do {
            kept = try directory.restricted(from: from, through: through)
        } catch let error as MigrationError {
            throw UsageError(
                "--from/--through: \(error.message); \(error.remedy ?? "")", subcommand: arguments.subcommand)
        }
        let custom = CustomStages(kept, commandName: invocation.commandName)
        if !custom.stages.isEmpty && !arguments.flag("--include-custom-stages") {
            throw CommandFailure(status: .refused, message: custom.refusal)
        }
        for url in try kept.write(to: output) {
            invocation.console.output("wrote \(url.path)\n")
        }
        if !custom.stages.isEmpty { invocation.console.error(custom.note) }
        return .success
    }

    /// `--output DIR`, created when it is written.
    /// - Throws: ``UsageError`` naming it when a file (not a directory) is there.
    static func outputDirectory(_ arguments: ParsedArguments) throws -> URL {
        let path = arguments.value("--output")!
        if SystemCalls.fileKind(atPath: path) == .other {
            throw UsageError(
                "\(arguments.label("--output")) \(path): a file is there, not a directory",
                subcommand: arguments.subcommand,
                remedy:
                    "give a directory (created if needed); a snapshot writes plan.json and one file per version into it"
            )
        }
        return URL(fileURLWithPath: path)
    }
}
