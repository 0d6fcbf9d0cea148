import Foundation
import Testing

@testable import SchemaMigrations

/// Snapshots and `plan.json` read without `JSONDecoder` (``StrictJSON``) mean what `JSONDecoder`
/// reads in them, and every file the reader does not take goes to `JSONDecoder`, so that a
/// malformed file is refused with the very error it got before.
@Suite struct SnapshotScanningTests {
    /// A version using every key a snapshot may hold, with strings that need escaping.
    static let everyKey = Schema(
        version: Schema.Version(3, 1, 4),
        entities: [
            Schema.Entity(
                name: "Artist", originalName: "Singer", hashModifier: "h1",
                attributes: [
                    Schema.Attribute(
                        name: "name", valueType: .string, isOptional: false,
                        defaultValue: #"'a "quoted" \ back/slash'"#, originalName: "title", hashModifier: "h2",
                        options: ["spotlight", "externalStorage"], swiftType: "String", propertyName: "displayName",
                        sqlType: "NVARCHAR(160)", check: "length(name) > 0\n\tAND name <> 'é 😀'", collation: "NOCASE"),
                    Schema.Attribute(
                        name: "born", valueType: .date, isOptional: true, dateStorage: .iso8601Text,
                        generated: .stored("datetime('now')")),
                    Schema.Attribute(
                        name: "label_id", valueType: .integer, isOptional: true,
                        references: Schema.ForeignKey(
                            table: "Label", onDelete: "SET NULL", column: "key", onUpdate: "CASCADE", isDeferred: true)),
                    Schema.Attribute(name: "score", valueType: .double, generated: .virtual("1.5 * 2")),
                ],
                indexes: [
                    Schema.Index(["name", "born"], isUnique: true, name: "Artist_name_born"),
                    Schema.Index(
                        elements: [.column("name", collation: "NOCASE", descending: true), .expression("lower(name)")],
                        isUnique: false, name: "Artist_lower", predicate: "born IS NOT NULL"),
                ],
                relationships: [
                    Schema.Relationship(
                        name: "albums", destination: "Album", isToMany: true, isOptional: false, deleteRule: .cascade,
                        inverse: "artist", originalName: "records", hashModifier: "h3")
                ],
                primaryKey: ["name", "born"], isAutoincrement: false, isWithoutRowID: true, isStrict: true),
            Schema.Entity(
                name: "Label", attributes: [Schema.Attribute(name: "key", valueType: .uuid)], isAutoincrement: true),
        ])

    /// What reading a snapshot gave before the reader without `Codable`: `JSONDecoder`'s result,
    /// or the error message it was refused with.
    static func referenceOutcome(_ data: Data) -> String {
        do {
            let snapshot = try JSONDecoder().decode(Snapshot.self, from: data)
            let schema = snapshot.schema
            if let hash = snapshot.hash, hash != schema.versionHash {
                return
                    "error: the snapshot of version \(schema.version) records hash \(hash) but its content hashes to \(schema.versionHash)"
            }
            return "schema: \(schema)"
        } catch {
            return "error: the schema snapshot is not valid JSON of a schema: \(Schema.describe(decodingError: error))"
        }
    }

    /// What reading it gives now.
    static func outcome(_ data: Data) -> String {
        do {
            return "schema: \(try Schema(snapshotJSON: data))"
        } catch let error as MigrationError {
            return "error: \(error.message)"
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test func aSnapshotOfEveryKeyReadsAsJSONDecoderReadsIt() throws {
        for text in [try Self.everyKey.snapshotJSON(), try Self.everyKey.compactJSON()] {
            let data = Data(text.utf8)
            let scanned = try #require(Snapshot(scanning: data), "the reader takes what the package writes")
            let decoded = try JSONDecoder().decode(Snapshot.self, from: data)
            #expect(scanned.schema == decoded.schema)
            #expect(scanned.schema == Self.everyKey)
            #expect(scanned.hash == decoded.hash && scanned.format == decoded.format)
        }
    }

    @Test func everyShippedSnapshotAndPlanFileReadsAsJSONDecoderReadsIt() throws {
        let fixtures = ReleasedSnapshotTests.fixtures
        let files =
            FileManager.default.enumerator(at: fixtures, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }
            ?? []
        var snapshots = 0
        var plans = 0
        for url in files where url.pathExtension == "json" {
            let data = try Data(contentsOf: url)
            if url.lastPathComponent.hasPrefix("schema-") {
                let scanned = try #require(Snapshot(scanning: data), "\(url.path)")
                #expect(scanned.schema == (try JSONDecoder().decode(Snapshot.self, from: data)).schema, "\(url.path)")
                snapshots += 1
            } else if url.lastPathComponent == PlanDirectory.planFileName {
                let scanned = try #require(PlanFile(scanning: data), "\(url.path)")
                let decoded = try JSONDecoder().decode(PlanFile.self, from: data)
                #expect(
                    scanned.name == decoded.name && scanned.versions == decoded.versions
                        && scanned.stages == decoded.stages, "\(url.path)")
                plans += 1
            }
        }
        #expect(snapshots >= 7 && plans >= 2)
    }

    /// Documents the reader leaves to `JSONDecoder`: read as before, or refused with the same error.
    @Test func whatTheReaderDoesNotTakeIsJSONDecodersToReadOrRefuse() throws {
        let valid = try Self.everyKey.snapshotJSON()
        let cases: [String] = [
            valid.replacingOccurrences(of: "\"format\": 1", with: "\"format\": 1.0"),  // a number with a fraction
            valid.replacingOccurrences(of: "\"format\": 1", with: "\"format\": 1e0"),
            valid.replacingOccurrences(of: "\"format\": 1", with: "\"format\": 01"),  // not JSON
            valid.replacingOccurrences(of: "\"format\": 1", with: "\"format\": null"),
            // A key twice with one value (with two, it is refused: PlanDirectoryDuplicateKeyTests).
            valid.replacingOccurrences(of: "\"format\": 1", with: "\"format\": 1, \"format\": 1"),
            valid.replacingOccurrences(of: "\"format\": 1", with: "\"format\": 1, \"comment\": [1, {\"a\": null}]"),
            valid.replacingOccurrences(of: "NOCASE", with: "NO\\u0043ASE"),  // a \u escape
            valid.replacingOccurrences(of: "NOCASE", with: "NO\\uD83DASE"),  // a lone surrogate
            valid.replacingOccurrences(of: "NOCASE", with: "NO\u{01}CASE"),  // a raw control character
            valid.replacingOccurrences(of: "\"isStrict\": true", with: "\"isStrict\": 1"),  // the wrong type
            valid.replacingOccurrences(of: "\"valueType\": \"uuid\"", with: "\"valueType\": \"UUID\""),
            valid.replacingOccurrences(of: "\"version\": \"3.1.4\"", with: "\"version\": \"3.1.4.1\""),
            valid.replacingOccurrences(of: "\"table\": \"Label\",", with: ""),  // a required key missing
            valid.replacingOccurrences(of: "\"hash\": \"", with: "\"hash\": \"0"),  // the hash no longer matches
            "\u{FEFF}" + valid,  // a byte order mark
            valid + " x",  // something after the document
            String(valid.dropLast(3)),  // cut short
            String(repeating: "[", count: 100) + String(repeating: "]", count: 100),
            "",
            "{}",
        ]
        for text in cases {
            var data = Data(text.utf8)
            #expect(Self.outcome(data) == Self.referenceOutcome(data), "\(text.prefix(200))")
            data.append(contentsOf: [0xC3])  // invalid UTF-8 at the end
            #expect(Self.outcome(data) == Self.referenceOutcome(data))
        }
        #expect(Snapshot(scanning: Data("{}".utf8)) == nil)
    }

    /// Random edits of a valid snapshot (bytes changed, removed, duplicated): whatever the bytes,
    /// the schema read or the error given is the one `JSONDecoder` gave.
    @Test func editedSnapshotsReadOrFailAsJSONDecoderMakesThem() throws {
        let valid = Array(try Self.everyKey.snapshotJSON().utf8)
        var generator = SeededGenerator(seed: 0x5EED)
        let alphabet = Array(#"{}[],:" \0123456789-.eEtrufalsn\/"#.utf8) + [0x01, 0xC3, 0xA9, 0xFF]
        var taken = 0
        for _ in 0..<600 {
            var bytes = valid
            for _ in 0...(generator.next() % 3) {
                let position = Int(generator.next() % UInt64(bytes.count))
                switch generator.next() % 3 {
                case 0: bytes[position] = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                case 1: bytes.remove(at: position)
                default: bytes.insert(bytes[position], at: position)
                }
            }
            let data = Data(bytes)
            if Snapshot(scanning: data) != nil { taken += 1 }
            #expect(Self.outcome(data) == Self.referenceOutcome(data), "\(String(decoding: bytes, as: UTF8.self))")
        }
        #expect(taken > 0, "some edits keep a snapshot the reader takes (a changed name, a changed value)")
    }

    @Test func planFilesReadAsJSONDecoderReadsThemOrAreLeftToIt() throws {
        let texts = [
            #"{"name": "notes", "versions": ["1.0.0", "2.0.0"]}"#,
            #"{"name": "notes", "versions": ["1.0.0", "2.0.0"], "stages": []}"#,
            #"{"name": "n", "versions": ["1", "2.1"], "stages": [{"from": "1.0.0", "to": "2.1.0", "kind": "custom"}]}"#,
            #"{"name": "notes", "versions": ["1.0.0"], "stages": [{"to": "1.0.0", "kind": "lightweight"}]}"#,
            #"{"name": "notes", "versions": ["x"]}"#,
            #"{"name": 1, "versions": []}"#,
            #"{"name": "notes", "versions": [], "extra": true}"#,
            #"{"name": "notes", "versions": ["1.0.0"], "stages": [{"from": "1.0.0", "to": "2.0.0", "kind": "heavy"}]}"#,
            #"["notes"]"#,
        ]
        for text in texts {
            let data = Data(text.utf8)
            let reference = Result { try JSONDecoder().decode(PlanFile.self, from: data) }
            if let scanned = PlanFile(scanning: data) {
                let decoded = try reference.get()
                #expect(
                    scanned.name == decoded.name && scanned.versions == decoded.versions
                        && scanned.stages == decoded.stages, "\(text)")
            }
        }
        #expect(PlanFile(scanning: Data(texts[0].utf8))?.stages == [])
        #expect(PlanFile(scanning: Data(texts[3].utf8)) == nil, "a stage without its source is JSONDecoder's to refuse")
        #expect(PlanFile(scanning: Data(texts[6].utf8)) == nil, "an unknown key is JSONDecoder's to read")
    }

    /// A plan directory is validated once, and hands the migrator the hashes its snapshots were
    /// checked with.
    @Test func aPlanDirectoryGivesTheMigratorEachVersionsHash() throws {
        try PlanDirectoryTests.withWrittenDirectory { _, directory in
            let plan = try Migrator(planDirectory: directory).resolvedPlan()
            for schema in plan.declared {
                #expect(plan.hash(of: schema.version) == schema.versionHash)
            }
            #expect(plan.hash(of: Schema.Version(9, 0, 0)) == "")
        }
    }

    /// Two declarations of one index count once in the hash, as they did when a `Set` kept them.
    @Test func aRepeatedIndexHashesOnce() {
        let entity = Schema.Entity(
            name: "Note", attributes: [PlanBuilder.attribute("text", .string)],
            indexes: [Schema.Index(["text"]), Schema.Index(["text"], isUnique: true)])
        var repeated = entity
        repeated.indexes += [Schema.Index(["text"]), Schema.Index(["text"], name: "other")]
        #expect(
            Schema(version: Schema.Version(1, 0, 0), entities: [entity]).versionHash
                == Schema(version: Schema.Version(1, 0, 0), entities: [repeated]).versionHash)
        #expect(
            IndexStructure.distinct(repeated.indexes.map(\.structure)) == entity.indexes.map(\.structure))
    }

    /// Two indexes over one column, each named otherwise, are two indexes: a version adding the
    /// second is another version, and both are created.
    @Test func twoIndexesOfOneStructureNamedOtherwiseHashAsTwo() throws {
        let one = Schema.Entity(
            name: "Note", attributes: [PlanBuilder.attribute("text", .string)],
            indexes: [Schema.Index(["text"], name: "note_text")])
        var two = one
        two.indexes.append(Schema.Index(["text"], name: "note_text_again"))
        let (v1, v2) = (PlanBuilder.schema(1, [one]), PlanBuilder.schema(2, [two]))
        #expect(v1.versionHash != v2.versionHash)
        let db = TemporaryDatabase()
        try PlanBuilder.migrator([v1]).migrate(databaseAt: db.url)
        try PlanBuilder.migrator([v1, v2]).migrate(databaseAt: db.url)
        let created = TemporaryDatabase()
        try PlanBuilder.migrator([v1, v2]).migrate(databaseAt: created.url)
        for file in [db, created] {
            #expect(
                try file.rows("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'Note' ORDER BY name")
                    == [["'note_text'"], ["'note_text_again'"]])
        }
    }
}
