/// What changed between two declarations of the same version, in declaration terms: for a
/// released version that was edited (its recorded snapshot against today's declaration, or its
/// frozen snapshot file against it), so the message says what to restore, not two hashes.
///
/// ```text
/// Trip.budget: isOptional true → false
/// Trip.notes: added
/// BucketListItem: removed
/// ```
enum SchemaChanges {
    /// One line per change, entities in `released`'s order then added ones; empty when the two
    /// declare the same (a `hashModifier` change shows as one).
    static func lines(released: Schema, declared: Schema) -> [String] {
        var lines: [String] = []
        let now = Dictionary(declared.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let before = Set(released.entities.map(\.name))
        for old in released.entities {
            guard let new = now[old.name] else {
                lines.append("\(old.name): removed")
                continue
            }
            lines += fields(of: old, new, prefix: old.name, skipping: ["attributes", "relationships", "indexes"])
            lines += members(old.attributes, new.attributes, name: \.name, prefix: old.name)
            lines += members(old.relationships, new.relationships, name: \.name, prefix: old.name)
            let oldIndexes = old.indexes.map(describe(index:))
            let newIndexes = new.indexes.map(describe(index:))
            for index in oldIndexes where !newIndexes.contains(index) {
                lines.append("\(old.name): index removed: \(index)")
            }
            for index in newIndexes where !oldIndexes.contains(index) {
                lines.append("\(old.name): index added: \(index)")
            }
        }
        for entity in declared.entities where !before.contains(entity.name) { lines.append("\(entity.name): added") }
        return lines
    }

    /// Members (attributes, relationships) by name: removed, added, and each changed field.
    private static func members<T>(_ old: [T], _ new: [T], name: (T) -> String, prefix: String) -> [String] {
        var lines: [String] = []
        let now = Dictionary(new.map { (name($0), $0) }, uniquingKeysWith: { first, _ in first })
        let before = Set(old.map(name))
        for member in old {
            guard let changed = now[name(member)] else {
                lines.append("\(prefix).\(name(member)): removed")
                continue
            }
            lines += fields(of: member, changed, prefix: "\(prefix).\(name(member))", skipping: [])
        }
        for member in new where !before.contains(name(member)) { lines.append("\(prefix).\(name(member)): added") }
        return lines
    }

    /// `prefix: field old → new` for each stored property of two values of one type that differs.
    private static func fields<T>(of old: T, _ new: T, prefix: String, skipping: Set<String>) -> [String] {
        let newFields = Dictionary(
            Mirror(reflecting: new).children.compactMap { child in child.label.map { ($0, describe(child.value)) } },
            uniquingKeysWith: { first, _ in first })
        return Mirror(reflecting: old).children.compactMap { child -> String? in
            guard let label = child.label, !skipping.contains(label) else { return nil }
            let was = describe(child.value)
            guard let now = newFields[label], now != was else { return nil }
            return "\(prefix): \(label) \(was) → \(now)"
        }
    }

    /// An index as a declaration writes it: `unique index Trip_name (name, startDate) WHERE …`;
    /// elements with expressions, orders or collations in full.
    private static func describe(index: Schema.Index) -> String {
        let keys = (index.elements?.map(\.description) ?? index.columns).joined(separator: ", ")
        return (index.isUnique ? "unique index" : "index") + (index.name.map { " " + $0 } ?? "") + " (\(keys))"
            + (index.predicate.map { " WHERE " + $0 } ?? "")
    }

    /// A field's value as a declaration would read it: optionals unwrapped, nil as `nil`.
    private static func describe(_ value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return "\(value)" }
        return mirror.children.first.map { describe($0.value) } ?? "nil"
    }
}
