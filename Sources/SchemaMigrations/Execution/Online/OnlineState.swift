#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The online change in progress on a database, in the package's companion table: at most one
/// row, so there are never two online changes at once on one file.
///
/// ```sql
/// CREATE TABLE "_schema_migrations_online" ("id" INTEGER PRIMARY KEY CHECK ("id" = 1),
///   "plan" TEXT NOT NULL, "fromVersion" TEXT NOT NULL, "toVersion" TEXT NOT NULL,
///   "phase" TEXT NOT NULL, "tables" TEXT NOT NULL, "highWater" INTEGER, "copied" INTEGER NOT NULL,
///   "startedAt" REAL NOT NULL, "heartbeat" REAL NOT NULL, "owner" TEXT NOT NULL, "schemaCookie" INTEGER)
/// ```
/// `phase` is `copying` (the shadow tables are being filled, `tables` lists them with the
/// high-water mark of the one being copied) or `releasing` (the cut-over committed; the tables
/// set aside are being emptied). `owner` is `host:pid` of the run, and `heartbeat` its last
/// sign of life: a run that is gone (its process ended on this host, or silent for
/// ``staleAfter`` whatever its process) is taken over, one that is alive refuses a second.
/// `schemaCookie` is the database's `PRAGMA schema_version` when the copy last made sure of its
/// objects and of the rowids it copied (``OnlineMigration``): any schema change since then (a
/// VACUUM, a table made again, an index added) is looked at before the copy goes on.
struct OnlineState: Sendable, Equatable {
    enum Phase: String, Sendable { case copying, releasing }

    var plan: String
    var from: Schema.Version
    var to: Schema.Version
    var phase: Phase
    /// The shadow tables (copying) or the tables set aside (releasing), in order.
    var tables: [String]
    /// The last rowid copied into the shadow of the first table of ``tables`` not yet complete;
    /// nil before its first chunk.
    var highWater: Int64?
    /// How many of ``tables`` are completely copied.
    var copied: Int
    var startedAt: Date
    var heartbeat: Date
    var owner: String
    /// `PRAGMA schema_version` when the copy last made sure of what it copied; nil when not known
    /// (a change recorded by an earlier release), which counts as changed.
    var schemaCookie: Int64?

    /// A run silent this long is presumed gone.
    static let staleAfter: TimeInterval = 30

    static let createSQL = """
        CREATE TABLE IF NOT EXISTS "\(TableNames.onlineState)" ("id" INTEGER PRIMARY KEY CHECK ("id" = 1), \
        "plan" TEXT NOT NULL, "fromVersion" TEXT NOT NULL, "toVersion" TEXT NOT NULL, "phase" TEXT NOT NULL, \
        "tables" TEXT NOT NULL, "highWater" INTEGER, "copied" INTEGER NOT NULL, "startedAt" REAL NOT NULL, \
        "heartbeat" REAL NOT NULL, "owner" TEXT NOT NULL, "schemaCookie" INTEGER)
        """

    /// This process, as an owner.
    static var thisOwner: String { "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier)" }

    /// The tables of the change in progress (its shadows, or what it is releasing), folded;
    /// empty when none.
    static func recordedShadows(in db: any SQLQuerying) throws -> Set<String> {
        Set(try read(from: db)?.tables.map(\.sqlFolded) ?? [])
    }

    /// The change in progress, nil when none.
    static func read(from db: any SQLQuerying) throws -> OnlineState? {
        guard
            try db.scalar(
                "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", [.text(TableNames.onlineState)]) != nil
        else { return nil }
        guard
            let row = try db.rows(
                """
                SELECT "plan", "fromVersion", "toVersion", "phase", "tables", "highWater", "copied", "startedAt", "heartbeat", "owner", \
                \(try hasCookieColumn(db) ? "\"schemaCookie\"" : "NULL") FROM "\(TableNames.onlineState)" WHERE "id" = 1
                """
            ).first
        else { return nil }
        guard let from = row[1].stringValue.flatMap(Schema.Version.init),
            let to = row[2].stringValue.flatMap(Schema.Version.init),
            let phase = row[3].stringValue.flatMap(Phase.init(rawValue:))
        else {
            throw MigrationError(
                .unknownVersion, "the online change recorded in '\(TableNames.onlineState)' cannot be read",
                remedy: "the table was edited by hand; restore the database from a backup")
        }
        let tables = (row[4].stringValue ?? "").split(separator: "\n").map(String.init)
        return OnlineState(
            plan: row[0].stringValue ?? "", from: from, to: to, phase: phase, tables: tables,
            highWater: row[5].int64Value,
            copied: Int(row[6].int64Value ?? 0), startedAt: Date(timeIntervalSince1970: row[7].doubleValue ?? 0),
            heartbeat: Date(timeIntervalSince1970: row[8].doubleValue ?? 0), owner: row[9].stringValue ?? "",
            schemaCookie: row[10].int64Value)
    }

    /// Whether the companion table has the `schemaCookie` column (a table an earlier release made has not).
    private static func hasCookieColumn(_ db: any SQLQuerying) throws -> Bool {
        try db.scalar(
            "SELECT 1 FROM pragma_table_info(\(SQL.quoteString(TableNames.onlineState))) WHERE name = 'schemaCookie'")
            != nil
    }

    /// Writes this state as the one row; call inside a write transaction.
    func write(to db: any SQLQuerying) throws {
        try db.execute(Self.createSQL)
        if try !Self.hasCookieColumn(db) {
            try db.execute("ALTER TABLE \"\(TableNames.onlineState)\" ADD COLUMN \"schemaCookie\" INTEGER")
        }
        try db.execute(
            """
            INSERT OR REPLACE INTO "\(TableNames.onlineState)" ("id", "plan", "fromVersion", "toVersion", "phase", "tables", "highWater", "copied", "startedAt", "heartbeat", "owner", "schemaCookie") \
            VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(plan), .text(from.description), .text(to.description), .text(phase.rawValue),
                .text(tables.joined(separator: "\n")),
                highWater.map { .integer($0) } ?? .null, .integer(Int64(copied)),
                .real(startedAt.timeIntervalSince1970),
                .real(heartbeat.timeIntervalSince1970), .text(owner), schemaCookie.map { .integer($0) } ?? .null,
            ])
    }

    /// Removes the row and the companion table; call inside a write transaction.
    static func clear(in db: any SQLQuerying) throws {
        try db.execute("DROP TABLE IF EXISTS \"\(TableNames.onlineState)\"")
    }

    /// Whether the run that wrote this state is still alive: it gave a sign of life within
    /// ``staleAfter`` and, on this host, its process still runs. A live process alone does not
    /// make a run alive: after a container restart its pid may be another program's, and a run
    /// beats its heart with every chunk, every pause and every release step.
    var ownerIsAlive: Bool {
        if owner == Self.thisOwner { return true }
        guard Date().timeIntervalSince(heartbeat) < Self.staleAfter else { return false }
        let parts = owner.split(separator: ":")
        if parts.count == 2, String(parts[0]) == ProcessInfo.processInfo.hostName, let pid = Int32(parts[1]) {
            return SystemCalls.processExists(pid)
        }
        return true
    }

    /// Refuses to go on when another run that is alive owns the change in `state` (read inside
    /// the caller's write transaction, so that two runs can never both act on it).
    /// - Throws: `MigrationError` (`onlineChangeInProgress`) naming the owner and its heartbeat.
    static func requireOwnership(_ state: OnlineState?) throws {
        guard let state, state.owner != thisOwner, state.ownerIsAlive else { return }
        throw state.inProgressError()
    }

    /// The refusal for a second change while this one runs.
    func inProgressError() -> MigrationError {
        MigrationError(
            .onlineChangeInProgress,
            "another online change of plan '\(plan)' from \(from) to \(to) is running on this database (owner \(owner), \(phase == .copying ? "copying" : "releasing the old table"), started \(SystemCalls.iso8601UTC(startedAt)), last heartbeat \(SystemCalls.iso8601UTC(heartbeat))); nothing was done",
            version: to,
            remedy:
                "wait for it to finish, or stop it; a stopped change resumes with the next online migration, and one silent for \(Int(Self.staleAfter)) s is taken over"
        )
    }
}
