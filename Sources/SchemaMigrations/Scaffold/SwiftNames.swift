#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Idiomatic Swift names for what a database calls otherwise: a property for a column
/// (`AlbumId` → `albumID`, `created_at` → `createdAt`) and a type for a table
/// (`invoice_lines` → `InvoiceLines`). Introspection names properties with it, and
/// `migrate scaffold` writes the same names (one set of rules, in `SwiftIdentifier`).
///
/// ```swift
/// SwiftNames.propertyName(forColumn: "created_at")   // "createdAt"
/// SwiftNames.typeName(forTable: "play_list")          // "PlayList"
/// SwiftNames.spelled("default")                       // "`default`", as a declaration writes it
/// ```
///
/// The rules: the name is split into words at `_`, `-`, spaces and other characters that
/// cannot be in an identifier, and at case humps (`AlbumId` is `Album` `Id`, `HTTPStatus` is
/// `HTTP` `Status`); a property joins them lower camel case (the first word lower-cased), a type
/// upper camel case; `id`, `url`, `uuid` and a few more are acronyms after the first word
/// (`albumID`), as the Swift API Design Guidelines ask. A name that starts with a digit gets a
/// leading `_`; a name with no letter or digit at all becomes `column`/`Table`. A Swift keyword
/// is kept as the name and ``spelled(_:)`` puts it in backticks; the few that cannot name a
/// member even so (`self`, `init`, …) get `Column` appended, and a table named like a type a
/// declaration itself uses (`Date`, `String`, `Schema`…) gets `Table`: `DateTable`.
package enum SwiftNames {
    /// The lower camel case property name for a column.
    package static func propertyName(forColumn column: String) -> String {
        let base = SwiftIdentifier.propertyName(column)
        if SwiftIdentifier.isUsable(base) { return base }
        return !base.isEmpty && SwiftIdentifier.isUsable(base + "Column") ? base + "Column" : "column"
    }

    /// The upper camel case type name for a table.
    package static func typeName(forTable table: String) -> String {
        var name = SwiftIdentifier.typeName(table)
        if !SwiftIdentifier.isUsable(name) || SwiftIdentifier.keywords.contains(name) { name = "Table" }
        if ScaffoldNames.reservedTypeNames.contains(name) { name += "Table" }
        return name
    }

    /// A type name for each entity of `schema`, keyed by entity name, as `migrate scaffold`
    /// writes them: ``typeName(forTable:)``, with `2`, `3`… appended where two tables would get
    /// the same one (`user_account` and `UserAccount`).
    package static func typeNames(of schema: Schema) -> [String: String] {
        ScaffoldNames(schema: schema, taken: []).types
    }

    /// The name as a declaration writes it: in backticks when it is a Swift keyword (`` `default` ``).
    package static func spelled(_ name: String) -> String {
        SwiftIdentifier.escaped(name)
    }

    /// `name`, or `name2`, `name3`… if it is taken; records the one returned.
    static func unique(_ name: String, taken: inout Set<String>) -> String {
        var candidate = name
        var number = 2
        while taken.contains(candidate) {
            candidate = "\(name)\(number)"
            number += 1
        }
        taken.insert(candidate)
        return candidate
    }
}
