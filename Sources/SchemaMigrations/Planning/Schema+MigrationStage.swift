extension Schema {
    /// The stage that migrates this schema to `target`, planned without a database: the steps,
    /// their SQL, and whether each rewrites rows or can lose data.
    ///
    /// ```swift
    /// let v1 = try Schema(TripsSchemaV1.self), v2 = try Schema(TripsSchemaV2.self)
    /// for step in try v1.migrationStage(to: v2).steps { print(step.summary, step.sql) }
    /// ```
    /// - Throws: `MigrationError` for an invalid schema or a change the stage cannot make.
    /// - Complexity: O(entities × attributes) plus the relationships.
    public func migrationStage(to target: Schema, kind: StageKind = .lightweight) throws -> PlannedStage {
        // Expanding validates each schema as stored.
        let stored = try StorageLayout.expand(versions: [self, target])
        return try Planner().plan(from: stored[0], to: stored[1], kind: kind)
    }
}
