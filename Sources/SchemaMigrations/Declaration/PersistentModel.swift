/// A model class whose stored properties are the columns of one table.
///
/// ```swift
/// final class Trip: PersistentModel {
///     static let indexes: [[String]] = [["name", "startDate"]]
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
public protocol PersistentModel: AnyObject, _SchemaMigrationsSendableMetatype {
    /// Creates an instance with every property at its default; used to read the declaration.
    init()
    /// The entity and table name. Defaults to the class name.
    static var entityName: String { get }
    /// The entity's name in the previous version, when this version renames it.
    static var originalName: String? { get }
    /// Change this to mark the entity as changed, so its table is rebuilt.
    static var hashModifier: String? { get }
    /// Indexes, each a list of property names: `[["name"], ["name", "startDate"]]` (SwiftData's `#Index`).
    static var indexes: [[String]] { get }
    /// Uniqueness constraints, each a list of property names (SwiftData's `#Unique`).
    static var uniqueness: [[String]] { get }
    /// The primary key's properties, in order, for a composite key (`["playlistID", "trackID"]`);
    /// nil for the properties marked `@Attribute(.primaryKey)`, or, when none is, the default
    /// `"id" INTEGER PRIMARY KEY` column. `[]` declares a table with no primary key, its rows
    /// keyed by SQLite's hidden rowid (a log table, another format's registry): rebuilds keep the
    /// rowids, and the data API's row ids are them. Key properties may be optional where SQLite
    /// allows NULL in a key: not in an `INTEGER PRIMARY KEY` (the rowid) nor `WITHOUT ROWID`.
    static var primaryKey: [String]? { get }
    /// `WITHOUT ROWID`: the table is stored in its primary key's order and has no rowid. Needs a
    /// declared primary key.
    static var withoutRowID: Bool { get }
    /// `STRICT`: SQLite refuses a value that is not of its column's type. Column types must then be
    /// INTEGER, REAL, TEXT, BLOB, INT or ANY.
    static var strict: Bool { get }
    /// Names for indexes the model declares (in `indexes`, `uniqueness` or `@Attribute(.unique)`),
    /// each keyed by its name and given by its properties: `["IFK_AlbumArtistId": ["artistID"]]`.
    /// Unnamed indexes are called `Entity_column…` when created, and keep whatever name they have.
    static var indexNames: [String: [String]] { get }
    /// Indexes declared with their name, over properties and SQL expressions, perhaps partial or
    /// unique: `[.unique("Customer_live_email", [.expression("lower(email)")], where: "deleted_at IS NULL")]`.
    static var namedIndexes: [NamedIndex] { get }
}

extension PersistentModel {
    /// The table's name: the type's name unless the model says otherwise.
    public static var entityName: String { String(describing: self) }
    /// No earlier name: the entity was not renamed.
    public static var originalName: String? { nil }
    /// No hash modifier: the version hash follows the declaration alone.
    public static var hashModifier: String? { nil }
    /// No indexes beyond those the attributes declare.
    public static var indexes: [[String]] { [] }
    /// No uniqueness constraints beyond those the attributes declare.
    public static var uniqueness: [[String]] { [] }
    /// nil: the properties marked `@Attribute(.primaryKey)`, or else the default `"id"` column.
    public static var primaryKey: [String]? { nil }
    /// A rowid table.
    public static var withoutRowID: Bool { false }
    /// Not a STRICT table.
    public static var strict: Bool { false }
    /// No names given: an unnamed index is called `Entity_column…`.
    public static var indexNames: [String: [String]] { [:] }
    /// No indexes with expressions, orders, collations or a WHERE clause.
    public static var namedIndexes: [NamedIndex] { [] }
}
