#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Schema {
    /// An attribute: one column of its entity's table.
    public struct Attribute: Codable, Hashable, Sendable {
        /// The column name: the property's name, unless the declaration names the column
        /// (`@Attribute(column: "created_at")`), when ``propertyName`` holds the property's.
        public var name: String
        /// What the values are; decides the column's storage type and the conversions allowed.
        public var valueType: ValueType
        /// Whether the column may hold NULL.
        public var isOptional: Bool
        /// The column's default, as an SQL literal (`''`, `0`, `1.5`, `X'00'`), or nil for none.
        public var defaultValue: String?
        /// The property's name in the previous version, when it was renamed.
        public var originalName: String?
        /// Changing this marks the attribute as changed, so its table is rebuilt (its values are copied as they are).
        public var hashModifier: String?
        /// SwiftData options with no storage effect in SQLite (`spotlight`, `externalStorage`, …), recorded as given.
        public var options: [String]
        /// True when this version's code no longer reads or writes the property (`.retired`): the
        /// column stays for the previous version, and the next may drop it compatibly.
        public var isRetired: Bool { options.contains("retired") }
        /// True when the attribute is a key column written in descending order (`.descending`).
        public var isDescending: Bool { options.contains("descending") }
        /// The Swift type the values come from (`Int32`, `Status`), for reports only: it is not part of the hash.
        public var swiftType: String?
        /// For a column that stores a relationship: the table it references and its `ON DELETE` action.
        /// Declared schemas never set it; the storage layout derives it from relationships.
        public var references: ForeignKey?
        /// The Swift property's name when the column is named otherwise (`createdAt` for the column
        /// `created_at`); nil when they are the same. Not part of the hash: it stores nothing.
        public var propertyName: String?
        /// The column's declared SQL type as written (`NVARCHAR(160)`, `NUMERIC(10,2)`), or nil for
        /// the storage type of ``valueType``. Its affinity must agree with the values.
        public var sqlType: String?
        /// For a `Date` attribute stored otherwise than as seconds since 1970: how it is stored.
        public var dateStorage: DateStorage?
        /// A column `CHECK (…)` constraint's expression, as declared (`length(name) > 0`).
        public var check: String?
        /// The column's collating sequence (`NOCASE`, `RTRIM`, `BINARY` or one the app registers).
        public var collation: String?
        /// For a generated column: its expression and whether it is `VIRTUAL` or `STORED`.
        public var generated: GeneratedColumn?
        /// The conflict clause of the column's `NOT NULL` (`NOT NULL ON CONFLICT REPLACE`: a NULL
        /// written takes the column's default), nil for none (SQLite's `ABORT`). Only a column
        /// that is not optional has one.
        public var notNullOnConflict: ConflictResolution?

        /// An attribute with its name, type, optionality and the storage options a declaration gives it.
        public init(
            name: String, valueType: ValueType, isOptional: Bool = false, defaultValue: String? = nil,
            originalName: String? = nil, hashModifier: String? = nil, options: [String] = [], swiftType: String? = nil,
            references: ForeignKey? = nil, propertyName: String? = nil, sqlType: String? = nil,
            dateStorage: DateStorage? = nil,
            check: String? = nil, collation: String? = nil, generated: GeneratedColumn? = nil,
            notNullOnConflict: ConflictResolution? = nil
        ) {
            self.name = name
            self.valueType = valueType
            self.isOptional = isOptional
            self.defaultValue = defaultValue
            self.originalName = originalName
            self.hashModifier = hashModifier
            self.options = options
            self.swiftType = swiftType
            self.references = references
            self.propertyName = propertyName
            self.sqlType = sqlType
            self.dateStorage = dateStorage
            self.check = check
            self.collation = collation
            self.generated = generated
            self.notNullOnConflict = notNullOnConflict
        }

        /// Decodes an attribute from a schema snapshot; keys a snapshot leaves out take their defaults.
        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            valueType = try container.decode(ValueType.self, forKey: .valueType)
            isOptional = try container.decodeIfPresent(Bool.self, forKey: .isOptional) ?? false
            defaultValue = try container.decodeIfPresent(String.self, forKey: .defaultValue)
            originalName = try container.decodeIfPresent(String.self, forKey: .originalName)
            hashModifier = try container.decodeIfPresent(String.self, forKey: .hashModifier)
            options = try container.decodeIfPresent([String].self, forKey: .options) ?? []
            swiftType = try container.decodeIfPresent(String.self, forKey: .swiftType)
            references = try container.decodeIfPresent(ForeignKey.self, forKey: .references)
            propertyName = try container.decodeIfPresent(String.self, forKey: .propertyName)
            sqlType = try container.decodeIfPresent(String.self, forKey: .sqlType)
            dateStorage = try container.decodeIfPresent(DateStorage.self, forKey: .dateStorage)
            check = try container.decodeIfPresent(String.self, forKey: .check)
            collation = try container.decodeIfPresent(String.self, forKey: .collation)
            generated = try container.decodeIfPresent(GeneratedColumn.self, forKey: .generated)
            notNullOnConflict = try container.decodeIfPresent(ConflictResolution.self, forKey: .notNullOnConflict)
        }

        /// The column's storage type.
        public var storageType: StorageType { dateStorage?.storageType ?? valueType.storageType }

        /// The type the column is declared with: ``sqlType`` when given, else the storage type.
        public var declaredType: String { sqlType ?? storageType.rawValue }

        /// The affinity SQLite gives the column.
        public var affinity: StorageType { sqlType.map(StorageType.init(affinityOf:)) ?? storageType }

        /// The Swift property's name: ``propertyName``, or the column name when they are the same.
        public var property: String { propertyName ?? name }
    }

    /// What an attribute's values are.
    public enum ValueType: String, Codable, Hashable, Sendable, CaseIterable {
        /// Any Swift integer type, stored as INTEGER.
        case integer
        /// `Double` or `Float`, stored as REAL.
        case double
        /// `Bool`, stored as INTEGER 0 or 1.
        case bool
        /// `String`, stored as TEXT.
        case string
        /// `Date`, stored as REAL seconds since 1970-01-01 00:00:00 UTC.
        case date
        /// `Data`, stored as BLOB.
        case data
        /// `UUID`, stored as TEXT in its canonical upper-case form.
        case uuid
        /// `URL`, stored as TEXT (its absolute string).
        case url
        /// `Decimal`, stored as TEXT so no precision is lost.
        case decimal
        /// Any other `Codable` type, stored as JSON TEXT.
        case json
        /// ``SQLiteValue``: any value kept exactly as SQLite stores it, its storage class included
        /// (a column that holds blobs, text and numbers by design). Declared `BLOB` (no affinity:
        /// nothing is converted) unless ``Attribute/sqlType`` says otherwise; read and written by
        /// the data API as is, and never converted by a rebuild.
        case sqliteValue

        /// The SQLite storage type (and declared column type) of these values.
        public var storageType: StorageType {
            switch self {
            case .integer, .bool: return .integer
            case .double, .date: return .real
            case .string, .uuid, .url, .decimal, .json: return .text
            case .data, .sqliteValue: return .blob
            }
        }
    }

    /// A column's declared type, which is also its SQLite type affinity.
    /// Related SQLite documentation: <https://www.sqlite.org/datatype3.html#type_affinity>
    public enum StorageType: String, Codable, Hashable, Sendable {
        case integer = "INTEGER"
        case real = "REAL"
        case text = "TEXT"
        case blob = "BLOB"
        case numeric = "NUMERIC"

        /// The affinity SQLite gives a column declared with `declaredType`, by its documented rules.
        public init(affinityOf declaredType: String) {
            // On upper-cased ASCII bytes: introspection asks this of every column, several times.
            let type = declaredType.utf8.map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 }
            func contains(_ word: StaticString) -> Bool {
                let count = word.utf8CodeUnitCount
                guard type.count >= count else { return false }
                return word.withUTF8Buffer { word in
                    (0...(type.count - count)).contains { start in
                        (0..<count).allSatisfy { type[start + $0] == word[$0] }
                    }
                }
            }
            if contains("INT") {
                self = .integer
            } else if contains("CHAR") || contains("CLOB") || contains("TEXT") {
                self = .text
            } else if contains("BLOB") || type.isEmpty {
                self = .blob
            } else if contains("REAL") || contains("FLOA") || contains("DOUB") {
                self = .real
            } else {
                self = .numeric
            }
        }
    }
}
