import Foundation
import Testing

@testable import SchemaMigrations

/// Every change kind of MIGRATIONS.md's change-kinds table that a stage infers, classified against
/// the previous version's code (``StageCompatibility``): compatible, or breaking with reasons
/// that name the entity and property. Two schemas in, a class and reasons out, no database.
@Suite struct CompatibilityTests {
    typealias A = PlanBuilder
    typealias P = PurePlanning

    /// One change kind: the two versions, and the reasons expected (none: compatible).
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var source: Schema
        var target: Schema
        var kind: StageKind = .lightweight
        /// Each expected reason: its kind, effect and message.
        var reasons: [(StageCompatibility.ReasonKind, StageCompatibility.Effect, String)]

        var testDescription: String { name }

        init(
            _ name: String, from source: [Schema.Entity], to target: [Schema.Entity],
            objects: ([Schema.SQLObject], [Schema.SQLObject]) = ([], []), kind: StageKind = .lightweight,
            _ reasons: [(StageCompatibility.ReasonKind, StageCompatibility.Effect, String)] = []
        ) {
            self.name = name
            self.source = Schema(version: Schema.Version(1, 0, 0), entities: source, sqlObjects: objects.0)
            self.target = Schema(version: Schema.Version(2, 0, 0), entities: target, sqlObjects: objects.1)
            self.kind = kind
            self.reasons = reasons
        }
    }

    static func person(_ change: (inout Schema.Entity) -> Void = { _ in }) -> Schema.Entity { P.person(change) }
    static let pet = Schema.Entity(name: "Pet", attributes: [A.attribute("name", .string, default: "''")])
    static func pet(_ change: (inout Schema.Entity) -> Void) -> Schema.Entity {
        var entity = pet
        change(&entity)
        return entity
    }
    /// `Person.pet`, a to-one relationship whose inverse is `Pet.people` (to-many, `rule`).
    static func owned(_ rule: Schema.Relationship.DeleteRule = .nullify, toMany: Bool = true) -> [Schema.Entity] {
        [
            person {
                $0.relationships = [
                    Schema.Relationship(name: "pet", destination: "Pet", isToMany: false, inverse: "people")
                ]
            },
            pet {
                $0.relationships = [
                    Schema.Relationship(
                        name: "people", destination: "Person", isToMany: toMany, deleteRule: rule, inverse: "pet")
                ]
            },
        ]
    }
    static func attribute(_ entity: inout Schema.Entity, _ name: String, _ change: (inout Schema.Attribute) -> Void) {
        change(&entity.attributes[entity.attributes.firstIndex { $0.name == name }!])
    }
    static let view = Schema.SQLObject.view("CREATE VIEW Adults AS SELECT name FROM Person WHERE age >= 18")
    static let raising = Schema.SQLObject.trigger(
        "CREATE TRIGGER NoEmptyName BEFORE INSERT ON Person BEGIN SELECT RAISE(ABORT, 'empty') WHERE NEW.name = ''; END"
    )
    static let quiet = Schema.SQLObject.trigger(
        "CREATE TRIGGER Touch AFTER UPDATE ON Person BEGIN SELECT NEW.name WHERE 0; END")
    static let text = Schema.SQLObject.virtualTable("CREATE VIRTUAL TABLE PersonText USING fts5(name)")
    static let readsAndWrites = "the previous version reads and writes"

    static let cases: [Case] = [
        Case("Add entity", from: [person()], to: [person(), pet]),
        Case(
            "Remove entity", from: [person(), pet], to: [person()],
            [(.tableDropped, .statementsFail, "drops table Pet: \(readsAndWrites) it")]),
        Case(
            "Rename entity", from: [person()],
            to: [person { ($0.name, $0.originalName) = ("People", "Person") }],
            [(.tableRenamed, .statementsFail, "renames table Person to People: \(readsAndWrites) Person")]),
        Case(
            "Rename entity, case only (SQLite names ignore case)", from: [person()],
            to: [person { ($0.name, $0.originalName) = ("PERSON", "Person") }]),
        Case(
            "Add optional attribute", from: [person()],
            to: [person { $0.attributes.append(A.attribute("nickname", .string, optional: true)) }]),
        Case(
            "Add an attribute whose default is not a constant", from: [person()],
            to: [person { $0.attributes.append(A.attribute("created", .string, default: "CURRENT_TIMESTAMP")) }]),
        Case(
            "Add non-optional attribute with a default", from: [person()],
            to: [person { $0.attributes.append(A.attribute("score", .double, default: "1.5")) }]),
        Case(
            "Add non-optional attribute without a default", from: [person()],
            to: [person { $0.attributes.append(A.attribute("rank", .integer)) }],
            [
                (
                    .requiredColumnAdded, .statementsFail,
                    "adds column Person.rank NOT NULL without a default: the previous version's inserts leave it out and fail"
                )
            ]),
        Case(
            "Add non-optional attribute without a default, filled by a custom stage", from: [person()],
            to: [person { $0.attributes.append(A.attribute("rank", .integer)) }], kind: .custom,
            [
                (
                    .requiredColumnAdded, .statementsFail,
                    "adds column Person.rank NOT NULL without a default: the previous version's inserts leave it out and fail"
                )
            ]),
        Case(
            "Remove attribute", from: [person()], to: [person { $0.attributes.removeLast() }],
            [(.columnDropped, .statementsFail, "drops column Person.email: \(readsAndWrites) it")]),
        Case(
            "Rename attribute", from: [person()],
            to: [person { attribute(&$0, "email") { ($0.name, $0.originalName) = ("mail", "email") } }],
            [(.columnRenamed, .statementsFail, "renames column Person.email to mail: \(readsAndWrites) email")]),
        Case(
            "Type change with an exact conversion", from: [person()],
            to: [person { attribute(&$0, "age") { $0.valueType = .double } }],
            [
                (
                    .typeChanged, .valuesDiffer,
                    "changes the type of Person.age from integer to double: the previous version reads and writes it as integer"
                )
            ]),
        Case(
            "Optional → non-optional, with a default", from: [person()],
            to: [person { attribute(&$0, "age") { ($0.isOptional, $0.defaultValue) = (false, "0") } }],
            [
                (
                    .becomesNotNull, .statementsFail,
                    "makes Person.age non-optional: the previous version writes NULL when it is nil, which NOT NULL refuses (a default fills only a column an insert leaves out)"
                )
            ]),
        Case(
            "Optional → non-optional, no default", from: [person()],
            to: [person { attribute(&$0, "age") { $0.isOptional = false } }],
            [
                (
                    .becomesNotNull, .statementsFail,
                    "makes Person.age non-optional: the previous version writes NULL when it is nil, which NOT NULL refuses"
                )
            ]),
        Case(
            "Non-optional → optional", from: [person()],
            to: [person { attribute(&$0, "name") { $0.isOptional = true } }]),
        Case(
            "Default value change", from: [person()],
            to: [person { attribute(&$0, "name") { $0.defaultValue = "'someone'" } }]),
        Case("Add relationship (to-one, optional)", from: [person(), pet], to: owned()),
        Case(
            "Add relationship (many-to-many: a join table)", from: [person(), pet],
            to: [
                person {
                    $0.relationships = [
                        Schema.Relationship(name: "pets", destination: "Pet", isToMany: true, inverse: "owners")
                    ]
                },
                pet {
                    $0.relationships = [
                        Schema.Relationship(name: "owners", destination: "Person", isToMany: true, inverse: "pets")
                    ]
                },
            ]),
        Case(
            "Remove relationship", from: owned(), to: [person(), pet],
            [(.columnDropped, .statementsFail, "drops column Person.pet_id: \(readsAndWrites) it")]),
        Case(
            "Rename relationship", from: owned(),
            to: [
                person {
                    $0.relationships = [
                        Schema.Relationship(
                            name: "companion", destination: "Pet", isToMany: false, inverse: "people",
                            originalName: "pet")
                    ]
                },
                pet {
                    $0.relationships = [
                        Schema.Relationship(
                            name: "people", destination: "Person", isToMany: true, inverse: "companion")
                    ]
                },
            ],
            [
                (
                    .columnRenamed, .statementsFail,
                    "renames column Person.pet_id to companion_id: \(readsAndWrites) pet_id"
                )
            ]),
        Case(
            "Change a delete rule", from: owned(.nullify), to: owned(.cascade),
            [
                (
                    .deleteRuleChanged, .valuesDiffer,
                    "changes the foreign key of Person.pet_id from ON DELETE SET NULL to ON DELETE CASCADE: deleting a Pet row the previous version deletes does something else to Person rows"
                )
            ]),
        Case(
            "Change a delete rule to deny", from: owned(.nullify), to: owned(.deny),
            [
                (
                    .deleteRuleChanged, .writesMayFail,
                    "changes the foreign key of Person.pet_id from ON DELETE SET NULL to ON DELETE RESTRICT: deleting a Pet row the previous version deletes fails while Person rows reference it"
                )
            ]),
        Case(
            "Rename an entity others reference (the reference follows)", from: owned(),
            to: [
                person {
                    $0.relationships = [
                        Schema.Relationship(name: "pet", destination: "Animal", isToMany: false, inverse: "people")
                    ]
                },
                pet {
                    ($0.name, $0.originalName) = ("Animal", "Pet")
                    $0.relationships = [
                        Schema.Relationship(name: "people", destination: "Person", isToMany: true, inverse: "pet")
                    ]
                },
            ],
            [(.tableRenamed, .statementsFail, "renames table Pet to Animal: \(readsAndWrites) Pet")]),
        Case(
            "One-to-many → one-to-one", from: owned(), to: owned(toMany: false),
            [
                (
                    .uniqueAdded, .writesMayFail,
                    "makes (pet_id) unique on Person: the previous version's writes fail on a value another row already has"
                )
            ]),
        Case(
            "Index name change, with another change", from: [person()],
            to: [
                person {
                    $0.indexes = [Schema.Index(["name"], name: "by_name")]
                    $0.attributes.append(A.attribute("nickname", .string, optional: true))
                }
            ]),
        Case("Add index", from: [person()], to: [person { $0.indexes.append(Schema.Index(["age"])) }]),
        Case(
            "Add a partial or expression index", from: [person()],
            to: [
                person {
                    $0.indexes.append(
                        Schema.Index(elements: [.expression("lower(email)")], name: "by_mail", predicate: "age > 0"))
                }
            ]),
        Case(
            "Add a unique expression index", from: [person()],
            to: [
                person {
                    $0.indexes.append(
                        Schema.Index(elements: [.expression("lower(email)")], isUnique: true, name: "mail"))
                }
            ],
            [
                (
                    .uniqueAdded, .writesMayFail,
                    "makes (lower(email)) unique on Person: the previous version's writes fail on a value another row already has"
                )
            ]),
        Case(
            "Change a partial or expression index's terms",
            from: [person { $0.indexes.append(Schema.Index(elements: [.expression("lower(email)")], name: "mail")) }],
            to: [person { $0.indexes.append(Schema.Index(elements: [.expression("upper(email)")], name: "mail")) }]),
        Case(
            "Remove a partial or expression index",
            from: [person { $0.indexes.append(Schema.Index(elements: [.expression("lower(email)")], name: "mail")) }],
            to: [person()]),
        Case(
            "Add a VIRTUAL generated attribute", from: [person()],
            to: [
                person {
                    $0.attributes.append(
                        Schema.Attribute(
                            name: "shout", valueType: .string, isOptional: true, generated: .virtual("upper(name)")))
                }
            ]),
        Case(
            "Add a STORED generated attribute", from: [person()],
            to: [
                person {
                    $0.attributes.append(
                        Schema.Attribute(
                            name: "shout", valueType: .string, isOptional: true, generated: .stored("upper(name)")))
                }
            ]),
        Case(
            "Change a generated attribute's expression", from: [generatedPerson("upper(name)")],
            to: [generatedPerson("lower(name)")],
            [
                (
                    .generatedExpressionChanged, .valuesDiffer,
                    "changes Person.shout from GENERATED ALWAYS AS (upper(name)) VIRTUAL to GENERATED ALWAYS AS (lower(name)) VIRTUAL: the previous version reads other values"
                )
            ]),
        Case(
            "Make a generated column ordinary", from: [generatedPerson("upper(name)")], to: [generatedPerson(nil)],
            [
                (
                    .stopsBeingGenerated, .valuesDiffer,
                    "makes Person.shout an ordinary column: the previous version's inserts leave it out, so it holds no computed value"
                )
            ]),
        Case(
            "Make an ordinary column generated", from: [generatedPerson(nil)], to: [generatedPerson("upper(name)")],
            [
                (
                    .becomesGenerated, .statementsFail,
                    "makes Person.shout generated (GENERATED ALWAYS AS (upper(name)) VIRTUAL): the previous version's inserts write it, which SQLite refuses"
                )
            ]),
        Case(
            "Remove a generated attribute", from: [generatedPerson("upper(name)")], to: [person()],
            [(.columnDropped, .statementsFail, "drops column Person.shout: the previous version reads it")]),
        Case("Remove index", from: [person()], to: [person { $0.indexes = [] }]),
        Case(
            "Add a table constraint", from: [person()],
            to: [person { $0.constraints = [.check("age > 0")] }],
            [
                (
                    .checkAdded, .writesMayFail,
                    "adds `CHECK (age > 0)` to Person: the previous version's writes that break it fail"
                )
            ]),
        Case("Remove a table constraint", from: [person { $0.constraints = [.check("age > 0")] }], to: [person()]),
        Case("Add a view", from: [person()], to: [person()], objects: ([], [view])),
        Case("Add a trigger that does not RAISE", from: [person()], to: [person()], objects: ([], [quiet])),
        Case(
            "Add a trigger that can RAISE", from: [person()], to: [person()], objects: ([], [raising]),
            [
                (
                    .triggerMayRefuse, .writesMayFail,
                    "adds trigger NoEmptyName, which can RAISE: the previous version's writes it refuses fail"
                )
            ]),
        Case(
            "Remove a view", from: [person()], to: [person()], objects: ([view], []),
            [(.viewDropped, .statementsFail, "drops view Adults: the previous version reads it")]),
        Case("Remove a trigger", from: [person()], to: [person()], objects: ([raising], [])),
        Case(
            "Change a view's SQL", from: [person()], to: [person()],
            objects: ([view], [.view("CREATE VIEW Adults AS SELECT name FROM Person WHERE age >= 21")]),
            [
                (
                    .viewChanged, .valuesDiffer,
                    "rewrites view Adults: the previous version reads other columns or rows from it"
                )
            ]),
        Case("Add a virtual table", from: [person()], to: [person()], objects: ([], [text])),
        Case(
            "Remove a virtual table", from: [person()], to: [person()], objects: ([text], []),
            [(.virtualTableDropped, .statementsFail, "drops virtual table PersonText: \(readsAndWrites) it")]),
        Case(
            "Change a virtual table's SQL", from: [person()], to: [person()],
            objects: ([text], [.virtualTable("CREATE VIRTUAL TABLE PersonText USING fts5(name, email)")]),
            [
                (
                    .virtualTableChanged, .valuesDiffer,
                    "declares virtual table PersonText anew (its rows copied into the new definition): the previous version's statements on it are not checked against the new one"
                )
            ]),
        Case(
            "Add uniqueness", from: [person()],
            to: [person { $0.indexes.append(Schema.Index(["email"], isUnique: true)) }],
            [
                (
                    .uniqueAdded, .writesMayFail,
                    "makes (email) unique on Person: the previous version's writes fail on a value another row already has"
                )
            ]),
        Case(
            "Add uniqueness over a new optional column (the previous version's inserts leave it NULL)",
            from: [person()],
            to: [
                person {
                    $0.attributes.append(A.attribute("handle", .string, optional: true))
                    $0.indexes.append(Schema.Index(["handle"], isUnique: true))
                }
            ]),
        Case(
            "Remove uniqueness", from: [person { $0.indexes.append(Schema.Index(["email"], isUnique: true)) }],
            to: [person()]),
        Case(
            "hashModifier change (attribute)", from: [person()],
            to: [person { attribute(&$0, "email") { $0.hashModifier = "lowercased" } }],
            [
                (
                    .valuesChangeMeaning, .valuesDiffer,
                    "changes the hashModifier of Person.email: the declaration says its values mean something else, which the previous version does not know"
                )
            ]),
        Case(
            "hashModifier change (entity)", from: [person()], to: [person { $0.hashModifier = "v2" }],
            [
                (
                    .valuesChangeMeaning, .valuesDiffer,
                    "changes the hashModifier of Person: the declaration says its stored values mean something else, which the previous version does not know"
                )
            ]),
        Case(
            "Column name change (@Attribute(column:))", from: [person()],
            to: [person { attribute(&$0, "email") { ($0.name, $0.propertyName) = ("mail_address", "email") } }],
            [
                (
                    .columnRenamed, .statementsFail,
                    "renames column Person.email to mail_address: \(readsAndWrites) email"
                )
            ]),
        Case(
            "A property renamed while a new property takes its old name", from: [person()],
            to: [
                person {
                    attribute(&$0, "email") { ($0.name, $0.originalName) = ("contact", "email") }
                    $0.attributes.append(A.attribute("email", .string, optional: true))
                }
            ],
            [(.columnRenamed, .valuesDiffer, "renames column Person.email to contact: \(readsAndWrites) email")]),
        Case(
            "SQL type change keeping the affinity", from: [person()],
            to: [person { attribute(&$0, "name") { $0.sqlType = "VARCHAR(80)" } }]),
        Case(
            "Foreign key change on an attribute (added)",
            from: [person { $0.attributes.append(A.attribute("petID", .integer, optional: true)) }, pet],
            to: [
                person {
                    $0.attributes.append(
                        Schema.Attribute(
                            name: "petID", valueType: .integer, isOptional: true,
                            references: Schema.ForeignKey(table: "Pet", onDelete: "SET NULL")))
                },
                pet,
            ],
            [
                (
                    .foreignKeyAdded, .writesMayFail,
                    "adds a foreign key from Person.petID to Pet: the previous version's writes of a value no Pet row has fail"
                )
            ]),
        Case(
            "Foreign key change on an attribute (removed)",
            from: [
                person {
                    $0.attributes.append(
                        Schema.Attribute(
                            name: "petID", valueType: .integer, isOptional: true,
                            references: Schema.ForeignKey(table: "Pet", onDelete: "SET NULL")))
                },
                pet,
            ],
            to: [person { $0.attributes.append(A.attribute("petID", .integer, optional: true)) }, pet]),
        Case(
            "strict turned on", from: [person()], to: [person { $0.isStrict = true }],
            [
                (
                    .strictOn, .writesMayFail,
                    "makes Person STRICT: the previous version's writes of a value its column's type refuses fail"
                )
            ]),
        Case("strict turned off", from: [person { $0.isStrict = true }], to: [person()]),
        Case(
            "CHECK change on an attribute", from: [person()],
            to: [person { attribute(&$0, "age") { $0.check = "age >= 0" } }],
            [
                (
                    .checkAdded, .writesMayFail,
                    "adds CHECK (age >= 0) on Person.age: the previous version's writes of values it refuses fail"
                )
            ]),
        Case(
            "Collation change on an attribute", from: [person()],
            to: [person { attribute(&$0, "email") { $0.collation = "NOCASE" } }],
            [
                (
                    .collationChanged, .valuesDiffer,
                    "changes the collation of Person.email from BINARY to NOCASE: the previous version's comparisons, sorting and unique values follow the new one"
                )
            ]),
    ]

    static func generatedPerson(_ expression: String?) -> Schema.Entity {
        person {
            $0.attributes.append(
                Schema.Attribute(
                    name: "shout", valueType: .string, isOptional: true, generated: expression.map { .virtual($0) }))
        }
    }

    /// The stage as a plan would plan it (relationships expanded to their storage), and its class.
    static func classify(_ testCase: Case) throws -> (PlannedStage, StageCompatibility) {
        let stored = try StorageLayout.expand(versions: [testCase.source, testCase.target])
        let stage = try Planner(capabilities: P.withDropColumn).plan(
            from: stored[0], to: stored[1], kind: testCase.kind)
        return (stage, stage.compatibility)
    }

    @Test(arguments: cases)
    func eachChangeKindIsClassifiedWithItsReasons(_ testCase: Case) throws {
        let (stage, compatibility) = try Self.classify(testCase)
        #expect(compatibility.classification == (testCase.reasons.isEmpty ? .compatible : .breaking))
        #expect(compatibility.reasons.map(\.kind) == testCase.reasons.map(\.0))
        #expect(compatibility.reasons.map(\.effect) == testCase.reasons.map(\.1))
        #expect(compatibility.reasons.map(\.message) == testCase.reasons.map(\.2))
        #expect(compatibility.codeIsNotClassified == (testCase.kind == .custom))
        // Every reason is carried by one step of the stage, the one that makes the change.
        let byStep = compatibility.reasonsByStep(stage.allSteps)
        #expect(byStep.flatMap { $0 }.map(\.message).sorted() == compatibility.reasons.map(\.message).sorted())
    }

    @Test func eachReasonGoesToTheStepThatMakesItsChange() throws {
        let (stage, compatibility) = try Self.classify(
            Case(
                "rename, drop and add", from: [Self.person()],
                to: [
                    Self.person {
                        Self.attribute(&$0, "name") { ($0.name, $0.originalName) = ("fullName", "name") }
                        $0.attributes.removeLast()
                        $0.attributes.append(A.attribute("nickname", .string, optional: true))
                        $0.indexes = [Schema.Index(["fullName"])]
                    }
                ]))
        let byStep = compatibility.reasonsByStep(stage.allSteps)
        let carried = zip(stage.allSteps, byStep).map { step, reasons in
            "\(step.summary): \(reasons.map(\.kind.rawValue))"
        }
        #expect(
            carried == [
                "Rename column Person.name to fullName: [\"columnRenamed\"]",
                "Drop column Person.email and its values: [\"columnDropped\"]",
                "Add column Person.nickname TEXT: []",
            ], "\(carried)")
        #expect(compatibility.reasons.map(\.entity) == ["Person", "Person"])
        #expect(compatibility.reasons.map(\.property) == ["email", "name"])
    }
}
