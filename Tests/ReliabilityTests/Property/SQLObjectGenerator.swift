import Foundation

@testable import SchemaMigrations

/// Views, triggers and an FTS5 table declared on every version of a property case, derived from
/// the version's own tables so each is valid where it is declared: per table (chosen once, kept
/// while the table keeps its name) a view over its first columns, sometimes a view over that
/// view, and sometimes a trigger on it naming a column (half of them calling the application's
/// function, ``function``, on every update); per case, sometimes a full-text table
/// whose columns grow in a later version; and on some tables a named table CHECK over the first
/// column, on some two indexes over it, each named, on some a composite foreign key onto itself
/// (key and first column) with random clauses; on some, conflict clauses drawn for each version
/// (the key's, a NOT NULL's, a UNIQUE's over the key and the first column). A column renamed, dropped or re-added changes the SQL
/// of what names it, so stages drop, remake, rebuild and keep objects in every combination.
enum SQLObjectGenerator {
    struct Choice {
        var columns: Int
        var overView: Bool
        var trigger: Bool
        /// The trigger calls the application's function (``function``) on the row it sees.
        var callsFunction: Bool
    }

    /// The application's function a trigger may call: registered on every connection of the
    /// cases (the migrator's, the rehearsal's, the script's), as an app registers its own.
    static let function = SQLFunction("pm_tag", argumentCount: 1) { $0[0] }

    /// The clauses of a table's composite foreign key onto itself.
    struct SelfReference {
        var onDelete: Schema.ForeignKeyAction?
        var onUpdate: Schema.ForeignKeyAction?
        var match: String?
        var timing: Schema.ForeignKeyTiming?
        var named: Bool

        init(random: inout SeededRandom) {
            onDelete = [nil, .cascade, .noAction, .restrict][Int.random(in: 0..<4, using: &random)]
            onUpdate = [nil, .cascade, .noAction][Int.random(in: 0..<3, using: &random)]
            match = random.chance(0.3) ? "SIMPLE" : nil
            timing = random.chance(0.5) ? nil : Schema.ForeignKeyTiming.allCases.randomElement(using: &random)
            named = random.chance(0.5)
        }
    }

    static func assign(to versions: inout [ModelDatabase], random: inout SeededRandom) {
        var chosen: [String: Choice?] = [:]
        var constrained = Set<String>()
        for table in versions.flatMap(\.tables) where random.chance(0.4) { constrained.insert(table.entity.name) }
        var doubled = Set<String>()
        for table in versions.flatMap(\.tables) where random.chance(0.3) { doubled.insert(table.entity.name) }
        // Tables whose rows each reference themselves through a composite foreign key over the
        // key and the first column, onto a unique index over the same: always satisfied, so the
        // model's rows stand, while its clauses (chosen once per table) ride every rebuild.
        var linked: [String: SelfReference] = [:]
        for table in versions.flatMap(\.tables) where linked[table.entity.name] == nil && random.chance(0.3) {
            linked[table.entity.name] = SelfReference(random: &random)
        }
        // Tables whose key, first non-optional column's NOT NULL and a UNIQUE over the key and
        // the first column carry conflict clauses, drawn anew for each version: stages add,
        // change and drop them.
        var conflicting = Set<String>()
        for table in versions.flatMap(\.tables) where random.chance(0.3) { conflicting.insert(table.entity.name) }
        let text = random.chance(0.3)
        let textGrowsAt = Int.random(in: 1...3, using: &random)
        for position in versions.indices {
            var objects: [Schema.SQLObject] = []
            for index in versions[position].tables.indices {
                let entity = versions[position].tables[index].entity
                // A table CHECK over its first column, always true: its text follows the column's
                // renames, goes with it when it is dropped, and comes back when another column
                // takes the first place.
                // Two indexes over the first column, each under its own name: they follow its
                // renames, retire with it, and are made again over the next first column.
                if let first = entity.attributes.first, doubled.contains(entity.name),
                    !entity.indexes.contains(where: { $0.columns == [first.name] }), first.generated == nil
                {
                    versions[position].tables[index].entity.indexes += [
                        Schema.Index([first.name], name: "pd_" + entity.name),
                        Schema.Index([first.name], name: "pd2_" + entity.name),
                    ]
                }
                if let first = entity.attributes.first, constrained.contains(entity.name) {
                    let column = SQL.quoteIdentifier(first.name)
                    versions[position].tables[index].entity.constraints = [
                        .check("\(column) IS NULL OR \(column) IS NOT NULL", name: "pc_" + entity.name)
                    ]
                }
                if let reference = linked[entity.name], let first = entity.attributes.first, first.generated == nil,
                    !entity.keyColumns.contains(first.name)
                {
                    let columns = entity.keyColumns + [first.name]
                    versions[position].tables[index].entity.indexes.append(
                        Schema.Index(columns, isUnique: true, name: "pu_" + entity.name))
                    versions[position].tables[index].entity.constraints.append(
                        .foreignKey(
                            columns, references: entity.name, columns: columns, onDelete: reference.onDelete,
                            onUpdate: reference.onUpdate, match: reference.match, deferrable: reference.timing,
                            name: reference.named ? "pf_" + entity.name : nil))
                }
                if conflicting.contains(entity.name) {
                    // Not `.abort`, which means no clause: a version differing from another by it
                    // alone is the same schema, which a plan refuses to declare twice.
                    func resolution() -> Schema.ConflictResolution? {
                        random.chance(0.3)
                            ? nil : [.rollback, .fail, .ignore, .replace].randomElement(using: &random)
                    }
                    var table = versions[position].tables[index].entity
                    if table.primaryKey != [] { table.primaryKeyOnConflict = resolution() }
                    if let column = table.attributes.firstIndex(where: { !$0.isOptional && $0.generated == nil }) {
                        table.attributes[column].notNullOnConflict = resolution()
                    }
                    if let first = table.attributes.first, first.generated == nil,
                        !table.keyColumns.contains(first.name), let onConflict = resolution()
                    {
                        table.constraints.append(
                            .unique(
                                table.keyColumns + [first.name], onConflict: onConflict,
                                name: random.chance(0.5) ? "pq_" + table.name : nil))
                    }
                    versions[position].tables[index].entity = table
                }
                if chosen[entity.name] == nil {
                    chosen[entity.name] =
                        random.chance(0.6)
                        ? Choice(
                            columns: Int.random(in: 1...3, using: &random), overView: random.chance(0.5),
                            trigger: random.chance(0.5), callsFunction: random.chance(0.5)) : .some(nil)
                }
                guard let choice = chosen[entity.name] ?? nil, let first = entity.attributes.first else { continue }
                let table = SQL.quoteIdentifier(entity.name)
                let view = SQL.quoteIdentifier("pv_" + entity.name)
                let columns = (["id"] + entity.attributes.prefix(choice.columns).map(\.name)).map(SQL.quoteIdentifier)
                objects.append(
                    .view("CREATE VIEW \(view) AS SELECT \(columns.joined(separator: ", ")) FROM \(table)"))
                if choice.overView {
                    objects.append(
                        .view(
                            "CREATE VIEW \(SQL.quoteIdentifier("pvv_" + entity.name)) AS SELECT count(*) AS n FROM \(view)"
                        ))
                }
                if choice.trigger {
                    objects.append(
                        .trigger(
                            "CREATE TRIGGER \(SQL.quoteIdentifier("pt_" + entity.name)) AFTER UPDATE ON \(table) BEGIN SELECT "
                                + (choice.callsFunction
                                    ? "\(function.name)(NEW.\(SQL.quoteIdentifier(first.name)))"
                                    : "NEW.\(SQL.quoteIdentifier(first.name)) WHERE 0") + "; END"
                        ))
                }
            }
            if text {
                let grown = position + 1 > textGrowsAt ? ", tags" : ""
                objects.append(.virtualTable("CREATE VIRTUAL TABLE \"pfts\" USING fts5(title, body\(grown))"))
            }
            versions[position].sqlObjects = objects
        }
    }

    /// What a new install at `schema` has that the migrated `db` must have alike: each declared
    /// table's columns (name, type, NOT NULL, default, key position) and the declared objects'
    /// SQL as SQLite reads it, and whether each declared table constraint is there. Undeclared
    /// things (the app's own) are not compared.
    static func declaredShape(of schema: Schema, in db: SQLiteConnection) throws -> [String] {
        var shape: [String] = []
        for entity in schema.entities {
            let table = SQL.quoteString(entity.name)
            for row in try db.rows("SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(\(table))") {
                shape.append("\(entity.name).\(row.map(\.description).joined(separator: " "))")
            }
            let sql = try db.scalar("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = \(table)")?
                .stringValue
            let live = try sql.map { try TableDefinition(parsing: $0).declarableConstraints } ?? []
            shape += entity.constraints.map { declared in
                "\(entity.name) \(declared.meaning): \(live.contains(where: declared.isSatisfied(by:)) ? "present" : "missing")"
            }
        }
        let live = try LiveSchema.read(from: db)
        for object in schema.sqlObjects {
            let found = live.sqlObjects.first { $0.name.sqlFolded == object.name.sqlFolded }
            shape.append("\(object): \(found?.normalizedSQL ?? "missing")")
        }
        return shape.sorted()
    }
}
