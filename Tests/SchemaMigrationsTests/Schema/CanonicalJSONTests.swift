import Foundation
import Testing

@testable import SchemaMigrations

@Suite struct CanonicalJSONTests {
    // MARK: Fixtures

    enum Kind: String, Codable, Equatable { case table, index }

    struct Column: Codable, Equatable {
        var name: String
        var type: String
        var nullable: Bool
        var defaultValue: String?
    }

    struct Table: Codable, Equatable {
        var name: String
        var kind: Kind
        var columns: [Column]
        var options: [String: Int]
        var ratio: Double
        var checksum: UInt64
        var tags: [String]?
        var nested: [[Int]]
    }

    static let table = Table(
        name: "trips", kind: .table,
        columns: [
            Column(name: "id", type: "INTEGER", nullable: false, defaultValue: nil),
            Column(name: "note", type: "TEXT", nullable: true, defaultValue: "'\"hi\"\n'"),
        ],
        options: ["strict": 1, "WITHOUT_ROWID": 0], ratio: 0.25, checksum: .max, tags: nil, nested: [[1, 2], []]
    )

    /// Writes `null` explicitly instead of omitting nil.
    struct ExplicitNull: Encodable {
        var value: Int?
        enum CodingKeys: String, CodingKey { case value }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(value, forKey: .value)
        }
    }

    // MARK: Objects

    @Test func keysAreSortedByUTF16CodeUnits() throws {
        let value = ["b": 1, "a": 2, "B": 3, "é": 4, "aa": 5, "A": 6, "\u{FF61}": 7, "😀": 8, "": 9]
        // "😀" is U+D83D U+DE00 in UTF-16, so it sorts before U+FF61 (scalar order would not).
        #expect(
            try CanonicalJSON.encode(value)
                == #"{"":9,"A":6,"B":3,"a":2,"aa":5,"b":1,"é":4,"😀":8,"｡":7}"#)
    }

    @Test func nestedStructsArraysAndDictionaries() throws {
        #expect(
            try CanonicalJSON.encode(Self.table) == #"{"checksum":18446744073709551615,"#
                + #""columns":[{"name":"id","nullable":false,"type":"INTEGER"},"#
                + #"{"defaultValue":"'\"hi\"\n'","name":"note","nullable":true,"type":"TEXT"}],"#
                + #""kind":"table","name":"trips","nested":[[1,2],[]],"#
                + #""options":{"WITHOUT_ROWID":0,"strict":1},"ratio":0.25}"#)
    }

    @Test func nilIsOmittedButExplicitNilIsNull() throws {
        #expect(try CanonicalJSON.encode(Self.table.columns[0]) == #"{"name":"id","nullable":false,"type":"INTEGER"}"#)
        #expect(try CanonicalJSON.encode(ExplicitNull(value: nil)) == #"{"value":null}"#)
        #expect(try CanonicalJSON.encode(ExplicitNull(value: 3)) == #"{"value":3}"#)
        #expect(try CanonicalJSON.encode([1, nil, 3] as [Int?]) == "[1,null,3]")
        #expect(try CanonicalJSON.encode(Int?.none) == "null")
    }

    @Test func integerKeyedDictionariesUseStringKeys() throws {
        #expect(try CanonicalJSON.encode([10: "ten", 2: "two", 1: "one"]) == #"{"1":"one","10":"ten","2":"two"}"#)
    }

    @Test func determinismRegardlessOfInsertionOrder() throws {
        let keys = (0..<50).map { "key\($0)" }
        var forward: [String: Int] = [:]
        for (index, key) in keys.enumerated() { forward[key] = index }
        var backward: [String: Int] = [:]
        for (index, key) in keys.enumerated().reversed() { backward[key] = index }
        var shuffled: [String: Int] = [:]
        for index in keys.indices.shuffled() { shuffled[keys[index]] = index }

        let expected = try CanonicalJSON.encode(forward)
        #expect(try CanonicalJSON.encode(backward) == expected)
        #expect(try CanonicalJSON.encode(shuffled) == expected)
        #expect(try CanonicalJSON.data(backward) == Data(expected.utf8))
        #expect(expected.hasPrefix(#"{"key0":0,"key1":1,"key10":10,"key11":11,"#))
    }

    // MARK: Strings

    @Test(arguments: [
        ("\"", #""\"""#), ("\\", #""\\""#), ("\u{08}", #""\b""#), ("\u{0C}", #""\f""#),
        ("\n", #""\n""#), ("\r", #""\r""#), ("\t", #""\t""#),
        ("\u{01}", #""\u0001""#), ("\u{00}", #""\u0000""#), ("\u{1F}", #""\u001f""#),
        ("/", #""/""#), ("\u{7F}", "\"\u{7F}\""), ("a\u{0B}b", #""a\u000bb""#),
    ])
    func escaping(input: String, expected: String) throws {
        #expect(try CanonicalJSON.encode(input) == expected)
    }

    @Test func nonASCIIIsWrittenRaw() throws {
        #expect(try CanonicalJSON.encode("héllo wörld 日本語 😀 \u{2028}") == "\"héllo wörld 日本語 😀 \u{2028}\"")
        #expect(try CanonicalJSON.data("é") == Data([0x22, 0xC3, 0xA9, 0x22]))
    }

    // MARK: Numbers

    @Test func integers() throws {
        #expect(try CanonicalJSON.encode(Int64.min) == "-9223372036854775808")
        #expect(try CanonicalJSON.encode(UInt64.max) == "18446744073709551615")
        #expect(try CanonicalJSON.encode([Int8.min, 0, 127] as [Int8]) == "[-128,0,127]")
        #expect(try CanonicalJSON.encode([UInt8.max]) == "[255]")
        #expect(try CanonicalJSON.encode(Int16(-300)) == "-300")
        #expect(try CanonicalJSON.encode(UInt32.max) == "4294967295")
        #expect(try CanonicalJSON.encode(Int.max) == "9223372036854775807")
    }

    @Test(arguments: [
        (1.0, "1"), (0.5, "0.5"), (1e300, "1e+300"), (-0.0, "0"), (0.0, "0"), (-2.0, "-2"),
        (0.1, "0.1"), (1e-5, "1e-05"), (123.456, "123.456"), (1e15, "1000000000000000"),
        (9_007_199_254_740_991, "9007199254740991"), (9_007_199_254_740_992, "9007199254740992"),
        (-9_007_199_254_740_992, "-9007199254740992"), (9_007_199_254_740_994, "9.007199254740994e+15"),
        (1e16, "1e+16"), (1.5e-5, "1.5e-05"),
        (Double.leastNonzeroMagnitude, "5e-324"), (-Double.greatestFiniteMagnitude, "-1.7976931348623157e+308"),
    ])
    func doubles(value: Double, expected: String) throws {
        #expect(try CanonicalJSON.encode(value) == expected)
    }

    @Test func floatsUseTheirShortestForm() throws {
        #expect(try CanonicalJSON.encode([Float(0.1), 2.5, 3]) == "[0.1,2.5,3]")
    }

    @Test func nonFiniteNumbersThrow() {
        #expect(throws: EncodingError.self) { try CanonicalJSON.encode(Double.nan) }
        #expect(throws: EncodingError.self) { try CanonicalJSON.encode(["x": Double.infinity]) }
        #expect(throws: EncodingError.self) { try CanonicalJSON.encode([-Double.infinity]) }
        #expect(throws: EncodingError.self) { try CanonicalJSON.encodePretty(Float.nan) }
    }

    // MARK: Containers and Foundation types

    /// Uses nested keyed and unkeyed containers and `superEncoder` by hand.
    struct Manual: Encodable {
        enum Keys: String, CodingKey { case outer, list, parent }
        func encode(to encoder: any Encoder) throws {
            var root = encoder.container(keyedBy: Keys.self)
            var outer = root.nestedContainer(keyedBy: Keys.self, forKey: .outer)
            try outer.encode(true, forKey: .parent)
            var list = root.nestedUnkeyedContainer(forKey: .list)
            try list.encode("a")
            var inner = list.nestedUnkeyedContainer()
            try inner.encodeNil()
            var object = list.nestedContainer(keyedBy: Keys.self)
            try object.encode(1.5, forKey: .outer)
            try 7.encode(to: list.superEncoder())
            try "p".encode(to: root.superEncoder(forKey: .parent))
            try [1].encode(to: root.superEncoder())
        }
    }

    @Test func nestedContainersAndSuperEncoders() throws {
        #expect(
            try CanonicalJSON.encode(Manual())
                == #"{"list":["a",[null],{"outer":1.5},7],"outer":{"parent":true},"parent":"p","super":[1]}"#)
    }

    class Base: Encodable {
        var id = 1
    }

    final class Derived: Base {
        var name = "d"
        enum Keys: String, CodingKey { case name }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(name, forKey: .name)
            try super.encode(to: container.superEncoder())
        }
    }

    @Test func classInheritanceViaSuperEncoder() throws {
        #expect(try CanonicalJSON.encode(Derived()) == #"{"name":"d","super":{"id":1}}"#)
    }

    struct NothingEncoded: Encodable { func encode(to encoder: any Encoder) throws {} }
    struct NoProperties: Codable {}

    @Test func emptyValues() throws {
        #expect(throws: EncodingError.self) { try CanonicalJSON.encode(NothingEncoded()) }
        #expect(try CanonicalJSON.encode([NothingEncoded()]) == "[{}]")
        #expect(try CanonicalJSON.encode(NoProperties()) == "{}")
        #expect(try CanonicalJSON.encode([String]()) == "[]")
        #expect(try CanonicalJSON.encode([String: Int]()) == "{}")
    }

    @Test func existentialValuesAreOpened() throws {
        let values: [any Encodable] = [["b": 1, "a": 2], [true, false], Kind.index, "x"]
        #expect(
            try values.map { try CanonicalJSON.encode($0) } == [
                #"{"a":2,"b":1}"#, "[true,false]", #""index""#, #""x""#,
            ])
    }

    struct Stamped: Codable, Equatable {
        var date: Date
        var blob: Data
        var link: URL
    }

    @Test func foundationTypesMatchJSONEncoderDefaults() throws {
        let value = Stamped(
            date: Date(timeIntervalSinceReferenceDate: 12.5), blob: Data([0, 1, 2, 255]),
            link: URL(string: "https://example.com/a/b?q=1")!
        )
        let json = try CanonicalJSON.encode(value)
        #expect(json == #"{"blob":"AAEC/w==","date":12.5,"link":"https://example.com/a/b?q=1"}"#)
        #expect(try JSONDecoder().decode(Stamped.self, from: Data(json.utf8)) == value)
    }

    // MARK: Round trip and pretty printing

    @Test func roundTripsThroughJSONDecoder() throws {
        let decoded = try JSONDecoder().decode(Table.self, from: CanonicalJSON.data(Self.table))
        #expect(decoded == Self.table)

        var tagged = Self.table
        tagged.tags = ["a/b", "ü", "\u{01}"]
        tagged.ratio = 1e-7
        #expect(try JSONDecoder().decode(Table.self, from: CanonicalJSON.data(tagged)) == tagged)
    }

    @Test func prettyPrinting() throws {
        let expected = """
            {
              "checksum": 18446744073709551615,
              "columns": [
                {
                  "name": "id",
                  "nullable": false,
                  "type": "INTEGER"
                },
                {
                  "defaultValue": "'\\"hi\\"\\n'",
                  "name": "note",
                  "nullable": true,
                  "type": "TEXT"
                }
              ],
              "kind": "table",
              "name": "trips",
              "nested": [
                [
                  1,
                  2
                ],
                []
              ],
              "options": {
                "WITHOUT_ROWID": 0,
                "strict": 1
              },
              "ratio": 0.25
            }
            """
        #expect(try CanonicalJSON.encodePretty(Self.table) == expected)
        #expect(try CanonicalJSON.encodePretty(["b": [1], "a": []]) == "{\n  \"a\": [],\n  \"b\": [\n    1\n  ]\n}")
        #expect(try CanonicalJSON.encodePretty(42) == "42")
        #expect(try JSONDecoder().decode(Table.self, from: Data(expected.utf8)) == Self.table)
    }
}
