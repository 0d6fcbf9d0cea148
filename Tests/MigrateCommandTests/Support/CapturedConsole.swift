import Foundation
import MigrateCommand

/// A console that keeps what the command writes, for tests that run it in-process.
final class CapturedConsole: @unchecked Sendable {
    private let lock = NSLock()
    private var outputText = ""
    private var errorText = ""

    var output: String { lock.withLock { outputText } }
    var error: String { lock.withLock { errorText } }

    var console: Console {
        Console(
            output: { text in self.lock.withLock { self.outputText += text } },
            error: { text in self.lock.withLock { self.errorText += text } },
            errorIsTerminal: false)
    }
}
