/// "Did you mean" suggestions for misspelled words.
package enum Suggestion: Sendable {
    /// The candidate nearest to `word`, when it is near enough to be a plausible typo:
    /// at most 2 edits (1 for words of up to 3 characters), counting a swap of two
    /// neighbouring characters as one edit (`rnage` → `range`). Ties go to the earlier
    /// candidate, so callers list the most common words first.
    package static func nearest(to word: String, in candidates: some Sequence<String>) -> String? {
        let lowered = word.lowercased()
        var best: (String, Int)?
        for candidate in candidates where candidate != word {
            let limit = min(candidate.count, lowered.count) <= 3 ? 1 : 2
            let distance = editDistance(lowered, candidate)
            if distance <= limit, distance < (best?.1 ?? .max) { best = (candidate, distance) }
        }
        return best?.0
    }

    /// `"; did you mean 'x'?"` or "", for messages that are not diagnostics (command-line
    /// errors); a diagnostic carries its suggestion as a fix-it (`fixIt(for:in:replacing:)`).
    package static func hint(for word: String, in candidates: some Sequence<String>) -> String {
        nearest(to: word, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// The message of a suggestion: `did you mean 'x'?`.
    package static func didYouMean(_ suggestion: String) -> String {
        "did you mean '\(suggestion)'?"
    }

    /// "did you mean 'x'?" as a fix-it that puts `prefix` + the nearest candidate in
    /// place of `range` (the misspelled token; `prefix` is what the token has before the
    /// word, such as the `$` of a parameter reference), or nil when no candidate is near.
    package static func fixIt(for word: String, in candidates: some Sequence<String>,
                             replacing range: SourceLocation, prefix: String = "") -> Diagnostic.FixIt? {
        nearest(to: word, in: candidates).map { Diagnostic.FixIt(didYouMean($0), replacing: range, with: prefix + $0) }
    }

    /// "did you mean 'x'?" as a note, for a word whose place in the source is not known
    /// exactly enough to replace it; nil when no candidate is near.
    package static func note(for word: String, in candidates: some Sequence<String>) -> Diagnostic.Note? {
        nearest(to: word, in: candidates).map { Diagnostic.Note(didYouMean($0)) }
    }

    /// Optimal string alignment distance (Levenshtein plus adjacent transpositions).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        // Long words cannot be within 2 edits of much shorter ones; skip the table.
        if abs(x.count - y.count) > 2 { return abs(x.count - y.count) }
        var table = Array(repeating: Array(repeating: 0, count: y.count + 1), count: x.count + 1)
        for i in 0...x.count { table[i][0] = i }
        for j in 0...y.count { table[0][j] = j }
        for i in 1...x.count {
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                var d = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                    d = min(d, table[i - 2][j - 2] + 1)
                }
                table[i][j] = d
            }
        }
        return table[x.count][y.count]
    }

    /// `a, b or c`, quoted.
    static func list(_ words: [String]) -> String {
        let quoted = words.map { "'\($0)'" }
        guard quoted.count > 1 else { return quoted.first ?? "" }
        return quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
    }
}
