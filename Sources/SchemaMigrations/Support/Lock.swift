#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A mutual-exclusion lock over a `pthread_mutex_t`: what `NSLock` gives, without loading
/// Foundation (the library and the command need only `FoundationEssentials`).
///
/// ```swift
/// let lock = Lock()
/// lock.withLock { counter += 1 }
/// ```
///
/// It is `Sendable` because every access to the mutex goes through `pthread_mutex_lock` and
/// `pthread_mutex_unlock`, which are safe from any thread; the mutex lives at a fixed address.
package final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }

    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` holding the lock.
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
