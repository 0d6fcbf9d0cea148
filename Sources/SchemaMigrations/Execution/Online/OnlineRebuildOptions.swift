#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How a migration runs its table rebuilds online: the application keeps reading and writing the
/// table, and waits only for short moments, never for the table's size.
///
/// ```swift
/// var options = MigrationOptions()
/// options.online = OnlineRebuildOptions(chunkTargetMilliseconds: 6)
/// options.online?.shouldPause = { FileManager.default.fileExists(atPath: "/run/app/pause-migration") }
/// try Migrator(plan: TripsMigrationPlan.self, options: options).migrate(databaseAt: url)
/// ```
///
/// Each rebuilt table gets a shadow table with the target definition, kept in step with the
/// application's writes by triggers, filled in rowid order one short transaction per chunk, and
/// swapped in by one short cut-over transaction. What cannot run that way runs offline or is
/// refused: see "Online rebuilds" in MIGRATIONS.md.
///
/// Related SQLite documentation: <https://www.sqlite.org/lang_altertable.html#otheralter>
public struct OnlineRebuildOptions: Sendable {
    /// How long one chunk's transaction should hold the write lock, in milliseconds. The chunk
    /// size adapts to the machine after every chunk to stay near it. Must be finite and above 0;
    /// values above 10,000 are treated as 10,000.
    ///
    /// An application writer that finds the lock taken waits for the chunk and then for its busy
    /// handler's next retry; SQLite's default handler retries 1, 3, 8, 18 and 33 ms after the first
    /// try. The default, 6 ms, lets such a writer in by its third retry, at 8 ms, with 2 ms to
    /// spare for a chunk that runs over its target: no write waits much more than 8 ms for the
    /// copy. A target of 8 ms or more lets a writer miss that retry and wait for the next, at 18 ms.
    public var chunkTargetMilliseconds: Double
    /// Asked between chunks (no lock is held): while it returns true the copy waits, holding
    /// nothing, and reports ``MigrationProgress/Activity/paused`` about once a second. A pause
    /// that never ends never ends the migration either: the database stays at its old version,
    /// fully usable, with the change in progress.
    public var shouldPause: (@Sendable () -> Bool)?
    /// Extra seconds to wait after every chunk, beyond the adaptive sizing (a throttle); 0 by default.
    public var pauseBetweenChunks: TimeInterval

    /// - Parameters:
    ///   - chunkTargetMilliseconds: the write lock each chunk may hold; 6 ms by default.
    ///   - shouldPause: asked between chunks; true pauses the copy.
    ///   - pauseBetweenChunks: seconds to rest after each chunk.
    public init(
        chunkTargetMilliseconds: Double = 6, shouldPause: (@Sendable () -> Bool)? = nil,
        pauseBetweenChunks: TimeInterval = 0
    ) {
        self.chunkTargetMilliseconds = chunkTargetMilliseconds
        self.shouldPause = shouldPause
        self.pauseBetweenChunks = pauseBetweenChunks
    }

    /// The largest chunk target honoured, in milliseconds.
    static let maximumChunkTarget = 10_000.0

    /// The target in seconds, or the refusal for a value that cannot be one.
    func validatedTarget() throws -> TimeInterval {
        guard chunkTargetMilliseconds.isFinite, chunkTargetMilliseconds > 0 else {
            throw MigrationError(
                .invalidOption,
                "the online chunk target must be a number of milliseconds above 0, not \(chunkTargetMilliseconds); nothing was done",
                remedy: "pass a target such as 20 (milliseconds each chunk may hold the write lock)")
        }
        guard pauseBetweenChunks.isFinite, pauseBetweenChunks >= 0 else {
            throw MigrationError(
                .invalidOption,
                "the pause between online chunks must be a finite number of seconds, 0 or more, not \(pauseBetweenChunks); nothing was done",
                remedy: "pass 0 for no pause")
        }
        return min(chunkTargetMilliseconds, Self.maximumChunkTarget) / 1000
    }
}
