#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The migration of one database as a SQL script for the `sqlite3` shell: exactly the statements
/// `apply` runs, metadata row included, learnt by rehearsing the migration on a temporary copy.
///
/// ```swift
/// let script = try Migrator(plan: TripsMigrationPlan.self).script(databaseAt: url)
/// try script.text.write(toFile: "migrate.sql", atomically: true, encoding: .utf8)
/// // sqlite3 trips.sqlite < migrate.sql
/// ```
///
/// The script is for the database as it is now: it stops, changing nothing, if the schema
/// changed since (`PRAGMA schema_version` differs), and at the first error (`.bail on`), since
/// the shell then rolls the open transaction back. A custom stage's code is recorded as the SQL
/// it ran on this data.
public struct MigrationScript: Sendable {
    /// The database's path.
    public var database: String
    /// The version before the migration (nil for an empty database).
    public var fromVersion: Schema.Version?
    /// The version after it.
    public var toVersion: Schema.Version
    /// `PRAGMA schema_version` the script expects to find.
    public var schemaCookie: Int64
    /// The statements, in order, without transaction control.
    public var statements: [String]
    /// What each group of statements does, keyed by the index of its first statement.
    var notes: [Int: [String]]
    /// The extensions the migration loaded (``SQLEnvironment/extensions``): the script loads them
    /// too (`.load`), before its first statement.
    public var extensions: [SQLExtension] = []
    /// The collations and functions the application registers in code (``SQLEnvironment``), which
    /// no `sqlite3` shell has: the header names them.
    public var registeredInCode: [String] = []

    /// The script for the `sqlite3` shell: a comment header, `.bail on`, `PRAGMA foreign_keys=OFF`,
    /// `BEGIN IMMEDIATE`, the statements, `COMMIT`.
    public var text: String {
        var lines = [
            "-- SchemaMigrations: \(database) from \(fromVersion.map(\.description) ?? "empty") to \(toVersion).",
            "-- The statements `apply` runs, metadata included, rehearsed on a copy of the database as it was",
            "-- when this script was written. Run it with the sqlite3 shell: sqlite3 DATABASE < SCRIPT",
            "-- It changes nothing if the schema changed since, and rolls back at the first error.",
        ]
        guard !statements.isEmpty else {
            return (lines + ["-- The database is at \(toVersion) already: nothing to do."]).joined(separator: "\n")
                + "\n"
        }
        if !registeredInCode.isEmpty {
            lines.append(
                "-- It needs what the application registers in code, which the sqlite3 shell does not have: "
                    + registeredInCode.joined(separator: ", ") + ".")
        }
        lines.append(".bail on")
        lines += extensions.map(\.shellCommand)
        // What a migration sets outside its transaction for correctness (not the sorter's threads).
        lines += ConnectionSettings.pragmas.filter(\.isRequired).map { "PRAGMA \($0.name)=\($0.value);" }
        lines += [
            "BEGIN IMMEDIATE;",
            "-- The schema must be as it was rehearsed (PRAGMA schema_version \(schemaCookie)).",
            "CREATE TEMP TABLE \"_sm_expected_schema\" (\"schema_version\" INTEGER CONSTRAINT \"the schema changed since this script was written\" CHECK (\"schema_version\" = \(schemaCookie)));",
            "INSERT INTO \"_sm_expected_schema\" SELECT schema_version FROM pragma_schema_version;",
            "DROP TABLE temp.\"_sm_expected_schema\";",
        ]
        for (index, statement) in statements.enumerated() {
            lines += (notes[index] ?? []).map { "-- " + $0 }
            // A statement whose last line is a comment would swallow the semicolon.
            let lastLine = statement.split(separator: "\n", omittingEmptySubsequences: false).last ?? ""
            lines.append(statement + (lastLine.contains("--") || statement.hasSuffix("*/") ? "\n;" : ";"))
        }
        lines.append("COMMIT;")
        return lines.joined(separator: "\n") + "\n"
    }
}

extension SQLExtension {
    /// The `sqlite3` shell's `.load` of this extension: the path in double quotes (the shell reads
    /// backslash escapes inside them), then the entry point when there is one.
    var shellCommand: String {
        ".load " + ([path] + (entryPoint.map { [$0] } ?? [])).map(Self.shellArgument).joined(separator: " ")
    }

    /// `text` as one argument of a `sqlite3` shell dot-command: in double quotes, with the escapes
    /// the shell resolves inside them for a backslash, a quote and line breaks.
    private static func shellArgument(_ text: String) -> String {
        var quoted = "\""
        for character in text {
            switch character {
            case "\\": quoted += "\\\\"
            case "\"": quoted += "\\\""
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            default: quoted.append(character)
            }
        }
        return quoted + "\""
    }
}
