import Testing
@testable import FormularyRules

/// `TypeComparison`: pairs of types whose relation is known by construction. Every witness
/// is judged with both versions (``TypeComparisonTests/compare(_:_:limits:)`` does it for
/// every comparison).
@Suite struct TypeComparisonTests {
    static let today = CivilDate(year: 2026, month: 11, day: 29)
    static let catalog = try! FieldCatalog.builtin(today: today)

    /// A type from its source (the line `field NAME` names it), in a catalog of its own
    /// beside the built-in types, so that an edited copy may keep a built-in's name.
    static func type(_ source: String) throws -> CompiledFieldType {
        let header = try #require(source.split(separator: "\n").first { $0.hasPrefix("field ") })
        let name = String(header.split(separator: " ")[1])
        return try catalog.adding(source: source, file: "\(name).field").fieldType(name)
    }

    static func compare(_ old: String, _ new: String, limits: TypeComparison.Limits = .init()) throws -> TypeComparison {
        try compare(try type(old), try type(new), limits: limits)
    }

    static func compare(_ old: CompiledFieldType, _ new: CompiledFieldType,
                        limits: TypeComparison.Limits = .init()) throws -> TypeComparison {
        let c = TypeComparison(old: old, new: new, limits: limits)
        if let w = c.newlyRejected.witness {
            #expect(old.validate(w).verdict == .valid && new.validate(w).verdict == .invalid, "newly rejected \(w.debugDescription)")
        }
        if let w = c.newlyAccepted.witness {
            #expect(new.validate(w).verdict == .valid && old.validate(w).verdict == .invalid, "newly accepted \(w.debugDescription)")
        }
        #expect((c.newlyRejected.status == .some) == (c.newlyRejected.witness != nil) || c.secure)
        #expect((c.newlyAccepted.status == .some) == (c.newlyAccepted.witness != nil) || c.secure)
        return c
    }

    struct Pair: CustomTestStringConvertible, Sendable {
        var old: String
        var new: String
        var relation: TypeComparison.Relation
        var rejected: String?
        var accepted: String?
        /// Whether the witnesses are as given (nil given: none is looked at).
        var witnesses = true
        var testDescription: String { "\(old.split(separator: "\n").dropFirst().joined(separator: "; ")) → \(new.split(separator: "\n").dropFirst().joined(separator: "; "))" }
    }

    /// Relations known by construction, with the shortest witnesses (printable ASCII first,
    /// lower-case letters before digits before capitals before punctuation).
    static let pairs: [Pair] = [
        Pair(old: "field t\nlength 2...10 scalars", new: "field t\nlength 3...10 scalars", relation: .subset, rejected: "aa"),
        Pair(old: "field t\nlength 2...10", new: "field t\nlength 3...10", relation: .subset, rejected: "aa"),
        Pair(old: "field t\nlength 2...10 scalars", new: "field t\nlength 3...12 scalars", relation: .overlap,
             rejected: "aa", accepted: "aaaaaaaaaaa"),
        // No ASCII value tells bytes from UTF-16 units: the witness takes two wide scalars.
        Pair(old: "field t\nlength ...4 bytes", new: "field t\nlength ...4 utf16", relation: .superset, witnesses: false),
        Pair(old: "field t\npattern /[a-z]+/", new: "field t\npattern /[a-z0-9]+/", relation: .superset, accepted: "0"),
        Pair(old: "field t\npattern /[a-c]+/", new: "field t\npattern /[b-d]+/", relation: .overlap, rejected: "a", accepted: "d"),
        Pair(old: "field t\npattern /[a-c]+/", new: "field t\npattern /[x-z]+/", relation: .disjoint, rejected: "a", accepted: "x"),
        Pair(old: "field t\npattern /(a+)+b/", new: "field t\npattern /(a|aa)+b/", relation: .same),
        Pair(old: "field t\npattern not /admin/", new: "field t\npattern not /admin|root/", relation: .subset, rejected: "root"),
        Pair(old: "field t\npattern /[a-z]+/i", new: "field t\npattern /[a-z]+/", relation: .subset, rejected: "A"),
        Pair(old: "field t\none-of \"a\" \"b\" \"c\"", new: "field t\none-of \"a\" \"b\"", relation: .subset, rejected: "c"),
        Pair(old: "field t\none-of \"ab\"", new: "field t\none-of \"ab\" ignore-case", relation: .superset, accepted: "aB"),
        Pair(old: "field t\ncharset digits", new: "field t\ncharset digits letters", relation: .superset, accepted: "a"),
        Pair(old: "field t\nrange 0<..<1", new: "field t\nrange 0...1", relation: .superset, accepted: "0"),
        Pair(old: "field t\nrange -5...5", new: "field t\nrange -5.5...5", relation: .superset, accepted: "-5.1"),
        Pair(old: "field t\nrange 0...150", new: "field t\nrange 18...150", relation: .subset, rejected: "0"),
        Pair(old: "field t\nrange 10", new: "field t\nrange 10.000", relation: .same),
        Pair(old: "field t\ninteger", new: "field t\ndecimal", relation: .superset, accepted: "0.0"),
        Pair(old: "field t\ndecimal places 2", new: "field t\ndecimal places 3", relation: .superset, accepted: "0.000"),
        Pair(old: "field t\ndecimal", new: "field t\ndecimal-separator \",\"\ndecimal", relation: .overlap,
             rejected: "0.0", accepted: "0,0"),
        Pair(old: "field t\npattern /[a-z]+/", new: "field t\nnormalize trim\npattern /[a-z]+/", relation: .superset, accepted: "a "),
        Pair(old: "field t\npattern /[a-z]+/", new: "field t\nnormalize lowercase\npattern /[a-z]+/", relation: .superset, accepted: "A"),
        Pair(old: "field t\nnormalize strip \" ()-.\"\nmask \"(000) 000-0000\"",
             new: "field t\nnormalize strip \" ()-.\"\nmask \"000-000-0000\"", relation: .same),
        Pair(old: "field t\nlength 1...5", new: "field t\nlength 1...5 warning", relation: .superset, accepted: "aaaaaa"),
        Pair(old: "field t\npattern /[0-9]+/", new: "field t\nnormalize trim\npattern /[0-9]+/\nlength ...3", relation: .overlap,
             rejected: "0000", accepted: "0 "),
    ]

    @Test(arguments: pairs)
    func relationsKnownByConstruction(_ pair: Pair) throws {
        let c = try Self.compare(pair.old, pair.new)
        #expect(c.relation == pair.relation)
        if pair.witnesses {
            #expect(c.newlyRejected.witness == pair.rejected)
            #expect(c.newlyAccepted.witness == pair.accepted)
        }
        // Swapped, the relation turns around and the witnesses change places.
        let back = try Self.compare(pair.new, pair.old)
        let turned: [TypeComparison.Relation: TypeComparison.Relation] = [.subset: .superset, .superset: .subset]
        #expect(back.relation == turned[pair.relation] ?? pair.relation)
        if pair.witnesses {
            #expect(back.newlyRejected.witness == pair.accepted)
            #expect(back.newlyAccepted.witness == pair.rejected)
        }
    }

    @Test func aTypeIsTheSameAsItself() throws {
        for name in ["email", "age", "us-zip", "phone", "username", "url", "decimal", "cvv", "exp-date", "name"] {
            let t = try Self.catalog.fieldType(name)
            let c = try Self.compare(t, t)
            #expect(c.relation == .same, "\(name)")
            #expect(c.rules.allSatisfy { $0.relation == .same }, "\(name)")
        }
    }

    @Test func eachRuleIsComparedOnItsOwn() throws {
        let c = try Self.compare("field t\nnormalize trim\ninteger\nrange 0...150\nlength ...3 scalars as short",
                                 "field t\nnormalize trim\ninteger\nrange 18...150\npattern /[1-9].*/")
        #expect(c.rules.map(\.name) == ["integer", "range", "short", "pattern"])
        #expect(c.rules.map(\.relation) == [.same, .subset, .superset, .subset])
        #expect(c.rules[1].old == "range 0...150" && c.rules[1].new == "range 18...150")
        #expect(c.rules[2].new == nil && c.rules[3].old == nil)
        #expect(c.relation == .subset)
        #expect(c.newlyRejected.witness == "0")
        #expect(c.newlyRejected.isShortest)
    }

    @Test func checksumsAreSetAsideWhenAlikeAndSearchedOtherwise() throws {
        let mask = "field t\nnormalize strip \" \"\nmask \"0000 0000\""
        let alike = try Self.compare(mask + "\nchecksum luhn\npattern /[0-4].*/", mask + "\nchecksum luhn")
        #expect(alike.relation == .superset)
        #expect(alike.setAside == ["luhn"])
        #expect(alike.newlyAccepted.witness == "50000009")
        // Added: values that fail it are found among candidates judged one by one.
        let added = try Self.compare(mask, mask + "\nchecksum luhn")
        #expect(added.relation == .subset)
        #expect(added.newlyRejected.witness == "00000001")
        #expect(!added.newlyRejected.isShortest)
        #expect(added.rules.last?.relation == .subset)
        // Two different checksums: each refuses values the other takes.
        let swapped = try Self.compare(mask + "\nchecksum luhn", mask + "\nchecksum mod97")
        #expect(swapped.relation == .overlap)
        #expect(swapped.rules.map(\.relation) == [.same, .superset, .subset])
    }

    @Test func checksumsOfTheSameNameDifferentAlgorithmsCannotBeDecidedOnTheirOwn() throws {
        let c = try Self.compare("field t\nchecksum luhn as digits", "field t\nchecksum mod97 as digits")
        #expect(c.rules.first?.relation == .undecided)
        #expect(c.rules.first?.reason == "cannot decide: checksum luhn vs mod97")
    }

    @Test func datesAreComparedForToday() throws {
        let old = "field t\nnormalize strip-spaces\nmask \"00/00/0000\"\ndate \"dd/MM/yyyy\" today-120y...today-18y"
        let new = "field t\nnormalize strip-spaces\nmask \"00/00/0000\"\ndate \"dd/MM/yyyy\" today-120y...today-21y"
        let c = try Self.compare(old, new)
        #expect(c.relation == .subset)
        #expect(c.rules.last?.relation == .subset)
        #expect(c.rules.last?.old == "date \"dd/MM/yyyy\" 1906-11-29...2008-11-29")
        // The newest birth date the old version takes: 18 years ago today.
        #expect(c.newlyRejected.witness == "29112008")
        #expect(c.newlyAccepted.status == .none)
    }

    @Test func graphemeCountsAreExactOverScalarsBelowU0300() throws {
        let c = try Self.compare("field t\nnormalize trim\nlength 1...100", "field t\nnormalize trim\nlength 1...50")
        #expect(c.relation == .subset)
        #expect(c.newlyRejected.witness == String(repeating: "a", count: 51))
        #expect(c.newlyRejected.isShortest)
        // A letter whose title case is longer than it: `capitalize` makes "ﬃ" "Ffi", three
        // graphemes, so only the version without it takes the ligature.
        let title = try Self.compare("field t\nnormalize capitalize\nlength ...2", "field t\nlength ...2")
        #expect(title.newlyAccepted.witness == "ﬃ")
    }

    @Test func secureTypesGiveNoWitness() throws {
        let c = try Self.compare("field pin\nsecure\nnormalize strip-spaces\nlength 4...6\ncharset digits",
                                 "field pin\nsecure\nnormalize strip-spaces\nlength 4...8\ncharset digits")
        #expect(c.secure)
        #expect(c.relation == .superset)
        #expect(c.newlyAccepted.status == .some)
        #expect(c.newlyAccepted.witness == nil)
        // Either version secure is enough.
        let one = try Self.compare("field pin\nlength 4...6", "field pin\nsecure\nlength 4...8")
        #expect(one.newlyAccepted.status == .some && one.newlyAccepted.witness == nil)
    }

    @Test func aHostilePatternPairEndsTooComplexQuickly() throws {
        let clock = ContinuousClock()
        var c: TypeComparison?
        let elapsed = try clock.measure {
            c = try Self.compare("field t\npattern /(a|b)*a(a|b){20}/", "field t\npattern /(a|b)*b(a|b){20}/",
                                 limits: .init(states: 20_000))
        }
        #expect(c?.relation == .undecided)
        #expect(c?.newlyRejected.reason?.hasPrefix("too complex to decide") == true)
        #expect(c?.rules.first?.relation == .undecided)
        #expect(elapsed < .seconds(20))
    }
}
