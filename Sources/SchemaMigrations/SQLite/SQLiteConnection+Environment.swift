import CSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension SQLiteConnection {
    /// Opens the database at `path` and gives it the application's ``SQLEnvironment``; the handle
    /// is closed when the environment cannot be applied.
    /// - Throws: `SQLiteError` when the file cannot be opened; `MigrationError` (`sqlEnvironment`)
    ///   naming the extension, collation or function that could not be added.
    package convenience init(
        path: String, mode: OpenMode = .readWriteCreate, busyTimeout: TimeInterval = 5, vfs: String? = nil,
        environment: SQLEnvironment
    ) throws {
        try self.init(path: path, mode: mode, busyTimeout: busyTimeout, vfs: vfs)
        try apply(environment)
    }

    /// Registers the environment's collations and functions, loads its extensions, then runs its
    /// hook. Nothing is done for an empty environment.
    /// - Throws: `MigrationError` with code `sqlEnvironment`, naming what could not be added.
    package func apply(_ environment: SQLEnvironment) throws {
        guard !environment.isEmpty else { return }
        for collation in environment.collations {
            let box = Unmanaged.passRetained(CollationBox(collation.compare)).toOpaque()
            let code = sqlite3_create_collation_v2(
                handle, collation.name, SQLITE_UTF8, box, collationCompare, releaseBox)
            if code != SQLITE_OK {
                throw environmentError("cannot register the collation '\(collation.name)'", code: code)
            }
        }
        for function in environment.functions {
            let box = Unmanaged.passRetained(FunctionBox(function.body)).toOpaque()
            let flags = SQLITE_UTF8 | (function.isDeterministic ? SQLITE_DETERMINISTIC : 0)
            let code = sqlite3_create_function_v2(
                handle, function.name, Int32(function.argumentCount ?? -1), flags, box,
                functionCall, nil, nil, releaseBox)
            if code != SQLITE_OK {
                throw environmentError("cannot register the function '\(function.name)'", code: code)
            }
        }
        for aggregate in environment.aggregates {
            let box = Unmanaged.passRetained(AggregateBox(aggregate.body)).toOpaque()
            let flags = SQLITE_UTF8 | (aggregate.isDeterministic ? SQLITE_DETERMINISTIC : 0)
            let code = sqlite3_create_function_v2(
                handle, aggregate.name, Int32(aggregate.argumentCount ?? -1), flags, box, nil, aggregateStep,
                aggregateFinal, releaseBox)
            if code != SQLITE_OK {
                throw environmentError("cannot register the aggregate function '\(aggregate.name)'", code: code)
            }
        }
        for library in environment.extensions {
            var message: UnsafeMutablePointer<CChar>?
            let code = schemamigrations_load_extension(handle, library.path, library.entryPoint, &message)
            if code != SQLITE_OK {
                let text = message.map { String(cString: $0) } ?? SQLiteResultCode(rawValue: code).description
                sqlite3_free(message)
                throw MigrationError(
                    .sqlEnvironment, "cannot load the SQLite extension '\(library.description)': \(text)",
                    remedy:
                        "check the extension's path (and its entry point, PATH:ENTRY); it must be built for this SQLite and this platform",
                    sqliteError: SQLiteError(extendedCode: code, message: text))
            }
        }
        if let prepare = environment.prepareConnection {
            do {
                try prepare(handle)
            } catch {
                throw MigrationError(
                    .sqlEnvironment, "the prepareConnection hook of the SQL environment threw on '\(path)'",
                    remedy: "fix the hook: it runs on every connection the migrator opens", underlyingError: error)
            }
        }
    }

    private func environmentError(_ message: String, code: Int32) -> MigrationError {
        let error = lastError(code: code, sql: nil)
        return MigrationError(
            .sqlEnvironment, "\(message): \(error.message)", remedy: "check the name and the argument count",
            sqliteError: error)
    }

    /// Registers a placeholder for a function or collation this connection lacks, so that a
    /// statement naming it compiles and the probe can look past it (``MigrationDatabase/compileStandingIn(_:)``).
    /// A stand-in function returns NULL and a stand-in collation compares bytes; nothing runs with them.
    func registerStandIn(_ need: SQLEnvironmentNeed) -> Bool {
        switch need.kind {
        case .function:
            return sqlite3_create_function_v2(handle, need.name, -1, SQLITE_UTF8, nil, standInFunction, nil, nil, nil)
                == SQLITE_OK
        case .collation:
            return sqlite3_create_collation_v2(handle, need.name, SQLITE_UTF8, nil, standInCompare, nil) == SQLITE_OK
        case .module:
            return false
        }
    }

    /// Removes a stand-in: the connection is again as its environment made it.
    func removeStandIn(_ need: SQLEnvironmentNeed) {
        switch need.kind {
        case .function: sqlite3_create_function_v2(handle, need.name, -1, SQLITE_UTF8, nil, nil, nil, nil, nil)
        case .collation: sqlite3_create_collation_v2(handle, need.name, SQLITE_UTF8, nil, nil, nil)
        case .module: break
        }
    }
}

/// A collation's Swift comparison, owned by SQLite through the context pointer.
private final class CollationBox {
    let compare: @Sendable (String, String) -> ComparisonResult
    init(_ compare: @escaping @Sendable (String, String) -> ComparisonResult) { self.compare = compare }
}

/// A function's Swift body, owned by SQLite through the context pointer.
private final class FunctionBox {
    let body: @Sendable ([SQLiteValue]) throws -> SQLiteValue
    init(_ body: @escaping @Sendable ([SQLiteValue]) throws -> SQLiteValue) { self.body = body }
}

/// An aggregate's Swift body, owned by SQLite through the context pointer.
private final class AggregateBox {
    let body: @Sendable ([[SQLiteValue]]) throws -> SQLiteValue
    init(_ body: @escaping @Sendable ([[SQLiteValue]]) throws -> SQLiteValue) { self.body = body }
}

/// One group's rows so far: SQLite's aggregate context holds a retained pointer to it from the
/// group's first row until its final call releases it.
private final class AggregateRows {
    var rows: [[SQLiteValue]] = []
}

/// The group's slot in SQLite's aggregate context (zeroed memory SQLite frees after the final
/// call): nil before the first row; `allocate` false only looks.
private func aggregateSlot(_ context: OpaquePointer, allocate: Bool) -> UnsafeMutablePointer<UnsafeMutableRawPointer?>?
{
    sqlite3_aggregate_context(context, allocate ? Int32(MemoryLayout<UnsafeMutableRawPointer?>.size) : 0)?
        .assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
}

private let aggregateStep: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, count, arguments in
    guard let context else { return }
    guard let slot = aggregateSlot(context, allocate: true) else {
        sqlite3_result_error_nomem(context)
        return
    }
    if slot.pointee == nil { slot.pointee = Unmanaged.passRetained(AggregateRows()).toOpaque() }
    let rows = Unmanaged<AggregateRows>.fromOpaque(slot.pointee!).takeUnretainedValue()
    rows.rows.append((0..<Int(count)).map { SQLiteValue(reading: arguments?[$0]) })
}

private let aggregateFinal: @convention(c) (OpaquePointer?) -> Void = { context in
    guard let context,
        let box = sqlite3_user_data(context).map({ Unmanaged<AggregateBox>.fromOpaque($0).takeUnretainedValue() })
    else { return }
    var rows: [[SQLiteValue]] = []
    if let slot = aggregateSlot(context, allocate: false), let stored = slot.pointee {
        rows = Unmanaged<AggregateRows>.fromOpaque(stored).takeRetainedValue().rows
        slot.pointee = nil
    }
    do {
        setResult(try box.body(rows), of: context)
    } catch {
        sqlite3_result_error(context, "\(error)", -1)
    }
}

/// SQLite's destructor for a box: releases the reference `passRetained` took.
private let releaseBox: @convention(c) (UnsafeMutableRawPointer?) -> Void = { pointer in
    if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
}

private let collationCompare:
    @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeRawPointer?, Int32, UnsafeRawPointer?) -> Int32 = {
        context, leftCount, left, rightCount, right in
        guard let context else { return 0 }
        let box = Unmanaged<CollationBox>.fromOpaque(context).takeUnretainedValue()
        func text(_ pointer: UnsafeRawPointer?, _ count: Int32) -> String {
            guard let pointer, count > 0 else { return "" }
            return String(decoding: UnsafeRawBufferPointer(start: pointer, count: Int(count)), as: UTF8.self)
        }
        switch box.compare(text(left, leftCount), text(right, rightCount)) {
        case .orderedAscending: return -1
        case .orderedSame: return 0
        case .orderedDescending: return 1
        }
    }

private let functionCall: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, count, arguments in
    guard let context,
        let box = sqlite3_user_data(context).map({ Unmanaged<FunctionBox>.fromOpaque($0).takeUnretainedValue() })
    else { return }
    let values = (0..<Int(count)).map { SQLiteValue(reading: arguments?[$0]) }
    do {
        setResult(try box.body(values), of: context)
    } catch {
        sqlite3_result_error(context, "\(error)", -1)
    }
}

/// Gives a function call's context the value `value` as its result.
private func setResult(_ value: SQLiteValue, of context: OpaquePointer) {
    switch value {
    case .null: sqlite3_result_null(context)
    case .integer(let value): sqlite3_result_int64(context, value)
    case .real(let value): sqlite3_result_double(context, value)
    case .text(var value):
        value.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { text in
                if let base = text.baseAddress {
                    sqlite3_result_text(context, base, Int32(text.count), schemamigrations_sqlite_transient())
                } else {
                    sqlite3_result_text(context, "", 0, schemamigrations_sqlite_transient())
                }
            }
        }
    case .blob(let bytes):
        bytes.withUnsafeBytes {
            sqlite3_result_blob(
                context, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count),
                schemamigrations_sqlite_transient())
        }
    }
}

private let standInFunction: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, _, _ in
    sqlite3_result_null(context)
}

private let standInCompare:
    @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeRawPointer?, Int32, UnsafeRawPointer?) -> Int32 = {
        _, leftCount, left, rightCount, right in
        let shared = Int(min(leftCount, rightCount))
        if shared > 0, let left, let right {
            let order = memcmp(left, right, shared)
            if order != 0 { return order }
        }
        return leftCount - rightCount
    }

extension SQLiteValue {
    /// A function argument's value.
    init(reading value: OpaquePointer?) {
        guard let value else {
            self = .null
            return
        }
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: self = .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT: self = .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
            guard let text = sqlite3_value_text(value) else {
                self = .text("")
                return
            }
            self = .text(
                String(
                    decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(value))
            guard count > 0, let pointer = sqlite3_value_blob(value) else {
                self = .blob([])
                return
            }
            self = .blob(Array(UnsafeRawBufferPointer(start: pointer, count: count)))
        default: self = .null
        }
    }
}
