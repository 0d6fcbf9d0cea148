/// Pairs each target item with the source item it continues.
///
/// Two passes, so that the order of declarations never matters:
/// 1. every `originalName` that names an item of the previous version claims it (a rename wins
///    over a same-named item: in a swap, or when a new item takes a renamed item's old name);
/// 2. every other target continues the unclaimed source of the same name (an `originalName`
///    naming nothing in the previous version is stale when the item kept its name, and ignored);
/// 3. then of the same name in another case (SQLite names ignore case); else it is new.
///
/// Two targets claiming one source through `originalName` are refused: only one can carry its data.
enum NameMatching {
    struct Match<Item> {
        var target: Item
        var source: Item?
    }

    static func match<Item>(
        targets: [Item], sources: [Item], name: (Item) -> String, originalName: (Item) -> String?,
        describe: (String) -> String, version: Schema.Version, entity: String?
    ) throws -> [Match<Item>] {
        // Names and positions, not items: an item is a large struct, copying it into a dictionary costs.
        let sourceNames = sources.map(name)
        var byName: [String: Int] = [:]
        byName.reserveCapacity(sources.count)
        for (position, sourceName) in sourceNames.enumerated() where byName[sourceName] == nil {
            byName[sourceName] = position
        }
        var chosen = [Int?](repeating: nil, count: targets.count)
        var claimedBy: [Int: String] = [:]
        claimedBy.reserveCapacity(targets.count)

        // 1. Renames.
        for (index, target) in targets.enumerated() {
            guard let original = originalName(target), let found = byName[original] else { continue }
            let targetName = name(target)
            if let other = claimedBy[found] {
                throw MigrationError(
                    .unsupportedChange,
                    "\(describe(other)) and \(describe(targetName)) both continue \(describe(original)) of the previous version",
                    entity: entity ?? targetName, property: entity == nil ? nil : targetName, version: version,
                    remedy:
                        "only one of them can carry '\(original)'s data: remove originalName from the other, or copy the values in a custom stage"
                )
            }
            claimedBy[found] = targetName
            chosen[index] = found
        }

        // 2. Same names, among the sources no rename claimed (an originalName the previous version
        // does not have is stale when the item kept its name, and ignored).
        for (index, target) in targets.enumerated() where chosen[index] == nil {
            if let found = byName[name(target)], claimedBy[found] == nil {
                claimedBy[found] = name(target)
                chosen[index] = found
            }
        }
        for (index, target) in targets.enumerated() where chosen[index] == nil {
            guard let original = originalName(target), byName[original] == nil, byName[name(target)] == nil else {
                continue
            }
            let targetName = name(target)
            // The previous version's items no other target continues: what the typo most likely meant.
            let unclaimed = sourceNames.indices.filter { claimedBy[$0] == nil }.map { sourceNames[$0] }
            let guess = Suggestion.remedy(for: original, among: unclaimed).map { $0 + " " } ?? ""
            throw MigrationError(
                .unsupportedChange,
                "\(describe(targetName)) says it was renamed from '\(original)', but version \(version) is preceded by no \(describe(original))",
                entity: entity ?? targetName, property: entity == nil ? nil : targetName, version: version,
                remedy:
                    guess
                    + "correct originalName to the name in the previous version, or remove it to add \(describe(targetName)) as new"
            )
        }

        // 3. The same name in another case (SQLite names ignore case), for the items still unmatched.
        var byFoldedName: [String: Int]?  // built only if some target needs it: folding every name is not free
        for (index, target) in targets.enumerated() where originalName(target) == nil && chosen[index] == nil {
            if byFoldedName == nil {
                var folded: [String: Int] = [:]
                for (position, sourceName) in sourceNames.enumerated().reversed() where claimedBy[position] == nil {
                    folded[sourceName.sqlFolded] = position
                }
                byFoldedName = folded
            }
            if let found = byFoldedName![name(target).sqlFolded], claimedBy[found] == nil {
                claimedBy[found] = name(target)
                chosen[index] = found
            }
        }
        return zip(targets, chosen).map { Match(target: $0, source: $1.map { sources[$0] }) }
    }
}
