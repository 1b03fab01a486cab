/// What a file given as a plugin file looks like when it is plainly not one: a binary
/// file, or records (CSV, JSON) meant for an import.
///
/// Parsing such a file as rule script gives one diagnostic per line or per stray byte
/// (1,226 for `/bin/ls`, 14 for a small CSV file), none of which says what went wrong:
/// the wrong file was named. Recognizing it first gives one diagnostic that does.
package enum ForeignFile: Sendable, Hashable {
    /// Not text: it holds NUL bytes (`what` names the format when its signature is known,
    /// e.g. "an executable (ELF)"); `line` and `column` are the first NUL's.
    case binary(what: String?, line: Int, column: Int)
    /// A CSV header row or record, `firstLine` as it is.
    case csv(firstLine: String)
    /// A JSON document or JSON Lines, starting with `{` or `[`.
    case json(firstCharacter: Character)

    /// Whether the file is text (its lines may be shown).
    package var isText: Bool {
        if case .binary = self { return false }
        return true
    }

    /// How far into a file to look for NUL bytes: as git decides "binary".
    static let window = 8000

    /// Recognizes `bytes` (a whole file), or nil when it may be a plugin file, however broken.
    package static func recognize(_ bytes: [UInt8]) -> ForeignFile? {
        // UTF-16 is text with a NUL in every other byte: the lexer says what it is.
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { return nil }
        let head = bytes.prefix(window)
        if let nul = head.firstIndex(of: 0) {
            let before = head[..<nul]
            let line = before.filter { $0 == 0x0A }.count + 1
            let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
            let column = String(decoding: head[lineStart..<nul], as: UTF8.self).count + 1
            return .binary(what: signature(of: bytes), line: line, column: column)
        }
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        // The first line that is neither blank nor a comment.
        var lines = head[start...].split(separator: 0x0A, omittingEmptySubsequences: false).lazy
            .map { String(decoding: $0, as: UTF8.self).trimmingWhitespace }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }.makeIterator()
        guard let first = lines.next() else { return nil }
        if let c = first.first, c == "{" || c == "[" { return .json(firstCharacter: c) }
        // A header row: a comma, and a first cell that is no directive (a rule script line
        // starts with its directive word: `pattern /a,b/` is rule script).
        let word = first.prefix { $0 != " " && $0 != "\t" && $0 != "," }
        if first.contains(","), !(["field", "form"] + FieldParser.directives + FormParser.directives).contains(String(word)) {
            return .csv(firstLine: first)
        }
        return nil
    }

    /// The formats a user is likely to name by mistake, by their first bytes.
    private static func signature(of bytes: [UInt8]) -> String? {
        let known: [([UInt8], String)] = [
            ([0x7F, 0x45, 0x4C, 0x46], "an executable (ELF)"),
            (Array("SQLite format 3".utf8) + [0], "an SQLite database"),
            ([0x50, 0x4B, 0x03, 0x04], "a ZIP archive (a .xlsx or .docx file is one)"),
            (Array("%PDF".utf8), "a PDF document"),
            ([0x1F, 0x8B], "a gzip archive"),
        ]
        return known.first { bytes.starts(with: $0.0) }?.1
    }

    /// The diagnostic for this file, at its start.
    package func diagnostic(file: String, sourceLine: String) -> Diagnostic {
        let start = SourceLocation(file: file, line: 1, column: 1)
        switch self {
        case let .binary(what, line, column):
            return Diagnostic(LanguageDiagnostic.binaryFile(what: what, line: line, column: column), at: start, sourceLine: "")
        case .csv(let firstLine):
            return Diagnostic(LanguageDiagnostic.recordsFile(kind: "CSV data", evidence: "a header row '\(firstLine.prefix(60))'"),
                              at: start, sourceLine: sourceLine)
        case .json(let c):
            return Diagnostic(LanguageDiagnostic.recordsFile(kind: "JSON", evidence: "it starts with '\(c)'"),
                              at: start, sourceLine: sourceLine)
        }
    }
}

extension String {
    var trimmingWhitespace: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" || c == "\r" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\r" { s.removeLast() }
        return String(s)
    }
}
