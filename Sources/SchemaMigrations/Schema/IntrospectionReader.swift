#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Turns each live table into an entity where the declaration model can say it, and otherwise
/// says why not; notes what a declared table has that the model does not carry.
struct IntrospectionReader {
    let live: LiveSchema
    let db: SQLiteConnection
    var entities: [Schema.Entity] = []
    var undeclarable: [SchemaIntrospection.TableNotes] = []
    var notCarried: [SchemaIntrospection.TableNotes] = []
    var bookkeeping: [String] = []
    /// Triggers and views: kept by every migration, never in a snapshot.

    /// The tables by lower-cased name (SQLite names ignore case): one lookup per foreign key
    /// rather than a scan of every table.
    let tablesByName: [String: LiveSchema.Table]
    /// Each table's parsed definition, by lower-cased name (missing when it cannot be read).
    let definitions: [String: TableDefinition]
    /// The tables declared with the default `"id" INTEGER PRIMARY KEY`, lower-cased: a foreign
    /// key onto one names no column.
    let implicitIDTables: Set<String>

    init(live: LiveSchema, db: SQLiteConnection) {
        self.live = live
        self.db = db
        self.tablesByName = Dictionary(
            live.tables.map { ($0.name.sqlFolded, $0) }, uniquingKeysWith: { first, _ in first })
        var definitions: [String: TableDefinition] = [:]
        // A definition that cannot be parsed (SQL this reader does not know) is left out: the
        // table is then read from SQLite's pragmas alone, and the safety net below leaves it out
        // of the schema, with the reason, unless those match the file exactly.
        for table in live.tables { definitions[table.name.sqlFolded] = try? TableDefinition(parsing: table.sql) }
        self.definitions = definitions
        self.implicitIDTables = Set(
            live.tables.compactMap { table in
                definitions[table.name.sqlFolded].flatMap {
                    Self.declaresImplicitID(table, definition: $0) ? table.name.sqlFolded : nil
                }
            })
    }

    mutating func read() throws {
        // `PRAGMA table_list` (SQLite 3.37) tells virtual and shadow tables apart.
        let kinds = Dictionary(
            (try? db.rows("SELECT name, type FROM pragma_table_list WHERE schema = 'main'"))?.compactMap {
                row -> (String, String)? in
                guard let name = row[0].stringValue, let type = row[1].stringValue else { return nil }
                return (name.sqlFolded, type)
            } ?? [], uniquingKeysWith: { first, _ in first })
        let names = Set(live.tables.map(\.name.sqlFolded))
        for table in live.tables {
            if Schema.isReservedTableName(table.name)
                || ForeignMigrationHistory.isBookkeepingTable(table.name, among: names)
            {
                bookkeeping.append(table.name)
                continue
            }
            // A virtual table is declared as one of the version's SQL objects, its shadow tables
            // with it (the module makes them).
            if kinds[table.name.sqlFolded] == "virtual" || kinds[table.name.sqlFolded] == "shadow" { continue }
            var blocking: [String] = []
            var kept: [String] = []
            let entity = try entity(for: table, blocking: &blocking, kept: &kept)
            if blocking.isEmpty, let entity {
                entities.append(entity)
                if !kept.isEmpty { notCarried.append(.init(table: table.name, notes: kept)) }
            } else {
                undeclarable.append(.init(table: table.name, notes: blocking))
            }
        }
    }

    /// A hidden column that is not generated (a virtual table's): kept by every migration, not declared.
    func noteHidden(_ column: LiveSchema.Column, kept: inout [String]) {
        kept.append("hidden column \(column.name)")
    }

    /// Declared indexes for plain and unique indexes over columns; a unique one that is partial,
    /// over expressions or with another collation blocks the table (declaring it would be stricter
    /// or looser than the file); a plain one of those kinds is kept, not declared.
    /// A UNIQUE constraint among `declaredUnique` is said there, not as an index.
    func indexes(
        of table: LiveSchema.Table, definition: TableDefinition, declaredUnique: [Schema.TableConstraint],
        blocking: inout [String], kept: inout [String]
    ) throws -> [Schema.Index] {
        let constraintColumns = declaredUnique.compactMap { constraint -> [String]? in
            guard case .unique(let columns) = constraint.kind else { return nil }
            return columns.map(\.sqlFolded)
        }
        var saidAsConstraint = 0
        // A column's own COLLATE is the default of an index on it: only another one counts.
        func columnCollation(_ name: String?) -> String {
            for constraint in name.flatMap({ definition.column(named: $0) })?.constraints ?? [] {
                if case .collate(let collation) = constraint.kind { return collation.uppercased() }
            }
            return "BINARY"
        }
        var result: [Schema.Index] = []
        let columnsByName = Dictionary(
            table.columns.map { ($0.name.sqlFolded, $0) }, uniquingKeysWith: { first, _ in first })
        for index in table.indexes where index.origin != .primaryKey {  // in creation order, oldest first
            if index.origin == .uniqueConstraint, saidAsConstraint < constraintColumns.count,
                constraintColumns.contains(index.columns.map(\.sqlFolded))
            {
                saidAsConstraint += 1
                continue
            }
            let details = try db.rows(
                "SELECT name, \"desc\", coll FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno",
                [.text(index.name)])
            let expression = details.contains { $0[0].isNull }
            // A COLLATE the index spells counts even when it is its column's: it stays the index's
            // if the column's changes, so a new install must spell it too.
            let spellsCollation =
                index.sql.flatMap(IndexStatement.init(sql:))?.terms.contains { $0.collation != nil } ?? false
            let collated =
                spellsCollation
                || details.contains {
                    ($0[2].stringValue ?? "BINARY").uppercased() != columnCollation($0[0].stringValue)
                }
            let descending = details.contains { $0[1].int64Value == 1 }
            let what = "\(index.isUnique ? "unique index" : "index") \(index.name)"
            if expression || index.isPartial || collated || descending,
                let declared = Self.expressionIndex(index, table: table)
            {
                result.append(declared)
                continue
            }
            if expression || index.isPartial || collated {
                let kind = expression ? "over expressions" : index.isPartial ? "partial" : "collated unlike its column"
                if index.isUnique {
                    blocking.append("\(what) is \(kind): a declaration cannot say one yet")
                } else {
                    kept.append("\(what) (\(kind))")
                }
                continue
            }
            if descending { kept.append("\(what) has DESC columns; a snapshot's index is ascending") }
            let columns = index.columns.map { name in columnsByName[name.sqlFolded]?.name ?? name }
            if result.contains(where: { $0.columns == columns && $0.isUnique == index.isUnique && $0.name == nil }) {
                // Beside an unnamed one (a constraint's index, as a ON CONFLICT UNIQUE is read):
                // a declaration names each index it keeps twice, so this one stays the file's.
                kept.append(
                    "\(what) has the columns of a UNIQUE constraint (\(columns.joined(separator: ", "))); only one is in the snapshot"
                )
                continue
            }
            if index.origin == .uniqueConstraint {
                kept.append(
                    "UNIQUE (\(columns.joined(separator: ", "))) is a constraint of the table; a snapshot declares it as a unique index"
                )
                result.append(Schema.Index(columns, isUnique: true))
            } else {
                result.append(Schema.Index(columns, isUnique: index.isUnique, name: index.name))
            }
        }
        return result
    }
}
