import Foundation
import SchemaMigrations

// Three released versions of a notes app, with a custom stage, and the same plan edited by
// mistake (a released version changed) or trimmed (its oldest version no longer declared): what
// the fixture tests run against. Every plan is named "Notes", so fixtures of one read as another's.

enum NotesV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static let models: [any PersistentModel.Type] = [Note.self]

    final class Note: PersistentModel {
        var title = ""
        var body = ""
        init() {}
    }
}

enum NotesV1Edited: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static let models: [any PersistentModel.Type] = [Note.self]

    final class Note: PersistentModel {
        var title = ""
        var body = ""
        var pinned = false
        init() {}
    }
}

enum NotesV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static let models: [any PersistentModel.Type] = [Note.self, Tag.self]

    final class Note: PersistentModel {
        @Attribute(.unique) var title = ""
        var body = ""
        var words = 0
        init() {}
    }

    final class Tag: PersistentModel {
        var label = ""
        var note: Note? = nil
        init() {}
    }
}

enum NotesV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static let models: [any PersistentModel.Type] = [Note.self, Tag.self]

    final class Note: PersistentModel {
        @Attribute(.unique, originalName: "title") var heading = ""
        var body = ""
        var words = 0
        var archived: Bool? = nil
        init() {}
    }

    final class Tag: PersistentModel {
        var label = ""
        var note: Note? = nil
        init() {}
    }
}

/// V1 → V2 is custom: duplicate titles get a suffix before `title` becomes unique, and `words`
/// is counted after.
let notesStages: [MigrationStage] = [
    .custom(
        fromVersion: NotesV1.self, toVersion: NotesV2.self,
        willMigrate: { context in
            try context.execute(
                "UPDATE Note SET title = title || ' (' || id || ')' WHERE id NOT IN (SELECT min(id) FROM Note GROUP BY title)"
            )
        },
        didMigrate: { context in
            try context.execute(
                "UPDATE Note SET words = length(trim(body)) - length(replace(trim(body), ' ', '')) + (trim(body) <> '')"
            )
        })
]

enum NotesPlan: SchemaMigrationPlan {
    static let name = "Notes"
    static let schemas: [any VersionedSchema.Type] = [NotesV1.self, NotesV2.self, NotesV3.self]
    static let stages = notesStages
}

/// NotesPlan with version 1.0.0 changed after its release.
enum NotesPlanEditedV1: SchemaMigrationPlan {
    static let name = "Notes"
    static let schemas: [any VersionedSchema.Type] = [NotesV1Edited.self, NotesV2.self, NotesV3.self]
    static let stages: [MigrationStage] = []
}

/// NotesPlan without its first version.
enum NotesPlanFromV2: SchemaMigrationPlan {
    static let name = "Notes"
    static let schemas: [any VersionedSchema.Type] = [NotesV2.self, NotesV3.self]
    static let stages: [MigrationStage] = []
}

/// Another app's plan, whose fixtures are not the notes app's.
enum OtherAppPlan: SchemaMigrationPlan {
    static let name = "Other"
    static let schemas: [any VersionedSchema.Type] = [NotesV1.self]
    static let stages: [MigrationStage] = []
}
