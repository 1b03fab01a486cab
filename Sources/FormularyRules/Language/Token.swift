/// One lexical token of a rule-script line.
package struct Token: Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        /// A word: directive, name, keyword (`one-of`, `number-pad`). Not yet checked
        /// against the name rules, so that a misspelling can get a "did you mean".
        case word(String)
        /// `-12`, `0.5`: the source text.
        case number(String)
        /// A string literal, escapes resolved.
        case string(String)
        /// `/…/flags`; `\/` already turned into `/`, other escapes untouched.
        case regex(source: String, flags: RegexFlags)
        /// `2000-01-31`.
        case date(CivilDate)
        /// `today`, `today+12y`, `today-30d` (plain `today` is `offset 0, days`).
        case relativeDate(offset: Int, unit: DateOffsetUnit)
        /// `$name`.
        case parameter(String)
        case rangeOperator(RangeOperator)
        /// `<` `<=` `>` `>=` `!=` of a form's `compare` (its `=` is punctuation).
        case comparison(ComparisonOperator)
        /// One of `(` `)` `,` `:` `=`.
        case punctuation(Character)
    }

    package var kind: Kind
    /// The token exactly as written.
    package var text: String
    package var location: SourceLocation

    package init(kind: Kind, text: String, location: SourceLocation) {
        self.kind = kind
        self.text = text
        self.location = location
    }

    /// The word's text when this token is a word.
    package var word: String? {
        if case .word(let w) = kind { return w }
        return nil
    }

    /// How the token is named in "expected …, found …" messages.
    var displayName: String {
        switch kind {
        case .string: "string \(text)"
        case .regex: "regex \(text)"
        case .number: "number '\(text)'"
        default: "'\(text)'"
        }
    }
}

/// The operators between range bounds; `<` marks an exclusive lower bound.
package enum RangeOperator: String, Sendable, Hashable, CaseIterable {
    case closed = "..."
    case halfOpen = "..<"
    case exclusiveClosed = "<..."
    case exclusiveHalfOpen = "<..<"
    /// `1.1<..`: above the bound, no upper bound.
    case exclusiveFrom = "<.."

    var lowerExclusive: Bool {
        switch self {
        case .closed, .halfOpen: false
        case .exclusiveClosed, .exclusiveHalfOpen, .exclusiveFrom: true
        }
    }
}

/// One logical line: a directive's tokens, possibly gathered from several physical lines
/// joined with `\`.
package struct LogicalLine: Sendable, Hashable {
    package var tokens: [Token]
    /// The line had a lexical error (already reported); parsers skip it so that one typo
    /// does not cascade into several diagnostics.
    package var hasLexicalErrors: Bool
    /// The physical line the logical line starts on.
    package var firstLine: Int
}
