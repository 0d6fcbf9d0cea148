import Foundation
import MigrateCommand
import SchemaMigrations

// A user's own migrate executable: the command embedded with the app's Swift plan, plus a
// subcommand of the app's, in strict Swift 6 without a warning.

enum NotesSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static let models: [any PersistentModel.Type] = [Note.self]

    final class Note: PersistentModel {
        var text = ""
        init() {}
    }
}

enum NotesSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static let models: [any PersistentModel.Type] = [Note.self]

    final class Note: PersistentModel {
        var text = ""
        var pinned = false
        init() {}
    }
}

enum NotesMigrationPlan: SchemaMigrationPlan {
    static let name = "notes"
    static let schemas: [any VersionedSchema.Type] = [NotesSchemaV1.self, NotesSchemaV2.self]
}

let hello = Subcommand(name: "hello", abstract: "Greets", options: [.value("--name", "NAME", help: "who")]) {
    invocation in
    invocation.console.output("hello \(invocation.arguments.value("--name") ?? "you")\n")
    return .success
}
let notesSQL = SQLEnvironment(collations: [
    SQLCollation("unicase") {
        $0.lowercased() < $1.lowercased()
            ? .orderedAscending : $0.lowercased() == $1.lowercased() ? .orderedSame : .orderedDescending
    }
])
MigrateCommand.main(plan: NotesMigrationPlan.self, sqlEnvironment: notesSQL, extraSubcommands: [hello])
