/// The stable identifiers of the language layer's diagnostics.
///
/// The raw values are what `Diagnostic.id` holds: tests, JSON output and documentation rely
/// on them, so a case may be added but never renamed.
public enum DiagnosticID: String, Sendable, Hashable, CaseIterable {
    // Lexical
    case invalidUTF8 = "invalid-utf8"
    case unexpectedCharacter = "unexpected-character"
    case unterminatedString = "unterminated-string"
    case invalidEscape = "invalid-escape"
    case unterminatedRegex = "unterminated-regex"
    case invalidRegexFlag = "invalid-regex-flag"
    case invalidNumber = "invalid-number"
    case invalidDate = "invalid-date"
    case invalidDateOffset = "invalid-date-offset"
    case invalidRangeOperator = "invalid-range-operator"

    // Syntax
    case missingHeader = "missing-header"
    case duplicateHeader = "duplicate-header"
    case unknownDirective = "unknown-directive"
    case invalidName = "invalid-name"
    case missingArgument = "missing-argument"
    case unexpectedToken = "unexpected-token"
    case unknownKeyboard = "unknown-keyboard"
    case unknownAutocapitalize = "unknown-autocapitalize"
    case unknownTiming = "unknown-timing"
    case unknownNormalizeStep = "unknown-normalize-step"
    case unknownLengthUnit = "unknown-length-unit"
    case unknownCharsetClass = "unknown-charset-class"
    case unknownChecksum = "unknown-checksum"
    case duplicateModifier = "duplicate-modifier"
    case duplicateDirective = "duplicate-directive"
    case duplicateParameter = "duplicate-parameter"
    case duplicateRule = "duplicate-rule"
    case invalidStrip = "invalid-strip"
    case invalidMask = "invalid-mask"
    case invalidRange = "invalid-range"
    case invalidDateFormat = "invalid-date-format"

    // Parameters
    case unknownParameter = "unknown-parameter"
    case parameterKind = "parameter-kind"
    case parameterNotAllowed = "parameter-not-allowed"

    // Inheritance
    case unknownBase = "unknown-base"
    case inheritanceCycle = "inheritance-cycle"
    case invalidBase = "invalid-base"
    case extendsTooDeep = "extends-too-deep"
    case unknownRule = "unknown-rule"

    // Type references and forms
    case unknownType = "unknown-type"
    case argumentKind = "argument-kind"
    case duplicateArgument = "duplicate-argument"
    case duplicateField = "duplicate-field"
    case undeclaredField = "undeclared-field"
}
