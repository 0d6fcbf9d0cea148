import Foundation
import Testing

@testable import SchemaMigrations

/// A model's static requirements read the same however a user spells them (`let`, `var` or
/// computed, with or without the type written, a `String` where a `String?` is asked or the
/// reverse): none is silently left at its default. (Spellings of other types do not compile.)
@Suite struct DeclarationSpellingTests {
    enum V1: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Voyage.self]
        final class Voyage: PersistentModel {
            var name = ""
            init() {}
        }
    }

    /// V2 renames `Voyage` to `trips`, spelled as MIGRATIONS.md's change-kinds table spells it.
    enum V2: VersionedSchema {
        static let versionIdentifier = Schema.Version(2, 0, 0)
        static let models: [any PersistentModel.Type] = [Trip.self]
        final class Trip: PersistentModel {
            static let entityName = "trips"
            static let originalName = "Voyage"
            var name = ""
            init() {}
        }
    }

    enum Plan: SchemaMigrationPlan {
        static let name = "spelling"
        static let schemas: [any VersionedSchema.Type] = [V1.self, V2.self]
    }

    @Test func anEntityRenamedWithAStringKeepsItsRows() throws {
        let db = TemporaryDatabase()
        try Migrator(plan: Plan.self, options: MigrationOptions(targetVersion: V1.versionIdentifier))
            .migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Voyage (name) VALUES ('Lisbon'), ('Oslo')")
        try Migrator(plan: Plan.self).migrate(databaseAt: db.url)
        #expect(try db.rows("SELECT name FROM trips ORDER BY name") == [["'Lisbon'"], ["'Oslo'"]])
        #expect(try db.rows("SELECT count(*) FROM sqlite_schema WHERE name = 'Voyage'") == [["0"]])
    }

    // Each model declares one requirement in one spelling.
    final class NameLet: PersistentModel {
        static let entityName = "trips"
        init() {}
    }
    final class NameOptional: PersistentModel {
        static let entityName: String? = "trips"
        init() {}
    }
    final class NameOptionalNil: PersistentModel {
        static let entityName: String? = nil
        init() {}
    }
    final class NameComputedOptional: PersistentModel {
        static var entityName: String? { "trips" }
        init() {}
    }
    final class OriginalLet: PersistentModel {
        static let originalName = "Voyage"
        init() {}
    }
    final class OriginalTyped: PersistentModel {
        static let originalName: String = "Voyage"
        init() {}
    }
    final class OriginalOptional: PersistentModel {
        static let originalName: String? = "Voyage"
        init() {}
    }
    final class OriginalComputed: PersistentModel {
        static var originalName: String { "Voyage" }
        init() {}
    }
    final class OriginalVar: PersistentModel {
        nonisolated(unsafe) static var originalName = "Voyage"
        init() {}
    }
    final class HashLet: PersistentModel {
        static let hashModifier = "v2"
        init() {}
    }
    final class HashOptional: PersistentModel {
        static let hashModifier: String? = "v2"
        init() {}
    }
    final class KeyLet: PersistentModel {
        static let primaryKey = ["a", "b"]
        var a = 0
        var b = 0
        init() {}
    }
    final class KeyOptional: PersistentModel {
        static let primaryKey: [String]? = ["a", "b"]
        var a = 0
        var b = 0
        init() {}
    }
    final class NoKey: PersistentModel {
        static let primaryKey: [String] = []
        var a = 0
        init() {}
    }
    final class IndexesLet: PersistentModel {
        static let indexes = [["a"], ["a", "b"]]
        static let uniqueness = [["b"]]
        static let indexNames = ["by_a": ["a"]]
        var a = 0
        var b = 0
        init() {}
    }
    final class Nothing: PersistentModel {
        var a = 0
        init() {}
    }

    static func entity(_ model: any PersistentModel.Type) throws -> Schema.Entity {
        try ModelReflection.entity(of: model, version: Schema.Version(1, 0, 0))
    }

    @Test(
        arguments: [
            NameLet.self, NameOptional.self, NameComputedOptional.self,
        ] as [any PersistentModel.Type])
    func anEntityNameIsReadInEverySpelling(_ model: any PersistentModel.Type) throws {
        #expect(try Self.entity(model).name == "trips")
    }

    @Test func aNilEntityNameIsTheClassName() throws {
        #expect(try Self.entity(NameOptionalNil.self).name == "NameOptionalNil")
        #expect(try Self.entity(Nothing.self).name == "Nothing")
    }

    @Test(
        arguments: [
            OriginalLet.self, OriginalTyped.self, OriginalOptional.self, OriginalComputed.self, OriginalVar.self,
        ] as [any PersistentModel.Type])
    func anOriginalNameIsReadInEverySpelling(_ model: any PersistentModel.Type) throws {
        #expect(try Self.entity(model).originalName == "Voyage")
    }

    @Test(arguments: [HashLet.self, HashOptional.self] as [any PersistentModel.Type])
    func aHashModifierIsReadInEverySpelling(_ model: any PersistentModel.Type) throws {
        #expect(try Self.entity(model).hashModifier == "v2")
    }

    @Test(arguments: [KeyLet.self, KeyOptional.self] as [any PersistentModel.Type])
    func aCompositeKeyIsReadInEverySpelling(_ model: any PersistentModel.Type) throws {
        #expect(try Self.entity(model).primaryKey == ["a", "b"])
    }

    @Test func anEmptyKeyDeclaresNoPrimaryKeyAndNothingDeclaresTheDefaultOne() throws {
        #expect(try Self.entity(NoKey.self).primaryKey == [])
        #expect(try Self.entity(Nothing.self).primaryKey == nil)
    }

    @Test func indexesWithoutTheirTypeWrittenAreRead() throws {
        let entity = try Self.entity(IndexesLet.self)
        #expect(entity.indexes.map(\.columns) == [["b"], ["a"], ["a", "b"]])
        #expect(entity.indexes.map(\.isUnique) == [true, false, false])
        #expect(entity.indexes.map(\.name) == [nil, "by_a", nil])
    }

    enum OptionalNamePlan: SchemaMigrationPlan {
        static let name: String? = "spelling"
        static let schemas: [any VersionedSchema.Type] = [V1.self]
    }

    enum UnnamedPlan: SchemaMigrationPlan {
        static let schemas: [any VersionedSchema.Type] = [V1.self]
    }

    @Test func aPlanNameIsReadInEverySpelling() throws {
        #expect(try PlanDirectory(plan: Plan.self).name == "spelling")
        #expect(try PlanDirectory(plan: OptionalNamePlan.self).name == "spelling")
        #expect(try PlanDirectory(plan: UnnamedPlan.self).name == "default")
    }
}
