/// Each rule of two versions compared on its own: what it lets through, as if it were its
/// type's only rule. Checks that automata express and masks are compared on the raw values,
/// through their version's normalization and masks (the masks' fill checks aside), exactly;
/// dates, grapheme counts and checksums on the text they read (intervals of dates and
/// counts, checksums by name).
struct RuleComparer {
    let old: CompiledFieldType
    let new: CompiledFieldType
    let limits: TypeComparison.Limits
    let budget: ComparisonBudget

    /// A rule of one version: how it reads, and what it lets through.
    private struct Side {
        var spelling: String
        /// The version's normalization steps and masks (fill checks off), which the rule's
        /// text goes through.
        var steps: [NormalizeStep] = []
        var branches: [ValueModelParts.Branch] = []
        /// Nil: it lets everything through (a warning, or a check that refuses nothing).
        var check: ComparedVersion.Check?
        /// For a mask: the mask, when the rule is one mask without a condition.
        var mask: CompiledMask?
        var isMask = false
        var maskOneOf: Set<String>?
    }

    var rules: [TypeComparison.Rule] {
        let before = sides(of: old), after = sides(of: new)
        var names = before.map(\.0)
        for (name, _) in after where !names.contains(name) { names.append(name) }
        let masksAlike = ComparedVersion.maskSpelling(old) == ComparedVersion.maskSpelling(new)
        return names.map { name in
            let x = before.first { $0.0 == name }?.1, y = after.first { $0.0 == name }?.1
            var rule = TypeComparison.Rule(name: name, relation: .same, old: x?.spelling, new: y?.spelling, reason: nil)
            switch (x, y) {
            case (let x?, let y?): (rule.relation, rule.reason) = compare(x, y, masksAlike: masksAlike)
            case (let x?, nil): rule.relation = x.check == nil && !x.isMask && x.maskOneOf == nil ? .same : .superset
            case (nil, let y?): rule.relation = y.check == nil && !y.isMask && y.maskOneOf == nil ? .same : .subset
            default: break
            }
            return rule
        }
    }

    private func sides(of type: CompiledFieldType) -> [(String, Side)] {
        var out: [(String, Side)] = []
        // Masks, by name (a name may stand for several masks, each with its condition).
        var masks: [(String, [MaskRule])] = []
        for rule in ComparedVersion.takingPart(type.definition) {
            if let k = masks.firstIndex(where: { $0.0 == rule.options.name }) { masks[k].1.append(rule) }
            else { masks.append((rule.options.name, [rule])) }
        }
        for (name, list) in masks {
            var spelling = list.map { m in
                Canonical.quote(m.pattern) + (m.condition.map { " when " + Canonical.regex($0.source, $0.flags) } ?? "")
            }.joined(separator: ", ")
            let checked = list.contains { $0.checksFill && $0.options.severity == .error }
            if !list.contains(where: \.checksFill) { spelling += " (no fill check)" }
            else if !checked { spelling += " (warning)" }
            let single = list.count == 1 && list[0].condition == nil && checked ? CompiledMask(list[0].pattern) : nil
            var side = Side(spelling: spelling, check: nil, mask: single, isMask: checked)
            side.steps = type.definition.normalization
            out.append((name, side))
        }
        let version = try? ComparedVersion(type, dateHints: [:])
        let branches = (version?.branches ?? []).map { b in
            var b = b
            (b.fillIsError, b.excluded) = (false, false)
            return b
        }
        for check in type.checks {
            var side = Side(spelling: Self.spell(check, in: type), check: nil)
            side.steps = type.definition.normalization
            side.branches = branches
            if check.severity == .warning {
                side.spelling += " (warning)"
            } else if case .maskOneOf(let names) = check.kind {
                side.maskOneOf = names
            } else {
                side.check = version?.checks.first { $0.rule == check.rule }
                if let g = side.check?.graphemes, g.lowerBound == 0 && g.upperBound == Int.max { side.check = nil }
            }
            out.append((check.rule, side))
        }
        return out
    }

    private func compare(_ x: Side, _ y: Side, masksAlike: Bool) -> (TypeComparison.Relation, String?) {
        if x.spelling == y.spelling && (x.maskOneOf == nil || masksAlike) { return (.same, nil) }
        if x.isMask || y.isMask {
            guard let mx = x.mask, let my = y.mask else {
                if x.isMask != y.isMask { return (x.isMask ? .superset : .subset, nil) }
                return (.undecided, "cannot decide on its own: masks chosen by the value (the whole type says)")
            }
            return languages(Self.parts(mask: mx, x), Self.parts(mask: my, y))
        }
        if let nx = x.maskOneOf, let ny = y.maskOneOf {
            guard masksAlike else { return (.undecided, "cannot decide on its own: the masks differ (the whole type says)") }
            if nx == ny { return (.same, nil) }
            if nx.isSubset(of: ny) { return (.superset, nil) }
            if ny.isSubset(of: nx) { return (.subset, nil) }
            return (nx.isDisjoint(with: ny) ? .disjoint : .overlap, nil)
        }
        if x.maskOneOf != nil || y.maskOneOf != nil { return (.undecided, "cannot decide: mask-one-of and another kind of check") }
        switch (x.check, y.check) {
        case (nil, nil): return (.same, nil)
        case (nil, _?): return (.subset, nil)
        case (_?, nil): return (.superset, nil)
        case (let cx?, let cy?):
            if case .regular(let lx) = cx.reach, case .regular(let ly) = cy.reach {
                return languages(ValueModelParts(steps: x.steps, branches: x.branches, checks: [lx]),
                                 ValueModelParts(steps: y.steps, branches: y.branches, checks: [ly]))
            }
            if cx.key == cy.key { return (.same, nil) }
            if let dx = cx.date, let dy = cy.date {
                guard let wider = dy.includes(dx), let narrower = dx.includes(dy) else {
                    let (fx, fy) = (dx.check.format.format, dy.check.format.format)
                    return (.undecided, "cannot decide: dates written " + (fx == fy ? "in two-digit years of different windows"
                                                                             : "as \"\(fx)\" and as \"\(fy)\""))
                }
                if wider && narrower { return (.same, nil) }
                if wider { return (.superset, nil) }
                if narrower { return (.subset, nil) }
                let (a, b) = (dx.accepted, dy.accepted)
                let apart = a == nil || b == nil || a!.upperBound < b!.lowerBound || b!.upperBound < a!.lowerBound
                return (apart ? .disjoint : .overlap, nil)
            }
            if let gx = cx.graphemes, let gy = cy.graphemes {
                return Self.intervals(gx, gy)
            }
            if let ax = cx.checksum, let ay = cy.checksum {
                return (.undecided, "cannot decide: checksum \(ax.rawValue) vs \(ay.rawValue)")
            }
            return (.undecided, "cannot decide: a \(Self.kind(cx)) and a \(Self.kind(cy))")
        }
    }

    /// The raw values that fill `mask` after `side`'s normalization.
    private static func parts(mask: CompiledMask, _ side: Side) -> ValueModelParts {
        ValueModelParts(steps: side.steps, branches: [.init(mask: mask, fillIsError: true, condition: nil, name: nil, excluded: false)],
                        checks: [])
    }

    private static func kind(_ c: ComparedVersion.Check) -> String {
        c.checksum != nil ? "checksum" : c.date != nil ? "date" : c.graphemes != nil ? "length in graphemes" : "pattern"
    }

    /// Two intervals of counts, every count possible.
    static func intervals(_ x: ClosedRange<Int>, _ y: ClosedRange<Int>) -> (TypeComparison.Relation, String?) {
        if x == y { return (.same, nil) }
        if y.lowerBound <= x.lowerBound && x.upperBound <= y.upperBound { return (.superset, nil) }
        if x.lowerBound <= y.lowerBound && y.upperBound <= x.upperBound { return (.subset, nil) }
        return (x.overlaps(y) ? .overlap : .disjoint, nil)
    }

    /// The relation of two languages of text, decided on their automata.
    private func languages(_ x: ValueModelParts, _ y: ValueModelParts) -> (TypeComparison.Relation, String?) {
        do {
            let prepared = try Comparer.prepare(x, y, budget)
            let lost = try prepared.combined(.difference, budget: budget).dfa.isEmpty
            let gained = try prepared.combined(.difference, swapped: true, budget: budget).dfa.isEmpty
            var disjoint = false
            if !lost && !gained { disjoint = try prepared.combined(.intersection, budget: budget).dfa.isEmpty }
            return (TypeComparison.Relation(newlyRejected: lost ? .none : .some, newlyAccepted: gained ? .none : .some,
                                            disjoint: disjoint), nil)
        } catch {
            return (.undecided, Comparer.tooComplex(limits))
        }
    }

    /// A check as the comparison shows it: its arguments, parameters filled in.
    static func spell(_ check: CompiledCheck, in type: CompiledFieldType) -> String {
        let written = type.definition.checks.first { $0.options.name == check.rule }.map { FieldTypeDefinition.spell($0.kind) }
        let separator = type.definition.decimalSeparator ?? .point
        switch check.kind {
        case .length(let lower, let upper, let unit):
            let range = upper == lower ? "\(lower)" : (lower > 0 ? "\(lower)" : "") + "..." + (upper.map(String.init) ?? "")
            return "length \(range)" + (unit == .graphemes ? "" : " \(unit.rawValue)")
        case .decimal(let places):
            return "decimal" + (places.map { " places \($0)" } ?? "") + (separator == .comma ? " (comma)" : "")
        case .range(let range):
            return "range " + ComparedVersion.spell(range) + (separator == .comma ? " (comma)" : "")
        case .date(let date):
            let first = date.range.firstDate.map(\.description) ?? "", last = date.range.lastDate.map(\.description) ?? ""
            return "date " + Canonical.quote(date.format.format) + (first.isEmpty && last.isEmpty ? "" : " \(first)...\(last)")
        case .maskOneOf(let names):
            return "mask-one-of " + names.sorted().map(Canonical.quote).joined(separator: " ")
        default:
            return written ?? check.rule
        }
    }
}

extension ComparedVersion {
    /// The masks that take part in the choice: up to the first without a condition.
    static func takingPart(_ definition: FieldTypeDefinition) -> [MaskRule] {
        var out: [MaskRule] = []
        for mask in definition.masks {
            out.append(mask)
            if mask.condition == nil { break }
        }
        return out
    }

    /// The masks that take part, as written (what two versions must share to format alike).
    static func maskSpelling(_ type: CompiledFieldType) -> [String] {
        takingPart(type.definition).map { mask in
            mask.pattern + " " + (mask.condition.map { Canonical.regex($0.source, $0.flags) } ?? "")
        }
    }
}
