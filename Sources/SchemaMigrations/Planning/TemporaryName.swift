/// A name this package gives something for a moment: a rebuild's new table (`_sm_new_T`), an item
/// renamed on its way to a name that is still taken (`_sm_tmp_N`), a dropped item moved out of a
/// rename's way (`_sm_drop_N`). Such a name must be free, and nothing stops a database or a
/// declaration from having it already, so the next free one is taken instead.
enum TemporaryName {
    /// `base` when `taken` (names folded with ``Swift/String/sqlFolded``) does not hold it, else the
    /// first of `base_2`, `base_3`, … it does not hold.
    static func free(_ base: String, avoiding taken: Set<String>) -> String {
        guard taken.contains(base.sqlFolded) else { return base }
        return (2...).lazy.map { "\(base)_\($0)" }.first { !taken.contains($0.sqlFolded) }!
    }
}
