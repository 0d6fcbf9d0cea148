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
