import Foundation
import SchemaMigrations

/// Declared versions that together use every declaration option the model has: each is read
/// into a `Schema`, rendered as Swift by `SwiftDeclarations`, compiled, and must read back as the
/// same schema.
enum ScaffoldCases {
    /// Case name → the declared version to render. The name prefixes the generated types (`KeysSchemaV1`).
    static let versions: [(name: String, version: any VersionedSchema.Type)] = [
        ("Keys", KeysSchema.self),
        ("Values", ValuesSchema.self),
        ("Names", NamesSchema.self),
        ("Computed", ComputedSchema.self),
    ]
}

/// Keys of every kind (autoincrement, UUID, composite, WITHOUT ROWID, STRICT), foreign keys onto
/// named key columns with every clause, SQL types, CHECK, COLLATE, date storages, default
/// expressions, named indexes.
enum KeysSchema: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static let models: [any PersistentModel.Type] = [Artist.self, Album.self, Playlist.self, PlaylistTrack.self]

    final class Artist: PersistentModel {
        @Attribute(.primaryKey, .autoincrement, column: "ArtistId") var artistID = 0
        @Attribute(column: "Name", sqlType: "NVARCHAR(120)", collation: "NOCASE") var name: String? = nil
        init() {}
    }

    final class Album: PersistentModel {
        static let indexes: [[String]] = [["artistID"], ["title", "releasedAt"]]
        static let indexNames = ["IFK_AlbumArtistId": ["artistID"]]
        @Attribute(.primaryKey, column: "AlbumId") var albumID = 0
        @Attribute(column: "Title", sqlType: "NVARCHAR(160)", check: "length(Title) > 0") var title = "Untitled"
        @Attribute(
            column: "ArtistId",
            references: .to(Artist.self, column: "ArtistId", onDelete: .cascade, onUpdate: .noAction, deferred: true))
        var artistID = 0
        @Attribute(column: "Price", sqlType: "NUMERIC(10,2)") var price = 0.99
        @Attribute(column: "ReleasedAt", sqlType: "DATETIME", dateStorage: .iso8601Text) var releasedAt = Date(
            timeIntervalSince1970: 1_000_000_000.25)
        @Attribute(defaultExpression: "CURRENT_TIMESTAMP") var addedAt: String
        @Attribute(defaultExpression: "0") var plays: Double
        init() {}
    }

    final class Playlist: PersistentModel {
        @Attribute(.primaryKey) var id: UUID
        @Attribute(sqlType: "BOOLEAN") var isPublic = false
        @Attribute(references: .to(Playlist.self, onDelete: .setNull, onUpdate: .cascade)) var parentID: UUID? = nil
        init() {}
    }

    final class PlaylistTrack: PersistentModel {
        static let primaryKey: [String]? = ["playlistID", "position"]
        static let withoutRowID = true
        static let strict = true
        @Attribute(column: "PlaylistId", references: .to(Playlist.self, onDelete: .restrict)) var playlistID: UUID
        @Attribute(column: "Position") var position: Int
        @Attribute(dateStorage: .julianDay) var addedOn = Date(timeIntervalSince1970: 86_400)
        init() {}
    }
}

enum Mood: String, Codable, Sendable { case calm, busy }

/// The default `id` key, a value of every storable type with and without defaults, SwiftData's
/// options, renames and hash modifiers, uniqueness, indexes, and relationships of every kind.
enum ValuesSchema: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 2, 3)
    static let models: [any PersistentModel.Type] = [Trip.self, BucketListItem.self, Snippet.self, Tag.self]

    final class Trip: PersistentModel {
        static let originalName: String? = "Journey"
        static let hashModifier: String? = "layout-1"
        static let indexes: [[String]] = [["startDate"], ["name", "startDate"], ["id", "name"]]
        static let uniqueness: [[String]] = [["name", "startDate"]]
        static let indexNames = ["trip_by_start": ["startDate"]]
        @Attribute(.unique, .spotlight) var name = ""
        @Attribute(originalName: "start_date") var startDate = Date.distantPast
        var endDate: Date? = nil
        var legs: Int32 = 7
        var ratio: Float = 0.5
        var score = -12.75
        var isFavorite = true
        var notes: String? = "it's \"quoted\"\n\ttabbed \\ ☃ \u{7}"
        var photo = Data([0, 1, 255])
        var emptyPhoto = Data()
        var externalID = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        var homepage = URL(string: "https://example.com/a?b=c")!
        var budget = Decimal(string: "1234.56")!
        var mood = Mood.calm
        var count: Int? = 3
        @Attribute(hashModifier: "cents") var rating: Int
        @Attribute(.externalStorage, .allowsCloudEncryption, .preserveValueOnDeletion, .ephemeral) var attachment:
            Data? = nil
        @Relationship(deleteRule: .cascade, inverse: "trip") var bucketList: [BucketListItem] = []
        @Transient var viewCount = 0
        init() {}
    }

    final class BucketListItem: PersistentModel {
        static let entityName = "bucket_list_items"
        var title = ""
        @Relationship(originalName: "journey", hashModifier: "h") var trip: Trip? = nil
        init() {}
    }

    final class Snippet: PersistentModel {
        var text = ""
        @Relationship(deleteRule: .noAction) var tags: [Tag] = []
        init() {}
    }

    final class Tag: PersistentModel {
        var label = ""
        @Relationship(deleteRule: .deny) var snippets: [Snippet] = []
        init() {}
    }
}

/// Names Swift cannot take as they are: keywords, digits first, spaces, case-only clashes with
/// the file's own types, two columns with one idiomatic name, non-ASCII letters.
enum NamesSchema: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static let models: [any PersistentModel.Type] = [DateRow.self, OrderLines.self, KeywordRow.self]

    /// A table named `Date`: its type must not hide Foundation's `Date` inside the version.
    final class DateRow: PersistentModel {
        static let entityName = "Date"
        var when = Date(timeIntervalSince1970: 0)
        init() {}
    }

    final class OrderLines: PersistentModel {
        static let entityName = "order lines"
        @Attribute(column: "first name") var firstName = ""
        @Attribute(column: "created_at") var createdAt = 0
        var createdAt2 = 0
        @Attribute(column: "createdAt") var createdAtCamel = 0
        @Attribute(column: "2fa") var twoFactor = false
        @Attribute(column: "café") var cafe = ""
        @Attribute(column: "___") var underscores = 1
        init() {}
    }

    final class KeywordRow: PersistentModel {
        static let entityName = "class"
        static let uniqueness: [[String]] = [["default", "in"]]
        var `default` = 1
        var `in` = ""
        @Attribute(column: "self") var selfColumn = ""
        @Attribute(column: "Type") var typeColumn = ""
        init() {}
    }
}

/// What SQLite computes or indexes beyond plain columns: generated columns (VIRTUAL and STORED),
/// and named indexes that are partial, over expressions, collated or descending.
enum ComputedSchema: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static let models: [any PersistentModel.Type] = [Customer.self, OrderLine.self]

    final class Customer: PersistentModel {
        static let namedIndexes: [NamedIndex] = [
            .unique("customer_live_email", [.expression("lower(email)")], where: "deleted_at IS NULL"),
            .index("customer_recent", ["fullName", .column("createdAt", descending: true)]),
            .index("customer_name_nocase", [.column("fullName", collation: "NOCASE")]),
            .index("customer_kind", [.expression("json_extract(data, '$.kind')")]),
        ]
        @Attribute(column: "full_name") var fullName = ""
        var email = ""
        @Attribute(column: "created_at") var createdAt = 0.0
        var data = "{}"
        @Attribute(column: "deleted_at") var deletedAt: Double? = nil
        init() {}
    }

    final class OrderLine: PersistentModel {
        @Attribute(column: "unit_price") var unitPrice = 0.0
        var quantity = 1
        @Attribute(generated: .virtual("unit_price * quantity")) var total: Double? = nil
        @Attribute(generated: .stored("quantity > 10")) var bulk: Bool? = nil
        init() {}
    }
}

/// Cases given as schemas, as introspection reads a file, rendered under `planName`: tables named
/// like every type the generated file mentions (and like keywords and the file's own types), each
/// using the features that make the file mention them; a STRICT table's `ANY` columns.
enum ScaffoldSchemaCases {
    /// Case name, plan name, schema.
    static let cases: [(name: String, planName: String, schema: Schema)] = [
        ("Reserved", "Reserved", reservedNames),
        ("Strict", "Strict \"plan\" \\ name", strictAny),
        ("Shared", "Shared", sharedColumnsAndObjects),
    ]

    /// A unique index and a named plain index over the same column (a NamedIndex names the
    /// latter, which indexNames could not), and the version's view and trigger.
    static var sharedColumnsAndObjects: Schema {
        Schema(
            version: Schema.Version(1, 0, 0),
            entities: [
                Schema.Entity(
                    name: "people",
                    attributes: [
                        Schema.Attribute(name: "email", valueType: .string),
                        Schema.Attribute(name: "age", valueType: .integer, isOptional: true),
                    ],
                    indexes: [
                        Schema.Index(["email"], isUnique: true), Schema.Index(["email"], name: "people_email"),
                        Schema.Index(["age", "email"], name: "people_age"),
                    ])
            ],
            sqlObjects: [
                .view("CREATE VIEW adults AS SELECT email FROM people WHERE age >= 18"),
                .trigger(
                    "CREATE TRIGGER people_check BEFORE INSERT ON people BEGIN SELECT RAISE(ABORT, 'no email') WHERE NEW.email = ''; END"
                ),
            ])
    }

    /// The generated `VersionedSchema` type of each case, by case name.
    static var schemaTypeNames: [String: String] {
        Dictionary(
            uniqueKeysWithValues: cases.map {
                ($0.name, SwiftDeclarations(schema: $0.schema, name: $0.planName).schemaTypeName)
            })
    }

    /// The type names the generated file uses, written out here rather than read from the
    /// renderer, so that a name it forgets to reserve fails to compile.
    static let typeNamesTheFileUses = [
        "Any", "Array", "Attribute", "Bool", "Data", "Date", "Decimal", "Dictionary", "Double", "Error", "Float",
        "ForeignKeyReference",
        "Foundation", "Int", "MigrationStage", "NamedIndex", "Never", "Optional", "PersistentModel", "Relationship",
        "Schema",
        "SchemaMigrationPlan", "SchemaMigrations", "Sendable", "Set", "String", "Transient", "URL", "UUID",
        "VersionedSchema",
    ]

    static var reservedNames: Schema {
        let tables =
            typeNamesTheFileUses + [
                "Self", "Type", "Protocol", "class", "ReservedSchemaV1", "ReservedMigrationPlan", "NamedIndexTable",
            ]
        return Schema(
            version: Schema.Version(1, 0, 0),
            entities: tables.map { table in
                Schema.Entity(
                    name: table,
                    attributes: [
                        Schema.Attribute(
                            name: "label", valueType: .string, defaultValue: "'x'", sqlType: "NVARCHAR(20)",
                            check: "length(label) > 0", collation: "NOCASE"),
                        Schema.Attribute(name: "count", valueType: .integer, defaultValue: "3"),
                        Schema.Attribute(name: "ratio", valueType: .double, defaultValue: "1.5"),
                        Schema.Attribute(name: "flag", valueType: .bool, defaultValue: "1"),
                        Schema.Attribute(name: "at", valueType: .date, defaultValue: "0.5"),
                        Schema.Attribute(name: "day", valueType: .date, isOptional: true, dateStorage: .iso8601Text),
                        Schema.Attribute(name: "bytes", valueType: .data, defaultValue: "X'00'"),
                        Schema.Attribute(
                            name: "uuid", valueType: .uuid, defaultValue: "'E621E1F8-C36C-495A-93FC-0C247A3E6E5F'"),
                        Schema.Attribute(name: "url", valueType: .url, defaultValue: "'https://example.com'"),
                        Schema.Attribute(name: "amount", valueType: .decimal, defaultValue: "'1.25'"),
                        Schema.Attribute(
                            name: "named_index_id", valueType: .integer, isOptional: true,
                            references: Schema.ForeignKey(table: "NamedIndex", onDelete: "CASCADE")),
                    ],
                    indexes: [
                        Schema.Index(
                            elements: [.expression("lower(label)")], name: "\(table)_lower", predicate: "count > 0")
                    ])
            })
    }

    static var strictAny: Schema {
        Schema(
            version: Schema.Version(1, 0, 0),
            entities: [
                Schema.Entity(
                    name: "Setting",
                    attributes: [
                        Schema.Attribute(name: "name", valueType: .string),
                        Schema.Attribute(name: "value", valueType: .string, isOptional: true, sqlType: "ANY"),
                        Schema.Attribute(name: "fallback", valueType: .string, defaultValue: "'none'", sqlType: "ANY"),
                        Schema.Attribute(name: "count", valueType: .integer, isOptional: true, sqlType: "ANY"),
                        Schema.Attribute(name: "blob", valueType: .data, isOptional: true, sqlType: "ANY"),
                    ], isStrict: true)
            ])
    }
}
