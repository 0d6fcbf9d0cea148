extension MigrationReport {
    /// What an online migration (``MigrationOptions/online``) would do, stage by stage: which
    /// stages rebuild their tables online and in which phases, which run offline and why.
    ///
    /// ```swift
    /// var options = MigrationOptions(online: OnlineRebuildOptions())
    /// let report = try Migrator(plan: TripsMigrationPlan.self, options: options).plan(databaseAt: url)
    /// for stage in report.online?.stages ?? [] where !stage.runsOnline { print(stage.offlineReasons) }
    /// ```
    public struct OnlinePlan: Sendable, Encodable {
        /// One stage under the option.
        public struct Stage: Sendable, Encodable {
            /// The version the stage starts from.
            public var from: Schema.Version
            /// The version the stage reaches.
            public var to: Schema.Version
            /// True when its rebuilds run through shadow tables; false when the stage runs offline.
            public var runsOnline: Bool
            /// The tables rebuilt online, in the order the copy takes them.
            public var tables: [String]
            /// Why the stage runs offline, in words; empty when it runs online.
            public var offlineReasons: [String]
            /// The work of the cut-over's one short transaction, in order (online stages only).
            public var cutOver: [String]
            /// The rows of each table rebuilt, when measured (the first stage only), by table.
            public var rows: [String: Int64]
            /// The indexes each table's shadow builds as the rows arrive, by table (the first stage
            /// only; empty when the stage runs offline): each costs the copy a page write per row
            /// in a random place of the index, where the old table's other indexes move to the new
            /// one as they are.
            public var indexesBuilt: [String: [String]] = [:]
            /// The indexes each table's shadow gets after the copy, built in key order in chunks
            /// of the target, by table (the first stage only; empty when the stage runs offline):
            /// about what `CREATE INDEX` costs, in short transactions.
            public var indexesInKeyOrder: [String: [String]] = [:]
        }

        /// The write lock each copy chunk aims to hold, in milliseconds.
        public var chunkTargetMilliseconds: Double
        /// Each stage of the plan, in order.
        public var stages: [Stage]

        private enum CodingKeys: String, CodingKey {
            case chunkTargetMilliseconds = "chunkTargetMs"
            case stages
        }

        /// The stages that run offline and rewrite a table anyway: their one transaction holds
        /// the write lock for the table's size. In words, for ``MigrationReport/warnings``.
        package var longLocks: [String] {
            stages.compactMap { stage in
                guard !stage.runsOnline, !stage.tables.isEmpty else { return nil }
                let tables = stage.tables.map { table in
                    table + (stage.rows[table].map { " (\(counted($0, "row")))" } ?? "")
                }
                return
                    "runs offline: the stage \(stage.from) → \(stage.to) holds the write lock while it works through "
                    + tables.joined(separator: ", ") + ", because " + stage.offlineReasons.joined(separator: "; ")
            }
        }

        /// The plan as lines of text, for the text report.
        package var lines: [String] {
            let chunk = "chunks of about \(Self.milliseconds(chunkTargetMilliseconds)) ms each"
            var lines = [
                "online: rebuilds run online in \(chunk), the write lock released between chunks; custom stages are refused"
            ]
            for stage in stages {
                guard stage.runsOnline else {
                    lines.append(
                        "stage \(stage.from) → \(stage.to): offline, in one transaction: "
                            + stage.offlineReasons.joined(separator: "; "))
                    continue
                }
                lines.append(
                    "stage \(stage.from) → \(stage.to): online, rebuilding \(stage.tables.joined(separator: ", "))")
                lines.append(
                    "  1. prepare (one short transaction): "
                        + stage.tables.map {
                            "the shadow \(TableNames.onlinePrefix)\($0), triggers and a blob-write guard on \($0)"
                        }
                        .joined(separator: ", ") + ", carrying the application's writes over")
                lines.append(
                    "  2. copy in rowid order, \(chunk): "
                        + stage.tables.map { table in
                            table + (stage.rows[table].map { " (\(counted($0, "row")))" } ?? "")
                        }
                        .joined(separator: ", "))
                for table in stage.tables {
                    guard let built = stage.indexesBuilt[table], !built.isEmpty else { continue }
                    lines.append(
                        "     the shadow of \(table) builds \(built.joined(separator: ", ")) as the rows arrive: "
                            + "a random page write per row and index, many times the offline copy for a large table")
                }
                let sorted = stage.tables.compactMap { table in
                    stage.indexesInKeyOrder[table].flatMap {
                        $0.isEmpty ? nil : "\($0.joined(separator: ", ")) on \(table)"
                    }
                }
                if !sorted.isEmpty {
                    lines.append(
                        "     then build \(sorted.joined(separator: ", ")) in key order, \(chunk), the entries read first without holding the write lock"
                    )
                }
                lines.append("  3. cut-over (one short transaction): " + stage.cutOver.joined(separator: "; "))
                lines.append("  4. release the old " + stage.tables.joined(separator: ", ") + " in \(chunk)")
            }
            return lines
        }

        /// `20`, `2.5`: the target as written, without a needless `.0`.
        static func milliseconds(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
        }
    }
}

extension MigrationReport.OnlinePlan.Stage {
    /// The stage as an online migration would run it, decided on the live schema before it
    /// (``OnlineStageDecision``).
    init(_ stage: PlannedStage, decision: OnlineStageDecision, rows: [String: Int64]) {
        from = stage.from
        to = stage.to
        runsOnline = decision.runsOnline
        tables = decision.changes.map(\.rebuild.table)
        offlineReasons = decision.runsOnline ? [] : decision.reasonsForOffline
        self.rows = rows
        cutOver = []
        guard decision.runsOnline else { return }
        indexesBuilt = decision.indexesBuilt
        indexesInKeyOrder = decision.indexesInKeyOrder
        cutOver.append("drop the triggers and the guard")
        for table in tables where !(indexesInKeyOrder[table] ?? []).isEmpty {
            cutOver.append(
                "make the indexes of \(table) built in key order the shadow's, each checked to hold one entry per row")
        }
        for step in stage.allSteps {
            if case .rebuild(let rebuild) = step.action {
                cutOver.append(
                    "swap \(rebuild.table) in (the old table renamed aside to \(TableNames.releasedPrefix)\(rebuild.table), the shadow renamed to \(rebuild.table), the indexes moved or named)"
                )
            } else {
                cutOver.append(step.summary)
            }
        }
        cutOver.append("check the result against \(stage.to)")
        cutOver.append("record version \(stage.to)")
    }
}

extension MigrationReport.OnlinePlan {
    /// The online plan of the pending stages: each decided as the migration decides it (the
    /// first on the live schema, later ones predicted from it), the custom-code refusal added to
    /// `refusals` in the migration's words, and each stage that runs online shown in `pending` as
    /// the online planner plans it.
    /// - Throws: `MigrationError` `invalidOption` for a chunk target that is no duration, as the migration does.
    static func make(
        plan: ResolvedPlan, db: SQLiteConnection, from current: Schema.Version, to target: Schema.Version,
        options: OnlineRebuildOptions, refusals: inout [MigrationError], pending: inout [PlannedStage]
    ) throws -> Self {
        let chunkTarget = try options.validatedTarget() * 1000
        if let refusal = try OnlineMigration.customCodeRefusal(plan: plan, from: current, to: target) {
            refusals.append(refusal)
        }
        let planned = try plan.plannedStages(from: current, to: target, planner: OnlineMigration.planner)
        let live = try LiveSchema.read(from: db)
        let recorded = try OnlineState.recordedShadows(in: db)
        var stages: [Stage] = []
        for (index, stage) in planned.enumerated() {
            let decision = try OnlineStageDecision(stage, live: live, predicting: index > 0, recorded: recorded)
            if decision.runsOnline, pending.indices.contains(index), pending[index].from == stage.from {
                pending[index] = stage
            }
            stages.append(Stage(stage, decision: decision, rows: [:]))
        }
        return Self(chunkTargetMilliseconds: chunkTarget, stages: stages)
    }
}
