import FormularyRules

/// In-process validation speed of compiled field types, one core, release build.
///
/// Each case compiles a definition equivalent to a built-in type, generates valid values
/// with a fixed seed and times `isValid` (the batch fast path) and `validate` over them.
/// To add a case, append an `EngineBenchCase` to `engineBenchCases`.
struct EngineBenchCase: Sendable {
    var name: String
    var definition: FieldTypeDefinition
    var arguments: [String: ParameterValue] = [:]
    /// Makes the i-th value from a random source.
    var makeValue: @Sendable (inout BenchRandom) -> String
    /// The throughput the engine is meant to reach, values per second.
    var target: Double
}

struct BenchRandom {
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    mutating func next(_ bound: Int) -> Int {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Int(state % UInt64(bound))
    }
    mutating func digits(_ n: Int) -> String {
        var s = ""
        for _ in 0..<n { s.append(Character(Unicode.Scalar(UInt8(48 + next(10))))) }
        return s
    }
}

private let here = SourceLocation(file: "bench", line: 1, column: 1)
private let benchToday = CivilDate(year: 2026, month: 11, day: 29)

private func rule(_ kind: CheckKind, as name: String? = nil) -> CheckRule {
    CheckRule(kind: kind, options: RuleOptions(name: name ?? kind.keyword, location: here))
}

private func closedRange<T>(_ a: T, _ b: T) -> RangeSpec<T> {
    RangeSpec(lower: .value(a), upper: .value(b), upperInclusive: true)
}

private func luhnCompleted(_ body: String) -> String {
    var sum = 0
    for (k, c) in body.utf8.reversed().enumerated() {
        var d = Int(c - 48)
        if k % 2 == 0 { d *= 2; if d > 9 { d -= 9 } }
        sum += d
    }
    return body + String((10 - sum % 10) % 10)
}

let engineBenchCases: [EngineBenchCase] = [
    EngineBenchCase(
        name: "cvv (mask 000)",
        definition: FieldTypeDefinition(name: "cvv", secure: true,
                                        mask: MaskRule(pattern: "000", options: RuleOptions(name: "mask", location: here)),
                                        location: here),
        makeValue: { r in r.digits(3) }, target: 2_000_000),
    EngineBenchCase(
        name: "cvv (charset + length)",
        definition: FieldTypeDefinition(name: "cvv", secure: true,
                                        checks: [rule(.charset([.digits])), rule(.length(closedRange(3, 4), .graphemes))],
                                        location: here),
        makeValue: { r in r.digits(3 + r.next(2)) }, target: 2_000_000),
    EngineBenchCase(
        name: "age (integer + range 18...120)",
        definition: FieldTypeDefinition(
            name: "age",
            parameters: [Parameter(name: "min", defaultValue: .integer("18"), location: here),
                         Parameter(name: "max", defaultValue: .integer("120"), location: here)],
            normalization: [.trim],
            checks: [rule(.integer),
                     rule(.range(RangeSpec(lower: .parameter("min", here), upper: .parameter("max", here),
                                           upperInclusive: true)))],
            location: here),
        makeValue: { r in String(18 + r.next(103)) }, target: 2_000_000),
    EngineBenchCase(
        name: "exp-date (mask 00/00, date MM/yy today-12y...today+12y)",
        definition: FieldTypeDefinition(
            name: "exp-date", normalization: [.stripSpaces],
            mask: MaskRule(pattern: "00/00", options: RuleOptions(name: "mask", location: here)),
            checks: [rule(.date(format: "MM/yy",
                                range: RangeSpec(lower: .value(.today(offset: -12, unit: .years)),
                                                 upper: .value(.today(offset: 12, unit: .years)),
                                                 upperInclusive: true)))],
            location: here),
        makeValue: { r in
            let m = 1 + r.next(12), y = 20 + r.next(10)
            return (m < 10 ? "0\(m)" : "\(m)") + "/" + "\(y)"
        }, target: 2_000_000),
    EngineBenchCase(
        name: "email (trim, lowercase, pattern, length)",
        definition: FieldTypeDefinition(
            name: "email", normalization: [.trim, .lowercase],
            checks: [rule(.pattern(source: "[a-z0-9._%+-]+@[a-z0-9-]+(?:\\.[a-z0-9-]+)*\\.[a-z]{2,}", flags: [])),
                     rule(.length(RangeSpec(lower: nil, upper: .value(254), upperInclusive: true), .graphemes))],
            location: here),
        makeValue: { r in "jo.smith\(r.next(1_000_000))@example.com" }, target: 1_000_000),
    EngineBenchCase(
        name: "credit-card (strip, mask, luhn)",
        definition: FieldTypeDefinition(
            name: "credit-card", normalization: [.strip(" -")],
            mask: MaskRule(pattern: "0000 0000 0000 0000", options: RuleOptions(name: "mask", location: here)),
            checks: [rule(.checksum(.luhn))],
            location: here),
        makeValue: { r in
            let card = luhnCompleted("4" + r.digits(14))
            guard r.next(2) == 0 else { return card }
            return stride(from: 0, to: 16, by: 4).map { String(card.dropFirst($0).prefix(4)) }.joined(separator: " ")
        }, target: 1_000_000),
]

private func measure(_ values: [String], seconds: Double, _ body: (String) -> Bool) -> (rate: Double, valid: Int) {
    let clock = ContinuousClock()
    var processed = 0, valid = 0
    let start = clock.now
    let budget = Duration.milliseconds(Int64(seconds * 1000))
    repeat {
        for v in values where body(v) { valid += 1 }
        processed += values.count
    } while clock.now - start < budget
    let elapsed = clock.now - start
    let s = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return (Double(processed) / s, valid)
}

private func formatRate(_ rate: Double) -> String {
    let millions = (rate / 10_000).rounded() / 100
    return "\(millions)M/s"
}

func runEngineBench(seconds: Double = 1.0) {
    print("Engine: in-process validation, one core (values per second)")
    var allMet = true
    for benchCase in engineBenchCases {
        let (compiled, diagnostics) = FieldCompiler.compile(benchCase.definition, arguments: benchCase.arguments,
                                                            today: benchToday)
        guard let type = compiled else {
            print("  \(benchCase.name): does not compile: \(diagnostics.map(\.message))")
            allMet = false
            continue
        }
        var random = BenchRandom()
        let values = (0..<100_000).map { _ in benchCase.makeValue(&random) }
        let fast = measure(values, seconds: seconds) { type.isValid($0) }
        let full = measure(values, seconds: seconds / 2) { type.validate($0).verdict == .valid }
        let met = fast.rate >= benchCase.target
        allMet = allMet && met
        let invalid = values.filter { !type.isValid($0) }.count
        print("  \(benchCase.name): isValid \(formatRate(fast.rate)) (target \(formatRate(benchCase.target))\(met ? "" : ", MISSED")), "
              + "validate \(formatRate(full.rate)); \(invalid) of \(values.count) generated values invalid")
    }
    print(allMet ? "Engine: all targets met" : "Engine: some targets missed")
}
