import SchemaMigrations

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `snapshot --database PATH --output DIR`: a one-version JSON plan directory (V1, 1.0.0) of a
/// live database, which then adopts it with zero differences: every table with its own keys,
/// type texts, date storage, CHECKs, collations, foreign keys and index names, as
/// ``SchemaIntrospection`` reads them. Refused (exit 5, nothing written) when a table cannot be
/// declared (no primary key, a composite foreign key…), listing per table what stands in the way,
/// unless `--leave-out-undeclarable` says to write the others (a migration leaves undeclared tables alone).
enum DatabaseSnapshot {
    static func run(_ invocation: Invocation, database path: String) throws -> MigrateExitCode {
        let arguments = invocation.arguments
        let output = try SnapshotSubcommand.outputDirectory(arguments)
        let url = URL(fileURLWithPath: path)
        let found = try SchemaIntrospection(databaseAt: url, environment: try invocation.effectiveSQLEnvironment())
        let console = invocation.console
        let leavingOut = arguments.flag("--leave-out-undeclarable")
        guard found.undeclarable.isEmpty || leavingOut else {
            var lines = [
                "\(invocation.commandName): \(found.undeclarable.count) table\(found.undeclarable.count == 1 ? "" : "s") of \(path) cannot be declared yet; nothing was written"
            ]
            for table in found.undeclarable {
                lines.append("  \(table.table):")
                lines += table.notes.map { "    - \($0)" }
            }
            lines.append(
                "  fix: a migration leaves undeclared tables alone: --leave-out-undeclarable writes the \(found.schema.entities.count) other table\(found.schema.entities.count == 1 ? "" : "s") (SchemaIntrospection in code)"
            )
            throw CommandFailure(status: .refused, message: lines.joined(separator: "\n"))
        }
        guard !found.schema.entities.isEmpty else {
            throw CommandFailure(
                status: .refused,
                message: "\(invocation.commandName): \(path) has no table to declare; nothing was written")
        }
        let name = arguments.value("--name") ?? url.deletingPathExtension().lastPathComponent
        let directory = PlanDirectory(name: name, schemas: [found.schema], stages: [])
        for written in try directory.write(to: output) {
            console.output("wrote \(written.path)\n")
        }
        let count = found.schema.entities.count
        console.output(
            "declared \(count) table\(count == 1 ? "" : "s") as version \(found.schema.version): \(found.schema.entityNames.joined(separator: ", "))\n"
        )
        for table in found.undeclarable {
            console.output(
                "left out (cannot be declared yet): \(table.table): " + table.notes.joined(separator: "; ") + "\n")
        }
        for need in found.environmentNeeds { console.output("a migration of this file needs " + need + "\n") }
        if !found.bookkeepingTables.isEmpty {
            console.output("left out (bookkeeping): \(found.bookkeepingTables.joined(separator: ", "))\n")
        }
        if !found.notCarried.isEmpty {
            console.output(
                "kept by every migration as the file has it, but not in the snapshot (a database created from it would not have it):\n"
            )
            for table in found.notCarried {
                console.output(table.notes.map { "  \(table.table): \($0)\n" }.joined())
            }
        }
        return .success
    }
}
