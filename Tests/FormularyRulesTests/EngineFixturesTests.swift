import Testing
@testable import FormularyRules

// Builders for field-type definitions, so that engine tests do not depend on the parser.

let testLocation = FormularyRules.SourceLocation(file: "test.field", line: 1, column: 1)
let testToday = CivilDate(year: 2026, month: 3, day: 15)

func at(_ line: Int) -> FormularyRules.SourceLocation { FormularyRules.SourceLocation(file: "test.field", line: line, column: 1) }

func check(_ kind: CheckKind, as name: String? = nil, severity: Severity = .error,
           message: String? = nil, final: Bool = false, line: Int = 2) -> CheckRule {
    CheckRule(kind: kind, options: RuleOptions(name: name ?? kind.keyword, severity: severity,
                                               message: message, finalOnly: final, location: at(line)))
}

func closed<T>(_ a: T, _ b: T) -> RangeSpec<T> {
    RangeSpec(lower: .value(a), upper: .value(b), upperInclusive: true)
}

func decimalRange(_ a: String?, _ b: String?, lowerExclusive: Bool = false,
                  upperInclusive: Bool = true) -> RangeSpec<DecimalLiteral> {
    RangeSpec(lower: a.map { .value(DecimalLiteral($0)) }, lowerExclusive: lowerExclusive,
              upper: b.map { .value(DecimalLiteral($0)) }, upperInclusive: upperInclusive)
}

func definition(_ name: String = "t", normalize: [NormalizeStep] = [], mask: String? = nil,
                maskOptions: RuleOptions? = nil, checks: [CheckRule] = [], examples: [Example] = [],
                parameters: [Parameter] = [], secure: Bool = false) -> FieldTypeDefinition {
    FieldTypeDefinition(
        name: name, secure: secure, parameters: parameters, normalization: normalize,
        mask: mask.map { MaskRule(pattern: $0, options: maskOptions ?? RuleOptions(name: "mask", location: at(1))) },
        checks: checks, examples: examples, location: testLocation)
}

func compile(_ d: FieldTypeDefinition, _ arguments: [String: ParameterValue] = [:],
             today: CivilDate = testToday) throws -> CompiledFieldType {
    let (compiled, diagnostics) = FieldCompiler.compile(d, arguments: arguments, today: today)
    let errors = diagnostics.filter { $0.severity == .error }
    #expect(errors.isEmpty, "unexpected diagnostics: \(errors)")
    return try #require(compiled)
}

func diagnosticIDs(_ d: FieldTypeDefinition, _ arguments: [String: ParameterValue] = [:]) -> [String] {
    FieldCompiler.compile(d, arguments: arguments, today: testToday).diagnostics.map(\.id.rawValue)
}

func compileType(normalize: [NormalizeStep] = [], mask: String? = nil, _ checks: CheckRule...) throws
    -> CompiledFieldType {
    try compile(definition(normalize: normalize, mask: mask, checks: checks))
}

extension CompiledFieldType {
    func failed(_ value: String, _ stage: Stage = .final) -> [String] {
        validate(value, stage: stage).violations.map(\.rule)
    }
    func live(_ value: String) -> Verdict { validate(value, stage: .live).verdict }
}

@Suite struct EngineFixturesTests {
    @Test func buildersCompileAPlainType() throws {
        let type = try compileType(check(.integer))
        #expect(type.isValid("12"))
        #expect(!type.isValid("1x"))
        #expect(type.arguments.isEmpty)
    }
}
