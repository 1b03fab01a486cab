/// The catalogue of the language domain: every diagnostic that reading `.field` and
/// `.form` files can produce (lexer, parser, `extends` resolution, form checks, argument
/// binding), and the checks of arguments and parameter uses that the compiler repeats.
///
/// The raw values are what `Diagnostic.id.rawValue` holds: tests, JSON output and
/// documentation rely on them, so a case may be added but never renamed. Every id but
/// `retired-rule` is an error by default. Emit sites build their messages with the typed builders of
/// `LanguageDiagnostic+Messages.swift` and `LanguageDiagnostic+Syntax.swift`, so each
/// wording is written once.
package enum LanguageDiagnostic: String, DiagnosticCatalog {
    // Lexical
    /// Bytes that are not UTF-8, or a UTF-16 file.
    case invalidUTF8 = "invalid-utf8"
    /// A character no token starts with, a stray backslash, `$` without a name.
    case unexpectedCharacter = "unexpected-character"
    /// A string without its closing quote on the line.
    case unterminatedString = "unterminated-string"
    /// A backslash escape strings do not have, or a bad `\u{…}`.
    case invalidEscape = "invalid-escape"
    /// A regex without its closing slash on the line.
    case unterminatedRegex = "unterminated-regex"
    /// A regex flag other than `i` or `x`, or one given twice.
    case invalidRegexFlag = "invalid-regex-flag"
    /// A pattern that is not well formed: an unclosed group or class, a quantifier with
    /// nothing to repeat, an unknown escape or property, a repetition above 1000…
    case invalidRegex = "invalid-regex"
    /// A pattern construct of other regex dialects that Formulary's does not have:
    /// backreferences, lookarounds, `\b`, atomic groups, inline flags after the start…
    case unsupportedRegex = "unsupported-regex"
    /// A number or date glued to letters or dots (`1e5`, `30px`); a bad numeric argument.
    case invalidNumber = "invalid-number"
    /// A date literal naming no real day.
    case invalidDate = "invalid-date"
    /// A `today…` word that is not `today±N` with a unit.
    case invalidDateOffset = "invalid-date-offset"
    /// `..`, which is no range operator.
    case invalidRangeOperator = "invalid-range-operator"

    // Syntax
    /// A file that does not start with `field NAME` or `form NAME`.
    case missingHeader = "missing-header"
    /// `field`/`form` again after the first directive.
    case duplicateHeader = "duplicate-header"
    /// A directive word the file kind does not have.
    case unknownDirective = "unknown-directive"
    /// A type, parameter, rule or field name that breaks the name rules.
    case invalidName = "invalid-name"
    /// A directive that ends before its argument.
    case missingArgument = "missing-argument"
    /// A token where another was expected.
    case unexpectedToken = "unexpected-token"
    /// A `keyboard` value that is not one of the known ones.
    case unknownKeyboard = "unknown-keyboard"
    /// An `autocapitalize` value that is not one of the known ones.
    case unknownAutocapitalize = "unknown-autocapitalize"
    /// An `autocomplete` value that is not an HTML autofill field name.
    case unknownAutocomplete = "unknown-autocomplete"
    /// A `timing` value that is not `typing`, `leaving` or `submit`.
    case unknownTiming = "unknown-timing"
    /// A `decimal-separator` other than `","` or `"."`.
    case invalidDecimalSeparator = "invalid-decimal-separator"
    /// A `normalize` step that is not one of the known ones.
    case unknownNormalizeStep = "unknown-normalize-step"
    /// A `length` unit that is not one of the known ones.
    case unknownLengthUnit = "unknown-length-unit"
    /// A `charset` class that is not one of the known ones, or an empty string.
    case unknownCharsetClass = "unknown-charset-class"
    /// A `checksum` algorithm that is not one of the known ones.
    case unknownChecksum = "unknown-checksum"
    /// A rule modifier (or form field modifier) given twice on one line.
    case duplicateModifier = "duplicate-modifier"
    /// A directive that may be given once, given again.
    case duplicateDirective = "duplicate-directive"
    /// A parameter declared twice in one file.
    case duplicateParameter = "duplicate-parameter"
    /// Two rules of one name.
    case duplicateRule = "duplicate-rule"
    /// A `strip` step that removes nothing, or letters or digits.
    case invalidStrip = "invalid-strip"
    /// A mask pattern that cannot be one.
    case invalidMask = "invalid-mask"
    /// A range written wrongly, or with bounds of the wrong kind.
    case invalidRange = "invalid-range"
    /// A date format that cannot be one.
    case invalidDateFormat = "invalid-date-format"

    // Parameters
    /// A `$reference` or an argument naming no parameter.
    case unknownParameter = "unknown-parameter"
    /// A parameter whose kind does not suit where it is used or redeclared.
    case parameterKind = "parameter-kind"
    /// A `$reference` where only a literal may stand.
    case parameterNotAllowed = "parameter-not-allowed"

    // Inheritance
    /// `extends` naming no type.
    case unknownBase = "unknown-base"
    /// A type on, or leading into, an `extends` cycle.
    case inheritanceCycle = "inheritance-cycle"
    /// A base type that has errors of its own.
    case invalidBase = "invalid-base"
    /// An `extends` chain deeper than allowed.
    case extendsTooDeep = "extends-too-deep"
    /// `drop` or a `reject` example naming no rule of the type.
    case unknownRule = "unknown-rule"
    /// A `reject` example naming a rule the engine no longer has (`pattern-budget`); a warning.
    case retiredRule = "retired-rule"

    // Type references and forms
    /// A type reference naming no type.
    case unknownType = "unknown-type"
    /// An argument value of the wrong kind.
    case argumentKind = "argument-kind"
    /// An argument given twice in one type reference.
    case duplicateArgument = "duplicate-argument"
    /// A form field key declared twice.
    case duplicateField = "duplicate-field"
    /// A cross-field rule naming a field the form does not declare.
    case undeclaredField = "undeclared-field"
    /// A field named twice by one cross-field rule (`unique email, email`, `compare a < a`).
    case duplicateRuleField = "duplicate-rule-field"
    /// `compare` of two fields their types read differently (a date with a number or text).
    case incompatibleComparison = "incompatible-comparison"

    /// `.language`.
    package static var domain: DiagnosticDomain { .language }

    /// `.error`: a file with a language problem cannot be used; `.warning` for
    /// `retired-rule` (the type still works, only that example can no longer pass).
    package var defaultSeverity: Diagnostic.Severity { self == .retiredRule ? .warning : .error }
}
