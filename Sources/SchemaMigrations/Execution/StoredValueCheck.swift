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
            "after the custom stage \(stage.from) → \(stage.to), \(label(first)) holds \(counted(first.count, "value")) its declaration cannot read (\(first.classes)); everything was rolled back",
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
                if everyColumn || updated.contains(attribute.name.sqlFolded) { return true }
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
