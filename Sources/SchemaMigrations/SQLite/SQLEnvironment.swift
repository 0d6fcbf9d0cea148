#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The application's SQL environment: the collations, functions and extensions its own
/// connections have, which the migrator gives every connection it opens.
///
/// A database that lives inside an application may depend on it: a unique index using the app's
/// case-folding collation, triggers calling the functions its library registers, a virtual table
/// of its extension. SQLite keeps such objects as written; only a connection that has what they
/// name can read or rebuild them. Give the migrator the same environment:
///
/// ```swift
/// let environment = SQLEnvironment(
///     collations: [SQLCollation("unicase") { $0.lowercased() < $1.lowercased() ? .orderedAscending
///                                             : $0.lowercased() == $1.lowercased() ? .orderedSame : .orderedDescending }],
///     functions: [SQLFunction("st_isempty", argumentCount: 1) { arguments in
///         .integer(arguments[0].isNull ? 1 : 0)
///     }],
///     extensions: [SQLExtension(path: "/usr/lib/x86_64-linux-gnu/mod_spatialite.so")])
/// let migrator = Migrator(plan: AppMigrationPlan.self, options: MigrationOptions(sqlEnvironment: environment))
/// try migrator.migrate(databaseAt: url)
/// ```
///
/// It applies to every connection the library opens: `migrate`, `plan` (and its rehearsal and
/// simulation copies), `status`, `verify`, `baseline`, `currentVersion`, introspection and
/// scaffolding (``SchemaIntrospection/init(databaseAt:version:environment:)``), the in-memory
/// check of declared SQL, and a dqlite cluster's local copy. A connection the app lends to
/// `migrate(connection:)` is used as the app prepared it.
///
/// For anything else the app's connections get (a GRDB `prepareDatabase` block, an authorizer,
/// a collation-needed callback), ``prepareConnection`` runs with the raw `sqlite3*` handle, after
/// the collations, functions and extensions.
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/create_collation.html>,
/// <https://www.sqlite.org/c3ref/create_function.html>, <https://www.sqlite.org/loadext.html>
public struct SQLEnvironment: Sendable {
    /// Collations registered on every connection, by name.
    public var collations: [SQLCollation]
    /// SQL functions registered on every connection.
    public var functions: [SQLFunction]
    /// Aggregate SQL functions registered on every connection (a view's `sortconcat(…)`).
    public var aggregates: [SQLAggregate]
    /// Extensions loaded into every connection, in order, before ``prepareConnection`` runs.
    public var extensions: [SQLExtension]
    /// Runs last on every connection the migrator opens, with its `sqlite3*` handle; a thrown
    /// error fails the call that opened it (a `MigrationError` with code `sqlEnvironment`).
    /// The handle belongs to the migrator: do not close it or keep it.
    public var prepareConnection: (@Sendable (OpaquePointer) throws -> Void)?

    /// - Parameters:
    ///   - collations: collations to register (``SQLCollation``).
    ///   - functions: functions to register (``SQLFunction``).
    ///   - aggregates: aggregate functions to register (``SQLAggregate``).
    ///   - extensions: shared libraries to load (``SQLExtension``), as the `sqlite3` shell's `.load`.
    ///   - prepareConnection: anything else, on the raw handle, after the rest.
    public init(
        collations: [SQLCollation] = [], functions: [SQLFunction] = [], aggregates: [SQLAggregate] = [],
        extensions: [SQLExtension] = [], prepareConnection: (@Sendable (OpaquePointer) throws -> Void)? = nil
    ) {
        self.collations = collations
        self.functions = functions
        self.aggregates = aggregates
        self.extensions = extensions
        self.prepareConnection = prepareConnection
    }

    /// No collation, function or extension beyond SQLite's own.
    public static let none = SQLEnvironment()

    /// True when the environment adds nothing to a connection.
    public var isEmpty: Bool {
        collations.isEmpty && functions.isEmpty && aggregates.isEmpty && extensions.isEmpty
            && prepareConnection == nil
    }

    /// This environment followed by `other`'s collations, functions and extensions; both hooks
    /// run, this one's first.
    public func adding(_ other: SQLEnvironment) -> SQLEnvironment {
        var hook: (@Sendable (OpaquePointer) throws -> Void)?
        switch (prepareConnection, other.prepareConnection) {
        case (nil, nil): hook = nil
        case (let only?, nil), (nil, let only?): hook = only
        case (let first?, let second?):
            hook = { handle in
                try first(handle)
                try second(handle)
            }
        }
        return SQLEnvironment(
            collations: collations + other.collations, functions: functions + other.functions,
            aggregates: aggregates + other.aggregates, extensions: extensions + other.extensions,
            prepareConnection: hook)
    }
}

/// A collation the application registers: how it orders two strings.
///
/// ```swift
/// let unicase = SQLCollation("unicase") { lhs, rhs in
///     lhs.lowercased() == rhs.lowercased() ? .orderedSame : lhs.lowercased() < rhs.lowercased() ? .orderedAscending : .orderedDescending
/// }
/// ```
///
/// It must order strings exactly as the application's own does: a unique index built with it
/// is checked and rebuilt with it.
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/create_collation.html>
public struct SQLCollation: Sendable {
    /// The name SQL uses after `COLLATE` (compared without regard to ASCII case).
    public var name: String
    /// Orders two strings (UTF-8 text, decoded).
    public var compare: @Sendable (String, String) -> ComparisonResult

    /// A collation named `name` that orders two strings by `compare`.
    public init(_ name: String, _ compare: @escaping @Sendable (String, String) -> ComparisonResult) {
        self.name = name
        self.compare = compare
    }
}

/// A scalar SQL function the application registers.
///
/// ```swift
/// let isEmpty = SQLFunction("st_isempty", argumentCount: 1) { arguments in
///     guard case .blob(let bytes) = arguments[0] else { return .integer(1) }
///     return .integer(bytes.isEmpty ? 1 : 0)
/// }
/// ```
///
/// An error the body throws fails the statement that called it, with the error's description
/// as SQLite's message.
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/create_function.html>
public struct SQLFunction: Sendable {
    /// The name SQL calls (compared without regard to ASCII case).
    public var name: String
    /// How many arguments it takes; nil for any number.
    public var argumentCount: Int?
    /// Whether it always returns the same result for the same arguments (SQLite then allows it in
    /// indexes, generated columns and CHECKs, as `SQLITE_DETERMINISTIC`).
    public var isDeterministic: Bool
    /// The function itself.
    public var body: @Sendable ([SQLiteValue]) throws -> SQLiteValue

    /// A function named `name` taking `argumentCount` values (nil: any number), deterministic unless
    /// said otherwise, computed by `body`.
    public init(
        _ name: String, argumentCount: Int? = nil, deterministic: Bool = true,
        _ body: @escaping @Sendable ([SQLiteValue]) throws -> SQLiteValue
    ) {
        self.name = name
        self.argumentCount = argumentCount
        self.isDeterministic = deterministic
        self.body = body
    }
}

/// An aggregate SQL function the application registers: one result from a group's rows, as
/// calibre's `sortconcat(id, value)` a view of its library calls.
///
/// ```swift
/// let concat = SQLAggregate("concat", argumentCount: 1) { rows in
///     .text(rows.compactMap { if case .text(let value) = $0[0] { value } else { nil } }.joined(separator: ","))
/// }
/// ```
///
/// The body is given every row's arguments, in the order SQLite steps through them (none for an
/// empty group), once the group is complete. An error it throws fails the statement that called
/// it, with the error's description as SQLite's message.
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/create_function.html>
public struct SQLAggregate: Sendable {
    /// The name SQL calls (compared without regard to ASCII case).
    public var name: String
    /// How many arguments it takes; nil for any number.
    public var argumentCount: Int?
    /// Whether it always returns the same result for the same rows (`SQLITE_DETERMINISTIC`).
    public var isDeterministic: Bool
    /// The group's result, from each row's arguments in order.
    public var body: @Sendable ([[SQLiteValue]]) throws -> SQLiteValue

    /// An aggregate named `name` taking `argumentCount` values per row (nil: any number),
    /// deterministic unless said otherwise, computed by `body` from every row's arguments.
    public init(
        _ name: String, argumentCount: Int? = nil, deterministic: Bool = true,
        _ body: @escaping @Sendable ([[SQLiteValue]]) throws -> SQLiteValue
    ) {
        self.name = name
        self.argumentCount = argumentCount
        self.isDeterministic = deterministic
        self.body = body
    }
}

/// A SQLite extension to load (a shared library), as the `sqlite3` shell's `.load PATH [ENTRY]`.
///
/// ```swift
/// let spatial = SQLExtension(path: "/usr/lib/x86_64-linux-gnu/mod_spatialite.so")
/// let mine = try SQLExtension(parsing: "./libappsql.so:sqlite3_appsql_init")   // PATH[:ENTRY], as `--load-extension` takes it
/// ```
///
/// Loading is enabled for the C call only while the extension loads (SQL's `load_extension()`
/// stays off). Not available with SQLite builds that leave extension loading out (Apple's
/// system SQLite): loading then fails, naming the extension.
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/load_extension.html>
public struct SQLExtension: Sendable, Hashable {
    /// The shared library's path (SQLite tries the platform's suffix when it is left out).
    public var path: String
    /// The entry point's name; nil for SQLite's default (`sqlite3_extension_init`, or one derived from the file's name).
    public var entryPoint: String?

    /// The extension at `path`, loaded through `entryPoint` (SQLite's default entry point when nil).
    public init(path: String, entryPoint: String? = nil) {
        self.path = path
        self.entryPoint = entryPoint
    }

    /// `PATH` or `PATH:ENTRY`. A path that exists is that path, colons and all; otherwise the text
    /// after the last colon is the entry point when it is a C identifier.
    /// - Throws: `MigrationError` (`sqlEnvironment`) when the text is empty.
    public init(parsing text: String) throws {
        guard !text.isEmpty else {
            throw MigrationError(
                .sqlEnvironment, "an extension to load is empty",
                remedy: "give the shared library's path, PATH or PATH:ENTRY")
        }
        if FileManager.default.fileExists(atPath: text) {
            self.init(path: text)
            return
        }
        if let colon = text.lastIndex(of: ":") {
            let entry = String(text[text.index(after: colon)...])
            let isIdentifier =
                entry.first.map { $0 == "_" || ($0.isASCII && $0.isLetter) } == true
                && entry.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
            if isIdentifier, colon != text.startIndex {
                self.init(path: String(text[..<colon]), entryPoint: entry)
                return
            }
        }
        self.init(path: text)
    }

    /// `PATH` or `PATH:ENTRY`, as ``init(parsing:)`` reads it.
    public var description: String { path + (entryPoint.map { ":" + $0 } ?? "") }
}
