/// After a custom stage's code: the columns it may have written hold only values their
/// declaration can read back (``MigrationRow/value(_:as:)``), or the migration rolls back naming
/// the rows, as the NOT NULL check after `didMigrate` does.
///
/// The columns checked are those of the target's entities that the code inserted rows into
/// (every column), updated (those columns), or whose type the stage changes (a custom stage hands
/// `didMigrate` the old values to convert); on a connection whose statements are not watched
/// (``CodeFootprint/watchNothing(on:)``), every column. What "can read" means, by the storage
/// class SQLite holds (NULL always passes: NOT NULL is checked apart; a generated column is SQLite's):
///
/// | declared | refused |
/// |---|---|
/// | integer types | TEXT, BLOB, a REAL that is not a whole number within Int64 |
/// | `Bool` | TEXT, BLOB, a number other than 0 and 1 |
/// | `Double`, `Float` | TEXT, BLOB |
/// | `Date` | BLOB, TEXT that is not a `YYYY-MM-DD…` date SQLite's `datetime()` reads |
/// | `String`, `URL`, `UUID`, Codable (JSON) | INTEGER, REAL, BLOB |
/// | `Decimal` | BLOB, a REAL that is not a whole number |
/// | `Data` | INTEGER, REAL, TEXT |
///
/// A column this stage adds (`ADD COLUMN`, no default: NULL in every row) that the code wrote
/// only through the data API's `update`, each value proven readable as it was bound
/// (``isReadable(_:as:affinity:)``), holds nothing the check could refuse: it is not read again.
///
/// - Complexity: one pass over each such table (one query for all its columns), and, when a
///   column fails, one query naming its first ten rows.
struct StoredValueCheck {
    let stage: PlannedStage
    let footprint: CodeFootprint

    /// The refusal, or nil when every checked column holds values its declaration reads.
    func evaluate(on db: any SQLQuerying) throws -> MigrationError? {
        var failures:
            [(entity: Schema.Entity, attribute: Schema.Attribute, count: Int64, classes: String, keys: String)] = []
        for (entity, attributes) in columnsToCheck() {
            let table = SQL.quoteIdentifier(entity.name)
            // One pass over the table for up to 500 columns at a time.
            for chunk in stride(from: 0, to: attributes.count, by: 500).map({
                Array(attributes[$0..<min($0 + 500, attributes.count)])
            }) {
                let sums = chunk.map { "sum(\(Self.unreadable($0)))" }.joined(separator: ", ")
                guard let row = try db.rows("SELECT \(sums) FROM \(table)").first else { continue }
                for (attribute, total) in zip(chunk, row) {
                    guard let count = total.int64Value, count > 0 else { continue }
                    let condition = Self.unreadable(attribute)
                    let classes = try db.rows(
                        "SELECT DISTINCT typeof(\(SQL.quoteIdentifier(attribute.name))) FROM \(table) WHERE \(condition) ORDER BY 1"
                    )
                    .compactMap { $0[0].stringValue }.joined(separator: ", ")
                    let keys =
                        try DataCheck.keys(of: entity.name, where: condition, db: db).joined(separator: ", ")
                        + (count > 10 ? ", …" : "")
                    failures.append((entity, attribute, count, classes, keys))
                }
            }
        }
        guard let first = failures.first else { return nil }
        func label(
            _ failure: (entity: Schema.Entity, attribute: Schema.Attribute, count: Int64, classes: String, keys: String)
        ) -> String {
            "'\(failure.entity.name).\(failure.attribute.property)' (\(Self.typeName(of: failure.attribute)))"
        }
        return MigrationError(
            .dataViolation,
            "after the custom stage \(stage.from) → \(stage.to), \(label(first)) holds \(counted(first.count, "value")) its declaration cannot read (\(first.classes))",
            rolledBack: .everything,
            entity: first.entity.name, property: first.attribute.property, version: stage.to,
            remedy:
                "convert or clear those values in the custom stage (didMigrate sees the target version), or declare a type that reads them",
            details: ["rows (id): \(first.keys)"]
                + failures.dropFirst().map {
                    "\(label($0)) holds \(counted($0.count, "value")) it cannot read (\($0.classes)), rows (id): \($0.keys)"
                })
    }

    /// The target's entities with the columns to check, in declaration order.
    func columnsToCheck() -> [(Schema.Entity, [Schema.Attribute])] {
        let inserted = footprint.inserted.union(footprint.writtenByTriggers)
        return stage.target.entities.compactMap { entity in
            guard !entity.isJoinTable else { return nil }
            let table = entity.name.sqlFolded
            let everyColumn = !footprint.isWatching || inserted.contains(table)
            let updated = footprint.updated[table] ?? []
            let source =
                stage.source.entity(named: entity.name) ?? entity.originalName.flatMap(stage.source.entity(named:))
            let attributes = entity.attributes.filter { attribute in
                guard attribute.generated == nil else { return false }
                if everyColumn { return true }
                if updated.contains(attribute.name.sqlFolded) && !holdsOnlyProvenValues(attribute, of: entity) {
                    return true
                }
                // A type the stage changes: the copy carried the old values for the code to convert.
                guard let source,
                    let old = source.attribute(named: attribute.originalName ?? attribute.name)
                        ?? source.attribute(named: attribute.name)
                else { return false }
                return old.valueType != attribute.valueType || old.dateStorage != attribute.dateStorage
            }
            return attributes.isEmpty ? nil : (entity, attributes)
        }
    }

    /// Whether every value of `attribute`'s column is known readable without reading the table:
    /// the stage added the column (so it held NULL in every row), nothing rewrites the table
    /// after the code, and the code wrote the column only through the data API's `update`, each
    /// value proven readable.
    func holdsOnlyProvenValues(_ attribute: Schema.Attribute, of entity: Schema.Entity) -> Bool {
        let table = entity.name.sqlFolded
        let column = attribute.name.sqlFolded
        guard footprint.wroteOnlyProvenValues(table: table, column: column),
            !stage.finalizingSteps.contains(where: { $0.table.sqlFolded == table })
        else { return false }
        return stage.steps.contains { step in
            guard case .addColumn(let added, let declared, _) = step.action else { return false }
            return added.sqlFolded == table && declared.name.sqlFolded == column && declared.defaultValue == nil
                && declared.generated == nil
                && Schema.StorageType(affinityOf: declared.declaredType) == attribute.affinity
        }
    }

    /// Whether `value`, bound to a column of `affinity`, is stored as a value the check passes for
    /// a column of `valueType` (``unreadable(_:)`` is false for it). True only where the storage
    /// class SQLite keeps is certain: a blob is never converted; text stays text in a TEXT or BLOB
    /// column, or when no affinity can read it as a number; an integer stays one in an INTEGER,
    /// NUMERIC or BLOB column, a real in a REAL or BLOB one. Otherwise false, and the column is
    /// read as before.
    static func isReadable(_ value: SQLiteValue, as valueType: Schema.ValueType, affinity: Schema.StorageType)
        -> Bool
    {
        switch (value, valueType) {
        case (_, .sqliteValue), (.null, _): return true
        case (.text(let text), .string), (.text(let text), .url), (.text(let text), .uuid),
            (.text(let text), .json), (.text(let text), .decimal):
            return affinity == .text || affinity == .blob || !mayReadAsNumber(text)
        case (.integer, .integer), (.integer, .double), (.integer, .date), (.integer, .decimal):
            return affinity == .integer || affinity == .numeric || affinity == .blob
        case (.integer(let number), .bool):
            return (number == 0 || number == 1) && (affinity == .integer || affinity == .numeric || affinity == .blob)
        case (.real, .double), (.real, .date): return affinity == .real || affinity == .blob
        case (.blob, .data): return true
        default: return false
        }
    }

    /// False when `text` holds a byte that cannot appear in a number SQLite's numeric affinity
    /// converts (digits, a sign, a point, an exponent, ASCII spaces around them).
    private static func mayReadAsNumber(_ text: String) -> Bool {
        text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || byte == 0x2B || byte == 0x2D || byte == 0x2E || byte == 0x45
                || byte == 0x65 || byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
        }
    }

    /// SQL true for a value of `attribute`'s column that its declaration cannot read; never for NULL.
    static func unreadable(_ attribute: Schema.Attribute) -> String {
        let c = SQL.quoteIdentifier(attribute.name)
        let type = "typeof(\(c))"
        switch attribute.valueType {
        case .integer:
            return
                "(\(type) IN ('text', 'blob') OR (\(type) = 'real' AND (\(c) <> round(\(c)) OR abs(\(c)) >= 9.2e18)))"
        case .bool: return "(\(type) IN ('text', 'blob') OR (\(type) IN ('integer', 'real') AND \(c) NOT IN (0, 1)))"
        case .double: return "(\(type) IN ('text', 'blob'))"
        case .date:
            return
                "(\(type) = 'blob' OR (\(type) = 'text' AND NOT (\(c) GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]*' AND datetime(\(c)) IS NOT NULL)))"
        case .string, .url, .uuid, .json: return "(\(type) IN ('integer', 'real', 'blob'))"
        case .decimal: return "(\(type) = 'blob' OR (\(type) = 'real' AND \(c) <> round(\(c))))"
        case .data: return "(\(type) IN ('integer', 'real', 'text'))"
        case .sqliteValue: return "0"  // any value, as stored
        }
    }

    /// The Swift type the message names: the declared one, else the value type's.
    static func typeName(of attribute: Schema.Attribute) -> String {
        attribute.swiftType ?? attribute.valueType.swiftTypeName ?? "Codable"
    }
}
