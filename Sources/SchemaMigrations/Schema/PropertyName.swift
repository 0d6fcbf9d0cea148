/// A property as errors and reports name it: its Swift name, with its column where that differs
/// (`displayName (column display_name)`), so every message names it one way.
package struct PropertyName: Sendable, Hashable, CustomStringConvertible {
    /// The Swift property's name.
    package var property: String
    /// The column, when it is named otherwise than the property.
    package var column: String?

    /// A property whose column bears its name.
    package init(property: String) {
        self.property = property
    }

    /// The name of `attribute`.
    package init(_ attribute: Schema.Attribute) {
        property = attribute.property
        column = attribute.propertyName == nil || attribute.name == attribute.property ? nil : attribute.name
    }

    /// `displayName (column display_name)`, or `displayName`.
    package var description: String { property + (column.map { " (column \($0))" } ?? "") }
}
