#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The one error type SchemaMigrations throws: what went wrong, where, and what to do about it.
///
/// Every error names its context where it has one (plan, version, entity, property, SQL, and
/// SQLite's extended code and message) and prints as one readable paragraph:
///
/// A property is named by its Swift name, with its column where that differs
/// (`property: displayName (column display_name)`).
///
/// ```
/// error: cannot add non-optional attribute 'Trip.rating' without a default value to a table with 3 rows
///   entity: Trip, property: rating, version: 2.0.0
///   fix: give 'rating' a default value, make it optional, or fill it in a custom stage's didMigrate
/// ```
///
/// Match on ``code`` to react to a kind of failure; the set of codes may grow.
public struct MigrationError: Error, Sendable, CustomStringConvertible {
    /// A kind of failure. New kinds may be added in later releases.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name, as printed and as the command's JSON carries it (`drift`, `sqlite`, …).
        public let rawValue: String
        /// The code named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// A declared schema is malformed (duplicate names, reserved names, unknown index columns…).
        public static let invalidSchema = Code(rawValue: "invalidSchema")
        /// A property's Swift type cannot be stored in SQLite.
        public static let unsupportedType = Code(rawValue: "unsupportedType")
        /// The plan itself is malformed (versions out of order, stages not between consecutive versions…).
        public static let invalidPlan = Code(rawValue: "invalidPlan")
        /// A lightweight stage cannot make this change safely.
        public static let unsupportedChange = Code(rawValue: "unsupportedChange")
        /// A stage breaks the code of the version it starts from, and compatibility was required
        /// (``MigrationOptions/requireCompatible``, `--require-compatible`): nothing was written.
        public static let incompatibleChange = Code(rawValue: "incompatibleChange")
        /// The live data does not allow the change (NULLs for a NOT NULL, duplicates for a UNIQUE…).
        public static let dataViolation = Code(rawValue: "dataViolation")
        /// The database is at a version the plan does not declare, or matches no declared version.
        public static let unknownVersion = Code(rawValue: "unknownVersion")
        /// The database is at a version newer than the plan's latest.
        public static let newerVersion = Code(rawValue: "newerVersion")
        /// The live schema does not match the version recorded in the database.
        public static let drift = Code(rawValue: "drift")
        /// Another process changed the schema between planning and applying.
        public static let concurrentChange = Code(rawValue: "concurrentChange")
        /// Another connection held the database's lock longer than the busy timeout
        /// (``MigrationOptions/busyTimeout``): nothing was done. Another migration of the same
        /// file that finishes within it is waited for, and this one then finds the file current.
        public static let locked = Code(rawValue: "locked")
        /// The file is not a SQLite database, or is corrupt.
        public static let notADatabase = Code(rawValue: "notADatabase")
        /// A migration is pending but the database can only be read.
        public static let readOnly = Code(rawValue: "readOnly")
        /// The connection passed to `migrate(connection:)` cannot roll a failed migration back
        /// (`journal_mode` OFF, or MEMORY on a file), or is inside a transaction of its own.
        public static let unsafeConnection = Code(rawValue: "unsafeConnection")
        /// A migration (or another write) was interrupted, and its rollback journal is still beside
        /// the database: a read-only command cannot replay it.
        public static let interruptedMigration = Code(rawValue: "interruptedMigration")
        /// A custom stage's closure threw.
        public static let customStageFailed = Code(rawValue: "customStageFailed")
        /// A custom stage's code called the data API with an argument it cannot use (a batch size
        /// below 1, an empty filter or one that is not one SQL expression, arguments that do not
        /// match the filter's placeholders, a negative limit, an `id` with no row to update).
        public static let invalidArgument = Code(rawValue: "invalidArgument")
        /// A value read or written in a custom stage is not of the attribute's type.
        public static let typeMismatch = Code(rawValue: "typeMismatch")
        /// SQLite reported an error while running a step.
        public static let sqlite = Code(rawValue: "sqlite")
        /// After the last step the database does not match the declared target schema.
        public static let verificationFailed = Code(rawValue: "verificationFailed")
        /// Another online change is running on this database (or an online change was asked for
        /// a plan it cannot run: a custom stage's code).
        public static let onlineChangeInProgress = Code(rawValue: "onlineChangeInProgress")
        /// An option's value cannot be used (a chunk target that is zero, negative or not a number).
        public static let invalidOption = Code(rawValue: "invalidOption")
        /// The plan cannot run as an online change (a custom stage's code); nothing was written.
        public static let onlineRefused = Code(rawValue: "onlineRefused")
        /// The database needs a collation, function or module the connection does not have (the
        /// application registers it: ``SQLEnvironment``), or the environment could not be applied
        /// (an extension that does not load, a `prepareConnection` hook that throws).
        public static let sqlEnvironment = Code(rawValue: "sqlEnvironment")
    }

    /// The kind of failure.
    public var code: Code
    /// What went wrong, in one sentence.
    public var message: String
    /// The entity (table) concerned, if any.
    public var entity: String?
    /// The property concerned, if any, by its Swift name.
    public var property: String?
    /// The column of ``property`` when it is named otherwise (`@Attribute(column: "display_name")`);
    /// nil when the column bears the property's name.
    public var column: String?
    /// The schema version concerned, if any.
    public var version: Schema.Version?
    /// What the user can do instead.
    public var remedy: String?
    /// Further detail: duplicate values, offending rows, a schema diff.
    public var details: [String]
    /// The error underneath, unchanged: SQLite's (a ``SQLiteError``, with its SQL, code and
    /// message), or a custom stage's own error as it was thrown, or what else made this one.
    ///
    /// ```swift
    /// do {
    ///     try migrator.migrate(databaseAt: url)
    /// } catch let error as MigrationError where error.cause is ImportError {
    ///     // the stage's own error type, with its cases and payload
    /// }
    /// ```
    public var cause: (any Error)?
    /// Whether ``advised(path:)`` gave its advice already (a clause of the message, a remedy):
    /// advising the error again leaves it as it is.
    var isAdvised = false
    /// What the failed transaction undid, which the message ends by saying (`…; everything was
    /// rolled back`): given with the message, changed by ``say(rolledBack:)``.
    private(set) var rolledBack: RolledBack?
    /// The message before what ``rolledBack`` says.
    private var messageBeforeRollback: String?

    /// An error of kind `code`, with its message, what it concerns, the remedy, details and the error that caused it.
    public init(
        _ code: Code, _ message: String, entity: String? = nil, property: String? = nil, column: String? = nil,
        version: Schema.Version? = nil, remedy: String? = nil, details: [String] = [], cause: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.entity = entity
        self.property = property
        self.column = column == property ? nil : column
        self.version = version
        self.remedy = remedy
        self.details = details
        self.cause = cause
    }

    /// The library's own form: the cause is `underlyingError` when given, else `sqliteError`, else
    /// `underlying` (a cause known only in words).
    /// - Parameter rolledBack: what the failed transaction undid, said after the message.
    package init(
        _ code: Code, _ message: String, rolledBack: RolledBack? = nil, entity: String? = nil,
        property: String? = nil, column: String? = nil, version: Schema.Version? = nil, remedy: String? = nil,
        details: [String] = [], sqliteError: SQLiteError? = nil, underlying: String? = nil,
        underlyingError: (any Error)? = nil
    ) {
        self.init(
            code, message, entity: entity, property: property, column: column, version: version,
            remedy: remedy ?? sqliteError.flatMap(Self.remedy(for:)), details: details,
            cause: underlyingError ?? sqliteError ?? underlying.map(DescribedCause.init))
        if let rolledBack { say(rolledBack: rolledBack) }
    }

    /// What a failed transaction undid, as the message of its error ends by saying.
    package enum RolledBack: String, Sendable {
        /// The migration's one transaction.
        case everything = "everything was rolled back"
        /// The failed stage's, in a migration that commits stage by stage.
        case thisStage = "this stage was rolled back"
    }

    /// Ends the message by saying that the failed transaction undid `undone`, in place of what it
    /// said it undid: `step failed: …; this stage was rolled back`.
    mutating func say(rolledBack undone: RolledBack) {
        let before = messageBeforeRollback ?? message
        messageBeforeRollback = before
        rolledBack = undone
        message = before + "; " + undone.rawValue
    }

    /// What to do about a SQLite error whose code alone says what is missing, whatever was being
    /// done: `SQLITE_IOERR_GETTEMPPATH` (6410) means no writable directory for the temporary files
    /// a large statement spills (a sort, a statement journal), as on a read-only root filesystem.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/tempfiles.html#temporary_file_storage_locations>
    static func remedy(for error: SQLiteError) -> String? {
        guard error.resultCode.rawValue == 6410 else { return nil }
        return
            "SQLite found no writable directory for its temporary files (it tries SQLITE_TMPDIR, TMPDIR, /var/tmp, /usr/tmp, /tmp and the working directory): set SQLITE_TMPDIR to a writable directory, or run PRAGMA temp_store = MEMORY in the SQL environment's prepareConnection hook (the temporary files then take memory)"
    }

    /// The SQLite error at the root of the cause: the cause itself, or the one it carries (a
    /// dqlite leader's refusal carries SQLite's code and message).
    package var sqliteError: SQLiteError? {
        cause as? SQLiteError ?? (cause as? any SQLiteErrorCarrying)?.sqliteError
    }

    /// The cause in words, when it is not SQLite's own error (printed on a line of its own): what
    /// follows "caused by:".
    package var causeDescription: String? {
        cause.flatMap { $0 is SQLiteError ? nil : "\($0)" }
    }

    /// The error as one paragraph: `error: message`, what it concerns, its details, `fix: remedy`.
    public var description: String { "error: " + explanation }

    /// The paragraph ``description`` writes after `error: `, which a report prints after its own word
    /// (`REFUSED: message`).
    var explanation: String {
        var lines = [message]
        var context: [String] = []
        if let entity { context.append("entity: \(entity)") }
        if let property { context.append("property: \(property)" + (column.map { " (column \($0))" } ?? "")) }
        if property == nil, let column { context.append("column: \(column)") }
        if let version { context.append("version: \(version)") }
        if !context.isEmpty { lines.append("  " + context.joined(separator: ", ")) }
        lines += details.map { "  - \($0)" }
        if let sqliteError { lines.append("  \(sqliteError)") }
        if let causeDescription { lines.append("  caused by: \(causeDescription)") }
        if let remedy { lines.append("  fix: \(remedy)") }
        return lines.joined(separator: "\n")
    }
}

/// An error that carries a SQLite error inside it: a dqlite leader's refusal, which reports
/// SQLite's code and message over the wire.
package protocol SQLiteErrorCarrying: Error {
    var sqliteError: SQLiteError? { get }
}

/// A cause known only in words (two failures in a row, described together).
struct DescribedCause: Error, CustomStringConvertible {
    var description: String
}
