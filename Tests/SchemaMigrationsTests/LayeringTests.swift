// Layering of Sources/SchemaMigrations: one folder per concern, in the order a migration flows.
// Each folder uses only the folders listed before it:
//
//   Support → SQLite → Errors → Schema → Declaration → Scaffold → Planning → Execution → Reporting → Migrator
//
// except that SQLite's errors are MigrationErrors where a connection's environment fails (SQLite
// uses Errors), an error names a `Schema.Version` (Errors uses `Schema`), introspection names the
// properties it reads as the scaffold does (Schema uses `SwiftNames`), and a declared stage's
// closures, carried unopened by Declaration and Planning, take Execution's `MigrationContext`.
//
// The test reads every Swift file of each folder (subfolders belong to their folder), collects the
// types each folder declares at the top level, and fails on a file that names a type of a folder
// its own may not use, printing the file, the line and the type. A name declared twice in the
// module (a nested `Schema.Attribute` and the `Attribute` macro) is ambiguous and left out.

import Foundation
import Testing

@Suite struct LayeringTests {
    /// The folders in order: each may use the ones before it.
    static let order = [
        "Support", "SQLite", "Errors", "Schema", "Declaration", "Scaffold", "Planning", "Execution", "Reporting",
        "Migrator",
    ]

    /// What a folder may use besides the folders before it: a later folder, or some of its types.
    static let exceptions: [String: [String: Set<String>?]] = [
        "SQLite": ["Errors": nil],
        "Errors": ["Schema": ["Schema"]],
        "Schema": ["Scaffold": ["SwiftNames"]],
        "Declaration": ["Execution": ["MigrationContext"]],
        "Planning": ["Execution": ["MigrationContext"]],
    ]

    /// Whether `folder` may name `type`, declared in `owner`.
    static func allows(_ folder: String, _ type: String, declaredIn owner: String) -> Bool {
        guard let rank = order.firstIndex(of: folder), let ownerRank = order.firstIndex(of: owner) else { return true }
        if ownerRank <= rank { return true }
        guard let exception = exceptions[folder]?[owner] else { return false }
        return exception?.contains(type) ?? true
    }

    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/SchemaMigrations")

    @Test func eachFolderUsesOnlyTheFoldersBeforeIt() throws {
        let files = try Self.swiftFiles()
        #expect(Set(files.map(\.folder)) == Set(Self.order), "every folder has a place in the order")
        var declaredIn: [String: String] = [:]
        var declarations: [String: Int] = [:]
        for file in files {
            for (name, topLevel) in Self.declaredTypes(in: file.text) {
                declarations[name, default: 0] += 1
                if topLevel { declaredIn[name] = file.folder }
            }
        }
        declaredIn = declaredIn.filter { declarations[$0.key] == 1 }
        #expect(
            declaredIn["CodeFootprint"] == "Execution" && declaredIn["SQLiteConnection"] == "SQLite",
            "the declarations are found")
        var offences: [String] = []
        for file in files {
            for (number, line) in Self.codeLines(of: file.text).enumerated() {
                for word in Self.identifiers(in: line) {
                    guard let owner = declaredIn[word], !Self.allows(file.folder, word, declaredIn: owner) else {
                        continue
                    }
                    offences.append("\(file.path):\(number + 1): \(file.folder)/ uses \(word), declared in \(owner)/")
                }
            }
        }
        #expect(offences.isEmpty, Comment(rawValue: "\n" + offences.joined(separator: "\n")))
    }

    struct SourceFile {
        var folder: String
        var path: String
        var text: String
    }

    static func swiftFiles() throws -> [SourceFile] {
        let root = sources.standardizedFileURL.path
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        return try enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().map { relative in
            let folder = relative.split(separator: "/").first.map(String.init) ?? ""
            let text = try String(contentsOfFile: root + "/" + relative, encoding: .utf8)
            return SourceFile(folder: folder, path: "Sources/SchemaMigrations/" + relative, text: text)
        }
    }

    /// The types a file declares, each with whether it is at the top level (not nested, not local).
    static func declaredTypes(in text: String) -> [(name: String, topLevel: Bool)] {
        let keywords: Set<String> = ["struct", "class", "enum", "protocol", "actor", "typealias"]
        let modifiers: Set<String> = [
            "public", "package", "internal", "fileprivate", "private", "final", "indirect", "open",
        ]
        return codeLines(of: text).compactMap { line in
            let words = line.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" }).map(String.init)
            guard let index = words.firstIndex(where: { !modifiers.contains($0) }), keywords.contains(words[index]),
                index + 1 < words.count, line.trimmingCharacters(in: .whitespaces).hasPrefix(words[0])
            else { return nil }
            return (words[index + 1], line.first?.isLetter == true)
        }
    }

    /// The file's lines with comments and string literals blanked (line numbers kept).
    static func codeLines(of text: String) -> [String] {
        var lines: [String] = []
        var current = ""
        var inBlockComment = 0
        var inString = false
        var multiline = false
        let characters = Array(text)
        var index = 0
        func peek(_ offset: Int) -> Character? { index + offset < characters.count ? characters[index + offset] : nil }
        while index < characters.count {
            let character = characters[index]
            if character == "\n" {
                lines.append(current)
                current = ""
                if inString && !multiline { inString = false }
                index += 1
                continue
            }
            if inBlockComment > 0 {
                if character == "*" && peek(1) == "/" {
                    inBlockComment -= 1
                    index += 2
                    continue
                }
                if character == "/" && peek(1) == "*" {
                    inBlockComment += 1
                    index += 2
                    continue
                }
                index += 1
                continue
            }
            if inString {
                if character == "\\" {
                    index += 2
                    continue
                }
                if multiline && character == "\"" && peek(1) == "\"" && peek(2) == "\"" {
                    inString = false
                    index += 3
                    continue
                }
                if !multiline && character == "\"" { inString = false }
                index += 1
                continue
            }
            if character == "/" && peek(1) == "/" {
                while index < characters.count && characters[index] != "\n" { index += 1 }
                continue
            }
            if character == "/" && peek(1) == "*" {
                inBlockComment = 1
                index += 2
                continue
            }
            if character == "\"" {
                inString = true
                multiline = peek(1) == "\"" && peek(2) == "\""
                index += multiline ? 3 : 1
                continue
            }
            current.append(character)
            index += 1
        }
        lines.append(current)
        return lines
    }

    /// The identifiers on a line of code.
    static func identifiers(in line: String) -> [String] {
        line.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" }).map(String.init).filter {
            $0.first?.isUppercase == true
        }
    }
}
