import Foundation
import Testing

@testable import SchemaMigrations

/// Introspection says every option the declaration API has: a table using them comes out
/// declared, with idiomatic property names, and adopts its file with zero differences.
@Suite struct IntrospectedOptionsTests {
    static let everyOption = """
        CREATE TABLE user_account (uuid TEXT NOT NULL PRIMARY KEY, "e-mail" TEXT NOT NULL COLLATE NOCASE CHECK (length("e-mail") > 3),
                                   created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP, "default" INTEGER NOT NULL DEFAULT 0,
                                   is_admin BOOLEAN NOT NULL DEFAULT FALSE, "2fa_code" TEXT, "self" BLOB);
        CREATE TABLE Counter (id INTEGER PRIMARY KEY AUTOINCREMENT, label TEXT NOT NULL, n INT NOT NULL DEFAULT (1 + 1)) STRICT;
        CREATE TABLE Tag (name TEXT NOT NULL PRIMARY KEY COLLATE NOCASE, weight REAL) WITHOUT ROWID;
        CREATE TABLE Tagging (account TEXT NOT NULL REFERENCES user_account(uuid) ON DELETE CASCADE ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED,
                              tag TEXT NOT NULL REFERENCES Tag ON DELETE RESTRICT, PRIMARY KEY (account, tag)) WITHOUT ROWID;
        CREATE TABLE Event (id INTEGER PRIMARY KEY, seen DATE, stamp TIMESTAMP NOT NULL, written DATETIME, counter_id INTEGER REFERENCES Counter ON DELETE SET NULL);
        CREATE INDEX event_seen ON Event(seen);
        CREATE UNIQUE INDEX tag_weight ON Tag(weight);
        INSERT INTO user_account (uuid, "e-mail", is_admin) VALUES ('5B8E0D4A-8C53-4A5E-9F4C-1D2E3F405162', 'nina@example.com', TRUE);
        INSERT INTO Counter (label) VALUES ('visits');
        INSERT INTO Tag VALUES ('jazz', 1.5);
        INSERT INTO Tagging VALUES ('5B8E0D4A-8C53-4A5E-9F4C-1D2E3F405162', 'JAZZ');
        INSERT INTO Event (seen, stamp, written, counter_id) VALUES (2460000.5, 1700000000, '2024-02-29 13:45:07.250', 1), (julianday('2001-01-01'), 1.5e9, NULL, NULL);
        """

    @Test func everyDeclarationOptionComesOutDeclared() throws {
        let db = TemporaryDatabase()
        try db.execute(Self.everyOption)
        let found = try SchemaIntrospection(databaseAt: db.url)
        #expect(found.undeclarable.isEmpty)
        #expect(found.notCarried.isEmpty)
        #expect(found.schema.entityNames == ["user_account", "Counter", "Tag", "Tagging", "Event"])
        #expect(
            SwiftNames.typeNames(of: found.schema) == [
                "user_account": "UserAccount", "Counter": "Counter", "Tag": "Tag", "Tagging": "Tagging",
                "Event": "Event",
            ])

        let account = try #require(found.schema.entity(named: "user_account"))
        #expect(account.primaryKey == ["uuid"])
        #expect(
            account.attributes == [
                Schema.Attribute(name: "uuid", valueType: .string),
                Schema.Attribute(
                    name: "e-mail", valueType: .string, propertyName: "eMail", check: "length(\"e-mail\") > 3",
                    collation: "NOCASE"),
                Schema.Attribute(
                    name: "created_at", valueType: .date, defaultValue: "CURRENT_TIMESTAMP", propertyName: "createdAt",
                    sqlType: "DATETIME", dateStorage: .iso8601Text),
                Schema.Attribute(name: "default", valueType: .integer, defaultValue: "0"),
                Schema.Attribute(
                    name: "is_admin", valueType: .bool, defaultValue: "FALSE", propertyName: "isAdmin",
                    sqlType: "BOOLEAN"),
                Schema.Attribute(name: "2fa_code", valueType: .string, isOptional: true, propertyName: "_2faCode"),
                Schema.Attribute(name: "self", valueType: .data, isOptional: true, propertyName: "selfColumn"),
            ])
        #expect(SwiftNames.spelled(account.attributes[3].property) == "`default`")

        let counter = try #require(found.schema.entity(named: "Counter"))
        #expect(counter.primaryKey == ["id"] && counter.isAutoincrement && counter.isStrict)
        #expect(
            counter.attribute(named: "n")
                == Schema.Attribute(name: "n", valueType: .integer, defaultValue: "(1 + 1)", sqlType: "INT"))

        let tag = try #require(found.schema.entity(named: "Tag"))
        #expect(tag.primaryKey == ["name"] && tag.isWithoutRowID && tag.attribute(named: "name")?.collation == "NOCASE")
        #expect(tag.indexes == [Schema.Index(["weight"], isUnique: true, name: "tag_weight")])

        let tagging = try #require(found.schema.entity(named: "Tagging"))
        #expect(tagging.primaryKey == ["account", "tag"] && tagging.isWithoutRowID)
        #expect(
            tagging.attribute(named: "account")?.references
                == Schema.ForeignKey(
                    table: "user_account", onDelete: "CASCADE", column: "uuid", onUpdate: "CASCADE", isDeferred: true))
        // `REFERENCES Tag` names no column: a table constraint with none, as the file has it
        // (`PRAGMA foreign_key_list` tells it from `REFERENCES Tag (name)`).
        #expect(tagging.attribute(named: "tag")?.references == nil)
        #expect(tagging.constraints == [.foreignKey(["tag"], references: "Tag", onDelete: .restrict)])

        // Dates: Julian days, seconds since 1970, and ISO-8601 text, each read from the values.
        let event = try #require(found.schema.entity(named: "Event"))
        #expect(event.hasImplicitID)
        #expect(
            event.attribute(named: "seen")
                == Schema.Attribute(
                    name: "seen", valueType: .date, isOptional: true, sqlType: "DATE", dateStorage: .julianDay))
        #expect(
            event.attribute(named: "stamp") == Schema.Attribute(name: "stamp", valueType: .date, sqlType: "TIMESTAMP"))
        #expect(
            event.attribute(named: "written")
                == Schema.Attribute(
                    name: "written", valueType: .date, isOptional: true, sqlType: "DATETIME", dateStorage: .iso8601Text)
        )
        #expect(event.attribute(named: "counter_id")?.references == nil)
        #expect(event.constraints == [.foreignKey(["counter_id"], references: "Counter", onDelete: .setNull)])
        #expect(event.attribute(named: "counter_id")?.propertyName == "counterID")
        #expect(event.indexes == [Schema.Index(["seen"], name: "event_seen")])
    }

    @Test func theIntrospectedSchemaAdoptsItsFileAndReadsItsDates() throws {
        let db = TemporaryDatabase()
        try db.execute(Self.everyOption)
        let v1 = try Schema(introspecting: db.url)
        let directory = db.directory.appendingPathComponent("plan")
        try PlanDirectory(name: "Options", schemas: [v1], stages: []).write(to: directory)
        let migrator = try Migrator(planDirectory: directory)
        let before = try db.rows("SELECT * FROM Event ORDER BY id")
        let result = try migrator.migrate(databaseAt: db.url)
        #expect(result.adopted && result.stages.isEmpty)
        #expect(try db.rows("SELECT * FROM Event ORDER BY id") == before)
        #expect(try migrator.verify(databaseAt: db.url).isUpToDate)
        // The storage each date column was given reads its values as the dates they are.
        let event = try #require(v1.entity(named: "Event"))
        let row = try db.connect().rows("SELECT seen, stamp, written FROM Event WHERE id = 1")[0]
        #expect(
            event.attribute(named: "seen")!.dateStorage!.date(from: row[0])
                == Date(timeIntervalSince1970: (2_460_000.5 - 2_440_587.5) * 86_400))
        #expect(Schema.DateStorage.secondsSince1970.date(from: row[1]) == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(
            event.attribute(named: "written")!.dateStorage!.date(from: row[2])
                == DateText.parse("2024-02-29 13:45:07.250"))
    }

    @Test func whatCannotBeDeclaredIsLeftOutWithItsReason() throws {
        let db = TemporaryDatabase()
        try db.execute(
            """
            CREATE TABLE Loose (a TEXT, b INTEGER);
            CREATE TABLE Ledger (id INTEGER PRIMARY KEY, amount NUMERIC);
            INSERT INTO Ledger (amount) VALUES (12.5), ('n/a');
            CREATE TABLE Legacy (code TEXT PRIMARY KEY, name TEXT);
            CREATE TABLE Child (id INTEGER PRIMARY KEY, legacy TEXT REFERENCES Legacy(code));
            CREATE TABLE Pair (x INTEGER NOT NULL, y INTEGER NOT NULL, PRIMARY KEY (x, y));
            CREATE TABLE PairRef (id INTEGER PRIMARY KEY, x INTEGER, y INTEGER, FOREIGN KEY (x, y) REFERENCES Pair(x, y));
            CREATE TABLE Dangling (id INTEGER PRIMARY KEY, x INTEGER, y INTEGER, FOREIGN KEY (x, y) REFERENCES Pair(y, id));
            """)
        let found = try SchemaIntrospection(databaseAt: db.url)
        // A table keyed by its rowid, a NUMERIC column holding text, a key that may hold NULL: all
        // declared as SQLite has them, a composite foreign key too; only a key SQLite would refuse
        // on every write (onto columns that are not a key of the parent) leaves its table out.
        #expect(found.schema.entityNames == ["Loose", "Ledger", "Legacy", "Child", "Pair", "PairRef"])
        #expect(
            found.schema.entity(named: "PairRef")?.constraints == [
                .foreignKey(["x", "y"], references: "Pair", columns: ["x", "y"])
            ])
        #expect(found.schema.entity(named: "Loose")?.primaryKey == [])
        let amount = try #require(found.schema.entity(named: "Ledger")?.attribute(named: "amount"))
        #expect(amount.valueType == .sqliteValue && amount.sqlType == "NUMERIC")
        #expect(found.schema.entity(named: "Legacy")?.attribute(named: "code")?.isOptional == true)
        let notes = Dictionary(uniqueKeysWithValues: found.undeclarable.map { ($0.table, $0.notes) })
        #expect(
            notes == [
                "Dangling": [
                    "the constraint `FOREIGN KEY (\"x\", \"y\") REFERENCES \"Pair\" (\"y\", \"id\")` of 'Dangling' references 'Pair.id', which is not a column of 'Pair'"
                ]
            ]
        )
        let error = try #require(throws: MigrationError.self) { try Schema(introspecting: db.url) }
        #expect(error.code == .invalidSchema)
        #expect(error.message.hasSuffix("1 table of '\(db.path)' cannot be declared yet"))
        #expect(
            error.details == [
                "Dangling: the constraint `FOREIGN KEY (\"x\", \"y\") REFERENCES \"Pair\" (\"y\", \"id\")` of 'Dangling' references 'Pair.id', which is not a column of 'Pair'"
            ])
    }
}

/// How a date column's storage is chosen when its values do not all agree, or there are none.
@Suite struct IntrospectedDateStorageTests {
    @Test func theValuesDecideAndWhatDoesNotFitIsListed() throws {
        let db = TemporaryDatabase()
        try db.execute(
            """
            CREATE TABLE Visit (id INTEGER PRIMARY KEY, mixed DATETIME, odd DATE, empty_text DATETIME, empty_real REAL_DATE, by_default TIMESTAMP DEFAULT 2451545.0);
            INSERT INTO Visit (mixed, odd) VALUES ('2024-01-01 10:00:00', 'yesterday'), (1700000000, '2024-01-02');
            """)
        let found = try SchemaIntrospection(databaseAt: db.url)
        let visit = try #require(found.schema.entity(named: "Visit"))
        #expect(visit.attributes.map(\.dateStorage) == [nil, .iso8601Text, .iso8601Text, nil, .julianDay])
        #expect(visit.attributes.map(\.valueType) == [.date, .date, .date, .date, .date])
        #expect(
            found.notCarried.first?.notes == [
                "column mixed holds dates both as text (1) and as numbers (1); declared as secondsSince1970, the text ones are read as text dates",
                "column odd holds 1 text value that is not a date (read as nil)",
            ])
        #expect(found.undeclarable.isEmpty)
    }
}
