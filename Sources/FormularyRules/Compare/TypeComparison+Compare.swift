extension TypeComparison {
    /// Compares `new` with `old`: each rule, the type as a whole, and the shortest values
    /// each accepts that the other refuses. Both types must have been compiled for the same
    /// today (date checks are compared for that day).
    public init(old: CompiledFieldType, new: CompiledFieldType, limits: Limits = Limits()) {
        let hints = ComparedVersion.dateHints([old, new])
        oldName = old.definition.name
        newName = new.definition.name
        secure = old.definition.secure || new.definition.secure
        readsToday = (old.checks + new.checks).contains { if case .date = $0.kind { true } else { false } }
        let before = old.definition.normalization.map(FieldTypeDefinition.spell).joined(separator: " ")
        let after = new.definition.normalization.map(FieldTypeDefinition.spell).joined(separator: " ")
        normalization = before == after ? nil : Change(old: before, new: after)
        // One budget for the whole comparison: a hostile pattern costs the cap once, not once
        // per question. The type as a whole is decided first, the rules on their own after.
        let budget = ComparisonBudget(cap: limits.states)
        defer { rules = RuleComparer(old: old, new: new, limits: limits, budget: budget).rules }
        rules = []
        guard let a = try? ComparedVersion(old, dateHints: hints), let b = try? ComparedVersion(new, dateHints: hints) else {
            let tooBig = Difference.unknown(Comparer.tooComplex(limits))
            (newlyRejected, newlyAccepted, setAside, relation) = (tooBig, tooBig, [], .undecided)
            return
        }
        let comparer = Comparer(limits: limits, samePipeline: a.pipelineKey == b.pipelineKey, budget: budget)
        let rejected = comparer.difference(from: a, to: b, labels: ("OLD", "NEW"))
        let accepted = comparer.difference(from: b, to: a, labels: ("NEW", "OLD"))
        newlyRejected = rejected.difference
        newlyAccepted = accepted.difference
        setAside = Array(Set(rejected.setAside + accepted.setAside)).sorted()
        var disjoint = false
        if newlyRejected.status == .some && newlyAccepted.status == .some {
            disjoint = comparer.disjoint(a, b)
        }
        relation = Relation(newlyRejected: newlyRejected.status, newlyAccepted: newlyAccepted.status, disjoint: disjoint)
        if secure {
            newlyRejected.witness = nil
            newlyAccepted.witness = nil
        }
    }
}

/// The decision for one direction: which values one version accepts and the other refuses.
struct Comparer {
    let limits: TypeComparison.Limits
    /// Both versions normalize and mask alike, so that their checks read the same text and a
    /// check both have alike can be set aside.
    let samePipeline: Bool
    /// Shared by every question of one comparison.
    let budget: ComparisonBudget

    static func tooComplex(_ limits: TypeComparison.Limits) -> String {
        "too complex to decide (more than \(limits.states) automaton states)"
    }

    /// Values `a` accepts and `b` refuses (`labels` name them in reasons), and the checks
    /// set aside as alike in both.
    ///
    /// Checks both versions have alike are set aside first: a value `a` accepts passes its
    /// copy, so the copy in `b` cannot refuse it, and leaving both out keeps the automata
    /// small (a `length ...254 bytes` times an e-mail pattern is tens of thousands of
    /// states). The values the rest tells apart include every value that differs; when the
    /// shortest of them is refused by `a` after all, the checks it failed are put back into
    /// `a` and the question asked again, until a witness holds or nothing is left to put back.
    func difference(from a: ComparedVersion, to b: ComparedVersion,
                    labels: (String, String)) -> (difference: TypeComparison.Difference, setAside: [String]) {
        var pairs: [(Int, Int)] = []
        if samePipeline {
            var used = Set<Int>()
            for (j, check) in b.checks.enumerated() {
                if let i = a.checks.indices.first(where: { !used.contains($0) && a.checks[$0].key == check.key }) {
                    used.insert(i)
                    pairs.append((i, j))
                }
            }
        }
        // A check put back goes back into `a` only: its twin in `b` stays out, since it
        // cannot refuse what `a`'s copy accepts.
        var restored = Set<Int>()
        func paired() -> (a: Set<Int>, b: Set<Int>) {
            (Set(pairs.filter { !restored.contains($0.0) }.map(\.0)), Set(pairs.map(\.1)))
        }
        // `b`'s checks outside automata that nothing in `a` settles: left out of `b`, they
        // may refuse values the automata cannot see (a grapheme count is kept in, bounded
        // from below, and `a`'s from above).
        let implied = Set(b.checks.indices.filter { j in
            guard case .outside = b.checks[j].reach else { return false }
            return samePipeline && a.checks.contains { Self.implies($0, b.checks[j]) }
        })
        let open = b.checks.indices.filter { j in
            guard !pairs.contains(where: { $0.1 == j }), !implied.contains(j), case .outside = b.checks[j].reach else { return false }
            return b.checks[j].graphemes == nil
        }
        let judge = { (value: String) -> Bool in
            a.type.validate(value).verdict == .valid && b.type.validate(value).verdict == .invalid
        }
        var found: [String] = []
        do {
            for _ in 0...a.checks.count {
                let (pa, pb) = paired()
                let reduced = try Self.combine(a.parts(.proofAccepting) { !pa.contains($0) },
                                               b.parts(.proofRefusing) { !pb.contains($0) && !implied.contains($0) },
                                               .difference, budget)
                guard let path = reduced.dfa.shortest(order: reduced.printable) ?? reduced.dfa.shortest(order: reduced.order) else {
                    if open.isEmpty { return (.none, setAside(a, b, paired().b)) }
                    break
                }
                let witness = reduced.text(path)
                if judge(witness) {
                    // Every value that differs fails a check the automata have (none is open),
                    // so the shortest of the automata's difference is the shortest there is.
                    if open.isEmpty {
                        return (.init(status: .some, witness: witness, isShortest: true, reason: nil), setAside(a, b, paired().b))
                    }
                    found.append(witness)
                    break
                }
                let failed = Set(a.type.validate(witness).violations.filter { $0.severity == .error }.map(\.rule))
                // Only a check automata express can be put back.
                let back = pairs.filter { p in
                    guard !restored.contains(p.0), failed.contains(a.checks[p.0].rule) else { return false }
                    if case .regular = a.checks[p.0].reach { return true } else { return false }
                }
                guard !back.isEmpty else { break }
                for p in back { restored.insert(p.0) }
            }
        } catch {
            return (.unknown(Self.tooComplex(limits)), setAside(a, b, paired().b))
        }
        return searchOrGiveUp(a, b, open: open, labels: labels, pairedB: paired().b, implied: implied,
                              setAside: setAside(a, b, paired().b), judge: judge, found: found)
    }

    /// The checks of `b` outside automata that were set aside as alike in `a`, by name.
    private func setAside(_ a: ComparedVersion, _ b: ComparedVersion, _ paired: Set<Int>) -> [String] {
        paired.sorted().compactMap { j in
            if case .outside = b.checks[j].reach { b.checks[j].rule } else { nil }
        }
    }

    /// Looks for a witness among candidates judged by the real engine (``ComparedVersion/Role``
    /// says how the checks outside automata are bounded); says why it cannot decide when
    /// none holds.
    private func searchOrGiveUp(_ a: ComparedVersion, _ b: ComparedVersion, open: [Int], labels: (String, String),
                                pairedB: Set<Int>, implied: Set<Int>, setAside: [String], judge: (String) -> Bool,
                                found: [String] = []) -> (difference: TypeComparison.Difference, setAside: [String]) {
        var found = found
        do {
            let prepared = try Self.prepare(a.parts(.searchAccepting),
                                            b.parts(.searchRefusing) { !pairedB.contains($0) && !implied.contains($0) }, budget)
            let differing = try prepared.combined(.difference, budget: budget)
            if let w = CandidateSearch(dfa: differing.dfa, classes: differing.classes, maxCandidates: limits.candidates)
                .first(where: judge) { found.append(w) }
            // A check of `b` no automaton bounds (a checksum) refuses values both automata
            // accept: look among those too.
            let unbounded = open.contains { j in
                if case .outside(_, nil) = b.checks[j].reach { true } else { false }
            }
            if unbounded || found.isEmpty {
                let common = try prepared.combined(.intersection, budget: budget)
                if let w = CandidateSearch(dfa: common.dfa, classes: common.classes, maxCandidates: limits.candidates)
                    .first(where: judge) { found.append(w) }
            }
        } catch {
            if found.isEmpty { return (.unknown(Self.tooComplex(limits)), setAside) }
        }
        if let best = found.min(by: Self.shortlex) {
            return (.init(status: .some, witness: best, isShortest: false, reason: nil), setAside)
        }
        return (.unknown(reason(a, b, open: open, labels: labels)), setAside)
    }

    /// Shorter first, then in the readable order of their scalars (``ScalarClasses/rank(_:)``).
    static func shortlex(_ x: String, _ y: String) -> Bool {
        let (a, b) = (Array(x.unicodeScalars), Array(y.unicodeScalars))
        if a.count != b.count { return a.count < b.count }
        for (s, t) in zip(a, b) where s != t {
            return (ScalarClasses.rank(s.value), s.value) < (ScalarClasses.rank(t.value), t.value)
        }
        return false
    }

    /// Why `a`'s values might be refused by `b` without the comparison being able to tell.
    private func reason(_ a: ComparedVersion, _ b: ComparedVersion, open: [Int], labels: (String, String)) -> String {
        let pipeline = samePipeline ? "" : " (the versions normalize or mask differently, so no check is set aside)"
        guard !open.isEmpty else {
            // The automata tell values apart, but no candidate held when judged: a check they
            // only bound (a grapheme count, a date, a checksum) decided otherwise each time.
            let bounded = (a.checks + b.checks).filter { if case .outside = $0.reach { true } else { false } }
            let names = Array(Set(bounded.map { Self.describe($0) })).sorted()
            return "cannot decide: no candidate value settled " + (names.isEmpty ? "it" : names.joined(separator: ", ")) + pipeline
        }
        let parts = open.map { j -> String in
            let check = b.checks[j]
            if let algorithm = check.checksum {
                let theirs = a.checks.compactMap(\.checksum).filter { $0 != algorithm }
                if let other = theirs.first { return "checksum \(other.rawValue) vs \(algorithm.rawValue)" }
                // Both have it, but it could not be set aside: they read differently
                // normalized or masked text (which the pipeline note below says).
                if a.checks.contains(where: { $0.checksum == algorithm }) { return "checksum \(algorithm.rawValue) in both" }
                return "checksum \(algorithm.rawValue) only in \(labels.1)"
            }
            return "\(labels.1)'s " + Self.describe(check)
        }
        return "cannot decide: " + parts.joined(separator: ", ") + pipeline
    }

    /// A check outside automata as a reason names it: `luhn (checksum)`, `adult (date)`.
    private static func describe(_ check: ComparedVersion.Check) -> String {
        let kind = check.checksum != nil ? "checksum" : check.date != nil ? "date" : "length in graphemes"
        return check.rule == kind ? kind : "\(check.rule) (\(kind))"
    }

    /// Whether every text check `x` passes, `y` passes too (both outside automata).
    static func implies(_ x: ComparedVersion.Check, _ y: ComparedVersion.Check) -> Bool {
        if x.key == y.key { return true }
        if let dx = x.date, let dy = y.date { return dy.includes(dx) == true }
        if let gx = x.graphemes, let gy = y.graphemes { return gy.lowerBound <= gx.lowerBound && gx.upperBound <= gy.upperBound }
        return false
    }

}
