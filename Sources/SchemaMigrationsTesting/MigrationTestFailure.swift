import SchemaMigrations

/// Why a database under test, or a fixture, did not pass: what differs from a database created at
/// its version, or what made it untestable. Prints as one paragraph, like `MigrationError`.
public struct MigrationTestFailure: Error, Sendable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Kind: String, Sendable, Hashable {
        /// The schema differs from a database created at the same version from its declaration.
        case schemaDiffers
        /// SQLite's `integrity_check` found damage.
        case notIntact
        /// The file holds none of the plan's tables, or no version of the plan.
        case notThePlansDatabase
        /// The file records a version the plan no longer declares.
        case versionNotDeclared
        /// The file is missing, or is not a SQLite database.
        case notADatabase
        /// The migration or a check was refused or failed (``MigrationTestFailure/underlyingError``).
        case migrationFailed
    }

    /// What kind of failure.
    public var kind: Kind
    /// One line: what failed.
    public var message: String
    /// The database's path (a fixture's own path, not its temporary copy's).
    public var database: String
    /// The version the database was at, where known.
    public var version: Schema.Version?
    /// Schema lines only the database under test has (``Kind/schemaDiffers``).
    public var onlyHere: [String]
    /// Schema lines only a database created at the same version has (``Kind/schemaDiffers``).
    public var onlyInCreated: [String]
    /// More lines: SQLite's integrity problems, or the underlying error's details.
    public var details: [String]
    /// The migration's error, for ``Kind/migrationFailed``.
    public var underlyingError: MigrationError?

    init(
        _ kind: Kind, _ message: String, database: String, version: Schema.Version? = nil, onlyHere: [String] = [],
        onlyInCreated: [String] = [], details: [String] = [], underlyingError: MigrationError? = nil
    ) {
        self.kind = kind
        self.message = message
        self.database = database
        self.version = version
        self.onlyHere = onlyHere
        self.onlyInCreated = onlyInCreated
        self.details = details
        self.underlyingError = underlyingError
    }

    /// `error: …`, then what only each side has, one line each.
    public var description: String {
        var lines = ["error: \(message)", "  database: \(database)" + (version.map { ", version: \($0)" } ?? "")]
        if !onlyHere.isEmpty {
            lines.append("  only in this database:")
            lines += onlyHere.map { "    \($0)" }
        }
        if !onlyInCreated.isEmpty {
            lines.append("  only in a database created at \(version.map(\.description) ?? "its version"):")
            lines += onlyInCreated.map { "    \($0)" }
        }
        lines += details.map { "  \($0)" }
        return lines.joined(separator: "\n")
    }
}
