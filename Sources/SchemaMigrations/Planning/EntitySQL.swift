/// Writes the SQL that creates an entity's table and indexes.
///
/// The storage mapping: a table named after the entity, an `"id" INTEGER PRIMARY KEY` column,
/// and one column per attribute, declared with its storage type, `NOT NULL` unless optional, and
/// its default.
enum EntitySQL {
    /// `CREATE TABLE "Trip" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL DEFAULT '', …)`.
    /// A many-to-many join table has no `id`: `PRIMARY KEY ("Snippet_id", "tags_id")` instead.
    static func createTable(_ entity: Schema.Entity, named name: String? = nil, nullable: Set<String> = []) -> String {
        var columns = entity.isJoinTable ? [] : ["\(SQL.quoteIdentifier(Schema.primaryKeyColumn)) INTEGER PRIMARY KEY"]
        columns += entity.attributes.map { columnDefinition($0, forceNullable: nullable.contains($0.name)) }
        if let key = entity.primaryKey { columns.append("PRIMARY KEY (\(key.map(SQL.quoteIdentifier).joined(separator: ", ")))") }
        return "CREATE TABLE \(SQL.quoteIdentifier(name ?? entity.name)) (\(columns.joined(separator: ", ")))"
    }

    /// `"name" TEXT NOT NULL DEFAULT ''`.
    static func columnDefinition(_ attribute: Schema.Attribute, forceNullable: Bool = false) -> String {
        var definition = "\(SQL.quoteIdentifier(attribute.name)) \(attribute.storageType.rawValue)"
        if !attribute.isOptional && !forceNullable { definition += " NOT NULL" }
        if let defaultValue = attribute.defaultValue { definition += " DEFAULT \(defaultValue)" }
        if let key = attribute.references {
            definition += " REFERENCES \(SQL.quoteIdentifier(key.table)) (\(SQL.quoteIdentifier(Schema.primaryKeyColumn))) ON DELETE \(key.onDelete)"
        }
        return definition
    }

    /// `CREATE UNIQUE INDEX "Trip_name_unique" ON "Trip" ("name")`.
    static func createIndex(_ index: Schema.Index, table: String) -> String {
        let columns = index.columns.map(SQL.quoteIdentifier).joined(separator: ", ")
        return "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX \(SQL.quoteIdentifier(index.resolvedName(table: table))) ON \(SQL.quoteIdentifier(table)) (\(columns))"
    }
}
