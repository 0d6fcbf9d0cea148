import Foundation
import Testing

@testable import SchemaMigrations

// A retired property is one the version's inserts leave out: it must be optional or have a default.

enum InvoicesV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static let models: [any PersistentModel.Type] = [Invoice.self]
    final class Invoice: PersistentModel {
        var customer = ""
        var notes: String? = nil
        var remark: String? = nil
        init() {}
    }
}

/// V3 with the retired property made non-optional without a default, which its inserts leave out.
enum InvoicesV3Required: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static let models: [any PersistentModel.Type] = [Invoice.self]
    final class Invoice: PersistentModel {
        var customer = ""
        @Attribute(.retired) var notes: String
        var remark: String? = nil
        init() { notes = "" }
    }
}

enum InvoicesRequiredPlan: SchemaMigrationPlan {
    static let schemas: [any VersionedSchema.Type] = [InvoicesV2.self, InvoicesV3Required.self]
    static let stages: [MigrationStage] = []
}

@Suite struct RetiredPropertyTests {
    @Test func aRetiredPropertyItsInsertsLeaveOutMustBeOptionalOrHaveADefault() throws {
        let error = try #require(throws: MigrationError.self) { try Migrator(plan: InvoicesRequiredPlan.self).lint() }
        #expect(error.code == .invalidSchema)
        #expect(
            error.message
                == "'Invoice.notes' is retired but non-optional without a default: this version's inserts, which no longer write it, would fail"
        )
    }
}

/// A retired property kept unique, with a default its inserts all take: the second insert would
/// fail, so the version is refused; one that is optional without a default stores NULLs, which
/// never collide.
extension RetiredPropertyTests {
    static func retiredUnique(optional: Bool, defaultValue: String?) -> Schema {
        var code = PlanBuilder.attribute("code", .string)
        code.isOptional = optional
        code.defaultValue = defaultValue
        code.options = ["retired"]
        let entity = Schema.Entity(
            name: "Invoice", attributes: [code, PlanBuilder.attribute("total", .integer)],
            indexes: [Schema.Index(["code"], isUnique: true)])
        return Schema(version: Schema.Version(2, 0, 0), entities: [entity])
    }

    @Test(arguments: [(false, "'x'"), (true, "'x'")])
    func aRetiredUniquePropertyWithADefaultIsRefused(optional: Bool, defaultValue: String) throws {
        let error = try #require(throws: MigrationError.self) {
            try Self.retiredUnique(optional: optional, defaultValue: defaultValue).validate()
        }
        #expect(error.code == .invalidSchema)
        #expect(
            error.message
                == "'Invoice' keeps (code) unique, but they are retired with a default: this version's inserts, which no longer write them, would all take the default, and the second would fail"
        )
    }

    @Test func aRetiredUniquePropertyWithoutADefaultStoresNullsAndIsAccepted() throws {
        try Self.retiredUnique(optional: true, defaultValue: nil).validate()
        var constrained = Self.retiredUnique(optional: true, defaultValue: "'x'")
        constrained.entities[0].indexes = []
        constrained.entities[0].constraints = [.unique(["code", "total"])]
        try constrained.validate()
    }
}
