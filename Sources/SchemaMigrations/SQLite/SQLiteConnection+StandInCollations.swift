import CSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The collations a read-only connection met and did not have: for each, a stand-in that orders
/// bytes as `BINARY` does was registered on first use, so that reading a file's schema and
/// sampling its values (which never depend on the order) works without the application's own.
final class StandInCollations: @unchecked Sendable {
    private let lock = Lock()
    private var found: [String] = []

    /// The collations stood in for, in the order met.
    var names: [String] { lock.withLock { found } }

    fileprivate func record(_ name: String) { lock.withLock { if !found.contains(name) { found.append(name) } } }
}

extension SQLiteConnection {
    /// From now on, a collation a statement names that the connection lacks is registered as a
    /// stand-in comparing bytes (``StandInCollations``), and recorded. Only for connections that
    /// read a schema and sample values: anything that evaluates or writes must refuse instead.
    /// - Returns: the record; keep it alive as long as the connection.
    func standInForMissingCollations() -> StandInCollations {
        let record = StandInCollations()
        sqlite3_collation_needed(handle, Unmanaged.passUnretained(record).toOpaque()) { context, db, _, name in
            guard let context, let db, let name else { return }
            Unmanaged<StandInCollations>.fromOpaque(context).takeUnretainedValue().record(String(cString: name))
            sqlite3_create_collation_v2(db, name, SQLITE_UTF8, nil, compareBytes, nil)
        }
        return record
    }
}

/// `BINARY`'s order: bytes compared, then lengths.
private func compareBytes(
    _: UnsafeMutableRawPointer?, _ leftCount: Int32, _ left: UnsafeRawPointer?, _ rightCount: Int32,
    _ right: UnsafeRawPointer?
) -> Int32 {
    let shared = Int(min(leftCount, rightCount))
    if shared > 0, let left, let right {
        let order = memcmp(left, right, shared)
        if order != 0 { return order }
    }
    return leftCount < rightCount ? -1 : leftCount > rightCount ? 1 : 0
}
