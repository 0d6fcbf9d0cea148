import Foundation

/// Idiomatic Swift names for what a database calls otherwise: a property for a column
/// (`AlbumId` → `albumId`, `created_at` → `createdAt`) and a type for a table
/// (`invoice_lines` → `InvoiceLines`).
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
/// upper camel case. A name that starts with a digit gets a leading `_`; a name with no letter or
/// digit at all becomes `column`/`Table`. A Swift keyword is kept as the name and
/// ``spelled(_:)`` puts it in backticks; the few that cannot name a member even so (`self`,
/// `Self`, `init`, `Type`, …) and the types a declaration itself names (`String`, `Date`,
/// `Schema`…) get a suffix: `self_` for a property, `DateModel` for a type.
public enum SwiftNames {
    /// The lower camel case property name for a column.
    public static func propertyName(forColumn column: String) -> String {
        let words = self.words(of: column)
        guard let first = words.first else { return "column" }
        var name = lowercasedWord(first) + words.dropFirst().map(capitalizedWord).joined()
        if name.first?.isNumber == true { name = "_" + name }
        if unusableMemberNames.contains(name) { name += "_" }
        return name
    }

    /// The upper camel case type name for a table.
    public static func typeName(forTable table: String) -> String {
        var name = words(of: table).map(capitalizedWord).joined()
        if name.isEmpty { name = "Table" }
        if name.first?.isNumber == true { name = "_" + name }
        if unusableTypeNames.contains(name) { name += "Model" }
        return name
    }

    /// A type name for each entity of `schema`, keyed by entity name: ``typeName(forTable:)``,
    /// with `2`, `3`… appended where two tables would get the same one (`user_account` and
    /// `UserAccount`).
    public static func typeNames(of schema: Schema) -> [String: String] {
        var taken = Set<String>(), result: [String: String] = [:]
        for entity in schema.entities {
            result[entity.name] = unique(typeName(forTable: entity.name), taken: &taken)
        }
        return result
    }

    /// The name as a declaration writes it: in backticks when it is a Swift keyword (`` `default` ``).
    public static func spelled(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// `name`, or `name2`, `name3`… if it is taken; records the one returned.
    static func unique(_ name: String, taken: inout Set<String>) -> String {
        var candidate = name, number = 2
        while taken.contains(candidate) {
            candidate = "\(name)\(number)"
            number += 1
        }
        taken.insert(candidate)
        return candidate
    }

    /// The words of a name: runs of letters and digits, split further at case humps.
    static func words(of name: String) -> [String] {
        if name.utf8.allSatisfy({ $0 < 128 }) { return asciiWords(of: name) }
        var words: [String] = []
        for run in name.split(whereSeparator: { !($0.isLetter || $0.isNumber) }) {
            let characters = Array(run)
            var start = 0
            for index in characters.indices.dropFirst() {
                let previous = characters[index - 1], current = characters[index]
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                // `albumId` splits before `I`; `HTTPStatus` before the `S` that starts `Status`.
                let hump = current.isUppercase && (previous.isLowercase || previous.isNumber)
                let acronymEnd = current.isUppercase && previous.isUppercase && (next?.isLowercase ?? false)
                if hump || acronymEnd {
                    words.append(String(characters[start..<index]))
                    start = index
                }
            }
            words.append(String(characters[start...]))
        }
        return words
    }

    /// ``words(of:)`` on ASCII bytes, without Unicode property look-ups: the same rules.
    private static func asciiWords(of name: String) -> [String] {
        let bytes = Array(name.utf8)
        func isUpper(_ byte: UInt8) -> Bool { byte >= 65 && byte <= 90 }
        func isLower(_ byte: UInt8) -> Bool { byte >= 97 && byte <= 122 }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
        var words: [String] = [], start: Int?
        for index in bytes.indices {
            let byte = bytes[index]
            guard isUpper(byte) || isLower(byte) || isDigit(byte) else {
                if let first = start { words.append(String(decoding: bytes[first..<index], as: UTF8.self)) }
                start = nil
                continue
            }
            guard let first = start else { start = index; continue }
            if index > first, isUpper(byte) {
                let previous = bytes[index - 1]
                let next = index + 1 < bytes.count ? bytes[index + 1] : 0
                if isLower(previous) || isDigit(previous) || (isUpper(previous) && isLower(next)) {
                    words.append(String(decoding: bytes[first..<index], as: UTF8.self))
                    start = index
                }
            }
        }
        if let first = start { words.append(String(decoding: bytes[first...], as: UTF8.self)) }
        return words
    }

    /// `Album` → `album`, `HTTP` → `http`, `ID` → `id`.
    private static func lowercasedWord(_ word: String) -> String {
        word.lowercased()
    }

    /// `album` → `Album`, `ID` stays `ID`, `HTTP` stays `HTTP`.
    private static func capitalizedWord(_ word: String) -> String {
        guard let first = word.first else { return word }
        return first.uppercased() + word.dropFirst()
    }

    /// Swift's reserved words: a property so named is written in backticks.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout", "internal", "let",
        "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias",
        "var", "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in",
        "repeat", "return", "throw", "switch", "where", "while", "as", "await", "false", "is", "nil", "super", "throws", "true", "try",
        "Any", "some", "any",
    ]

    /// Names a member cannot usefully have even in backticks.
    private static let unusableMemberNames: Set<String> = ["self", "Self", "super", "init", "deinit", "subscript", "Type", "Protocol", "_"]

    /// Type names a scaffolded model cannot take: keywords and the types its declarations name.
    private static let unusableTypeNames: Set<String> = [
        "Self", "Any", "Type", "Protocol", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
        "Double", "Float", "Bool", "String", "Date", "Data", "UUID", "URL", "Decimal", "Optional", "Array", "Set", "Dictionary",
        "Schema", "Attribute", "Relationship", "Transient", "PersistentModel", "VersionedSchema", "SchemaMigrationPlan", "MigrationStage",
        "ForeignKeyReference", "Foundation", "SchemaMigrations",
    ]
}
