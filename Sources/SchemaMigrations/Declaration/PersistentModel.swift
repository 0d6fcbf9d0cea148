/// A model class whose stored properties are the columns of one table.
///
/// ```swift
/// final class Trip: PersistentModel {
///     static let indexes = [["name", "startDate"]]
///     @Attribute(.unique) var name = ""
///     var destination = ""
///     @Attribute(originalName: "start_date") var startDate = Date.distantPast
///     var notes: String? = nil
///     @Transient var viewCount = 0
///     init() {}
/// }
/// ```
///
/// Every stored property is an attribute unless it is `@Transient`. The value a property holds
/// after `init()` is its column's default; `@Attribute var rating: Int` (no initial value) declares
/// a column with no default. The entity is named after the class (`TripsSchemaV2.Trip` is the
/// entity `Trip`) unless ``entityName`` says otherwise, so `V1.Trip` and `V2.Trip` are two
/// versions of one entity.
///
/// Each static requirement is optional, and may be declared as `let`, `var` or a computed
/// property, with or without its type written: `static let originalName = "Voyage"` and
/// `static let originalName: String? = "Voyage"` say the same. A name is a `String` or a
/// `String?` (``DeclaredName``), a primary key a `[String]` or a `[String]?` (``DeclaredKey``);
/// a requirement declared with any other type (`static let uniqueness = ["email"]`, a `[String]`
/// where a list of lists is needed) does not compile, rather than being left at its default.
/// The associated types say which type each requirement is declared with; Swift infers them.
public protocol PersistentModel: AnyObject, _SchemaMigrationsSendableMetatype {
    /// Creates an instance with every property at its default; used to read the declaration.
    init()

    /// The type ``entityName`` is declared with: `String`, or `String?` (nil: the class name).
    associatedtype EntityNameDeclaration = String
    /// The entity and table name. Defaults to the class name.
    static var entityName: EntityNameDeclaration { get }

    /// The type ``originalName`` is declared with: `String?` or `String`.
    associatedtype OriginalNameDeclaration = String?
    /// The entity's name in the previous version, when this version renames it.
    static var originalName: OriginalNameDeclaration { get }

    /// The type ``hashModifier`` is declared with: `String?` or `String`.
    associatedtype HashModifierDeclaration = String?
    /// Change this to mark the entity as changed, so its table is rebuilt.
    static var hashModifier: HashModifierDeclaration { get }

    /// The type ``indexes`` is declared with: `[[String]]`.
    associatedtype IndexesDeclaration = [[String]]
    /// Indexes, each a list of property names: `[["name"], ["name", "startDate"]]` (SwiftData's `#Index`).
    static var indexes: IndexesDeclaration { get }

    /// The type ``uniqueness`` is declared with: `[[String]]`.
    associatedtype UniquenessDeclaration = [[String]]
    /// Uniqueness constraints, each a list of property names (SwiftData's `#Unique`).
    static var uniqueness: UniquenessDeclaration { get }

    /// The type ``primaryKey`` is declared with: `[String]?` or `[String]`.
    associatedtype PrimaryKeyDeclaration = [String]?
    /// The primary key's properties, in order, for a composite key (`["playlistID", "trackID"]`);
    /// nil for the properties marked `@Attribute(.primaryKey)`, or, when none is, the default
    /// `"id" INTEGER PRIMARY KEY` column. `[]` declares a table with no primary key, its rows
    /// keyed by SQLite's hidden rowid (a log table, another format's registry): rebuilds keep the
    /// rowids, and the data API's row ids are them. Key properties may be optional where SQLite
    /// allows NULL in a key: not in an `INTEGER PRIMARY KEY` (the rowid) nor `WITHOUT ROWID`.
    static var primaryKey: PrimaryKeyDeclaration { get }

    /// The type ``primaryKeyOnConflict`` is declared with: `Schema.ConflictResolution?` or
    /// `Schema.ConflictResolution`.
    associatedtype PrimaryKeyOnConflictDeclaration = Schema.ConflictResolution?
    /// The primary key's conflict clause, wherever the key is written (the default `id` column,
    /// an `@Attribute(.primaryKey)`, or ``primaryKey``): `.replace` writes
    /// `PRIMARY KEY ON CONFLICT REPLACE`, so an insert of a key already there replaces that
    /// row. nil (the default) for SQLite's `ABORT`.
    static var primaryKeyOnConflict: PrimaryKeyOnConflictDeclaration { get }

    /// The type ``withoutRowID`` is declared with: `Bool`.
    associatedtype WithoutRowIDDeclaration = Bool
    /// `WITHOUT ROWID`: the table is stored in its primary key's order and has no rowid. Needs a
    /// declared primary key.
    static var withoutRowID: WithoutRowIDDeclaration { get }
    /// The type ``strict`` is declared with: `Bool`.
    associatedtype StrictDeclaration = Bool
    /// `STRICT`: SQLite refuses a value that is not of its column's type. Column types must then be
    /// INTEGER, REAL, TEXT, BLOB, INT or ANY.
    static var strict: StrictDeclaration { get }

    /// The type ``indexNames`` is declared with: `[String: [String]]`.
    associatedtype IndexNamesDeclaration = [String: [String]]
    /// Names for indexes the model declares (in `indexes`, `uniqueness` or `@Attribute(.unique)`),
    /// each keyed by its name and given by its properties: `["IFK_AlbumArtistId": ["artistID"]]`.
    /// Unnamed indexes are called `Entity_column…` when created, and keep whatever name they have.
    static var indexNames: IndexNamesDeclaration { get }
    /// Indexes declared with their name, over properties and SQL expressions, perhaps partial or
    /// unique: `[.unique("Customer_live_email", [.expression("lower(email)")], where: "deleted_at IS NULL")]`.
    static var namedIndexes: NamedIndexesDeclaration { get }
    /// The type ``namedIndexes`` is declared with: `[NamedIndex]`.
    associatedtype NamedIndexesDeclaration = [NamedIndex]

    /// The type ``constraints`` is declared with: `[Schema.TableConstraint]`. Another type (an
    /// optional array) leaves the model without `_constraints`, so it does not compile rather
    /// than silently declaring none.
    associatedtype ConstraintsDeclaration = [Schema.TableConstraint]
    /// The table's constraints beside its columns, in the order `CREATE TABLE` writes them:
    /// CHECKs over the row, `UNIQUE` constraints and foreign keys over several columns, each
    /// perhaps named. Columns are named by their properties (or their column names); a CHECK's
    /// expression by column names, as an attribute's `check:`.
    /// `[.check("endDate >= startDate"), .foreignKey(["tripID", "day"], references: "Day", columns: ["tripID", "day"])]`.
    static var constraints: ConstraintsDeclaration { get }

    /// ``entityName`` as read, whichever type declares it. Not to be declared: the package's
    /// extensions give it, and a model without one (its requirement declared with a type the
    /// package does not take) does not compile.
    static var _entityName: String { get }
    /// ``originalName`` as read; not to be declared (see ``_entityName``).
    static var _originalName: String? { get }
    /// ``hashModifier`` as read; not to be declared (see ``_entityName``).
    static var _hashModifier: String? { get }
    /// ``indexes`` as read; not to be declared (see ``_entityName``).
    static var _indexes: [[String]] { get }
    /// ``uniqueness`` as read; not to be declared (see ``_entityName``).
    static var _uniqueness: [[String]] { get }
    /// ``primaryKey`` as read; not to be declared (see ``_entityName``).
    static var _primaryKey: [String]? { get }
    /// ``primaryKeyOnConflict`` as read; not to be declared (see ``_entityName``).
    static var _primaryKeyOnConflict: Schema.ConflictResolution? { get }
    /// ``indexNames`` as read; not to be declared (see ``_entityName``).
    static var _indexNames: [String: [String]] { get }
    /// ``constraints`` as read; not to be declared (see ``_entityName``).
    static var _constraints: [Schema.TableConstraint] { get }
    /// ``withoutRowID`` as read; not to be declared (see ``_entityName``).
    static var _withoutRowID: Bool { get }
    /// ``strict`` as read; not to be declared (see ``_entityName``).
    static var _strict: Bool { get }
    /// ``namedIndexes`` as read; not to be declared (see ``_entityName``).
    static var _namedIndexes: [NamedIndex] { get }
}
