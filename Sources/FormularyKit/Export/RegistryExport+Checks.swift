import FormularyJSON
import FormularyRules

extension RegistryExport {
    /// The check's kind as the rule language spells its keyword (`checksum`, not `luhn`:
    /// the algorithm is an argument, and the default rule name is in `rule`).
    static func kindName(_ kind: CheckKind) -> String {
        switch kind {
        case .checksum: "checksum"
        default: kind.keyword
        }
    }

    /// The check's arguments, one object per kind (see `docs/export.md`). A `$param`
    /// reference is written `{"parameter": "NAME"}`: the client substitutes the parameter's
    /// default or the form field's argument.
    static func arguments(_ kind: CheckKind) -> JSONValue {
        switch kind {
        case .length(let range, let unit):
            return ["range": rangeValue(range) { .integer($0) }, "unit": .string(unit.rawValue)]
        case .integer:
            return .object([:])
        case .decimal(let places):
            return ["places": places.map { arg($0) { .integer($0) } } ?? .null]
        case .range(let range):
            // Decimal bounds stay strings: a client that reads JSON numbers as doubles would
            // otherwise compare 0.1 inexactly, and range checks compare exact decimals.
            return ["range": rangeValue(range) { .string($0.text) }]
        case .pattern(let source, let flags, let negated):
            return ["regex": .string(source), "flags": .string(flagText(flags)), "negate": .bool(negated),
                    "automaton": automaton(source, flags)]
        case .charset(let classes):
            return ["classes": .array(classes.map { c -> JSONValue in
                switch c {
                case .digits: ["class": "digits"]
                case .letters: ["class": "letters"]
                case .marks: ["class": "marks"]
                case .spaces: ["class": "spaces"]
                case .punctuation: ["class": "punctuation"]
                case .alphanumerics: ["class": "alphanumerics"]
                case .literal(let characters): ["class": "literal", "characters": .string(characters)]
                }
            })]
        case .oneOf(let options, let ignoreCase):
            return ["options": .array(options.map(JSONValue.string)), "ignore_case": .bool(ignoreCase)]
        case .date(let format, let range):
            return ["format": .string(format),
                    "range": range.map { rangeValue($0) { .string(dateBound($0)) } } ?? .null]
        case .checksum(let algorithm):
            return ["algorithm": .string(algorithm.rawValue)]
        case .maskOneOf(let names):
            // A parameter holds the names separated by white space.
            return ["masks": arg(names) { .array($0.map(JSONValue.string)) }]
        }
    }

    /// `""`, `"i"`, `"x"` or `"ix"`.
    static func flagText(_ flags: RegexFlags) -> String {
        (flags.contains(.caseInsensitive) ? "i" : "") + (flags.contains(.extended) ? "x" : "")
    }

    /// The pattern's compiled automaton, `{"kind", "start", "accepting", "universal",
    /// "transitions"}` (docs/export.md, "Patterns and their automata"). Only types without
    /// errors are exported, so the pattern compiles.
    static func automaton(_ source: String, _ flags: RegexFlags) -> JSONValue {
        guard let automaton = PatternAutomaton.compiled(source, flags: flags) else { return .null }
        func ids(_ states: [Int]) -> JSONValue { .array(states.map { .integer($0) }) }
        return [
            "kind": .string(automaton.kind.rawValue),
            "start": ids(automaton.start),
            "accepting": ids(automaton.accepting),
            "universal": ids(automaton.universal),
            "transitions": .array(automaton.transitions.map { edges in
                .array(edges.map { [.integer(Int($0.lo)), .integer(Int($0.hi)), .integer(Int($0.target))] })
            }),
        ]
    }

    /// `{"lower", "lower_exclusive", "upper", "upper_inclusive"}`, a missing bound being null
    /// (`18...` has no upper bound; `16` is `{"lower": 16, …, "upper": 16, "upper_inclusive": true}`).
    static func rangeValue<Bound>(_ range: RangeSpec<Bound>, _ bound: (Bound) -> JSONValue) -> JSONValue {
        [
            "lower": range.lower.map { arg($0, bound) } ?? .null,
            "lower_exclusive": .bool(range.lowerExclusive),
            "upper": range.upper.map { arg($0, bound) } ?? .null,
            "upper_inclusive": .bool(range.upperInclusive),
        ]
    }

    static func arg<Value>(_ arg: Arg<Value>, _ value: (Value) -> JSONValue) -> JSONValue {
        switch arg {
        case .value(let v): value(v)
        case .parameter(let name, _): ["parameter": .string(name)]
        }
    }

    /// `2000-01-31`, `today`, `today+12y`, `today-30d`: as written in the rule language.
    static func dateBound(_ bound: DateBound) -> String {
        switch bound {
        case let .absolute(year, month, day):
            return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
        case let .today(offset, unit):
            if offset == 0 { return "today" }
            return "today" + (offset > 0 ? "+" : "-") + String(abs(offset)) + unit.rawValue
        }
    }

    private static func pad(_ n: Int, _ width: Int) -> String {
        let digits = String(n)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
