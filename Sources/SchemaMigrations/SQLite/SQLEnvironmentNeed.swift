/// A collation, function or module a statement needs and the connection does not have, as
/// SQLite's message names it: `no such collation sequence: unicase`, `no such function:
/// st_isempty`, `unknown function: st_isempty()`, `no such module: rtree`.
struct SQLEnvironmentNeed: Hashable, Comparable, Sendable, CustomStringConvertible {
    enum Kind: String, Sendable, Comparable {
        case collation, function, module
        static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    var kind: Kind
    /// As the SQL spells it.
    var name: String

    init(kind: Kind, name: String) {
        self.kind = kind
        self.name = name
    }

    /// The need SQLite's message names, nil for any other message.
    init?(message: String) {
        let patterns: [(String, Kind)] = [
            ("no such collation sequence: ", .collation), ("no such function: ", .function),
            ("unknown function: ", .function), ("no such module: ", .module),
        ]
        for (prefix, kind) in patterns {
            guard let range = message.firstRange(of: prefix) else { continue }
            var name = message[range.upperBound...].prefix { !$0.isWhitespace }
            if name.hasSuffix("()") { name = name.dropLast(2) }
            guard !name.isEmpty else { return nil }
            self.init(kind: kind, name: String(name))
            return
        }
        return nil
    }

    /// The need a SQLite error names, nil when it names none.
    init?(_ error: Error) {
        guard let error = error as? SQLiteError else { return nil }
        self.init(message: error.message)
    }

    /// `the collation unicase`, `the function st_isempty`.
    var description: String { "the \(kind.rawValue) \(name)" }

    static func < (lhs: SQLEnvironmentNeed, rhs: SQLEnvironmentNeed) -> Bool {
        (lhs.kind, lhs.name.sqlFolded) < (rhs.kind, rhs.name.sqlFolded)
    }

    /// What to do: give every connection the migrator opens what the application's connections have.
    static func remedy(for needs: [SQLEnvironmentNeed]) -> String {
        let names = needs.map(\.name).joined(separator: ", ")
        let registers =
            needs.contains { $0.kind != .module }
            ? "register \(names) as the application does (MigrationOptions.sqlEnvironment: SQLCollation / SQLFunction, or its prepareConnection hook), or load the extension that defines \(needs.count == 1 ? "it" : "them")"
            : "load the extension that provides \(names) (MigrationOptions.sqlEnvironment's extensions)"
        return registers
            + "; with the migrate command, --load-extension PATH[:ENTRY] (MIGRATE_LOAD_EXTENSION), or the embedded command's sqlEnvironment"
    }
}

extension MigrationDatabase {
    /// Compiles `sql`, standing in for each function and collation the connection lacks so that
    /// the compilation goes on past them: a view or trigger that names what is gone still fails,
    /// while one whose only problem is a name the application registers compiles.
    /// - Returns: the collations, functions and modules the statement needed and the connection
    ///   lacks; empty when it compiled as is.
    /// - Throws: `SQLiteError` for any other reason the statement does not compile.
    func compileStandingIn(_ sql: String) throws -> [SQLEnvironmentNeed] {
        guard let connection = self as? SQLiteConnection else {
            // No stand-ins over the wire: the first missing name ends the probe.
            do {
                try compile(sql)
                return []
            } catch {
                guard let need = SQLEnvironmentNeed(error) else { throw error }
                return [need]
            }
        }
        var needs: [SQLEnvironmentNeed] = []
        defer { for need in needs.reversed() { connection.removeStandIn(need) } }
        while true {
            do {
                try compile(sql)
                return needs
            } catch {
                guard let need = SQLEnvironmentNeed(error), !needs.contains(need) else { throw error }
                needs.append(need)
                guard connection.registerStandIn(need) else { return needs }
            }
        }
    }
}
