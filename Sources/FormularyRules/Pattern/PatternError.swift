/// Why a pattern cannot be compiled, where in it, and what could replace it.
///
/// Offsets count Unicode scalars of the pattern's source (as the regex literal holds it, `\/`
/// already read as `/`). The wording lives in the language catalogue
/// (`LanguageDiagnostic.patternProblem`); this is only what was found.
struct PatternError: Error, Hashable, Sendable {
    var problem: PatternProblem
    /// The offending construct.
    var range: Range<Int>
    /// A replacement for `replacing` (in the pattern) that resolves the problem, if one is known.
    var replacement: String?
    var replacing: Range<Int>?

    init(_ problem: PatternProblem, at range: Range<Int>, replacing: Range<Int>? = nil, with replacement: String? = nil) {
        self.problem = problem
        self.range = range
        self.replacing = replacement == nil ? nil : (replacing ?? range)
        self.replacement = replacement
    }
}

/// What is wrong with a pattern. `unsupported` problems are constructs other regex dialects
/// have and Formulary's does not; the others are mistakes in any dialect.
enum PatternProblem: Hashable, Sendable {
    // Structure
    case unclosedGroup
    case unmatchedParenthesis
    case unclosedClass
    case emptyClass
    case nothingToRepeat(String)
    case repeatedQuantifier(String)
    case braceNotQuantifier
    case loneBracket(Character)
    case repetitionTooLarge(Int)
    case repetitionOutOfOrder(min: Int, max: Int)
    case repetitionWithoutLowerBound
    case anchorNotAtStart(String)
    case anchorNotAtEnd(String)
    case nestedTooDeep(limit: Int)
    case tooLarge(states: Int, limit: Int)
    case tooManyTransitions(limit: Int)
    case invalidGroupName(String)
    case duplicateGroupName(String)
    case unknownGroup(String)
    // Classes
    case reversedRange(String, String)
    case rangeWithClass(String)
    case hyphenInClass
    case bracketInClass
    case escapeNotInClass(String)
    // Escapes and properties
    case trailingBackslash
    case unknownEscape(String)
    case invalidHexEscape(String)
    case invalidScalar(String)
    case unknownProperty(String, suggestion: String?)
    case propertyWithoutBraces(String)
    case unterminatedProperty
    // Constructs of other dialects
    case backreference(String)
    case lookaround(Lookaround)
    case wordBoundary(String)
    case atomicGroup
    case branchReset
    case conditional
    case recursion(String)
    case verb(String)
    case groupComment
    case inlineFlags(String)
    case namedGroupSpelling(String)
    case otherEscape(String, meaning: String)
    case posixClass(String)

    /// Lookahead and lookbehind, positive and negative.
    enum Lookaround: String, Hashable, Sendable {
        case lookahead = "(?="
        case negativeLookahead = "(?!"
        case lookbehind = "(?<="
        case negativeLookbehind = "(?<!"
    }

    /// Whether the construct belongs to other regex dialects (`unsupported-regex`), rather
    /// than being a mistake in any (`invalid-regex`).
    var isUnsupported: Bool {
        switch self {
        case .backreference, .lookaround, .wordBoundary, .atomicGroup, .branchReset, .conditional, .recursion,
             .verb, .groupComment, .inlineFlags, .namedGroupSpelling, .otherEscape, .posixClass:
            true
        default:
            false
        }
    }
}
