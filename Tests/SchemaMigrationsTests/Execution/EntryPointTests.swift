import Foundation
import Testing

@testable import SchemaMigrations

/// Every entry point resolves the target version and opens the database the same way: an
/// undeclared target is refused by all of them, and the options' VFS is used by all of them.
@Suite struct EntryPointTests {
    typealias A = PlanBuilder

    enum EntryPoint: String, CaseIterable {
        case migrate, status, verify, plan, script, simulate, currentVersion

        func call(_ migrator: Migrator, _ url: URL) throws {
            switch self {
            case .migrate: try migrator.migrate(databaseAt: url)
            case .status: _ = try migrator.status(databaseAt: url)
            case .verify: _ = try migrator.verify(databaseAt: url)
            case .plan: _ = try migrator.plan(databaseAt: url)
            case .script: _ = try migrator.script(databaseAt: url)
            case .simulate: _ = try migrator.simulate(databaseAt: url)
            case .currentVersion: _ = try migrator.currentVersion(databaseAt: url)
            }
        }
    }

    static let schemas = [
        A.schema(1, [PersonFixture.person]),
        A.schema(2, [PersonFixture.person { $0.attributes.append(A.attribute("nickname", .string, optional: true)) }]),
    ]

    @Test(arguments: EntryPoint.allCases.filter { $0 != .currentVersion }, [true, false])
    func anUndeclaredTargetIsRefusedEverywhere(entryPoint: EntryPoint, populated: Bool) throws {
        let db = populated ? try DryRunReportTests.populated() : TemporaryDatabase()
        let before = populated ? try db.bytes() : nil
        let migrator = try A.migrator(Self.schemas, options: MigrationOptions(targetVersion: Schema.Version(3, 0, 0)))
        let error = try #require(throws: MigrationError.self) { try entryPoint.call(migrator, db.url) }
        #expect(error.code == .invalidPlan)
        #expect(error.message == "the target version 3.0.0 is not declared by the plan 'default'")
        #expect(error.remedy == "use one of: 1.0.0, 2.0.0")
        if let before {
            #expect(try db.bytes() == before)
        } else {
            #expect(!FileManager.default.fileExists(atPath: db.path))
        }
    }

    @Test(arguments: EntryPoint.allCases)
    func theOptionsVFSIsUsedEverywhere(entryPoint: EntryPoint) throws {
        let db = try DryRunReportTests.populated()
        let before = try db.bytes()
        let migrator = try A.migrator(Self.schemas, options: MigrationOptions(vfsName: "no-such-vfs"))
        let error = try #require(throws: (any Error).self) { try entryPoint.call(migrator, db.url) }
        #expect("\(error)".contains("no such vfs"), "\(error)")
        #expect(try db.bytes() == before)
    }
}
