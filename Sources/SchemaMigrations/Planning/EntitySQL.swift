/// Writes the SQL that creates an entity's table and indexes.
///
/// The storage mapping: a table named after the entity, an `"id" INTEGER PRIMARY KEY` column,
/// and one column per attribute, declared with its storage type, `NOT NULL` unless optional, and
/// its default.
enum EntitySQL {
    /// `CREATE TABLE "Trip" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL DEFAULT '', …)`.
    static func createTable(_ entity: Schema.Entity, named name: String? = nil, nullable: Set<String> = []) -> String {
        let columns = ["\(SQL.quoteIdentifier(Schema.primaryKeyColumn)) INTEGER PRIMARY KEY"]
            + entity.attributes.map { columnDefinition($0, forceNullable: nullable.contains($0.name)) }
        return "CREATE TABLE \(SQL.quoteIdentifier(name ?? entity.name)) (\(columns.joined(separator: ", ")))"
    }

    /// `"name" TEXT NOT NULL DEFAULT ''`.
    static func columnDefinition(_ attribute: Schema.Attribute, forceNullable: Bool = false) -> String {
        var definition = "\(SQL.quoteIdentifier(attribute.name)) \(attribute.storageType.rawValue)"
        if !attribute.isOptional && !forceNullable { definition += " NOT NULL" }
        if let defaultValue = attribute.defaultValue { definition += " DEFAULT \(defaultValue)" }
        return definition
    }

    /// `CREATE UNIQUE INDEX "Trip_name_unique" ON "Trip" ("name")`.
    static func createIndex(_ index: Schema.Index, table: String) -> String {
        let columns = index.columns.map(SQL.quoteIdentifier).joined(separator: ", ")
        return "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX \(SQL.quoteIdentifier(index.resolvedName(table: table))) ON \(SQL.quoteIdentifier(table)) (\(columns))"
    }
}
