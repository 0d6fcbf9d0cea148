import Foundation
import Testing

@testable import DqliteClient

/// `dump(writingTo:)` against a scripted node: the files arrive a few bytes at a time, words
/// split across reads, and leave disk byte for byte as sent; an answer cut short, one whose sizes
/// lie, a failure and an unwritable path are errors that leave nothing behind.
@Suite struct DumpStreamingTests {
    typealias Node = ScriptedNode

    static let database = (0..<1003).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    static let wal = (0..<77).map { UInt8(truncatingIfNeeded: $0 &* 13) }

    /// A folder of its own, removed afterwards, and the database path in it.
    static func withFolder(_ body: (String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dump-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder.appendingPathComponent("copy.sqlite").path)
    }

    static func contents(_ path: String) -> [UInt8]? { FileManager.default.contents(atPath: path).map { Array($0) } }

    static func client(_ node: Node) throws -> DqliteClient {
        try DqliteClient(nodes: [node.address], database: "scripted")
    }

    @Test(arguments: [1, 3, 8, 4096])
    func theFilesArriveInPiecesAndLeaveDiskByteForByte(piece: Int) throws {
        let node = try Node(
            dumpAnswer: Node.files([("scripted", Self.database), ("scripted-wal", Self.wal)]), piece: piece)
        let client = try Self.client(node)
        try Self.withFolder { path in
            for stale in ["-shm", "-journal"] {
                _ = FileManager.default.createFile(atPath: path + stale, contents: Data([1]))
            }
            let sizes = try client.dump(writingTo: path)
            #expect(sizes == DqliteDumpSizes(database: 1003, wal: 77))
            #expect(Self.contents(path) == Self.database)
            #expect(Self.contents(path + "-wal") == Self.wal)
            // What SQLite would read with the new file is gone.
            #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
            #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
        }
        #expect(try client.dump() == DqliteDump(database: Self.database, wal: Self.wal))
    }

    @Test func anEmptyLogWritesNoLogFileAndRemovesAStaleOne() throws {
        let node = try Node(dumpAnswer: Node.files([("scripted", Self.database), ("scripted-wal", [])]), piece: 5)
        try Self.withFolder { path in
            _ = FileManager.default.createFile(atPath: path + "-wal", contents: Data(Self.wal))
            let sizes = try Self.client(node).dump(writingTo: path)
            #expect(sizes == DqliteDumpSizes(database: 1003, wal: 0))
            #expect(Self.contents(path) == Self.database)
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        }
    }

    @Test func anAnswerCutShortIsALostConnectionAndLeavesNothing() throws {
        let whole = Node.files([("scripted", Self.database), ("scripted-wal", Self.wal)])
        let node = try Node(dumpAnswer: Array(whole.prefix(whole.count - 40)), piece: 64)
        try Self.withFolder { path in
            let error = try #require(throws: DqliteError.self) { try Self.client(node).dump(writingTo: path) }
            #expect(error.code == .connectionClosed)
            #expect(!FileManager.default.fileExists(atPath: path))
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        }
    }

    @Test func aFileLargerThanTheMessageIsAProtocolErrorAndLeavesNothing() throws {
        let node = try Node(
            dumpAnswer: Node.files(
                [("scripted", Self.database), ("scripted-wal", Self.wal)], announcing: [1: 1 << 40]),
            piece: 100)
        try Self.withFolder { path in
            let error = try #require(throws: DqliteError.self) { try Self.client(node).dump(writingTo: path) }
            #expect(error.code == .protocolError)
            #expect(error.message.hasPrefix("malformed DUMP response: file scripted-wal of 1099511627776 bytes"))
            #expect(!FileManager.default.fileExists(atPath: path))
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        }
    }

    @Test func aFailureAnswerIsTheNodesErrorAndLeavesNothing() throws {
        let failure = Node.message(type: 0, body: Node.word64(1) + Node.text("no such database"))
        let node = try Node(dumpAnswer: failure, piece: 3)
        try Self.withFolder { path in
            let error = try #require(throws: DqliteError.self) { try Self.client(node).dump(writingTo: path) }
            #expect(error.sqliteCode == 1)
            #expect(error.message == "no such database")
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test func aPathThatCannotBeWrittenIsALocalFileErrorNamingIt() throws {
        let node = try Node(dumpAnswer: Node.files([("scripted", Self.database)]), piece: 512)
        let path = "/nonexistent-\(UUID().uuidString)/copy.sqlite"
        let error = try #require(throws: DqliteError.self) { try Self.client(node).dump(writingTo: path) }
        #expect(error.code == .localFile)
        #expect(error.message == "cannot create \(path): No such file or directory")
    }

    @Test(arguments: ["it's \"[a]*?.sqlite", "-leading dash", "naïve 数据.db", "copy.sqlite-wal"])
    func aNameWithQuotesGlobsAndUnicodeIsWrittenAsGiven(name: String) throws {
        let node = try Node(
            dumpAnswer: Node.files([("scripted", Self.database), ("scripted-wal", Self.wal)]), piece: 700)
        try Self.withFolder { copy in
            let path = (copy as NSString).deletingLastPathComponent + "/" + name
            try Self.client(node).dump(writingTo: path)
            #expect(Self.contents(path) == Self.database)
            #expect(Self.contents(path + "-wal") == Self.wal)
            let folder = (copy as NSString).deletingLastPathComponent
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [name, name + "-wal"].sorted())
        }
    }

    @Test func anEmptyPathOrAFolderIsALocalFileErrorAndTheFolderStays() throws {
        let node = try Node(dumpAnswer: Node.files([("scripted", Self.database)]), piece: 512)
        let empty = try #require(throws: DqliteError.self) { try Self.client(node).dump(writingTo: "") }
        #expect(empty.code == .localFile)
        #expect(empty.message == "cannot create : No such file or directory")
        try Self.withFolder { path in
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            let folder = try #require(throws: DqliteError.self) { try Self.client(node).dump(writingTo: path) }
            #expect(folder.code == .localFile)
            #expect(folder.message == "cannot create \(path): Is a directory")
            var isDirectory: ObjCBool = false
            #expect(FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue)
        }
    }

    /// Eight MiB pass through the socket's 64 KiB buffer: the sink is never handed more at once.
    @Test func aLargeDatabaseReachesTheSinkInPiecesOfAtMost64KiB() throws {
        let database = (0..<(8 << 20)).map { UInt8(truncatingIfNeeded: $0 >> 7 &+ $0) }
        let node = try Node(dumpAnswer: Node.files([("scripted", database), ("scripted-wal", [])]), piece: 1 << 20)
        struct Recorder: DumpSink {
            var largestPiece = 0
            var received: [UInt8] = []
            mutating func begin(file index: Int, size: Int) throws {}
            mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
                largestPiece = max(largestPiece, bytes.count)
                received += bytes
            }
        }
        var recorder = Recorder()
        let connection = try NodeConnection(
            address: node.address, connectTimeout: .seconds(5), requestTimeout: .seconds(30))
        defer { connection.close() }
        try connection.dump("scripted", into: &recorder)
        #expect(recorder.received == database)
        #expect(recorder.largestPiece <= 64 * 1024)
    }
}
