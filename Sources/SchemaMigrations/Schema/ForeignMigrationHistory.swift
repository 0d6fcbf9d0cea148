#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Another migration tool's bookkeeping found in a database: which tool managed the file before,
/// and what it recorded, so a team moving to SchemaMigrations sees where it stands.
///
/// These tables are recognised and left alone: they are never differences on adoption, `verify`
/// or drift checks, never part of a snapshot made from the file, and no migration touches them.
///
/// ```swift
/// let status = try Migrator(plan: AppMigrationPlan.self).status(databaseAt: url)
/// for history in status.otherTools { print(history.summary) }
/// // GRDB DatabaseMigrator (grdb_migrations): 2 migrations applied: v1, v2
/// ```
public struct ForeignMigrationHistory: Sendable, Hashable {
    /// A migration tool whose bookkeeping is recognised.
    public enum Tool: String, Sendable, Hashable, CaseIterable {
        /// GRDB's `DatabaseMigrator`: `grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)`.
        case grdb
        /// Android's Room: `room_master_table (id INTEGER PRIMARY KEY, identity_hash TEXT)`, row 42.
        case room
        /// Python's Alembic: `alembic_version (version_num VARCHAR(32) NOT NULL PRIMARY KEY)`.
        case alembic
        /// Django: `django_migrations (id, app, name, applied)`.
        case django
        /// Atlas: `atlas_schema_revisions (version, description, type, applied, total, …)`.
        case atlas
        /// Core Data's SQLite store: `Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST)`, `Z_PRIMARYKEY`, `Z_MODELCACHE`.
        case coreData

        /// The tool's name for people: `GRDB DatabaseMigrator`.
        public var displayName: String {
            switch self {
            case .grdb: return "GRDB DatabaseMigrator"
            case .room: return "Room"
            case .alembic: return "Alembic"
            case .django: return "Django"
            case .atlas: return "Atlas"
            case .coreData: return "Core Data"
            }
        }

        /// The tables the tool keeps its bookkeeping in.
        public var tables: [String] {
            switch self {
            case .grdb: return ["grdb_migrations"]
            case .room: return ["room_master_table"]
            case .alembic: return ["alembic_version"]
            case .django: return ["django_migrations"]
            case .atlas: return ["atlas_schema_revisions"]
            case .coreData: return ["Z_METADATA", "Z_PRIMARYKEY", "Z_MODELCACHE"]
            }
        }
    }

    /// The tool.
    public var tool: Tool
    /// Its tables present in the file, as the file spells them.
    public var tables: [String]
    /// What it recorded, one entry each, oldest first where the tool keeps an order: GRDB's
    /// migration identifiers, Alembic's revisions, Django's `app/name` pairs, Atlas' versions,
    /// Room's identity hash, Core Data's model version identifiers and store UUID.
    public var entries: [String]
    /// One line: `GRDB DatabaseMigrator (grdb_migrations): 2 migrations applied: v1, v2`.
    public var summary: String

    /// Whether `name` is one of the recognised tools' bookkeeping tables (SQLite names ignore case).
    public static func isBookkeepingTable(_ name: String) -> Bool {
        bookkeepingTables.contains(name.sqlFolded)
    }

    static let bookkeepingTables = Set(Tool.allCases.flatMap(\.tables).map { $0.sqlFolded })

    /// Core Data's persistent history (`NSPersistentHistoryTrackingKey`): its transactions, their
    /// changes and their author and context strings. Core Data's own in a file that has its
    /// `Z_METADATA`; names an application may give its own tables anywhere else.
    static let coreDataHistoryTables: Set<String> = ["atransaction", "achange", "atransactionstring"]

    /// Whether `name` is bookkeeping in a file whose tables are `tables` (folded): a recognised
    /// tool's table, or Core Data's persistent history beside Core Data's metadata.
    static func isBookkeepingTable(_ name: String, among tables: Set<String>) -> Bool {
        isBookkeepingTable(name)
            || (coreDataHistoryTables.contains(name.sqlFolded) && tables.contains("z_metadata"))
    }

    /// The bookkeeping of every recognised tool present in the file, in ``Tool`` order. Read-only.
    static func read(from db: any SQLQuerying) throws -> [ForeignMigrationHistory] {
        let present = try db.rows("SELECT name FROM sqlite_schema WHERE type = 'table'").compactMap {
            $0.first?.stringValue
        }
        .filter(isBookkeepingTable)
        guard !present.isEmpty else { return [] }
        var result: [ForeignMigrationHistory] = []
        for tool in Tool.allCases {
            let wanted = Set(tool.tables.map { $0.sqlFolded })
            let tables = present.filter { wanted.contains($0.sqlFolded) }
            guard !tables.isEmpty else { continue }
            let entries: [String]
            do {
                entries = try read(tool, tables: tables, db: db)
            } catch {
                entries = []
                result.append(
                    ForeignMigrationHistory(
                        tool: tool, tables: tables, entries: [],
                        summary:
                            "\(tool.displayName) (\(tables.joined(separator: ", "))): its table does not have the layout this version of the tool writes; left alone"
                    ))
                continue
            }
            result.append(
                ForeignMigrationHistory(
                    tool: tool, tables: tables, entries: entries,
                    summary: summary(tool, tables: tables, entries: entries)))
        }
        return result
    }

    private static func read(_ tool: Tool, tables: [String], db: any SQLQuerying) throws -> [String] {
        func strings(_ sql: String) throws -> [String] {
            try db.rows(sql).map { row in
                row.map { $0.isNull ? "" : $0.description }.filter { !$0.isEmpty }.joined(separator: "/")
            }
        }
        switch tool {
        case .grdb: return try strings("SELECT identifier FROM grdb_migrations ORDER BY rowid")
        case .room: return try strings("SELECT identity_hash FROM room_master_table WHERE id = 42")
        case .alembic: return try strings("SELECT version_num FROM alembic_version ORDER BY version_num")
        case .django: return try strings("SELECT app, name FROM django_migrations ORDER BY id")
        case .atlas: return try strings("SELECT version FROM atlas_schema_revisions ORDER BY version")
        case .coreData: return try coreDataEntries(tables: tables, db: db)
        }
    }

    /// The store UUID and model version identifiers from `Z_METADATA`'s property list, and the
    /// entity names of `Z_PRIMARYKEY`.
    private static func coreDataEntries(tables: [String], db: any SQLQuerying) throws -> [String] {
        var entries: [String] = []
        let lower = Set(tables.map { $0.sqlFolded })
        if lower.contains("z_metadata") {
            for row in try db.rows("SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION") {
                if let uuid = row[1].stringValue { entries.append("store UUID \(uuid)") }
                guard case .blob(let bytes) = row[2],
                    let plist = try? PropertyListDecoder().decode(CoreDataMetadata.self, from: Data(bytes))
                else { continue }
                if let identifiers = plist.NSStoreModelVersionIdentifiers, !identifiers.isEmpty {
                    entries.append("model version identifiers: " + identifiers.map(\.text).joined(separator: ", "))
                }
                if let hashes = plist.NSStoreModelVersionHashes, !hashes.isEmpty {
                    entries.append("model entities: " + hashes.keys.sorted().joined(separator: ", "))
                }
            }
        }
        if lower.contains("z_primarykey") {
            let names = try db.rows("SELECT Z_NAME FROM Z_PRIMARYKEY ORDER BY Z_ENT").compactMap {
                $0.first?.stringValue
            }
            if !names.isEmpty { entries.append("entities: " + names.joined(separator: ", ")) }
        }
        return entries
    }

    private static func summary(_ tool: Tool, tables: [String], entries: [String]) -> String {
        let head = "\(tool.displayName) (\(tables.joined(separator: ", "))): "
        switch tool {
        case .grdb:
            return head
                + (entries.isEmpty
                    ? "no migration applied"
                    : "\(entries.count) migration\(entries.count == 1 ? "" : "s") applied: \(entries.joined(separator: ", "))")
        case .room:
            return head + (entries.first.map { "identity hash \($0)" } ?? "no identity hash recorded")
        case .alembic:
            return head + (entries.isEmpty ? "no revision recorded" : "at revision \(entries.joined(separator: ", "))")
        case .django:
            return head
                + (entries.isEmpty
                    ? "no migration applied"
                    : "\(entries.count) migration\(entries.count == 1 ? "" : "s") applied: \(entries.joined(separator: ", "))")
        case .atlas:
            return head
                + (entries.isEmpty
                    ? "no revision applied"
                    : "\(entries.count) revision\(entries.count == 1 ? "" : "s") applied, the last \(entries[entries.count - 1])")
        case .coreData:
            return head + (entries.isEmpty ? "no metadata readable" : entries.joined(separator: "; "))
        }
    }
}

/// What `Z_METADATA`'s property list says that `status` shows: the model version identifiers and
/// the entities the model hashes.
private struct CoreDataMetadata: Decodable {
    /// A property-list value written as text: a string, or a number.
    struct Scalar: Decodable {
        var text: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let string = try? container.decode(String.self) {
                text = string
            } else if let number = try? container.decode(Int64.self) {
                text = String(number)
            } else {
                text = String(try container.decode(Double.self))
            }
        }
    }

    /// Any property-list value, not read.
    struct Skipped: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    var NSStoreModelVersionIdentifiers: [Scalar]?
    var NSStoreModelVersionHashes: [String: Skipped]?
}
