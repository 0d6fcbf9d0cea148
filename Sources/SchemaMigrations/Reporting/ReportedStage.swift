/// One stage as a report lists it: its header and its steps, each as the report describes a step
/// (``MigrationReport/Step`` in a dry run, ``PlanLint/Step`` in a lint).
public struct ReportedStage<Step: Sendable & Encodable>: Sendable, Encodable {
    /// Its versions and kind (no source version when the schema is created in an empty database).
    public var header: StageHeader
    /// Its steps, in the order they run.
    public var steps: [Step]
    /// Whether the code of the version it starts from keeps working on the database it leaves,
    /// with every reason it does not (compatible when it creates the schema: no code ran before).
    public var compatibility: StageCompatibility = .compatible

    private enum CodingKeys: String, CodingKey { case from, to, kind, compatibility, steps }

    /// `from` (left out when nil), `to`, `kind`, `compatibility` (`class`, `reasons`) and `steps`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try header.encode(into: &container)
        try container.encode(compatibility, forKey: .compatibility)
        try container.encode(steps, forKey: .steps)
    }
}
