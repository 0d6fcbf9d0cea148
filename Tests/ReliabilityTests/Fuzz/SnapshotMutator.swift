import Foundation

/// Seeded mutations of a JSON schema snapshot: byte flips, truncations, deleted keys, values of
/// the wrong type or hostile text, duplicated array elements. Half the time the recorded hash is
/// removed too, so the mutation gets past the tamper check into decoding and planning.
struct SnapshotMutator {
    var random: SeededRandom

    static let hostileStrings = [
        "", "id", "ID", "sqlite_master", "_schema_migrations", "_sm_new_x", "a\"b", "it's", "x; DROP TABLE e1; --",
        "日本", String(repeating: "n", count: 3000), "\u{0}", "1.0.0", "99.0.0", "-1.0.0", "1.2.3.4", "NULL", "e1", "c2",
        "0); COMMIT; --", "0; COMMIT; DELETE FROM e1; --", "CASCADE; COMMIT; --", "(1)", "'open", "X'0", "CASCADE",
        "SET NULL",
    ]

    /// Returns the mutated bytes and the kind of mutation made.
    mutating func mutate(_ json: Data) -> (Data, String) {
        let kinds = [
            "flip bytes", "truncate", "delete key", "replace value", "duplicate element", "hostile string",
            "hostile default", "hostile reference",
        ]
        let kind = kinds[Int.random(in: 0..<kinds.count, using: &random)]
        switch kind {
        case "flip bytes":
            var bytes = [UInt8](json)
            for _ in 0..<Int.random(in: 1...4, using: &random) where !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            return (Data(bytes), kind)
        case "truncate":
            return (json.prefix(Int.random(in: 0..<max(1, json.count), using: &random)), kind)
        default:
            guard var object = try? JSONSerialization.jsonObject(with: json) else { return (json, kind) }
            if random.chance(0.8), var top = object as? [String: Any] {
                top["hash"] = nil
                object = top
            }
            let hasEntities = (object as? [String: Any])?["entities"] != nil
            if kind == "hostile default" || kind == "hostile reference" {
                // A file without entities (plan.json) gets a hostile string instead.
                return (
                    (try? JSONSerialization.data(
                        withJSONObject: hasEntities
                            ? mutateAttribute(object, kind: kind)
                            : mutateTree(object, kind: "hostile string", depth: 0),
                        options: [.fragmentsAllowed])) ?? json, hasEntities ? kind : "hostile string"
                )
            }
            object = mutateTree(object, kind: kind, depth: 0)
            return ((try? JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed])) ?? json, kind)
        }
    }

    /// Gives one attribute a hostile default (spliced into SQL as a literal) or foreign key.
    private mutating func mutateAttribute(_ object: Any, kind: String) -> Any {
        guard var top = object as? [String: Any], var entities = top["entities"] as? [[String: Any]], !entities.isEmpty
        else { return object }
        let e = Int.random(in: 0..<entities.count, using: &random)
        guard var attributes = entities[e]["attributes"] as? [[String: Any]], !attributes.isEmpty else { return object }
        let a = Int.random(in: 0..<attributes.count, using: &random)
        let hostile = SnapshotMutator.hostileStrings[
            Int.random(in: 0..<SnapshotMutator.hostileStrings.count, using: &random)]
        if kind == "hostile default" {
            attributes[a]["defaultValue"] = hostile
        } else {
            let table = random.chance(0.5) ? (entities[0]["name"] as? String ?? "e1") : hostile
            attributes[a]["references"] = ["table": table, "onDelete": random.chance(0.5) ? "CASCADE" : hostile]
        }
        entities[e]["attributes"] = attributes
        top["entities"] = entities
        return top
    }

    /// Walks down a random path and mutates one node.
    private mutating func mutateTree(_ node: Any, kind: String, depth: Int) -> Any {
        let descend = depth < 6 && random.chance(0.75)
        if var dictionary = node as? [String: Any], !dictionary.isEmpty {
            let key = dictionary.keys.sorted()[Int.random(in: 0..<dictionary.count, using: &random)]
            if descend, let child = dictionary[key], child is [String: Any] || child is [Any] {
                dictionary[key] = mutateTree(child, kind: kind, depth: depth + 1)
            } else if kind == "delete key" {
                dictionary[key] = nil
            } else {
                dictionary[key] = replacement(for: dictionary[key]!, kind: kind)
            }
            return dictionary
        }
        if var array = node as? [Any], !array.isEmpty {
            let index = Int.random(in: 0..<array.count, using: &random)
            if kind == "duplicate element" && !descend {
                array.insert(array[index], at: index)
            } else if descend {
                array[index] = mutateTree(array[index], kind: kind, depth: depth + 1)
            } else if kind == "delete key" {
                array.remove(at: index)
            } else {
                array[index] = replacement(for: array[index], kind: kind)
            }
            return array
        }
        return replacement(for: node, kind: kind)
    }

    private mutating func replacement(for value: Any, kind: String) -> Any {
        if kind == "hostile string" || value is String && random.chance(0.5) {
            return SnapshotMutator.hostileStrings[
                Int.random(in: 0..<SnapshotMutator.hostileStrings.count, using: &random)]
        }
        let others: [Any] = [
            NSNull(), 0, -1, 1.5, true, "", [Any](), [String: Any](), Int.max, "integer", "string", "json",
        ]
        return others[Int.random(in: 0..<others.count, using: &random)]
    }
}
