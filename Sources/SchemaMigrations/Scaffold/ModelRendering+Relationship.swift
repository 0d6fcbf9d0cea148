/// One relationship as a stored property: `@Relationship(…)` when it says more than the
/// defaults (nullify, inverse inferred), else a plain `var`.
extension ModelRendering {
    func declaration(of relationship: Schema.Relationship) -> String {
        let arguments = [
            deleteRule(relationship), inverse(relationship), originalName(relationship), hashModifier(relationship),
        ].compactMap { $0 }
        let destination = names.type(relationship.destination)
        let declaration =
            relationship.isToMany
            ? "var \(SwiftIdentifier.escaped(relationship.name)): [\(destination)] = []"
            : "var \(SwiftIdentifier.escaped(relationship.name)): \(destination)? = nil"
        return arguments.isEmpty ? declaration : "@Relationship(\(arguments.joined(separator: ", "))) " + declaration
    }

    // MARK: One function per option

    func deleteRule(_ relationship: Schema.Relationship) -> String? {
        relationship.deleteRule == .nullify ? nil : "deleteRule: .\(relationship.deleteRule.rawValue)"
    }

    func inverse(_ relationship: Schema.Relationship) -> String? {
        relationship.inverse.map { "inverse: \(SwiftInitialValue.stringLiteral($0))" }
    }

    func originalName(_ relationship: Schema.Relationship) -> String? {
        relationship.originalName.map { "originalName: \(SwiftInitialValue.stringLiteral($0))" }
    }

    func hashModifier(_ relationship: Schema.Relationship) -> String? {
        relationship.hashModifier.map { "hashModifier: \(SwiftInitialValue.stringLiteral($0))" }
    }
}
