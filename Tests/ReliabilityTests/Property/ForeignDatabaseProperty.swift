import Foundation
import Testing

@testable import SchemaMigrations

extension Reliability {
    /// Random databases made as another tool would make them, with every option the declaration
    /// API can say (``ForeignDatabase``) and rows: introspection declares every table, each column
    /// as it was made (Swift type, SQL type text, key, date storage, CHECK, collation, foreign
    /// key, index names) with an idiomatic Swift name, and a plan with that schema as V1 adopts
    /// the file with zero differences and no row changed.
    @Suite struct ForeignDatabaseProperty {
        @Test(.timeLimit(.minutes(30)))
        func everyRandomForeignDatabaseIsDeclaredAndAdopted() throws {
            let config = ReliabilityConfig.current
            let scratch = Scratch("foreign-database")
            var tables = 0
            var columns = 0
            var rows = 0
            var failed = 0
            for index in 0..<config.propertyCases {
                let database = ForeignDatabase.generate(seed: config.seed, index: index)
                let url = scratch.url("case-\(index).sqlite")
                try database.create(at: url)
                let context = "foreign database case \(index) (\(config.reproduction)):\n\(database)"
                let problems = try Self.problems(of: database, at: url, directory: scratch.url("plan-\(index)"))
                #expect(problems.isEmpty, "\(context)\n\(problems.joined(separator: "\n"))")
                if !problems.isEmpty {
                    failed += 1
                    continue
                }
                tables += database.tables.count
                columns += database.tables.reduce(0) { $0 + $1.columns.count }
                rows += database.tables.reduce(0) { $0 + $1.rows }
                scratch.removeDatabase(url)
            }
            ReliabilityConfig.summary(
                "foreign-database",
                "cases=\(config.propertyCases) tables=\(tables) columns=\(columns) rows=\(rows) declared-and-adopted=\(tables) failed=\(failed)"
            )
        }

        /// What introspection or adoption got wrong; empty when every table came out as made and adopted.
        static func problems(of database: ForeignDatabase, at url: URL, directory: URL) throws -> [String] {
            var problems: [String] = []
            let found = try SchemaIntrospection(databaseAt: url)
            for table in found.undeclarable { problems.append("undeclarable \(table.table): \(table.notes)") }
            let appDependents = Set(database.appDependents.map(\.name))
            for table in found.notCarried where !appDependents.contains(table.table) {
                problems.append("not carried \(table.table): \(table.notes)")
            }
            for table in database.tables {
                guard let entity = found.schema.entity(named: table.name) else {
                    problems.append("\(table.name) is not declared")
                    continue
                }
                if entity.primaryKey != table.primaryKey {
                    problems.append(
                        "\(table.name): key \(entity.primaryKey ?? ["id"]), made \(table.primaryKey ?? ["id"])")
                }
                if (entity.isAutoincrement, entity.isWithoutRowID, entity.isStrict) != (
                    table.autoincrement, table.withoutRowID, table.strict
                ) {
                    problems.append(
                        "\(table.name): AUTOINCREMENT/WITHOUT ROWID/STRICT \((entity.isAutoincrement, entity.isWithoutRowID, entity.isStrict)), made \((table.autoincrement, table.withoutRowID, table.strict))"
                    )
                }
                for column in table.columns {
                    guard let attribute = entity.attribute(named: column.name) else {
                        problems.append("\(table.name).\(column.name) is not declared")
                        continue
                    }
                    var expected = Schema.Attribute(
                        name: column.name, valueType: column.valueType, isOptional: column.isOptional,
                        references: column.references,
                        sqlType: column.sqlType, dateStorage: column.dateStorage, check: column.check,
                        collation: column.collation)
                    expected.defaultValue = attribute.defaultValue
                    expected.propertyName = attribute.propertyName
                    // A key column written DESC, on the table or on the column.
                    if table.descendingKey.contains(column.name) || column.sql.contains("PRIMARY KEY DESC") {
                        expected.options = ["descending"]
                    }
                    if !column.storageKnown { expected.dateStorage = attribute.dateStorage }
                    if attribute != expected {
                        problems.append("\(table.name).\(column.name): declared \(attribute), made \(expected)")
                    }
                    if let key = column.unlistedKey, !entity.constraints.contains(where: { $0.meaning == key.meaning })
                    {
                        problems.append(
                            "\(table.name).\(column.name): \(key.sql) is not among the declared constraints \(entity.constraints.map(\.sql))"
                        )
                    }
                    if !Self.isIdentifier(attribute.property) {
                        problems.append(
                            "\(table.name).\(column.name): property name \(attribute.property) is not a Swift identifier"
                        )
                    }
                }
                let properties = entity.attributes.map(\.property)
                if Set(properties).count != properties.count {
                    problems.append("\(table.name): property names clash: \(properties)")
                }
                let indexes = Set(entity.indexes.map { "\($0.name ?? "-") \($0.isUnique) \($0.columns)" })
                let made = Set(table.indexes.map { "\($0.name) \($0.unique) \($0.columns)" })
                if indexes != made {
                    problems.append("\(table.name): indexes \(indexes.sorted()), made \(made.sorted())")
                }
            }
            let typeNames = Array(SwiftNames.typeNames(of: found.schema).values)
            if Set(typeNames).count != typeNames.count || !typeNames.allSatisfy(Self.isIdentifier) {
                problems.append("type names \(typeNames)")
            }
            // `migrate scaffold` writes every declared table: Swift that reads back as this schema
            // (the compiled round trip in MigrateCommandTests proves the rendering of each option).
            let scaffold = SwiftDeclarations(schema: found.schema, name: "Foreign")
            if !scaffold.leftOut.isEmpty {
                problems.append(
                    "scaffold leaves out \(scaffold.leftOut.map { "\($0.table): \($0.notes.joined(separator: "; "))" })"
                )
            }
            if scaffold.declaredEntities != found.schema.entityNames {
                problems.append("scaffold declares \(scaffold.declaredEntities)")
            }
            guard problems.isEmpty else { return problems }

            // Adoption: zero differences, nothing to run, no row changed, verify passes.
            let dump = {
                try database.tables.map { table in
                    try SQLiteConnection(path: url.path, mode: .readOnly).rows(
                        "SELECT * FROM \(SQL.quoteIdentifier(table.name)) ORDER BY "
                            + (1...table.columns.count + (table.primaryKey == nil ? 1 : 0)).map(String.init).joined(
                                separator: ", "))
                }
            }
            let before = try dump()
            try PlanDirectory(name: "foreign", schemas: [found.schema], stages: []).write(to: directory)
            let migrator = try Migrator(planDirectory: directory)
            let result = try migrator.migrate(databaseAt: url)
            if !(result.adopted && result.stages.isEmpty) {
                problems.append("adoption ran \(result.stages.count) stages")
            }
            if try dump() != before { problems.append("rows changed on adoption") }
            if try !migrator.verify(databaseAt: url).isUpToDate {
                problems.append("verify: not up to date after adoption")
            }
            if !database.appDependents.isEmpty {
                problems += try Self.appDependentProblems(of: database, found: found, at: url, directory: directory)
            } else {
                problems += try Self.rebuildProblems(of: database, found: found, at: url, directory: directory)
            }
            return problems
        }

        /// Every table rebuilt (a new `hashModifier` each): every row, value, storage class and
        /// rowid as it was, whatever the key (none, nullable, composite) and the values' classes.
        static func rebuildProblems(
            of database: ForeignDatabase, found: SchemaIntrospection, at url: URL, directory: URL
        ) throws -> [String] {
            let dump = {
                try database.tables.map { table in
                    try SQLiteConnection(path: url.path, mode: .readOnly).rows(
                        "SELECT \(table.withoutRowID ? "" : "rowid, ")* FROM \(SQL.quoteIdentifier(table.name)) ORDER BY "
                            + (table.withoutRowID
                                ? (1...table.columns.count).map(String.init).joined(separator: ", ") : "rowid"))
                }
            }
            let before = try dump()
            var v2 = found.schema
            v2.version = Schema.Version(2, 0, 0)
            for index in v2.entities.indices { v2.entities[index].hashModifier = "rebuilt" }
            let plan = directory.appendingPathComponent("rebuilt")
            try PlanDirectory(name: "foreign", schemas: [found.schema, v2], stages: []).write(to: plan)
            let result = try Migrator(planDirectory: plan).migrate(databaseAt: url)
            var problems: [String] = []
            if result.stages.first?.steps.filter({ $0.op == .rebuildTable }).count != database.tables.count {
                problems.append("not every table was rebuilt: \(result.stages.map(\.steps))")
            }
            if try dump() != before { problems.append("a rebuild changed a row, a value's storage class or a rowid") }
            return problems
        }

        /// A rebuild of the first table (a new `hashModifier`) without the app's function keeps its
        /// view and trigger unchanged and the dry run lists both; with the function, the dry run
        /// lists none, and the app's trigger still guards the table.
        static func appDependentProblems(
            of database: ForeignDatabase, found: SchemaIntrospection, at url: URL, directory: URL
        ) throws -> [String] {
            var problems: [String] = []
            var v2 = found.schema
            v2.version = Schema.Version(2, 0, 0)
            v2.entities[v2.entities.firstIndex { $0.name == database.tables[0].name }!].hashModifier = "rebuilt"
            let plan = directory.appendingPathComponent("v2")
            try PlanDirectory(name: "foreign", schemas: [found.schema, v2], stages: []).write(to: plan)
            let dependents = {
                try SQLiteConnection(path: url.path, mode: .readOnly).rows(
                    "SELECT name, sql FROM sqlite_schema WHERE type IN ('view', 'trigger') ORDER BY name")
            }
            let before = try dependents()
            let withApp = try Migrator(
                planDirectory: plan, options: MigrationOptions(sqlEnvironment: ForeignDatabase.appEnvironment))
            let bare = try Migrator(planDirectory: plan)
            let listed = try bare.plan(databaseAt: url).keptUnevaluated
            if listed.count != 2 || !listed.allSatisfy({ $0.contains("app_fold") }) {
                problems.append("dry run without the function lists \(listed)")
            }
            if try !withApp.plan(databaseAt: url).keptUnevaluated.isEmpty {
                problems.append("dry run with the function lists kept dependents")
            }
            try bare.migrate(databaseAt: url)
            if try dependents() != before { problems.append("views or triggers changed by the rebuild") }
            let app = try SQLiteConnection(
                path: url.path, mode: .readWrite, environment: ForeignDatabase.appEnvironment)
            _ = try app.rows("SELECT * FROM \"app_folded\"")
            let table = database.tables[0]
            let column = table.columns[0]
            do {
                try app.execute(
                    "INSERT INTO \(SQL.quoteIdentifier(table.name)) (\(SQL.quoteIdentifier(column.name))) VALUES ('APP-REFUSED')"
                )
                problems.append("the app's trigger no longer guards \(table.name)")
            } catch let error as SQLiteError where error.message == "refused by the app" {
            } catch {}  // another constraint of the random table refused the row first: nothing to learn
            return problems
        }

        /// A Swift identifier a declaration can write (in backticks when a keyword).
        static func isIdentifier(_ name: String) -> Bool {
            guard let first = name.first, first.isLetter || first == "_" else { return false }
            return name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
        }
    }
}
