import Foundation
import Testing

@testable import SchemaMigrations

/// Every parameter of the custom stages' data API given what a careless or hostile caller might
/// pass: each call either does what it says or throws a `MigrationError` that names the call and
/// the parameter, and a refused call leaves the database as it was, at its old version.
@Suite struct DataAPIHostileInputTests {
    typealias A = PlanBuilder

    /// `Item` with a property named like an SQL keyword (`order`) and one whose column is named
    /// otherwise (`createdAt` in `created_at`); V2 adds `note`.
    static let item = Schema.Entity(
        name: "Item",
        attributes: [
            A.attribute("title", .string, default: "''"),
            A.attribute("count", .integer, default: "0"),
            A.attribute("order", .integer, optional: true),
            Schema.Attribute(name: "created_at", valueType: .integer, isOptional: true, propertyName: "createdAt"),
            A.attribute("ratio", .double, optional: true),
        ])
    static let v1 = A.schema(1, [item])
    static let v2: Schema = {
        var target = item
        target.attributes.append(A.attribute("note", .string, optional: true))
        return A.schema(2, [target])
    }()

    /// Runs `body` as the didMigrate of V1 → V2 on a database holding items 1, 2, 3. On a
    /// `MigrationError`, checks that the file is byte for byte as it was, at version 1.0.0.
    static func run(
        _ body: @escaping @Sendable (MigrationContext) throws -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (db: TemporaryDatabase, error: MigrationError?) {
        let db = TemporaryDatabase()
        try A.migrator([v1]).migrate(databaseAt: db.url)
        try db.execute(
            """
            INSERT INTO Item (id, title, count, "order", created_at) VALUES (1, 'a', 5, 10, 100), (2, 'b', 1, 20, 200), (3, 'c', 9, NULL, NULL)
            """)
        let before = try db.bytes()
        do {
            try A.migrator([v1, v2], kind: .custom, didMigrate: body).migrate(databaseAt: db.url)
            #expect(try db.recordedVersion() == "2.0.0", sourceLocation: sourceLocation)
            return (db, nil)
        } catch let error as MigrationError {
            #expect(
                try db.bytes() == before, "a refused call leaves the file as it was", sourceLocation: sourceLocation)
            #expect(try db.recordedVersion() == "1.0.0", sourceLocation: sourceLocation)
            return (db, error)
        }
    }

    /// The refusal `body` meets.
    static func refusal(
        _ body: @escaping @Sendable (MigrationContext) throws -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> MigrationError {
        let (_, error) = try run(body, sourceLocation: sourceLocation)
        return try #require(error, "expected a refusal", sourceLocation: sourceLocation)
    }

    /// Runs `body`, which must succeed, and returns the database.
    static func success(
        _ body: @escaping @Sendable (MigrationContext) throws -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> TemporaryDatabase {
        let (db, error) = try run(body, sourceLocation: sourceLocation)
        #expect(error == nil, "\(error.map(String.init(describing:)) ?? "")", sourceLocation: sourceLocation)
        return db
    }

    // MARK: batchSize

    @Test(arguments: [0, -1, Int.min])
    func aBatchSizeBelowOneIsRefusedNamingTheParameter(batchSize: Int) throws {
        let error = try Self.refusal { context in
            try context.forEach("Item", batchSize: batchSize) { _ in Issue.record("no row expected") }
        }
        #expect(error.code == .invalidArgument)
        #expect(error.message == "forEach(\"Item\") was given batchSize \(batchSize): a batch holds at least 1 row")
        #expect(error.entity == "Item")
    }

    /// `Int.max` used to abort the process (reserving room for that many rows) with the
    /// migration's journal left hot beside the file.
    @Test func aBatchSizeOfIntMaxIsClampedAndVisitsEveryRow() throws {
        let db = try Self.success { (context: MigrationContext) throws in
            var seen: [Int64] = []
            try context.forEach("Item", batchSize: Int.max) { row in
                seen.append(row.id)
                try context.update("Item", id: row.id, values: ["note": "seen"])
            }
            #expect(seen == [1, 2, 3])
        }
        #expect(
            try db.rows("SELECT id, note FROM Item ORDER BY id") == [
                ["1", "'seen'"], ["2", "'seen'"], ["3", "'seen'"],
            ])
    }

    @Test(arguments: [1, 2, 3, 10_000, 10_001, Int.max - 1])
    func anyPositiveBatchSizeVisitsEveryRowOnceInIdOrder(batchSize: Int) throws {
        _ = try Self.success { (context: MigrationContext) throws in
            var seen: [Int64] = []
            try context.forEach("Item", batchSize: batchSize) { seen.append($0.id) }
            #expect(seen == [1, 2, 3])
        }
    }

    // MARK: where / arguments

    @Test(arguments: ["", "   ", "\n\t"])
    func anEmptyFilterIsRefusedByEveryCallThatTakesOne(filter: String) throws {
        let calls: [(String, @Sendable (MigrationContext) throws -> Void)] = [
            ("fetch", { _ = try $0.fetch("Item", where: filter) }),
            ("count", { _ = try $0.count("Item", where: filter) }),
            ("forEach", { try $0.forEach("Item", where: filter) { _ in } }),
            ("delete", { _ = try $0.delete("Item", where: filter) }),
        ]
        for (name, call) in calls {
            let error = try Self.refusal(call)
            #expect(error.code == .invalidArgument, "\(name)")
            #expect(
                error.message
                    == "\(name)(\"Item\") was given an empty filter: pass nil (or leave `where:` out) for every row",
                "\(name)")
        }
    }

    @Test(arguments: ["1; DROP TABLE Item", "1) OR (1", "count > 1)", "(count > 1", "count > 1; --"])
    func aFilterThatIsNotOneExpressionIsRefusedAndNothingElseRuns(filter: String) throws {
        let calls: [(String, @Sendable (MigrationContext) throws -> Void)] = [
            ("fetch", { _ = try $0.fetch("Item", where: filter) }),
            ("count", { _ = try $0.count("Item", where: filter) }),
            ("forEach", { try $0.forEach("Item", where: filter) { _ in } }),
            ("delete", { _ = try $0.delete("Item", where: filter) }),
        ]
        for (name, call) in calls {
            let error = try Self.refusal(call)
            #expect(error.code == .invalidArgument, "\(name)")
            #expect(
                error.message == "\(name)(\"Item\") was given a filter that is not one SQL expression: \(filter)",
                "\(name)")
        }
    }

    @Test func aFilterEndingInALineCommentStillFiltersAndIsNotCutShort() throws {
        let db = try Self.success { (context: MigrationContext) throws in
            let filter = "count > 2 -- the busy ones"
            #expect(try context.fetch("Item", where: filter).map(\.id) == [1, 3])
            #expect(try context.count("Item", where: filter) == 2)
            var seen: [Int64] = []
            try context.forEach("Item", where: filter, batchSize: 1) { seen.append($0.id) }
            #expect(seen == [1, 3])
            #expect(try context.delete("Item", where: filter) == 2)
        }
        #expect(try db.rows("SELECT id FROM Item") == [["2"]])
    }

    @Test func aFilterSQLiteCannotCompileIsRefusedWithSQLitesWords() throws {
        let error = try Self.refusal { context in _ = try context.fetch("Item", where: "nope = 1") }
        #expect(error.code == .invalidArgument)
        #expect(error.message == "fetch(\"Item\") could not run its query: no such column: nope")
        #expect(error.sqliteError?.message == "no such column: nope")
    }

    @Test func keywordAndRenamedPropertiesAreUsableInFiltersByTheirColumnNames() throws {
        _ = try Self.success { (context: MigrationContext) throws in
            #expect(try context.count("Item", where: "\"order\" >= ?", arguments: [.integer(10)]) == 2)
            #expect(try context.fetch("Item", where: "created_at = 200").map(\.id) == [2])
        }
    }

    @Test(arguments: [(0, 1), (1, 0), (1, 2), (2, 1)])
    func argumentsMustMatchTheFiltersPlaceholders(placeholders: Int, arguments count: Int) throws {
        let filter =
            placeholders == 0
            ? "count > 2" : Array(repeating: "count > ?", count: placeholders).joined(separator: " AND ")
        let arguments = Array(repeating: SQLiteValue.integer(2), count: count)
        let calls: [(String, @Sendable (MigrationContext) throws -> Void)] = [
            ("fetch", { _ = try $0.fetch("Item", where: filter, arguments: arguments) }),
            ("count", { _ = try $0.count("Item", where: filter, arguments: arguments) }),
            ("forEach", { try $0.forEach("Item", where: filter, arguments: arguments) { _ in } }),
            ("delete", { _ = try $0.delete("Item", where: filter, arguments: arguments) }),
        ]
        for (name, call) in calls {
            let error = try Self.refusal(call)
            #expect(error.code == .invalidArgument, "\(name)")
            #expect(
                error.message
                    == "\(name)(\"Item\") was given \(count) argument\(count == 1 ? "" : "s") for \(placeholders) placeholder\(placeholders == 1 ? "" : "s")",
                "\(name)")
        }
    }

    @Test func argumentsWithoutAFilterAreRefused() throws {
        let error = try Self.refusal { context in _ = try context.count("Item", arguments: [.integer(1)]) }
        #expect(error.code == .invalidArgument)
        #expect(error.message == "count(\"Item\") was given 1 argument for 0 placeholders")
    }

    @Test func extremeArgumentsAreComparedAsGiven() throws {
        _ = try Self.success { (context: MigrationContext) throws in
            #expect(try context.count("Item", where: "count > ?", arguments: [.integer(Int64.min)]) == 3)
            #expect(try context.count("Item", where: "count < ?", arguments: [.integer(Int64.max)]) == 3)
            #expect(try context.count("Item", where: "title = ?", arguments: [.text("a'); DROP TABLE Item; --")]) == 0)
            #expect(
                try context.count(
                    "Item", where: "title = ?", arguments: [.text(String(repeating: "x", count: 1_000_000))]) == 0)
            #expect(try context.count("Item", where: "ratio = ?", arguments: [.real(.nan)]) == 0)
            var seen: [Int64] = []
            try context.forEach("Item", where: "count >= ?", arguments: [.integer(5)], batchSize: 1) {
                seen.append($0.id)
            }
            #expect(seen == [1, 3], "the filter's placeholder is the argument's, not the batch's bound")
        }
    }

    // MARK: orderBy / limit

    @Test(arguments: ["", "count; DROP TABLE Item", "count) --", "1 LIMIT 1"])
    func anOrderingThatIsNotAnOrderingListIsRefused(orderBy: String) throws {
        let error = try Self.refusal { context in _ = try context.fetch("Item", orderBy: orderBy) }
        #expect(error.code == .invalidArgument)
        #expect(error.message.hasPrefix("fetch(\"Item\") "), "\(error.message)")
    }

    @Test func anOrderingListWithDirectionsCollationsAndKeywordColumnsWorks() throws {
        _ = try Self.success { (context: MigrationContext) throws in
            #expect(try context.fetch("Item", orderBy: "\"order\" IS NULL, \"order\" DESC").map(\.id) == [2, 1, 3])
            #expect(try context.fetch("Item", orderBy: "title COLLATE NOCASE DESC").map(\.id) == [3, 2, 1])
        }
    }

    @Test(arguments: [-1, Int.min])
    func aNegativeLimitIsRefused(limit: Int) throws {
        let error = try Self.refusal { context in _ = try context.fetch("Item", limit: limit) }
        #expect(error.code == .invalidArgument)
        #expect(error.message == "fetch(\"Item\") was given limit \(limit): a limit is 0 or more")
    }

    @Test func aZeroOrHugeLimitReadsNoneOrAll() throws {
        _ = try Self.success { (context: MigrationContext) throws in
            #expect(try context.fetch("Item", limit: 0).isEmpty)
            #expect(try context.fetch("Item", limit: Int.max).map(\.id) == [1, 2, 3])
        }
    }

    // MARK: properties

    @Test func propertiesEmptyDuplicatedKeywordRenamedAndIdAreReadOnceEach() throws {
        _ = try Self.success { (context: MigrationContext) throws in
            #expect(try context.fetch("Item", properties: []).map(\.values) == [1, 2, 3].map { ["id": .integer($0)] })
            let rows = try context.fetch("Item", properties: ["order", "order", "id", "createdAt", "title", "title"])
            #expect(
                rows[0].values == [
                    "id": .integer(1), "order": .integer(10), "createdAt": .integer(100), "title": .text("a"),
                ])
            #expect(try rows[1].value("createdAt") == 200)
            var seen: [[String: SQLiteValue]] = []
            try context.forEach("Item", properties: ["order", "order"], batchSize: 2) { seen.append($0.values) }
            #expect(
                seen == [
                    ["id": .integer(1), "order": .integer(10)], ["id": .integer(2), "order": .integer(20)],
                    ["id": .integer(3), "order": .null],
                ])
        }
    }

    @Test(arguments: ["nope", "", "rowid", "*", "title, count"])
    func anUnknownPropertyIsRefusedNamingIt(property: String) throws {
        for call: @Sendable (MigrationContext) throws -> Void in [
            { _ = try $0.fetch("Item", properties: [property]) },
            { try $0.forEach("Item", properties: ["title", property]) { _ in } },
        ] {
            let error = try Self.refusal(call)
            #expect(error.code == .invalidSchema)
            #expect(error.message == "'Item' has no property '\(property)' at version 2.0.0")
            #expect(error.property == property)
        }
    }

    // MARK: entity

    @Test(arguments: ["", "Nope", "Item; DROP TABLE Item", "\"Item\"", "schema_migrations"])
    func anUnknownEntityIsRefusedByEveryCall(entity: String) throws {
        for call: @Sendable (MigrationContext) throws -> Void in [
            { _ = try $0.fetch(entity) }, { _ = try $0.count(entity) }, { try $0.forEach(entity) { _ in } },
            { try $0.insert(entity, values: [:]) }, { try $0.update(entity, id: 1, values: ["title": "x"]) },
            { try $0.delete(entity, id: 1) }, { _ = try $0.delete(entity, where: "1") },
        ] {
            let error = try Self.refusal(call)
            #expect(error.code == .invalidSchema)
            #expect(error.message == "version 2.0.0 has no entity '\(entity)'")
        }
    }

    // MARK: insert / update values

    @Test func insertWithNoValuesTakesEveryDefault() throws {
        let db = try Self.success { (context: MigrationContext) throws in
            #expect(try context.insert("Item", values: [:]) == 4)
        }
        #expect(
            try db.rows("SELECT id, title, count, \"order\", note FROM Item WHERE id = 4") == [
                ["4", "''", "0", "NULL", "NULL"]
            ])
    }

    @Test func insertAndUpdateTakeKeywordAndRenamedPropertiesByName() throws {
        let db = try Self.success { (context: MigrationContext) throws in
            let id = try context.insert("Item", values: ["order": 7, "createdAt": 70, "title": "new"])
            try context.update("Item", id: id, values: ["order": 8])
            try context.update("Item", id: 1, values: ["created_at": 101])
        }
        #expect(
            try db.rows("SELECT id, title, \"order\", created_at FROM Item WHERE id IN (1, 4) ORDER BY id") == [
                ["1", "'a'", "10", "101"], ["4", "'new'", "8", "70"],
            ])
    }

    @Test func aPropertyGivenTwiceUnderItsTwoNamesIsRefused() throws {
        for call: @Sendable (MigrationContext) throws -> Void in [
            { try $0.insert("Item", values: ["createdAt": 1, "created_at": 2]) },
            { try $0.update("Item", id: 1, values: ["createdAt": 1, "created_at": 2]) },
        ] {
            let error = try Self.refusal(call)
            #expect(error.code == .invalidArgument)
            #expect(error.message == "'Item.createdAt' was given twice, as 'createdAt' and as 'created_at'")
        }
    }

    @Test func insertMayChooseTheIdAndUpdateMayNotChangeIt() throws {
        let db = try Self.success { (context: MigrationContext) throws in
            #expect(try context.insert("Item", values: ["id": 42, "title": "chosen"]) == 42)
            #expect(try context.insert("Item", values: ["id": Int64.min, "title": "lowest"]) == Int64.min)
        }
        #expect(
            try db.rows("SELECT id, title FROM Item WHERE title IN ('chosen', 'lowest') ORDER BY id") == [
                ["\(Int64.min)", "'lowest'"], ["42", "'chosen'"],
            ])
        let error = try Self.refusal { context in try context.update("Item", id: 1, values: ["id": 9]) }
        #expect(error.code == .invalidArgument)
        #expect(
            error.message
                == "update(\"Item\") cannot change a row's id; use execute(_:arguments:) with an UPDATE of \"id\"")
        let taken = try Self.refusal { context in try context.insert("Item", values: ["id": 1]) }
        #expect(taken.code == .customStageFailed || taken.code == .sqlite, "\(taken)")
        #expect(taken.sqliteError?.resultCode.primary == .constraint, "\(taken)")
    }

    @Test(arguments: [Int64.min, -1, 0, 99, Int64.max])
    func updatingARowThatDoesNotExistIsRefused(id: Int64) throws {
        let error = try Self.refusal { context in try context.update("Item", id: id, values: ["note": "x"]) }
        #expect(error.code == .invalidArgument)
        #expect(error.message == "update(\"Item\") found no row with id \(id)")
    }

    @Test(arguments: [Int64.min, -1, 0, 99, Int64.max])
    func deletingARowThatDoesNotExistChangesNothing(id: Int64) throws {
        let db = try Self.success { (context: MigrationContext) throws in try context.delete("Item", id: id) }
        #expect(try db.rows("SELECT count(*) FROM Item") == [["3"]])
    }

    @Test func anIntegerOutsideInt64IsRefusedNotTruncated() throws {
        let error = try Self.refusal { context in try context.update("Item", id: 1, values: ["count": UInt64.max]) }
        #expect(error.code == .typeMismatch)
        #expect(error.message == "a UInt64 cannot be stored in 'Item.count', which holds integer values")
    }

    @Test func aNaNIsRefusedRatherThanStoredAsNULL() throws {
        let error = try Self.refusal { context in try context.update("Item", id: 1, values: ["ratio": Double.nan]) }
        #expect(error.code == .typeMismatch)
        #expect(error.message == "NaN cannot be stored in 'Item.ratio': SQLite stores it as NULL")
        let db = try Self.success { (context: MigrationContext) throws in
            try context.update("Item", id: 1, values: ["ratio": Double.infinity])
        }
        #expect(try db.rows("SELECT ratio FROM Item WHERE id = 1") == [["9e999"]])
    }

    @Test func aValueOfAnotherTypeIsRefusedNamingTheProperty() throws {
        for call: @Sendable (MigrationContext) throws -> Void in [
            { try $0.insert("Item", values: ["count": "many"]) },
            { try $0.update("Item", id: 1, values: ["count": "many"]) },
        ] {
            let error = try Self.refusal(call)
            #expect(error.code == .typeMismatch)
            #expect(error.message == "a String cannot be stored in 'Item.count', which holds integer values")
        }
    }
}

/// `MigrationOptions.busyTimeout` takes any `TimeInterval`: none stops the migration or the process.
@Suite struct BusyTimeoutHostileInputTests {
    @Test(arguments: [-1, 0, .nan, .infinity, -.infinity, 1e300, 2_147_484, 0.0004])
    func anyBusyTimeoutMigratesAndIsGivenToSQLiteInRange(seconds: TimeInterval) throws {
        let db = TemporaryDatabase()
        let result = try Migrator(plan: TripsLightweightPlan.self, options: MigrationOptions(busyTimeout: seconds))
            .migrate(databaseAt: db.url)
        #expect(result.toVersion == Schema.Version(3, 0, 0))
        let milliseconds = SQLiteConnection.milliseconds(seconds)
        #expect(milliseconds >= 0)
        #expect(seconds.isFinite && seconds > 0 && seconds < 2_147_483 ? milliseconds == Int32(seconds * 1000) : true)
    }
}
