#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The declaration of a live table's generated columns and its indexes with expressions or a
/// `WHERE`: each is said as the file has it, so adoption finds no difference.
extension IntrospectionReader {
    /// Whether `table_xinfo` marks the column as generated (2 VIRTUAL, 3 STORED); 1 is a virtual
    /// table's hidden column.
    static func isGenerated(_ column: LiveSchema.Column) -> Bool { column.hidden == 2 || column.hidden == 3 }

    /// The attribute with its generated definition, read from the table's `CREATE TABLE`.
    static func declaringGenerated(
        _ attribute: Schema.Attribute, column: LiveSchema.Column, definition: TableDefinition
    ) -> Schema.Attribute {
        guard isGenerated(column), let generated = definition.generated(of: column.name) else { return attribute }
        var declared = attribute
        declared.generated = generated
        declared.defaultValue = nil
        return declared
    }

    /// A partial or expression index as a declaration (its terms, collations, order and `WHERE`
    /// as its SQL says them, its columns spelled as the table spells them); nil when its SQL cannot be read.
    static func expressionIndex(_ index: LiveSchema.Index, table: LiveSchema.Table) -> Schema.Index? {
        guard index.origin == .createIndex, let sql = index.sql, let statement = IndexStatement(sql: sql) else {
            return nil
        }
        let elements = statement.terms.map { term -> Schema.IndexElement in
            guard let name = term.column else { return term }
            var spelled = term
            if let column = table.column(named: name) {
                spelled.column =
                    column.primaryKeyPosition > 0 && table.hasIntegerPrimaryKey ? Schema.primaryKeyColumn : column.name
            }
            return spelled
        }
        return Schema.Index(
            elements: elements, isUnique: index.isUnique, name: index.name, predicate: statement.predicate)
    }
}
