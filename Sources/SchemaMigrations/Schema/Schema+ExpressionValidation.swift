#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Schema {
    /// Checks the SQL text an entity declares for generated columns and for indexes with
    /// expressions or a `WHERE`: each is one expression, a generated column is no key and has no
    /// default, such an index has a name. (Whether SQLite accepts the expressions over the table
    /// is checked when a stage is planned: ``DeclaredSQLCheck``.)
    func validateExpressions(of entity: Entity) throws {
        func fail(_ message: String, property: String? = nil, remedy: String) -> MigrationError {
            MigrationError(
                .invalidSchema, message, entity: entity.name, property: property, version: version, remedy: remedy)
        }
        for attribute in entity.attributes {
            guard let generated = attribute.generated else { continue }
            let label = "'\(entity.name).\(attribute.property)'"
            guard SQLExpressionText.isOneExpression(generated.expression) else {
                throw fail(
                    "the generated expression of \(label) is not one SQL expression: \(generated.expression)",
                    property: attribute.property,
                    remedy:
                        "write one expression over the table's other columns, with balanced parentheses and no ';', such as price * quantity"
                )
            }
            if entity.primaryKey?.contains(attribute.name) == true {
                throw fail(
                    "\(label) is generated, and SQLite does not allow a generated column in the primary key",
                    property: attribute.property,
                    remedy: "key the table on stored columns, or make \(label) an ordinary column")
            }
            if generated.recomputesOnRebuild, generated.storage == .virtual {
                throw fail(
                    "\(label) is VIRTUAL and says recomputesOnRebuild: a VIRTUAL column stores nothing to recompute",
                    property: attribute.property,
                    remedy:
                        "leave recomputesOnRebuild out, or make the column STORED (`.stored(\"…\", recomputesOnRebuild: true)`)"
                )
            }
            if attribute.defaultValue != nil {
                throw fail(
                    "\(label) is generated and has a default, which SQLite does not allow",
                    property: attribute.property,
                    remedy: "remove the default: SQLite computes the column's values")
            }
        }
        for index in entity.indexes where index.hasExpressions {
            let label = "the index \(index.name.map { "\($0) " } ?? "")of '\(entity.name)'"
            guard index.name != nil else {
                throw fail(
                    "an index of '\(entity.name)' \(index.termsDescription) has expressions or a WHERE but no name",
                    remedy: "name it (NamedIndex takes its name first)")
            }
            for element in index.elements ?? [] where (element.column == nil) == (element.expression == nil) {
                throw fail(
                    "\(label) has a term with \(element.column == nil ? "neither a column nor an expression" : "both a column and an expression")",
                    remedy: "give each term a column or an expression")
            }
            for element in index.elements ?? [] {
                if let expression = element.expression, !SQLExpressionText.isOneExpression(expression) {
                    throw fail(
                        "\(label) has a term that is not one SQL expression: \(expression)",
                        remedy: "write one expression over the table's columns, such as lower(email)")
                }
                if let collation = element.collation, (try? SQLTokenizer(collation).tokens())?.map(\.kind) != [.word] {
                    throw fail(
                        "\(label) has a collation that is not a collation name: \(collation)",
                        remedy: "name one: NOCASE, RTRIM, BINARY, or one the app registers")
                }
            }
            if let predicate = index.predicate, !SQLExpressionText.isOneExpression(predicate) {
                throw fail(
                    "the WHERE of \(label) is not one SQL expression: \(predicate)",
                    remedy: "write one condition over the table's columns, such as deleted_at IS NULL")
            }
        }
    }
}
