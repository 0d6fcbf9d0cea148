extension LiveSchema {
    /// The live schema as last read on a connection, kept so that reading the same schema again
    /// reads no table in detail twice: within one stage the migration, its checks and the online
    /// path read the schema several times over while nothing changes it.
    ///
    /// ```swift
    /// let before = try LiveSchema.read(from: db, onlyTables: ["Trip"])  // Trip read in detail
    /// let all = try LiveSchema.read(from: db)  // Trip kept; only the other tables read
    /// try db.execute("ALTER TABLE Trip ADD COLUMN notes TEXT")
    /// let after = try LiveSchema.read(from: db)  // the schema changed: every table read again
    /// ```
    ///
    /// It stands for the schema only while `PRAGMA schema_version` and every row of `sqlite_schema`
    /// are what they were when it was read, which each read compares (it reads both anyway): a
    /// change by anyone, on any connection, shows in the rows. The cookie alone would not do. A
    /// rolled-back change takes it back to an earlier value, which the next change takes again with
    /// another schema (a stage run again after its savepoint rolled back, a custom stage's own
    /// savepoints); an edit through `PRAGMA writable_schema` (an online cut-over names indexes so)
    /// leaves it as it was. What is reused is what the rows determine: the views, triggers and
    /// virtual tables they parse to, and each table's columns, indexes and foreign keys (a query
    /// per table and per index). `PRAGMA application_id` and `user_version` change no row, and are
    /// read every time.
    ///
    /// The connection keeps it (``SQLQuerying/schemaCache``); a read of a schema that changed
    /// replaces it.
    final class Cache {
        /// A table as `sqlite_schema` lists it, before it is read in detail.
        struct TableRow {
            var name: String
            var sql: String
            /// `CREATE VIRTUAL TABLE`: reading it may need a module only the application registers.
            var isVirtual: Bool
        }

        /// `PRAGMA schema_version` when read.
        let cookie: Int64
        /// Every row of `sqlite_schema` (type, name, table name, SQL) in rowid order, as read.
        let objects: [[SQLiteValue]]
        /// The schema as the rows alone say it: every name, the views, triggers and virtual tables,
        /// no table (``LiveSchema/tables`` is empty).
        let outline: LiveSchema
        /// Every table, in the file's order.
        let tables: [TableRow]
        /// Each index's `CREATE INDEX` text, by name.
        let indexSQL: [String: String]
        /// The tables read in detail so far, by name as SQLite folds it (`sqlFolded`).
        var detailed: [String: LiveSchema.Table] = [:]

        init(
            cookie: Int64, objects: [[SQLiteValue]], outline: LiveSchema, tables: [TableRow], indexSQL: [String: String]
        ) {
            self.cookie = cookie
            self.objects = objects
            self.outline = outline
            self.tables = tables
            self.indexSQL = indexSQL
        }

        /// What `db` keeps of the schema it read last, when that is the schema it has now: read
        /// with this cookie, from these rows of `sqlite_schema`.
        static func kept(by db: any SQLQuerying, cookie: Int64, objects: [[SQLiteValue]]) -> Cache? {
            guard let cache = db.schemaCache as? Cache, cache.cookie == cookie, cache.objects == objects else {
                return nil
            }
            return cache
        }
    }
}
