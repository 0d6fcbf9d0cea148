/// What a stage does to the views, triggers and virtual tables the two versions declare.
///
/// An object only the source declares is dropped; one only the target declares is made; one
/// whose SQL changed (spacing, case and quoting do not count) is dropped and made again, or,
/// for a virtual table, rebuilt with its rows (``VirtualTableRebuild``). A view or trigger of the
/// source that reads one of those is dropped and made again too, and so on for what reads it:
/// SQLite does not follow a view's references, and every `ALTER TABLE` of the stage would fail
/// on a view naming something missing.
///
/// Drops run first, before every other step, in the reverse of the source's order; rebuilt
/// virtual tables after the tables' changes; creations last, in the target's order (a view before
/// what reads it). Objects the database has and no version declares are the application's:
/// never dropped, and kept across rebuilds as before.
struct SQLObjectPlan {
    private(set) var drops: [StepAction] = []
    private(set) var rebuilds: [StepAction] = []
    private(set) var creates: [StepAction] = []

    /// - Parameter touched: the names (folded) the stage's other steps drop or rename away from:
    ///   tables and columns. A view or trigger naming one is remade even when its SQL is the
    ///   same: SQLite would refuse to drop a column it names, or rewrite it under a rename (a
    ///   swap of two columns would silently swap what it reads).
    init(source: Schema, target: Schema, touched: Set<String> = []) {
        let targets = Dictionary(target.sqlObjects.map { ($0.name.sqlFolded, $0) }, uniquingKeysWith: { a, _ in a })
        let sources = Dictionary(source.sqlObjects.map { ($0.name.sqlFolded, $0) }, uniquingKeysWith: { a, _ in a })
        var reasons: [String: SQLObjectChange] = [:]
        var rebuilt: Set<String> = []
        for object in source.sqlObjects {
            let name = object.name.sqlFolded
            guard let next = targets[name] else {
                reasons[name] = .removed
                continue
            }
            guard next.kind != object.kind || next.normalizedSQL != object.normalizedSQL else { continue }
            reasons[name] = .changed
            if object.kind == .virtualTable && next.kind == .virtualTable { rebuilt.insert(name) }
        }
        for object in source.sqlObjects where object.kind != .virtualTable && targets[object.name.sqlFolded] != nil {
            let name = object.name.sqlFolded
            guard reasons[name] == nil,
                let gone = object.mentionedNames.subtracting([name]).intersection(touched).sorted().first
            else { continue }
            reasons[name] = .names(gone)
        }
        // What reads a dropped or changed object goes too, as far as the reading reaches.
        var grew = !reasons.isEmpty
        while grew {
            grew = false
            for object in source.sqlObjects where object.kind != .virtualTable {
                let name = object.name.sqlFolded
                guard reasons[name] == nil else { continue }
                let read = object.mentionedNames.subtracting([name])
                if let changed = source.sqlObjects.first(where: {
                    reasons[$0.name.sqlFolded] != nil && read.contains($0.name.sqlFolded)
                }) {
                    reasons[name] = .reads(changed.name)
                    grew = true
                }
            }
        }
        for object in source.sqlObjects.reversed() {
            let name = object.name.sqlFolded
            guard let reason = reasons[name], !rebuilt.contains(name) else { continue }
            drops.append(.dropObject(object, reason: reason))
        }
        for object in target.sqlObjects {
            let name = object.name.sqlFolded
            if rebuilt.contains(name), let old = sources[name] {
                rebuilds.append(.rebuildVirtualTable(from: old, to: object))
            } else if sources[name] == nil {
                creates.append(.createObject(object, reason: .new))
            } else if let reason = reasons[name] {
                creates.append(.createObject(object, reason: reason))
            }
        }
    }
}
