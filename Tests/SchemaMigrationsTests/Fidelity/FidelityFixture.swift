import Foundation
import Testing

@testable import SchemaMigrations

/// Tables with SQLite features the declarations do not speak of, migrated through a rebuild.
///
/// Each feature is tried both ways a user gets there: a table made by hand and adopted as V1,
/// and a table this package created at V1 to which the app then added the feature with its own
/// SQL (rebuilding the table by hand, or adding an index, trigger or view).
enum FidelityFixture {
    typealias A = PlanBuilder

    enum Origin: String, CaseIterable, CustomTestStringConvertible {
        case madeByHand, createdThenAltered
        var testDescription: String { rawValue }
    }

    /// `item` at V1: name, price, note (optional), deleted.
    static let item = Schema.Entity(
        name: "item",
        attributes: [
            A.attribute("name", .string, default: "''"),
            A.attribute("price", .double, default: "0.0"),
            A.attribute("note", .string, optional: true),
            A.attribute("deleted", .integer, default: "0"),
        ])

    /// V2 of `item`: `note` becomes non-optional with a default, which only a rebuild can do.
    static func rebuilt(_ entity: Schema.Entity = item) -> Schema.Entity {
        var entity = entity
        if let index = entity.attributes.firstIndex(where: { $0.name == "note" }) {
            entity.attributes[index] = A.attribute("note", .string, default: "''")
        }
        return entity
    }

    /// Three rows, one without a note.
    static let rows =
        "INSERT INTO item (id, name, price, note, deleted) VALUES (1, 'Swift', 1.5, 'a', 0), (2, 'Rust', 2.5, NULL, 0), (3, 'Go', 0, 'c', 1);"

    /// Builds the database at V1 the given way and migrates it to `target`.
    ///
    /// - Parameters:
    ///   - table: the `CREATE TABLE item …` statement with the feature.
    ///   - extra: SQL run after the rows (indexes, triggers, views, other tables).
    ///   - madeByHandFirst: other tables a hand-made database has (V1 creates them otherwise).
    @discardableResult
    static func migrate(
        _ origin: Origin, table: String, extra: String = "", rows: String = rows,
        source: [Schema.Entity] = [item], target: [Schema.Entity]? = nil,
        kind: StageKind = .lightweight, madeByHandFirst: String = ""
    ) throws -> (TemporaryDatabase, MigrationResult) {
        let db = TemporaryDatabase()
        let v1 = A.schema(1, source)
        let v2 = A.schema(2, target ?? source.map { $0.name == "item" ? rebuilt($0) : $0 })
        switch origin {
        case .madeByHand:
            try db.execute(madeByHandFirst + ";\n" + table + ";\n" + rows + "\n" + extra)
        case .createdThenAltered:
            try A.migrator([v1]).migrate(databaseAt: db.url)
            try db.execute(rows)
            // The app's own rebuild of the table, adding the feature (foreign keys are off by default).
            let columns = try db.connect().rows("SELECT name FROM pragma_table_info('item')").map {
                SQL.quoteIdentifier($0[0].stringValue!)
            }.joined(separator: ", ")
            try db.execute(
                """
                BEGIN;
                ALTER TABLE item RENAME TO item_old;
                \(table);
                INSERT INTO item (\(columns)) SELECT \(columns) FROM item_old;
                DROP TABLE item_old;
                COMMIT;
                \(extra)
                """)
        }
        let result = try A.migrator([v1, v2], kind: kind).migrate(databaseAt: db.url)
        #expect(try db.recordedVersion() == "2.0.0")
        #expect(try db.rows("PRAGMA integrity_check") == [["'ok'"]])
        #expect(try db.rows("PRAGMA foreign_key_check").isEmpty)
        return (db, result)
    }

    /// The rows after the migration: every one intact, the note filled with its default.
    static let rowsAfter = [
        ["1", "'Swift'", "1.5", "'a'", "0"], ["2", "'Rust'", "2.5", "''", "0"], ["3", "'Go'", "0.0", "'c'", "1"],
    ]

    static func expectRowsIntact(_ db: TemporaryDatabase, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(
            try db.rows("SELECT id, name, price, note, deleted FROM item ORDER BY id") == rowsAfter,
            sourceLocation: sourceLocation)
    }

    /// True when running `sql` fails with a constraint error.
    static func rejects(_ db: TemporaryDatabase, _ sql: String) -> Bool {
        do {
            try db.execute(sql)
            return false
        } catch let error as SQLiteError {
            return error.resultCode.primary.rawValue == 19  // SQLITE_CONSTRAINT
        } catch {
            return false
        }
    }
}
