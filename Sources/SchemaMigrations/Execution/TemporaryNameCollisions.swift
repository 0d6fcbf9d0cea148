/// The temporary names a stage's renames pass through (``RenameOrder``: `_sm_tmp_N` on the way to
/// a name still taken, `_sm_drop_N` for a dropped item moved out of the way), made free on the
/// database the stage runs on. The plan chooses them from the declarations alone; a table, index,
/// view or trigger, or a column, that only the database has (made by hand, kept by a baseline) may
/// already be called that, and `ALTER TABLE … RENAME` would then fail halfway through the stage.
/// The migration and the dry run both run the stage's steps through here, so they agree.
enum TemporaryNameCollisions {
    /// `steps` with each temporary name the database already has replaced by the next free one
    /// (``TemporaryName``), in every step that names it. The database is read only when the steps
    /// use a temporary name at all.
    static func freeing(_ steps: [MigrationStep], on db: any SQLQuerying) throws -> [MigrationStep] {
        let temporaries = temporaryNames(in: steps)
        guard !temporaries.isEmpty else { return steps }
        let live = try LiveSchema.read(from: db)
        let existing = live.objectNames.union(live.tables.flatMap { $0.columns.map(\.name.sqlFolded) })
        var taken = existing.union(steps.flatMap(\.action.renamedNames).map(\.sqlFolded))
        var replacements: [String: String] = [:]
        for name in temporaries where existing.contains(name.sqlFolded) {
            let free = TemporaryName.free(name, avoiding: taken)
            taken.insert(free.sqlFolded)
            replacements[name] = free
        }
        guard !replacements.isEmpty else { return steps }
        return steps.map { MigrationStep(action: $0.action.renaming(replacements)) }
    }

    /// `step` as the dry run measures its impact: a drop of an item moved aside for a rename
    /// (`_sm_drop_N`) names the item as the database has it before the stage, so that the rows
    /// and values it removes are counted there, not in whatever else may bear the temporary name.
    static func measured(_ step: MigrationStep, among steps: [MigrationStep]) -> MigrationStep {
        guard !step.action.droppedNames.isEmpty else { return step }
        let temporaries = Set(temporaryNames(in: steps))
        var original: [String: String] = [:]
        for other in steps {
            guard let given = other.action.renamedTo, let from = other.action.renamedFrom,
                temporaries.contains(given)
            else { continue }
            original[given] = from
        }
        return MigrationStep(action: step.action.renaming(original))
    }

    /// The names a rename gives that a later step renames again or drops: the temporary ones. A
    /// name the declarations give is renamed once and never dropped in the same stage.
    static func temporaryNames(in steps: [MigrationStep]) -> [String] {
        var names: [String] = []
        for (position, step) in steps.enumerated() {
            guard let given = step.action.renamedTo else { continue }
            let later = steps[(position + 1)...]
            if later.contains(where: { $0.action.renamedFrom == given || $0.action.droppedNames.contains(given) }),
                !names.contains(given)
            {
                names.append(given)
            }
        }
        return names
    }
}

extension StepAction {
    /// The name a rename of a table or column gives.
    fileprivate var renamedTo: String? {
        switch self {
        case .renameTable(_, let to), .renameColumn(_, _, let to): return to
        default: return nil
        }
    }

    /// The name a rename of a table or column takes away.
    fileprivate var renamedFrom: String? {
        switch self {
        case .renameTable(let from, _), .renameColumn(_, let from, _): return from
        default: return nil
        }
    }

    /// Both names of a rename.
    fileprivate var renamedNames: [String] { [renamedFrom, renamedTo].compactMap { $0 } }

    /// The tables or columns the step drops.
    fileprivate var droppedNames: [String] {
        switch self {
        case .dropTable(let table): return [table]
        case .dropColumn(_, let column): return [column]
        case .rebuild(let rebuild): return rebuild.droppedColumns
        default: return []
        }
    }

    /// The step with each name in `replacements` that it renames to, from, or drops replaced.
    fileprivate func renaming(_ replacements: [String: String]) -> StepAction {
        func replaced(_ name: String) -> String { replacements[name] ?? name }
        switch self {
        case .renameTable(let from, let to): return .renameTable(from: replaced(from), to: replaced(to))
        case .renameColumn(let table, let from, let to):
            return .renameColumn(table: table, from: replaced(from), to: replaced(to))
        case .dropTable(let table): return .dropTable(replaced(table))
        case .dropColumn(let table, let column): return .dropColumn(table: table, column: replaced(column))
        case .rebuild(var rebuild):
            rebuild.droppedColumns = rebuild.droppedColumns.map(replaced)
            return .rebuild(rebuild)
        default: return self
        }
    }
}
