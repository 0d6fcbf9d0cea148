/// One entity as a model class: its static members (one function each), its properties, `init() {}`.
/// The class, its static members and its initializer are `public`, so the plan compiles in a module
/// of its own (as README lays an app out) and is used from the app's other modules.
struct ModelRendering {
    let entity: Schema.Entity
    let names: ScaffoldNames

    var typeName: String { names.type(entity.name) }

    func write(to out: inout SourceWriter) {
        out.line("public final class \(typeName): PersistentModel {")
        out.indent { out in
            let statics = staticMembers()
            for member in statics { out.line("public " + member) }
            if !statics.isEmpty { out.line() }
            for attribute in entity.attributes { out.line(declaration(of: attribute)) }
            for relationship in entity.relationships { out.line(declaration(of: relationship)) }
            out.line()
            out.line("public init() {}")
        }
        out.line("}")
    }

    /// The model's static members, in the order `PersistentModel` lists them; each is left out
    /// when it would say the default.
    func staticMembers() -> [String] {
        [
            entityName(), originalName(), hashModifier(), primaryKey(), primaryKeyOnConflict(), withoutRowID(),
            strict(), uniqueness(),
            indexes(), indexNames(), namedIndexes(), constraints(),
        ].compactMap { $0 }
    }

    // MARK: One function per static member

    func entityName() -> String? {
        typeName == entity.name ? nil : "static let entityName = \(SwiftInitialValue.stringLiteral(entity.name))"
    }

    func originalName() -> String? {
        entity.originalName.map { "static let originalName: String? = \(SwiftInitialValue.stringLiteral($0))" }
    }

    func hashModifier() -> String? {
        entity.hashModifier.map { "static let hashModifier: String? = \(SwiftInitialValue.stringLiteral($0))" }
    }

    /// A composite key, or `[]` for a table keyed by its rowid alone; a single-column key is
    /// `@Attribute(.primaryKey)` on its property.
    func primaryKey() -> String? {
        guard let key = entity.primaryKey, key.count != 1 else { return nil }
        return "static let primaryKey: [String]? = \(stringArray(key.map(property)))"
    }

    /// The key's conflict clause, wherever the key is: `static let primaryKeyOnConflict = Schema.ConflictResolution.replace`.
    func primaryKeyOnConflict() -> String? {
        entity.primaryKeyOnConflict.map { "static let primaryKeyOnConflict = Schema.ConflictResolution.\($0)" }
    }

    func withoutRowID() -> String? { entity.isWithoutRowID ? "static let withoutRowID = true" : nil }

    func strict() -> String? { entity.isStrict ? "static let strict = true" : nil }

    /// Unique indexes over several columns (or over the implicit `id`); one over a single
    /// attribute is `@Attribute(.unique)` on it.
    func uniqueness() -> String? {
        let lists = plainIndexes.filter { $0.isUnique && !isUniqueAttribute($0) }.map { $0.columns.map(property) }
        return lists.isEmpty
            ? nil : "static let uniqueness: [[String]] = [\(lists.map(stringArray).joined(separator: ", "))]"
    }

    func indexes() -> String? {
        let lists = plainIndexes.filter { !$0.isUnique }.map { $0.columns.map(property) }
        return lists.isEmpty
            ? nil : "static let indexes: [[String]] = [\(lists.map(stringArray).joined(separator: ", "))]"
    }

    /// The names of the named indexes, by their properties, in name order.
    func indexNames() -> String? {
        let named = plainIndexes.compactMap { index in index.name.map { ($0, index.columns.map(property)) } }.sorted {
            $0.0 < $1.0
        }
        guard !named.isEmpty else { return nil }
        let entries = named.map { "\(SwiftInitialValue.stringLiteral($0.0)): \(stringArray($0.1))" }
        return "static let indexNames: [String: [String]] = [\(entries.joined(separator: ", "))]"
    }

    /// Indexes with expressions, collations, `DESC` or a `WHERE`, each with its name:
    /// `static let namedIndexes: [NamedIndex] = [.unique("name", ["email", .expression("lower(email)")], where: "…")]`.
    func namedIndexes() -> String? {
        let named = entity.indexes.filter(isNamedIndex).compactMap { index -> String? in
            guard let name = index.name else { return nil }  // ScaffoldLimits leaves such an entity out
            let terms = (index.elements ?? index.columns.map { .column($0) }).map(term)
            return "." + (index.isUnique ? "unique" : "index")
                + "(\(SwiftInitialValue.stringLiteral(name)), [\(terms.joined(separator: ", "))]"
                + (index.predicate.map { ", where: \(SwiftInitialValue.stringLiteral($0))" } ?? "") + ")"
        }
        guard !named.isEmpty else { return nil }
        return "static let namedIndexes: [NamedIndex] = [\(named.joined(separator: ", "))]"
    }

    /// The table's constraints, each with every clause the file writes, columns named by their
    /// properties: `static let constraints: [Schema.TableConstraint] = [.check("a < b", name: "ordered")]`.
    func constraints() -> String? {
        guard !entity.constraints.isEmpty else { return nil }
        func text(_ value: String) -> String { SwiftInitialValue.stringLiteral(value) }
        let items = entity.constraints.map { constraint -> String in
            let name = constraint.name.map { ", name: \(text($0))" } ?? ""
            switch constraint.kind {
            case .check(let expression): return ".check(\(text(expression))\(name))"
            case .unique(let columns):
                let onConflict = constraint.onConflict.map { ", onConflict: .\($0)" } ?? ""
                return ".unique(\(stringArray(columns.map(property)))\(onConflict)\(name))"
            case .foreignKey(let key):
                var arguments = [stringArray(key.columns.map(property)), "references: \(text(key.table))"]
                if let referenced = key.referencedColumns { arguments.append("columns: \(stringArray(referenced))") }
                if let action = key.onDelete { arguments.append("onDelete: .\(action)") }
                if let action = key.onUpdate { arguments.append("onUpdate: .\(action)") }
                if let match = key.match { arguments.append("match: \(text(match))") }
                if let timing = key.deferrable { arguments.append("deferrable: .\(timing)") }
                return ".foreignKey(\(arguments.joined(separator: ", "))\(name))"
            }
        }
        return "static let constraints: [Schema.TableConstraint] = [\(items.joined(separator: ", "))]"
    }

    /// One term of a named index: `"email"`, `.column("name", collation: "NOCASE", descending: true)`,
    /// `.expression("lower(email)")`. Columns are named by their properties; expressions are SQL
    /// over column names, as the file has them.
    func term(_ element: Schema.IndexElement) -> String {
        var extras: [String] = []
        if let collation = element.collation {
            extras.append("collation: \(SwiftInitialValue.stringLiteral(collation))")
        }
        if element.isDescending { extras.append("descending: true") }
        if let column = element.column {
            let name = SwiftInitialValue.stringLiteral(property(column))
            return extras.isEmpty ? name : ".column(\(name), " + extras.joined(separator: ", ") + ")"
        }
        return ".expression("
            + ([SwiftInitialValue.stringLiteral(element.expression ?? "")] + extras).joined(separator: ", ") + ")"
    }

    // MARK: Helpers

    /// Indexes over plain ascending columns: said by `uniqueness`, `indexes` and `indexNames`.
    var plainIndexes: [Schema.Index] { entity.indexes.filter { !isNamedIndex($0) } }

    /// Whether `index` is said as a `NamedIndex`: it has expressions, collations, `DESC` or a
    /// `WHERE`; or it has a name and shares its columns with another plain index (a unique one
    /// beside a plain one), which `indexNames`, naming indexes by their columns, cannot tell apart.
    func isNamedIndex(_ index: Schema.Index) -> Bool {
        index.hasExpressions
            || (index.name != nil
                && entity.indexes.contains { $0 != index && !$0.hasExpressions && $0.columns == index.columns })
    }

    /// Whether `index` is said as `@Attribute(.unique)`: unique over one attribute, plainly (a
    /// unique index with an expression or a `WHERE` beside that column is a `NamedIndex`).
    func isUniqueAttribute(_ index: Schema.Index) -> Bool {
        index.isUnique && !isNamedIndex(index) && index.columns.count == 1
            && entity.attribute(named: index.columns[0]) != nil
    }

    /// The property name of `column`, as a string in a list (never backquoted).
    func property(_ column: String) -> String {
        names.unescapedProperty(column, of: entity.name)
    }

    func stringArray(_ items: [String]) -> String {
        "[" + items.map(SwiftInitialValue.stringLiteral).joined(separator: ", ") + "]"
    }
}
