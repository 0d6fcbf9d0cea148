extension SchemaComparison {
    /// How a live column differs from a declared one in being generated: `table_xinfo`'s `hidden`
    /// says whether it is (2 VIRTUAL, 3 STORED), the table's definition says the expression,
    /// compared as SQLite reads it.
    static func generatedDifference(
        _ attribute: Schema.Attribute, column: LiveSchema.Column, table: String,
        definition: TableDefinition?
    ) -> SchemaDifference? {
        let liveStorage: Schema.GeneratedColumn.Storage? =
            column.hidden == 2 ? .virtual : column.hidden == 3 ? .stored : nil
        guard let declared = attribute.generated else {
            guard let liveStorage else { return nil }
            let clause = definition?.generated(of: attribute.name)?.clause ?? liveStorage.rawValue.uppercased()
            return .generated(table: table, column: attribute.name, live: clause, declared: nil)
        }
        guard liveStorage != nil else {
            return .generated(table: table, column: attribute.name, live: nil, declared: declared.clause)
        }
        guard let definition, let live = definition.generated(of: attribute.name), !live.isSame(as: declared) else {
            return nil
        }
        return .generated(table: table, column: attribute.name, live: live.clause, declared: declared.clause)
    }
}
