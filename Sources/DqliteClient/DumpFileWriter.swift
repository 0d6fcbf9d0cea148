#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A DUMP written to disk as it arrives: the database to `path`, its write-ahead log (when the
/// node has one) to `path-wal`, the names SQLite opens as one database.
struct DumpFileWriter: DumpSink {
    let path: String
    private(set) var sizes = DqliteDumpSizes(database: 0, wal: 0)
    private var descriptor: Int32 = -1
    private var current = ""

    /// Creates the database file at `path`, empty until the first file arrives: a DUMP with no
    /// files is an empty database.
    init(path: String) throws {
        self.path = path
        try create(path)
    }

    mutating func begin(file index: Int, size: Int) throws {
        switch index {
        case 0:
            sizes.database = size
        case 1 where size > 0:
            try finish()
            sizes.wal = size
            try create(path + "-wal")
        default:
            try finish()  // an empty log, or a file dqlite does not send today: not written
        }
    }

    mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard descriptor >= 0 else { return }
        var offset = 0
        while offset < bytes.count {
            #if canImport(Glibc)
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            #else
                let written = Darwin.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            #endif
            if written > 0 {
                offset += written
            } else if written == 0 || errno != EINTR {
                throw failure("cannot write")
            }
        }
    }

    /// Closes the file being written; a failure to close (a full disk reported late) is thrown.
    mutating func finish() throws {
        guard descriptor >= 0 else { return }
        defer { descriptor = -1 }
        #if canImport(Glibc)
            let closed = Glibc.close(descriptor)
        #else
            let closed = Darwin.close(descriptor)
        #endif
        guard closed == 0 else { throw failure("cannot write") }
    }

    private mutating func create(_ file: String) throws {
        current = file
        descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw failure("cannot create") }
    }

    private func failure(_ what: String) -> DqliteError {
        DqliteError(code: .localFile, message: "\(what) \(current): \(String(cString: strerror(errno)))")
    }
}
