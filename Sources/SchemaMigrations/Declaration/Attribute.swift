/// Declares how a stored property is kept: options, a rename, or a forced change.
///
/// ```swift
/// @Attribute(.unique) var name = ""
/// @Attribute(originalName: "start_date") var startDate = Date.distantPast
/// @Attribute(hashModifier: "epoch-seconds") var createdAt = Date()
/// @Attribute var rating: Int          // no default: must be given a value in a custom stage
/// @Attribute(column: "created_at") var createdAt = Date()       // a column named otherwise
/// @Attribute(sqlType: "NVARCHAR(160)") var title = ""             // the column's SQL type as written
/// @Attribute(.primaryKey, column: "AlbumId") var albumID = 0      // the table's key instead of `id`
/// @Attribute(column: "ArtistId", references: .to("Artist")) var artistID = 0
/// @Attribute(generated: .virtual("price * quantity")) var total: Double? = nil   // computed by SQLite
/// @Attribute(notNullOnConflict: .replace) var status = "new"      // a NULL written takes the default
/// ```
///
/// A property's initial value is its column's default only when it is a constant: one computed
/// anew for each instance (`Date()`, `.now`, `UUID()`) would change the version's hash from one
/// launch to the next, so it is stored as no default (adding such a property as non-optional to a
/// table with rows then needs a custom stage, like any property without a default). A `Set` or a
/// dictionary default is encoded in a canonical order.
@propertyWrapper
public struct Attribute<Value> {
    /// What an attribute can be declared with. `unique`, `primaryKey` and `autoincrement` change
    /// what is stored; the others are SwiftData options accepted for source compatibility and
    /// recorded in the schema.
    public enum Option: String, Sendable, Hashable, CaseIterable {
        /// The column's values are unique (a unique index).
        case unique
        /// The column is the table's primary key, instead of the default `"id" INTEGER PRIMARY KEY`.
        /// Several properties marked so, or the model's `primaryKey`, make a composite key.
        case primaryKey
        /// `INTEGER PRIMARY KEY AUTOINCREMENT`: a deleted key is never handed out again. Implies `primaryKey`.
        case autoincrement
        /// The key column in descending order: `PRIMARY KEY DESC` on the column, or `"a" DESC` in
        /// the table's `PRIMARY KEY (…)`. An INTEGER key so written is, by SQLite's old quirk, not
        /// an alias of the rowid: it may be optional (NULL in the key), and the table keeps a rowid
        /// of its own. Only on a key property; not with `autoincrement`.
        case descending
        /// SwiftData's external storage hint; values are stored inline in SQLite.
        case externalStorage
        /// SwiftData's CloudKit encryption hint; no storage effect.
        case allowsCloudEncryption
        /// SwiftData's history hint; no storage effect.
        case preserveValueOnDeletion
        /// SwiftData's Spotlight hint; no storage effect.
        case spotlight
        /// SwiftData's ephemeral hint; the column is stored like any other.
        case ephemeral
        /// This version's code no longer reads or writes the property: the column stays, for the
        /// version before, whose instances still use it during a rolling deploy; the next version
        /// may drop or rename it and stay compatible with this one (MIGRATIONS.md, "Expand and
        /// contract"). It changes the version's hash, so a version that only retires a property
        /// is a version of its own; nothing is written for it.
        case retired
    }

    private var storage: Value?
    let options: [Option]
    let originalName: String?
    let hashModifier: String?
    let hasDefault: Bool
    let column: String?
    let sqlType: String?
    let references: ForeignKeyReference?
    let dateStorage: Schema.DateStorage?
    let check: String?
    let collation: String?
    let defaultExpression: String?
    let generated: Schema.GeneratedColumn?
    let notNullOnConflict: Schema.ConflictResolution?

    /// The property's value.
    public var wrappedValue: Value {
        get {
            guard let storage else { preconditionFailure("@Attribute property read before it was given a value") }
            return storage
        }
        set { storage = newValue }
    }

    /// An attribute whose initial value is its column's default.
    ///
    /// - Parameters:
    ///   - wrappedValue: the property's initial value: the column's default where the version
    ///     adds the column or makes it non-optional.
    ///   - options: `.unique` for a UNIQUE column.
    ///   - originalName: the property's name in the previous version, for a rename.
    ///   - hashModifier: change it to mark the attribute as changed where nothing else says so
    ///     (a custom stage that rewrites its values).
    ///   - column: the column's name when it is not the property's (`"created_at"`, `"ArtistId"`).
    ///   - sqlType: the column's SQL type as written (`"NVARCHAR(160)"`, `"NUMERIC(10,2)"`,
    ///     `"DATETIME"`, `"BOOLEAN"`), or `""` for a column with no declared type (BLOB
    ///     affinity, as `CREATE TABLE t (notes)` writes it); its affinity must agree with the property's type.
    ///   - references: a foreign key onto another entity's key column.
    ///   - dateStorage: for a `Date`: `.iso8601Text` (`'YYYY-MM-DD HH:MM:SS.SSS'`, as GRDB stores
    ///     it) or `.julianDay`; seconds since 1970 when nil.
    ///   - check: a column `CHECK` expression (`"length(name) > 0"`).
    ///   - collation: the column's collating sequence (`"NOCASE"`).
    ///   - defaultExpression: the column's default as SQL, instead of the initial value:
    ///     `"CURRENT_TIMESTAMP"`, or one expression in parentheses (`"(datetime('now'))"`).
    ///   - generated: for a column SQLite computes, `.virtual("price * quantity")` or
    ///     `.stored("lower(email)")` (`GENERATED ALWAYS AS (…)`); its initial value is then no
    ///     default, and a custom stage cannot write it.
    ///   - notNullOnConflict: for a property that is not optional, what a write of NULL does
    ///     (`NOT NULL ON CONFLICT REPLACE`: it takes the default; `.ignore`: the row is skipped);
    ///     nil for SQLite's `ABORT`.
    public init(
        wrappedValue: Value, _ options: Option..., originalName: String? = nil, hashModifier: String? = nil,
        column: String? = nil, sqlType: String? = nil, references: ForeignKeyReference? = nil,
        dateStorage: Schema.DateStorage? = nil,
        check: String? = nil, collation: String? = nil, defaultExpression: String? = nil,
        generated: Schema.GeneratedColumn? = nil, notNullOnConflict: Schema.ConflictResolution? = nil
    ) {
        self.storage = wrappedValue
        self.options = options
        self.originalName = originalName
        self.hashModifier = hashModifier
        self.hasDefault = true
        self.column = column
        self.sqlType = sqlType
        self.references = references
        self.dateStorage = dateStorage
        self.check = check
        self.collation = collation
        self.defaultExpression = defaultExpression
        self.generated = generated
        self.notNullOnConflict = notNullOnConflict
    }

    /// An attribute with no default value: `@Attribute var rating: Int`.
    public init() {
        self.init(
            options: [], originalName: nil, hashModifier: nil, column: nil, sqlType: nil, references: nil,
            dateStorage: nil, check: nil, collation: nil,
            defaultExpression: nil, generated: nil, notNullOnConflict: nil)
    }

    /// An attribute with no default value, with options: `@Attribute(.unique) var code: String`.
    public init(
        _ options: Option..., originalName: String? = nil, hashModifier: String? = nil,
        column: String? = nil, sqlType: String? = nil, references: ForeignKeyReference? = nil,
        dateStorage: Schema.DateStorage? = nil,
        check: String? = nil, collation: String? = nil, defaultExpression: String? = nil,
        generated: Schema.GeneratedColumn? = nil, notNullOnConflict: Schema.ConflictResolution? = nil
    ) {
        self.init(
            options: options, originalName: originalName, hashModifier: hashModifier, column: column, sqlType: sqlType,
            references: references,
            dateStorage: dateStorage, check: check, collation: collation, defaultExpression: defaultExpression,
            generated: generated, notNullOnConflict: notNullOnConflict)
    }

    private init(
        options: [Option], originalName: String?, hashModifier: String?, column: String?, sqlType: String?,
        references: ForeignKeyReference?,
        dateStorage: Schema.DateStorage?, check: String?, collation: String?, defaultExpression: String?,
        generated: Schema.GeneratedColumn?, notNullOnConflict: Schema.ConflictResolution?
    ) {
        self.storage = nil
        self.options = options
        self.originalName = originalName
        self.hashModifier = hashModifier
        self.hasDefault = false
        self.column = column
        self.sqlType = sqlType
        self.references = references
        self.dateStorage = dateStorage
        self.check = check
        self.collation = collation
        self.defaultExpression = defaultExpression
        self.generated = generated
        self.notNullOnConflict = notNullOnConflict
    }
}

extension Attribute: Sendable where Value: Sendable {}

/// What reflection reads from an `@Attribute` wrapper.
protocol DeclaredAttribute {
    var declaredValueType: Any.Type { get }
    var declaredDefault: Any? { get }
    var declaredOptions: [String] { get }
    var declaredOriginalName: String? { get }
    var declaredHashModifier: String? { get }
    var declaredColumn: String? { get }
    var declaredSQLType: String? { get }
    var declaredReference: Schema.ForeignKey? { get }
    var declaredDateStorage: Schema.DateStorage? { get }
    var declaredCheck: String? { get }
    var declaredCollation: String? { get }
    var declaredDefaultExpression: String? { get }
    var declaredGenerated: Schema.GeneratedColumn? { get }
    var declaredNotNullOnConflict: Schema.ConflictResolution? { get }
}

extension Attribute: DeclaredAttribute {
    var declaredValueType: Any.Type { Value.self }
    var declaredDefault: Any? { hasDefault && defaultExpression == nil ? storage as Any : nil }
    var declaredOptions: [String] { options.map(\.rawValue) }
    var declaredOriginalName: String? { originalName }
    var declaredHashModifier: String? { hashModifier }
    var declaredColumn: String? { column }
    var declaredSQLType: String? { sqlType }
    var declaredReference: Schema.ForeignKey? { references?.schemaForeignKey }
    var declaredDateStorage: Schema.DateStorage? { dateStorage }
    var declaredCheck: String? { check }
    var declaredCollation: String? { collation }
    var declaredDefaultExpression: String? { defaultExpression }
    var declaredGenerated: Schema.GeneratedColumn? { generated }
    var declaredNotNullOnConflict: Schema.ConflictResolution? { notNullOnConflict }
}

/// Marks a stored property as not persisted: it has no column.
///
/// ```swift
/// @Transient var viewCount = 0
/// ```
@propertyWrapper
public struct Transient<Value> {
    /// The property's value in the model instance.
    public var wrappedValue: Value
    /// An attribute whose initial value is `wrappedValue`.
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
}

extension Transient: Sendable where Value: Sendable {}

/// Lets reflection recognise `@Transient` properties.
protocol TransientMarker {}
extension Transient: TransientMarker {}
