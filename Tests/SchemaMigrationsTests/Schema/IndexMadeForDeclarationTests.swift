import Testing

@testable import SchemaMigrations

/// Which live index a declared index stands for, when an index made by hand covers the same
/// columns: the package's own, found by the names it gives, so the hand-made one stays.
@Suite struct IndexMadeForDeclarationTests {
    /// Live indexes on `c4`, listed as `PRAGMA index_list` lists them (the newest first), and the
    /// one chosen for the declared index `e6_c4` of table `e6`.
    struct Case: Sendable, CustomTestStringConvertible {
        let listed: [String]
        let chosen: String
        let why: String
        var testDescription: String { why }
    }

    static let cases = [
        Case(listed: ["probe", "e6_c4"], chosen: "e6_c4", why: "the declared name wins"),
        // `ALTER TABLE … RENAME` from e1 to e6 kept the index's old name.
        Case(
            listed: ["probe_index_e1", "e1_c4"], chosen: "e1_c4",
            why: "an index named before its table was renamed is the declared one"),
        Case(
            listed: ["probe", "e6_old"], chosen: "e6_old",
            why: "an index named before its column was renamed is the declared one"),
        Case(listed: ["mine", "yours"], chosen: "mine", why: "with no name of ours the first is taken"),
    ]

    @Test(arguments: cases)
    func theDeclaredIndexIsFoundByTheNamesThePackageGives(_ example: Case) {
        let indexes = example.listed.map { name in
            LiveSchema.Index(
                name: name, columns: ["c4"], isUnique: false, origin: .createIndex, isPartial: false,
                sql: "CREATE INDEX \"\(name)\" ON t (\"c4\")")
        }
        let chosen = LiveSchema.Index.madeForDeclaration(among: indexes, named: "e6_c4", table: "e6")
        #expect(chosen?.name == example.chosen)
    }
}
