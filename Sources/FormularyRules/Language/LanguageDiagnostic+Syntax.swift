/// Typed message builders of the language catalogue for what the lexer and the parser
/// find inside a line: malformed literals, ranges, masks, headers and names. Like the
/// builders in `LanguageDiagnostic+Messages.swift`, each wording is written once, here.
extension LanguageDiagnostic {
    // MARK: Characters and literals

    /// Stray characters (`what`: `character '@'` or `characters '@@'`).
    package static func unexpectedCharacters(_ what: String) -> DiagnosticMessage {
        LanguageDiagnostic.unexpectedCharacter.message("unexpected \(what)")
    }

    /// A backslash that does not end its line.
    package static func strayBackslash() -> DiagnosticMessage {
        LanguageDiagnostic.unexpectedCharacter.message(
            "unexpected '\\': a backslash outside a string or regex may only end a line, to continue it on the next")
    }

    /// `$` without a name after it.
    package static func missingParameterName() -> DiagnosticMessage {
        LanguageDiagnostic.unexpectedCharacter.message("expected a parameter name after '$', e.g. $min")
    }

    /// A lone `<` or `.` that starts no range operator.
    package static func loneRangeCharacter(lessThan: Bool) -> DiagnosticMessage {
        LanguageDiagnostic.unexpectedCharacter.message(lessThan
            ? "'<' marks an exclusive lower bound and must be followed by '...', '..<' or '..'"
            : "unexpected character '.'")
    }

    /// `..`, which is no range operator.
    package static func twoDotRange() -> DiagnosticMessage {
        LanguageDiagnostic.invalidRangeOperator.message("'..' is not a range operator; expected '...' or '..<'")
    }

    /// A string without its closing quote.
    package static func unterminatedString() -> DiagnosticMessage {
        LanguageDiagnostic.unterminatedString.message("unterminated string: expected a closing '\"' on the same line")
    }

    /// A `\u{…}` that names no Unicode scalar.
    package static func invalidUnicodeEscape() -> DiagnosticMessage {
        LanguageDiagnostic.invalidEscape.message(
            "invalid unicode escape: expected \\u{…} with 1 to 8 hex digits naming a Unicode scalar")
    }

    /// A backslash escape strings do not have (`escaped`: the character after the backslash).
    package static func unknownEscape(_ escaped: Character) -> DiagnosticMessage {
        LanguageDiagnostic.invalidEscape.message(
            "unknown escape '\\\(escaped)' in string; expected \\\" \\\\ \\n \\r \\t or \\u{…}")
    }

    /// A regex without its closing slash.
    package static func unterminatedRegex() -> DiagnosticMessage {
        LanguageDiagnostic.unterminatedRegex.message(
            "unterminated regex: expected a closing '/' on the same line (write \\/ for a slash inside it)")
    }

    /// A regex flag that is unknown or given twice.
    package static func invalidRegexFlag(_ flag: Character, repeated: Bool) -> DiagnosticMessage {
        LanguageDiagnostic.invalidRegexFlag.message(
            "\(repeated ? "repeated regex flag" : "unknown regex flag") '\(flag)'; expected i (case-insensitive) or x (extended)")
    }

    /// A date literal naming no real day.
    package static func noSuchDate(_ text: String) -> DiagnosticMessage {
        LanguageDiagnostic.invalidDate.message("no such date '\(text)': expected a real date written YYYY-MM-DD")
    }

    /// A number or date glued to letters or more dots (`1e5`, `30px`).
    package static func malformedNumber(_ text: String, isDate: Bool) -> DiagnosticMessage {
        let shape = isDate ? "dates are written YYYY-MM-DD"
            : "numbers are written like -12, 1000 or 0.5, without exponents, units or separators"
        return LanguageDiagnostic.invalidNumber.message("invalid \(isDate ? "date" : "number") '\(text)': \(shape)")
    }

    /// A `today…` word that is not `today`, `today+Nu` or `today-Nu`.
    package static func invalidDateOffset(_ word: String) -> DiagnosticMessage {
        LanguageDiagnostic.invalidDateOffset.message(
            "invalid date '\(word)': expected today, or today+N or today-N followed by y, m or d (e.g. today-18y)")
    }

    // MARK: Files and names

    /// A first directive that is not `field NAME` or `form NAME`, with a fix-it when the
    /// word is near `field` or `form`.
    package static func missingHeader(found: String, fixIt: Diagnostic.FixIt?) -> DiagnosticMessage {
        LanguageDiagnostic.missingHeader.message(
            "expected 'field NAME' or 'form NAME' as the first directive, found \(found)",
            fixIts: fixIt.map { [$0] } ?? [])
    }

    /// A file with no directive at all.
    package static func emptyFile() -> DiagnosticMessage {
        LanguageDiagnostic.missingHeader.message("empty file: expected 'field NAME' or 'form NAME' as the first directive")
    }

    /// `field`/`form` again after the first line (`noun`: `type` or `form`).
    package static func duplicateHeader(_ header: String, noun: String) -> DiagnosticMessage {
        LanguageDiagnostic.duplicateHeader.message(
            "a .\(header) file declares one \(noun): '\(header)' may only be its first directive")
    }

    /// A line that starts with something other than a directive word.
    package static func expectedDirective(_ examples: String, found: String) -> DiagnosticMessage {
        LanguageDiagnostic.unexpectedToken.message("expected a directive such as \(examples), found \(found)")
    }

    /// A type reference on the command line that is empty or spans lines.
    package static func typeReferenceShape(isEmpty: Bool) -> DiagnosticMessage {
        LanguageDiagnostic.missingArgument.message(isEmpty ? "expected a type name, such as age or age(min: 18)"
                                                           : "a type reference must be written on one line")
    }

    /// A name breaking the name rules (`problem`: what is wrong with it).
    package static func invalidName(_ word: String, problem: String) -> DiagnosticMessage {
        LanguageDiagnostic.invalidName.message("'\(word)' \(problem)")
    }

    /// A word other than `extends` after `field NAME`, with a fix-it when it is near.
    package static func unexpectedWord(_ word: String, fixIt: Diagnostic.FixIt?) -> DiagnosticMessage {
        LanguageDiagnostic.unexpectedToken.message("unexpected '\(word)'", fixIts: fixIt.map { [$0] } ?? [])
    }

    /// A token where a modifier was expected (`expected`: the list of modifiers), with a
    /// fix-it to a near modifier.
    package static func expectedModifier(found: String, expected: String, fixIt: Diagnostic.FixIt?) -> DiagnosticMessage {
        LanguageDiagnostic.unexpectedToken.message("unexpected \(found); expected \(expected)",
                                                   fixIts: fixIt.map { [$0] } ?? [])
    }

    // MARK: Directive arguments

    /// An operator with `<` (`op`) and no lower bound before it.
    package static func exclusiveLowerWithoutBound(_ op: String) -> DiagnosticMessage {
        LanguageDiagnostic.invalidRange.message(
            "'<' marks an exclusive lower bound and follows it, as in 0<...100; '\(op)' needs a bound before it")
    }

    /// `...` alone (`example`: a range of the directive's kind).
    package static func rangeWithoutBounds(example: String) -> DiagnosticMessage {
        LanguageDiagnostic.invalidRange.message("a range needs at least one bound, such as \(example)")
    }

    /// `..<` (`op`) without an upper bound.
    package static func halfOpenWithoutUpper(_ op: String) -> DiagnosticMessage {
        LanguageDiagnostic.invalidRange.message("'\(op)' needs an upper bound, as in 0..<100")
    }

    /// `<..` followed by an upper bound.
    package static func exclusiveFromWithUpper() -> DiagnosticMessage {
        LanguageDiagnostic.invalidRange.message(
            "'<..' has no upper bound; write '<...' (at most) or '<..<' (below) before an upper bound")
    }

    /// A `length` bound that is a number but not a whole number from 0.
    package static func lengthBoundNotWhole(_ text: String) -> DiagnosticMessage {
        LanguageDiagnostic.invalidRange.message("length bounds are whole numbers from 0, found '\(text)'")
    }

    /// A bound of the wrong kind for the directive (`found`: the token as described).
    package static func boundKind(_ directive: BoundDirective, found: String) -> DiagnosticMessage {
        let text = switch directive {
        case .length: "length bounds are whole numbers, found \(found)"
        case .range: "range bounds are numbers, found \(found)"
        case .date: "date bounds are dates such as 2000-01-31 or today-18y, found \(found)"
        }
        return LanguageDiagnostic.invalidRange.message(text)
    }

    /// The directives whose ranges have bounds of their own kind, for `boundKind(_:found:)`.
    package enum BoundDirective: String, Sendable, CaseIterable {
        /// `length`: whole numbers from 0.
        case length
        /// `range`: numbers.
        case range
        /// `date`: dates.
        case date
    }

    /// A mask pattern that cannot be one (`mask` as written, `problem` why).
    package static func invalidMask(_ mask: String, problem: String) -> DiagnosticMessage {
        LanguageDiagnostic.invalidMask.message("mask \(mask) \(problem)")
    }

    /// A date format that cannot be one (`format` as written, `problem` why).
    package static func invalidDateFormat(_ format: String, problem: String) -> DiagnosticMessage {
        LanguageDiagnostic.invalidDateFormat.message("date format \(format) \(problem)")
    }

    /// `strip ""`.
    /// `decimal-separator "'"`: only a comma or a point separates a number's fraction (`written`
    /// is the string as written, quotes included).
    package static func invalidDecimalSeparator(_ written: String) -> DiagnosticMessage {
        LanguageDiagnostic.invalidDecimalSeparator.message(
            "decimal-separator \(written) is not a decimal separator; write \",\" (3,14) or \".\" (3.14)")
    }

    package static func emptyStrip() -> DiagnosticMessage {
        LanguageDiagnostic.invalidStrip.message("strip \"\" removes nothing; list the characters to remove")
    }

    /// `strip` of a letter or digit (`characters` as written, `kept` the first such).
    package static func stripRemovesLettersOrDigits(_ characters: String, kept: Character) -> DiagnosticMessage {
        LanguageDiagnostic.invalidStrip.message(
            "strip \(characters) would remove '\(kept)': normalization never throws away letters or digits; use a check to reject them")
    }

    /// `unknown charset class 'digts'`: a fix-it to the nearest of `suggestions`, else a
    /// note listing `classes`.
    package static func unknownCharsetClass(_ word: String, suggestions: [String], classes: [String],
                                           at range: SourceLocation) -> DiagnosticMessage {
        let fixIt = Suggestion.fixIt(for: word, in: suggestions, replacing: range)
        let note = "expected \(Suggestion.list(classes)) or a quoted string of characters"
        return LanguageDiagnostic.unknownCharsetClass.message(
            "unknown charset class '\(word)'", fixIts: fixIt.map { [$0] } ?? [],
            notes: fixIt == nil ? [Diagnostic.Note(note)] : [])
    }

    /// `charset ""`.
    package static func emptyCharset() -> DiagnosticMessage {
        LanguageDiagnostic.unknownCharsetClass.message("an empty string adds no characters to the charset")
    }

    // MARK: Rules and parameters across extends

    /// A redeclared parameter of another kind than the base's.
    package static func redeclaredParameterKind(_ name: String, was old: String, in base: String,
                                               now new: String) -> DiagnosticMessage {
        LanguageDiagnostic.parameterKind.message(
            "parameter '\(name)' is \(old) in \(base); a redeclaration must keep its kind, found \(new)")
    }

    /// A `$parameter` of a kind the argument cannot take (`needs`: what it can take).
    package static func referenceKind(_ name: String, is kind: String, needs: String) -> DiagnosticMessage {
        LanguageDiagnostic.parameterKind.message("parameter '$\(name)' is \(kind); this argument needs \(needs)")
    }

    /// A string parameter used as a date bound whose default is no date bound.
    package static func referenceNotADateBound(_ name: String, default value: String) -> DiagnosticMessage {
        LanguageDiagnostic.parameterKind.message(
            "parameter '$\(name)' defaults to \"\(value)\", which is not a date bound such as 2000-01-31 or today-18y")
    }

    /// A mask named like one of the base's checks.
    package static func maskNamedLikeACheck(_ name: String) -> DiagnosticMessage {
        LanguageDiagnostic.duplicateRule.message(
            "rule '\(name)' already names a check; give the mask another name with 'as NAME'")
    }

    /// A check named like the mask's own check.
    package static func checkNamedLikeTheMask(_ name: String) -> DiagnosticMessage {
        LanguageDiagnostic.duplicateRule.message(
            "rule '\(name)' is the mask's check; name this check differently with 'as NAME', or 'drop \(name)' first")
    }
}
