#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Schema {
    /// The schema as a JSON snapshot: sorted keys, two-space indentation, stable across platforms,
    /// so a checked-in snapshot changes only when the schema does.
    public func snapshotJSON() throws -> String {
        try CanonicalJSON.encodePretty(Snapshot(schema: self, hash: versionHash)) + "\n"
    }

    /// The schema in canonical (compact) JSON, as stored in the database's metadata.
    func compactJSON() throws -> String {
        try CanonicalJSON.encode(Snapshot(schema: self, hash: versionHash))
    }

    /// Reads a snapshot written by ``snapshotJSON()``.
    /// - Throws: `MigrationError` with code `invalidSchema` when the JSON is malformed (a key
    ///   named twice with different values included) or its recorded hash does not match its content (the snapshot was edited by hand).
    public init(snapshotJSON data: Data) throws {
        self = try Schema.readSnapshot(data).schema
    }

    /// Reads a snapshot as ``init(snapshotJSON:)`` does, and hands out the hash it computed to
    /// check it: a plan directory's reader needs every version's hash.
    static func readSnapshot(_ data: Data) throws -> (schema: Schema, hash: String) {
        let snapshot: Snapshot
        do {
            if let scanned = Snapshot(scanning: data) {
                snapshot = scanned
            } else {
                // JSONDecoder reads (and refuses, with its own errors) what the reader without
                // Codable does not take, but for a key named twice, which it reads one way of two.
                if let duplicate = JSONDuplicateKey.first(in: Array(data)) {
                    throw MigrationError(
                        .invalidSchema, "the schema snapshot names \(duplicate)",
                        remedy: "keep the value you mean and remove the other, or regenerate it with `migrate snapshot`"
                    )
                }
                snapshot = try JSONDecoder().decode(Snapshot.self, from: data)
            }
        } catch let error as MigrationError {
            throw error
        } catch {
            throw MigrationError(
                .invalidSchema,
                "the schema snapshot is not valid JSON of a schema: \(Schema.describe(decodingError: error))",
                remedy: "regenerate it with `migrate snapshot`")
        }
        let schema = snapshot.schema
        let versionHash = schema.versionHash
        if let hash = snapshot.hash, hash != versionHash {
            throw MigrationError(
                .invalidSchema,
                "the snapshot of version \(schema.version) records hash \(hash) but its content hashes to \(versionHash)",
                version: schema.version,
                remedy: "a released version must not change: restore the snapshot, or declare a new version")
        }
        return (schema, versionHash)
    }

    static func describe(decodingError error: Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return keys.isEmpty ? "" : " at \(keys)"
        }
        switch error {
        case .keyNotFound(let key, let context): return "missing key '\(key.stringValue)'\(path(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return context.debugDescription + path(context)
        @unknown default: return "\(error)"
        }
    }
}

/// The on-disk form of a schema snapshot: the schema plus its hash, so tampering shows.
struct Snapshot: Codable {
    var format = 1
    var version: Schema.Version
    var hash: String?
    var entities: [Schema.Entity]
    /// Absent when the version declares none, so snapshots without them keep their form.
    var sqlObjects: [Schema.SQLObject]?
    /// Absent unless the version sets them.
    var applicationID: Int?
    var userVersion: Int?

    init(schema: Schema, hash: String) {
        self.version = schema.version
        self.hash = hash
        self.entities = schema.entities
        self.sqlObjects = schema.sqlObjects.isEmpty ? nil : schema.sqlObjects
        self.applicationID = schema.applicationID
        self.userVersion = schema.userVersion
    }

    var schema: Schema {
        var schema = Schema(version: version, entities: entities, sqlObjects: sqlObjects ?? [])
        schema.applicationID = applicationID
        schema.userVersion = userVersion
        return schema
    }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decodeIfPresent(Int.self, forKey: .format) ?? 1
        version = try container.decode(Schema.Version.self, forKey: .version)
        hash = try container.decodeIfPresent(String.self, forKey: .hash)
        entities = try container.decode([Schema.Entity].self, forKey: .entities)
        sqlObjects = try container.decodeIfPresent([Schema.SQLObject].self, forKey: .sqlObjects)
        applicationID = try container.decodeIfPresent(Int.self, forKey: .applicationID)
        userVersion = try container.decodeIfPresent(Int.self, forKey: .userVersion)
    }
}
