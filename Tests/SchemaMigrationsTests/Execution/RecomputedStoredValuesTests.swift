import Foundation
import Testing

@testable import SchemaMigrations

/// A rebuild computes a STORED generated column again. Over a function the application registers,
/// the migrator's registration may compute other values than the ones stored (another version of
/// the function, or one registered as deterministic that is not): the stage is refused naming the
/// rows, offline and online, the dry run first in the same words, unless the target declares
/// `recomputesOnRebuild`.
@Suite struct RecomputedStoredValuesTests {
    typealias A = PlanBuilder

    /// The application's `slug`: lower case.
    static let appSlug = SQLFunction("slug", argumentCount: 1) { .text(($0[0].stringValue ?? "").lowercased()) }
    /// Another `slug` under the same name: upper case.
    static let otherSlug = SQLFunction("slug", argumentCount: 1) { .text(($0[0].stringValue ?? "").uppercased()) }
    /// A function registered as deterministic that is not: a new value on every call.
    static let counting: SQLFunction = {
        let counter = Counter()
        return SQLFunction("slug", argumentCount: 1) { _ in .integer(counter.next()) }
    }()

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Int64 = 0
        func next() -> Int64 {
            lock.lock()
            defer { lock.unlock() }
            value += 1
            return value
        }
    }

    static func item(rank: Schema.ValueType, recomputes: Bool = false) -> Schema.Entity {
        var slug = A.attribute("slug", .string, optional: true)
        slug.generated = .stored("slug(title)", recomputesOnRebuild: recomputes)
        return Schema.Entity(
            name: "Item", attributes: [A.attribute("title", .string), A.attribute("rank", rank), slug])
    }
    static let v1 = A.schema(1, [item(rank: .integer)])
    /// V2 makes `rank` REAL: a rebuild, which computes `slug` again.
    static let v2 = A.schema(2, [item(rank: .double)])

    /// A V1 database the app made, its slugs computed by the app's `slug`.
    static func makeV1(_ db: TemporaryDatabase) throws {
        try A.migrator([v1], options: MigrationOptions(sqlEnvironment: SQLEnvironment(functions: [appSlug])))
            .migrate(databaseAt: db.url)
        let app = try SQLiteConnection(path: db.path, environment: SQLEnvironment(functions: [appSlug]))
        try app.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
            INSERT INTO Item (id, title, rank) SELECT i, 'Title ' || i, i FROM n;
            """)
    }

    static func options(_ function: SQLFunction, online: Bool = false) -> MigrationOptions {
        var options = MigrationOptions(sqlEnvironment: SQLEnvironment(functions: [function]))
        if online { options.online = OnlineRebuildOptions(chunkTargetMilliseconds: 0.5) }
        return options
    }

    @Test(arguments: [false, true])
    func anotherFunctionUnderTheAppsNameIsRefusedNamingTheRows(online: Bool) throws {
        let db = TemporaryDatabase()
        try Self.makeV1(db)
        let before = online ? nil : try db.bytes()
        let options = Self.options(Self.otherSlug, online: online)
        let report = try A.migrator([Self.v1, Self.v2], options: options).plan(databaseAt: db.url)
        let error = try #require(throws: MigrationError.self) {
            try A.migrator([Self.v1, Self.v2], options: options).migrate(databaseAt: db.url)
        }
        #expect(error.code == .dataViolation)
        #expect(
            error.message
                == "Item.slug is a STORED generated column over slug, and rebuilding Item would compute 300 of its stored values differently with this connection's slug: the function computes other values than it did when they were stored, or is not deterministic; nothing was changed"
        )
        #expect(
            error.details == [
                "rowid 1: stored 'title 1', recomputed 'TITLE 1'", "rowid 2: stored 'title 2', recomputed 'TITLE 2'",
                "rowid 3: stored 'title 3', recomputed 'TITLE 3'", "rowid 4: stored 'title 4', recomputed 'TITLE 4'",
                "rowid 5: stored 'title 5', recomputed 'TITLE 5'", "… and 295 more",
            ])
        #expect(
            error.remedy?.hasSuffix(
                "declare `.stored(\"slug(title)\", recomputesOnRebuild: true)` in the target version")
                == true)
        #expect(report.refusals.map(\.message) == [error.message], "the dry run refuses first, in the same words")
        #expect(report.refusals.first?.details == error.details)
        #expect(try db.recordedVersion() == "1.0.0")
        #expect(
            try db.rows("SELECT slug FROM Item WHERE id IN (1, 300) ORDER BY id") == [["'title 1'"], ["'title 300'"]])
        #expect(try db.rows("SELECT name FROM sqlite_schema WHERE name LIKE '\\_sm\\_%' ESCAPE '\\'").isEmpty)
        if let before { #expect(try db.bytes() == before) }
    }

    @Test func aFunctionRegisteredAsDeterministicThatIsNotIsRefused() throws {
        let db = TemporaryDatabase()
        try Self.makeV1(db)
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) {
            try A.migrator([Self.v1, Self.v2], options: Self.options(Self.counting)).migrate(databaseAt: db.url)
        }
        #expect(error.code == .dataViolation)
        #expect(error.message.contains("would compute 300 of its stored values differently"))
        #expect(try db.bytes() == before)
    }

    @Test(arguments: [false, true])
    func theAppsOwnFunctionKeepsEveryStoredValue(online: Bool) throws {
        let db = TemporaryDatabase()
        try Self.makeV1(db)
        try A.migrator([Self.v1, Self.v2], options: Self.options(Self.appSlug, online: online)).migrate(
            databaseAt: db.url)
        #expect(try db.recordedVersion() == "2.0.0")
        #expect(
            try db.rows("SELECT slug, rank FROM Item WHERE id IN (1, 300) ORDER BY id") == [
                ["'title 1'", "1.0"], ["'title 300'", "300.0"],
            ])
    }

    /// The target accepts the recomputation: the stage stores the migrator's values.
    @Test func aTargetDeclaringTheRecomputationStoresTheNewValues() throws {
        let db = TemporaryDatabase()
        try Self.makeV1(db)
        let v2 = A.schema(2, [Self.item(rank: .double, recomputes: true)])
        #expect(v2.versionHash == Self.v2.versionHash, "how to migrate, not what is stored")
        let report = try A.migrator([Self.v1, v2], options: Self.options(Self.otherSlug)).plan(databaseAt: db.url)
        #expect(report.refusals.isEmpty)
        try A.migrator([Self.v1, v2], options: Self.options(Self.otherSlug)).migrate(databaseAt: db.url)
        #expect(
            try db.rows("SELECT slug FROM Item WHERE id IN (1, 300) ORDER BY id") == [["'TITLE 1'"], ["'TITLE 300'"]])
    }

    /// SQLite's own functions compute what they stored: no comparison runs, nothing is refused.
    @Test func aBuiltInExpressionIsNotCompared() throws {
        #expect(RecomputedStoredValues.functionsCalled(in: "lower(\"Title\") || upper(x)") == ["lower", "upper"])
        #expect(RecomputedStoredValues.functionsCalled(in: "price * quantity").isEmpty)
        let db = TemporaryDatabase()
        var total = A.attribute("total", .double, optional: true)
        total.generated = .stored("round(price, 1)")
        let v1 = A.schema(1, [Schema.Entity(name: "Line", attributes: [A.attribute("price", .double), total])])
        let v2 = A.schema(
            2, [Schema.Entity(name: "Line", attributes: [A.attribute("price", .double, default: "0"), total])])
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute("INSERT INTO Line (price) VALUES (1.26), (2.5)")
        try A.migrator([v1, v2]).migrate(databaseAt: db.url)
        #expect(try db.rows("SELECT total FROM Line ORDER BY rowid") == [["1.3"], ["2.5"]])
    }

    @Test func recomputesOnRebuildOnAVirtualColumnIsRefused() throws {
        var total = A.attribute("total", .double, optional: true)
        total.generated = Schema.GeneratedColumn(expression: "price * 2", storage: .virtual, recomputesOnRebuild: true)
        let error = try #require(throws: MigrationError.self) {
            try A.migrator([
                A.schema(1, [Schema.Entity(name: "Line", attributes: [A.attribute("price", .double), total])])
            ])
        }
        #expect(error.code == .invalidSchema)
        #expect(
            error.message
                == "'Line.total' is VIRTUAL and says recomputesOnRebuild: a VIRTUAL column stores nothing to recompute")
    }

    /// The snapshot keeps it only where it is set, and a JSON plan file reads it.
    @Test func theSnapshotCarriesItOnlyWhereSet() throws {
        let set = try JSONEncoder().encode(Schema.GeneratedColumn.stored("slug(title)", recomputesOnRebuild: true))
        let unset = try JSONEncoder().encode(Schema.GeneratedColumn.stored("slug(title)"))
        #expect(String(decoding: unset, as: UTF8.self).contains("recomputesOnRebuild") == false)
        #expect(try JSONDecoder().decode(Schema.GeneratedColumn.self, from: set).recomputesOnRebuild)
        let v2 = A.schema(2, [Self.item(rank: .double, recomputes: true)])
        let read = try Schema(snapshotJSON: Data(try v2.compactJSON().utf8))
        #expect(read.entity(named: "Item")?.attribute(named: "slug")?.generated?.recomputesOnRebuild == true)
    }
}
