/// The result of parsing one plugin file: what it declares, and every diagnostic about it.
package struct ParseOutcome: Sendable, Hashable {
    /// What a plugin file declares.
    package enum Content: Sendable, Hashable {
        case field(FieldTypeDecl)
        case form(FormDefinition)
        /// The file declares nothing usable (it is empty, or has no `field`/`form` header).
        case none
    }

    /// What the file declares.
    package var content: Content
    /// Lexical and syntax diagnostics, in file order. `TypeResolver` and `FormChecker` add
    /// the ones that need other files.
    package var diagnostics: [Diagnostic]
    /// The file's lines, for diagnostics that point into it later.
    package var source: SourceLines

    /// Whether any diagnostic so far is an error (warnings do not count).
    package var hasErrors: Bool { diagnostics.containsErrors }
}

/// The entry point for plugin files: `.field` and `.form` alike.
package enum PluginSource: Sendable {
    /// Parses a file whose kind is decided by its first directive (`field NAME` or
    /// `form NAME`). Without such a header, the file name's extension decides which
    /// directives are expected, so that the rest of the file still gets checked.
    ///
    /// Never fails and never stops at the first error: malformed input yields diagnostics.
    package static func parse(bytes: [UInt8], file: String) -> ParseOutcome {
        if let foreign = ForeignFile.recognize(bytes) {
            // One diagnostic that says which wrong file this is, instead of one per line.
            let text = foreign.isText ? String(decoding: bytes, as: UTF8.self) : ""
            let source = SourceLines(file: file, lines: text.split(separator: "\n", omittingEmptySubsequences: false).map {
                $0.hasSuffix("\r") ? String($0.dropLast()) : String($0)
            })
            let firstLine = source.lines.first ?? ""
            return ParseOutcome(content: .none, diagnostics: [foreign.diagnostic(file: file, sourceLine: firstLine)],
                                source: source)
        }
        let lexed = Lexer.lex(bytes, file: file)
        var diagnostics = lexed.diagnostics
        let source = lexed.source
        // Lines with nothing but a lexical error (invalid UTF-8) are reported already and
        // must not hide the header that follows them.
        var lines = lexed.lines.drop { $0.tokens.isEmpty }
        let start = SourceLocation(file: file, line: 1, column: 1)

        let header = lines.first?.tokens.first
        let kind: String
        var headerLine: LogicalLine?
        if let word = header?.word, word == "field" || word == "form" {
            kind = word
            headerLine = lines.removeFirst()
        } else {
            kind = file.hasSuffix(".form") ? "form" : "field"
            if let header {
                let known = kind == "form" ? FormParser.directives : FieldParser.directives
                let isDirective = header.word.map(known.contains) ?? false
                let fixIt = header.word.flatMap {
                    Suggestion.fixIt(for: $0, in: ["field", "form"], replacing: header.location)
                }
                diagnostics.append(source.diagnostic(
                    LanguageDiagnostic.missingHeader(found: header.displayName, fixIt: fixIt), at: header.location))
                // The line is reported; parse it as a directive only if it is one.
                if !isDirective || fixIt != nil { lines.removeFirst() }
            } else if lexed.diagnostics.isEmpty {
                diagnostics.append(source.diagnostic(LanguageDiagnostic.emptyFile(), at: start))
            }
        }

        if kind == "form" {
            var parser = FormParser(source: source, location: start)
            if let headerLine, !headerLine.hasLexicalErrors { parser.parseHeader(headerLine) }
            for line in lines where !line.hasLexicalErrors { parser.parseLine(line) }
            diagnostics += parser.diagnostics
            let content: ParseOutcome.Content = parser.form.name.isEmpty ? .none : .form(parser.form)
            return ParseOutcome(content: content, diagnostics: sorted(diagnostics), source: source)
        }
        var parser = FieldParser(source: source, location: start)
        if let headerLine, !headerLine.hasLexicalErrors { parser.parseHeader(headerLine) }
        for line in lines where !line.hasLexicalErrors { parser.parseLine(line) }
        diagnostics += parser.diagnostics
        diagnostics = sorted(diagnostics)
        let content: ParseOutcome.Content = parser.name.isEmpty
            ? .none : .field(parser.declaration(hasErrors: diagnostics.containsErrors))
        return ParseOutcome(content: content, diagnostics: diagnostics, source: source)
    }

    /// Parses a type reference as written on the command line or in a form:
    /// `age`, `age(min: 21, max: 99)`, `x(name: "text")`. Columns count from the start of
    /// `text`, which diagnostics show as the source line.
    package static func parseTypeReference(_ text: String, file: String = "<command line>")
        -> Result<TypeReference, DiagnosticList> {
        let lexed = Lexer.lex(text, file: file)
        if !lexed.diagnostics.isEmpty { return .failure(DiagnosticList(lexed.diagnostics)) }
        guard lexed.lines.count == 1, let line = lexed.lines.first else {
            return .failure(DiagnosticList([lexed.source.diagnostic(
                LanguageDiagnostic.typeReferenceShape(isEmpty: lexed.lines.isEmpty),
                at: SourceLocation(file: file, line: 1, column: 1))]))
        }
        var parser = LineParser(bareTokens: line.tokens, source: lexed.source)
        do throws(Diagnostic) {
            let reference = try parser.parseTypeReference()
            try parser.expectEnd()
            return .success(reference)
        } catch {
            return .failure(DiagnosticList([error]))
        }
    }

    /// File order: by line, then column; stable for diagnostics at the same place.
    static func sorted(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.enumerated().sorted { a, b in
            let (x, y) = (a.element.location, b.element.location)
            return (x.line, x.column, a.offset) < (y.line, y.column, b.offset)
        }.map(\.element)
    }
}

extension PluginSource {
    /// Whether a stored type source (a canonical, resolved definition) declares `secure`. A
    /// source that does not parse as a type counts as secure: nobody can tell, and a value is
    /// better hidden than shown by mistake.
    package static func declaresSecure(typeSource source: String, file: String = "stored type") -> Bool {
        let outcome = parse(bytes: Array(source.utf8), file: file)
        guard case .field(let decl) = outcome.content else { return true }
        return decl.lines.contains { if case .secure = $0.directive { true } else { false } }
    }
}
