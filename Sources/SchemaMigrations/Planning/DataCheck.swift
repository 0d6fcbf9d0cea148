/// A read-only question a step asks of the live data before it runs: a lightweight stage is
/// refused, before any write, when the answer says the change would fail or lose data.
enum DataCheck: Sendable {
    /// A non-optional column without a default can only be added to an empty table.
    case tableIsEmpty(table: String, entity: String, property: PropertyName)
    /// A column becoming non-optional without a default must hold no NULL.
    case columnHasNoNulls(table: String, column: String, entity: String, property: PropertyName, remedy: String)
    /// A new uniqueness constraint must not meet duplicates. `columns` are the columns as they are
    /// named when the check runs; `properties` as the target names them.
    /// `nullsBecome` maps a column that turns non-optional to the default its NULLs take: they are
    /// compared as that value (several NULLs becoming `''` collide under a kept UNIQUE index).
    /// `collations` maps a column whose collation the stage changes to the new one: its values are
    /// compared as the new table will (`'A@x'` and `'a@x'` collide under `NOCASE`).
    case noDuplicates(
        table: String, columns: [String], entity: String, properties: [String], nullsBecome: [String: String] = [:],
        collations: [String: String] = [:])
    /// A new unique index over columns the stage adds, each with a constant default, gives every
    /// row the same key: the table may hold one row at most. `value` is that key, as SQL.
    case atMostOneRow(table: String, entity: String, properties: [String], value: String)
    /// A type change must carry every value exactly: no row may meet `condition` (SQL over the
    /// table's columns, named as when the check runs).
    case exactConversion(table: String, condition: String, entity: String, property: PropertyName, change: String)
}
