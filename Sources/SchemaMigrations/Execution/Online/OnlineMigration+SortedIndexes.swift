#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Phase 2b of an online stage: the indexes built in key order (``SortedIndexBuild``), after every
/// table's copy, and their part of the cut-over.
extension OnlineMigration {
    /// The temporary table holding one index's entries, read from the shadow, in key order.
    static let sortedEntries = TableNames.onlinePrefix + "sorted"
    /// The temporary table the entries are read into, in rowid order, before they are sorted.
    static let readEntries = TableNames.onlinePrefix + "entries"

    /// Builds each change's key-order indexes: its entries' tables, the shadow's triggers and the
    /// touched rowids made anew (what an interrupted build left is dropped first), then, per
    /// index, the shadow's entries read in rowid order (short reads: in WAL mode they never
    /// block a writer), sorted in a temporary table, and written in key order in chunks of the
    /// copy's target, the rows the triggers touched left to them.
    func buildSortedIndexes(
        _ changes: [OnlineTableChange], stage: PlannedStage, state: inout OnlineState, wal: Bool
    ) throws {
        for (position, change) in changes.enumerated() {
            let live = try LiveSchema.read(from: db, onlyTables: [change.source])
            let (table, parts) = try change.parts(in: live, renamesApplied: false, version: stage.to)
            let builds = change.sortedIndexBuilds(parts: parts)
            guard !builds.isEmpty, let rowid = change.rowidName(live: table) else { continue }
            // What an interrupted build left goes first, released in chunks like an old table.
            try releaseSortedIndexObjects(of: change.rebuild.table, wal: wal)
            try framing.inWriteTransaction(doing: "online index build's preparation") {
                try recheck(changes, state: &state, version: stage.to)
                for sql in change.sortedIndexSetup(builds, rowid: rowid) { try db.execute(sql) }
                state.heartbeat = Date()
                state.schemaCookie = try db.pragmaInteger("schema_version")
                try state.write(to: db)
            }
            for build in builds {
                let total = try readEntries(of: build, rowid: rowid, wal: wal)
                try writeEntries(
                    of: build, total: total, change: change, index: position, of: changes, stage: stage,
                    state: &state, wal: wal)
            }
            try checkEntries(of: builds, change: change)
        }
    }

    /// Checks, in one read transaction (which, in WAL mode, no writer waits for), that each
    /// index built in key order holds as many entries as the shadow has rows: counting both
    /// reads every page of each, tens of milliseconds for a million rows, which the cut-over's
    /// write lock does not pay. From then on the shadow's triggers keep the two equal.
    /// - Throws: ``CopyStartsOver`` when they differ.
    private func checkEntries(of builds: [SortedIndexBuild], change: OnlineTableChange) throws {
        try db.inReadTransaction {
            let rows = try db.scalar("SELECT count(*) FROM \(SQL.quoteIdentifier(change.shadow))")?.int64Value ?? 0
            for build in builds {
                let entries = try db.scalar("SELECT count(*) FROM \(SQL.quoteIdentifier(build.name))")?.int64Value ?? 0
                guard entries == rows else {
                    throw CopyStartsOver(
                        reason:
                            "an index of \(change.source) built in key order has \(entries) entries for the shadow's \(rows) rows"
                    )
                }
            }
        }
    }

    /// Reads the shadow's entries for `build` into ``sortedEntries``, numbered in key order.
    /// - Returns: how many there are.
    private func readEntries(of build: SortedIndexBuild, rowid: String, wal: Bool) throws -> Int {
        let read = "temp." + SQL.quoteIdentifier(Self.readEntries)
        let sorted = "temp." + SQL.quoteIdentifier(Self.sortedEntries)
        let columns = build.quotedColumns.joined(separator: ", ")
        let values = (build.terms.map { SQL.quoteIdentifier($0.column) } + [rowid]).joined(separator: ", ")
        let shadow = SQL.quoteIdentifier(build.shadow)
        try db.execute("DROP TABLE IF EXISTS \(read)")
        try db.execute("DROP TABLE IF EXISTS \(sorted)")
        // Short reads in rowid order, then the sort on the temporary table alone. One read of
        // the whole shadow, sorted as it goes, takes a third of the time but held this machine's
        // application writes (p99 18-27 ms against 9-10 ms; its temporary file's writes stall the
        // application's commits on the disk).
        try db.execute("CREATE TABLE \(read) (\(columns))")
        var chunk = ChunkSizer(target: chunkTarget)
        var after = Int64.min
        while true {
            let rows = chunk.rows
            var got = 0
            // Timed from the moment the read has its snapshot (outside WAL mode, its shared
            // lock): a wait for the application's commit is not the read's cost.
            let held = try db.inReadTransaction { () -> TimeInterval in
                _ = try db.scalar("SELECT 1 FROM \(shadow) LIMIT 1")
                let started = Date()
                try db.execute(
                    "INSERT INTO \(read) (\(columns)) SELECT \(values) FROM \(shadow) WHERE \(rowid) > ? ORDER BY \(rowid) LIMIT \(rows)",
                    [.integer(after)])
                got = db.changes
                return Date().timeIntervalSince(started)
            }
            chunk.record(rows: rows, rowTime: held, commitTime: 0, fixedTime: 0)
            guard got == rows,
                let last = try db.scalar(
                    "SELECT \(SQL.quoteIdentifier(build.rowidColumn)) FROM \(read) ORDER BY rowid DESC LIMIT 1")?
                    .int64Value
            else { break }
            after = last
            // A read holds no lock a writer needs in WAL mode; otherwise its shared lock keeps the
            // application's commits waiting, as a chunk's write lock does.
            if !wal { try yieldToWriters(afterHolding: held, pause: online.pauseBetweenChunks, checkpoint: false) }
        }
        try db.execute("CREATE TABLE \(sorted) AS SELECT \(columns) FROM \(read) ORDER BY \(build.keyOrder)")
        try db.execute("DROP TABLE \(read)")
        return Int(try db.scalar("SELECT count(*) FROM \(sorted)")?.int64Value ?? 0)
    }

    /// Writes the entries of ``sortedEntries`` into the entries' table in key order, chunk by
    /// chunk, leaving out the rows the shadow's triggers touched (theirs are current).
    private func writeEntries(
        of build: SortedIndexBuild, total: Int, change: OnlineTableChange, index: Int, of changes: [OnlineTableChange],
        stage: PlannedStage, state: inout OnlineState, wal: Bool
    ) throws {
        let sorted = "temp." + SQL.quoteIdentifier(Self.sortedEntries)
        let columns = build.quotedColumns.joined(separator: ", ")
        var chunk = ChunkSizer(target: chunkTarget)
        var written = 0
        let began = Date()
        var lastHeartbeat = Date()
        while written < total {
            if let shouldPause = online.shouldPause, shouldPause() {
                try waitWhilePaused(
                    shouldPause, change: change, index: index, of: changes.count, stage: stage, state: &state,
                    lastHeartbeat: &lastHeartbeat)
            }
            let rows = chunk.rows
            var rowTime: TimeInterval = 0
            let (_, held, commit) = try inChunkTransaction(doing: "online index build") {
                try recheck(changes, state: &state, version: stage.to)
                let started = Date()
                try db.execute(
                    "INSERT INTO \(SQL.quoteIdentifier(build.name)) (\(columns)) SELECT \(columns) FROM \(sorted) "
                        + "WHERE rowid > ? AND rowid <= ? AND \(SQL.quoteIdentifier(build.rowidColumn)) "
                        + "NOT IN (SELECT r FROM \(SQL.quoteIdentifier(change.touchedRows)))",
                    [.integer(Int64(written)), .integer(Int64(written + rows))])
                rowTime = Date().timeIntervalSince(started)
                state.heartbeat = Date()
                try state.write(to: db)
            }
            chunk.record(rows: rows, rowTime: rowTime, commitTime: commit, fixedTime: held - rowTime - commit)
            written = min(total, written + rows)
            lastHeartbeat = Date()
            progress?.report(
                MigrationProgress(
                    from: stage.from, to: stage.to,
                    summary: "Build the index \(build.finalName) of \(change.rebuild.table) in key order",
                    rowsDone: written,
                    rowsTotal: total, activity: .copyingOnline, elapsed: Date().timeIntervalSince(began)))
            if written < total {
                try yieldToWriters(afterHolding: held, pause: online.pauseBetweenChunks, checkpoint: wal)
            }
        }
        try db.execute("DROP TABLE IF EXISTS \(sorted)")
    }

    /// The cut-over's part, inside its transaction and before the stage's steps: each key-order
    /// index becomes the shadow's index under the name the rebuild's swap expects (its schema row
    /// rewritten, in O(1) of its entries); the shadow's triggers and the touched rowids go.
    /// - Throws: ``CopyStartsOver`` when the build's objects are not all there as made.
    func finishSortedIndexes(_ change: OnlineTableChange, version: Schema.Version) throws {
        let live = try LiveSchema.read(from: db, onlyTables: [change.source])
        let (table, parts) = try change.parts(in: live, renamesApplied: false, version: version)
        let builds = change.sortedIndexBuilds(parts: parts)
        guard !builds.isEmpty else { return }
        guard try sortedIndexObjectsStand(change, table: table, builds: builds) else {
            throw CopyStartsOver(reason: "the indexes of \(change.source) built in key order were changed")
        }
        for name in change.shadowTriggers { try db.execute("DROP TRIGGER \(SQL.quoteIdentifier(name))") }
        try db.execute("PRAGMA writable_schema = ON")
        for sql in builds.flatMap(\.conversionStatements) { try db.execute(sql) }
        try db.execute("PRAGMA writable_schema = RESET")
        try db.execute("DROP TABLE \(SQL.quoteIdentifier(change.touchedRows))")
    }

    /// Releases what a key-order index build of `table` made: the shadow's triggers dropped in one
    /// short transaction, then each table it filled emptied in chunks of the copy's target (an
    /// index of a million entries frees its pages in about 0.2 s, which one `DROP TABLE` would
    /// hold the write lock for) and dropped.
    func releaseSortedIndexObjects(of table: String, wal: Bool) throws {
        let tables = try framing.inWriteTransaction(doing: "release of an online index build") { () -> [String] in
            try OnlineState.requireOwnership(try OnlineState.read(from: db))
            for name in OnlineTableChange.shadowTriggers(of: table) {
                try db.execute("DROP TRIGGER IF EXISTS \(SQL.quoteIdentifier(name))")
            }
            return try OnlineTableChange.sortedIndexTables(of: table, in: db)
        }
        var chunk = ChunkSizer(target: chunkTarget)
        for name in tables {
            let quoted = SQL.quoteIdentifier(name)
            let key = try db.rows("SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", [.text(name)])
                .compactMap { $0.first?.stringValue }.map(SQL.quoteIdentifier).joined(separator: ", ")
            let selected = key.isEmpty ? "rowid" : key
            while true {
                let rows = chunk.rows
                var rowTime: TimeInterval = 0
                let (changed, held, commit) = try inChunkTransaction(doing: "release of an online index build") {
                    () -> Int in
                    try OnlineState.requireOwnership(try OnlineState.read(from: db))
                    let started = Date()
                    try db.execute(
                        "DELETE FROM \(quoted) WHERE (\(selected)) IN (SELECT \(selected) FROM \(quoted) LIMIT \(rows))"
                    )
                    rowTime = Date().timeIntervalSince(started)
                    return db.changes
                }
                chunk.record(rows: rows, rowTime: rowTime, commitTime: commit, fixedTime: held - rowTime - commit)
                if changed < rows { break }
                try yieldToWriters(afterHolding: held, pause: 0, checkpoint: wal)
            }
            try framing.inWriteTransaction(doing: "release of an online index build") {
                try db.execute("DROP TABLE IF EXISTS \(quoted)")
            }
        }
    }

    /// Whether a key-order build under way (any of its objects is there: the touched rowids'
    /// table, the shadow's triggers) still has all its objects as made; true when none is under way.
    func sortedIndexBuildStands(_ change: OnlineTableChange, live: LiveSchema, version: Schema.Version) throws -> Bool {
        let names = ([change.touchedRows] + change.shadowTriggers).map(SQL.quoteString).joined(separator: ", ")
        guard try db.scalar("SELECT 1 FROM sqlite_schema WHERE name IN (\(names))") != nil else { return true }
        let (table, parts) = try change.parts(in: live, renamesApplied: false, version: version)
        return try sortedIndexObjectsStand(change, table: table, builds: change.sortedIndexBuilds(parts: parts))
    }

    /// Whether the entries' tables, the touched rowids' table and the shadow's triggers are all
    /// there, each exactly as ``OnlineTableChange/sortedIndexSetup(_:rowid:)`` makes them.
    private func sortedIndexObjectsStand(
        _ change: OnlineTableChange, table: LiveSchema.Table, builds: [SortedIndexBuild]
    ) throws -> Bool {
        guard let rowid = change.rowidName(live: table) else { return false }
        let expected = change.sortedIndexSetup(builds, rowid: rowid)
        let names = (builds.map(\.name) + [change.touchedRows] + change.shadowTriggers).map(SQL.quoteString)
        let present = try db.rows(
            "SELECT sql FROM sqlite_schema WHERE name IN (\(names.joined(separator: ", ")))"
        ).compactMap { $0.first?.stringValue }
        return present.count == expected.count && Set(present) == Set(expected)
    }
}
