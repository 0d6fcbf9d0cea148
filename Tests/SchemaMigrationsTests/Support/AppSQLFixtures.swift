import Foundation

@testable import SchemaMigrations

/// Databases that live inside an application: a flashcard-style tag table whose unique index uses
/// the app's case-folding collation, and a spatial table whose R*Tree index is kept by triggers
/// calling the app's geometry functions. The app registers both on its connections; so does
/// ``environment``.
enum AppSQLFixtures {
    /// `unicase`: ASCII case folded, as the app's own collation.
    static let unicase = SQLCollation("unicase") { lhs, rhs in
        let left = lhs.lowercased()
        let right = rhs.lowercased()
        return left == right ? .orderedSame : left < right ? .orderedAscending : .orderedDescending
    }

    /// A point is 16 bytes: x and y as little-endian doubles; NULL or anything shorter is empty.
    static func coordinate(_ value: SQLiteValue, _ index: Int) -> SQLiteValue {
        guard case .blob(let bytes) = value, bytes.count >= 16 else { return .null }
        let bits = bytes[(index * 8)..<(index * 8 + 8)].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return .real(Double(bitPattern: bits))
    }

    static let functions = [
        SQLFunction("st_isempty", argumentCount: 1) { arguments in
            guard case .blob(let bytes) = arguments[0], bytes.count >= 16 else { return .integer(1) }
            return .integer(0)
        },
        SQLFunction("st_x", argumentCount: 1) { coordinate($0[0], 0) },
        SQLFunction("st_y", argumentCount: 1) { coordinate($0[0], 1) },
    ]

    /// What the application registers on every connection it opens.
    static let environment = SQLEnvironment(collations: [unicase], functions: functions)

    /// `X'…'`: the point's 16 bytes.
    static func point(_ x: Double, _ y: Double) -> String {
        let bytes = [x, y].flatMap { value in
            (0..<8).map { UInt8(truncatingIfNeeded: value.bitPattern >> (8 * UInt64($0))) }
        }
        return "X'" + bytes.map { String(format: "%02X", $0) }.joined() + "'"
    }

    /// A WITHOUT ROWID table keyed by name, unique under the app's collation.
    static let tags = """
        CREATE TABLE tag (name TEXT NOT NULL PRIMARY KEY, note TEXT) WITHOUT ROWID;
        CREATE UNIQUE INDEX tag_name_unicase ON tag (name COLLATE unicase);
        INSERT INTO tag VALUES ('Swift', 'fast'), ('Rust', NULL), ('go', 'simple');
        """

    /// Places with an R*Tree kept by triggers that call the app's functions.
    static var places: String {
        """
        CREATE TABLE place (id INTEGER PRIMARY KEY, name TEXT NOT NULL, geom BLOB, note TEXT);
        CREATE VIRTUAL TABLE place_index USING rtree(id, minx, maxx, miny, maxy);
        CREATE TRIGGER place_inserted AFTER INSERT ON place WHEN NOT st_isempty(new.geom) BEGIN
          INSERT INTO place_index VALUES (new.id, st_x(new.geom), st_x(new.geom), st_y(new.geom), st_y(new.geom));
        END;
        CREATE TRIGGER place_moved AFTER UPDATE OF geom ON place BEGIN
          DELETE FROM place_index WHERE id = old.id;
          INSERT INTO place_index SELECT new.id, st_x(new.geom), st_x(new.geom), st_y(new.geom), st_y(new.geom) WHERE NOT st_isempty(new.geom);
        END;
        CREATE TRIGGER place_deleted AFTER DELETE ON place BEGIN DELETE FROM place_index WHERE id = old.id; END;
        CREATE VIEW place_extent AS SELECT id, name, st_x(geom) AS x, st_y(geom) AS y FROM place;
        INSERT INTO place (name, geom, note) VALUES ('Paris', \(point(2.35, 48.85)), 'capital'), ('Lyon', \(point(4.83, 45.76)), NULL), ('Nowhere', NULL, NULL);
        """
    }

    /// Creates a database with `sql`, on a connection that has the app's environment.
    static func make(_ database: TemporaryDatabase, _ sql: String, pragmas: String = "") throws {
        let db = try SQLiteConnection(path: database.path, mode: .readWriteCreate, environment: environment)
        if !pragmas.isEmpty { try db.execute(pragmas) }
        try db.execute(sql)
    }

    /// A connection as the app opens the file: with its environment.
    static func appConnection(_ database: TemporaryDatabase) throws -> SQLiteConnection {
        try SQLiteConnection(path: database.path, mode: .readWrite, environment: environment)
    }

    /// Version 1 read from the file (its declarable tables), and version 2 where `note` becomes
    /// non-optional with a default: a rebuild of `table`.
    static func versions(of database: TemporaryDatabase, table: String) throws -> (Schema, Schema) {
        let v1 = try SchemaIntrospection(databaseAt: database.url, environment: environment).schema
        var v2 = v1
        v2.version = Schema.Version(2, 0, 0)
        let index = try require(v2.entities.firstIndex { $0.name == table })
        let note = try require(v2.entities[index].attributes.firstIndex { $0.name == "note" })
        v2.entities[index].attributes[note].isOptional = false
        v2.entities[index].attributes[note].defaultValue = "''"
        return (v1, v2)
    }
}

private func require<T>(_ value: T?) throws -> T {
    guard let value else { throw MigrationError(.invalidSchema, "fixture: missing value") }
    return value
}
