#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The schema of a live database file, as closely as the declaration model can say it: the
/// starting point for a database made by hand, by GRDB, or by another language.
///
/// ```swift
/// let found = try SchemaIntrospection(databaseAt: url)
/// for table in found.undeclarable { print(table.table, table.notes) }   // left out of found.schema
/// let v1 = try Schema(introspecting: url)   // throws when a table cannot be declared yet
/// ```
///
/// Every entity of ``schema`` matches its table with zero differences (a migrator with this schema
/// as its first version adopts the file), and says everything the declaration API can: its own
/// key (`AlbumId`, a TEXT or composite key, `AUTOINCREMENT`, `WITHOUT ROWID`), `STRICT`, each
/// column's SQL type text (`NVARCHAR(160)`, `NUMERIC(10,2)`), how a date is stored, CHECKs,
/// collations, default expressions, foreign keys onto any key column with their actions and
/// `DEFERRABLE`, index names, partial and expression indexes, and generated columns. Each attribute has an idiomatic Swift property name
/// (``Schema/Attribute/propertyName``); ``SwiftDeclarations`` writes the declarations and names
/// the types. How a column's Swift type and date storage are chosen is written in MIGRATIONS.md.
///
/// Values are declared as stored (a column holding blobs, text or a mix its type text does not
/// imply is `Data` or ``SQLiteValue``, from a sample of the first 10,000 rows), keys over columns
/// that may hold NULL over optional attributes, and a table with no primary key with
/// `primaryKey == []`. A table the model cannot say yet (a composite foreign key, a virtual
/// table…) is left out and listed in ``undeclarable`` with the reason, never approximated.
/// What a declared table has that the model does not carry but every migration keeps as the file has it (table CHECKs, a second CHECK on a column, `MATCH`,
/// triggers, views) is listed in ``notCarried``: a database created from
/// the snapshot would not have it.
public struct SchemaIntrospection: Sendable, Hashable {
    /// What the file says about one table (or view).
    public struct TableNotes: Sendable, Hashable {
        /// The table's name, as the file spells it.
        public var table: String
        /// One sentence each.
        public var notes: [String]
    }

    /// The declarable tables, as version ``Schema/version``.
    public var schema: Schema
    /// The tables left out of ``schema``, each with what cannot be declared yet.
    public var undeclarable: [TableNotes]
    /// What the declared tables have that ``schema`` does not carry (kept by every migration).
    public var notCarried: [TableNotes]
    /// Tables left out because they are bookkeeping: SQLite's, this package's, or another
    /// migration tool's (``ForeignMigrationHistory``).
    public var bookkeepingTables: [String]
    /// What a migration of the file needs that the environment given did not have: one line per
    /// collation the schema names (`the collation unicase: register it as the application does
    /// …`). Reading the schema and sampling values do not depend on a collation's order, so the
    /// file was read with a stand-in ordering bytes; a migration evaluates, and refuses without it.
    public var environmentNeeds: [String] = []

    /// Reads the schema of the database at `url`, read-only.
    /// - Parameters:
    ///   - url: the database file.
    ///   - version: the version the schema declares (1.0.0 unless given).
    ///   - environment: the application's collations, functions and extensions, for a database
    ///     whose indexes or columns need them to be read (``SQLEnvironment``).
    /// - Throws: `MigrationError` with code `notADatabase` when the file is missing or not a
    ///   database; `sqlEnvironment` naming a collation or function the file needs and the
    ///   environment lacks.
    public init(
        databaseAt url: URL, version: Schema.Version = Schema.Version(1, 0, 0), environment: SQLEnvironment = .none
    ) throws {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw MigrationError(.notADatabase, "there is no database at '\(url.path)'", remedy: "check the path")
        }
        let db: SQLiteConnection
        let standIns: StandInCollations
        do {
            db = try SQLiteConnection(path: url.path, mode: .readOnly)
            _ = try db.scalar("SELECT count(*) FROM sqlite_schema")
            try db.apply(environment)
            standIns = db.standInForMissingCollations()
        } catch let error as SQLiteError {
            throw MigrationError.fromOpening(error, path: url.path)
        }
        do {
            // One read transaction: one shared lock for the thousands of statements, not one each.
            // The stand-ins' record lives as long as the connection may still call for one.
            self = try withExtendedLifetime(standIns) {
                var found = try db.inReadTransaction { try SchemaIntrospection(db: db, version: version) }
                found.environmentNeeds = standIns.names.map { name in
                    let need = SQLEnvironmentNeed(kind: .collation, name: name)
                    let users = SQLEnvironmentFinding.objects(needing: need, in: db)
                    return "\(need)" + (users.isEmpty ? "" : " (" + users.joined(separator: "; ") + ")") + ": "
                        + SQLEnvironmentNeed.remedy(for: [need])
                }
                return found
            }
        } catch let error as SQLiteError {
            guard let need = SQLEnvironmentNeed(error) else { throw error }
            throw MigrationError(
                .sqlEnvironment, "reading '\(url.path)' needs \(need), which this connection does not have",
                remedy: SQLEnvironmentNeed.remedy(for: [need]),
                details: SQLEnvironmentFinding.objects(needing: need, in: db),
                sqliteError: error)
        }
    }

    init(db: SQLiteConnection, version: Schema.Version) throws {
        let live = try LiveSchema.read(from: db)
        var reader = IntrospectionReader(live: live, db: db)
        try reader.read()
        var entities = reader.entities
        var undeclarable = reader.undeclarable
        // The safety net: the result must be a valid schema matching the file exactly; a table that
        // does not is left out with the reason, never written approximately.
        while true {
            let schema = Schema(version: version, entities: entities)
            var rejected = Self.referenceToLeftOut(in: entities)
            if rejected == nil {
                do {
                    let stored = try StorageLayout.expand(schema)
                    for entity in stored.entities {
                        let differences = SchemaComparison(checksDefaults: true).differences(
                            entity: entity, table: reader.tablesByName[entity.name.sqlFolded]!,
                            parsed: reader.definitions[entity.name.sqlFolded])
                        if !differences.isEmpty {
                            rejected = (entity.name, differences.map(\.description))
                            break
                        }
                    }
                } catch let error as MigrationError {
                    guard let entity = error.entity else { throw error }
                    rejected = (entity, [error.message])
                }
            }
            guard let rejected else { break }
            entities.removeAll { $0.name == rejected.table }
            undeclarable.append(TableNotes(table: rejected.table, notes: rejected.reasons))
        }
        let declared = Set(entities.map(\.name))
        let objects = Schema.SQLObject.declarable(
            live.sqlObjects.filter { !Schema.isReservedTableName($0.name) }, leftOut: undeclarable.map(\.table))
        self.schema = Schema(version: version, entities: entities, sqlObjects: objects.kept)
        // A header value the file has is the application's to keep: declared, so a new install has it too.
        if live.applicationID != 0 { schema.applicationID = live.applicationID }
        if live.userVersion != 0 { schema.userVersion = live.userVersion }
        self.undeclarable = undeclarable
        self.notCarried = reader.notCarried.filter { declared.contains($0.table) } + objects.leftOut
        self.bookkeepingTables = reader.bookkeeping
    }
}

extension SchemaIntrospection {
    /// The first entity with a foreign key onto a table that is not declared (left out, or not
    /// a table), with the reason: it cannot be declared without its parent.
    static func referenceToLeftOut(in entities: [Schema.Entity]) -> (table: String, reasons: [String])? {
        let declared = Set(entities.map { $0.name.sqlFolded })
        for entity in entities {
            let reasons =
                entity.attributes.compactMap { attribute -> String? in
                    guard let key = attribute.references, !declared.contains(key.table.sqlFolded) else { return nil }
                    return
                        "column \(attribute.name) REFERENCES \(key.table), which is left out: a declared foreign key is onto a declared table"
                }
                + entity.constraints.compactMap { constraint -> String? in
                    guard case .foreignKey(let key) = constraint.kind, !declared.contains(key.table.sqlFolded) else {
                        return nil
                    }
                    return
                        "\(constraint.sql) is onto \(key.table), which is left out: a declared foreign key is onto a declared table"
                }
            if !reasons.isEmpty { return (entity.name, reasons) }
        }
        return nil
    }
}

extension Schema {
    /// The schema of the database at `url`, as version `version` (1.0.0 unless given).
    ///
    /// ```swift
    /// let v1 = try Schema(introspecting: URL(fileURLWithPath: "chinook.sqlite"))
    /// try PlanDirectory(name: "Chinook", schemas: [v1], stages: []).write(to: directory)
    /// ```
    /// - Parameters:
    ///   - url: the database file, read-only.
    ///   - version: the version the schema declares (1.0.0 unless given).
    ///   - environment: the application's SQL environment, when the file needs it (``SQLEnvironment``).
    /// - Throws: `MigrationError` with code `invalidSchema` listing, per table, what the
    ///   declaration model cannot say yet (use ``SchemaIntrospection`` to get the rest);
    ///   `notADatabase` when the file is missing or not a database.
    public init(introspecting url: URL, version: Version = Version(1, 0, 0), environment: SQLEnvironment = .none) throws
    {
        let found = try SchemaIntrospection(databaseAt: url, version: version, environment: environment)
        guard found.undeclarable.isEmpty else {
            throw MigrationError(
                .invalidSchema,
                "\(found.undeclarable.count) table\(found.undeclarable.count == 1 ? "" : "s") of '\(url.path)' cannot be declared yet",
                version: version,
                remedy:
                    "use SchemaIntrospection(databaseAt:) for the tables that can be, and keep the others out of the plan (a migration leaves undeclared tables alone)",
                details: found.undeclarable.flatMap { table in table.notes.map { "\(table.table): \($0)" } })
        }
        self = found.schema
    }
}
