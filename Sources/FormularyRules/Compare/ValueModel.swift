/// What one version of a type is made of for the comparison, before the classes of scalars
/// are known: the pipeline a raw value goes through (normalization steps, the masks and the
/// choice between them, the checks automata express). ``ValueModel`` walks it over the
/// classes.
struct ValueModelParts {
    /// A mask taking part in the choice: the conditional ones in order, then the final one
    /// (the unconditional mask, or none: the value is left unmasked).
    struct Branch {
        var mask: CompiledMask?
        /// The mask's fill check is an error (not a warning, not dropped).
        var fillIsError: Bool
        /// `when /…/` (nil for the final branch).
        var condition: RangeAutomaton?
        /// The mask's name, which `mask-one-of` compares.
        var name: String?
        /// A `mask-one-of` of error severity leaves this mask out: a value it takes fails.
        var excluded: Bool
    }

    /// A check of the model: its language over the text it reads, and whether the value
    /// must not be in it (`pattern not`).
    struct Check {
        var language: RangeAutomaton
        var negated: Bool
    }

    var steps: [NormalizeStep]
    var branches: [Branch]
    var checks: [Check]
    /// Whether a blank value is absent, and so accepted whatever the checks say: true for a
    /// type, false for a rule compared on its own (its checks see every text).
    var blankIsAbsent = true

    /// The language of checks on their own (no normalization, no mask; blank is a text).
    init(checks: [Check], mask: CompiledMask? = nil) {
        steps = []
        branches = [Branch(mask: mask, fillIsError: mask != nil, condition: nil, name: nil, excluded: false)]
        self.checks = checks
        blankIsAbsent = false
    }

    init(steps: [NormalizeStep], branches: [Branch], checks: [Check]) {
        self.steps = steps
        self.branches = branches
        self.checks = checks
    }
}

/// The scalar sets the pipeline asks about.
enum PipelineSets {
    /// Unicode White_Space, as `isWhiteSpace` spells it out.
    static let whiteSpace = ScalarSet([
        ScalarRange(0x09, 0x0D), ScalarRange(0x20, 0x20), ScalarRange(0x85, 0x85), ScalarRange(0xA0, 0xA0),
        ScalarRange(0x1680, 0x1680), ScalarRange(0x2000, 0x200A), ScalarRange(0x2028, 0x2029),
        ScalarRange(0x202F, 0x202F), ScalarRange(0x205F, 0x205F), ScalarRange(0x3000, 0x3000),
    ])
    /// Where `capitalize` starts a word: white space and the hyphens `-`, U+2010, U+2011.
    static let wordSeparators = whiteSpace.union(ScalarSet([ScalarRange(0x2D, 0x2D), ScalarRange(0x2010, 0x2011)]))
    static let punctuation = UnicodeTables.categories([.pc, .pd, .ps, .pe, .pi, .pf, .po])
    static let digits = ScalarSet([ScalarRange(0x30, 0x39)])
    /// What a mask slot and a `when` condition read: ASCII digits and letters (category L).
    static let slots = UnicodeTables.letters.union(digits)
}

extension ValueModelParts {
    /// What the classes must tell apart at the level of the normalized value (its masks,
    /// their conditions, the checks): added to `builder`, each automaton under its own
    /// component number from `component`.
    func contribute(to builder: inout ScalarClassBuilder, component: inout Int) {
        for check in checks {
            builder.add(edges: check.language.edges, component: component)
            component += 1
        }
        for branch in branches {
            if let condition = branch.condition {
                builder.add(edges: condition.edges, component: component)
                component += 1
            }
            guard let mask = branch.mask else { continue }
            for item in mask.items {
                if case .literal(let s) = item { builder.add(s.value, s.value, tag: -2, Int(s.value)) }
            }
        }
    }

    /// Classes for the raw value: `classes` (those of the normalized value) cut further so
    /// that each normalization step, last to first, treats a class's scalars alike and maps
    /// them to scalars of one class.
    func rawClasses(from classes: ScalarClasses) -> ScalarClasses {
        var current = classes
        for step in steps.reversed() {
            let next = current
            var cuts: [UInt32] = []
            func cut(_ set: ScalarSet) { for r in set.ranges { cuts.append(r.lo); if r.hi < ScalarSet.maxScalar { cuts.append(r.hi + 1) } } }
            func cut(_ table: CaseMappings.Table) { for s in table.keys { cuts.append(s); cuts.append(s + 1) } }
            var flag: (UInt32) -> Int = { _ in 0 }
            var table: CaseMappings.Table = [:]
            switch step {
            case .trim, .collapseSpaces, .stripSpaces:
                cut(PipelineSets.whiteSpace)
                flag = { PipelineSets.whiteSpace.contains($0) ? 1 : 0 }
            case .strip(let chars):
                let set = ScalarSet(chars.unicodeScalars.map { ScalarRange($0.value, $0.value) })
                cut(set)
                flag = { set.contains($0) ? 1 : 0 }
            case .uppercase:
                table = CaseMappings.upper
            case .lowercase:
                table = CaseMappings.lower
            case .capitalize:
                table = CaseMappings.title
                cut(PipelineSets.wordSeparators)
                cut(UnicodeTables.letters)
                cut(PipelineSets.punctuation)
                flag = { Self.capitalizeKind($0) }
            }
            cut(table)
            current = next.refined(cuttingAt: cuts) { lo, id in
                [Int32(flag(lo)), id] + (table[lo].map { [-1] + $0.map { next.id(of: $0) } } ?? [])
            }
        }
        return current
    }

    /// `capitalize`'s view of a scalar: 1 a word separator, 2 a letter, 3 punctuation, 0 other.
    static func capitalizeKind(_ s: UInt32) -> Int {
        if PipelineSets.wordSeparators.contains(s) { return 1 }
        if UnicodeTables.letters.contains(s) { return 2 }
        if PipelineSets.punctuation.contains(s) { return 3 }
        return 0
    }
}
