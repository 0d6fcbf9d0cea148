/// Writes the SQL that creates an entity's table and indexes.
///
/// The storage mapping: a table named after the entity, an `"id" INTEGER PRIMARY KEY` column
/// unless the entity declares its own key, and one column per attribute, declared with its SQL
/// type (its storage type unless declared otherwise), `NOT NULL` unless optional, its default and
/// its foreign key.
enum EntitySQL {
    /// `CREATE TABLE "Trip" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL DEFAULT '', …)`.
    /// A declared single-column key is written on its column (`"AlbumId" INTEGER PRIMARY KEY NOT NULL`,
    /// a rowid alias when INTEGER); a composite one as `PRIMARY KEY ("PlaylistId", "TrackId")`,
    /// then the declared table constraints in their order.
    static func createTable(_ entity: Schema.Entity, named name: String? = nil, nullable: Set<String> = []) -> String {
        let onConflict = entity.primaryKeyOnConflict.map { " " + $0.clause } ?? ""
        var columns =
            entity.hasImplicitID
            ? ["\(SQL.quoteIdentifier(Schema.primaryKeyColumn)) INTEGER PRIMARY KEY\(onConflict)"] : []
        let inlineKey = entity.primaryKey.flatMap { $0.count == 1 ? $0[0] : nil }
        let descending = inlineKey.flatMap { entity.attribute(named: $0)?.isDescending } ?? false
        let keyClause =
            "PRIMARY KEY" + (descending ? " DESC" : "") + onConflict + (entity.isAutoincrement ? " AUTOINCREMENT" : "")
        columns += entity.attributes.map { attribute in
            columnDefinition(
                attribute, forceNullable: nullable.contains(attribute.name),
                keyClause: attribute.name == inlineKey ? keyClause : nil)
        }
        if let key = entity.primaryKey, !key.isEmpty, inlineKey == nil {
            let terms = key.map { column in
                SQL.quoteIdentifier(column) + (entity.attribute(named: column)?.isDescending == true ? " DESC" : "")
            }
            columns.append("PRIMARY KEY (\(terms.joined(separator: ", ")))\(onConflict)")
        }
        columns += entity.constraints.map(\.sql)
        return "CREATE TABLE \(SQL.quoteIdentifier(name ?? entity.name)) (\(columns.joined(separator: ", ")))"
            + EntitySQL.tableOptions(entity)
    }

    /// ` WITHOUT ROWID, STRICT`, or nothing.
    static func tableOptions(_ entity: Schema.Entity) -> String {
        let options = (entity.isWithoutRowID ? ["WITHOUT ROWID"] : []) + (entity.isStrict ? ["STRICT"] : [])
        return options.isEmpty ? "" : " " + options.joined(separator: ", ")
    }

    /// `"name" TEXT NOT NULL DEFAULT ''`: the quoted name, then ``typeAndConstraints(_:forceNullable:keyClause:)``.
    static func columnDefinition(_ attribute: Schema.Attribute, forceNullable: Bool = false, keyClause: String? = nil)
        -> String
    {
        [
            SQL.quoteIdentifier(attribute.name),
            typeAndConstraints(attribute, forceNullable: forceNullable, keyClause: keyClause),
        ]
        .filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// A column's definition after its name: `TEXT NOT NULL DEFAULT ''`.
    /// - Parameter keyClause: a key declared on the column, written right after the type
    ///   (`INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL`).
    static func typeAndConstraints(_ attribute: Schema.Attribute, forceNullable: Bool = false, keyClause: String? = nil)
        -> String
    {
        // An untyped column (`sqlType: ""`) writes no type: its constraints come first.
        var parts = [attribute.declaredType]
        if let keyClause { parts.append(keyClause) }
        if !attribute.isOptional && !forceNullable {
            parts.append("NOT NULL" + (attribute.notNullOnConflict.map { " " + $0.clause } ?? ""))
        }
        if let defaultValue = attribute.defaultValue, attribute.generated == nil {
            parts.append("DEFAULT \(defaultValue)")
        }
        if let collation = attribute.collation { parts.append("COLLATE \(collation)") }
        if let check = attribute.check { parts.append("CHECK (\(check))") }
        if let key = attribute.references { parts.append(key.clause) }
        if let generated = attribute.generated { parts.append(generated.clause) }
        return parts.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// `CREATE UNIQUE INDEX "Trip_name_unique" ON "Trip" ("name")`; with expressions and a
    /// `WHERE`: `CREATE INDEX "Customer_live" ON "Customer" (lower(email)) WHERE deleted_at IS NULL`.
    static func createIndex(_ index: Schema.Index, table: String) -> String {
        let terms = index.termsSQL.joined(separator: ", ")
        return
            "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX \(SQL.quoteIdentifier(index.resolvedName(table: table))) ON \(SQL.quoteIdentifier(table)) (\(terms))"
            + (index.predicate.map { " WHERE \($0)" } ?? "")
    }
}
