import Testing
import FormularyKit
import FormularyRules

/// Properties every built-in type must have, checked on the real plugins as compiled into
/// the binary: the live stage never calls a prefix of a finally-valid value invalid, and
/// each type has the self-tests the project promises.
@Suite struct BuiltinTypesTests {
    static let today = CivilDate(year: 2026, month: 11, day: 29)
    static let names = Registry(files: Registry.builtinFiles).typeNames

    /// A registry caches what it compiles and is not shared between threads: one per test.
    static func compiled(_ name: String) throws -> CompiledFieldType {
        let reference = TypeReference(name: name, location: .unknown)
        return try Registry(files: Registry.builtinFiles).compile(reference, today: today).get()
    }

    /// A small seeded generator (SplitMix64), so failures reproduce.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    /// Candidate values for a type: its accept examples and their expected formats, each
    /// mutated many times (a digit for another digit, a letter for another letter, a
    /// character dropped or doubled), and random strings over the examples' alphabet.
    static func candidates(for type: CompiledFieldType, seed: UInt64) -> [String] {
        var seeds: [String] = []
        for example in type.definition.examples {
            guard case .accept(let formats) = example.expectation else { continue }
            seeds.append(example.value)
            if let formats { seeds.append(formats) }
        }
        let alphabet = Array(Set(seeds.joined().unicodeScalars)) + Array("09aZ -/.@".unicodeScalars)
        let digits = Array("0123456789".unicodeScalars)
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéü".unicodeScalars)
        var random = Generator(state: seed)
        var out = seeds
        for original in seeds {
            for _ in 0..<300 {
                var scalars = Array(original.unicodeScalars)
                guard !scalars.isEmpty else { break }
                for _ in 0...random.below(3) {
                    let i = random.below(scalars.count)
                    switch random.below(6) {
                    case 0, 1, 2:
                        let s = scalars[i]
                        if s.properties.numericType != nil, s.isASCII { scalars[i] = digits[random.below(10)] }
                        else if s.properties.isAlphabetic { scalars[i] = letters[random.below(letters.count)] }
                    case 3: if scalars.count > 1 { scalars.remove(at: i) }
                    case 4: scalars.insert(scalars[i], at: i)
                    default: scalars[i] = alphabet[random.below(alphabet.count)]
                    }
                }
                var s = String.UnicodeScalarView()
                s.append(contentsOf: scalars)
                out.append(String(s))
            }
        }
        for _ in 0..<500 {
            var s = String.UnicodeScalarView()
            for _ in 0..<random.below(24) { s.append(alphabet[random.below(alphabet.count)]) }
            out.append(String(s))
        }
        return out
    }

    @Test(arguments: names)
    func noPrefixOfAValidValueIsLiveInvalid(_ name: String) throws {
        let type = try Self.compiled(name)
        var valid = 0
        for value in Self.candidates(for: type, seed: UInt64(name.utf8.reduce(5381) { $0 &* 33 &+ UInt64($1) })) {
            guard type.validate(value, stage: .final).verdict == .valid else { continue }
            valid += 1
            var prefix = String.UnicodeScalarView()
            for scalar in value.unicodeScalars {
                prefix.append(scalar)
                let typed = String(prefix)
                let live = type.validate(typed, stage: .live)
                #expect(live.verdict != .invalid,
                        "\(name): \"\(typed)\" is a prefix of the valid \"\(value)\" but live says invalid: \(live.violations.map(\.rule))")
            }
        }
        // The generator must actually find valid values, or the property says nothing.
        #expect(valid >= 10, "\(name): only \(valid) valid values generated")
    }

    @Test(arguments: names)
    func selfTestsExistAndPass(_ name: String) throws {
        let type = try Self.compiled(name)
        let outcomes = SelfTests.run(type)
        let accepts = type.definition.examples.filter { if case .accept = $0.expectation { true } else { false } }
        let rejects = type.definition.examples.count - accepts.count
        #expect(accepts.count >= 3, "\(name) has \(accepts.count) accept examples")
        #expect(rejects >= 3, "\(name) has \(rejects) reject examples")
        for outcome in outcomes where !outcome.passed {
            Issue.record("\(name): \(outcome.example.location.line): \(outcome.reason ?? "failed")")
        }
    }

    /// Built-in files are named after the type they declare, and compile without warnings.
    @Test func builtinFilesAreNamedAfterTheirTypesAndClean() {
        let registry = Registry(files: Registry.builtinFiles)
        for file in Registry.builtinFiles {
            let stem = String(file.path.split(separator: "/").last!.split(separator: ".").first!)
            #expect(registry.types[stem]?.file == file.path, "\(file.path) does not declare '\(stem)'")
            let diagnostics = registry.lint(type: stem, today: Self.today)
            #expect(diagnostics.isEmpty, "\(file.path): \(diagnostics.map(\.message))")
        }
    }
}
