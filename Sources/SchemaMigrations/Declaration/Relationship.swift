/// Declares a relationship's delete rule, inverse, rename or forced change.
///
/// ```swift
/// @Relationship(deleteRule: .cascade, inverse: "trip") var bucketList: [BucketListItem] = []
/// @Relationship(deleteRule: .cascade) var livingAccommodation: LivingAccommodation? = nil
/// var trip: Trip? = nil                      // a relationship without the wrapper: nullify, inverse inferred
/// ```
///
/// A stored property whose type is another model (or an optional or array of one) is a
/// relationship with or without this wrapper.
@propertyWrapper
public struct Relationship<Value> {
    /// The property's value in the model instance.
    public var wrappedValue: Value
    let deleteRule: Schema.Relationship.DeleteRule
    let inverse: String?
    let originalName: String?
    let hashModifier: String?

    /// - Parameters:
    ///   - wrappedValue: the property's initial value (nil, or an empty array for a to-many).
    ///   - deleteRule: what deleting this row does to the related rows (default `.nullify`).
    ///   - inverse: the related model's property that points back; inferred when unambiguous.
    ///   - originalName: the relationship's name in the previous version.
    ///   - hashModifier: change it to mark the relationship as changed.
    public init(
        wrappedValue: Value, deleteRule: Schema.Relationship.DeleteRule = .nullify, inverse: String? = nil,
        originalName: String? = nil, hashModifier: String? = nil
    ) {
        self.wrappedValue = wrappedValue
        self.deleteRule = deleteRule
        self.inverse = inverse
        self.originalName = originalName
        self.hashModifier = hashModifier
    }
}

extension Relationship: Sendable where Value: Sendable {}

/// What reflection reads from a `@Relationship` wrapper.
protocol DeclaredRelationship {
    var declaredValueType: Any.Type { get }
    var declaredDeleteRule: Schema.Relationship.DeleteRule { get }
    var declaredInverse: String? { get }
    var declaredOriginalName: String? { get }
    var declaredHashModifier: String? { get }
}

extension Relationship: DeclaredRelationship {
    var declaredValueType: Any.Type { Value.self }
    var declaredDeleteRule: Schema.Relationship.DeleteRule { deleteRule }
    var declaredInverse: String? { inverse }
    var declaredOriginalName: String? { originalName }
    var declaredHashModifier: String? { hashModifier }
}
