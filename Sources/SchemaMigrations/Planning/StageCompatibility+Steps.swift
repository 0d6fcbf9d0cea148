extension StageCompatibility {
    /// The reasons each of `steps` carries, by position: each reason goes to the step that makes
    /// its change (the rename of a column, the rebuild that changes a type, the drop of a view),
    /// or else to the first step on its table. A reason no step works on (a table moved aside
    /// under a temporary name before it is dropped) is the stage's only.
    func reasonsByStep(_ steps: [MigrationStep]) -> [[Reason]] {
        var result = [[Reason]](repeating: [], count: steps.count)
        for reason in reasons {
            let candidates = steps.indices.filter { steps[$0].action.table.sqlFolded == reason.table.sqlFolded }
            if let index = candidates.first(where: { reason.isMade(by: steps[$0].action) }) ?? candidates.first {
                result[index].append(reason)
            }
        }
        return result
    }
}

extension StageCompatibility.Reason {
    /// Whether `action` is the step that makes this change.
    func isMade(by action: StepAction) -> Bool {
        switch (kind, action) {
        case (.tableDropped, .dropTable), (.tableRenamed, .renameTable):
            return true
        case (.columnDropped, .dropColumn(_, let dropped)):
            return dropped.sqlFolded == column?.sqlFolded
        case (.columnDropped, .rebuild(let rebuild)):
            return rebuild.droppedColumns.contains { $0.sqlFolded == column?.sqlFolded }
        case (.columnRenamed, .renameColumn(_, _, let to)):
            return to.sqlFolded == column?.sqlFolded
        case (.requiredColumnAdded, .addColumn(_, let attribute, let forceNullable)):
            return !forceNullable && attribute.name.sqlFolded == column?.sqlFolded
        case (.uniqueAdded, .createIndex(_, let index)):
            return index.isUnique
        case (.viewDropped, .dropObject), (.virtualTableDropped, .dropObject), (.viewChanged, .createObject),
            (.triggerMayRefuse, .createObject), (.virtualTableChanged, .rebuildVirtualTable):
            return true
        case (.tableDropped, _), (.tableRenamed, _), (.columnRenamed, _), (.viewDropped, _), (.viewChanged, _),
            (.triggerMayRefuse, _), (.virtualTableDropped, _), (.virtualTableChanged, _):
            return false
        case (_, .rebuild):
            // A type, NOT NULL, generated clause, CHECK, collation, key or STRICT change: SQLite
            // has no ALTER for any of them.
            return true
        default:
            return false
        }
    }
}
