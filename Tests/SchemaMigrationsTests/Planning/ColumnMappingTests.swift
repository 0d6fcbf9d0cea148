import Foundation
import Testing

@testable import SchemaMigrations

/// `@Attribute(column:)` mappings that move between versions: a property keeps its values
/// whatever column it is stored in, so swaps and permutations of columns are renames, and a
/// property renamed while a new one takes its old name is two different things, not a clash.
@Suite struct ColumnMappingTests {
    typealias A = PlanBuilder
    typealias P = PurePlanning

    static func mapped(
        _ property: String, column: String, _ type: Schema.ValueType = .integer, originalName: String? = nil
    ) -> Schema.Attribute {
        var attribute = A.attribute(column, type, optional: true, originalName: originalName)
        if column != property { attribute.propertyName = property }
        return attribute
    }

    // MARK: Declared in Swift, applied to a file

    enum SwapV1: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Reading.self]
        final class Reading: PersistentModel {
            static let indexes: [[String]] = [["a"]]
            @Attribute(column: "x") var a = 0
            @Attribute(column: "y") var b = 0
            @Attribute(generated: .stored("x * 10 + y")) var total: Int? = nil
            init() {}
        }
    }

    /// The same properties, their columns swapped; `total` still means `a * 10 + b`.
    enum SwapV2: VersionedSchema {
        static let versionIdentifier = Schema.Version(2, 0, 0)
        static let models: [any PersistentModel.Type] = [Reading.self]
        final class Reading: PersistentModel {
            static let indexes: [[String]] = [["a"]]
            @Attribute(column: "y") var a = 0
            @Attribute(column: "x") var b = 0
            @Attribute(generated: .stored("y * 10 + x")) var total: Int? = nil
            init() {}
        }
    }

    enum SwapPlan: SchemaMigrationPlan {
        static let schemas: [any VersionedSchema.Type] = [SwapV1.self, SwapV2.self]
    }

    @Test func twoColumnsSwappedThroughColumnMappingKeepEachPropertysValues() throws {
        let db = TemporaryDatabase()
        let migrator = Migrator(plan: SwapPlan.self)
        try Migrator(plan: SwapPlan.self, options: MigrationOptions(targetVersion: Schema.Version(1, 0, 0))).migrate(
            databaseAt: db.url)
        try db.execute("INSERT INTO Reading (id, x, y) VALUES (1, 1, 2), (2, 3, 4)")

        let report = try migrator.plan(databaseAt: db.url)
        #expect(
            report.description.contains("Rename column Reading.x"),
            "the dry run shows the swap as renames:\n\(report.description)")
        try migrator.migrate(databaseAt: db.url)

        #expect(try db.recordedVersion() == "2.0.0")
        // Property a (column y now) holds a's old values; b (column x) b's; total = a * 10 + b.
        #expect(
            try db.rows("SELECT id, y, x, total FROM Reading ORDER BY id") == [
                ["1", "1", "2", "12"], ["2", "3", "4", "34"],
            ])
        // a's index follows a to its new column.
        #expect(try db.indexes("Reading") == ["(y)"])
        #expect(try migrator.verify(databaseAt: db.url).isUpToDate)
    }

    // MARK: The planner alone

    @Test func aThreeWayPermutationOfColumnsIsThreeRenamesThroughTemporaryNames() throws {
        let source = Schema.Entity(
            name: "T",
            attributes: [Self.mapped("a", column: "x"), Self.mapped("b", column: "y"), Self.mapped("c", column: "z")])
        let target = Schema.Entity(
            name: "T",
            attributes: [Self.mapped("a", column: "y"), Self.mapped("b", column: "z"), Self.mapped("c", column: "x")])
        let stage = try P.stage(from: [source], to: [target])
        #expect(
            stage.steps.flatMap(\.sql) == [
                #"ALTER TABLE "T" RENAME COLUMN "x" TO "_sm_tmp_0""#,
                #"ALTER TABLE "T" RENAME COLUMN "y" TO "_sm_tmp_1""#,
                #"ALTER TABLE "T" RENAME COLUMN "z" TO "_sm_tmp_2""#,
                #"ALTER TABLE "T" RENAME COLUMN "_sm_tmp_0" TO "y""#,
                #"ALTER TABLE "T" RENAME COLUMN "_sm_tmp_1" TO "z""#,
                #"ALTER TABLE "T" RENAME COLUMN "_sm_tmp_2" TO "x""#,
            ])
    }

    @Test func aPropertyMovedIntoTheColumnOfADroppedPropertyMovesTheDroppedOneAsideFirst() throws {
        let source = Schema.Entity(
            name: "T", attributes: [Self.mapped("a", column: "x"), Self.mapped("b", column: "y")])
        let target = Schema.Entity(name: "T", attributes: [Self.mapped("a", column: "y")])
        let stage = try P.stage(from: [source], to: [target])
        #expect(
            stage.steps.flatMap(\.sql) == [
                #"ALTER TABLE "T" RENAME COLUMN "y" TO "_sm_drop_0""#, #"ALTER TABLE "T" RENAME COLUMN "x" TO "y""#,
                #"ALTER TABLE "T" DROP COLUMN "_sm_drop_0""#,
            ])
        #expect(stage.steps.contains { $0.destructive })
    }

    /// Only `column:` changes, with no `originalName`: the property continues, its column is renamed,
    /// even when the new column is the previous name of another property that moves too.
    @Test(arguments: [
        (["createdAt": "created"], ["createdAt": "created_at"]),
        (["createdAt": "createdAt"], ["createdAt": "created"]),
        (["createdAt": "created"], ["createdAt": "createdAt"]),
        (["createdAt": "created", "created": "made"], ["createdAt": "made", "created": "created_on"]),
        (["createdAt": "created", "updatedAt": "updated"], ["createdAt": "updatedAt", "updatedAt": "createdAt"]),
    ])
    func onlyTheColumnMappingChangingIsAColumnRename(source: [String: String], target: [String: String]) throws {
        func entity(_ mapping: [String: String]) -> Schema.Entity {
            Schema.Entity(
                name: "Event",
                attributes: mapping.sorted { $0.key < $1.key }.map { Self.mapped($0.key, column: $0.value, .double) })
        }
        let stage = try P.stage(from: [entity(source)], to: [entity(target)])
        #expect(stage.steps.allSatisfy { $0.op == .renameColumn }, "\(stage.steps.map(\.summary))")
        // Replaying the renames on the source's column names yields the target's, property by property.
        var columns = source
        for step in stage.steps {
            guard case .renameColumn(_, let from, let to) = step.action else { continue }
            for (property, column) in columns where column == from { columns[property] = to }
        }
        #expect(columns == target)
    }

    /// `heading` continues `title`, and a new `title` is added in the same version.
    @Test func aPropertyRenamedWhileANewPropertyTakesItsOldNameIsARenameAndAnAdd() throws {
        let source = Schema.Entity(name: "Doc", attributes: [A.attribute("title", .string, optional: true)])
        let target = Schema.Entity(
            name: "Doc",
            attributes: [
                A.attribute("title", .string, optional: true),
                A.attribute("heading", .string, optional: true, originalName: "title"),
            ])
        let stage = try P.stage(from: [source], to: [target])
        #expect(
            stage.steps.flatMap(\.sql) == [
                #"ALTER TABLE "Doc" RENAME COLUMN "title" TO "heading""#,
                #"ALTER TABLE "Doc" ADD COLUMN "title" TEXT"#,
            ])
    }

    @Test func aPropertyRenamedWhileANewPropertyTakesItsOldNameKeepsTheRowsOnAFile() throws {
        let source = Schema.Entity(name: "Doc", attributes: [A.attribute("title", .string, optional: true)])
        let target = Schema.Entity(
            name: "Doc",
            attributes: [
                A.attribute("title", .string, default: "'untitled'"),
                A.attribute("heading", .string, optional: true, originalName: "title"),
            ])
        let db = TemporaryDatabase()
        let migrator = try A.migrator([A.schema(1, [source]), A.schema(2, [target])])
        try A.migrator(
            [A.schema(1, [source]), A.schema(2, [target])],
            options: MigrationOptions(targetVersion: Schema.Version(1, 0, 0))
        ).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Doc (id, title) VALUES (1, 'Moby Dick'), (2, NULL)")
        try migrator.migrate(databaseAt: db.url)
        #expect(
            try db.rows("SELECT id, heading, title FROM Doc ORDER BY id") == [
                ["1", "'Moby Dick'", "'untitled'"], ["2", "NULL", "'untitled'"],
            ])
    }

    /// The same for entities: `Story` continues `Post`, and a new `Post` table is created.
    @Test func anEntityRenamedWhileANewEntityTakesItsOldNameIsARenameAndACreate() throws {
        let post = Schema.Entity(name: "Post", attributes: [A.attribute("title", .string, optional: true)])
        var story = post
        story.name = "Story"
        story.originalName = "Post"
        let newPost = Schema.Entity(name: "Post", attributes: [A.attribute("body", .string, optional: true)])
        let db = TemporaryDatabase()
        let migrator = try A.migrator([A.schema(1, [post]), A.schema(2, [newPost, story])])
        try A.migrator(
            [A.schema(1, [post]), A.schema(2, [newPost, story])],
            options: MigrationOptions(targetVersion: Schema.Version(1, 0, 0))
        ).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Post (id, title) VALUES (1, 'Hello')")
        try migrator.migrate(databaseAt: db.url)
        #expect(try db.rows("SELECT id, title FROM Story") == [["1", "'Hello'"]])
        #expect(try db.rows("SELECT count(*) FROM Post") == [["0"]])
        #expect(try db.columns("Post").keys.sorted() == ["body", "id"])
    }

    @Test func twoPropertiesRenamedFromOnePropertyAreStillRefused() throws {
        let source = Schema.Entity(name: "Doc", attributes: [A.attribute("title", .string, optional: true)])
        let target = Schema.Entity(
            name: "Doc",
            attributes: [
                A.attribute("heading", .string, optional: true, originalName: "title"),
                A.attribute("caption", .string, optional: true, originalName: "title"),
            ])
        let error = try #require(throws: MigrationError.self) { try P.stage(from: [source], to: [target]) }
        #expect(
            error.message
                == "property 'Doc.heading' and property 'Doc.caption' both continue property 'Doc.title' of the previous version"
        )
    }
}
