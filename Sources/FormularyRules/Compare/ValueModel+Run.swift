/// A ``ValueModelParts`` over a comparison's classes, ready to be walked.
///
/// A value being read is a set of *threads*, each a flat array of Int32 (one thread, but
/// for `trim`: white space after the text may be inner, when more text follows, or
/// trailing, when none does, and both readings are kept until the value says which):
/// - one slot per normalization step (trim: 0 before the text, 1 in it, 2 after inner white
///   space, 3 in trailing white space, 4 in trailing white space after a value that is
///   accepted (what follows the trim cleared); collapse-spaces: 1 in a run of white space;
///   capitalize: 1 looking for a word's first letter);
/// - one slot per `when` condition: its automaton's state, -1 once it cannot match;
/// - per branch (mask that may be chosen): the mask's position (-1 when the value no
///   longer fits: the rest is copied unchanged), then each check's state.
/// A branch that can no longer be chosen is `gone`; one that fails whenever chosen is
/// `rejecting`; a check satisfied whatever follows is `satisfied`. These collapse states
/// that behave alike, which keeps the automata small.
final class ValueModel {
    static let copying: Int32 = -1, gone: Int32 = -3, rejecting: Int32 = -4
    static let satisfied: Int32 = -2

    enum Step {
        case trim, collapse, stripSpaces, strip, upper, lower, capitalize
    }

    let stepKinds: [Step]
    /// Per step and class: white space (trim, collapse, strip-spaces), stripped (strip), or
    /// `capitalize`'s kind.
    let stepFlags: [[UInt8]]
    /// Per step and class: what a case mapping makes of it (nil: itself).
    let stepMaps: [[[Int32]?]]

    // Per branch, in plain arrays (reading a struct of arrays out of an array retains them,
    // which dominated the walk): its mask's items from `itemStart[k]`, `itemCount[k]` of
    // them, each a literal's class (≥ 0) or a slot (`digitSlot`, `letterSlot`, `anySlot`).
    let items: [Int32]
    let itemStart: [Int]
    let itemCount: [Int]
    let trailingStart: [Int]
    let hasMask: [Bool]
    let fillIsError: [Bool]
    let excluded: [Bool]
    let conditions: [ClassAutomaton?]
    let conditionFlags: [Bool]
    static let digitSlot: Int32 = -1, letterSlot: Int32 = -2, anySlot: Int32 = -3

    let checks: [ClassAutomaton]
    let negated: [Bool]
    /// Per check, whether a state is universal (`universal[universalStart[j] + state]`),
    /// copied out of the automata: reading a class's array through the class retains it.
    /// NFAs have none (never universal as far as the walk knows).
    let universal: [Bool]
    let universalStart: [Int]
    let universalCount: [Int]
    let conditionUniversal: [Bool]
    let conditionUniversalStart: [Int]
    let conditionUniversalCount: [Int]
    let isSlot: [Bool], isDigit: [Bool], isLetter: [Bool]
    let classes: ScalarClasses
    let isWhiteSpace: [Bool]
    /// Whether a blank value is accepted whatever the checks say (``ValueModelParts/blankIsAbsent``).
    let blankIsAbsent: Bool
    let spaceClass: Int32

    let conditionBase: Int
    let branchBase: Int
    let stride: Int
    let threadLength: Int

    init(_ parts: ValueModelParts, classes: ScalarClasses, budget: ComparisonBudget) throws(TooComplex) {
        self.classes = classes
        let n = classes.count
        let reps = classes.representatives
        func flags(_ set: ScalarSet) -> [Bool] { reps.map { set.contains($0) } }
        isWhiteSpace = flags(PipelineSets.whiteSpace)
        spaceClass = classes.id(of: 0x20)
        blankIsAbsent = parts.blankIsAbsent
        isSlot = flags(PipelineSets.slots)
        isDigit = flags(PipelineSets.digits)
        isLetter = flags(UnicodeTables.letters)
        var kinds: [Step] = [], stepFlags: [[UInt8]] = [], stepMaps: [[[Int32]?]] = []
        for step in parts.steps {
            var f = [UInt8](repeating: 0, count: n)
            var m = [[Int32]?](repeating: nil, count: n)
            func mapped(_ table: CaseMappings.Table) {
                for c in 0..<n { m[c] = table[reps[c]].map { $0.map { classes.id(of: $0) } } }
            }
            switch step {
            case .trim, .collapseSpaces, .stripSpaces:
                kinds.append(step == .trim ? .trim : step == .collapseSpaces ? .collapse : .stripSpaces)
                for c in 0..<n { f[c] = isWhiteSpace[c] ? 1 : 0 }
            case .strip(let chars):
                kinds.append(.strip)
                let set = ScalarSet(chars.unicodeScalars.map { ScalarRange($0.value, $0.value) })
                for c in 0..<n { f[c] = set.contains(reps[c]) ? 1 : 0 }
            case .uppercase: kinds.append(.upper); mapped(CaseMappings.upper)
            case .lowercase: kinds.append(.lower); mapped(CaseMappings.lower)
            case .capitalize:
                kinds.append(.capitalize)
                mapped(CaseMappings.title)
                for c in 0..<n { f[c] = UInt8(ValueModelParts.capitalizeKind(reps[c])) }
            }
            stepFlags.append(f)
            stepMaps.append(m)
        }
        stepKinds = kinds
        self.stepFlags = stepFlags
        self.stepMaps = stepMaps
        var items: [Int32] = [], itemStart: [Int] = [], itemCount: [Int] = [], trailingStart: [Int] = []
        var conditions: [ClassAutomaton?] = []
        for b in parts.branches {
            itemStart.append(items.count)
            for item in b.mask?.items ?? [] {
                switch item {
                case .digit: items.append(Self.digitSlot)
                case .letter: items.append(Self.letterSlot)
                case .alphanumeric: items.append(Self.anySlot)
                case .literal(let s): items.append(classes.id(of: s.value))
                }
            }
            itemCount.append(items.count - itemStart.last!)
            trailingStart.append(b.mask?.trailingLiteralsStart ?? 0)
            conditions.append(try b.condition.map { (a) throws(TooComplex) in try ClassAutomaton(a, classes: classes, budget: budget) })
        }
        (self.items, self.itemStart, self.itemCount, self.trailingStart) = (items, itemStart, itemCount, trailingStart)
        self.conditions = conditions
        conditionFlags = conditions.map { $0 != nil }
        hasMask = parts.branches.map { $0.mask != nil }
        fillIsError = parts.branches.map { $0.fillIsError && $0.mask != nil }
        excluded = parts.branches.map(\.excluded)
        let branchCount = parts.branches.count
        var checks: [ClassAutomaton] = []
        for c in parts.checks { checks.append(try ClassAutomaton(c.language, classes: classes, budget: budget)) }
        self.checks = checks
        negated = parts.checks.map(\.negated)
        func flatten(_ automata: [ClassAutomaton?]) -> ([Bool], [Int], [Int]) {
            var flat: [Bool] = [], start: [Int] = [], count: [Int] = []
            for a in automata {
                start.append(flat.count)
                if let a, a.isDeterministic { flat += a.universal }
                count.append(flat.count - start.last!)
            }
            return (flat, start, count)
        }
        (universal, universalStart, universalCount) = flatten(checks)
        (conditionUniversal, conditionUniversalStart, conditionUniversalCount) = flatten(conditions)
        conditionBase = parts.steps.count
        branchBase = conditionBase + branchCount
        stride = 1 + checks.count
        threadLength = branchBase + branchCount * stride
    }

    // MARK: - Threads

    /// The thread before the first scalar (nil when the type accepts no present value).
    func initialThread() throws(TooComplex) -> [Int32]? {
        var t = [Int32](repeating: 0, count: threadLength)
        for (i, kind) in stepKinds.enumerated() where kind == .capitalize { t[i] = 1 }
        for k in conditions.indices {
            t[conditionBase + k] = conditions[k]?.start ?? 0
            let base = branchBase + k * stride
            for (j, check) in checks.enumerated() { t[base + 1 + j] = check.start }
        }
        return try settle(&t) ? t : nil
    }

    /// The threads after `thread` reads a raw scalar of class `c`, added to `out`.
    func advance(_ thread: [Int32], _ c: Int32, into out: inout [[Int32]]) throws(TooComplex) {
        let first = out.count
        try run(thread, step: 0, [c], &out)
        // A reading of trailing white space (trim 3) just made: what follows it can only be
        // more white space, which changes nothing after the trim, so all that matters is
        // whether the value would be accepted if it ended here. Keep that as trim state 4
        // with everything after the trim cleared (or drop the reading), instead of the
        // frozen states: a type that trims and counts would otherwise need a state per pair
        // of lengths (before and after the white space run).
        var k = first
        while k < out.count {
            var t = out[k]
            guard let i = stepKinds.indices.first(where: { stepKinds[$0] == .trim && t[$0] == 3 }) else { k += 1; continue }
            if try accepts(t) {
                for j in (i + 1)..<threadLength { t[j] = 0 }
                t[i] = 4
                out[k] = t
                k += 1
            } else {
                out.remove(at: k)
            }
        }
    }

    private func run(_ thread: [Int32], step i: Int, _ input: [Int32], _ out: inout [[Int32]]) throws(TooComplex) {
        if i == stepKinds.count {
            var t = thread
            for c in input {
                try read(&t, c)
                guard try settle(&t) else { return }
            }
            out.append(t)
            return
        }
        var pending: [([Int32], [Int32])] = [(thread, [])]
        for c in input {
            var next: [([Int32], [Int32])] = []
            for (t, produced) in pending {
                let flag = stepFlags[i][Int(c)]
                var t = t
                switch stepKinds[i] {
                case .trim:
                    if flag == 1 {
                        switch t[i] {
                        case 0, 3, 4: next.append((t, produced))
                        case 2: next.append((t, produced + [c]))   // the run's start forked already
                        default:
                            // The first white space after text: inner if text follows, else
                            // trailing; both readings go on.
                            var inner = t
                            inner[i] = 2
                            next.append((inner, produced + [c]))
                            t[i] = 3
                            next.append((t, produced))
                        }
                    } else if t[i] < 3 {
                        t[i] = 1
                        next.append((t, produced + [c]))
                    }
                case .collapse:
                    if flag == 1 {
                        let inRun = t[i] == 1
                        t[i] = 1
                        next.append((t, inRun ? produced : produced + [spaceClass]))
                    } else {
                        t[i] = 0
                        next.append((t, produced + [c]))
                    }
                case .stripSpaces, .strip:
                    next.append((t, flag == 1 ? produced : produced + [c]))
                case .upper, .lower:
                    next.append((t, produced + (stepMaps[i][Int(c)] ?? [c])))
                case .capitalize:
                    var output = [c]
                    if flag == 1 { t[i] = 1 }
                    else if t[i] == 1 {
                        if flag == 2 { output = stepMaps[i][Int(c)] ?? [c]; t[i] = 0 }
                        else if flag != 3 { t[i] = 0 }
                    }
                    next.append((t, produced + output))
                }
            }
            pending = next
        }
        for (t, produced) in pending { try run(t, step: i + 1, produced, &out) }
    }


}
