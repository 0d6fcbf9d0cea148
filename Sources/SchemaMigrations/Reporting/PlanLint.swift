#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A plan checked without any database: every stage's steps, each classified by what it can do
/// to data and what it costs, so a pipeline can ask "is this plan destructive?" before it has a
/// representative database (`migrate lint`).
///
/// ```swift
/// let lint = try Migrator(plan: TripsMigrationPlan.self).lint()
/// if lint.hasDestructiveSteps { print(lint.text) }
/// ```
public struct PlanLint: Sendable {
    /// One step, classified.
    public struct Step: Sendable {
        /// The step as planned.
        public var step: MigrationStep
        /// Whether it can lose data (``MigrationStep/destructive``).
        public var destructive: Bool
        /// Why its success depends on the data, in words (a uniqueness constraint added, a column
        /// becoming NOT NULL, a type conversion, a non-optional column added): empty when it does not.
        public var dataDependencies: [String]
        /// What it costs.
        public var cost: MigrationStep.Cost
        /// The changes it makes that break the previous version's code (``StageCompatibility``):
        /// empty when it is compatible.
        public var compatibility: [StageCompatibility.Reason] = []

        /// `destructive`, `data-dependent`, then the cost: `["destructive", "rebuild"]`.
        public var classes: [String] {
            (destructive ? ["destructive"] : []) + (dataDependencies.isEmpty ? [] : ["data-dependent"]) + [cost.name]
        }
    }

    /// One stage, planned from the declarations alone.
    public typealias Stage = ReportedStage<Step>

    /// The plan's name.
    public var plan: String
    /// Every stage of the plan, oldest first.
    public var stages: [Stage]

    /// True when some step can lose data.
    public var hasDestructiveSteps: Bool { stages.contains { $0.steps.contains(where: \.destructive) } }
    /// True when some stage breaks the code of the version it starts from (``StageCompatibility``).
    public var hasBreakingStages: Bool { stages.contains { !$0.compatibility.isCompatible } }
}

extension PlanLint {
    /// The stage as a lint lists it: each step classified, the stage's compatibility given to the
    /// steps that make its changes.
    static func stage(_ planned: PlannedStage) -> Stage {
        let compatibility = planned.compatibility
        let reasons = compatibility.reasonsByStep(planned.allSteps)
        let steps = zip(planned.allSteps, reasons).map { step, reasons in
            var classified = classify(step, checks: planned.checks + planned.finalizingChecks)
            classified.compatibility = reasons
            return classified
        }
        return Stage(header: planned.header, steps: steps, compatibility: compatibility)
    }

    static func classify(_ step: MigrationStep, checks: [DataCheck]) -> Step {
        // A conversion's exactness check is said once, with the conversion below.
        var dependencies = checks.compactMap { check -> String? in
            if case .exactConversion = check { return nil }
            return check.table.sqlFolded == step.table.sqlFolded ? check.lintDescription : nil
        }
        if case .rebuild(let rebuild) = step.action {
            dependencies += rebuild.columns.filter(\.changesType).map {
                "converts \(rebuild.table).\($0.attribute.name) to \($0.attribute.valueType.rawValue): values that do not convert exactly are refused"
            }
        }
        return Step(step: step, destructive: step.destructive, dataDependencies: dependencies, cost: step.cost)
    }
}

extension DataCheck {
    /// The table the check reads.
    var table: String {
        switch self {
        case .tableIsEmpty(let table, _, _), .columnHasNoNulls(let table, _, _, _, _),
            .noDuplicates(let table, _, _, _, _, _), .exactConversion(let table, _, _, _, _),
            .atMostOneRow(let table, _, _, _):
            return table
        }
    }

    /// What the check asks of the data, in words, for a lint.
    var lintDescription: String {
        switch self {
        case .tableIsEmpty(_, let entity, let property):
            return "adds non-optional \(entity).\(property) without a default: the table must be empty"
        case .columnHasNoNulls(_, _, let entity, let property, _):
            return "\(entity).\(property) becomes NOT NULL: no row may hold NULL"
        case .noDuplicates(_, _, let entity, let properties, _, _):
            return "(\(properties.joined(separator: ", "))) becomes unique on \(entity): no value may be shared"
        case .exactConversion(_, _, let entity, let property, let change):
            return "\(entity).\(property) changes \(change): every value must convert exactly"
        case .atMostOneRow(_, let entity, let properties, let value):
            return
                "(\(properties.joined(separator: ", "))) becomes unique on \(entity) with the default \(value) in every row: the table may hold one row at most"
        }
    }
}

extension PlanLint {
    /// The refusal ``MigrationOptions/requireCompatible`` makes of this plan (`migrate lint
    /// --require-compatible`), naming each breaking stage and reason; nil when every stage is
    /// compatible with the code of the version it starts from.
    ///
    /// ```swift
    /// if let refusal = try Migrator(plan: AppMigrationPlan.self).lint().incompatibility { print(refusal) }
    /// ```
    public var incompatibility: MigrationError? {
        MigrationError.incompatible(stages.map { ($0.header, $0.compatibility) })
    }
}
