/// Whether the code of the version a stage starts from keeps working on the database the stage
/// leaves: what a rolling deploy needs, where instances of the previous version still run beside
/// the new ones until the deploy has rolled out.
///
/// A stage is **compatible** when every read and write the previous version's code makes (reading
/// the columns it declares, by their names; inserting rows that give the columns it declares, NULL
/// where its optionals are nil) works as before; otherwise it is **breaking**, with one
/// ``Reason`` per change that breaks it, naming the entity and property. Only the declared schema
/// change is classified: a custom stage's `willMigrate` / `didMigrate` code is not
/// (``codeIsNotClassified``).
///
/// ```swift
/// let lint = try Migrator(plan: TripsMigrationPlan.self).lint()
/// for stage in lint.stages where !stage.compatibility.isCompatible {
///     print(stage.header, stage.compatibility.reasons.map(\.message))
/// }
/// ```
public struct StageCompatibility: Sendable, Hashable {
    /// The class of a stage or step: additive, or breaking the previous version's code.
    public enum Class: String, Sendable, Hashable, Codable {
        /// The previous version's reads and writes work as before.
        case compatible
        /// Some of the previous version's reads or writes fail, or read values they did not write.
        case breaking
    }

    /// How a breaking change shows in the previous version's code.
    public enum Effect: String, Sendable, Hashable, Codable {
        /// Its statements fail, whatever the data: a table or column it names is gone, an insert it
        /// makes leaves out a column that needs a value, a NULL it writes is refused.
        case statementsFail
        /// Its writes of some values fail: a new UNIQUE, CHECK, foreign key, STRICT or trigger
        /// that may refuse them. Whether one does depends on the data.
        case writesMayFail
        /// Its statements still run, but the values they read (or the rows they reach) are not
        /// what it expects: a type changed, a column computed otherwise, a view rewritten.
        case valuesDiffer
    }

    /// What kind of change breaks the previous version's code.
    public enum ReasonKind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A table it reads and writes is dropped.
        case tableDropped
        /// A table it reads and writes is renamed (a change of case only is not: SQLite names ignore it).
        case tableRenamed
        /// A column it reads and writes is dropped.
        case columnDropped
        /// A column it reads and writes is renamed (a change of case only is not).
        case columnRenamed
        /// A column's value type, date storage or type affinity changes: the values are converted.
        case typeChanged
        /// A new non-optional column without a default: its inserts leave it out.
        case requiredColumnAdded
        /// An optional column becomes non-optional: its inserts write NULL for nil.
        case becomesNotNull
        /// An ordinary column becomes generated: its inserts write it, which SQLite refuses.
        case becomesGenerated
        /// A generated column becomes ordinary: its inserts leave it out.
        case stopsBeingGenerated
        /// A generated column computes another expression, or is stored otherwise.
        case generatedExpressionChanged
        /// A `hashModifier` changes: the declaration says the stored values mean something else.
        case valuesChangeMeaning
        /// A new unique index or UNIQUE constraint over values it writes.
        case uniqueAdded
        /// A new or changed CHECK.
        case checkAdded
        /// A new or changed foreign key over a column it writes.
        case foreignKeyAdded
        /// A foreign key's `ON DELETE` (or `ON UPDATE`) action changes.
        case deleteRuleChanged
        /// A column's collation changes: comparisons, sorting and uniqueness follow the new one.
        case collationChanged
        /// The table becomes STRICT.
        case strictOn
        /// A view it declares is dropped (or renamed).
        case viewDropped
        /// A view it declares is rewritten.
        case viewChanged
        /// A new or changed trigger that can `RAISE` on its writes.
        case triggerMayRefuse
        /// A virtual table it declares is dropped (or renamed).
        case virtualTableDropped
        /// A virtual table it declares is declared anew.
        case virtualTableChanged
    }

    /// One change that breaks the previous version's code, in words naming what it breaks.
    public struct Reason: Sendable, Hashable, CustomStringConvertible {
        /// What kind of change it is.
        public var kind: ReasonKind
        /// The entity (or view, trigger, virtual table) as the previous version names it.
        public var entity: String
        /// The property (its column) as the previous version names it, when the change is one column's.
        public var property: String?
        /// How the previous version's code meets it.
        public var effect: Effect
        /// The change and what it breaks: `renames column Trip.start_date to startDate: the previous
        /// version reads and writes start_date`.
        public var message: String
        /// The table (or object) the stage's step that makes the change works on, after the stage.
        var table: String
        /// The column (after the stage) the change is made to, where the step that makes it names one.
        var column: String? = nil

        /// Whether the failure depends on the data (or on the values read) rather than failing every time.
        public var dependsOnData: Bool { effect != .statementsFail }

        /// The message.
        public var description: String { message }
    }

    /// Every change of the stage that breaks the previous version's code; empty when compatible.
    public var reasons: [Reason]
    /// True for a custom stage: its code may change rows the previous version reads, and is not classified.
    public var codeIsNotClassified: Bool

    /// Compatible or breaking.
    public var classification: Class { reasons.isEmpty ? .compatible : .breaking }
    /// True when no declared change breaks the previous version's code.
    public var isCompatible: Bool { reasons.isEmpty }

    /// A stage with nothing to say: compatible, no code.
    public static let compatible = StageCompatibility(reasons: [], codeIsNotClassified: false)

    /// What a report adds after a custom stage's class.
    static let codeNote = "its willMigrate / didMigrate code is not classified"
}

extension StageCompatibility: Encodable {
    private enum CodingKeys: String, CodingKey { case `class`, reasons, codeClassified }

    /// `class` (`compatible` or `breaking`), `reasons` and, for a custom stage, `codeClassified: false`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(classification, forKey: .class)
        try container.encode(reasons, forKey: .reasons)
        if codeIsNotClassified { try container.encode(false, forKey: .codeClassified) }
    }
}

extension StageCompatibility.Reason: Encodable {
    private enum CodingKeys: String, CodingKey { case kind, entity, property, effect, message }

    /// `kind`, `entity`, `property` (left out when nil), `effect` and `message`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(entity, forKey: .entity)
        try container.encodeIfPresent(property, forKey: .property)
        try container.encode(effect, forKey: .effect)
        try container.encode(message, forKey: .message)
    }
}

extension StageCompatibility {
    /// The class in words, as the text reports print it under a stage's header:
    /// `breaking: 1.0.0's code fails on it`, then one `- reason` line each.
    func lines(previous: Schema.Version?) -> [String] {
        guard previous != nil || !isCompatible else {
            return ["  compatible: it creates the schema; no code ran before it"]
        }
        let code = previous.map { "\($0)'s code" } ?? "the previous version's code"
        let note = codeIsNotClassified ? "; \(Self.codeNote)" : ""
        guard !isCompatible else { return ["  compatible: \(code) keeps working (additive)\(note)"] }
        return ["  breaking: \(code) fails on it\(note)"] + reasons.map { "    - \($0.message)\($0.effectNote)" }
    }

    /// The class in Markdown, under a stage's heading, every message escaped by `escape`.
    func markdown(previous: Schema.Version?, escape: (String) -> String) -> [String] {
        guard previous != nil || !isCompatible else {
            return ["Compatible: it creates the schema; no code ran before it.", ""]
        }
        let code = previous.map { "\($0)'s code" } ?? "the previous version's code"
        let note = codeIsNotClassified ? "; \(Self.codeNote)" : ""
        guard !isCompatible else { return ["Compatible: \(code) keeps working (additive)\(note).", ""] }
        return ["**Breaking:** \(code) fails on it\(note).", ""]
            + reasons.map { "- \(escape($0.message + $0.effectNote))" } + [""]
    }
}

extension StageCompatibility.Reason {
    /// What a reader must know besides the message: ` [depends on the data]` when only some
    /// writes fail, ` [values differ]` when the statements still run.
    var effectNote: String {
        switch effect {
        case .statementsFail: return ""
        case .writesMayFail: return " [depends on the data]"
        case .valuesDiffer: return " [its statements run; the values differ]"
        }
    }
}
