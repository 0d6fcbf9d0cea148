import Foundation
import Testing

@testable import SchemaMigrations

/// Partial and expression indexes declared with `namedIndexes`: created as the SQL a person would
/// write, used by SQLite's planner, adopted where a table has them, and changed by the planner
/// with index statements alone (no table rebuild).
@Suite struct ExpressionIndexTests {
    enum V1: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Customer.self]
        final class Customer: PersistentModel {
            @Attribute var email: String
            var name = ""
            var data = "{}"
            @Attribute(column: "deleted_at") var deletedAt: Double? = nil
            init() {}
        }
    }

    /// A unique partial index over an expression (a soft-deleted duplicate is allowed), and an
    /// index mixing an expression with a collated, descending column.
    enum V2: VersionedSchema {
        static let versionIdentifier = Schema.Version(2, 0, 0)
        static let models: [any PersistentModel.Type] = [Customer.self]
        final class Customer: PersistentModel {
            static let namedIndexes: [NamedIndex] = [
                .unique("Customer_live_email", [.expression("lower(email)")], where: "deleted_at IS NULL"),
                .index(
                    "Customer_kind",
                    [
                        .expression("json_extract(data, '$.kind')"),
                        .column("name", collation: "NOCASE", descending: true),
                    ]),
            ]
            @Attribute var email: String
            var name = ""
            var data = "{}"
            @Attribute(column: "deleted_at") var deletedAt: Double? = nil
            init() {}
        }
    }

    /// The partial index's condition changed, the mixed index dropped, a plain partial index added.
    enum V3: VersionedSchema {
        static let versionIdentifier = Schema.Version(3, 0, 0)
        static let models: [any PersistentModel.Type] = [Customer.self]
        final class Customer: PersistentModel {
            static let namedIndexes: [NamedIndex] = [
                .unique(
                    "Customer_live_email", [.expression("lower(email)")], where: "deleted_at IS NULL AND email <> ''"),
                .index("Customer_deleted", ["deletedAt"], where: "deleted_at IS NOT NULL"),
            ]
            @Attribute var email: String
            var name = ""
            var data = "{}"
            @Attribute(column: "deleted_at") var deletedAt: Double? = nil
            init() {}
        }
    }

    /// V2 written as another person would: other spacing, case and quoting. The same version.
    enum V2Respelled: VersionedSchema {
        static let versionIdentifier = Schema.Version(2, 0, 0)
        static let models: [any PersistentModel.Type] = [Customer.self]
        final class Customer: PersistentModel {
            static let namedIndexes: [NamedIndex] = [
                .unique("Customer_live_email", [.expression(#"LOWER( "email" )"#)], where: #""deleted_at"   is null"#),
                .index(
                    "Customer_kind",
                    [
                        .expression("JSON_EXTRACT(Data,'$.kind')"),
                        .column("name", collation: "nocase", descending: true),
                    ]),
            ]
            @Attribute var email: String
            var name = ""
            var data = "{}"
            @Attribute(column: "deleted_at") var deletedAt: Double? = nil
            init() {}
        }
    }

    /// V2 with a misspelt function in an index expression.
    enum BadExpression: VersionedSchema {
        static let versionIdentifier = Schema.Version(2, 0, 0)
        static let models: [any PersistentModel.Type] = [Customer.self]
        final class Customer: PersistentModel {
            static let namedIndexes: [NamedIndex] = [.index("Customer_email_lower", [.expression("lowr(email)")])]
            @Attribute var email: String
            var name = ""
            var data = "{}"
            @Attribute(column: "deleted_at") var deletedAt: Double? = nil
            init() {}
        }
    }

    /// V2 whose WHERE names the property (`deletedAt`) instead of the column (`deleted_at`).
    enum BadPredicate: VersionedSchema {
        static let versionIdentifier = Schema.Version(2, 0, 0)
        static let models: [any PersistentModel.Type] = [Customer.self]
        final class Customer: PersistentModel {
            static let namedIndexes: [NamedIndex] = [.index("Customer_live", ["email"], where: "deletedAt IS NULL")]
            @Attribute var email: String
            var name = ""
            var data = "{}"
            @Attribute(column: "deleted_at") var deletedAt: Double? = nil
            init() {}
        }
    }

    static let rows = """
        INSERT INTO Customer (id, email, name, data, deleted_at) VALUES
            (1, 'ada@example.com', 'Ada', '{"kind":"admin"}', NULL),
            (2, 'ADA@example.com', 'Ada L.', '{"kind":"user"}', 1700000000.0),
            (3, 'grace@example.com', 'Grace', '{"kind":"user"}', NULL);
        """

    /// The table and indexes as one would write them in the `sqlite3` shell.
    static let handWritten = """
        CREATE TABLE Customer (id INTEGER PRIMARY KEY, email TEXT NOT NULL, name TEXT NOT NULL DEFAULT '', data TEXT NOT NULL DEFAULT '{}', deleted_at REAL);
        CREATE UNIQUE INDEX Customer_live_email ON Customer (lower(email)) WHERE deleted_at IS NULL;
        CREATE INDEX Customer_kind ON Customer (json_extract(data, '$.kind'), name COLLATE NOCASE DESC);
        """

    static func indexSQL(_ db: TemporaryDatabase) throws -> [[String]] {
        try db.rows("SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'Customer' ORDER BY name")
    }

    /// Each index's terms as SQLite reports them: column (NULL for an expression), DESC, collation; and whether it is partial and unique.
    static func indexShape(_ db: TemporaryDatabase) throws -> [[String]] {
        try db.rows(
            """
            SELECT l.name, l."unique", l.partial, group_concat(ifnull(x.name, '<expr>') || ' ' || x."desc" || ' ' || x.coll, ', ')
            FROM pragma_index_list('Customer') AS l JOIN pragma_index_xinfo(l.name) AS x ON x.key = 1
            GROUP BY l.name ORDER BY l.name
            """)
    }

    @Test func aDeclaredVersionCreatesTheIndexesTheHandWrittenSQLWould() throws {
        let created = TemporaryDatabase()
        let result = try PlanBuilder.migrator([Schema(V2.self)]).migrate(databaseAt: created.url)
        #expect(result.outcome == .created)
        #expect(
            try Self.indexSQL(created) == [
                [
                    "'Customer_kind'",
                    #"'CREATE INDEX "Customer_kind" ON "Customer" (json_extract(data, ''$.kind''), "name" COLLATE NOCASE DESC)'"#,
                ],
                [
                    "'Customer_live_email'",
                    #"'CREATE UNIQUE INDEX "Customer_live_email" ON "Customer" (lower(email)) WHERE deleted_at IS NULL'"#,
                ],
            ])
        let hand = TemporaryDatabase()
        try hand.execute(Self.handWritten)
        #expect(try Self.indexShape(created) == Self.indexShape(hand))
        #expect(
            try Self.indexShape(created) == [
                ["'Customer_kind'", "0", "0", "'<expr> 0 BINARY, name 1 NOCASE'"],
                ["'Customer_live_email'", "1", "1", "'<expr> 0 BINARY'"],
            ])
    }

    @Test func sqliteUsesThePartialIndexAndItAllowsASoftDeletedDuplicate() throws {
        let db = TemporaryDatabase()
        try PlanBuilder.migrator([Schema(V2.self)]).migrate(databaseAt: db.url)
        try db.execute(Self.rows)  // ada@ twice: once deleted
        let plan = try db.rows(
            "EXPLAIN QUERY PLAN SELECT id FROM Customer WHERE lower(email) = 'ada@example.com' AND deleted_at IS NULL")
        #expect(plan.contains { $0.last?.contains("USING INDEX Customer_live_email") == true })
        let duplicate = try #require(throws: SQLiteError.self) {
            try db.execute("INSERT INTO Customer (email, deleted_at) VALUES ('Grace@Example.com', NULL)")
        }
        #expect(duplicate.message == "UNIQUE constraint failed: index 'Customer_live_email'")
        try db.execute("INSERT INTO Customer (email, deleted_at) VALUES ('Grace@Example.com', 1.0)")
        #expect(try db.scalar("SELECT count(*) FROM Customer")?.int64Value == 4)
    }

    @Test func aHandMadeTableIsIntrospectedAndAdoptedWithNoDifference() throws {
        let db = TemporaryDatabase()
        try db.execute(Self.handWritten + Self.rows)
        let found = try SchemaIntrospection(databaseAt: db.url)
        #expect(found.undeclarable.isEmpty)
        #expect(found.notCarried.isEmpty)
        let indexes = try #require(found.schema.entity(named: "Customer")?.indexes)
        #expect(indexes.count == 2)
        #expect(
            indexes.contains(
                Schema.Index(
                    elements: [.expression("lower(email)")], isUnique: true, name: "Customer_live_email",
                    predicate: "deleted_at IS NULL")))
        #expect(
            indexes.contains(
                Schema.Index(
                    elements: [
                        .expression("json_extract(data, '$.kind')"),
                        .column("name", collation: "NOCASE", descending: true),
                    ],
                    name: "Customer_kind")))
        // The declared V2, spelled either way, and the introspected schema all match the file.
        for declared in [try Schema(V2.self), try Schema(V2Respelled.self), found.schema] {
            #expect(
                SchemaComparison(checksDefaults: false).differences(
                    declared: declared, live: try LiveSchema.read(from: db.connect())) == [])
        }
        // Declared without them, the differences and the refusal say which index to declare.
        #expect(
            SchemaComparison(checksDefaults: false).differences(
                declared: try Schema(V1.self), live: try LiveSchema.read(from: db.connect())
            ).map(\.description)
                == [
                    "unique index Customer_live_email on Customer, `CREATE UNIQUE INDEX Customer_live_email ON Customer (lower(email)) WHERE deleted_at IS NULL`, is not declared"
                ])
        let bytes = try db.bytes()
        let refusal = try #require(throws: MigrationError.self) {
            try PlanBuilder.migrator([Schema(V1.self)]).migrate(databaseAt: db.url)
        }
        #expect(
            refusal.details.contains(
                "Customer: the unique index Customer_live_email, `CREATE UNIQUE INDEX Customer_live_email ON Customer (lower(email)) WHERE deleted_at IS NULL`, is not declared: add it to `static let namedIndexes` with `.unique`"
            ))
        #expect(try db.bytes() == bytes)
        let before = try Self.indexSQL(db)
        let result = try PlanBuilder.migrator([Schema(V1.self), Schema(V2.self)]).migrate(databaseAt: db.url)
        #expect(result.adopted && result.stages.isEmpty)
        #expect(try db.recordedVersion() == "2.0.0")
        #expect(try Self.indexSQL(db) == before)
    }

    @Test func theTermsAndConditionAreHashedAsSQLiteReadsThem() throws {
        let v2 = try Schema(V2.self)
        #expect(v2.versionHash == (try Schema(V2Respelled.self)).versionHash)
        #expect(v2.versionHash != (try Schema(V1.self)).versionHash)
        var otherCondition = v2
        otherCondition.entities[0].indexes[0].predicate = "deleted_at IS NOT NULL"
        #expect(otherCondition.versionHash != v2.versionHash)
        var ascending = v2
        ascending.entities[0].indexes[1].elements![1].isDescending = false
        #expect(ascending.versionHash != v2.versionHash)
        for schema in [v2, try Schema(V3.self)] {
            let hashed = HashedSchema(schema)
            #expect(hashed.canonicalText == (try CanonicalJSON.encode(hashed)))
            #expect(try Schema(snapshotJSON: Data(schema.snapshotJSON().utf8)) == schema)
        }
        #expect(try v2.snapshotJSON().contains(#""predicate": "deleted_at IS NULL""#))
        #expect(try !(Schema(V1.self).snapshotJSON().contains("predicate")))
    }

    @Test func addingChangingAndDroppingIndexesAreIndexStatementsNotARebuild() throws {
        let db = TemporaryDatabase()
        try db.execute(
            """
            CREATE TABLE Customer (id INTEGER PRIMARY KEY, email TEXT NOT NULL, name TEXT NOT NULL DEFAULT '', data TEXT NOT NULL DEFAULT '{}', deleted_at REAL);
            """ + Self.rows)
        let rows = try db.rows("SELECT * FROM Customer ORDER BY id")
        let toV2 = try PlanBuilder.migrator([Schema(V1.self), Schema(V2.self)]).migrate(databaseAt: db.url)
        #expect(toV2.stages.flatMap(\.steps).map(\.op) == [.createIndex, .createIndex])
        #expect(try db.recordedVersion() == "2.0.0")
        #expect(try Self.indexShape(db).map(\.first) == [["'Customer_kind'"], ["'Customer_live_email'"]].map(\.first))

        let toV3 = try PlanBuilder.migrator([Schema(V1.self), Schema(V2.self), Schema(V3.self)]).migrate(
            databaseAt: db.url)
        let steps = toV3.stages.flatMap(\.steps)
        #expect(steps.map(\.op) == [.dropIndex, .dropIndex, .createIndex, .createIndex])
        #expect(
            steps.map(\.summary) == [
                "Drop unique index Customer_live_email on Customer(lower(email)) WHERE deleted_at IS NULL",
                "Drop index Customer_kind on Customer(json_extract(data, '$.kind'), name COLLATE NOCASE DESC)",
                "Create unique index Customer_live_email on Customer(lower(email)) WHERE deleted_at IS NULL AND email <> ''",
                "Create index Customer_deleted on Customer(deleted_at) WHERE deleted_at IS NOT NULL",
            ])
        #expect(try db.recordedVersion() == "3.0.0")
        #expect(
            try Self.indexSQL(db) == [
                [
                    "'Customer_deleted'",
                    #"'CREATE INDEX "Customer_deleted" ON "Customer" ("deleted_at") WHERE deleted_at IS NOT NULL'"#,
                ],
                [
                    "'Customer_live_email'",
                    #"'CREATE UNIQUE INDEX "Customer_live_email" ON "Customer" (lower(email)) WHERE deleted_at IS NULL AND email <> '''''"#,
                ],
            ])
        #expect(try db.rows("SELECT * FROM Customer ORDER BY id") == rows)
        #expect(
            try PlanBuilder.migrator([Schema(V1.self), Schema(V2.self), Schema(V3.self)]).verify(databaseAt: db.url)
                .currentVersion == Schema.Version(3, 0, 0))
        #expect(try db.rows("PRAGMA integrity_check") == [["'ok'"]])
    }

    @Test(arguments: [
        (
            BadExpression.self as any VersionedSchema.Type,
            "SQLite rejects the index Customer_email_lower of 'Customer', (lowr(email)): no such function: lowr"
        ),
        (
            BadPredicate.self as any VersionedSchema.Type,
            "SQLite rejects the index Customer_live of 'Customer', (email) WHERE deletedAt IS NULL: no such column: deletedAt"
        ),
    ])
    func anExpressionSQLiteRejectsIsRefusedBeforeAnythingIsWritten(bad: any VersionedSchema.Type, message: String)
        throws
    {
        let db = TemporaryDatabase()
        try PlanBuilder.migrator([Schema(V1.self)]).migrate(databaseAt: db.url)
        try db.execute(Self.rows)
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) {
            try PlanBuilder.migrator([Schema(V1.self), Schema(bad)]).migrate(databaseAt: db.url)
        }
        #expect(error.code == .invalidSchema)
        #expect(error.message == message)
        #expect(error.entity == "Customer")
        #expect(try db.bytes() == before)
        #expect(try db.recordedVersion() == "1.0.0")
    }

    /// Terms with an order or a collation, no expression.
    enum Ordered: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Customer.self]
        final class Customer: PersistentModel {
            static let namedIndexes: [NamedIndex] = [
                .index("Customer_recent", [.column("name", descending: true)]),
                .unique("Customer_email_nocase", [.column("email", collation: "NOCASE")]),
            ]
            @Attribute var email: String
            var name = ""
            init() {}
        }
    }

    @Test func descendingAndCollatedTermsAreDeclaredCreatedAndAdopted() throws {
        let hand = TemporaryDatabase()
        try hand.execute(
            """
            CREATE TABLE Customer (id INTEGER PRIMARY KEY, email TEXT NOT NULL, name TEXT NOT NULL DEFAULT '');
            CREATE INDEX Customer_recent ON Customer (name DESC);
            CREATE UNIQUE INDEX Customer_email_nocase ON Customer (email COLLATE NOCASE);
            INSERT INTO Customer (email, name) VALUES ('ada@example.com', 'Ada');
            """)
        let found = try SchemaIntrospection(databaseAt: hand.url)
        #expect(found.undeclarable.isEmpty && found.notCarried.isEmpty)
        #expect(found.schema.versionHash == (try Schema(Ordered.self)).versionHash)
        #expect(
            SchemaComparison(checksDefaults: false).differences(
                declared: try Schema(Ordered.self), live: try LiveSchema.read(from: hand.connect())) == [])
        let created = TemporaryDatabase()
        try PlanBuilder.migrator([Schema(Ordered.self)]).migrate(databaseAt: created.url)
        let shape =
            "SELECT x.name, x.\"desc\", x.coll FROM pragma_index_list('Customer') AS l JOIN pragma_index_xinfo(l.name) AS x ON x.key = 1 ORDER BY l.name"
        #expect(try created.rows(shape) == hand.rows(shape))
        #expect(throws: SQLiteError.self) {
            try created.execute("INSERT INTO Customer (email) VALUES ('A@x'), ('a@X')")
        }
        // An ascending declaration does not match the DESC index.
        var ascending = try Schema(Ordered.self)
        ascending.entities[0].indexes[0].elements![0].isDescending = false
        ascending.entities[0].indexes[0].elements![0].collation = "RTRIM"
        #expect(
            SchemaComparison(checksDefaults: false).differences(
                declared: ascending, live: try LiveSchema.read(from: hand.connect())
            ).map(\.description)
                == ["index Customer_recent on Customer(name COLLATE RTRIM) is missing"])
    }

    /// calibre indexes `sort COLLATE NOCASE` on a column that is NOCASE already. The index spells
    /// its collation, so it keeps it when the column's changes: the declaration says it, and a new
    /// install spells it too.
    @Test func aCollationTheIndexSpellsIsDeclaredEvenWhenTheColumnHasItToo() throws {
        let original = TemporaryDatabase()
        try original.execute(
            """
            CREATE TABLE books (id INTEGER PRIMARY KEY, sort TEXT COLLATE NOCASE, title TEXT COLLATE NOCASE);
            CREATE INDEX books_idx ON books (sort COLLATE NOCASE);
            CREATE INDEX books_title ON books (title);
            """)
        let found = try SchemaIntrospection(databaseAt: original.url)
        #expect(found.undeclarable.isEmpty && found.notCarried.isEmpty, "\(found.undeclarable) \(found.notCarried)")
        let indexes = try #require(found.schema.entity(named: "books")).indexes
        #expect(indexes.first { $0.name == "books_idx" }?.elements == [.column("sort", collation: "NOCASE")])
        #expect(indexes.first { $0.name == "books_title" }?.elements == nil)
        let created = TemporaryDatabase()
        let migrator = try PlanBuilder.migrator([found.schema])
        try migrator.migrate(databaseAt: created.url)
        let (file, fresh) = (try SemanticSchema.lines(original.path), try SemanticSchema.lines(created.path))
        #expect(file == fresh, "\(SemanticSchema.difference(file, fresh))")
        #expect(try migrator.migrate(databaseAt: original.url).adopted)
        #expect(try migrator.verify(databaseAt: original.url).isUpToDate)
    }

    /// V2 with `email` renamed `mail` (the index expressions follow it) and `name` made optional (a rebuild).
    enum Renamed: VersionedSchema {
        static let versionIdentifier = Schema.Version(3, 0, 0)
        static let models: [any PersistentModel.Type] = [Customer.self]
        final class Customer: PersistentModel {
            static let namedIndexes: [NamedIndex] = [
                .unique("Customer_live_email", [.expression("lower(mail)")], where: "deleted_at IS NULL"),
                .index(
                    "Customer_kind",
                    [
                        .expression("json_extract(data, '$.kind')"),
                        .column("name", collation: "NOCASE", descending: true),
                    ]),
            ]
            @Attribute(originalName: "email") var mail: String
            var name: String? = ""
            var data = "{}"
            @Attribute(column: "deleted_at") var deletedAt: Double? = nil
            init() {}
        }
    }

    @Test func aRenamedColumnIsFollowedByItsIndexesThroughARebuild() throws {
        let db = TemporaryDatabase()
        try PlanBuilder.migrator([Schema(V2.self)]).migrate(databaseAt: db.url)
        try db.execute(Self.rows)
        let rows = try db.rows("SELECT * FROM Customer ORDER BY id")
        let migrator = try PlanBuilder.migrator([Schema(V2.self), Schema(Renamed.self)])
        let report = try migrator.plan(databaseAt: db.url)
        #expect(report.stages.flatMap(\.steps).map(\.step.op) == [.renameColumn, .rebuildTable])
        #expect(report.stages[0].steps[1].carriedOver.contains("index Customer_live_email"))
        let result = try migrator.migrate(databaseAt: db.url)
        #expect(result.stages.flatMap(\.steps).map(\.op) == [.renameColumn, .rebuildTable])
        #expect(try db.rows("SELECT * FROM Customer ORDER BY id") == rows)
        #expect(try Self.indexSQL(db).map(\.first) == [["'Customer_kind'"], ["'Customer_live_email'"]].map(\.first))
        #expect(
            try db.scalar("SELECT sql FROM sqlite_schema WHERE name = 'Customer_live_email'")?.stringValue
                == #"CREATE UNIQUE INDEX "Customer_live_email" ON "Customer" (lower("mail")) WHERE deleted_at IS NULL"#)
        #expect(try migrator.verify(databaseAt: db.url).currentVersion == Schema.Version(3, 0, 0))
    }

    @Test func aUniquePartialIndexTheRowsBreakRollsEverythingBack() throws {
        let db = TemporaryDatabase()
        try PlanBuilder.migrator([Schema(V1.self)]).migrate(databaseAt: db.url)
        try db.execute(Self.rows + "INSERT INTO Customer (id, email) VALUES (4, 'Grace@example.com');")
        let before = try db.bytes()
        let error = try #require(throws: MigrationError.self) {
            try PlanBuilder.migrator([Schema(V1.self), Schema(V2.self)]).migrate(databaseAt: db.url)
        }
        #expect(error.sqliteError?.message == "UNIQUE constraint failed: index 'Customer_live_email'")
        #expect(try db.bytes() == before)
        #expect(try db.recordedVersion() == "1.0.0")
    }

    enum Unnamed: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Customer.self]
        final class Customer: PersistentModel {
            @Attribute var email: String
            init() {}
        }
    }

    @Test func anIndexWithAnExpressionMustBeNamedAndOneExpression() throws {
        var unnamed = try Schema(Unnamed.self)
        unnamed.entities[0].indexes = [Schema.Index(elements: [.expression("lower(email)")], name: nil)]
        let error = try #require(throws: MigrationError.self) { try unnamed.validate() }
        #expect(error.message == "an index of 'Customer' (lower(email)) has expressions or a WHERE but no name")
        unnamed.entities[0].indexes = [Schema.Index(elements: [.expression("lower(email)) --")], name: "x")]
        let notOne = try #require(throws: MigrationError.self) { try unnamed.validate() }
        #expect(
            notOne.message == "the index x of 'Customer' has a term that is not one SQL expression: lower(email)) --")
    }
}
