import Testing
@testable import FormularyRules

/// The automata `TypeComparison` builds agree with the engine, and its witnesses are the
/// shortest: what the exact answers rest on, checked against the real `validate` on many
/// values, and against brute force on small alphabets.
@Suite struct TypeComparisonModelTests {
    /// Types whose checks automata express (no checksum, date or grapheme count), built-in
    /// and made up, each feature of the pipeline at least once.
    static let sources: [String] = [
        "field t\nnormalize trim collapse-spaces capitalize\npattern /[A-Z][a-z]*(?: [A-Z][a-z]*)*/\naccept \"ada  lovelace\"",
        "field t\nnormalize strip-spaces uppercase\nmask \"AA-00\"\naccept \"ab12\"\naccept \"AB-12\"",
        "field t\nnormalize strip \" ()-.\"\nmask \"(000) 000-0000\"\naccept \"5551234567\"\naccept \"(555) 123-4567\"",
        "field t\nmask \"\\\\0\\\\00\"\naccept \"5\"\naccept \"005\"",
        "field t\nmask \"000)\"\nlength ...4 scalars\naccept \"123\"",
        "field t\nnormalize trim\nmask \"00-00\" when /1.*/ as one warning\nmask \"0000\" when /2.*/ as two\nmask-one-of \"two\"\naccept \"2000\"",
        "field t\nnormalize trim\nmask \"0 0\" when /[0-4].*/ as low\nmask \"00\" as high\ndrop high\naccept \"12\"\naccept \"5\"",
        "field t\nnormalize lowercase\none-of \"straße\" \"ǅemal\" \"İx\" ignore-case\naccept \"Straße\"\naccept \"ǅEMAL\"\naccept \"İx\"",
        "field t\nnormalize trim\npattern not /.*admin.*/i\nlength 2...6 bytes\naccept \"abc\"",
        "field t\ndecimal-separator \",\"\nnormalize trim\nrange -1.5...2\naccept \"1,5\"\naccept \"-1,5\"",
        "field t\nnormalize trim\ndecimal places 1\nrange 0<..<10\naccept \"5.5\"",
        "field t\ncharset punctuation spaces \"ß\"\nlength ...5 utf16\naccept \"ß!\"\naccept \" .\"",
        "field t\nnormalize collapse-spaces trim\npattern /[^ ]+ [^ ]+/\naccept \"a b\"",
        "field t\nnormalize trim strip \"*\"\npattern /.+/\naccept \"a*\"",
    ]

    static let builtins = ["email", "age", "us-zip", "phone", "username", "url", "decimal", "data", "phrase"]

    /// Scalars that exercise the pipeline: ASCII of every kind, white space of several
    /// kinds, letters whose case mappings change their length, marks, wide scalars.
    static let alphabet: [String] = ["a", "b", "z", "A", "Z", "0", "1", "2", "5", "9", "-", "_", ".", "@", ",", " ",
                                     "\t", "\n", "\r", "(", ")", "ß", "ﬃ", "İ", "ǅ", "é", "\u{301}", "中", "\u{A0}",
                                     "\u{2028}", "+", "/", ":", "x", "X", "ς", "Σ", "ŉ"]

    /// The automaton of `type` (it must have no check outside automata), and its classes.
    static func automaton(_ type: CompiledFieldType) throws -> (ClassDFA, ScalarClasses) {
        let version = try ComparedVersion(type)
        let parts = version.parts(.proofAccepting)
        let prepared = try Comparer.prepare(parts, parts, ComparisonBudget(cap: 1_000_000))
        return (prepared.a, prepared.classes)
    }

    static func accepts(_ dfa: ClassDFA, _ classes: ScalarClasses, _ value: String) -> Bool {
        var state: Int32 = 0
        for s in value.unicodeScalars {
            state = dfa.next(state, Int(classes.id(of: s.value)))
            if state < 0 { return false }
        }
        return dfa.accepting[Int(state)]
    }

    /// Values to try: random strings of the alphabet, and the type's own examples with
    /// scalars inserted, removed and replaced (most random strings are far from valid).
    static func values(for type: CompiledFieldType, count: Int, seed: UInt64) -> [String] {
        var rng = SplitMix64(seed: seed)
        func pick<T>(_ list: [T]) -> T { list[Int(rng.next() % UInt64(list.count))] }
        var out = type.definition.examples.map(\.value) + ["", " ", "  a  ", "\t\n"]
        let seeds = out.isEmpty ? ["a"] : out
        for k in 0..<count {
            var scalars = k % 2 == 0 ? Array(pick(seeds)) : []
            if k % 2 == 1 { for _ in 0..<Int(rng.next() % 9) { scalars.append(Character(pick(alphabet))) } }
            for _ in 0..<Int(rng.next() % 3) {
                let at = scalars.isEmpty ? 0 : Int(rng.next() % UInt64(scalars.count + 1))
                switch rng.next() % 3 {
                case 0: scalars.insert(Character(pick(alphabet)), at: at)
                case 1: if at < scalars.count { scalars.remove(at: at) }
                default: if at < scalars.count { scalars[at] = Character(pick(alphabet)) }
                }
            }
            out.append(String(scalars))
        }
        return out
    }

    @Test(arguments: sources)
    func theAutomatonOfAMadeUpTypeAgreesWithTheEngine(_ source: String) throws {
        let type = try TypeComparisonTests.type(source)
        let (dfa, classes) = try Self.automaton(type)
        var verdicts: Set<Bool> = []
        for value in Self.values(for: type, count: 400, seed: UInt64(source.utf8.count)) {
            let engine = type.validate(value).verdict == .valid
            verdicts.insert(engine && !value.allSatisfy(\.isWhitespace))
            #expect(Self.accepts(dfa, classes, value) == engine, "\(value.debugDescription): engine says \(engine)")
        }
        #expect(verdicts == [true, false], "the values tried should include present values both accepted and refused")
    }

    @Test(arguments: builtins)
    func theAutomatonOfABuiltinTypeAgreesWithTheEngine(_ name: String) throws {
        let type = try TypeComparisonTests.catalog.fieldType(name)
        let (dfa, classes) = try Self.automaton(type)
        var verdicts: Set<Bool> = []
        for value in Self.values(for: type, count: 300, seed: UInt64(name.utf8.count)) {
            let engine = type.validate(value).verdict == .valid
            verdicts.insert(engine && !value.allSatisfy(\.isWhitespace))
            #expect(Self.accepts(dfa, classes, value) == engine, "\(value.debugDescription): engine says \(engine)")
        }
        #expect(verdicts == [true, false], "the values tried should include present values both accepted and refused")
    }

    @Test func theCardWithoutItsChecksumAgreesWithTheEngine() throws {
        let type = try TypeComparisonTests.type("field card extends credit-card\ndrop luhn\naccept \"4111111111111111\"")
        let (dfa, classes) = try Self.automaton(type)
        let numbers = ["4111 1111 1111 1111", "4111111111111", "3782 822463 10005", "36227206271667", "6011000990139424",
                       "2221000000000009", "5555-5555-5555-4444", "1234567890123452", "401178000000000", "6521500000000006",
                       "97920000000000000", "30569309025904", "3530111333300000"]
        for value in numbers + Self.values(for: type, count: 200, seed: 7) {
            let engine = type.validate(value).verdict == .valid
            #expect(Self.accepts(dfa, classes, value) == engine, "\(value.debugDescription): engine says \(engine)")
        }
    }

    /// Pairs whose every witness is written in `alphabet` (each version takes nothing else).
    static let small: [(old: String, new: String, alphabet: [Character])] = [
        ("field t\npattern /(?:ab|b)*/", "field t\npattern /(?:a|b)*b/", ["a", "b"]),
        ("field t\npattern /[ab]{2,3}/", "field t\npattern /a[ab]*/", ["a", "b"]),
        ("field t\ninteger\nrange 5...15", "field t\ninteger\nrange 7...20", Array("0123456789-")),
        ("field t\none-of \"ab\" \"ba\" \"b\"", "field t\none-of \"ab\" \"aab\"", ["a", "b"]),
        ("field t\ncharset \"ab\"\nlength 2...3", "field t\ncharset \"abc\"\nlength 1...2", ["a", "b", "c"]),
        ("field t\nnormalize trim\npattern /a+/", "field t\npattern /a+/", ["a", " "]),
        ("field t\nnormalize strip \"-\"\nmask \"00\"", "field t\nmask \"0-0\"", ["0", "1", "-"]),
    ]

    @Test(arguments: 0..<small.count)
    func witnessesAreTheShortestByBruteForce(_ k: Int) throws {
        let (oldSource, newSource, alphabet) = Self.small[k]
        let old = try TypeComparisonTests.type(oldSource), new = try TypeComparisonTests.type(newSource)
        let c = try TypeComparisonTests.compare(old, new)
        // Every string of the alphabet up to 4 long, shortest first, then in the readable
        // order (the alphabet sorted as witnesses are).
        let sorted = alphabet.sorted {
            let (x, y) = ($0.unicodeScalars.first!.value, $1.unicodeScalars.first!.value)
            return (ScalarClasses.rank(x), x) < (ScalarClasses.rank(y), y)
        }
        var strings = [""]
        var level = [""]
        for _ in 1...4 {
            level = level.flatMap { s in sorted.map { s + String($0) } }
            strings += level
        }
        let rejected = strings.first { old.validate($0).verdict == .valid && new.validate($0).verdict == .invalid }
        let accepted = strings.first { new.validate($0).verdict == .valid && old.validate($0).verdict == .invalid }
        #expect(c.newlyRejected.witness == rejected, "\(oldSource) → \(newSource)")
        #expect(c.newlyAccepted.witness == accepted, "\(oldSource) → \(newSource)")
        #expect(c.newlyRejected.status == (rejected == nil ? .none : .some))
        #expect(c.newlyAccepted.status == (accepted == nil ? .none : .some))
    }
}
