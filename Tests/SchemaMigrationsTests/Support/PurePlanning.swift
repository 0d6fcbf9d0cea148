import Foundation
import Testing

@testable import SchemaMigrations

/// Plans one stage from two lists of entities with no database and no file: the planner as a
/// pure function (schemas in, steps out), the way `Schema.migrationStage(to:)` calls it.
enum PurePlanning {
    typealias A = PlanBuilder

    /// SQLite with `ALTER TABLE … DROP COLUMN` (3.35.0 and later), stated rather than read from
    /// the library, so the expected steps do not depend on the machine.
    static let withDropColumn = SQLiteCapabilities(dropColumn: true)

    /// The stage from version 1 (`source`) to version 2 (`target`), each expanded to its stored
    /// layout first (relationships become key columns and join tables), as a plan does.
    static func stage(
        from source: [Schema.Entity], to target: [Schema.Entity], kind: StageKind = .lightweight,
        capabilities: SQLiteCapabilities = withDropColumn
    ) throws -> PlannedStage {
        let stored = try StorageLayout.expand(versions: [A.schema(1, source), A.schema(2, target)])
        return try Planner(capabilities: capabilities).plan(from: stored[0], to: stored[1], kind: kind)
    }

    /// `Person` (name TEXT NOT NULL DEFAULT '', age INTEGER, email TEXT, an index on name) changed by `change`.
    static func person(_ change: (inout Schema.Entity) -> Void = { _ in }) -> Schema.Entity {
        PersonFixture.person(change)
    }

    /// What a step is and costs, comparable in one `#expect`.
    struct Shape: Equatable, CustomStringConvertible {
        var op: MigrationStep.Operation
        var table: String
        var rewritesRows: Bool
        var destructive: Bool

        var description: String {
            "\(op) \(table)\(rewritesRows ? " rewrites rows" : "")\(destructive ? " destructive" : "")"
        }

        /// A step that rewrites no row and loses nothing: O(1) for a rename, `ADD COLUMN` or
        /// `CREATE TABLE` (SQLite edits the schema only); an index build reads the rows once.
        static func inPlace(_ op: MigrationStep.Operation, _ table: String) -> Shape {
            Shape(op: op, table: table, rewritesRows: false, destructive: false)
        }

        /// A step that copies or rewrites every row of the table.
        static func copies(_ op: MigrationStep.Operation, _ table: String, destructive: Bool = false) -> Shape {
            Shape(op: op, table: table, rewritesRows: true, destructive: destructive)
        }

        /// A step that can lose data without rewriting rows (dropping a table).
        static func loses(_ op: MigrationStep.Operation, _ table: String) -> Shape {
            Shape(op: op, table: table, rewritesRows: false, destructive: true)
        }
    }

    /// The checks on the data a stage will ask before its first write, in words: the planner's
    /// decision, which the executor answers from the rows.
    static func describe(_ check: DataCheck) -> String {
        switch check {
        case .tableIsEmpty(let table, let entity, let property):
            return "\(entity).\(property): \(table) must be empty"
        case .columnHasNoNulls(let table, let column, let entity, let property, _):
            return "\(entity).\(property): no NULL in \(table).\(column)"
        case .noDuplicates(let table, let columns, let entity, let properties, let nullsBecome, let collations):
            let nullPairs: [String] = nullsBecome.sorted { $0.key < $1.key }.map { "\($0.key) = \($0.value)" }
            let nulls = nullPairs.isEmpty ? "" : " (NULLs as " + nullPairs.joined(separator: ", ") + ")"
            let collationPairs: [String] = collations.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            let compared = collationPairs.isEmpty ? "" : " (compared as " + collationPairs.joined(separator: ", ") + ")"
            let target = "\(table)(\(columns.joined(separator: ", ")))"
            return "\(entity).(\(properties.joined(separator: ", "))): no duplicates in \(target)\(nulls)\(compared)"
        case .atMostOneRow(let table, let entity, let properties, let value):
            return "\(entity).(\(properties.joined(separator: ", "))): at most one row in \(table) (all take \(value))"
        case .exactConversion(let table, _, let entity, let property, let change):
            return "\(entity).\(property): every value of \(table) converts exactly \(change)"
        }
    }

    /// The condition of an exact-conversion check (SQL over the table's columns).
    static func condition(_ check: DataCheck) -> String? {
        if case .exactConversion(_, let condition, _, _, _) = check { return condition }
        return nil
    }

    /// The remedy a NULL check will name when it refuses.
    static func remedy(_ check: DataCheck) -> String? {
        if case .columnHasNoNulls(_, _, _, _, let remedy) = check { return remedy }
        return nil
    }
}

extension PlannedStage {
    /// Each step's kind, table and cost, in the order they run.
    var shapes: [PurePlanning.Shape] {
        steps.map {
            PurePlanning.Shape(op: $0.op, table: $0.table, rewritesRows: $0.rewritesRows, destructive: $0.destructive)
        }
    }

    /// Each finalizing step's kind, table and cost (after a custom stage's `didMigrate`).
    var finalizingShapes: [PurePlanning.Shape] {
        finalizingSteps.map {
            PurePlanning.Shape(op: $0.op, table: $0.table, rewritesRows: $0.rewritesRows, destructive: $0.destructive)
        }
    }

    /// The data checks before the steps, in words.
    var checkSummaries: [String] { checks.map(PurePlanning.describe) }

    /// The data checks after `didMigrate`, in words.
    var finalizingCheckSummaries: [String] { finalizingChecks.map(PurePlanning.describe) }
}
