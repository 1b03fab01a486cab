/// One version of a type, read for comparison: its pipeline and its checks, each check with
/// what tells it apart from another and whether an automaton expresses it.
struct ComparedVersion {
    let type: CompiledFieldType

    /// How the comparison can use a check.
    enum Reach {
        /// Exactly as an automaton.
        case regular(ValueModelParts.Check)
        /// Not as an automaton, but bounded by automata: `under` accepts only text the
        /// check passes, `over` every text it passes (a `length … graphemes` counted exactly
        /// over text of scalars below U+0300; a date as the dates worth trying that it
        /// passes, or all text but those it refuses). Nil for a checksum: no automaton
        /// bounds it, and a witness search lets the engine judge.
        case outside(under: ValueModelParts.Check?, over: ValueModelParts.Check?)
    }

    /// What a model of a version is for, which decides the bound it takes of each check
    /// outside automata.
    enum Role {
        /// Proving that no value the version accepts is refused by another: the version's
        /// model must accept at least what it does (grapheme counts bounded from above).
        case proofAccepting
        /// The version that should refuse: its model must accept at most what it does
        /// (grapheme counts bounded from below; dates and checksums cannot be, and a proof
        /// that needs them is not attempted).
        case proofRefusing
        /// Looking for values the version accepts: candidates (dates among those worth
        /// trying; grapheme counts from above, the engine judging each candidate).
        case searchAccepting
        /// Looking for values the version refuses: from above, so that no value it refuses
        /// is missed.
        case searchRefusing
    }

    /// A check of error severity (warnings never change a verdict).
    struct Check {
        var rule: String
        /// Equal keys, equal checks: what either accepts, the other does too.
        var key: String
        var reach: Reach
        var date: DateLanguage?
        var graphemes: ClosedRange<Int>?
        var checksum: ChecksumAlgorithm?
    }

    var checks: [Check] = []
    /// The mask-one-of checks of error severity: their names.
    var maskOneOf: [Set<String>] = []

    init(_ type: CompiledFieldType, dateHints: [String: [String]] = [:]) throws(TooComplex) {
        self.type = type
        let separator = UInt32((type.definition.decimalSeparator ?? .point).byte)
        for check in type.checks where check.severity == .error {
            let rule = type.definition.checks.first { $0.options.name == check.rule }
            var item = Check(rule: check.rule, key: "", reach: .outside(under: nil, over: nil))
            func regular(_ language: RangeAutomaton, negated: Bool = false) {
                item.reach = .regular(.init(language: language, negated: negated))
            }
            switch check.kind {
            case .pattern(let program, let negated):
                item.key = "pattern \(negated) " + (rule.map { FieldTypeDefinition.spell($0.kind) } ?? "\(ObjectIdentifier(program))")
                regular(RangeAutomaton(program.automaton), negated: negated)
            case .length(let lower, let upper, let unit):
                item.key = "length \(lower) \(upper.map(String.init) ?? "") \(unit.rawValue)"
                if unit == .graphemes {
                    item.reach = .outside(
                        under: .init(language: try CheckLanguage.graphemeLength(lower: lower, upper: upper, under: true), negated: false),
                        over: .init(language: try CheckLanguage.graphemeLength(lower: lower, upper: upper, under: false), negated: false))
                    item.graphemes = lower...(upper ?? Int.max)
                } else {
                    regular(try CheckLanguage.length(lower: lower, upper: upper, unit: unit))
                }
            case .integer:
                item.key = "integer"
                regular(CheckLanguage.integer())
            case .decimal(let places):
                item.key = "decimal \(places.map(String.init) ?? "") \(separator)"
                regular(CheckLanguage.decimal(places: places, separator: separator))
            case .range(let range):
                item.key = "range \(separator) " + Self.spell(range)
                regular(try CheckLanguage.range(range, separator: separator))
            case .charset:
                guard case .charset(let classes)? = rule?.kind else { continue }
                let set = CheckLanguage.scalars(of: classes)
                item.key = "charset " + set.ranges.map { "\($0.lo)-\($0.hi)" }.joined(separator: ",")
                regular(CheckLanguage.charset(classes))
            case .oneOf:
                guard case .oneOf(let options, let ignoreCase)? = rule?.kind else { continue }
                let spelled = Set(options.map { ignoreCase ? $0.lowercased() : $0 }).sorted()
                item.key = "one-of \(ignoreCase) " + spelled.map { "\($0.utf8.count):\($0)" }.joined()
                regular(CheckLanguage.oneOf(options, ignoreCase: ignoreCase))
            case .date(let date):
                let language = DateLanguage(check: date)
                item.key = language.key
                item.date = language
                let tried = dateHints[date.format.format] ?? []
                item.reach = .outside(
                    under: .init(language: CheckLanguage.oneOf(tried.filter(language.passes), ignoreCase: false), negated: false),
                    over: .init(language: CheckLanguage.oneOf(tried.filter { !language.passes($0) }, ignoreCase: false),
                                negated: true))
            case .checksum(let algorithm):
                item.key = "checksum \(algorithm.rawValue)"
                item.checksum = algorithm
            case .maskOneOf(let names):
                maskOneOf.append(names)
                continue
            }
            checks.append(item)
        }
    }

    /// A range's bounds as numbers (`18...150`, `0<..<1`), whatever their spelling.
    static func spell(_ range: DecimalRange) -> String {
        func number(_ c: DecimalConstant) -> String {
            let p = c.parts
            if p.isZero { return "0" }
            var text = (p.negative ? "-" : "") + (p.integer.isEmpty ? "0" : String(decoding: p.integer, as: UTF8.self))
            if !p.fraction.isEmpty { text += "." + String(decoding: p.fraction, as: UTF8.self) }
            return text
        }
        return (range.lower.map(number) ?? "") + (range.lowerExclusive ? "<" : "")
            + (range.upperInclusive ? "..." : "..<") + (range.upper.map(number) ?? "")
    }

    /// The masks taking part in the choice, as the model's branches, the conditional ones
    /// first; the final one is the unconditional mask or, without one, no mask.
    var branches: [ValueModelParts.Branch] {
        func excluded(_ name: String?) -> Bool {
            maskOneOf.contains { names in name.map { !names.contains($0) } ?? true }
        }
        var out: [ValueModelParts.Branch] = []
        for (k, choice) in type.choices.enumerated() {
            let name = type.choiceNames[k]
            out.append(.init(mask: choice.mask, fillIsError: choice.check?.severity == .error,
                             condition: RangeAutomaton(choice.condition.automaton), name: name, excluded: excluded(name)))
        }
        out.append(.init(mask: type.mask, fillIsError: type.maskCheck?.severity == .error, condition: nil,
                         name: type.maskName, excluded: excluded(type.maskName)))
        return out
    }

    /// The pipeline's text: normalization steps and masks, which two versions must share for
    /// their checks to read the same text.
    var pipelineKey: String {
        type.definition.normalization.map(FieldTypeDefinition.spell).joined(separator: " ") + "\n"
            + Self.maskSpelling(type).joined(separator: "\n")
    }

    /// The model for `role` of the checks `include` keeps: those automata express, and the
    /// bound the role takes of the others (none, for a checksum).
    func parts(_ role: Role, keeping include: (Int) -> Bool = { _ in true }) -> ValueModelParts {
        var list: [ValueModelParts.Check] = []
        for (k, check) in checks.enumerated() where include(k) {
            switch check.reach {
            case .regular(let c):
                list.append(c)
            case .outside(let under, let over):
                let bound: ValueModelParts.Check? = switch (role, check.date != nil) {
                case (.proofRefusing, false): under
                case (.proofAccepting, false), (.searchAccepting, false), (.searchRefusing, _): over
                case (.searchAccepting, true): under
                default: nil
                }
                if let bound { list.append(bound) }
            }
        }
        return ValueModelParts(steps: type.definition.normalization, branches: branches, checks: list)
    }

    /// The date texts worth trying for each date format of `types`: the ends of every date
    /// check's range and just outside them.
    static func dateHints(_ types: [CompiledFieldType]) -> [String: [String]] {
        var hints: [String: Set<String>] = [:]
        for type in types {
            for check in type.checks {
                guard case .date(let date) = check.kind else { continue }
                hints[date.format.format, default: []].formUnion(DateLanguage(check: date).hints)
            }
        }
        return hints.mapValues { $0.sorted() }
    }
}
