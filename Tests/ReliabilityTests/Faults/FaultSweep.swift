import CFaultVFS
import CSQLite
import Foundation

@testable import SchemaMigrations

/// One kind of I/O call to fail, and how.
struct FaultKind: CustomStringConvertible, Sendable {
    var kind: Int32
    var code: Int32
    var persistent: Bool

    var description: String {
        let name = ["write", "sync", "read"][Int(kind)]
        return "\(name) → \(SQLiteResultCode(rawValue: code).description)\(persistent ? " (persistent)" : "")"
    }

    // Extended result codes are macros Swift does not import: SQLITE_IOERR | (n << 8).
    static let ioerrRead: Int32 = 266, ioerrWrite: Int32 = 778, ioerrFsync: Int32 = 1034

    /// The kinds the sweep tries: writes failing with an I/O error or a full disk, syncs, reads.
    static func all(persistent: Bool) -> [FaultKind] {
        [
            FaultKind(kind: Int32(FAULTVFS_WRITE), code: ioerrWrite, persistent: persistent),
            FaultKind(kind: Int32(FAULTVFS_WRITE), code: SQLITE_FULL, persistent: persistent),
            FaultKind(kind: Int32(FAULTVFS_SYNC), code: ioerrFsync, persistent: persistent),
            FaultKind(kind: Int32(FAULTVFS_READ), code: ioerrRead, persistent: persistent),
        ]
    }
}

/// How the swept migration opens its database.
enum FaultMode: String, CaseIterable, CustomStringConvertible, Sendable {
    /// `migrate(databaseAt:)` on a rollback-journal file.
    case rollback
    /// `migrate(databaseAt:)` on a WAL file.
    case wal
    /// `migrate(connection:)` on a rollback-journal file, through a connection whose page cache
    /// holds 4 pages, so changed pages spill into the database file before the commit and the
    /// rollback must restore them from the journal.
    case spilling

    var description: String { rawValue }
}

/// Runs the fixture's migration through the fault VFS with one call failing, and judges the result.
struct FaultSweep {
    static let vfsName = "reliability-faults"

    /// What one faulty migration did.
    struct Outcome {
        var injected: Int
        /// nil when the migration succeeded.
        var errorCode: String?
        /// Violations of the contract, in words; empty when the run was fine.
        var problems: [String]
    }

    let pristine: URL
    let mode: FaultMode
    let old: DatabaseState
    let new: DatabaseState
    let scratch: Scratch
    /// The plan's migrator with the options given; ``FaultFixture``'s by default.
    let migrator: (MigrationOptions) throws -> Migrator
    let planName: String

    /// Registers the VFS, and learns the old and new states of `pristine`.
    init(
        pristine: URL, mode: FaultMode, scratch: Scratch,
        migrator: @escaping (MigrationOptions) throws -> Migrator = { try FaultFixture.migrator(options: $0) },
        planName: String = FaultFixture.planName
    ) throws {
        guard faultvfs_register(FaultSweep.vfsName) == SQLITE_OK else {
            throw CrashPlanError(message: "cannot register the fault VFS")
        }
        self.pristine = pristine
        self.mode = mode
        self.scratch = scratch
        self.migrator = migrator
        self.planName = planName
        old = try DatabaseState.read(pristine, plan: planName)
        let copy = try scratch.copyDatabase(pristine, to: "fault-reference.sqlite")
        try migrator(MigrationOptions()).migrate(databaseAt: copy)
        new = try DatabaseState.read(copy, plan: planName)
        scratch.removeDatabase(copy)
    }

    /// The writes, syncs and reads of one full migration through the VFS.
    func counts() throws -> [Int] {
        let url = try scratch.copyDatabase(pristine, to: "fault-count.sqlite")
        defer { scratch.removeDatabase(url) }
        faultvfs_disarm()
        try migrate(url)
        return (0..<3).map { Int(faultvfs_count(Int32($0))) }
    }

    /// Migrates through the fault VFS as the mode says; the connection is closed on return.
    private func migrate(_ url: URL) throws {
        let options = MigrationOptions(vfsName: FaultSweep.vfsName)
        guard mode == .spilling else {
            try migrator(options).migrate(databaseAt: url)
            return
        }
        let db: SQLiteConnection
        do {
            db = try SQLiteConnection(path: url.path, mode: .readWrite, vfs: FaultSweep.vfsName)
            try db.execute("PRAGMA cache_size = 4")
        } catch let error as SQLiteError {
            throw MigrationError(.sqlite, "the test could not open the database", sqliteError: error)
        }
        try migrator(options).migrate(connection: db.handle)
    }

    /// Migrates a copy with the `n`th call of `fault` failing, then reopens it with the default VFS.
    func run(_ fault: FaultKind, at n: Int) throws -> Outcome {
        let url = try scratch.copyDatabase(pristine, to: "fault-run.sqlite")
        defer { scratch.removeDatabase(url) }
        let before = try Data(contentsOf: url)
        if fault.persistent {
            faultvfs_arm_persistent(fault.kind, n, fault.code)
        } else {
            faultvfs_arm(fault.kind, n, fault.code)
        }
        var problems: [String] = []
        var errorCode: String?
        do {
            try migrate(url)
        } catch let error as MigrationError {
            errorCode = error.code.rawValue
            if error.message.isEmpty { problems.append("an error without a message") }
            if error.code == .notADatabase { problems.append("an I/O error reported as a damaged database: \(error)") }
        } catch {
            errorCode = "untyped"
            problems.append("threw \(type(of: error)), not a MigrationError: \(error)")
        }
        let injected = Int(faultvfs_injected())
        faultvfs_disarm()
        let state = try DatabaseState.read(url, plan: planName)
        if state.integrity != "ok" { problems.append("integrity_check: \(state.integrity)") }
        if errorCode == nil {
            if state != new { problems.append("succeeded, but the database is \(state), not the migrated \(new)") }
        } else {
            if state != old {
                problems.append("failed (\(errorCode!)), but the database is \(state), not the old \(old)")
            }
            if let after = try? Data(contentsOf: url), after != before {
                problems.append("failed (\(errorCode!)), but the file's bytes changed")
            }
        }
        return Outcome(injected: injected, errorCode: errorCode, problems: problems)
    }

    /// The points to try in 1...count: every one, or `sample` spread evenly with a random offset.
    static func points(count: Int, sample: Int, random: inout SeededRandom) -> [Int] {
        guard count > 0 else { return [] }
        guard sample > 0, sample < count else { return Array(1...count) }
        return (0..<sample).map { slice in
            let width = Double(count) / Double(sample)
            return min(count, 1 + Int(Double(slice) * width + Double.random(in: 0..<width, using: &random)))
        }
    }
}
