/// A key of a message catalog: a type's rule or text (`age.range`, `age.label`), a form
/// field's (`form signup.age.required`), a form's rule's (`form signup.*.same`) or a default
/// of every form's rules (`form *.*.same`).
package struct MessageKey: Sendable, Hashable, CustomStringConvertible {
    /// The form, for a form's key; nil for a type's.
    package var form: String?
    /// The type, or the form's field.
    package var owner: String
    /// The rule's name, or one of ``texts`` (`label`, `help`, `placeholder`), or a form
    /// field's `required`, or a form's rule's name (field `*`), or a default's item (form
    /// and field `*`, ``RuleTexts/english``).
    package var item: String

    /// The texts a type or form field shows besides its messages.
    package static let texts = ["label", "help", "placeholder"]

    /// A type's key.
    package init(type: String, item: String) {
        form = nil
        owner = type
        self.item = item
    }

    /// `form *.*.required`: the default `required` message of every form's fields.
    package static let anyRequired = MessageKey(form: "*", field: "*", item: "required")

    /// `form FORM.*.RULE`: the message of a form's rules called RULE (cross-field rules).
    package init(form: String, rule: String) {
        self.init(form: form, field: "*", item: rule)
    }

    /// `form *.*.ITEM`: a default message of every form's rules (``RuleTexts/english``).
    package init(anyForm item: String) {
        self.init(form: "*", field: "*", item: item)
    }

    /// A form field's key.
    package init(form: String, field: String, item: String) {
        self.form = form
        owner = field
        self.item = item
    }

    /// The key as a catalog spells it.
    package var description: String { form.map { "form \($0).\(owner).\(item)" } ?? "\(owner).\(item)" }
}

/// One message catalog file, `LOCALE.messages`, parsed: its translations and its problems.
///
/// A line is `KEY = "TEXT"`: `TYPE.RULE` or `TYPE.label` for a type, `form
/// FORM.FIELD.ITEM` for a form's field, `form FORM.*.RULE` for a form's rule, `form
/// *.*.ITEM` for a default of every form. The text is a string as plugins write them (the same
/// escapes), with the same placeholders as the message it translates. `#` starts a comment.
package struct MessageFile: Sendable {
    /// `.messages`.
    package static let fileExtension = ".messages"

    /// One translation.
    package struct Entry: Sendable, Hashable {
        /// What it translates.
        package var key: MessageKey
        /// The translated text, placeholders still in it.
        package var text: String
        /// Where the key stands.
        package var location: SourceLocation
    }

    /// The locale the file's name gives; nil when it gives none (an `invalid-locale` error).
    package var locale: String?
    /// The file's lines, for diagnostics found later (by the lint).
    package var source: SourceLines
    /// The translations, in file order.
    package var entries: [Entry]
    /// Problems of the file on its own.
    package var diagnostics: [Diagnostic]

    /// Parses a catalog; every problem is reported and a bad line is skipped.
    package static func parse(bytes: [UInt8], file: String) -> MessageFile {
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        var texts: [String] = []
        var entries: [Entry] = []
        var diagnostics: [Diagnostic] = []
        var seen: [MessageKey: Int] = [:]
        let locale = LocaleTag.ofCatalogFile(file)
        if locale == nil {
            let name = file.split(separator: "/").last.map(String.init) ?? file
            diagnostics.append(Diagnostic(MessagesDiagnostic.invalidLocale(name),
                                          at: SourceLocation(file: file, line: 1, column: 1), sourceLine: ""))
        }
        var lineStart = start
        var number = 0
        while lineStart < bytes.count {
            number += 1
            let newline = bytes[lineStart...].firstIndex(of: 0x0A) ?? bytes.count
            var range = lineStart..<newline
            lineStart = newline + 1
            if range.count > 0, bytes[range.upperBound - 1] == 0x0D { range = range.lowerBound..<(range.upperBound - 1) }
            let text = String(decoding: bytes[range], as: UTF8.self)
            texts.append(text)
            if let bad = firstInvalidUTF8Offset(bytes, in: range) {
                let column = String(decoding: bytes[range.lowerBound..<bad], as: UTF8.self).count + 1
                diagnostics.append(Diagnostic(LanguageDiagnostic.invalidUTF8(byte: bytes[bad]),
                                              at: SourceLocation(file: file, line: number, column: column),
                                              sourceLine: text))
                continue
            }
            guard let entry = parseLine(text, line: number, file: file, into: &diagnostics) else { continue }
            if let earlier = seen[entry.key] {
                diagnostics.append(Diagnostic(MessagesDiagnostic.duplicateKey(entry.key.description, earlierLine: earlier),
                                              at: entry.location, sourceLine: text))
                continue
            }
            seen[entry.key] = number
            entries.append(entry)
        }
        return MessageFile(locale: locale, source: SourceLines(file: file, lines: texts), entries: entries,
                           diagnostics: diagnostics)
    }

    /// One line: nothing (blank or a comment), or an entry, or nil after reporting why not.
    private static func parseLine(_ text: String, line: Int, file: String,
                                  into diagnostics: inout [Diagnostic]) -> Entry? {
        var scanner = LineScanner(text: text, line: line, file: file)
        let scalars = scanner.scalars
        func skipBlanks(_ k: inout Int) { while k < scalars.count, scalars[k] == " " || scalars[k] == "\t" { k += 1 } }
        func word(_ k: inout Int) -> Int {
            let start = k
            while k < scalars.count, !" \t=\"#".unicodeScalars.contains(scalars[k]) { k += 1 }
            return start
        }
        var k = 0
        skipBlanks(&k)
        guard k < scalars.count, scalars[k] != "#" else { return nil }
        var keyStart = word(&k)
        var isForm = false
        if scanner.slice(keyStart, k) == "form", k < scalars.count, scalars[k] == " " || scalars[k] == "\t" {
            isForm = true
            skipBlanks(&k)
            keyStart = word(&k)
        }
        let location = scanner.location(keyStart, max(k, keyStart + 1))
        let spelled = scanner.slice(keyStart, k)
        guard !spelled.isEmpty else {
            diagnostics.append(Diagnostic(MessagesDiagnostic.invalidLine("expected a message key"),
                                          at: location, sourceLine: text))
            return nil
        }
        let parts = spelled.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        // `*` stands for every form and field (`form *.*.same`, a default) or for every
        // field (`form signup.*.same`, a form's rule): never for a form alone.
        let wildcard = isForm && parts.count == 3 && parts[1] == "*" && parts[2] != "*"
        guard parts.count == (isForm ? 3 : 2),
              parts.enumerated().allSatisfy({ k, part in NameRules.isValid(part) || (wildcard && k < 2 && part == "*") }) else {
            diagnostics.append(Diagnostic(MessagesDiagnostic.invalidKey(spelled, form: isForm), at: location, sourceLine: text))
            return nil
        }
        let key = isForm ? MessageKey(form: parts[0], field: parts[1], item: parts[2])
                         : MessageKey(type: parts[0], item: parts[1])
        scanner.i = k
        scanner.scan()
        diagnostics += scanner.diagnostics
        guard scanner.diagnostics.isEmpty else { return nil }
        let tokens = scanner.tokens
        guard tokens.first?.kind == .punctuation("=") else {
            let problem = tokens.first.map { "expected '=' after '\(spelled)', found \($0.displayName)" }
                ?? "expected '=' and the message after '\(spelled)'"
            diagnostics.append(Diagnostic(MessagesDiagnostic.invalidLine(problem),
                                          at: tokens.first?.location ?? location, sourceLine: text))
            return nil
        }
        guard tokens.count == 2, case .string(let message) = tokens[1].kind, !scanner.continues else {
            let problem = tokens.count < 2 ? "expected the message, a string, after '='"
                : tokens.count > 2 ? "unexpected \(tokens[2].displayName) after the message; expected the end of the line"
                : scanner.continues ? "a message ends on its line; write \\n for a line break"
                : "expected the message, a string, after '=', found \(tokens[1].displayName)"
            let at = tokens.count > 2 ? tokens[2].location : tokens.last?.location ?? location
            diagnostics.append(Diagnostic(MessagesDiagnostic.invalidLine(problem), at: at, sourceLine: text))
            return nil
        }
        return Entry(key: key, text: message, location: location)
    }
}
