import CSQLite

/// What a custom stage's code may not run inside the migration's transaction: statements that
/// end it or step out of it (`BEGIN`, `COMMIT`, `END`, `ROLLBACK`, and `RELEASE` / `ROLLBACK TO`
/// of the migration's own savepoints), and pragmas that would break its atomicity or its settings
/// (`journal_mode`, `foreign_keys`, `writable_schema`, `legacy_alter_table` given a value).
///
/// On a connection of the package's own, SQLite's authorizer reports each statement as it is
/// compiled (`SQLITE_TRANSACTION`, `SQLITE_SAVEPOINT`, `SQLITE_PRAGMA`) and the statement is
/// denied before it runs. A borrowed connection keeps its owner's authorizer, so there the
/// statement's first words are read instead (a transaction statement or pragma is known by them).
/// Either way the code's own savepoints (any other name) are allowed, and so is reading a pragma.
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/set_authorizer.html>,
/// <https://www.sqlite.org/lang_transaction.html>, <https://www.sqlite.org/lang_savepoint.html>
enum CustomCodeLimits {
    /// What a statement does, as far as these limits care.
    enum Kind: Equatable {
        /// `BEGIN`, `COMMIT` (or `END`), `ROLLBACK`.
        case transaction(String)
        /// `SAVEPOINT` (`BEGIN`), `RELEASE`, `ROLLBACK TO`, with the savepoint's name.
        case savepoint(operation: String, name: String)
        /// A pragma, and whether the statement gives it a value.
        case pragma(name: String, setsValue: Bool)
        case other
    }

    /// Pragmas custom code may read but not set.
    static let guardedPragmas: Set<String> = ["journal_mode", "foreign_keys", "writable_schema", "legacy_alter_table"]
    /// The migration names its savepoints with this prefix.
    static let savepointPrefix = "schema_migrations"

    /// The refusal for a statement of this kind, or nil when custom code may run it.
    static func refusal(_ kind: Kind) -> MigrationError? {
        let remedy =
            "let the migration own its transaction: throw from the closure to roll everything back, "
            + "use SAVEPOINT with a name of your own for a partial undo, and set connection pragmas before migrating"
        switch kind {
        case .transaction(let operation):
            return MigrationError(
                .customStageFailed,
                "custom code may not run \(operation) inside the migration's transaction; nothing was changed",
                remedy: remedy)
        case .savepoint(let operation, let name) where name.sqlFolded.hasPrefix(savepointPrefix):
            let statement = operation == "BEGIN" ? "SAVEPOINT" : operation == "ROLLBACK" ? "ROLLBACK TO" : operation
            return MigrationError(
                .customStageFailed,
                "custom code may not run \(statement) on the migration's savepoint '\(name)'; nothing was changed",
                remedy: remedy)
        case .pragma(let name, true) where guardedPragmas.contains(name.sqlFolded):
            return MigrationError(
                .customStageFailed,
                "custom code may not set PRAGMA \(name.lowercased()) inside the migration's transaction; nothing was changed",
                remedy: remedy)
        default:
            return nil
        }
    }

    /// The last line of defence: the transaction is gone after the code ran, by a way the limits
    /// did not foresee. What the code did before may be committed; the migration goes no further.
    static func transactionEnded(in closure: String, stage: (from: Schema.Version, to: Schema.Version))
        -> MigrationError
    {
        MigrationError(
            .customStageFailed,
            "\(closure) of the stage \(stage.from) → \(stage.to) ended the migration's transaction; the migration stopped there",
            version: stage.to,
            remedy:
                "remove the statement that commits or rolls back from the custom code, then check the data and run the migration again"
        )
    }

    /// What SQLite's authorizer reported, as a kind.
    static func kind(of access: SQLiteAccess) -> Kind {
        switch access.action {
        case SQLITE_TRANSACTION: return .transaction(access.object ?? "")
        case SQLITE_SAVEPOINT: return .savepoint(operation: access.object ?? "", name: access.detail ?? "")
        case SQLITE_PRAGMA: return .pragma(name: access.object ?? "", setsValue: access.detail != nil)
        default: return .other
        }
    }

    /// What one SQL statement is, read from its first tokens (comments and whitespace skipped).
    static func kind(of sql: String) -> Kind {
        let tokenizer = SQLTokenizer(sql)
        // The longest forms read: ROLLBACK TRANSACTION TO SAVEPOINT name, PRAGMA schema . name =.
        let tokens = tokenizer.leadingTokens(5)
        var next = 0
        /// Whether the next token is the bare keyword `keyword`, moving past it if it is.
        func skip(_ keyword: String) -> Bool {
            guard next < tokens.count, tokenizer.isKeyword(tokens[next], keyword) else { return false }
            next += 1
            return true
        }
        /// The name the next token stands for, moving past it; "" when it is no name.
        func name() -> String {
            guard next < tokens.count else { return "" }
            switch tokens[next].kind {
            case .word, .quotedIdentifier, .string:
                next += 1
                return tokenizer.name(of: tokens[next - 1])
            default:
                return ""
            }
        }
        /// Whether the next token is the operator `symbol`.
        func isSymbol(_ symbol: String) -> Bool {
            next < tokens.count && tokens[next].kind == .symbol && tokenizer.text(of: tokens[next]) == symbol
        }
        if skip("BEGIN") { return .transaction("BEGIN") }
        if skip("COMMIT") || skip("END") { return .transaction("COMMIT") }
        if skip("ROLLBACK") {
            _ = skip("TRANSACTION")
            guard skip("TO") else { return .transaction("ROLLBACK") }
            _ = skip("SAVEPOINT")
            return .savepoint(operation: "ROLLBACK", name: name())
        }
        if skip("RELEASE") {
            _ = skip("SAVEPOINT")
            return .savepoint(operation: "RELEASE", name: name())
        }
        if skip("SAVEPOINT") { return .savepoint(operation: "BEGIN", name: name()) }
        if skip("PRAGMA") {
            var pragma = name()
            if isSymbol(".") {
                next += 1
                pragma = name()
            }
            let setsValue =
                isSymbol("=") || isSymbol("==")
                || (next < tokens.count && tokens[next].kind == .leftParenthesis)
            return .pragma(name: pragma, setsValue: setsValue)
        }
        return .other
    }
}
