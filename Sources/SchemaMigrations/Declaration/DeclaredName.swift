/// A name a declaration gives, spelled as a `String` or as a `String?` whose nil gives none: the
/// type of ``PersistentModel/entityName``, ``PersistentModel/originalName``,
/// ``PersistentModel/hashModifier`` and ``SchemaMigrationPlan/name`` as a declaration writes them.
///
/// ```swift
/// static let originalName = "Voyage"                  // a String
/// static let originalName: String? = "Voyage"         // the same
/// static var hashModifier: String? { nil }            // none
/// ```
///
/// Only `String` and `String?` conform, so a requirement spelled with another type (`= 5`)
/// does not compile, rather than leave the requirement to its default.
public protocol DeclaredName {
    /// The name, nil for none.
    var declaredName: String? { get }
}

extension String: DeclaredName {
    /// The string itself.
    public var declaredName: String? { self }
}

extension Optional: DeclaredName where Wrapped == String {
    /// The string, or nil.
    public var declaredName: String? { self }
}

/// A primary key a model declares (``PersistentModel/primaryKey``), spelled as `[String]` or as
/// `[String]?` whose nil leaves the key to `@Attribute(.primaryKey)` or the default `id` column.
///
/// ```swift
/// static let primaryKey = ["playlistID", "trackID"]   // a composite key
/// static let primaryKey: [String] = []                // no primary key: rows keyed by rowid
/// static let primaryKey: [String]? = nil              // the default
/// ```
public protocol DeclaredKey {
    /// The key's properties in order, nil for the default.
    var declaredKey: [String]? { get }
}

extension Array: DeclaredKey where Element == String {
    /// The properties themselves; `[]` for no primary key.
    public var declaredKey: [String]? { self }
}

extension Optional: DeclaredKey where Wrapped == [String] {
    /// The properties, or nil for the default key.
    public var declaredKey: [String]? { self }
}

/// A value of the database header a version declares (``VersionedSchema/applicationID``,
/// ``VersionedSchema/userVersion``), spelled as an integer, or as an optional one whose nil leaves
/// the header to the application.
///
/// ```swift
/// static let applicationID = 0x4D4F_4F4E     // an Int
/// static let userVersion: Int32 = 7          // the same, as SQLite stores it
/// static let userVersion: Int? = nil         // the application's own: never set
/// ```
///
/// Only `Int`, `Int32` and their optionals conform, so a requirement spelled with another type
/// does not compile, rather than leave the header to its default.
public protocol DeclaredHeaderValue {
    /// The value, nil for none.
    var declaredHeaderValue: Int? { get }
}

extension Int: DeclaredHeaderValue {
    /// The integer itself.
    public var declaredHeaderValue: Int? { self }
}

extension Int32: DeclaredHeaderValue {
    /// The integer, widened.
    public var declaredHeaderValue: Int? { Int(self) }
}

extension Optional: DeclaredHeaderValue where Wrapped: DeclaredHeaderValue {
    /// The value, or nil.
    public var declaredHeaderValue: Int? { self?.declaredHeaderValue }
}

/// A conflict clause a model declares (``PersistentModel/primaryKeyOnConflict``), spelled as a
/// `Schema.ConflictResolution` or as an optional one whose nil declares none.
///
/// ```swift
/// static let primaryKeyOnConflict = Schema.ConflictResolution.replace
/// static let primaryKeyOnConflict: Schema.ConflictResolution? = .replace   // the same
/// ```
///
/// Only those two types conform, so a requirement spelled with another type (`= "REPLACE"`)
/// does not compile, rather than leave the key without its clause.
public protocol DeclaredConflictResolution {
    /// The resolution, nil for none.
    var declaredResolution: Schema.ConflictResolution? { get }
}

extension Schema.ConflictResolution: DeclaredConflictResolution {
    /// The resolution itself.
    public var declaredResolution: Schema.ConflictResolution? { self }
}

extension Optional: DeclaredConflictResolution where Wrapped == Schema.ConflictResolution {
    /// The resolution, or nil.
    public var declaredResolution: Schema.ConflictResolution? { self }
}
