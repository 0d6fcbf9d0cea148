import Foundation
import Testing

@testable import SchemaMigrations

/// The refusals MIGRATIONS.md lists at plan time for the version a stage goes to, raised while
/// planning it with no database: relationships whose inverse or destination is wrong, `.nullify`
/// onto a non-optional to-one, a default that is not one SQL literal, an unknown `ON DELETE`.
@Suite struct PurePlannerSchemaRefusalTests {
    typealias A = PlanBuilder
    typealias P = PurePlanning

    static func entity(_ name: String, _ relationships: [Schema.Relationship]) -> Schema.Entity {
        Schema.Entity(
            name: name, attributes: [A.attribute("name", .string, default: "''")], relationships: relationships)
    }

    static func to(
        _ name: String, _ destination: String, many: Bool = false, optional: Bool = true,
        rule: Schema.Relationship.DeleteRule = .nullify, inverse: String? = nil
    ) -> Schema.Relationship {
        Schema.Relationship(
            name: name, destination: destination, isToMany: many, isOptional: optional, deleteRule: rule,
            inverse: inverse)
    }

    /// Plans V1 (`Trip`, `Item`, no relationship) to `target` and returns the refusal.
    static func refusal(_ target: [Schema.Entity]) throws -> MigrationError {
        try #require(throws: MigrationError.self) {
            try P.stage(from: [Self.entity("Trip", []), Self.entity("Item", [])], to: target)
        }
    }

    @Test func anInverseNamingAMissingRelationship() throws {
        let error = try Self.refusal([
            Self.entity("Trip", [Self.to("items", "Item", many: true, inverse: "journey")]),
            Self.entity("Item", [Self.to("trip", "Trip")]),
        ])
        #expect(error.code == .invalidSchema)
        #expect(error.entity == "Trip" && error.property == "items" && error.version == Schema.Version(2, 0, 0))
        #expect(error.message == "the inverse of 'Trip.items' is 'Item.journey', which is not a relationship of 'Item'")
        #expect(error.remedy == "name a relationship of Item that points back at Trip")
    }

    @Test func anInversePointingAtAnotherEntity() throws {
        let error = try Self.refusal([
            Self.entity("Trip", [Self.to("items", "Item", many: true, inverse: "owner")]),
            Self.entity("Item", [Self.to("owner", "Item")]),
        ])
        #expect(error.code == .invalidSchema)
        #expect(error.entity == "Trip" && error.property == "items")
        #expect(error.message == "the inverse of 'Trip.items' is 'Item.owner', which points at 'Item', not 'Trip'")
    }

    @Test func twoRelationshipsClaimingOneInverse() throws {
        let error = try Self.refusal([
            Self.entity(
                "Trip",
                [
                    Self.to("items", "Item", many: true, inverse: "trip"),
                    Self.to("extras", "Item", many: true, inverse: "trip"),
                ]),
            Self.entity("Item", [Self.to("trip", "Trip")]),
        ])
        #expect(error.code == .invalidSchema)
        #expect(error.entity == "Trip" && error.property == "extras")
        #expect(error.message == "'Trip.items' and 'Trip.extras' both claim 'Item.trip' as their inverse")
        #expect(error.remedy == "a relationship has one inverse: remove inverse: from one of them")
    }

    @Test func anAmbiguousInverse() throws {
        let error = try Self.refusal([
            Self.entity("Trip", [Self.to("items", "Item", many: true)]),
            Self.entity("Item", [Self.to("trip", "Trip"), Self.to("plannedTrip", "Trip")]),
        ])
        #expect(error.code == .invalidSchema)
        #expect(error.entity == "Trip" && error.property == "items")
        #expect(
            error.message
                == "the inverse of 'Trip.items' is ambiguous: 'Item.trip' and 'Item.plannedTrip' both point back")
        #expect(error.remedy == #"declare it: @Relationship(inverse: "trip")"#)
    }

    @Test func aDestinationTheVersionDoesNotDeclare() throws {
        let error = try Self.refusal([Self.entity("Trip", []), Self.entity("Item", [Self.to("place", "Place")])])
        #expect(error.code == .invalidSchema)
        #expect(error.entity == "Item" && error.property == "place")
        #expect(
            error.message == "relationship 'Item.place' points at entity 'Place', which version 2.0.0 does not declare")
        #expect(error.remedy == "add Place to the version's models, or remove the relationship")
    }

    @Test func nullifyOntoANonOptionalToOne() throws {
        let error = try Self.refusal([
            Self.entity("Trip", [Self.to("items", "Item", many: true, rule: .nullify)]),
            Self.entity("Item", [Self.to("trip", "Trip", optional: false)]),
        ])
        #expect(error.code == .invalidSchema)
        #expect(error.entity == "Item" && error.property == "trip")
        #expect(error.message == "deleting a 'Trip' would set 'Item.trip' to nil, but it is not optional")
        #expect(error.remedy == "make 'trip' optional, or give the inverse the delete rule .cascade or .deny")
    }

    @Test func aDefaultThatIsNotOneSQLLiteral() throws {
        let error = try #require(throws: MigrationError.self) {
            try P.stage(
                from: [P.person()],
                to: [P.person { $0.attributes.append(A.attribute("score", .integer, default: "1; DROP TABLE Person")) }]
            )
        }
        #expect(error.code == .invalidSchema)
        #expect(error.entity == "Person" && error.property == "score")
        #expect(error.message == "the default of 'Person.score' is not one SQL literal: 1; DROP TABLE Person")
        #expect(
            error.remedy
                == "write a number, a 'quoted string', X'hex', NULL, TRUE, FALSE, CURRENT_TIMESTAMP, or one expression in parentheses"
        )
    }

    @Test func anOnDeleteActionThatIsNotSQLites() throws {
        let error = try #require(throws: MigrationError.self) {
            try P.stage(
                from: [P.person()],
                to: [
                    P.person {
                        $0.attributes.append(
                            Schema.Attribute(
                                name: "parent", valueType: .integer, isOptional: true,
                                references: Schema.ForeignKey(table: "Person", onDelete: "EXPLODE")))
                    }
                ])
        }
        #expect(error.code == .invalidSchema)
        #expect(error.entity == "Person" && error.property == "parent")
        #expect(error.message == "the ON DELETE action of 'Person.parent' is not one of SQLite's: EXPLODE")
        #expect(error.remedy == "use CASCADE, NO ACTION, RESTRICT, SET DEFAULT, SET NULL")
    }
}
