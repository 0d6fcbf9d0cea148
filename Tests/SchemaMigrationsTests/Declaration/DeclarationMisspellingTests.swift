import Foundation
import Testing

/// A model or plan requirement declared with a type the package cannot take does not compile,
/// rather than being left at its default: each snippet is type-checked by `swiftc` against the
/// module this test was built with, as a user's file would be.
@Suite struct DeclarationMisspellingTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The directory holding `SchemaMigrations.swiftmodule`: beside the test bundle, or the
    /// package's own `.build/debug/Modules`.
    static var modules: URL? {
        let bundle = Bundle.main.bundleURL
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        return [
            bundle, bundle.deletingLastPathComponent(), executable.deletingLastPathComponent(),
            root.appendingPathComponent(".build/debug"),
        ]
        .map { $0.appendingPathComponent("Modules") }
        .first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("SchemaMigrations.swiftmodule").path)
        }
    }

    /// `swiftc -typecheck` of `source` (after `import SchemaMigrations`, unless `importing` is
    /// false: the source imports what it needs): its exit status and output.
    static func typecheck(_ source: String, importing: Bool = true) throws -> (status: Int32, output: String) {
        let modules = try #require(Self.modules, "the built SchemaMigrations module is not found")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "misspelling-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("Declarations.swift")
        try Data(((importing ? "import SchemaMigrations\n" : "") + source + "\n").utf8).write(to: file)
        return try ProgramRun.run([
            "swiftc", "-swift-version", "6", "-typecheck", "-I", modules.path, "-Xcc",
            "-fmodule-map-file=" + root.appendingPathComponent("Sources/CSQLite/module.modulemap").path, file.path,
        ])
    }

    @Test(.timeLimit(.minutes(2)))
    func theNaturalSpellingsCompile() throws {
        let result = try Self.typecheck(
            """
            final class Trip: PersistentModel {
                static let entityName = "trips"
                static let originalName = "Voyage"
                static let hashModifier: String? = "v2"
                static let primaryKey = ["name", "day"]
                static let indexes = [["day"]]
                static let uniqueness: [[String]] = [["name", "day"]]
                static let indexNames = ["by_day": ["day"]]
                static let constraints: [Schema.TableConstraint] = [.check("day > 0", name: "positive_day")]
                static let primaryKeyOnConflict = Schema.ConflictResolution.replace
                static let withoutRowID = true
                static let strict = false
                static let namedIndexes = [NamedIndex.unique("by_name", ["name"])]
                var name = ""
                var day = 0
                init() {}
            }
            enum Plan: SchemaMigrationPlan {
                static let name: String? = "trips"
                static let schemas: [any VersionedSchema.Type] = []
                static let stages: [MigrationStage] = []
            }
            final class Tag: PersistentModel {
                static let primaryKeyOnConflict: Schema.ConflictResolution? = .ignore
                var name = ""
                init() {}
            }
            final class Leg: PersistentModel {
                static let constraints = [Schema.TableConstraint.foreignKey(["trip", "day"], references: "trips")]
                var trip = ""
                var day = 0
                init() {}
            }
            let models: [any PersistentModel.Type] = [Trip.self, Leg.self]
            enum V1: VersionedSchema {
                static let versionIdentifier = Schema.Version(1, 0, 0)
                static let models: [any PersistentModel.Type] = [Trip.self]
                static let sqlObjects: [Schema.SQLObject] = [.view("CREATE VIEW v AS SELECT 1")]
            }
            enum V2: VersionedSchema {
                static let versionIdentifier = Schema.Version(2, 0, 0)
                static let models: [any PersistentModel.Type] = [Trip.self]
                static let sqlObjects = [Schema.SQLObject.view("CREATE VIEW v AS SELECT 1")]
                static let applicationID = 0x4D4F_4F4E
                static let userVersion: Int32 = 7
            }
            enum V3: VersionedSchema {
                static let versionIdentifier = Schema.Version(3, 0, 0)
                static let models: [any PersistentModel.Type] = [Trip.self]
                static let applicationID: Int32? = nil
                static let userVersion: Int? = 8
            }
            """)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test(
        .timeLimit(.minutes(2)),
        arguments: [
            "final class Trip: PersistentModel { static let originalName = 5; init() {} }",
            "final class Trip: PersistentModel { static let entityName: Substring = \"trips\"; init() {} }",
            "final class Trip: PersistentModel { static let hashModifier = 2; init() {} }",
            "final class Trip: PersistentModel { static let primaryKey = \"name\"; var name = \"\"; init() {} }",
            "final class Trip: PersistentModel { static let uniqueness = [\"email\"]; var email = \"\"; init() {} }",
            "final class Trip: PersistentModel { static let indexes = [\"email\"]; var email = \"\"; init() {} }",
            "final class Trip: PersistentModel { static let indexNames = [\"by_a\": \"a\"]; var a = 0; init() {} }",
            "enum Plan: SchemaMigrationPlan { static let name = 1; static let schemas: [any VersionedSchema.Type] = [] }",
            "enum V: VersionedSchema { static let versionIdentifier = Schema.Version(1, 0, 0); static let models: [any PersistentModel.Type] = []; static let sqlObjects: [Schema.SQLObject]? = [] }",
            "enum V: VersionedSchema { static let versionIdentifier = Schema.Version(1, 0, 0); static let models: [any PersistentModel.Type] = []; static let applicationID: UInt32 = 1 }",
            "enum V: VersionedSchema { static let versionIdentifier = Schema.Version(1, 0, 0); static let models: [any PersistentModel.Type] = []; static let userVersion = \"7\" }",
            "enum V: VersionedSchema { static let versionIdentifier = Schema.Version(1, 0, 0); static let models: [any PersistentModel.Type] = []; static let sqlObjects = [\"CREATE VIEW v AS SELECT 1\"] }",
            "final class Trip: PersistentModel { static let constraints: [Schema.TableConstraint]? = [.check(\"a > 0\")]; var a = 0; init() {} }",
            "final class Trip: PersistentModel { static let constraints = [\"CHECK (a > 0)\"]; var a = 0; init() {} }",
            "final class Trip: PersistentModel { static let withoutRowID: Bool? = true; static let primaryKey = [\"a\"]; var a = 0; init() {} }",
            "final class Trip: PersistentModel { static let strict: Bool? = true; var a = 0; init() {} }",
            "final class Trip: PersistentModel { static let namedIndexes: [NamedIndex]? = []; var a = 0; init() {} }",
            "final class Trip: PersistentModel { static let primaryKeyOnConflict = \"REPLACE\"; var a = 0; init() {} }",
            "enum Plan: SchemaMigrationPlan { static let schemas: [any VersionedSchema.Type] = []; static let stages: [MigrationStage]? = [] }",
        ])
    func aRequirementOfAnotherTypeDoesNotCompile(_ source: String) throws {
        let result = try Self.typecheck(source)
        #expect(result.status != 0)
        #expect(result.output.contains("does not conform to protocol"), "\(result.output)")
    }
}
