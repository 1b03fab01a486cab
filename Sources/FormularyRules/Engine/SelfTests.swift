/// Runs a type's `accept` and `reject` examples.
///
/// - `accept "V"` passes when V passes the final stage; `accept live "V"` when V's live
///   verdict is not `invalid`. With `formats "E"`, V must also format to E.
/// - `reject "V" RULE…` passes when the set of rules V fails (errors and warnings, final
///   stage; live stage with `live`) equals the listed set exactly.
/// A `secure` type's example values are not quoted in the reasons.
public enum SelfTests: Sendable {
    /// Runs every example of `type`, in source order.
    public static func run(_ type: CompiledFieldType) -> [SelfTestOutcome] {
        type.definition.examples.map { run($0, on: type) }
    }

    static func run(_ example: Example, on type: CompiledFieldType) -> SelfTestOutcome {
        let stage: Stage = example.live ? .live : .final
        let result = type.validate(example.value, stage: stage)
        let secure = type.definition.secure
        let shown = secure ? MessageTemplate.securePlaceholder : "\"\(example.value)\""
        func failed(_ reason: String) -> SelfTestOutcome {
            SelfTestOutcome(example: example, passed: false, reason: reason)
        }
        switch example.expectation {
        case .accept(let expected):
            if example.live ? result.verdict == .invalid : result.verdict != .valid {
                let rules = result.violations.filter { $0.severity == .error }
                    .map { "\($0.rule) (\($0.message))" }.joined(separator: ", ")
                return failed("\(shown) was expected to pass\(example.live ? " live" : "") but fails \(rules)")
            }
            if let expected {
                let formatted = type.format(example.value)
                if formatted != expected {
                    let got = secure ? MessageTemplate.securePlaceholder : "\"\(formatted)\""
                    let want = secure ? MessageTemplate.securePlaceholder : "\"\(expected)\""
                    return failed("\(shown) formats to \(got), not \(want)")
                }
            }
        case .reject(let rules):
            let expected = Set(rules)
            let actual = Set(result.violations.map(\.rule))
            if expected != actual {
                let list = { (s: Set<String>) in s.isEmpty ? "no rule" : s.sorted().joined(separator: ", ") }
                return failed("\(shown) was expected to fail \(list(expected))\(example.live ? " live" : "") but fails \(list(actual))")
            }
        }
        return SelfTestOutcome(example: example, passed: true, reason: nil)
    }
}
