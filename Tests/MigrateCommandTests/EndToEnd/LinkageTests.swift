import Foundation
import Testing

/// The `migrate` executable on Linux loads `FoundationEssentials` only: not the whole of
/// Foundation, ICU, nor Dispatch, which cost start-up time and memory on every deploy.
@Suite struct LinkageTests {
    /// The shared libraries an ELF executable names (its `DT_NEEDED` entries), read from the
    /// file itself: no `readelf` needed.
    static func neededLibraries(of path: String) throws -> [String] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // 64-bit ELF
        guard bytes.count > 64, bytes[0...3] == [0x7F, 0x45, 0x4C, 0x46], bytes[4] == 2 else { return [] }
        func read<T: FixedWidthInteger>(_ offset: Int, as: T.Type) -> T {
            var value: T = 0
            // little-endian
            for index in (0..<MemoryLayout<T>.size).reversed() { value = value << 8 | T(bytes[offset + index]) }
            return value
        }
        let sectionHeaders = Int(read(0x28, as: UInt64.self))
        let entrySize = Int(read(0x3A, as: UInt16.self))
        let count = Int(read(0x3C, as: UInt16.self))
        var dynamic: (offset: Int, size: Int, link: Int)?
        var sections: [(offset: Int, size: Int)] = []
        for index in 0..<count {
            let header = sectionHeaders + index * entrySize
            let type = read(header + 4, as: UInt32.self)
            sections.append((Int(read(header + 0x18, as: UInt64.self)), Int(read(header + 0x20, as: UInt64.self))))
            if type == 6 {
                dynamic = (
                    Int(read(header + 0x18, as: UInt64.self)), Int(read(header + 0x20, as: UInt64.self)),
                    Int(read(header + 0x28, as: UInt32.self))
                )
            }
        }
        guard let dynamic else { return [] }
        let strings = sections[dynamic.link]
        var names: [String] = []
        for entry in stride(from: dynamic.offset, to: dynamic.offset + dynamic.size, by: 16) {
            let tag = read(entry, as: UInt64.self)
            if tag == 0 { break }
            guard tag == 1 else { continue }  // DT_NEEDED
            let start = strings.offset + Int(read(entry + 8, as: UInt64.self))
            let end = bytes[start...].firstIndex(of: 0) ?? start
            names.append(String(decoding: bytes[start..<end], as: UTF8.self))
        }
        return names
    }

    @Test func migrateLoadsFoundationEssentialsOnlyNotFoundationICUOrDispatch() throws {
        #if os(Linux)
            let needed = try Self.neededLibraries(of: BuiltCommand.path(of: "migrate"))
            #expect(needed.contains("libsqlite3.so.0"), "the reader found \(needed)")
            #expect(needed.contains("libFoundationEssentials.so"), "\(needed)")
            for forbidden in [
                "libFoundation.so", "lib_FoundationICU.so", "libFoundationInternationalization.so", "libdispatch.so",
            ] {
                #expect(!needed.contains(forbidden), "migrate links \(forbidden): \(needed)")
            }
        #endif
    }
}
