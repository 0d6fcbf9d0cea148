/// Where the files of a DUMP go as their bytes arrive (``DumpStream``): the first file is the
/// database, the second its write-ahead log.
protocol DumpSink {
    /// A file starts: `size` bytes follow, given to ``write(_:)`` in pieces.
    mutating func begin(file index: Int, size: Int) throws
    /// The next piece of the current file.
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws
}

/// A DUMP gathered in memory, as ``DqliteDump``.
struct InMemoryDump: DumpSink {
    private var files: [[UInt8]] = []

    var dump: DqliteDump { DqliteDump(database: files.first ?? [], wal: files.dropFirst().first ?? []) }

    mutating func begin(file index: Int, size: Int) throws {
        files.append([])
        files[files.count - 1].reserveCapacity(size)
    }

    mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        files[files.count - 1].append(contentsOf: bytes)
    }
}
