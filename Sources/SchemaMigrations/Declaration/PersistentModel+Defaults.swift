// The defaults of PersistentModel's requirements, each given only when the model declares
// nothing (its associated type is then the default one), and each requirement read as the
// package reads it, given only for the types the package takes: a requirement declared with
// another type leaves the model without its `_requirement`, so it does not compile.

extension PersistentModel where EntityNameDeclaration == String {
    /// The table's name: the type's name unless the model says otherwise.
    public static var entityName: String { String(describing: self) }
}

extension PersistentModel where EntityNameDeclaration: DeclaredName {
    /// ``PersistentModel/entityName`` as declared, the class name when nil.
    public static var _entityName: String { entityName.declaredName ?? String(describing: self) }
}

extension PersistentModel where OriginalNameDeclaration == String? {
    /// No earlier name: the entity was not renamed.
    public static var originalName: String? { nil }
}

extension PersistentModel where OriginalNameDeclaration: DeclaredName {
    /// ``PersistentModel/originalName`` as declared.
    public static var _originalName: String? { originalName.declaredName }
}

extension PersistentModel where HashModifierDeclaration == String? {
    /// No hash modifier: the version hash follows the declaration alone.
    public static var hashModifier: String? { nil }
}

extension PersistentModel where HashModifierDeclaration: DeclaredName {
    /// ``PersistentModel/hashModifier`` as declared.
    public static var _hashModifier: String? { hashModifier.declaredName }
}

extension PersistentModel where IndexesDeclaration == [[String]] {
    /// No indexes beyond those the attributes declare.
    public static var indexes: [[String]] { [] }
    /// ``PersistentModel/indexes`` as declared.
    public static var _indexes: [[String]] { indexes }
}

extension PersistentModel where UniquenessDeclaration == [[String]] {
    /// No uniqueness constraints beyond those the attributes declare.
    public static var uniqueness: [[String]] { [] }
    /// ``PersistentModel/uniqueness`` as declared.
    public static var _uniqueness: [[String]] { uniqueness }
}

extension PersistentModel where PrimaryKeyDeclaration == [String]? {
    /// nil: the properties marked `@Attribute(.primaryKey)`, or else the default `"id"` column.
    public static var primaryKey: [String]? { nil }
}

extension PersistentModel where PrimaryKeyDeclaration: DeclaredKey {
    /// ``PersistentModel/primaryKey`` as declared.
    public static var _primaryKey: [String]? { primaryKey.declaredKey }
}

extension PersistentModel where PrimaryKeyOnConflictDeclaration == Schema.ConflictResolution? {
    /// nil: the key has no conflict clause (SQLite's `ABORT`).
    public static var primaryKeyOnConflict: Schema.ConflictResolution? { nil }
}

extension PersistentModel where PrimaryKeyOnConflictDeclaration: DeclaredConflictResolution {
    /// ``PersistentModel/primaryKeyOnConflict`` as declared.
    public static var _primaryKeyOnConflict: Schema.ConflictResolution? { primaryKeyOnConflict.declaredResolution }
}

extension PersistentModel where IndexNamesDeclaration == [String: [String]] {
    /// No names given: an unnamed index is called `Entity_column…`.
    public static var indexNames: [String: [String]] { [:] }
    /// ``PersistentModel/indexNames`` as declared.
    public static var _indexNames: [String: [String]] { indexNames }
}

extension PersistentModel where WithoutRowIDDeclaration == Bool {
    /// A rowid table.
    public static var withoutRowID: Bool { false }
    /// ``PersistentModel/withoutRowID`` as declared.
    public static var _withoutRowID: Bool { withoutRowID }
}

extension PersistentModel where StrictDeclaration == Bool {
    /// Not a STRICT table.
    public static var strict: Bool { false }
    /// ``PersistentModel/strict`` as declared.
    public static var _strict: Bool { strict }
}

extension PersistentModel where NamedIndexesDeclaration == [NamedIndex] {
    /// No indexes with expressions, orders, collations or a WHERE clause.
    public static var namedIndexes: [NamedIndex] { [] }
    /// ``PersistentModel/namedIndexes`` as declared.
    public static var _namedIndexes: [NamedIndex] { namedIndexes }
}

extension PersistentModel where ConstraintsDeclaration == [Schema.TableConstraint] {
    /// No table constraints.
    public static var constraints: [Schema.TableConstraint] { [] }
    /// ``PersistentModel/constraints`` as declared.
    public static var _constraints: [Schema.TableConstraint] { constraints }
}
