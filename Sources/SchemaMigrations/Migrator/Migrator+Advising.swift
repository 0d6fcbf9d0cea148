#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Migrator {
    /// Runs `body`, giving any `MigrationError` it throws a remedy for the database at `url` (``MigrationError/advised(path:)``).
    func advising<T>(_ url: URL, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as MigrationError {
            throw error.advised(path: url.path)
        }
    }
}
