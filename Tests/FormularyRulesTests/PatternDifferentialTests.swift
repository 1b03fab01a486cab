import Foundation
import PCRE2Oracle
import Testing
@testable import FormularyRules

/// Formulary's pattern engine against PCRE2 (anchored at both ends, UTF and UCP, as
/// Formulary ran it before): final verdicts agree on every built-in pattern and on generated
/// patterns of the dialect with generated values, and the Unicode classes agree scalar by
/// scalar.
///
/// Where the dialect defines otherwise, the PCRE2 side is spelled to mean the dialect's
/// reading (see `GeneratedPattern` and docs/rule-language.md, "Patterns compared with PCRE2"):
/// `\d` ASCII, `\v` the vertical tab, `\u{…}`, scripts as the Script property, long category
/// names, possessive quantifiers as plain ones. Unicode versions differ (PCRE2 10.42 has
/// Unicode 14; the engine's categories are the standard library's, its scripts and case
/// folding Unicode 15's): scalars PCRE2 does not know (`\p{Cn}` there) are left out of the
/// class comparisons, and the case pairs where the versions or PCRE2's own additions differ
/// are listed in `caseFoldingExceptions`.
@Suite struct PatternDifferentialTests {
    /// Every pattern of the built-in types: checks and mask conditions, with their flags.
    static let builtinPatterns: [(type: String, source: String, flags: RegexFlags)] = {
        var patterns: [(String, String, RegexFlags)] = []
        for name in builtinTypeNames {
            let definition = builtinTypes[name]!.definition
            for check in definition.checks {
                if case .pattern(let source, let flags, _) = check.kind { patterns.append((name, source, flags)) }
            }
            for mask in definition.masks {
                if let condition = mask.condition { patterns.append((name, condition.source, condition.flags)) }
            }
        }
        return patterns
    }()

    @Test func builtInsHavePatterns() {
        #expect(Self.builtinPatterns.count >= 15)
    }

    /// Each built-in pattern on its type's example values, on every prefix of them, on random
    /// mutations and on random strings of the characters the pattern mentions.
    @Test func builtInPatternsAgreeWithPCRE2() throws {
        var rng = SplitMix64(seed: 0x25)
        for (type, source, flags) in Self.builtinPatterns {
            let ours = try PatternCache.shared.program(source, flags: flags)
            let theirs = try PCRE2Pattern(source, caseInsensitive: flags.contains(.caseInsensitive),
                                          extended: flags.contains(.extended))
            var alphabet = Array(Set(source.unicodeScalars.filter { $0 != "\\" }))
            alphabet += GeneratedPattern.alphabet
            alphabet.sort { $0.value < $1.value }
            var values = builtinTypes[type]!.definition.examples.map(\.value)
            values += values.flatMap { value in (0...value.unicodeScalars.count).map { String(String.UnicodeScalarView(value.unicodeScalars.prefix($0))) } }
            for _ in 0..<400 { values.append(rng.mutated(rng.pick(values), alphabet: alphabet)) }
            for _ in 0..<400 { values.append(rng.scalars(from: alphabet, maxLength: 24)) }
            for value in values {
                #expect(Self.matches(ours, value) == theirs.matches(value), "\(type) /\(source)/ on \(value.debugDescription)")
            }
        }
    }

    /// Generated patterns (seeded; a failure names the seed, pattern and value): the dialect's
    /// spelling through the engine and PCRE2's through PCRE2 agree on strings sampled from the
    /// pattern, their mutations and random strings.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func generatedPatternsAgreeWithPCRE2(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var compared = 0, matched = 0
        for round in 0..<150 {
            var names = 0
            let pattern = GeneratedPattern.random(&rng, names: &names)
            let caseless = rng.chance(0.25), extended = rng.chance(0.2)
            var flags: RegexFlags = []
            if caseless { flags.insert(.caseInsensitive) }
            if extended { flags.insert(.extended) }
            let dialect = pattern.spelled(pcre: false, extended: extended) + (extended && rng.chance(0.5) ? " # note" : "")
            let pcre = pattern.spelled(pcre: true, extended: extended)
            let label = "seed \(seed) round \(round): /\(dialect)/ (PCRE2 /\(pcre)/)"
            let ours: PatternProgram
            do {
                ours = try PatternCache.shared.program(dialect, flags: flags)
            } catch {
                Issue.record("\(label) does not compile: \(error)")
                continue
            }
            let theirs = try PCRE2Pattern(pcre, caseInsensitive: caseless, extended: extended)
            var members: [String: PCRE2Pattern] = [:]
            func member(_ piece: GeneratedPattern, _ c: Unicode.Scalar) -> Bool {
                let text = piece.spelled(pcre: true, extended: false)
                if members[text] == nil { members[text] = try? PCRE2Pattern(text, caseInsensitive: caseless) }
                return members[text]?.matches(String(c)) ?? false
            }
            var values: [String] = [""]
            for _ in 0..<8 {
                if let sample = pattern.sample(&rng, caseless: caseless, member: member) { values.append(sample) }
            }
            for _ in 0..<12 { values.append(rng.mutated(rng.pick(values), alphabet: GeneratedPattern.alphabet)) }
            for _ in 0..<12 { values.append(rng.scalars(from: GeneratedPattern.alphabet, maxLength: 8)) }
            for value in values {
                let expected = theirs.matches(value)
                compared += 1
                if expected { matched += 1 }
                #expect(Self.matches(ours, value) == expected, "\(label) on \(value.debugDescription)")
            }
        }
        // The comparison is not all "no match": the samples match.
        #expect(matched * 5 > compared, "seed \(seed): \(matched) of \(compared) values matched")
    }

    /// `\w`, `\s` and every general category, scalar by scalar, over the planes where
    /// characters are assigned; Unicode 14 is PCRE2's, so what it calls unassigned is left out.
    @Test func unicodeClassesAgreeWithPCRE2() throws {
        let unassigned = try PCRE2Pattern("\\p{Cn}")
        var classes: [(ours: String, theirs: String)] = [("\\w", "\\w"), ("\\s", "\\s"), ("\\W", "\\W"), ("\\S", "\\S")]
        for name in ["L", "Lu", "Ll", "Lt", "Lm", "Lo", "M", "Mn", "Mc", "Me", "N", "Nd", "Nl", "No", "P", "Pc", "Pd",
                     "Ps", "Pe", "Pi", "Pf", "Po", "S", "Sm", "Sc", "Sk", "So", "Z", "Zs", "Zl", "Zp", "C", "Cc", "Cf", "Co"] {
            classes.append(("\\p{\(name)}", "\\p{\(name)}"))
        }
        classes.append(("\\p{Uppercase_Letter}", "\\p{Lu}"))
        for script in ["Latin", "Greek", "Cyrillic", "Han", "Arabic", "Hebrew", "Common", "Inherited"] {
            classes.append(("\\p{\(script)}", "\\p{sc:\(script)}"))
        }
        var known: [UInt32] = []
        for value in UInt32(0)...0x3FFFF {
            guard let scalar = Unicode.Scalar(value), !unassigned.matches(String(scalar)) else { continue }
            known.append(value)
        }
        known += Array(UInt32(0xE0000)...0xE01EF) + [0xF0000, 0x10FFFD]
        for (oursText, theirsText) in classes {
            let ours = try PatternParser.parse(oursText, flags: [])
            guard case .set(let set) = ours else { Issue.record("\(oursText) is not one set"); continue }
            let theirs = try PCRE2Pattern(theirsText)
            var differences: [String] = []
            for value in known {
                let scalar = Unicode.Scalar(value)!
                if set.contains(value) != theirs.matches(String(scalar)) && !Self.scriptVersionException(oursText, value)
                    && !Self.recategorized.contains(value) {
                    differences.append(String(value, radix: 16, uppercase: true))
                }
            }
            #expect(differences.isEmpty, "\(oursText): \(differences.count) scalars differ, e.g. \(differences.prefix(12))")
        }
    }

    /// Scalars whose general category changed after Unicode 15 (Unicode 14 is PCRE2 10.42's,
    /// 17 the standard library's here): U+0295 LATIN LETTER PHARYNGEAL VOICED FRICATIVE (Ll,
    /// now Lo) and U+1171E AHOM CONSONANT SIGN MEDIAL RA (Mn, now Mc).
    static let recategorized: Set<UInt32> = [0x295, 0x1171E]

    /// Scripts: the table is Unicode 15's and PCRE2's Unicode 14; scalars assigned in between
    /// and given to a script are the only differences allowed.
    static func scriptVersionException(_ pattern: String, _ value: UInt32) -> Bool {
        guard pattern.hasPrefix("\\p{"), !["\\p{Uppercase_Letter}"].contains(pattern),
              pattern.count > 7 else { return false }
        return Unicode.Scalar(value)!.properties.age.map { ($0.major, $0.minor) >= (15, 0) } ?? false
    }

    /// The `i` flag: every scalar that folds with another matches exactly its orbit, as in
    /// PCRE2, but for the listed exceptions.
    @Test func caseFoldingAgreesWithPCRE2() throws {
        var differences: [String] = []
        let unassigned = try PCRE2Pattern("\\p{Cn}")
        var candidates: Set<UInt32> = []
        UnicodeTables.scanHex(UnicodeTables.simpleCaseOrbits) { value, _ in candidates.insert(value) }
        let known = candidates.filter { !unassigned.matches(String(Unicode.Scalar($0)!)) }.sorted()
        for value in known {
            let ours = CaseFolding.closed(ScalarSet(scalar: value))
            let theirs = try PCRE2Pattern("\\x{\(String(value, radix: 16))}", caseInsensitive: true)
            // The orbit, and every case mapping of its members that is one scalar.
            var others = Set(ours.ranges.flatMap { Array($0.lo...$0.hi) })
            for member in others {
                let properties = Unicode.Scalar(member)!.properties
                for mapping in [properties.lowercaseMapping, properties.uppercaseMapping, properties.titlecaseMapping]
                where mapping.unicodeScalars.count == 1 {
                    others.insert(mapping.unicodeScalars.first!.value)
                }
            }
            for other in others.sorted() where !Self.caseFoldingExceptions.contains(value) {
                if ours.contains(other) != theirs.matches(String(Unicode.Scalar(other)!)) {
                    differences.append("\(String(value, radix: 16))~\(String(other, radix: 16))")
                }
            }
        }
        #expect(differences.isEmpty, "\(differences.count) pairs differ: \(differences.prefix(20))")
    }

    /// Scalars whose case-insensitive matches differ from PCRE2 10.42's, by design: PCRE2 adds
    /// pairs beyond simple case folding (none found so far) or has an older Unicode.
    static let caseFoldingExceptions: Set<UInt32> = []

    static func matches(_ program: PatternProgram, _ value: String) -> Bool {
        var value = value
        return value.withUTF8 { bytes in Scratch.withCurrent { program.matches(bytes, scratch: $0) } }
    }
}
