import Foundation
import SchemaMigrations
import Testing

/// A rebuild whose sort spills to temporary files, on a machine where no directory SQLite tries
/// for them is writable (a read-only root filesystem): the error says what is missing and what
/// to set, the file stays as it was. Run in a mount namespace of its own (`unshare -m`, as root);
/// skipped where that cannot be made.
@Suite struct TemporaryDirectoryCommandTests {
    @Test func noWritableTemporaryDirectoryIsNamedWithTheSettingThatFixesIt() throws {
        let unshare = "/usr/bin/unshare"
        guard FileManager.default.isExecutableFile(atPath: unshare), getuid() == 0,
            FileManager.default.fileExists(atPath: "/dev/shm")
        else { return }
        let probe = try BuiltCommand.runProgram(unshare, ["-m", "sh", "-c", "mount -o bind,ro /tmp /tmp"])
        guard probe.status == 0 else { return }

        // The database and its plan where the namespace leaves writing possible (tmpfs /dev/shm).
        let scratch = URL(fileURLWithPath: "/dev/shm/sm-tmpdir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let database = scratch.appendingPathComponent("app.sqlite").path
        let db = try SQLiteConnection(path: database)
        try db.execute(
            """
            CREATE TABLE Note (id INTEGER PRIMARY KEY, body TEXT NOT NULL DEFAULT '');
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000)
            INSERT INTO Note (body) SELECT hex(randomblob(48)) FROM n;
            """)
        let v1 = try SchemaIntrospection(databaseAt: URL(fileURLWithPath: database)).schema
        var v2 = v1
        v2.version = Schema.Version(2, 0, 0)
        v2.entities[0].indexes.append(Schema.Index(["body"]))
        let plan = scratch.appendingPathComponent("plan")
        _ = try PlanDirectory(name: "Notes", schemas: [v1, v2], stages: []).write(to: plan)
        let adopt = try BuiltCommand.migrate(["apply", "--plan", plan.path, "--database", database, "--to", "1.0.0"])
        #expect(adopt.status == 0, "\(adopt)")
        let before = try Data(contentsOf: URL(fileURLWithPath: database))

        let migrate = try BuiltCommand.path(of: "migrate")
        let readOnly =
            "mount -o bind,ro /tmp /tmp && mount -o bind,ro /var/tmp /var/tmp && cd /tmp && exec env -u TMPDIR -u SQLITE_TMPDIR \"$0\" \"$@\""
        let apply = try BuiltCommand.runProgram(
            unshare,
            ["-m", "sh", "-c", readOnly, migrate, "apply", "--plan", plan.path, "--database", database, "--no-backup"])
        #expect(apply.status == 1, "\(apply)")
        #expect(apply.stderr.contains("SQLITE_IOERR"), "\(apply)")
        #expect(
            apply.stderr.contains(
                "fix: SQLite found no writable directory for its temporary files (it tries SQLITE_TMPDIR, TMPDIR, /var/tmp, /usr/tmp, /tmp and the working directory): set SQLITE_TMPDIR to a writable directory"
            ), "\(apply)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before)

        // The setting it names fixes it.
        let fixed = try BuiltCommand.runProgram(
            unshare,
            [
                "-m", "sh", "-c", readOnly.replacing("\"$0\"", with: "SQLITE_TMPDIR=\(scratch.path) \"$0\""),
                migrate, "apply", "--plan", plan.path, "--database", database, "--no-backup",
            ])
        #expect(fixed.status == 0, "\(fixed)")
    }
}

/// In a container without `/proc`, Swift on Linux has no arguments to give the program (it reads
/// them from /proc/self/cmdline): `migrate` says so in one line and exits 2, instead of taking
/// the command for a bare `migrate`. Run in a mount namespace with an empty /proc; skipped where
/// that cannot be made. (The static binary stops earlier, in Swift's runtime: README, "Shipping
/// the binary".)
@Suite struct MissingProcCommandTests {
    @Test func withoutProcTheCommandSaysItCannotReadItsArguments() throws {
        let unshare = "/usr/bin/unshare"
        guard FileManager.default.isExecutableFile(atPath: unshare), getuid() == 0 else { return }
        let migrate = try BuiltCommand.path(of: "migrate")
        let result = try BuiltCommand.runProgram(
            unshare, ["-m", "sh", "-c", "mount -t tmpfs none /proc && exec \"$0\" status --plan x", migrate])
        guard !result.stderr.contains("mount:") else { return }  // no mount namespace here
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stderr
                == "error: cannot read the command line: /proc is not mounted (Swift reads a process's arguments from /proc/self/cmdline on Linux)\n  fix: mount proc in the container (every container runtime does by default)\n",
            "\(result)")
        #expect(result.stdout.isEmpty)
    }
}
