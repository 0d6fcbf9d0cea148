#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The stored form of a difference, as a baseline keeps it: a `kind` and the names and values it
/// concerns, never the sentence it prints.
///
/// ```json
/// {"column":"destination","kind":"nullability","live":"NULL","table":"Trip"}
/// {"column":"trip_id","declared":{"onDelete":"CASCADE","table":"Trip"},"kind":"missingForeignKey","table":"Stop"}
/// {"declared":{"columns":["name"],"isUnique":false},"kind":"missingIndex","table":"Trip"}
/// ```
///
/// The keys and kinds are a stored format: a new release reads what an earlier one wrote. Add
/// kinds; never rename one or change what its keys hold.
extension SchemaDifference: Codable {
    private enum Key: String, CodingKey { case kind, table, column, index, live, declared, columns, sql }

    /// The stored name of the difference's case.
    var kind: String {
        switch self {
        case .missingTable: return "missingTable"
        case .primaryKey: return "primaryKey"
        case .noIntegerPrimaryKey: return "noIntegerPrimaryKey"
        case .missingTableOption: return "missingTableOption"
        case .missingColumn: return "missingColumn"
        case .undeclaredColumn: return "undeclaredColumn"
        case .columnType: return "columnType"
        case .nullability: return "nullability"
        case .missingForeignKey: return "missingForeignKey"
        case .undeclaredForeignKey: return "undeclaredForeignKey"
        case .foreignKeyTarget: return "foreignKeyTarget"
        case .foreignKeyColumn: return "foreignKeyColumn"
        case .foreignKeyOnUpdate: return "foreignKeyOnUpdate"
        case .foreignKeyNotDeferred: return "foreignKeyNotDeferred"
        case .check: return "check"
        case .collation: return "collation"
        case .conflictClause: return "conflictClause"
        case .generated: return "generated"
        case .defaultValue: return "defaultValue"
        case .missingIndex: return "missingIndex"
        case .indexName: return "indexName"
        case .undeclaredUniqueIndex: return "undeclaredUniqueIndex"
        case .sqlObject: return "sqlObject"
        case .header: return "header"
        case .missingConstraint: return "missingConstraint"
        }
    }

    /// The difference as a baseline stores it: compact canonical JSON (keys sorted).
    func encoded() throws -> String { try CanonicalJSON.encode(self) }

    /// The difference a baseline stored, or nil when `text` is not one (a sentence an earlier release stored).
    init?(encoded text: String) {
        guard text.hasPrefix("{"), let decoded = try? JSONDecoder().decode(SchemaDifference.self, from: Data(text.utf8))
        else {
            return nil
        }
        self = decoded
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(table, forKey: .table)
        try container.encodeIfPresent(column, forKey: .column)
        switch self {
        case .missingTable, .noIntegerPrimaryKey, .missingColumn, .undeclaredColumn, .foreignKeyNotDeferred:
            break
        case .primaryKey(_, let live, let declared):
            try container.encode(live, forKey: .live)
            try container.encode(declared, forKey: .declared)
        case .missingTableOption(_, let option):
            try container.encode(option.rawValue, forKey: .declared)
        case .columnType(_, _, let live, let declared), .foreignKeyOnUpdate(_, _, let live, let declared),
            .collation(_, _, let live, let declared), .conflictClause(_, _, let live, let declared):
            try container.encode(live, forKey: .live)
            try container.encode(declared, forKey: .declared)
        case .nullability(_, _, let liveNotNull):
            try container.encode(liveNotNull ? "NOT NULL" : "NULL", forKey: .live)
        case .missingForeignKey(_, _, let declared):
            try container.encode(declared, forKey: .declared)
        case .undeclaredForeignKey(_, _, let live):
            try container.encode(live, forKey: .live)
        case .foreignKeyTarget(_, _, let live, let declared), .foreignKeyColumn(_, _, let live, let declared):
            try container.encode(live, forKey: .live)
            try container.encode(declared, forKey: .declared)
        case .check(_, _, let live, let declared):
            try container.encode(live, forKey: .live)
            try container.encode(declared, forKey: .declared)
        case .generated(_, _, let live, let declared), .defaultValue(_, _, let live, let declared):
            try container.encodeIfPresent(live, forKey: .live)
            try container.encodeIfPresent(declared, forKey: .declared)
        case .missingIndex(_, let index):
            try container.encode(index, forKey: .declared)
        case .indexName(_, let index, let live):
            try container.encode(index, forKey: .declared)
            try container.encode(live, forKey: .live)
        case .undeclaredUniqueIndex(_, let index, let columns, let sql):
            try container.encode(index, forKey: .index)
            try container.encode(columns, forKey: .columns)
            try container.encodeIfPresent(sql, forKey: .sql)
        case .sqlObject(_, let declared, let live):
            try container.encode(declared, forKey: .declared)
            try container.encodeIfPresent(live, forKey: .live)
        case .header(_, let live, let declared):
            try container.encode(live, forKey: .live)
            try container.encode(declared, forKey: .declared)
        case .missingConstraint(_, let declared):
            try container.encode(declared, forKey: .declared)
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let kind = try container.decode(String.self, forKey: .kind)
        let table = try container.decode(String.self, forKey: .table)
        func column() throws -> String { try container.decode(String.self, forKey: .column) }
        func live<T: Decodable>(_: T.Type = T.self) throws -> T { try container.decode(T.self, forKey: .live) }
        func declared<T: Decodable>(_: T.Type = T.self) throws -> T { try container.decode(T.self, forKey: .declared) }
        switch kind {
        case "missingTable": self = .missingTable(table)
        case "primaryKey": self = .primaryKey(table: table, live: try live(), declared: try declared())
        case "noIntegerPrimaryKey": self = .noIntegerPrimaryKey(table: table)
        case "missingTableOption":
            guard let option = TableOption(rawValue: try declared()) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .declared, in: container, debugDescription: "unknown table option")
            }
            self = .missingTableOption(table: table, option)
        case "missingColumn": self = .missingColumn(table: table, column: try column())
        case "undeclaredColumn": self = .undeclaredColumn(table: table, column: try column())
        case "columnType":
            self = .columnType(table: table, column: try column(), live: try live(), declared: try declared())
        case "nullability":
            self = .nullability(table: table, column: try column(), liveNotNull: try live(String.self) == "NOT NULL")
        case "missingForeignKey":
            self = .missingForeignKey(table: table, column: try column(), declared: try declared())
        case "undeclaredForeignKey": self = .undeclaredForeignKey(table: table, column: try column(), live: try live())
        case "foreignKeyTarget":
            self = .foreignKeyTarget(table: table, column: try column(), live: try live(), declared: try declared())
        case "foreignKeyColumn":
            self = .foreignKeyColumn(table: table, column: try column(), live: try live(), declared: try declared())
        case "foreignKeyOnUpdate":
            self = .foreignKeyOnUpdate(table: table, column: try column(), live: try live(), declared: try declared())
        case "foreignKeyNotDeferred": self = .foreignKeyNotDeferred(table: table, column: try column())
        case "check": self = .check(table: table, column: try column(), live: try live(), declared: try declared())
        case "collation":
            self = .collation(table: table, column: try column(), live: try live(), declared: try declared())
        case "conflictClause":
            self = .conflictClause(
                table: table, column: try container.decodeIfPresent(String.self, forKey: .column), live: try live(),
                declared: try declared())
        case "generated":
            self = .generated(
                table: table, column: try column(), live: try container.decodeIfPresent(String.self, forKey: .live),
                declared: try container.decodeIfPresent(String.self, forKey: .declared))
        case "defaultValue":
            self = .defaultValue(
                table: table, column: try column(), live: try container.decodeIfPresent(String.self, forKey: .live),
                declared: try container.decodeIfPresent(String.self, forKey: .declared))
        case "missingIndex": self = .missingIndex(table: table, try declared())
        case "indexName": self = .indexName(table: table, try declared(), live: try live())
        case "undeclaredUniqueIndex":
            self = .undeclaredUniqueIndex(
                table: table, index: try container.decode(String.self, forKey: .index),
                columns: try container.decode([String].self, forKey: .columns),
                sql: try container.decodeIfPresent(String.self, forKey: .sql))
        case "header": self = .header(pragma: table, live: try live(), declared: try declared())
        case "missingConstraint": self = .missingConstraint(table: table, declared: try declared())
        case "sqlObject":
            self = .sqlObject(
                name: table, declared: try declared(), live: try container.decodeIfPresent(String.self, forKey: .live))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container,
                debugDescription: "unknown difference kind '\(kind)'")
        }
    }
}
