/// "Did you mean": the known word closest to a mistyped one, when it is close enough to be meant.
/// The one place for it: the command's options and subcommands, and the names a plan refers to
/// (an `originalName`, an entity or property a custom stage names).
///
/// ```swift
/// Suggestion.closest(to: "--databse", among: ["--database", "--plan"])   // "--database"
/// Suggestion.remedy(for: "aply", among: ["apply", "plan"])               // "did you mean 'apply'?"
/// ```
package enum Suggestion {
    /// The candidate at the smallest edit distance from `word`, if at most a third of its length
    /// (at least 1, at most 3) edits away; ties go to the first listed.
    package static func closest(to word: String, among candidates: [String]) -> String? {
        let limit = min(3, max(1, word.count / 3))
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(Array(word.lowercased()), Array(candidate.lowercased()))
            if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// `did you mean 'apply'?`, or nil when no candidate is close.
    package static func remedy(for word: String, among candidates: [String]) -> String? {
        closest(to: word, among: candidates).map { "did you mean '\($0)'?" }
    }

    /// Levenshtein distance, with a transposition of two neighbours counting as one edit.
    /// - Complexity: O(a × b).
    package static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previousPrevious[j - 2] + 1)
                }
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
