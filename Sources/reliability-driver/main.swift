// The reliability suite's child process: it populates and migrates databases with the plan in
// DriverPlan.swift, so that tests can SIGKILL it mid-migration and race two of them on one file.
//
//   reliability-driver populate --database PATH [--rows N] [--journal wal]
//   reliability-driver migrate  --database PATH [--to VERSION] [--per-stage] [--busy-timeout S]
//                               [--hold-start S] [--hold-end S] [--progress]
//                               [--online] [--write-load]   (the online plan, an app writing meanwhile)
//   reliability-driver launch   --database PATH      (the plan in DriverLaunchPlan.swift)
//
// Exit status: 0 done · 1 MigrationError (printed as `error code=CODE` then the error) · 2 usage · 3 other error.
import Foundation
import SchemaMigrations

let arguments = Array(ProcessInfo.processInfo.arguments.dropFirst())
let options = DriverOptions(Array(arguments.dropFirst()))
do {
    switch arguments.first {
    case "populate": try DriverCommands.populate(options)
    case "migrate": try DriverCommands.migrate(options)
    case "launch": try DriverCommands.launch(options)
    default:
        throw DriverOptions.UsageError(message: "usage: reliability-driver populate|migrate|launch --database PATH …")
    }
    exit(0)
} catch let error as MigrationError {
    DriverOutput.line("error code=\(error.code)")
    DriverOutput.line("\(error)")
    exit(1)
} catch let error as DriverOptions.UsageError {
    FileHandle.standardError.write(Data((error.message + "\n").utf8))
    exit(2)
} catch {
    DriverOutput.line("error other \(error)")
    exit(3)
}
