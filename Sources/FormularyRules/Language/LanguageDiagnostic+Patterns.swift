/// The language catalogue's builders for patterns: what is wrong with a regex literal
/// (`invalid-regex`), which construct of another dialect it uses (`unsupported-regex`), and
/// the `retired-rule` of self-tests that still name `pattern-budget`.
extension LanguageDiagnostic {
    /// The message of a pattern problem, with a fix-it putting `replacement` in place of
    /// `replacing` when the parser found one (for a lookaround split, the lines of the checks
    /// to write instead).
    static func patternProblem(_ problem: PatternProblem, replacing: SourceLocation? = nil,
                               with replacement: String? = nil) -> DiagnosticMessage {
        let (text, fixIt, note) = wording(problem, replacement: replacement)
        let id: LanguageDiagnostic = problem.isUnsupported ? .unsupportedRegex : .invalidRegex
        var fixIts: [Diagnostic.FixIt] = []
        if let replacing, let replacement, let fixIt {
            fixIts.append(Diagnostic.FixIt(fixIt, replacing: replacing, with: replacement))
        }
        return id.message(text, fixIts: fixIts, notes: note.map { [Diagnostic.Note($0)] } ?? [])
    }

    /// `the rule 'pattern-budget' no longer exists: …` for a `reject` example naming it.
    static func retiredPatternBudget() -> DiagnosticMessage {
        LanguageDiagnostic.retiredRule.message(
            "the rule 'pattern-budget' no longer exists: patterns are matched in time linear in the value's length and always give an answer, so this example can no longer pass",
            notes: [Diagnostic.Note("name the rules the value fails instead, such as 'pattern'")])
    }

    /// The message, the fix-it's message, and a note.
    private static func wording(_ problem: PatternProblem, replacement: String?)
        -> (String, fixIt: String?, note: String?) {
        let instead = replacement.map { "write '\($0)' instead" }
        switch problem {
        case .unclosedGroup:
            return ("the group opened here is not closed: expected ')'", nil, nil)
        case .unmatchedParenthesis:
            return ("unmatched ')': no group is open", "write '\\)' for a parenthesis", nil)
        case .unclosedClass:
            return ("the character class opened here is not closed: expected ']'", nil, nil)
        case .emptyClass:
            return ("a ']' right after '[' or '[^' would leave the class empty", "write '\\]' for a bracket in the class", nil)
        case .nothingToRepeat(let quantifier):
            return ("'\(quantifier)' has nothing to repeat", nil, "write '\\\(quantifier.prefix(1))' for the character itself")
        case .repeatedQuantifier(let quantifier):
            return ("'\(quantifier)' is already a repetition: put it in a group, as in (?:a*)+, to repeat it again", nil, nil)
        case .braceNotQuantifier:
            return ("'{' starts no repetition {n}, {n,} or {n,m}", "write '\\{' for a brace", nil)
        case .loneBracket(let bracket):
            return ("unmatched '\(bracket)'", "write '\\\(bracket)' for the character", nil)
        case .repetitionTooLarge(let count):
            return ("a repetition count of \(count) is above the limit of \(PatternParser.maxRepetition)", nil, nil)
        case .repetitionOutOfOrder(let low, let high):
            return ("the repetition {\(low),\(high)} has its bounds out of order", replacement.map(Suggestion.didYouMean), nil)
        case .repetitionWithoutLowerBound:
            return ("a repetition needs its lower bound", replacement.map(Suggestion.didYouMean), nil)
        case .anchorNotAtStart(let anchor):
            return ("'\(anchor)' may only start the pattern, outside any group: a pattern always matches the whole value, so it can be left out",
                    "write '\\^' for the character", nil)
        case .anchorNotAtEnd(let anchor):
            return ("'\(anchor)' may only end the pattern, outside any group: a pattern always matches the whole value, so it can be left out",
                    "write '\\$' for the character", nil)
        case .nestedTooDeep(let limit):
            return ("groups are nested more than \(limit) deep", nil, nil)
        case .tooLarge(_, let limit):
            return ("the pattern is too large: its repetitions expand to more than \(limit) automaton states", nil,
                    "repeat less, or nest fewer counted repetitions such as {100}")
        case .tooManyTransitions(let limit):
            return ("the pattern is too complex: its automaton needs more than \(limit) transitions", nil, nil)
        case .invalidGroupName(let name):
            return ("'\(name)' is not a group name: use ASCII letters, digits and '_', not starting with a digit, at most 32", nil, nil)
        case .duplicateGroupName(let name):
            return ("two groups are named '\(name)'", nil, nil)
        case .unknownGroup(let written):
            return ("unknown group syntax '\(written)': groups are (…), (?:…) and (?<name>…)", nil, nil)
        case .reversedRange(let low, let high):
            return ("the range \(low)-\(high) is out of order", replacement.map(Suggestion.didYouMean), nil)
        case .rangeWithClass(let written):
            return ("a range cannot start or end with a class such as '\(written)'", nil, "write '\\-' for a hyphen")
        case .hyphenInClass:
            return ("a '-' in a class that ends no range must come first or last", "write '\\-' for a hyphen", nil)
        case .bracketInClass:
            return ("'[' inside a class: classes do not nest", "write '\\[' for the character", nil)
        case .escapeNotInClass(let written):
            return ("'\(written)' cannot stand inside a class", nil, nil)
        case .trailingBackslash:
            return ("the pattern ends with a lone '\\'", nil, "write '\\\\' for a backslash")
        case .unknownEscape(let written):
            return ("unknown escape '\(written)'", "write the character without a backslash",
                    "escapes are \\t \\n \\r \\f \\v \\xHH \\x{…} \\u{…} \\d \\D \\w \\W \\s \\S \\p{…} \\P{…}, and a backslash before punctuation")
        case .invalidHexEscape(let written):
            return ("'\(written)' is not a character escape: write \\xHH with two hex digits, or \\x{…} or \\u{…} with one to six",
                    replacement.map(Suggestion.didYouMean), nil)
        case .invalidScalar(let written):
            return ("'\(written)' names no Unicode scalar: surrogates and values above 10FFFF are not characters", nil, nil)
        case .unknownProperty(let name, let suggestion):
            return ("unknown Unicode property '\(name)': expected a general category such as L, Lu or Letter, or a script such as Latin",
                    suggestion.map { Suggestion.didYouMean($0) }, nil)
        case .propertyWithoutBraces(let written):
            return ("'\(written)': a property is written in braces", replacement.map(Suggestion.didYouMean), nil)
        case .unterminatedProperty:
            return ("expected a property name in braces, as in \\p{L}", nil, nil)
        case .backreference(let written):
            return ("backreferences such as '\(written)' are not supported: Formulary's patterns are regular, so that every runtime matches them alike, in time linear in the value's length", nil, nil)
        case .lookaround(let kind):
            let name = switch kind {
            case .lookahead: "lookahead"
            case .negativeLookahead: "negative lookahead"
            case .lookbehind: "lookbehind"
            case .negativeLookbehind: "negative lookbehind"
            }
            let lines = replacement.map { $0.split(separator: "\n").count } ?? 0
            return ("\(name) '\(kind.rawValue)…)' is not supported: write two pattern checks instead, each with its own rule name and message (\"needs a digit\", \"needs a capital letter\"); 'pattern not' checks a value does not match",
                    "split it into \(lines) checks", nil)
        case .wordBoundary(let written):
            return ("word boundaries such as '\(written)' are not supported: the value is always matched as a whole", nil, nil)
        case .atomicGroup:
            return ("atomic groups '(?>…)' are not supported", "write a plain group '(?:…)': a pattern never backtracks", nil)
        case .branchReset:
            return ("branch reset groups '(?|…)' are not supported", "write a plain group '(?:…)'", nil)
        case .conditional:
            return ("conditional groups '(?(…)…)' are not supported: write the alternatives with '|'", nil, nil)
        case .recursion(let written):
            return ("recursion such as '\(written)' is not supported: Formulary's patterns are regular", nil, nil)
        case .verb(let written):
            return ("'\(written)' is not supported: patterns take no backtracking verbs, options or callouts", nil, nil)
        case .groupComment:
            return ("comments '(?#…)' are not supported: use the x flag and '#' comments", "remove the comment", nil)
        case .inlineFlags(let written):
            return ("inline flags '\(written)' are not supported: only (?i) and (?x) at the very start are; put flags after the closing slash, as in /…/i", nil, nil)
        case .namedGroupSpelling(let written):
            return ("'\(written)' is not how a named group is written here", replacement.map(Suggestion.didYouMean), nil)
        case .otherEscape(let written, let meaning):
            return ("'\(written)' (\(meaning)) is not supported", instead, nil)
        case .posixClass(let written):
            return ("POSIX classes such as '\(written)' are not supported: use \\p{L}, \\p{Lu}, \\p{Ll}, 0-9, \\s or \\p{P}", nil, nil)
        }
    }
}
