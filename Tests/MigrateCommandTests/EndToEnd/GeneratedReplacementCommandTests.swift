import Foundation
import Testing

@testable import SchemaMigrations

/// A column holding hand-entered values made generated, through the command: `plan` and `lint`
/// call it destructive and say how many values change; `--deny-destructive` refuses it untouched.
@Suite struct GeneratedReplacementCommandTests {
    static func make(in scratch: Scratch) throws -> (database: String, plan: String) {
        func invoice(_ version: Int, generated: Bool) -> Schema {
            var gross = Schema.Attribute(name: "gross", valueType: .double, isOptional: true)
            if generated { gross.generated = .stored("net + vat") }
            return Schema(
                version: Schema.Version(version, 0, 0),
                entities: [
                    Schema.Entity(
                        name: "Invoice",
                        attributes: [
                            Schema.Attribute(name: "net", valueType: .double, defaultValue: "0.0"),
                            Schema.Attribute(name: "vat", valueType: .double, defaultValue: "0.0"), gross,
                        ])
                ])
        }
        let plan = PlanDirectory(
            name: "invoices", schemas: [invoice(1, generated: false), invoice(2, generated: true)], stages: [])
        let directory = scratch.directory.appendingPathComponent("invoices-plan")
        try plan.write(to: directory)
        let database = scratch.path("invoices.sqlite")
        try Migrator(planDirectory: plan.restricted(through: Schema.Version(1, 0, 0))).migrate(
            databaseAt: URL(fileURLWithPath: database))
        try scratch.execute(
            database, "INSERT INTO Invoice (net, vat, gross) VALUES (100, 20, 120), (100, 20, 125), (10, 2, NULL)")
        return (database, directory.path)
    }

    @Test func denyDestructiveRefusesAColumnMadeGeneratedNamingTheValuesItReplaces() throws {
        let scratch = Scratch()
        let (database, plan) = try Self.make(in: scratch)
        let before = try scratch.bytes(database)
        let refused = try BuiltCommand.migrate(["apply", "--plan", plan, "--database", database, "--deny-destructive"])
        #expect(refused.status == 5)
        #expect(
            refused.stderr.hasPrefix("error: refused by --deny-destructive: 1 step can lose data\n"),
            "\(refused.stderr)")
        #expect(refused.stderr.contains("(2 stored values replaced by computed ones)"), "\(refused.stderr)")
        #expect(try scratch.bytes(database) == before)

        let dryRun = try BuiltCommand.migrate(["plan", "--plan", plan, "--database", database])
        #expect(dryRun.stdout.contains("Invoice.gross: 2 stored values replaced by computed ones"), "\(dryRun.stdout)")
        let lint = try BuiltCommand.migrate(["lint", "--plan", plan, "--deny-destructive"])
        #expect(lint.status == 5, "\(lint)")

        let applied = try BuiltCommand.migrate(["apply", "--plan", plan, "--database", database, "--no-backup"])
        #expect(applied.status == 0, "\(applied)")
        #expect(
            try scratch.rows(database, "SELECT gross FROM Invoice ORDER BY id") == [["120.0"], ["120.0"], ["12.0"]])
    }
}
