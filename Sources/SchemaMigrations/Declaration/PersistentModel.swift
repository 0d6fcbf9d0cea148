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
    public static var entityName: String { String(describing: self) }
    public static var originalName: String? { nil }
    public static var hashModifier: String? { nil }
    public static var indexes: [[String]] { [] }
    public static var uniqueness: [[String]] { [] }
    public static var primaryKey: [String]? { nil }
    public static var withoutRowID: Bool { false }
    public static var strict: Bool { false }
    public static var indexNames: [String: [String]] { [:] }
    public static var namedIndexes: [NamedIndex] { [] }
}
