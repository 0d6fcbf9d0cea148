import Testing

@testable import SchemaMigrations

/// Which live index a declared index stands for, when an index made by hand covers the same
/// columns: the package's own, found by the names it gives, so the hand-made one stays.
@Suite struct IndexMadeForDeclarationTests {
    static func index(_ name: String) -> LiveSchema.Index {
        LiveSchema.Index(
            name: name, columns: ["c4"], isUnique: false, origin: .createIndex, isPartial: false,
            sql: "CREATE INDEX \"\(name)\" ON t (\"c4\")")
    }

    @Test func theDeclaredNameWins() {
        let chosen = LiveSchema.Index.madeForDeclaration(
            among: [Self.index("probe"), Self.index("e6_c4")], named: "e6_c4", table: "e6")
        #expect(chosen?.name == "e6_c4")
    }

    /// The table was renamed from e1 to e6: `ALTER TABLE … RENAME` kept the index's old name.
    /// A hand-made index listed first, as `PRAGMA index_list` lists the newest first, stays.
    @Test func anIndexNamedBeforeItsTableWasRenamedIsTheDeclaredOne() {
        let chosen = LiveSchema.Index.madeForDeclaration(
            among: [Self.index("probe_index_e1"), Self.index("e1_c4")], named: "e6_c4", table: "e6")
        #expect(chosen?.name == "e1_c4")
    }

    @Test func anIndexNamedBeforeItsColumnWasRenamedIsTheDeclaredOne() {
        let chosen = LiveSchema.Index.madeForDeclaration(
            among: [Self.index("probe"), Self.index("e6_old")], named: "e6_c4", table: "e6")
        #expect(chosen?.name == "e6_old")
    }

    @Test func withNoNameOfOursTheFirstIsTaken() {
        let chosen = LiveSchema.Index.madeForDeclaration(
            among: [Self.index("mine"), Self.index("yours")], named: "e6_c4", table: "e6")
        #expect(chosen?.name == "mine")
    }
}
