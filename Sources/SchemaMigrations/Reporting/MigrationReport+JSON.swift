#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension MigrationReport: Encodable {
    /// The report as JSON: `database`, `currentVersion`, `targetVersion`, `unversioned`,
    /// `upToDate`, `breaking`, `stages` (each with `from`, `to`, `kind`, `compatibility`: `class`
    /// `compatible` or `breaking`, `reasons`, and `codeClassified: false` for a custom stage; and
    /// `steps`, each with `op`, `table`, `summary`, `sql`, `rewritesRows`, `destructive`,
    /// `compatibility` (the reasons the step carries), and `impact` where measured:
    /// `rows`, `nulls`, `duplicates`, `nonEmptyValues`, and `replacedValues` for columns made
    /// generated), `warnings` (destructive steps first) and `refusals`; for a way back to an older
    /// version, `dataLoss` (each with `from`, `to`, `table`, `column` and `count`); with
    /// ``MigrationOptions/online``, `online`: `chunkTargetMs` and `stages` (each with `from`, `to`,
    /// `runsOnline`, `tables`, `offlineReasons`, `cutOver`, `rows` by table where measured, and
    /// `indexesBuilt` and `indexesInKeyOrder` by table).
    ///
    /// ```swift
    /// let object = try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as! [String: Any]
    /// ```
    public func json() throws -> String {
        try CanonicalJSON.encodePretty(self) + "\n"
    }

    private enum CodingKeys: String, CodingKey {
        case database, currentVersion, targetVersion, unversioned, upToDate, breaking, stages, warnings, refusals,
            dataLoss,
            online
    }

    private enum RefusalKeys: String, CodingKey { case code, message, entity, property, column, remedy, details }
    private enum DataLossKeys: String, CodingKey { case from, to, table, column, count }

    /// Encodes it with the keys of the command's JSON output (MIGRATIONS.md, "The migrate command").
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(database, forKey: .database)
        try container.encodeIfPresent(currentVersion, forKey: .currentVersion)
        try container.encode(targetVersion, forKey: .targetVersion)
        try container.encode(unversioned, forKey: .unversioned)
        try container.encode(isUpToDate, forKey: .upToDate)
        try container.encode(hasBreakingStages, forKey: .breaking)
        try container.encode(stages, forKey: .stages)
        try container.encode(warnings, forKey: .warnings)
        var refusals = container.nestedUnkeyedContainer(forKey: .refusals)
        for refusal in self.refusals {
            var object = refusals.nestedContainer(keyedBy: RefusalKeys.self)
            try object.encode(refusal.code.rawValue, forKey: .code)
            try object.encode(refusal.message, forKey: .message)
            try object.encodeIfPresent(refusal.entity, forKey: .entity)
            try object.encodeIfPresent(refusal.property, forKey: .property)
            try object.encodeIfPresent(refusal.column, forKey: .column)
            try object.encodeIfPresent(refusal.remedy, forKey: .remedy)
            try object.encode(refusal.details, forKey: .details)
        }
        if !dataLoss.isEmpty {
            var losses = container.nestedUnkeyedContainer(forKey: .dataLoss)
            for loss in dataLoss {
                var object = losses.nestedContainer(keyedBy: DataLossKeys.self)
                try object.encodeIfPresent(loss.stage.from?.description, forKey: .from)
                try object.encode(loss.stage.to.description, forKey: .to)
                try object.encode(loss.table, forKey: .table)
                try object.encodeIfPresent(loss.column, forKey: .column)
                try object.encode(loss.count, forKey: .count)
            }
        }
        try container.encodeIfPresent(online, forKey: .online)
    }
}

extension MigrationReport.Step: Encodable {
    private enum CodingKeys: String, CodingKey {
        case op, table, summary, sql, rewritesRows, destructive, impact, carriedOver, removes, afterDidMigrate,
            compatibility
    }

    /// Encodes it with the keys of the command's JSON output (MIGRATIONS.md, "The migrate command").
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(step.op, forKey: .op)
        try container.encode(step.table, forKey: .table)
        try container.encode(step.summary, forKey: .summary)
        try container.encode(sql, forKey: .sql)
        try container.encode(step.rewritesRows, forKey: .rewritesRows)
        try container.encode(step.destructive, forKey: .destructive)
        try container.encodeIfPresent(impact, forKey: .impact)
        try container.encodeIfPresent(carriedOver.isEmpty ? nil : carriedOver, forKey: .carriedOver)
        try container.encodeIfPresent(removes.isEmpty ? nil : removes, forKey: .removes)
        try container.encodeIfPresent(runsAfterDidMigrate ? true : nil, forKey: .afterDidMigrate)
        try container.encode(
            StageCompatibility(reasons: compatibility, codeIsNotClassified: false), forKey: .compatibility)
    }
}

extension MigrationReport.Impact: Encodable {
    private enum CodingKeys: String, CodingKey { case rows, nulls, duplicates, nonEmptyValues, replacedValues }

    /// Encodes it with the keys of the command's JSON output (MIGRATIONS.md, "The migrate command").
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(rows, forKey: .rows)
        try container.encode(nulls, forKey: .nulls)
        try container.encode(duplicates, forKey: .duplicates)
        try container.encode(nonEmptyValues, forKey: .nonEmptyValues)
        try container.encodeIfPresent(replacedValues.isEmpty ? nil : replacedValues, forKey: .replacedValues)
    }
}
