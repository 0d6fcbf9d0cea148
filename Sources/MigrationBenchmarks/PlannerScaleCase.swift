import SchemaMigrations

/// Two large schemas, 10% of whose entities change, for timing the planner.
enum PlannerScaleCase {
    static func schemas(entities: Int, attributes: Int, changedFraction: Double = 0.1) -> (Schema, Schema) {
        func entity(_ index: Int, changed: Bool) -> Schema.Entity {
            var columns = (0..<attributes).map { column in
                Schema.Attribute(
                    name: "field\(column)", valueType: [.integer, .string, .double, .date, .bool][column % 5],
                    isOptional: column % 3 == 0,
                    defaultValue: column % 3 == 0 ? nil : ["0", "''", "0.0", "0.0", "0"][column % 5])
            }
            var indexes = [Schema.Index(["field1"]), Schema.Index(["field2", "field4"], isUnique: true)]
            if changed {
                columns[1].originalName = "field1"
                columns[1].name = "renamed1"
                columns[3].isOptional = true  // rebuild
                columns.remove(at: 5)  // drop
                columns.append(Schema.Attribute(name: "added", valueType: .string, isOptional: true))
                indexes = [
                    Schema.Index(["renamed1"]), Schema.Index(["field2", "field4"], isUnique: true),
                    Schema.Index(["added"]),
                ]
            }
            return Schema.Entity(name: "Entity\(index)", attributes: columns, indexes: indexes)
        }
        let changedEvery = max(1, Int(1 / changedFraction))
        let source = Schema(
            version: Schema.Version(1, 0, 0), entities: (0..<entities).map { entity($0, changed: false) })
        let target = Schema(
            version: Schema.Version(2, 0, 0),
            entities: (0..<entities).map { entity($0, changed: $0 % changedEvery == 0) })
        return (source, target)
    }
}
