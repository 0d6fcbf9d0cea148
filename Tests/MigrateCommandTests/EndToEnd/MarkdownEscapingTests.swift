import Foundation
import SchemaMigrations
import Testing

/// A Markdown report is pasted into a pull request: every name and value that comes from the
/// database (a view's name, a file's name) is escaped, with or without `--show-values`, so that
/// it can neither inject HTML nor format the page.
@Suite struct MarkdownEscapingTests {
    @Test func aViewsNameInAWarningIsEscapedWithOrWithoutShowValues() throws {
        let scratch = Scratch()
        let (database, plan) = try DestructivePlan.make(in: scratch)
        try scratch.execute(database, #"CREATE VIEW "<img src=x onerror=alert(1)>" AS SELECT text, legacy FROM Note"#)
        for extra in [[], ["--show-values"], ["--deny-destructive"]] {
            let result = try BuiltCommand.migrate(
                ["plan", "--plan", plan, "--database", database, "--format", "markdown"] + extra)
            #expect(
                result.stdout.contains("the view &lt;img src=x onerror=alert(1)&gt; mentions Note.legacy"),
                "\(extra): \(result.stdout)")
            #expect(!result.stdout.contains("<img"), "\(extra): \(result.stdout)")
        }
    }

    @Test func aFilesNameWithBackticksPipesAndHTMLCannotBreakItsCodeSpan() throws {
        let scratch = Scratch()
        let (original, plan) = try DestructivePlan.make(in: scratch)
        let database = scratch.path("x`|<b>*y*.sqlite")
        try FileManager.default.moveItem(atPath: original, toPath: database)
        let result = try BuiltCommand.migrate(["plan", "--plan", plan, "--database", database, "--format", "markdown"])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "### Migration of ``x`|<b>*y*.sqlite``: 1.0.0 → 2.0.0", "a longer fence around a backtick")
        #expect(
            lines[4] == "| Database | ``\(database.replacingOccurrences(of: "|", with: "\\|"))`` |",
            "a pipe escaped in a table cell")

        let history = try BuiltCommand.migrate(["history", "--database", database, "--format", "markdown"])
        #expect(history.status == 0, "\(history)")
        #expect(history.stdout.hasPrefix("### History of ``x`|<b>*y*.sqlite``\n"), "\(history.stdout)")
    }
}
