import CSQLite

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension SQLiteConnection {
    /// Runs `body` with SQLite's progress handler installed: `handler` is called about every
    /// `instructions` virtual-machine instructions of whatever statement the connection runs,
    /// on the thread running it. The handler must not use the connection (SQLite forbids it);
    /// reading ``runningStatementFullScanSteps`` is allowed. The handler is removed afterwards,
    /// even when `body` throws.
    ///
    /// ```swift
    /// try db.withProgressHandler(every: 10_000, { print("rows read:", db.runningStatementFullScanSteps) }) {
    ///     try db.execute("INSERT INTO copy SELECT * FROM original")
    /// }
    /// ```
    /// - Complexity: the handler's own cost, once per `instructions` instructions: a few thousand
    ///   keep it far below a percent of the statement's time.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/progress_handler.html>
    package func withProgressHandler<T>(
        every instructions: Int32, _ handler: @escaping () -> Void, _ body: () throws -> T
    ) rethrows -> T {
        let box = Unmanaged.passRetained(ProgressHandlerBox(handler))
        sqlite3_progress_handler(
            handle, max(1, instructions),
            { context in
                Unmanaged<ProgressHandlerBox>.fromOpaque(context!).takeUnretainedValue().handler()
                return 0  // never interrupt
            }, box.toOpaque())
        defer {
            sqlite3_progress_handler(handle, 0, nil, nil)
            box.release()
        }
        return try body()
    }

    /// How many rows the statement running now has stepped through in full table scans
    /// (`SQLITE_STMTSTATUS_FULLSCAN_STEP`): for `INSERT INTO new SELECT … FROM old`, the rows
    /// copied so far. 0 when no statement is running.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/c_stmtstatus_counter.html>
    package var runningStatementFullScanSteps: Int {
        var statement = sqlite3_next_stmt(handle, nil)
        var steps: Int32 = 0
        while let current = statement {
            if sqlite3_stmt_busy(current) != 0 {
                steps = max(steps, sqlite3_stmt_status(current, SQLITE_STMTSTATUS_FULLSCAN_STEP, 0))
            }
            statement = sqlite3_next_stmt(handle, current)
        }
        return Int(steps)
    }
}

/// The Swift closure behind the C progress handler's context pointer.
private final class ProgressHandlerBox {
    let handler: () -> Void
    init(_ handler: @escaping () -> Void) { self.handler = handler }
}
