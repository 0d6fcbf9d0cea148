import Foundation
import Testing

@testable import SchemaMigrations

/// `DEFAULT ""` is SQLite's legacy spelling of the empty string (a default names no column, so a
/// double-quoted word is a string there). A file an application wrote that way used to scaffold
/// to `defaultExpression: "(\"\")"`, which the package's own check refused as not constant: no
/// plan from that file could ever migrate it.
@Suite struct LegacyStringDefaultTests {
    static let made =
        #"CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT NOT NULL DEFAULT "", b TEXT DEFAULT "x""y", c INTEGER NOT NULL DEFAULT -5)"#

    @Test func aDoubleQuotedDefaultIsDeclaredAsTheStringItIsAndMigrates() throws {
        let original = TemporaryDatabase()
        try original.execute(Self.made)
        try original.execute("INSERT INTO t (c) VALUES (1)")
        let found = try SchemaIntrospection(databaseAt: original.url)
        #expect(found.undeclarable.isEmpty && found.notCarried.isEmpty, "\(found.undeclarable) \(found.notCarried)")
        let entity = try #require(found.schema.entity(named: "t"))
        #expect(entity.attributes.map(\.defaultValue) == ["''", #"'x"y'"#, "-5"])
        let source = SwiftDeclarations(schema: found.schema, name: "Legacy").source
        #expect(source.contains("        var a = \"\"\n") && source.contains(#"var b: String? = "x\"y""#), "\(source)")

        // Adopted with zero differences; a V2 that rebuilds the table keeps the defaults working.
        let v1 = found.schema
        var v2 = v1
        v2.version = Schema.Version(2, 0, 0)
        v2.entities[0].attributes[2].valueType = .double
        v2.entities[0].attributes[2].defaultValue = "-5.0"
        let migrator = try PlanBuilder.migrator([v1, v2])
        let result = try migrator.migrate(databaseAt: original.url)
        #expect(result.adopted && result.toVersion == v2.version)
        try original.execute("INSERT INTO t DEFAULT VALUES")
        #expect(
            try original.rows("SELECT a, b, c FROM t ORDER BY id") == [
                ["''", #"'x"y'"#, "1.0"], ["''", #"'x"y'"#, "-5.0"],
            ])
        // A new install from the same plan stores the same values.
        let created = TemporaryDatabase()
        try migrator.migrate(databaseAt: created.url)
        try created.execute("INSERT INTO t DEFAULT VALUES")
        #expect(try created.rows("SELECT a, b, c FROM t") == [["''", #"'x"y'"#, "-5.0"]])
    }

    /// calibre writes `DEFAULT ""` and `DEFAULT "isbn"`: a new install of the scaffolded version
    /// says `DEFAULT ''` and `DEFAULT 'isbn'`, the same defaults, so the two are the same database.
    @Test func aNewInstallOfADoubleQuotedDefaultIsTheSameDatabase() throws {
        let original = TemporaryDatabase()
        try original.execute(Self.made)
        let created = TemporaryDatabase()
        try PlanBuilder.migrator([SchemaIntrospection(databaseAt: original.url).schema]).migrate(
            databaseAt: created.url)
        let (file, fresh) = (try SemanticSchema.lines(original.path), try SemanticSchema.lines(created.path))
        #expect(file == fresh, "\(SemanticSchema.difference(file, fresh))")
    }

    @Test func onlyALoneDoubleQuotedWordIsTheLegacyString() {
        #expect(SQLExpressionText.legacyStringDefault(#""""#) == "''")
        #expect(SQLExpressionText.legacyStringDefault(#""it's""#) == "'it''s'")
        #expect(SQLExpressionText.legacyStringDefault("'a'") == nil)
        #expect(SQLExpressionText.legacyStringDefault(#""a" || "b""#) == nil)
        #expect(SQLExpressionText.legacyStringDefault("[a]") == nil)
        #expect(SQLExpressionText.sameDefault(#""""#, "''"))
        #expect(!SQLExpressionText.sameDefault(#""a""#, "''"))
    }
}
