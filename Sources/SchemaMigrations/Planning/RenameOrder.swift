/// Orders a stage's renames of tables (or of one table's columns) so that SQLite accepts every
/// one of them: renames are a permutation, and SQLite compares names without case.
///
/// A rename whose new name is taken at that moment — by another name being renamed (a swap
/// `first ↔ second`, a chain `b ← a, c ← b`), by a name about to be dropped (`Title` dropped
/// while `heading` becomes `title`), or by itself in another case (`trip` → `Trip`) — goes
/// through a temporary name: every renamed item first moves to `_sm_tmp_N`, then to its new name.
/// A dropped item whose name a rename needs moves to `_sm_drop_N` first, and is dropped there.
/// A temporary name the declarations use is skipped for the next free one (``TemporaryName``);
/// one only the database has is freed where the stage runs (``TemporaryNameCollisions``).
struct RenameOrder {
    /// The renames to run, in order.
    var renames: [(from: String, to: String)]
    /// Dropped names moved out of the way: original name → the name it is dropped under.
    var droppedMoved: [String: String]

    /// - Parameters:
    ///   - pairs: each item's old and new name (items keeping their name are left out).
    ///   - dropped: the names of the items dropped in the same stage.
    ///   - declared: every name the two versions declare in the same namespace (tables, or one
    ///     table's columns), which a temporary name must not be.
    init(_ pairs: [(from: String, to: String)], dropped: [String], declared: [String] = []) {
        let pairs = pairs.filter { $0.from != $0.to }
        let targets = Set(pairs.map { $0.to.sqlFolded })
        let sources = Set(pairs.map { $0.from.sqlFolded })
        var taken = Set((declared + dropped + pairs.flatMap { [$0.from, $0.to] }).map(\.sqlFolded))
        func temporary(_ base: String) -> String {
            let name = TemporaryName.free(base, avoiding: taken)
            taken.insert(name.sqlFolded)
            return name
        }
        droppedMoved = [:]
        renames = []
        for (number, name) in dropped.enumerated() where targets.contains(name.sqlFolded) {
            let temporary = temporary("_sm_drop_\(number)")
            droppedMoved[name] = temporary
            renames.append((name, temporary))
        }
        let needsTemporaries = pairs.contains { sources.contains($0.to.sqlFolded) }
        if needsTemporaries {
            let temporaries = pairs.indices.map { temporary("_sm_tmp_\($0)") }
            renames += zip(pairs, temporaries).map { ($0.from, $1) }
            renames += zip(pairs, temporaries).map { ($1, $0.to) }
        } else {
            renames += pairs
        }
    }
}
