import Foundation
import Testing

@testable import SchemaMigrations

/// The strict JSON subset the plan and snapshot readers take without `Codable`, and the file
/// reading they use instead of `FileManager`.
@Suite struct StrictJSONTests {
    static func parse(_ text: String) -> StrictJSON? { StrictJSON.parse(Array(text.utf8)) }

    @Test func theSubsetIsRead() throws {
        let document = try #require(
            Self.parse(
                " {\"a\": [1, -2, 0, true, false, null, \"x\\\"y\\\\z\\/\\b\\f\\n\\r\\t\"], \"b\": {}, \"c\": []}\n"))
        #expect(
            document
                == .object([
                    (
                        "a",
                        .array([
                            .integer(1), .integer(-2), .integer(0), .bool(true), .bool(false), .null,
                            .string("x\"y\\z/\u{08}\u{0C}\n\r\t"),
                        ])
                    ),
                    ("b", .object([])), ("c", .array([])),
                ]))
        #expect(document.member("b") == .object([]) && document.member("d") == nil)
        #expect(Self.parse("\"é 😀\"") == .string("é 😀"))
        #expect(Self.parse("9223372036854775807") == .integer(.max))
        #expect(Self.parse("-9223372036854775808") == .integer(.min))
    }

    @Test func whatIsOutsideTheSubsetIsNil() {
        let outside = [
            "", " ", "{", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a: 1}", "[1 2]", "01", "-", "1.5", "1e3", "1E3",
            "9223372036854775808", "-9223372036854775809", "\"\\u0041\"", "\"\\x\"", "\"a\u{01}\"", "\"abc",
            "{\"a\": 1, \"a\": 2}", "tru", "nul", "[] []", "\u{FEFF}[]",
            String(repeating: "[", count: StrictJSON.maximumDepth + 1)
                + String(repeating: "]", count: StrictJSON.maximumDepth + 1),
        ]
        for text in outside { #expect(Self.parse(text) == nil, "\(text)") }
        #expect(StrictJSON.parse([0x22, 0xC3, 0x22]) == nil, "a truncated UTF-8 sequence")
        #expect(StrictJSON.parse([0x22, 0xED, 0xA0, 0x80, 0x22]) == nil, "a surrogate encoded in UTF-8")
        #expect(StrictJSON.parse([0x22, 0xC0, 0xAF, 0x22]) == nil, "an overlong form")
        #expect(StrictJSON.parse([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22]) == nil, "above U+10FFFF")
        #expect(StrictJSON.parse([0x22, 0xF4, 0x8F, 0xBF, 0xBF, 0x22]) == .string("\u{10FFFF}"))
    }

    @Test func objectsAreReadAsDecodableTypesReadThem() throws {
        let json = try #require(Self.parse(#"{"name": "a", "flag": true, "list": ["x"], "none": null}"#))
        let object = try StrictObject(json, keys: ["name", "flag", "list", "none", "absent"])
        #expect(try object.required("name", \.string) == "a")
        #expect(try object.optional("flag", \.bool) == true)
        #expect(try object.optional("absent", \.bool) == nil)
        #expect(try object.optional("list", \.strings) == ["x"])
        #expect(throws: StrictObject.OutsideSubset.self) { try object.optional("none", \.string) }
        #expect(throws: StrictObject.OutsideSubset.self) { try object.required("absent", \.string) }
        #expect(throws: StrictObject.OutsideSubset.self) { try object.required("flag", \.string) }
        #expect(throws: StrictObject.OutsideSubset.self) { try StrictObject(json, keys: ["name"]) }
    }

    /// `SystemCalls.contents(atPath:)` says what `FileManager.default.contents(atPath:)` says.
    @Test func filesAreReadAsFileManagerReadsThem() throws {
        let scratch = TemporaryDatabase()
        let directory = scratch.directory
        let empty = directory.appendingPathComponent("empty").path
        let large = directory.appendingPathComponent("large").path
        try Data().write(to: URL(fileURLWithPath: empty))
        try Data((0..<300_000).map { UInt8($0 % 251) }).write(to: URL(fileURLWithPath: large))
        for path in [
            empty, large, directory.path, directory.appendingPathComponent("missing").path, "", "/proc/self/cmdline",
        ] {
            #expect(SystemCalls.contents(atPath: path) == FileManager.default.contents(atPath: path), "\(path)")
        }
        #expect(SystemCalls.contents(atPath: large)?.count == 300_000)
    }
}
