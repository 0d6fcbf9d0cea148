import Foundation
import SchemaMigrations

/// A shop's database made with SQL, the way an app without SchemaMigrations made it: `"id"
/// INTEGER PRIMARY KEY` tables with snake_case columns, foreign keys, a named index, a unique
/// index and a table UNIQUE constraint, optional and required columns, dates as seconds.
enum ShopDatabase {
    static let sql = """
        CREATE TABLE "Customer" ("id" INTEGER PRIMARY KEY, "first_name" TEXT NOT NULL, "last_name" TEXT NOT NULL DEFAULT '',
                                 "email" TEXT, "created_at" REAL NOT NULL DEFAULT 0, "vip" INTEGER NOT NULL DEFAULT 0);
        CREATE UNIQUE INDEX "Customer_email_unique" ON "Customer" ("email");
        CREATE TABLE "order" ("id" INTEGER PRIMARY KEY, "customer_id" INTEGER NOT NULL REFERENCES "Customer" ("id") ON DELETE CASCADE,
                              "placed_at" REAL, "total" REAL NOT NULL DEFAULT 0.0, "note" TEXT DEFAULT 'none');
        CREATE INDEX "order_by_customer" ON "order" ("customer_id");
        CREATE TABLE "order_line" ("id" INTEGER PRIMARY KEY, "order_id" INTEGER NOT NULL REFERENCES "order" ("id") ON DELETE CASCADE,
                                   "sku" TEXT NOT NULL, "quantity" INTEGER NOT NULL DEFAULT 1, "photo" BLOB, UNIQUE ("order_id", "sku"));
        """

    /// `customers` customers with two orders of three lines each.
    static func create(at url: URL, customers: Int = 20) throws {
        let db = try SQLiteConnection(path: url.path, mode: .readWriteCreate)
        try db.execute(sql)
        try db.execute("BEGIN")
        for customer in 1...customers {
            try db.execute(
                "INSERT INTO Customer VALUES (\(customer), 'First\(customer)', 'Last\(customer)', \(customer % 3 == 0 ? "NULL" : "'c\(customer)@example.com'"), \(1_700_000_000 + customer), \(customer % 2))"
            )
            for order in 0..<2 {
                let id = customer * 10 + order
                try db.execute(
                    "INSERT INTO \"order\" VALUES (\(id), \(customer), \(order == 0 ? "NULL" : "1700000000.5"), \(Double(id) * 1.25), 'n\(id)')"
                )
                for line in 0..<3 {
                    try db.execute(
                        "INSERT INTO order_line (order_id, sku, quantity, photo) VALUES (\(id), 'SKU-\(line)', \(line + 1), X'0\(line)FF')"
                    )
                }
            }
        }
        try db.execute("COMMIT")
    }

    /// The version written by hand after the scaffolded V1: a column renamed (by its V1 property
    /// name), an optional column added, an index added.
    static let versionTwo = """
        import Foundation
        import SchemaMigrations

        enum ShopSchemaV2: VersionedSchema {
            static let versionIdentifier = Schema.Version(2, 0, 0)
            static let models: [any PersistentModel.Type] = [Customer.self, Order.self, OrderLine.self]

            final class Customer: PersistentModel {
                static let indexes: [[String]] = [["lastName", "givenName"]]
                static let indexNames: [String: [String]] = ["Customer_email_unique": ["email"]]

                @Attribute(originalName: "firstName", column: "given_name") var givenName: String
                @Attribute(column: "last_name") var lastName = ""
                @Attribute(.unique) var email: String? = nil
                @Attribute(column: "created_at", defaultExpression: "0") var createdAt: Double
                var vip = 0
                var phone: String? = nil

                init() {}
            }

            final class Order: PersistentModel {
                static let entityName = "order"
                static let indexes: [[String]] = [["customerID"]]
                static let indexNames: [String: [String]] = ["order_by_customer": ["customerID"]]

                @Attribute(column: "customer_id", references: .to(Customer.self, onDelete: .cascade)) var customerID: Int
                @Attribute(column: "placed_at") var placedAt: Double? = nil
                var total = 0.0
                var note: String? = "none"

                init() {}
            }

            final class OrderLine: PersistentModel {
                static let entityName = "order_line"
                static let constraints: [Schema.TableConstraint] = [.unique(["orderID", "sku"])]

                @Attribute(column: "order_id", references: .to(Order.self, onDelete: .cascade)) var orderID: Int
                @Attribute var sku: String
                var quantity = 1
                var photo: Data? = nil

                init() {}
            }
        }

        enum ShopMigrationPlanV2: SchemaMigrationPlan {
            static let name = "Shop"
            static let schemas: [any VersionedSchema.Type] = [ShopSchemaV1.self, ShopSchemaV2.self]
        }
        """
}
