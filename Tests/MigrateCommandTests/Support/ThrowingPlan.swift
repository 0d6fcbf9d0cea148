import Foundation
import SchemaMigrations

/// A plan whose custom stage throws an error of the app's own: what a failing stage's JSON must
/// carry as its cause.
enum NotesV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static let models: [any PersistentModel.Type] = [Note.self]
    final class Note: PersistentModel {
        var text = ""
        init() {}
    }
}

enum NotesV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static let models: [any PersistentModel.Type] = [Note.self]
    final class Note: PersistentModel {
        var text = ""
        var title = ""
        init() {}
    }
}

struct NotesCannotBeMerged: Error, CustomStringConvertible {
    var description: String { "note 7 and note 9 cannot be merged" }
}

enum ThrowingNotesPlan: SchemaMigrationPlan {
    static let schemas: [any VersionedSchema.Type] = [NotesV1.self, NotesV2.self]
    static let stages: [MigrationStage] = [
        .custom(
            fromVersion: NotesV1.self, toVersion: NotesV2.self, willMigrate: { _ in throw NotesCannotBeMerged() },
            didMigrate: nil)
    ]
}
