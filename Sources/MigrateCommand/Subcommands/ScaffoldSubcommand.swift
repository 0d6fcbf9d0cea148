import SchemaMigrations

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `scaffold --database PATH [--output FILE] [--name NAME]`: Swift declarations of a live
/// database's schema (a `VersionedSchema` V1 and a one-version plan) which adopt the file with
/// zero differences. Tables a declaration cannot say yet are left out, listed on standard error
/// and at the top of the file.
enum ScaffoldSubcommand {
    static func make(hasSwiftPlan: Bool) -> Subcommand {
        Subcommand(
            name: "scaffold",
            abstract: "Writes Swift declarations of a database's schema: its V1 and a one-version plan",
            discussion: """
                Reads the database (read-only) and writes a Swift file declaring its schema as version 1.0.0: an \
                enum NameSchemaV1: VersionedSchema with one model class per table, and enum NameMigrationPlan. \
                Built into your app, the plan adopts the file with zero differences; declare V2 beside it for your \
                first migration. Property names follow Swift's conventions (created_at becomes createdAt, with \
                @Attribute(column: "created_at")). A table a declaration cannot say yet is left out and listed, \
                with why, on standard error and at the top of the file (a migration leaves it alone).
                Exit status: 0 written; 5 when the file is not a database or has no table to declare; 1 when the \
                output cannot be written; 2 for a usage error.
                """,
            options: [
                .value("--database", "PATH", required: true, help: "the database to read (never written)"),
                .value("--output", "FILE", help: "the Swift file to write (default: standard output)"),
                .value(
                    "--name", "NAME",
                    help: "the plan's name, which names the types: NAME → NAMESchemaV1 (default: the file's name)"),
            ],
            run: run)
    }

    static func run(_ invocation: Invocation) throws -> MigrateExitCode {
        let arguments = invocation.arguments
        let console = invocation.console
        let path = arguments.value("--database")!
        let url = URL(fileURLWithPath: path)
        if let output = arguments.value("--output"), SystemCalls.fileKind(atPath: output) == .directory {
            throw UsageError(
                "\(arguments.label("--output")) \(output): a directory is there, not a file",
                subcommand: arguments.subcommand,
                remedy: "give the Swift file to write, such as \(output)/Schema.swift")
        }
        let found = try SchemaIntrospection(databaseAt: url, environment: try invocation.effectiveSQLEnvironment())
        let name = arguments.value("--name") ?? url.deletingPathExtension().lastPathComponent
        let swift = SwiftDeclarations(
            schema: found.schema, name: name, origin: url.lastPathComponent, leftOut: found.undeclarable)
        for table in swift.leftOut {
            console.error(
                "left out (cannot be declared yet): \(table.table): " + table.notes.joined(separator: "; ") + "\n")
        }
        for need in found.environmentNeeds { console.error("a migration of this file needs " + need + "\n") }
        guard !swift.declaredEntities.isEmpty else {
            throw CommandFailure(
                status: .refused,
                message: "\(invocation.commandName): \(path) has no table to declare; nothing was written")
        }
        guard let output = arguments.value("--output") else {
            console.output(swift.source)
            return .success
        }
        do {
            try Data(swift.source.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw CommandFailure(
                status: .failed, message: "\(invocation.commandName): \(output) cannot be written (\(error))",
                error: error)
        }
        console.output(
            "wrote \(output): \(swift.schemaTypeName) (\(swift.declaredEntities.count) model\(swift.declaredEntities.count == 1 ? "" : "s")) and \(swift.planTypeName)\n"
        )
        return .success
    }
}
