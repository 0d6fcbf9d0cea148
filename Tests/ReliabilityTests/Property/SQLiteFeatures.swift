import Foundation

@testable import SchemaMigrations

/// SQLite features the declarations do not speak of, put on a property case's V1 tables — either
/// in tables made by hand (then adopted), or added by the app's own SQL to tables this package
/// created — and the probes that check, after the migration, that each still behaves.
///
/// Features go only where every stage keeps what they stand on: a table no stage drops (it may be
/// renamed or rebuilt), a string column no stage drops (it may be renamed; strings have no
/// lossless type change). So the model still predicts every row, and each feature must survive.
struct SQLiteFeatures {
    /// Tables made by hand with `CREATE TABLE` text of ours; false: made by the migrator, then altered.
    var madeByHand: Bool
    /// V1 table names (`id INTEGER PRIMARY KEY AUTOINCREMENT`, counter raised past the rows).
    var autoincrement: Set<String> = []
    var strict: Set<String> = []
    /// V1 tables made by hand whose key is a table constraint, `"id" INTEGER, …, CONSTRAINT …
    /// PRIMARY KEY ("id")` (now and then `DESC`, which SQLite still makes the rowid's alias).
    var tableKey: [String: Bool] = [:]
    /// `CHECK (column <> 'forbidden-probe')` on a V1 string column.
    var checks: [(table: String, column: String)] = []
    /// Hand-named indexes: name, V1 table, V1 column; partial ones have a WHERE.
    var indexes: [(name: String, table: String, column: String, partial: Bool)] = []
    /// An `AFTER UPDATE` trigger on the table writing `_probe_log`, and a view over the table.
    var triggers: [(name: String, table: String)] = []
    var views: [(name: String, table: String)] = []

    static let forbidden = "forbidden-probe"
    static let counterFloor: Int64 = 1_000

    var kinds: [String] {
        (madeByHand ? ["made by hand"] : ["created, then altered"])
            + (autoincrement.isEmpty ? [] : ["AUTOINCREMENT"]) + (strict.isEmpty ? [] : ["STRICT"])
            + (tableKey.isEmpty ? [] : ["key as a table constraint"])
            + (checks.isEmpty ? [] : ["CHECK"]) + (indexes.isEmpty ? [] : ["hand-named index"])
            + (indexes.contains { $0.partial } ? ["partial index"] : [])
            + (indexes.contains { $0.name.hasPrefix("_") } ? ["index named as a temporary"] : [])
            + (triggers.isEmpty ? [] : ["trigger"]) + (views.isEmpty ? [] : ["view"])
    }

    /// What the database `db` reached means beyond what a new install at `created` means, once the
    /// app's own objects are set aside (``withoutAppObjects(_:)``); nil when they mean the same, or
    /// when the V1 was made by hand (never created from its declaration).
    func meaningDifference(created: URL, reached db: SQLiteConnection) throws -> String? {
        guard !madeByHand else { return nil }
        let new = try withoutAppObjects(SemanticSchema.lines(created.path))
        let reached = try withoutAppObjects(SemanticSchema.lines(of: db))
        return new == reached ? nil : SemanticSchema.difference(new, reached)
    }

    /// `SemanticSchema` lines without the objects the app added (its indexes, triggers, views
    /// and their log table), with the other indexes' names left out: a rename keeps the name the
    /// package generated, a new install names the index after the new names.
    func withoutAppObjects(_ lines: [String]) -> [String] {
        let appIndexes = Set(indexes.map { $0.name.lowercased() })
        let appObjects = Set(
            triggers.map { "trigger \($0.name.lowercased()):" } + views.map { "view \($0.name.lowercased()):" })
        return lines.compactMap { line in
            if line.hasPrefix("table _probe_log") || appObjects.contains(where: line.hasPrefix) { return nil }
            guard let marker = line.range(of: " index "),
                let colon = line.range(of: ": ", range: marker.upperBound..<line.endIndex)
            else { return line }
            let name = String(line[marker.upperBound..<colon.lowerBound])
            if appIndexes.contains(name) { return nil }
            return name == "(auto)"
                ? line : line.replacingCharacters(in: marker.upperBound..<colon.lowerBound, with: "(named)")
        }.sorted()
    }

    /// Chooses features for a case, where every stage keeps what they stand on.
    static func generate(for versions: [ModelDatabase], random: inout SeededRandom) -> SQLiteFeatures {
        var features = SQLiteFeatures(madeByHand: random.chance(0.5))
        // A STRICT table's BLOB column refuses text: an SQLiteValue column there is declared ANY (not generated here).
        let holdsAnyValue = versions.contains {
            $0.tables.contains { $0.entity.attributes.contains { $0.valueType == .sqliteValue } }
        }
        for (position, table) in versions[0].tables.enumerated() {
            guard finalTable(table.entity.name, in: versions) != nil else { continue }
            let name = table.entity.name
            if features.madeByHand {
                if random.chance(0.3) { features.autoincrement.insert(name) }
                if random.chance(0.3) && !holdsAnyValue { features.strict.insert(name) }
                // AUTOINCREMENT is written on the column only.
                if !features.autoincrement.contains(name) && random.chance(0.3) {
                    features.tableKey[name] = random.chance(0.3)
                }
            }
            let strings = table.entity.attributes.filter {
                $0.valueType == .string && finalColumn($0.name, of: name, in: versions) != nil
            }.map(\.name)
            if let column = strings.randomElement(using: &random) {
                if features.madeByHand && random.chance(0.5) { features.checks.append((name, column)) }
                if random.chance(0.5) {
                    // Now and then under a name the migrator gives things for a moment: a
                    // rebuild's new table, a rename's temporary, a dropped item moved aside.
                    let names = [
                        "probe_index_\(name)", "_sm_new_\(name)", "_SM_TMP_\(position)", "_sm_drop_\(position)",
                    ]
                    let index = random.chance(0.6) ? names[0] : names[Int.random(in: 1..<names.count, using: &random)]
                    features.indexes.append((index, name, column, random.chance(0.4)))
                }
            }
            if random.chance(0.3) { features.triggers.append(("probe_trigger_\(name)", name)) }
            if random.chance(0.3) { features.views.append(("probe_view_\(name)", name)) }
        }
        return features
    }

    /// The table's name in the last version, following renames; nil when a stage drops it.
    static func finalTable(_ name: String, in versions: [ModelDatabase]) -> String? {
        var current = name
        for version in versions.dropFirst() {
            guard
                let next = version.tables.first(where: { $0.entity.originalName == current })
                    ?? version.tables.first(where: { $0.entity.name == current })
            else { return nil }
            current = next.entity.name
        }
        return current
    }

    /// The column's name in the last version, following renames of it and its table; nil when dropped.
    static func finalColumn(_ column: String, of table: String, in versions: [ModelDatabase]) -> String? {
        var currentTable = table
        var currentColumn = column
        for version in versions.dropFirst() {
            guard
                let next = version.tables.first(where: { $0.entity.originalName == currentTable })
                    ?? version.tables.first(where: { $0.entity.name == currentTable }),
                let attribute = next.entity.attributes.first(where: { $0.originalName == currentColumn })
                    ?? next.entity.attributes.first(where: { $0.name == currentColumn }),
                attribute.valueType == .string
            else { return nil }
            currentTable = next.entity.name
            currentColumn = attribute.name
        }
        return currentColumn
    }

    /// Creates V1 (by hand, or by the migrator), inserts its rows, and adds the features.
    func createV1(_ first: ModelDatabase, at url: URL, plan: String) throws {
        if madeByHand {
            let db = try SQLiteConnection(path: url.path, mode: .readWriteCreate)
            for table in first.tables {
                let name = table.entity.name
                let conflict = table.entity.primaryKeyOnConflict.map { " " + $0.clause } ?? ""
                var columns = [
                    tableKey[name] != nil
                        ? "\"id\" INTEGER"
                        : "\"id\" INTEGER PRIMARY KEY" + conflict
                            + (autoincrement.contains(name) ? " AUTOINCREMENT" : "")
                ]
                columns += table.entity.attributes.map { attribute in
                    EntitySQL.columnDefinition(attribute)
                        + (checks.contains { $0.table == name && $0.column == attribute.name }
                            ? " CHECK (\(SQL.quoteIdentifier(attribute.name)) <> '\(Self.forbidden)')" : "")
                }
                columns += table.entity.constraints.map(\.sql)
                if let descending = tableKey[name] {
                    columns.append(
                        "CONSTRAINT \(SQL.quoteIdentifier("pk_" + name)) PRIMARY KEY (\"id\"\(descending ? " DESC" : ""))"
                            + conflict)
                }
                try db.execute(
                    "CREATE TABLE \(SQL.quoteIdentifier(name)) (\(columns.joined(separator: ", ")))"
                        + (strict.contains(name) ? " STRICT" : ""))
                for index in table.entity.indexes { try db.execute(EntitySQL.createIndex(index, table: name)) }
            }
            for object in first.sqlObjects { try db.execute(object.sql) }
        } else {
            try Migrator(resolvedPlan: try ResolvedPlan(name: plan, schemas: [first.schema], stages: [])).migrate(
                databaseAt: url)
        }
        let db = try SQLiteConnection(path: url.path)
        try first.insertRows(into: db)
        for table in autoincrement {
            // The counter is above every row still there: a deleted id must never come back.
            try db.execute(
                "DELETE FROM sqlite_sequence WHERE name = \(SQL.quoteString(table)); INSERT INTO sqlite_sequence (name, seq) VALUES (\(SQL.quoteString(table)), \(Self.counterFloor))"
            )
        }
        if !triggers.isEmpty { try db.execute("CREATE TABLE _probe_log (what TEXT)") }
        for index in indexes {
            try db.execute(
                "CREATE INDEX \(SQL.quoteIdentifier(index.name)) ON \(SQL.quoteIdentifier(index.table)) (\(SQL.quoteIdentifier(index.column)))"
                    + (index.partial ? " WHERE \(SQL.quoteIdentifier(index.column)) IS NOT NULL" : ""))
        }
        for trigger in triggers {
            try db.execute(
                "CREATE TRIGGER \(SQL.quoteIdentifier(trigger.name)) AFTER UPDATE ON \(SQL.quoteIdentifier(trigger.table)) BEGIN INSERT INTO _probe_log VALUES (\(SQL.quoteString(trigger.name))); END"
            )
        }
        for view in views {
            try db.execute(
                "CREATE VIEW \(SQL.quoteIdentifier(view.name)) AS SELECT id FROM \(SQL.quoteIdentifier(view.table))")
        }
    }

    /// What no longer behaves after the migration; empty when every feature survived.
    func problems(after versions: [ModelDatabase], in db: SQLiteConnection) throws -> [String] {
        var problems: [String] = []
        func table(_ name: String) -> String { Self.finalTable(name, in: versions) ?? name }
        for name in strict
        where try db.scalar("SELECT strict FROM pragma_table_list(?)", [.text(table(name))])?.int64Value != 1 {
            problems.append("\(table(name)) is no longer STRICT")
        }
        for name in autoincrement {
            let seq =
                try db.scalar("SELECT seq FROM sqlite_sequence WHERE name = ?", [.text(table(name))])?.int64Value ?? 0
            if seq < Self.counterFloor {
                problems.append("\(table(name))'s AUTOINCREMENT counter went from \(Self.counterFloor) to \(seq)")
            }
        }
        for check in checks {
            let final = table(check.table)
            let column = Self.finalColumn(check.column, of: check.table, in: versions) ?? check.column
            guard try db.scalar("SELECT count(*) FROM \(SQL.quoteIdentifier(final))")?.int64Value ?? 0 > 0 else {
                continue
            }
            do {
                try db.execute(
                    "UPDATE \(SQL.quoteIdentifier(final)) SET \(SQL.quoteIdentifier(column)) = '\(Self.forbidden)' WHERE id = (SELECT min(id) FROM \(SQL.quoteIdentifier(final)))"
                )
                problems.append("the CHECK on \(final).\(column) no longer rejects")
            } catch let error as SQLiteError where error.resultCode.primary.rawValue == 19 {}
        }
        for index in indexes {
            let final = table(index.table)
            let column = Self.finalColumn(index.column, of: index.table, in: versions) ?? index.column
            let row = try db.rows(
                "SELECT tbl_name, sql FROM sqlite_schema WHERE type = 'index' AND name = ?", [.text(index.name)]
            ).first
            if row?[0].stringValue?.lowercased() != final.lowercased() {
                problems.append("index \(index.name) is gone from \(final)")
            }
            let columns = try db.rows("SELECT name FROM pragma_index_info(?)", [.text(index.name)]).map {
                $0[0].stringValue ?? ""
            }
            if columns.map({ $0.lowercased() }) != [column.lowercased()] {
                problems.append("index \(index.name) is on \(columns), expected \(column)")
            }
            let partial = try db.scalar(
                "SELECT partial FROM pragma_index_list(?) WHERE name = ?", [.text(final), .text(index.name)])?
                .int64Value
            if index.partial && partial != 1 {
                problems.append("index \(index.name) is no longer partial")
            }
        }
        for trigger in triggers {
            let final = table(trigger.table)
            guard try db.scalar("SELECT count(*) FROM \(SQL.quoteIdentifier(final))")?.int64Value ?? 0 > 0 else {
                if try db.scalar(
                    "SELECT count(*) FROM sqlite_schema WHERE type = 'trigger' AND name = ?", [.text(trigger.name)])?
                    .int64Value != 1
                {
                    problems.append("trigger \(trigger.name) is gone")
                }
                continue
            }
            try db.execute(
                "UPDATE \(SQL.quoteIdentifier(final)) SET id = id WHERE id = (SELECT min(id) FROM \(SQL.quoteIdentifier(final)))"
            )
            if try db.scalar("SELECT count(*) FROM _probe_log WHERE what = ?", [.text(trigger.name)])?.int64Value != 1 {
                problems.append("trigger \(trigger.name) no longer fires")
            }
        }
        for view in views {
            let final = table(view.table)
            let viewed = try db.scalar("SELECT count(*) FROM \(SQL.quoteIdentifier(view.name))")?.int64Value
            let rows = try db.scalar("SELECT count(*) FROM \(SQL.quoteIdentifier(final))")?.int64Value
            if viewed != rows {
                problems.append(
                    "view \(view.name) shows \(viewed.map(String.init) ?? "nothing"), \(final) has \(rows ?? 0) rows")
            }
        }
        return problems
    }
}
