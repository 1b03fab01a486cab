/// The physical lines of one source file, kept so that diagnostics can show the line they
/// point into long after the tokens are gone (for example when `extends` is resolved).
public struct SourceLines: Sendable, Hashable {
    /// The file name as it appears in diagnostics, e.g. `plugins/age.field`.
    public var file: String
    /// Every physical line, without its line break. Invalid UTF-8 is shown as U+FFFD.
    public var lines: [String]

    /// Keeps a file's lines under its name.
    public init(file: String, lines: [String]) {
        self.file = file
        self.lines = lines
    }

    /// The text of 1-based line `number`, or "" when there is no such line.
    public func text(ofLine number: Int) -> String {
        number >= 1 && number <= lines.count ? lines[number - 1] : ""
    }

    /// A diagnostic pointing at `location` in this file, with its source line filled in.
    public func diagnostic(_ id: DiagnosticID, _ severity: Diagnostic.Severity = .error,
                           _ message: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(id: id.rawValue, severity: severity, message: message, location: location,
                   sourceLine: location.file == file ? text(ofLine: location.line) : "")
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
            diagnostics.append(diagnostic(
                .unexpectedToken, .error,
                "expected a directive such as \(someDirectives), found \(first.displayName)", at: first.location))
            return nil
        }
        if keyword == header {
            diagnostics.append(diagnostic(
                .duplicateHeader, .error,
                "a .\(header) file declares one \(noun): '\(header)' may only be its first directive",
                at: first.location))
            return nil
        }
        guard directives.contains(keyword) else {
            let hint = misplaced[keyword].map { "; \($0)" }
                ?? Suggestion.nearest(to: keyword, in: directives + [header]).map { "; did you mean '\($0)'?" }
                ?? "; expected \(expected)"
            diagnostics.append(diagnostic(.unknownDirective, .error,
                                          "unknown directive '\(keyword)'\(hint)", at: first.location))
            return nil
        }
        return keyword
    }
}
