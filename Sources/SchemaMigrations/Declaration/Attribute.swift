/// Declares how a stored property is kept: options, a rename, or a forced change.
///
/// ```swift
/// @Attribute(.unique) var name = ""
/// @Attribute(originalName: "start_date") var startDate = Date.distantPast
/// @Attribute(hashModifier: "epoch-seconds") var createdAt = Date()
/// @Attribute var rating: Int          // no default: must be given a value in a custom stage
/// ```
///
/// A property's initial value is its column's default only when it is a constant: one computed
/// anew for each instance (`Date()`, `.now`, `UUID()`) would change the version's hash from one
/// launch to the next, so it is stored as no default (adding such a property as non-optional to a
/// table with rows then needs a custom stage, like any property without a default). A `Set` or a
/// dictionary default is encoded in a canonical order.
@propertyWrapper
public struct Attribute<Value> {
    /// What an attribute can be declared with. Only `unique` changes what is stored; the others are
    /// SwiftData options accepted for source compatibility and recorded in the schema.
    public enum Option: String, Sendable, Hashable, CaseIterable {
        /// The column's values are unique (a unique index).
        case unique
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
    }

    private var storage: Value?
    let options: [Option]
    let originalName: String?
    let hashModifier: String?
    let hasDefault: Bool

    /// The property's value.
    public var wrappedValue: Value {
        get {
            guard let storage else { preconditionFailure("@Attribute property read before it was given a value") }
            return storage
        }
        set { storage = newValue }
    }

    /// An attribute whose initial value is its column's default.
    public init(wrappedValue: Value, _ options: Option..., originalName: String? = nil, hashModifier: String? = nil) {
        self.storage = wrappedValue
        self.options = options
        self.originalName = originalName
        self.hashModifier = hashModifier
        self.hasDefault = true
    }

    /// An attribute with no default value: `@Attribute var rating: Int`.
    public init() {
        self.init(options: [], originalName: nil, hashModifier: nil)
    }

    /// An attribute with no default value, with options: `@Attribute(.unique) var code: String`.
    public init(_ options: Option..., originalName: String? = nil, hashModifier: String? = nil) {
        self.init(options: options, originalName: originalName, hashModifier: hashModifier)
    }

    private init(options: [Option], originalName: String?, hashModifier: String?) {
        self.storage = nil
        self.options = options
        self.originalName = originalName
        self.hashModifier = hashModifier
        self.hasDefault = false
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
}

extension Attribute: DeclaredAttribute {
    var declaredValueType: Any.Type { Value.self }
    var declaredDefault: Any? { hasDefault ? storage as Any : nil }
    var declaredOptions: [String] { options.map(\.rawValue) }
    var declaredOriginalName: String? { originalName }
    var declaredHashModifier: String? { hashModifier }
}

/// Marks a stored property as not persisted: it has no column.
///
/// ```swift
/// @Transient var viewCount = 0
/// ```
@propertyWrapper
public struct Transient<Value> {
    public var wrappedValue: Value
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
}

extension Transient: Sendable where Value: Sendable {}

/// Lets reflection recognise `@Transient` properties.
protocol TransientMarker {}
extension Transient: TransientMarker {}
