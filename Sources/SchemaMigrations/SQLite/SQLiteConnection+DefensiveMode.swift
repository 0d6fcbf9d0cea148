import CSQLite

extension SQLiteConnection {
    /// Whether the connection runs in defensive mode (`SQLITE_DBCONFIG_DEFENSIVE`), under which
    /// SQLite refuses `writable_schema` edits of `sqlite_schema`: "table sqlite_master may not be
    /// modified". An application's hook or an extension may turn it on.
    var isDefensive: Bool {
        var value: Int32 = 0
        _ = schemamigrations_db_config_int(handle, SQLITE_DBCONFIG_DEFENSIVE, -1, &value)
        return value == 1
    }

    /// Runs `body` with defensive mode off when it was on, and turns it back on afterwards,
    /// whether `body` returned or threw. An online change needs it off: its guard index and its
    /// cut-over name indexes through `writable_schema`, following SQLite's documented procedure for
    /// changes `ALTER TABLE` cannot make; its statements are the package's own, never the
    /// application's input, which is what defensive mode protects against.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/c_dbconfig_defensive.html>
    func withDefensiveModeOff<T>(_ body: () throws -> T) throws -> T {
        guard isDefensive else { return try body() }
        var value: Int32 = 0
        _ = schemamigrations_db_config_int(handle, SQLITE_DBCONFIG_DEFENSIVE, 0, &value)
        defer { _ = schemamigrations_db_config_int(handle, SQLITE_DBCONFIG_DEFENSIVE, 1, &value) }
        return try body()
    }
}
