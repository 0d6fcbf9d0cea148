import Foundation
import Testing

@testable import SchemaMigrations

/// A plan file or snapshot naming a key twice with different values is refused, naming the file,
/// the key and both values: JSON leaves its meaning to the reader, and readers disagree, so the
/// same file would be one plan here and another there.
@Suite struct PlanDirectoryDuplicateKeyTests {
    typealias Fixture = PlanDirectoryTests

    @Test func aPlanFileNamingTheNameTwiceIsRefused() throws {
        try Fixture.withWrittenDirectory { _, directory in
            let planFile = directory.appendingPathComponent("plan.json")
            try Data(#"{"name": "other", "versions": ["1.0.0", "2.0.0"], "name": "notes"}"#.utf8).write(to: planFile)
            let error = try Fixture.error(reading: directory)
            #expect(error.code == .invalidPlan)
            #expect(
                error.message
                    == #"'\#(planFile.path)' names the key 'name' twice, with different values: "other" and "notes""#)
            #expect(error.remedy == "keep the value you mean and remove the other")
        }
    }

    @Test func aKeyNamedTwiceInAStageIsRefusedWithWhereItIs() throws {
        try Fixture.withWrittenDirectory { _, directory in
            let planFile = directory.appendingPathComponent("plan.json")
            try Data(
                #"{"name": "notes", "versions": ["1.0.0", "2.0.0"], "stages": [{"from": "1.0.0", "to": "2.0.0", "kind": "custom", "kind": "lightweight"}]}"#
                    .utf8
            ).write(to: planFile)
            let error = try Fixture.error(reading: directory)
            #expect(
                error.message
                    == #"'\#(planFile.path)' names the key 'kind' of stages[0] twice, with different values: "custom" and "lightweight""#
            )
        }
    }

    @Test func aKeyNamedTwiceWithOneValueIsRead() throws {
        try Fixture.withWrittenDirectory { _, directory in
            try Data(#"{"name": "notes", "versions": ["1.0.0", "2.0.0"], "name": "notes"}"#.utf8).write(
                to: directory.appendingPathComponent("plan.json"))
            let plan = try PlanDirectory(contentsOf: directory)
            #expect(plan.name == "notes")
            #expect(plan.schemas.map(\.version) == [Fixture.v1.version, Fixture.v2.version])
        }
    }

    @Test func aSnapshotNamingAKeyTwiceIsRefused() throws {
        try Fixture.withWrittenDirectory { _, directory in
            let snapshot = directory.appendingPathComponent("schema-2.0.0.json")
            let text = try String(contentsOf: snapshot, encoding: .utf8)
            let edited = text.replacingOccurrences(of: #""pinned""#, with: #""starred", "name": "pinned""#)
            #expect(edited != text)
            try Data(edited.utf8).write(to: snapshot)
            let error = try Fixture.error(reading: directory)
            #expect(error.code == .invalidSchema)
            #expect(
                error.message
                    == #"'\#(snapshot.path)': the schema snapshot names the key 'name' of entities[0].attributes[1] twice, with different values: "starred" and "pinned""#
            )
        }
    }

    @Test func theCheckReadsEscapesAndComparesValuesNotTheirSpelling() {
        #expect(JSONDuplicateKey.first(in: Array(#"{"n\u0061me": "a", "name": "b"}"#.utf8))?.key == "name")
        #expect(JSONDuplicateKey.first(in: Array(#"{"a": {"x": 1, "y": [2]}, "a": {"y": [2], "x": 1}}"#.utf8)) == nil)
        #expect(JSONDuplicateKey.first(in: Array(#"{"a": "\u00e9", "a": "é"}"#.utf8)) == nil)
        #expect(JSONDuplicateKey.first(in: Array(#"{"a": 1, "a": 2"#.utf8)) == nil, "not JSON: JSONDecoder's to refuse")
    }
}
