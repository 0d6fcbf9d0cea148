import Foundation
import SchemaMigrations
import Testing

/// The paths a fleet names, as a careless or hostile user writes them: glob characters in real
/// names, look-alike files beside them, the same file twice or through a symlink, quotes and
/// spaces, files that do not exist. A path that exists is that file; only a `--database` that is
/// no file is expanded as a pattern (and the expansion is shown); a list file is never globbed;
/// each distinct file is worked on once, and the command says when it dropped a repeat.
@Suite struct HostileFleetPathTests {
    /// `t[1]/app.sqlite` is a real directory's file, not a pattern that means `t1/app.sqlite`.
    @Test func aListFileIsNeverGlobbedSoBracketsAndTheirLookAlikeAreTwoFiles() throws {
        let scratch = Scratch()
        let fleet = try HostileFleet(scratch)
        let bracketed = try fleet.database("t[1]/app.sqlite")
        let plain = try fleet.database("t1/app.sqlite")
        let result = try BuiltCommand.migrate(
            ["apply", "--plan", Scratch.jsonPlan, "--databases-from", "-", "--no-backup", "--format", "json"],
            input: bracketed + "\n" + plain + "\n")
        #expect(result.status == 0, "\(result)")
        let outcomes = try #require(try result.json() as? [[String: Any]], "\(result)")
        #expect(outcomes.map { $0["database"] as? String } == [bracketed, plain])
        #expect(try fleet.version(bracketed) == "3.0.0", "the file named t[1] is migrated")
        #expect(try fleet.version(plain) == "3.0.0")
        #expect(!result.stderr.contains("same file"), "two files, no repeat: \(result.stderr)")
    }

    /// `report?.sqlite` names an existing file: that file only; `reportX.sqlite` is not touched.
    @Test func anExistingPathWithGlobCharactersIsThatFileAndNoOther() throws {
        let scratch = Scratch()
        let fleet = try HostileFleet(scratch)
        let named = try fleet.database("report?.sqlite")
        let lookAlike = try fleet.database("reportX.sqlite")
        let before = try scratch.bytes(lookAlike)
        let result = try BuiltCommand.migrate([
            "apply", "--plan", Scratch.jsonPlan, "--database", named, "--no-backup", "--format", "json",
        ])
        #expect(result.status == 0, "\(result)")
        #expect(
            (try result.json() as? [String: Any])?["database"] as? String == named,
            "one database, not a fleet: \(result.stdout)")
        #expect(try fleet.version(named) == "3.0.0")
        #expect(try scratch.bytes(lookAlike) == before, "the look-alike is never opened")
        #expect(!result.stderr.contains("pattern"), "nothing was expanded: \(result.stderr)")

        // Each glob character alike, on the command line and in a list file.
        for name in ["star*.sqlite", "range[ab].sqlite", "close].sqlite", "open[.sqlite", "q?.sqlite"] {
            let path = try fleet.database(name)
            for arguments in [["--database", path], ["--databases-from", "-"]] {
                let run = try BuiltCommand.migrate(
                    ["status", "--plan", Scratch.jsonPlan, "--format", "json"] + arguments, input: path + "\n")
                #expect(run.status == 3, "\(name) \(arguments): \(run)")
                #expect((try run.json() as? [String: Any])?["database"] as? String == path, "\(name): \(run.stdout)")
            }
        }
    }

    /// A `--database` that is no file is a pattern: its matches, sorted, are migrated, and the
    /// expansion is listed on standard error so a reviewer sees what the pattern became.
    @Test func aPatternThatIsNoFileIsExpandedAndTheExpansionShown() throws {
        let scratch = Scratch()
        let fleet = try HostileFleet(scratch)
        let b = try fleet.database("fleet/b.sqlite")
        let a = try fleet.database("fleet/a.sqlite")
        let other = try fleet.database("fleet/a.db")
        let before = try scratch.bytes(other)
        let pattern = scratch.path("fleet/*.sqlite")
        let result = try BuiltCommand.migrate([
            "apply", "--plan", Scratch.jsonPlan, "--database", pattern, "--no-backup", "--format", "json",
        ])
        #expect(result.status == 0, "\(result)")
        #expect((try result.json() as? [[String: Any]])?.map { $0["database"] as? String } == [a, b])
        #expect(
            result.stderr
                == "note: --database '\(pattern)' is no file, so it is a pattern: it matches 2 files\n  \(a)\n  \(b)\n")
        #expect(try scratch.bytes(other) == before)

        // A pattern that matches nothing is a usage error naming it; nothing is touched.
        let none = try BuiltCommand.migrate([
            "apply", "--plan", Scratch.jsonPlan, "--database", scratch.path("fleet/*.sqlite3"), "--no-backup",
        ])
        #expect(none.status == 2)
        #expect(
            none.stderr.hasPrefix("error: --database '\(scratch.path("fleet/*.sqlite3"))' matches no file\n"),
            "\(none.stderr)")
    }

    /// The same file by the same path twice, by `dir/../`, through a symbolic link and through a
    /// hard link: migrated once, under the first name given, and standard error says so.
    @Test func theSameFileTwiceOrThroughALinkIsMigratedOnceAndSaidSo() throws {
        let scratch = Scratch()
        let fleet = try HostileFleet(scratch)
        let real = try fleet.database("tenants/acme.sqlite")
        let link = try fleet.symlink("links/acme-link.sqlite", to: real)
        let hard = scratch.path("tenants/acme-hard.sqlite")
        try FileManager.default.linkItem(atPath: real, toPath: hard)
        let dotted = scratch.path("tenants/../tenants/acme.sqlite")
        let result = try BuiltCommand.migrate([
            "apply", "--plan", Scratch.jsonPlan, "--no-backup", "--format", "json",
            "--database", real, "--database", real, "--database", link, "--database", dotted, "--database", hard,
        ])
        #expect(result.status == 0, "\(result)")
        let outcome = try #require(
            try result.json() as? [String: Any], "one file: one outcome, not a fleet: \(result.stdout)")
        #expect(outcome["database"] as? String == real)
        #expect(outcome["outcome"] as? String == "migrated")
        #expect(
            result.stderr == "note: '\(real)' is given more than once: worked on once\n"
                + "note: '\(link)' is the same file as '\(real)': worked on once\n"
                + "note: '\(dotted)' is the same file as '\(real)': worked on once\n"
                + "note: '\(hard)' is the same file as '\(real)': worked on once\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == real, "the link is still a link")
    }

    /// Quotes, spaces, a leading dash and a `#` inside a name are just characters of a path.
    @Test func quotesSpacesAndDashesArePartOfThePath() throws {
        let scratch = Scratch()
        let fleet = try HostileFleet(scratch)
        let names = [
            "it's.sqlite", "say \"hi\".sqlite", "two  spaces.sqlite", "-dash.sqlite", "tab\there.sqlite",
            "semi;colon $HOME.sqlite", "not#comment.sqlite",
        ]
        let paths = try names.map { try fleet.database("odd/" + $0) }
        let viaOptions = try BuiltCommand.migrate(
            ["status", "--plan", Scratch.jsonPlan, "--format", "json"] + paths.flatMap { ["--database", $0] })
        #expect(viaOptions.status == 3, "\(viaOptions)")
        #expect((try viaOptions.json() as? [[String: Any]])?.map { $0["database"] as? String } == paths)
        let viaList = try BuiltCommand.migrate(
            ["status", "--plan", Scratch.jsonPlan, "--format", "json", "--databases-from", "-"],
            input: paths.joined(separator: "\n"))
        #expect(viaList.status == 3, "\(viaList)")
        #expect((try viaList.json() as? [[String: Any]])?.map { $0["database"] as? String } == paths)
        // A relative path with a leading dash, given with `=`, is a path too.
        let relative = try BuiltCommand.migrate(
            ["status", "--plan", Scratch.jsonPlan, "--format", "json", "--database=-dash.sqlite"],
            directory: scratch.path("odd"))
        #expect(relative.status == 3, "\(relative)")
    }

    /// A listed file that does not exist is that database's refusal (5), never a usage error and
    /// never a pattern; a list that names nothing, or an empty `--database`, is a usage error.
    @Test func missingFilesEmptyListsAndEmptyPaths() throws {
        let scratch = Scratch()
        let fleet = try HostileFleet(scratch)
        let present = try fleet.database("present.sqlite")
        let missing = scratch.path("missing[1].sqlite")
        let listed = try BuiltCommand.migrate(
            ["apply", "--plan", Scratch.jsonPlan, "--no-backup", "--databases-from", "-", "--format", "json"],
            input: "\(present)\n\(missing)\n")
        #expect(listed.status == 5, "\(listed)")
        let outcomes = try #require(try listed.json() as? [[String: Any]])
        #expect(outcomes.map { $0["exitStatus"] as? Int } == [0, 5])
        #expect(listed.stderr.contains("error: there is no database at '\(missing)'"), "\(listed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: missing), "apply never creates a file without --create")

        let comments = try BuiltCommand.migrate(
            ["status", "--plan", Scratch.jsonPlan, "--databases-from", "-"], input: "# none\n\n   \n")
        #expect(comments.status == 2)
        #expect(comments.stderr.hasPrefix("error: --databases-from - names no database\n"), "\(comments.stderr)")

        let empty = try BuiltCommand.migrate(
            ["apply", "--plan", Scratch.jsonPlan, "--database", "", "--no-backup"], directory: scratch.directory.path)
        #expect(empty.status == 2, "an empty path is not the current directory: \(empty)")
        #expect(empty.stderr.hasPrefix("error: --database: the value is empty\n"), "\(empty.stderr)")

        let directory = try BuiltCommand.migrate([
            "status", "--plan", Scratch.jsonPlan, "--databases-from", scratch.directory.path,
        ])
        #expect(directory.status == 2)
        #expect(
            directory.stderr.hasPrefix("error: --databases-from \(scratch.directory.path): the file cannot be read\n"),
            "\(directory.stderr)")
    }
}
