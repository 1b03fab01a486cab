/// The tokens of a whole file, grouped into logical lines, with every lexical diagnostic.
package struct LexedSource: Sendable, Hashable {
    package var source: SourceLines
    package var lines: [LogicalLine]
    package var diagnostics: [Diagnostic]
}

/// Turns the raw bytes of a `.field` or `.form` file into logical lines of tokens.
///
/// The lexer works on bytes so that invalid UTF-8 is reported with its line and column
/// instead of being silently replaced. It never stops early: every lexical error of the
/// file is reported, and a line with an error is marked so that the parser skips it.
package enum Lexer {
    /// Lexes a whole file. A UTF-8 byte order mark is skipped; `\r\n` line breaks work.
    ///
    /// A line ending in `\` (outside a string, regex or comment) continues on the next
    /// line; a `\` inside a comment is part of the comment, so it does not continue it.
    package static func lex(_ bytes: [UInt8], file: String) -> LexedSource {
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        // A UTF-16 file would otherwise give an error for every other byte (NULs) and echo
        // its lines as garbage: say once what it is instead.
        if bytes.count >= 2, let encoding = bytes[0] == 0xFF && bytes[1] == 0xFE ? "UTF-16LE"
                                          : bytes[0] == 0xFE && bytes[1] == 0xFF ? "UTF-16BE" : nil {
            let diagnostic = Diagnostic(LanguageDiagnostic.utf16File(encoding),
                                        at: SourceLocation(file: file, line: 1, column: 1), sourceLine: "")
            return LexedSource(source: SourceLines(file: file, lines: []), lines: [], diagnostics: [diagnostic])
        }

        var ranges: [Range<Int>] = []
        var lineStart = start
        var i = start
        while i < bytes.count {
            if bytes[i] == 0x0A {
                ranges.append(lineStart..<i)
                lineStart = i + 1
            }
            i += 1
        }
        if lineStart < bytes.count { ranges.append(lineStart..<bytes.count) }

        var texts: [String] = []
        texts.reserveCapacity(ranges.count)
        var lines: [LogicalLine] = []
        var diagnostics: [Diagnostic] = []
        var pending: LogicalLine?

        for (index, fullRange) in ranges.enumerated() {
            let lineNumber = index + 1
            var range = fullRange
            if range.count > 0, bytes[range.upperBound - 1] == 0x0D {
                range = range.lowerBound..<(range.upperBound - 1)
            }
            let text = String(decoding: bytes[range], as: UTF8.self)
            texts.append(text)
            var logical = pending ?? LogicalLine(tokens: [], hasLexicalErrors: false, firstLine: lineNumber)
            let continues: Bool
            if let bad = firstInvalidUTF8Offset(bytes, in: range) {
                let column = String(decoding: bytes[range.lowerBound..<bad], as: UTF8.self).count + 1
                diagnostics.append(Diagnostic(LanguageDiagnostic.invalidUTF8(byte: bytes[bad]),
                                              at: SourceLocation(file: file, line: lineNumber, column: column),
                                              sourceLine: text))
                logical.hasLexicalErrors = true
                let trimmed = bytes[range].reversed().drop { $0 == 0x20 || $0 == 0x09 }
                continues = trimmed.first == UInt8(ascii: "\\")
            } else {
                var scanner = LineScanner(text: text, line: lineNumber, file: file)
                scanner.scan()
                logical.tokens += scanner.tokens
                if !scanner.diagnostics.isEmpty {
                    logical.hasLexicalErrors = true
                    diagnostics += scanner.diagnostics
                }
                continues = scanner.continues
            }
            if continues {
                pending = logical
            } else {
                pending = nil
                if !logical.tokens.isEmpty || logical.hasLexicalErrors { lines.append(logical) }
            }
        }
        if let last = pending, !last.tokens.isEmpty || last.hasLexicalErrors { lines.append(last) }
        return LexedSource(source: SourceLines(file: file, lines: texts), lines: lines,
                           diagnostics: diagnostics)
    }

    /// Lexes one line of text, e.g. a type reference typed on the command line.
    package static func lex(_ text: String, file: String) -> LexedSource {
        lex(Array(text.utf8), file: file)
    }
}
