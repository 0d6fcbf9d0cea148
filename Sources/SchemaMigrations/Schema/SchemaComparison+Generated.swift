extension SchemaComparison {
    /// How a live column differs from a declared one in being generated: `table_xinfo`'s `hidden`
    /// says whether it is (2 VIRTUAL, 3 STORED), the table's definition says the expression,
    /// compared as SQLite reads it.
    static func generatedDifferences(_ attribute: Schema.Attribute, column: LiveSchema.Column, table: String,
                                     definition: TableDefinition?) -> [String] {
        let label = "column \(table).\(attribute.name)"
        let liveStorage: Schema.GeneratedColumn.Storage? = column.hidden == 2 ? .virtual : column.hidden == 3 ? .stored : nil
        guard let declared = attribute.generated else {
            return liveStorage == nil ? [] : ["\(label) is generated (\(definition?.generated(of: attribute.name)?.clause ?? liveStorage!.rawValue.uppercased())), declared an ordinary column"]
        }
        guard liveStorage != nil else { return ["\(label) is an ordinary column, declared \(declared.clause)"] }
        guard let definition, let live = definition.generated(of: attribute.name) else { return [] }
        return live.isSame(as: declared) ? [] : ["\(label) is \(live.clause), declared \(declared.clause)"]
    }
}
