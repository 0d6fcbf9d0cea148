/// A foreign key declared on an attribute: the column holds a key of another entity's row.
///
/// ```swift
/// final class Album: PersistentModel {
///     @Attribute(.primaryKey, column: "AlbumId") var albumID = 0
///     @Attribute(column: "ArtistId", references: .to("Artist", column: "ArtistId")) var artistID = 0
///     init() {}
/// }
/// ```
///
/// Written `REFERENCES "Artist" ("ArtistId") ON DELETE NO ACTION`, plus `ON UPDATE` and
/// `DEFERRABLE INITIALLY DEFERRED` when given. Use it for tables whose keys are plain columns
/// (`ArtistId`, a UUID); a `@Relationship` stores its key in a `…_id` column of its own.
///
/// Related SQLite documentation: <https://www.sqlite.org/foreignkeys.html>
public struct ForeignKeyReference: Sendable, Hashable {
    /// What SQLite does to the referencing rows when the referenced key is deleted or changed.
    public typealias Action = Schema.ForeignKeyAction

    /// The referenced entity's name.
    public var entity: String
    /// The referenced column, or nil for the referenced entity's primary key.
    public var column: String?
    /// What SQLite does to the referencing rows when the referenced row is deleted.
    public var onDelete: Action
    /// Nil writes no `ON UPDATE` clause (SQLite's `NO ACTION`).
    public var onUpdate: Action?
    /// `DEFERRABLE INITIALLY DEFERRED`: checked when the transaction commits.
    public var isDeferred: Bool

    /// A reference to the entity named `entity`.
    public static func to(
        _ entity: String, column: String? = nil, onDelete: Action = .noAction, onUpdate: Action? = nil,
        deferred: Bool = false
    ) -> ForeignKeyReference {
        ForeignKeyReference(
            entity: entity, column: column, onDelete: onDelete, onUpdate: onUpdate, isDeferred: deferred)
    }

    /// A reference to `model`'s entity.
    public static func to(
        _ model: any PersistentModel.Type, column: String? = nil, onDelete: Action = .noAction, onUpdate: Action? = nil,
        deferred: Bool = false
    ) -> ForeignKeyReference {
        to(model._entityName, column: column, onDelete: onDelete, onUpdate: onUpdate, deferred: deferred)
    }

    /// The schema's form; a nil column is resolved to the referenced entity's key when the version is read.
    var schemaForeignKey: Schema.ForeignKey {
        Schema.ForeignKey(
            table: entity, onDelete: onDelete.rawValue, column: column, onUpdate: onUpdate?.rawValue,
            isDeferred: isDeferred ? true : nil)
    }
}
