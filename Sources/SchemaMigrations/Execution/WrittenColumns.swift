/// The columns a migration wrote (created, rebuilt or added), whose defaults it must have got right.
struct WrittenColumns {
    private var tables = Set<String>()
    private var columns = Set<String>()

    init(_ actions: [StepAction] = []) { record(actions) }

    mutating func record(_ actions: [StepAction]) {
        for action in actions {
            switch action {
            case .createTable(let entity): tables.insert(entity.name.sqlFolded)
            case .rebuild(let rebuild):
                // A rebuild writes back the defaults the plan does not change as the table had them.
                for column in rebuild.columns where column.expression == nil || column.changesDefault {
                    columns.insert(rebuild.table.sqlFolded + "." + column.attribute.name.sqlFolded)
                }
            case .addColumn(let table, let attribute, _):
                columns.insert(table.sqlFolded + "." + attribute.name.sqlFolded)
            default: break
            }
        }
    }

    func contains(table: String, column: String) -> Bool {
        tables.contains(table.sqlFolded) || columns.contains(table.sqlFolded + "." + column.sqlFolded)
    }
}
