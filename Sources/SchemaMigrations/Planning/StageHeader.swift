/// Which stage a record speaks of: the two versions and the kind. The one header that a planned
/// stage, a dry run's stage, a lint's stage, a status's pending stage and a plan directory's stage
/// all carry.
///
/// ```swift
/// let status = try Migrator(plan: TripsMigrationPlan.self).status(databaseAt: url)
/// print(status.pendingStages.map(\.description))   // ["1.0.0 → 2.0.0 (custom)", "2.0.0 → 3.0.0 (lightweight)"]
/// ```
public struct StageHeader: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The source version; nil when the target schema is created in an empty database.
    public var from: Schema.Version?
    /// The version the stage brings the database to.
    public var to: Schema.Version
    /// Lightweight or custom.
    public var kind: StageKind
    /// True when the stage takes the declared stage of this kind back, from ``from`` (the newer
    /// version) to ``to``: shown as `3.0.0 → 2.0.0 (revert)`, and as kind `revert` in JSON.
    public var isReversal = false

    /// The stage from `from` (nil when it creates the schema) to `to`, of kind `kind`.
    public init(from: Schema.Version?, to: Schema.Version, kind: StageKind) {
        self.from = from
        self.to = to
        self.kind = kind
    }

    /// `2.0.0 → 3.0.0 (lightweight)`, `3.0.0 → 2.0.0 (revert)`, or `create 3.0.0`.
    public var description: String {
        from.map { "\($0) → \(to) (\(kindName))" } ?? "create \(to)"
    }

    /// `lightweight`, `custom`, or `revert` for a stage taken back: as history records it.
    public var kindName: String { isReversal ? "revert" : kind.rawValue }

    /// `2.0.0 → 3.0.0`, or `create 3.0.0`: the stage without its kind.
    package var versions: String { from.map { "\($0) → \(to)" } ?? "create \(to)" }

    private enum CodingKeys: String, CodingKey { case from, to, kind }

    /// Decodes a stage of `plan.json`, which always names its source version.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        from = try container.decode(Schema.Version.self, forKey: .from)
        to = try container.decode(Schema.Version.self, forKey: .to)
        kind = try container.decode(StageKind.self, forKey: .kind)
    }

    /// `from` (left out when nil), `to` and `kind`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try encode(into: &container)
    }

    /// Writes the three keys into a container another record (a report's stage, with its steps) is writing.
    func encode<Key: CodingKey>(into container: inout KeyedEncodingContainer<Key>) throws {
        try container.encodeIfPresent(from?.description, forKey: Key(stringValue: "from")!)
        try container.encode(to.description, forKey: Key(stringValue: "to")!)
        try container.encode(kindName, forKey: Key(stringValue: "kind")!)
    }
}
