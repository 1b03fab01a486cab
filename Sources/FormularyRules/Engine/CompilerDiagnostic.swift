/// The catalogue of the compiler domain: the load-time checks `FieldCompiler` makes of a
/// resolved type with its arguments, beyond what reading the file found.
///
/// The compiler also re-checks arguments, parameter uses and patterns; those problems are the
/// language's (`LanguageDiagnostic.unknownParameter`, `.argumentKind`, `.parameterKind`,
/// `.invalidNumber`, `.invalidDate`, `.invalidMask`, `.invalidDateFormat`, `.invalidRegex`,
/// `.unsupportedRegex`) and keep their ids, built by the typed builders here so that every
/// compiler message is written once.
package enum CompilerDiagnostic: String, DiagnosticCatalog {
    /// A length, number or date range no value can satisfy (`length 5...2`).
    case emptyRange = "empty-range"
    /// `places` below zero.
    case negativePlaces = "negative-places"
    /// `one-of` without options.
    case emptyOneOf = "empty-one-of"
    /// A mask whose filled length no `length` rule of the type allows.
    case maskLengthConflict = "mask-length-conflict"
    /// An `accept` example the type's own mask cannot fill.
    case acceptUnformattable = "accept-unformattable"
    /// A mask no value can reach: after a mask without `when`, or with the same `when` as
    /// an earlier mask (a warning).
    case unreachableMask = "unreachable-mask"
    /// A mask whose `when` pattern cannot match the slot characters of any value that fills
    /// the mask (a warning).
    case maskConditionUnmatchable = "mask-condition-unmatchable"

    /// `.compiler`.
    package static var domain: DiagnosticDomain { .compiler }

    /// `.warning` for `unreachable-mask` and `mask-condition-unmatchable` (the type still
    /// works), `.error` otherwise.
    package var defaultSeverity: Diagnostic.Severity {
        switch self {
        case .unreachableMask, .maskConditionUnmatchable: .warning
        default: .error
        }
    }
}

extension CompilerDiagnostic {
    /// Which kind of range is empty, for `emptyRange(_:)`.
    package enum RangeKind: String, Sendable, CaseIterable {
        /// `length`, counted in the rule's unit.
        case length
        /// `range`, or `integer`/`decimal` bounds.
        case number
        /// `date` bounds.
        case date
    }

    /// `the length range is empty: no value can satisfy it` (and the number and date forms).
    package static func emptyRange(_ kind: RangeKind) -> DiagnosticMessage {
        switch kind {
        case .length: CompilerDiagnostic.emptyRange.message("the length range is empty: no value can satisfy it")
        case .number: CompilerDiagnostic.emptyRange.message("the range is empty: no number can satisfy it")
        case .date: CompilerDiagnostic.emptyRange.message("the date range is empty: no date can satisfy it")
        }
    }

    /// `places must not be negative (-1)`.
    package static func negativePlaces(_ places: Int) -> DiagnosticMessage {
        CompilerDiagnostic.negativePlaces.message("places must not be negative (\(places))")
    }

    /// `one-of needs at least one option`.
    package static func emptyOneOf() -> DiagnosticMessage {
        CompilerDiagnostic.emptyOneOf.message("one-of needs at least one option")
    }

    /// A mask (as displayed) that fills to `filled` units (`8` or `8 to 10`) of `unit`.
    package static func maskLengthConflict(mask: String, filled: String, unit: String) -> DiagnosticMessage {
        CompilerDiagnostic.maskLengthConflict.message(
            "the mask \"\(mask)\" fills to \(filled) \(unit), which this length rule never allows")
    }

    /// `shownValue` is the example quoted, or the secure placeholder for a secure type.
    package static func acceptUnformattable(shownValue: String, mask: String) -> DiagnosticMessage {
        CompilerDiagnostic.acceptUnformattable.message(
            "the accept example \(shownValue) does not fill the mask \"\(mask)\"")
    }

    /// `the mask "0000" is never used: REASON`.
    package static func unreachableMask(pattern: String, reason: String) -> DiagnosticMessage {
        CompilerDiagnostic.unreachableMask.message("the mask \"\(pattern)\" is never used: \(reason)")
    }

    /// A `when` that cannot select a value filling `mask` (as displayed), and why.
    package static func maskConditionUnmatchable(mask: String, reason: String) -> DiagnosticMessage {
        CompilerDiagnostic.maskConditionUnmatchable.message(
            "the 'when' pattern of the mask \"\(mask)\" cannot match a value that fills it: \(reason)")
    }

    // MARK: Language ids the compiler reports again

    /// An argument naming no parameter of the type.
    package static func noSuchParameter(_ name: String, ofType type: String) -> DiagnosticMessage {
        LanguageDiagnostic.unknownParameter.message("type '\(type)' has no parameter '\(name)'")
    }

    /// `$name` where no parameter of that name is bound.
    package static func unknownParameterReference(_ name: String) -> DiagnosticMessage {
        LanguageDiagnostic.unknownParameter.message("unknown parameter '$\(name)'")
    }

    /// An argument value of the wrong kind (`expected` and `found` with their articles).
    package static func argumentKind(parameter: String, ofType type: String,
                                    expected: String, found: String) -> DiagnosticMessage {
        LanguageDiagnostic.argumentKind.message(
            "parameter '\(parameter)' of type '\(type)' takes \(expected), not \(found)")
    }

    /// What a parameter use needs, for `parameterKind(_:needs:found:)`.
    package enum ParameterNeed: String, Sendable, CaseIterable {
        /// An integer (`places`, `length` bounds).
        case integer
        /// An integer or a decimal (`range` bounds).
        case number
        /// A date bound such as `2000-01-31` or `today-18y` (`date` bounds).
        case date
    }

    /// A parameter whose value does not suit the place it is used (`found` as written).
    package static func parameterKind(_ name: String, needs need: ParameterNeed, found: String) -> DiagnosticMessage {
        let text = switch need {
        case .integer: "parameter '$\(name)' must be an integer here, not '\(found)'"
        case .number: "parameter '$\(name)' must be a number here, not \"\(found)\""
        case .date: "parameter '$\(name)' must be a date such as \"2000-01-31\" or \"today-18y\" here, not '\(found)'"
        }
        return LanguageDiagnostic.parameterKind.message(text)
    }

    /// A numeric text that is not a number.
    package static func invalidNumber(_ text: String) -> DiagnosticMessage {
        LanguageDiagnostic.invalidNumber.message("'\(text)' is not a number")
    }

    /// A date bound naming no real day (`date` as printed, e.g. `2023-02-30`).
    package static func invalidDate(_ date: String) -> DiagnosticMessage {
        LanguageDiagnostic.invalidDate.message("\(date) is not a real date")
    }

    /// A mask ending in a lone backslash.
    package static func maskEndsInBackslash(_ pattern: String) -> DiagnosticMessage {
        LanguageDiagnostic.invalidMask.message("the mask \"\(pattern)\" ends in a lone '\\'")
    }

    /// A pattern that does not compile, in a definition that did not come from a file (a file's
    /// are read, and located inside the literal, by the parser): the language's message, and
    /// where in the pattern (counted in Unicode scalars) the problem is.
    static func invalidPattern(_ error: PatternError) -> DiagnosticMessage {
        var message = LanguageDiagnostic.patternProblem(error.problem)
        message.notes.append(Diagnostic.Note("at offset \(error.range.lowerBound) of the pattern"))
        return message
    }

    /// A date format the compiler cannot use, and why.
    package static func invalidDateFormat(_ format: String, reason: String) -> DiagnosticMessage {
        LanguageDiagnostic.invalidDateFormat.message("invalid date format \"\(format)\": \(reason)")
    }
}
