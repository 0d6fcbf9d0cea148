/// The columns a migration wrote (created, rebuilt or added), whose defaults it must have got right.
struct WrittenColumns {
    private var tables = Set<String>()
    private var columns = Set<String>()

    init(_ actions: [StepAction] = []) { record(actions) }

    mutating func record(_ actions: [StepAction]) {
        for action in actions {
            switch action {
            case .createTable(let entity): tables.insert(entity.name.lowercased())
            case .rebuild(let rebuild):
                // A rebuild writes back the defaults the plan does not change as the table had them.
                for column in rebuild.columns where column.expression == nil || column.changesDefault {
                    columns.insert(rebuild.table.lowercased() + "." + column.attribute.name.lowercased())
                }
            case .addColumn(let table, let attribute, _): columns.insert(table.lowercased() + "." + attribute.name.lowercased())
            default: break
            }
        }
    }

    func contains(table: String, column: String) -> Bool {
        tables.contains(table.lowercased()) || columns.contains(table.lowercased() + "." + column.lowercased())
    }
}
