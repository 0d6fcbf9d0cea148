/// Swift names made from SQL names: `album_tracks` → `AlbumTracks`, `ArtistId` → `artistID`,
/// `default` → `` `default` ``, `2fa` → `_2fa`.
///
/// Words are split at underscores, dashes, spaces, other punctuation and case changes
/// (`createdAt`, `HTTPStatus`); `id`, `url` and `uuid` are written as acronyms (`ID`, `URL`,
/// `UUID`) after the first word, as the Swift API Design Guidelines ask. The result is a valid
/// identifier, backquoted when it is a keyword.
enum SwiftIdentifier {
    /// A type name: every word capitalized. Empty when the name has no letter or digit.
    static func typeName(_ sql: String) -> String {
        let words = self.words(sql)
        return prefixedIfDigit(words.map(capitalized).joined())
    }

    /// A property name: the first word lower-cased, the others capitalized. Empty when the name
    /// has no letter or digit.
    static func propertyName(_ sql: String) -> String {
        let words = self.words(sql)
        guard let first = words.first else { return "" }
        let head = first.lowercased()
        return prefixedIfDigit(head + words.dropFirst().map(capitalized).joined())
    }

    /// `name` as it is written in source: backquoted when it is a keyword.
    static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// Whether `name` can be written as an identifier at all (with backquotes when a keyword):
    /// letters, digits and underscores, not starting with a digit, and not one of the few names
    /// even backquotes do not make usable as a stored property (`self`, `init`, `Type`…).
    static func isUsable(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !unusable.contains(name) else { return false }
        guard first == "_" || isLetter(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || isLetter($0) || isDigit($0) }
    }

    // MARK: Words

    /// The words of an SQL name: split at every character that is not a letter or digit, and at
    /// case changes (`albumId` → album, Id; `HTTPStatus` → HTTP, Status; `Track2Id` → Track2, Id).
    static func words(_ sql: String) -> [String] {
        if sql.utf8.allSatisfy({ $0 < 0x80 }) { return asciiWords(Array(sql.utf8)) }
        var words: [String] = []
        var current: [Unicode.Scalar] = []
        let scalars = Array(sql.unicodeScalars)
        func flush() {
            if !current.isEmpty { words.append(String(String.UnicodeScalarView(current))) }
            current = []
        }
        for (index, scalar) in scalars.enumerated() {
            guard isLetter(scalar) || isDigit(scalar) else {
                flush()
                continue
            }
            if let previous = current.last {
                let next = index + 1 < scalars.count ? scalars[index + 1] : nil
                let lowerToUpper = (isLower(previous) || isDigit(previous)) && isUpper(scalar)
                let acronymEnd = isUpper(previous) && isUpper(scalar) && next.map(isLower) == true
                if lowerToUpper || acronymEnd { flush() }
            }
            current.append(scalar)
        }
        flush()
        return words
    }

    /// ``words(_:)`` for ASCII names, byte by byte.
    private static func asciiWords(_ bytes: [UInt8]) -> [String] {
        func isUpper(_ byte: UInt8) -> Bool { byte >= 65 && byte <= 90 }
        func isLower(_ byte: UInt8) -> Bool { byte >= 97 && byte <= 122 }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
        var words: [String] = []
        var start = -1
        for index in bytes.indices {
            let byte = bytes[index]
            guard isUpper(byte) || isLower(byte) || isDigit(byte) else {
                if start >= 0 { words.append(String(decoding: bytes[start..<index], as: UTF8.self)) }
                start = -1
                continue
            }
            if start >= 0 {
                let previous = bytes[index - 1]
                let lowerToUpper = (isLower(previous) || isDigit(previous)) && isUpper(byte)
                let acronymEnd =
                    isUpper(previous) && isUpper(byte) && index + 1 < bytes.count && isLower(bytes[index + 1])
                if lowerToUpper || acronymEnd {
                    words.append(String(decoding: bytes[start..<index], as: UTF8.self))
                    start = index
                }
            } else {
                start = index
            }
        }
        if start >= 0 { words.append(String(decoding: bytes[start...], as: UTF8.self)) }
        return words
    }

    /// `id` → `ID`, `url` → `URL`, `uuid` → `UUID`; any other word with its first letter upper-cased
    /// and the rest as written when the word is mixed case (`iPhone` stays), lower-cased when it is
    /// all capitals (`NAME` → `Name`).
    private static func capitalized(_ word: String) -> String {
        if let acronym = acronyms[word.lowercased()] { return acronym }
        let rest = word.dropFirst()
        let tail = rest.allSatisfy { !$0.isLowercase } ? rest.lowercased() : String(rest)
        return word.prefix(1).uppercased() + tail
    }

    private static func prefixedIfDigit(_ name: String) -> String {
        guard let first = name.unicodeScalars.first, isDigit(first) else { return name }
        return "_" + name
    }

    private static let acronyms = [
        "id": "ID", "url": "URL", "uuid": "UUID", "json": "JSON", "html": "HTML", "http": "HTTP", "sql": "SQL",
    ]

    // ASCII letters and digits, plus non-ASCII letters (Swift accepts them in identifiers).
    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
    private static func isUpper(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? ("A"..."Z").contains(scalar) : scalar.properties.isUppercase
    }
    private static func isLower(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? ("a"..."z").contains(scalar) : scalar.properties.isLowercase
    }
    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII
            ? (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar))
            : scalar.properties.isAlphabetic && scalar.properties.isXIDContinue
    }

    // MARK: Reserved words

    /// Swift's keywords: usable as names only between backquotes.
    static let keywords: Set<String> = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func",
        "import", "init",
        "inout", "internal", "let", "nonisolated", "open", "operator", "private", "precedencegroup", "protocol",
        "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer",
        "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as",
        "await",
        "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "_",
    ]

    /// Names a stored property cannot have even backquoted, or that would confuse the model
    /// (`Type`, `Protocol` are members of every type).
    private static let unusable: Set<String> = [
        "self", "Self", "init", "deinit", "subscript", "super", "Type", "Protocol", "_",
    ]
}
