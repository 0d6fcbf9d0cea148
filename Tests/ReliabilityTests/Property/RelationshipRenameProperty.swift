import Foundation
import Testing

@testable import SchemaMigrations

extension Reliability {
    /// Two entities linked by a relationship of every kind (one-to-many, one-to-one, many-to-many,
    /// to-many or to-one without inverse), random links, then versions that rename either entity
    /// and the relationships, to names that sort anywhere, one after another: the reference model
    /// predicts every link kept, whatever the renames did to the names' order.
    @Suite struct RelationshipRenames {
        enum Kind: String, CaseIterable {
            case oneToMany, oneToOne, manyToMany, toManyWithoutInverse, toOneWithoutInverse
        }

        /// The names of one version: the two entities, and the relationship on each side (nil: none).
        struct Names {
            var a: String, b: String
            var onA: String?, onB: String?
        }

        struct Case: CustomStringConvertible {
            var kind: Kind
            var versions: [Schema]
            var rowsA: Int, rowsB: Int
            /// The links, as (A id, B id).
            var links: Set<[Int64]>
            var description: String {
                "\(kind): "
                    + versions.map { v in
                        v.entities.map {
                            "\($0.originalName.map { "\($0)→" } ?? "")\($0.name)("
                                + $0.relationships.map { "\($0.originalName.map { "\($0)→" } ?? "")\($0.name)" }.joined(
                                    separator: ",") + ")"
                        }.joined(separator: " ")
                    }.joined(separator: " | ")
            }
        }

        static func name(_ random: inout SeededRandom, taken: Set<String>) -> String {
            let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
            while true {
                let name =
                    String(letters[Int.random(in: 0..<26, using: &random)])
                    + String(
                        (0..<Int.random(in: 2...5, using: &random)).map { _ in
                            letters[Int.random(in: 0..<26, using: &random)]
                        }
                    ).lowercased()
                if !taken.contains(name.lowercased()) { return name }
            }
        }

        static func schema(_ version: Int, kind: Kind, names: Names, previous: Names?) -> Schema {
            func relationship(_ name: String, to destination: String, toMany: Bool, inverse: String?, old: String?)
                -> Schema.Relationship
            {
                Schema.Relationship(
                    name: name, destination: destination, isToMany: toMany, inverse: inverse,
                    originalName: old != name ? old : nil)
            }
            var a = Schema.Entity(
                name: names.a, originalName: previous.flatMap { $0.a != names.a ? $0.a : nil },
                attributes: [Schema.Attribute(name: "alabel", valueType: .string, defaultValue: "''")]
                    + (1..<version).map { Schema.Attribute(name: "v\($0)", valueType: .integer, isOptional: true) })
            var b = Schema.Entity(
                name: names.b, originalName: previous.flatMap { $0.b != names.b ? $0.b : nil },
                attributes: [Schema.Attribute(name: "blabel", valueType: .string, defaultValue: "''")])
            let aToMany = kind == .oneToMany || kind == .manyToMany || kind == .toManyWithoutInverse
            let bToMany = kind == .manyToMany
            if let onA = names.onA {
                a.relationships = [
                    relationship(onA, to: names.b, toMany: aToMany, inverse: names.onB, old: previous?.onA)
                ]
            }
            if let onB = names.onB {
                b.relationships = [
                    relationship(onB, to: names.a, toMany: bToMany, inverse: names.onA, old: previous?.onB)
                ]
            }
            return Schema(version: Schema.Version(version, 0, 0), entities: [a, b].shuffled())
        }

        static func generate(seed: UInt64, index: Int) -> Case {
            var random = SeededRandom(seed: seed, family: "relationship-renames", index: index)
            let kind = Kind.allCases[index % Kind.allCases.count]
            var taken = Set<String>()
            func fresh() -> String {
                let n = name(&random, taken: taken)
                taken.insert(n.lowercased())
                return n
            }
            var names = Names(
                a: fresh(), b: fresh(),
                onA: kind == .toOneWithoutInverse ? nil : fresh().lowercased(),
                onB: kind == .toManyWithoutInverse ? nil : fresh().lowercased())
            var versions = [schema(1, kind: kind, names: names, previous: nil)]
            for version in 2...Int.random(in: 2...4, using: &random) {
                let previous = names
                if random.chance(0.7) { names.a = fresh() }
                if random.chance(0.7) { names.b = fresh() }
                if names.onA != nil && random.chance(0.3) { names.onA = fresh().lowercased() }
                if names.onB != nil && random.chance(0.3) { names.onB = fresh().lowercased() }
                versions.append(schema(version, kind: kind, names: names, previous: previous))
            }
            let rowsA = Int.random(in: 1...6, using: &random)
            let rowsB = Int.random(in: 1...8, using: &random)
            var links = Set<[Int64]>()
            switch kind {
            case .manyToMany:
                for a in 1...rowsA {
                    for b in 1...rowsB where random.chance(0.3) { links.insert([Int64(a), Int64(b)]) }
                }
            case .oneToOne:
                for (a, b) in zip((1...rowsA).shuffled(using: &random), (1...rowsB).shuffled(using: &random))
                where random.chance(0.7) { links.insert([Int64(a), Int64(b)]) }
            case .oneToMany, .toManyWithoutInverse, .toOneWithoutInverse:
                for b in 1...rowsB where random.chance(0.8) {
                    links.insert([Int64.random(in: 1...Int64(rowsA), using: &random), Int64(b)])
                }
            }
            return Case(kind: kind, versions: versions, rowsA: rowsA, rowsB: rowsB, links: links)
        }

        /// Where a version stores the link between its two entities (named `a` and `b` there).
        enum Storage {
            case joinTable(table: String, aColumn: String, bColumn: String)
            case column(holder: String, column: String, holderIsA: Bool)
        }

        static func storage(of stored: Schema, a: String, b: String) throws -> Storage {
            if let join = stored.entities.first(where: { $0.isJoinTable }) {
                let aColumn = try #require(join.attributes.first { $0.references?.table == a }).name
                let bColumn = try #require(join.attributes.first { $0.references?.table == b }).name
                return .joinTable(table: join.name, aColumn: aColumn, bColumn: bColumn)
            }
            for (holder, other, holderIsA) in [(a, b, true), (b, a, false)] {
                if let column = stored.entity(named: holder)?.attributes.first(where: { $0.references?.table == other })
                {
                    return .column(holder: holder, column: column.name, holderIsA: holderIsA)
                }
            }
            throw CrashPlanError(message: "no storage for the link between \(a) and \(b)")
        }

        static func entityNames(_ schema: Schema) -> (a: String, b: String) {
            let a = schema.entities.first { $0.attribute(named: "alabel") != nil }!.name
            return (a, schema.entities.first { $0.name != a }!.name)
        }

        static func writeLinks(_ links: Set<[Int64]>, storage: Storage, db: SQLiteConnection) throws {
            for link in links {
                switch storage {
                case .joinTable(let table, let aColumn, let bColumn):
                    try db.execute(
                        "INSERT INTO \(SQL.quoteIdentifier(table)) (\(SQL.quoteIdentifier(aColumn)), \(SQL.quoteIdentifier(bColumn))) VALUES (?, ?)",
                        [.integer(link[0]), .integer(link[1])])
                case .column(let holder, let column, let holderIsA):
                    try db.execute(
                        "UPDATE \(SQL.quoteIdentifier(holder)) SET \(SQL.quoteIdentifier(column)) = ? WHERE id = ?",
                        holderIsA ? [.integer(link[1]), .integer(link[0])] : [.integer(link[0]), .integer(link[1])])
                }
            }
        }

        static func readLinks(storage: Storage, db: SQLiteConnection) throws -> Set<[Int64]> {
            switch storage {
            case .joinTable(let table, let aColumn, let bColumn):
                return Set(
                    try db.rows(
                        "SELECT \(SQL.quoteIdentifier(aColumn)), \(SQL.quoteIdentifier(bColumn)) FROM \(SQL.quoteIdentifier(table))"
                    ).map { [$0[0].int64Value!, $0[1].int64Value!] })
            case .column(let holder, let column, let holderIsA):
                let rows = try db.rows(
                    "SELECT id, \(SQL.quoteIdentifier(column)) FROM \(SQL.quoteIdentifier(holder)) WHERE \(SQL.quoteIdentifier(column)) IS NOT NULL"
                )
                return Set(
                    rows.map {
                        holderIsA ? [$0[0].int64Value!, $0[1].int64Value!] : [$0[1].int64Value!, $0[0].int64Value!]
                    })
            }
        }

        @Test(.timeLimit(.minutes(30)))
        func everyLinkSurvivesEveryRename() throws {
            let config = ReliabilityConfig.current
            let scratch = Scratch("relationship-renames")
            let cases = max(25, config.propertyCases / 2)
            var kept = 0
            for index in 0..<cases {
                let testCase = Self.generate(seed: config.seed, index: index)
                let url = scratch.url("case-\(index).sqlite")
                let stored = try StorageLayout.expand(versions: testCase.versions)
                try Migrator(resolvedPlan: try ResolvedPlan(name: "links", schemas: [testCase.versions[0]], stages: []))
                    .migrate(databaseAt: url)
                let db = try SQLiteConnection(path: url.path)
                let (a1, b1) = Self.entityNames(testCase.versions[0])
                try db.execute(
                    "INSERT INTO \(SQL.quoteIdentifier(a1)) (id, alabel) SELECT value, 'a' || value FROM (WITH RECURSIVE n(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM n WHERE value < \(testCase.rowsA)) SELECT value FROM n)"
                )
                try db.execute(
                    "INSERT INTO \(SQL.quoteIdentifier(b1)) (id, blabel) SELECT value, 'b' || value FROM (WITH RECURSIVE n(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM n WHERE value < \(testCase.rowsB)) SELECT value FROM n)"
                )
                try Self.writeLinks(testCase.links, storage: Self.storage(of: stored[0], a: a1, b: b1), db: db)
                do {
                    try Migrator(resolvedPlan: try ResolvedPlan(name: "links", schemas: testCase.versions, stages: []))
                        .migrate(databaseAt: url)
                } catch {
                    Issue.record("case \(index) (\(config.reproduction)): \(error)\n\(testCase)")
                    continue
                }
                let last = testCase.versions.count - 1
                let (a, b) = Self.entityNames(testCase.versions[last])
                let links = try Self.readLinks(storage: Self.storage(of: stored[last], a: a, b: b), db: db)
                #expect(
                    links == testCase.links,
                    "case \(index) (\(config.reproduction)): links \(links.sorted { $0.lexicographicallyPrecedes($1) }) expected \(testCase.links.sorted { $0.lexicographicallyPrecedes($1) })\n\(testCase)"
                )
                #expect(
                    try db.scalar("SELECT count(*) FROM \(SQL.quoteIdentifier(b))")?.int64Value == Int64(testCase.rowsB)
                )
                if links == testCase.links { kept += 1 }
                scratch.removeDatabase(url)
            }
            ReliabilityConfig.summary(
                "relationship-renames", "cases=\(cases) links-kept=\(kept) kinds=\(Kind.allCases.count)")
        }
    }
}
