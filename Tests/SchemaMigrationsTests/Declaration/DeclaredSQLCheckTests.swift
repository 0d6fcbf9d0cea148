import Foundation
import Testing

@testable import SchemaMigrations

/// Every piece of SQL a version declares (CHECK, default expression, SQL type, generated column,
/// expression index) is parsed by SQLite in memory by `lint` and by the planner, so a typo is
/// refused with SQLite's message before anything is written, never met halfway through `apply`.
@Suite struct DeclaredSQLCheckTests {
    enum V1: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static let models: [any PersistentModel.Type] = [Product.self]
        final class Product: PersistentModel {
            var name = ""
            var price = 0.0
            init() {}
        }
    }

    enum BadCheck: VersionedSchema {
        static let versionIdentifier = Schema.Version(2, 0, 0)
        static let models: [any PersistentModel.Type] = [Product.self]
        final class Product: PersistentModel {
            var name = ""
            @Attribute(check: "price >> > 0") var price = 0.0
            init() {}
        }
    }

    enum BadDefault: VersionedSchema {
        static let versionIdentifier = Schema.Version(2, 0, 0)
        static let models: [any PersistentModel.Type] = [Product.self]
        final class Product: PersistentModel {
            var name = ""
            var price = 0.0
            @Attribute(defaultExpression: "(strftime('%s', 'now') +)") var createdAt = 0.0
            init() {}
        }
    }

    enum UnknownColumnInCheck: VersionedSchema {
        static let versionIdentifier = Schema.Version(2, 0, 0)
        static let models: [any PersistentModel.Type] = [Product.self]
        final class Product: PersistentModel {
            var name = ""
            @Attribute(check: "prize > 0") var price = 0.0
            init() {}
        }
    }

    enum CheckPlan: SchemaMigrationPlan { static let schemas: [any VersionedSchema.Type] = [V1.self, BadCheck.self] }
    enum DefaultPlan: SchemaMigrationPlan {
        static let schemas: [any VersionedSchema.Type] = [V1.self, BadDefault.self]
    }
    enum ColumnPlan: SchemaMigrationPlan {
        static let schemas: [any VersionedSchema.Type] = [V1.self, UnknownColumnInCheck.self]
    }
    /// The bad CHECK in the first version: no stage creates it, lint still reads it.
    enum FirstVersionPlan: SchemaMigrationPlan { static let schemas: [any VersionedSchema.Type] = [BadCheck.self] }

    @Test(arguments: [
        (
            CheckPlan.self as any SchemaMigrationPlan.Type,
            "SQLite rejects the CHECK of 'Product.price', `CHECK (price >> > 0)`,: near \">\": syntax error", "price"
        ),
        (
            DefaultPlan.self as any SchemaMigrationPlan.Type,
            "SQLite rejects the default of 'Product.createdAt', `DEFAULT (strftime('%s', 'now') +)`,: near \")\": syntax error",
            "createdAt"
        ),
        (
            ColumnPlan.self as any SchemaMigrationPlan.Type,
            "SQLite rejects the CHECK of 'Product.price', `CHECK (prize > 0)`,: no such column: prize", "price"
        ),
    ])
    func lintPlanAndApplyRefuseTheSQLWithSQLitesMessage(
        plan: any SchemaMigrationPlan.Type, message: String, property: String
    ) throws {
        let lintError = try #require(throws: MigrationError.self) { try Migrator(plan: plan).lint() }
        #expect(lintError.code == .invalidSchema)
        #expect(lintError.message == message)
        #expect(lintError.entity == "Product" && lintError.property == property)
        #expect(lintError.sqliteError != nil)

        let db = TemporaryDatabase()
        try Migrator(plan: plan, options: MigrationOptions(targetVersion: Schema.Version(1, 0, 0))).migrate(
            databaseAt: db.url)
        try db.execute("INSERT INTO Product (id, name, price) VALUES (1, 'tea', 3.5)")
        let before = try db.bytes()
        let planError = try #require(throws: MigrationError.self) { try Migrator(plan: plan).plan(databaseAt: db.url) }
        let applyError = try #require(throws: MigrationError.self) {
            try Migrator(plan: plan).migrate(databaseAt: db.url)
        }
        #expect(planError.message == message && applyError.message == message)
        #expect(try db.bytes() == before)
    }

    @Test func lintReadsTheFirstVersionToo() throws {
        let error = try #require(throws: MigrationError.self) { try Migrator(plan: FirstVersionPlan.self).lint() }
        #expect(
            error.message
                == "SQLite rejects the CHECK of 'Product.price', `CHECK (price >> > 0)`,: near \">\": syntax error")
    }
}
