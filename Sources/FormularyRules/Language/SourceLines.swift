/// The physical lines of one source file, kept so that diagnostics can show the line they
/// point into long after the tokens are gone (for example when `extends` is resolved).
package struct SourceLines: Sendable, Hashable {
    /// The file name as it appears in diagnostics, e.g. `plugins/age.field`.
    package var file: String
    /// Every physical line, without its line break. Invalid UTF-8 is shown as U+FFFD.
    package var lines: [String]

    /// The lines of `file`, as the lexer split them.
    package init(file: String, lines: [String]) {
        self.file = file
        self.lines = lines
    }

    /// The text of 1-based line `number`, or "" when there is no such line.
    package func text(ofLine number: Int) -> String {
        number >= 1 && number <= lines.count ? lines[number - 1] : ""
    }

    /// A catalogue message (`LanguageDiagnostic.unknownDirective(_:fixIt:note:)`, …)
    /// pointing at `location` in this file, with its source line filled in.
    package func diagnostic(_ message: DiagnosticMessage, at location: SourceLocation) -> Diagnostic {
        Diagnostic(message, at: location, sourceLine: location.file == file ? text(ofLine: location.line) : "")
    }

    /// The keyword a directive line starts with, or nil after reporting why the line is not
    /// one: it starts with something other than a word, repeats the file's `header`
    /// (`field`/`form` may only come first), or names no directive of `directives`.
    /// `.field` and `.form` lines start the same way; only the words differ. `misplaced`
    /// explains words that are directives elsewhere (a type's in a form, a form's in a type,
    /// `rule`): their own hint goes before any "did you mean", which would mislead for them
    /// (`date` is two letters from `same`).
    func directiveKeyword(of first: Token, header: String, noun: String, directives: [String],
                          someDirectives: String, expected: String, misplaced: [String: String] = [:],
                          into diagnostics: inout [Diagnostic]) -> String? {
        guard let keyword = first.word else {
            diagnostics.append(diagnostic(LanguageDiagnostic.expectedDirective(someDirectives, found: first.displayName),
                                          at: first.location))
            return nil
        }
        if keyword == header {
            diagnostics.append(diagnostic(LanguageDiagnostic.duplicateHeader(header, noun: noun), at: first.location))
            return nil
        }
        guard directives.contains(keyword) else {
            let fixIt = misplaced[keyword] == nil
                ? Suggestion.fixIt(for: keyword, in: directives + [header], replacing: first.location) : nil
            let note = misplaced[keyword] ?? (fixIt == nil ? "expected \(expected)" : nil)
            diagnostics.append(diagnostic(LanguageDiagnostic.unknownDirective(keyword, fixIt: fixIt, note: note),
                                          at: first.location))
            return nil
        }
        return keyword
    }
}
