/// Renders diagnostics the way compilers do:
///
/// ```
/// plugins/age.field:4:1: error: unknown directive 'rnage'; did you mean 'range'?
/// rnage $min...$max
/// ^~~~~
/// ```
///
/// The caret line copies the tabs that precede the token and gives wide characters (CJK,
/// emoji) two columns, so the caret stays under the token in a terminal.
package struct DiagnosticFormatter: Sendable {
    /// Show the source line and the caret under the token (when the source line is known).
    package var showsSourceLine: Bool

    /// A formatter; `showsSourceLine: false` prints only the `file:line:column:` lines.
    package init(showsSourceLine: Bool = true) {
        self.showsSourceLine = showsSourceLine
    }

    /// `file:line:column: severity: text`, where `text` is the message followed by its
    /// fix-its' and notes' messages (`Diagnostic.text`: `…; did you mean 'range'?`). The
    /// file name and the text (which may quote the file's text) have their control
    /// characters escaped (`TerminalText`): a plugin folder may hold a file named like an
    /// escape sequence.
    package func header(_ diagnostic: Diagnostic) -> String {
        let l = diagnostic.location
        return TerminalText.escaped("\(l.file):\(l.line):\(l.column): \(diagnostic.severity.rawValue): \(diagnostic.text)")
    }

    /// One diagnostic, without a trailing newline.
    package func format(_ diagnostic: Diagnostic) -> String {
        guard showsSourceLine, !diagnostic.sourceLine.isEmpty else { return header(diagnostic) }
        let line = String(diagnostic.sourceLine.map(Self.shown))
        return header(diagnostic) + "\n" + line + "\n" + Self.caretLine(for: diagnostic)
    }

    /// A character of the source line as it is echoed: control and bidirectional characters,
    /// which a terminal would act on (an escape sequence, a right-to-left override in a
    /// file from a shared plugin folder), as U+FFFD, one column like what they replace.
    static func shown(_ character: Character) -> Character {
        if character == "\t" { return character }
        if character == "\r" { return " " }
        return character.unicodeScalars.contains(where: TerminalText.acts) ? "\u{FFFD}" : character
    }

    /// Several diagnostics, one after the other, each ending in a newline.
    package func format(_ diagnostics: [Diagnostic]) -> String {
        diagnostics.map { format($0) + "\n" }.joined()
    }

    /// The `^~~~` line for a diagnostic's token.
    package static func caretLine(for diagnostic: Diagnostic) -> String {
        let characters = Array(diagnostic.sourceLine)
        let start = max(0, diagnostic.location.column - 1)
        var caret = ""
        for index in 0..<start {
            if index < characters.count, characters[index] == "\t" {
                caret.append("\t")
            } else {
                caret += String(repeating: " ", count: index < characters.count ? width(of: characters[index]) : 1)
            }
        }
        let end = min(characters.count, start + diagnostic.location.length)
        let tokenWidth = start < end ? characters[start..<end].reduce(0) { $0 + width(of: $1) } : 1
        return caret + "^" + String(repeating: "~", count: max(0, tokenWidth - 1))
    }

    /// Terminal columns a character takes: 2 for East Asian wide characters and emoji,
    /// 1 otherwise.
    static func width(of character: Character) -> Int {
        guard let first = character.unicodeScalars.first, first.value >= 0x1100 else { return 1 }
        if character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        if first.properties.isEmojiPresentation { return 2 }
        switch first.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}

extension Diagnostic: CustomStringConvertible {
    /// The diagnostic as `DiagnosticFormatter` renders it.
    public var description: String { DiagnosticFormatter().format(self) }
}
