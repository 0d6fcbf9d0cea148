/// The temporary names a stage's renames pass through (``RenameOrder``: `_sm_tmp_N` on the way to
/// a name still taken, `_sm_drop_N` for a dropped item moved out of the way), made free on the
/// database the stage runs on. The plan chooses them from the declarations alone; a table, index,
/// view or trigger, or a column, that only the database has (made by hand, kept by a baseline) may
/// already be called that, and `ALTER TABLE … RENAME` would then fail halfway through the stage.
/// The migration and the dry run both run the stage's steps through here, so they agree.
///
/// Tables and each table's columns are separate namespaces: a name is temporary in its own only.
enum TemporaryNameCollisions {
    /// `steps` with each temporary name the database already has replaced by the next free one
    /// (``TemporaryName``), in every step that names it in its namespace. `live` is read only
    /// when the steps use a temporary name at all.
    static func freeing(_ steps: [MigrationStep], in live: @autoclosure () throws -> LiveSchema) throws
        -> [MigrationStep]
    {
        let temporaries = temporaryNames(in: steps)
        guard !temporaries.isEmpty else { return steps }
        let live = try live()
        let tables = live.objectNames
        let columns = Set(live.tables.flatMap { $0.columns.map(\.name.sqlFolded) })
        var taken = tables.union(columns).union(steps.flatMap(\.action.renamedNames).map(\.name.sqlFolded))
        var replacements: [SlotName: String] = [:]
        for slot in temporaries where (slot.table == nil ? tables : columns).contains(slot.name.sqlFolded) {
            let free = TemporaryName.free(slot.name, avoiding: taken)
            taken.insert(free.sqlFolded)
            replacements[slot] = free
        }
        guard !replacements.isEmpty else { return steps }
        return steps.map { MigrationStep(action: $0.action.renaming(replacements)) }
    }

    /// `steps` as the dry run measures their impact: a drop of an item moved aside for a rename
    /// (`_sm_drop_N`) names the item as the database has it before the stage, so that the rows
    /// and values it removes are counted there, not in whatever else may bear the temporary name.
    static func measured(_ steps: [MigrationStep]) -> [MigrationStep] {
        let temporaries = Set(temporaryNames(in: steps))
        var original: [SlotName: String] = [:]
        for step in steps {
            guard let (from, to) = step.action.renamed, temporaries.contains(to) else { continue }
            original[to] = from.name
        }
        guard !original.isEmpty else { return steps }
        return steps.map { step in
            step.action.droppedNames.isEmpty ? step : MigrationStep(action: step.action.renaming(original))
        }
    }

    /// The names a rename gives that a later step renames again or drops, in the same namespace:
    /// the temporary ones. A name the declarations give is renamed once and never dropped in the
    /// same stage.
    private static func temporaryNames(in steps: [MigrationStep]) -> [SlotName] {
        var names: [SlotName] = []
        for (position, step) in steps.enumerated() {
            guard let given = step.action.renamed?.to, !names.contains(given) else { continue }
            if steps[(position + 1)...].contains(where: {
                $0.action.renamed?.from == given || $0.action.droppedNames.contains(given)
            }) {
                names.append(given)
            }
        }
        return names
    }
}

/// A name in its namespace: a table's (`table` nil), or a column's of `table` (as named after the
/// stage's table renames, as the steps name it).
private struct SlotName: Hashable {
    var table: String?
    var name: String
}

extension StepAction {
    /// What a rename of a table or column takes away and gives.
    fileprivate var renamed: (from: SlotName, to: SlotName)? {
        switch self {
        case .renameTable(let from, let to):
            return (SlotName(table: nil, name: from), SlotName(table: nil, name: to))
        case .renameColumn(let table, let from, let to):
            return (SlotName(table: table, name: from), SlotName(table: table, name: to))
        default: return nil
        }
    }

    /// Both names of a rename.
    fileprivate var renamedNames: [SlotName] { renamed.map { [$0.from, $0.to] } ?? [] }

    /// The tables or columns the step drops.
    fileprivate var droppedNames: [SlotName] {
        switch self {
        case .dropTable(let table): return [SlotName(table: nil, name: table)]
        case .dropColumn(let table, let column): return [SlotName(table: table, name: column)]
        case .rebuild(let rebuild): return rebuild.droppedColumns.map { SlotName(table: rebuild.table, name: $0) }
        default: return []
        }
    }

    /// The step with each name in `replacements` that it renames to, from, or drops replaced.
    fileprivate func renaming(_ replacements: [SlotName: String]) -> StepAction {
        func table(_ name: String) -> String { replacements[SlotName(table: nil, name: name)] ?? name }
        func column(_ name: String, of table: String) -> String {
            replacements[SlotName(table: table, name: name)] ?? name
        }
        switch self {
        case .renameTable(let from, let to): return .renameTable(from: table(from), to: table(to))
        case .renameColumn(let name, let from, let to):
            return .renameColumn(table: name, from: column(from, of: name), to: column(to, of: name))
        case .dropTable(let name): return .dropTable(table(name))
        case .dropColumn(let name, let dropped): return .dropColumn(table: name, column: column(dropped, of: name))
        case .rebuild(var rebuild):
            rebuild.droppedColumns = rebuild.droppedColumns.map { column($0, of: rebuild.table) }
            return .rebuild(rebuild)
        default: return self
        }
    }
}
