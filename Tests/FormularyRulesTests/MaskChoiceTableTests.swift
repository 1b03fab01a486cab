import Foundation
import Testing
@testable import FormularyRules

/// The final stage's mask choice as one automaton (``MaskChoiceTable``), which batch
/// validation uses (``CompiledFieldType/tunedForBatch()``): it must choose exactly as the
/// conditions tried one by one do, and step aside where it cannot.
@Suite struct MaskChoiceTableTests {
    /// The choice of `tuned` (through its table) and of `plain` (condition by condition) for
    /// each value, compared.
    func expectSameChoices(_ plain: CompiledFieldType, _ tuned: CompiledFieldType, _ values: [String],
                           sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let scratch = Scratch()
        var differences: [String] = []
        for value in values {
            var text = value
            let (a, b) = text.withUTF8 { raw in
                (plain.chooseMask(raw, scratch: scratch, buffer: 0, stage: .final),
                 tuned.chooseMask(raw, scratch: scratch, buffer: 0, stage: .final))
            }
            if a != b { differences.append("\(value): \(a) by condition, \(b) by table") }
        }
        #expect(differences.isEmpty, "\(differences.prefix(10))", sourceLocation: sourceLocation)
    }

    func builtinCard() throws -> CompiledFieldType {
        let text = try String(contentsOf: pluginsFolder.appendingPathComponent("credit-card.field"), encoding: .utf8)
        return try compile(try #require(resolvedField(text)))
    }

    @Test func theBuiltinCardIsChosenAsByItsConditions() throws {
        let plain = try builtinCard()
        let tuned = plain.tunedForBatch()
        let table = try #require(tuned.choiceTable)
        #expect(plain.choiceTable == nil)
        #expect(table.stateCount < MaskChoiceTable.stateCap)
        var values: [String] = [""]
        // Every prefix of up to three digits, and random six-digit ones (the brands' ranges
        // are six digits long), each grown to every length from 0 to 20 digits.
        var generator = SplitMix64(seed: 27)
        var prefixes: [String] = (0..<1000).map { String(format: "%03d", $0) } + (0..<10).map(String.init)
            + (0..<100).map { String(format: "%02d", $0) }
        prefixes += (0..<1500).map { _ in String(format: "%06d", Int.random(in: 0..<1_000_000, using: &generator)) }
        for prefix in prefixes {
            for length in 0...20 {
                let filler = String(repeating: "7", count: max(0, length - prefix.count))
                values.append(String((prefix + filler).prefix(length)))
            }
        }
        expectSameChoices(plain, tuned, values)
        // Separators are not slot characters; letters and non-ASCII letters are (the table
        // steps aside for the latter).
        expectSameChoices(plain, tuned, ["4111 1111-1111 1111", " 37 8282 246310005 ", "4111x111111111111",
                                         "A37", "3a", "4111é1111111111111", "é4111111111111111",
                                         "4111111111111111é", "6062 82\u{00A0}00 0000 0000", "40\u{0301}00"])
    }

    @Test func conditionsOnLettersAreChosenAsByTheConditions() throws {
        let plain = try compile(try #require(resolvedField("""
            field account
            normalize strip " "
            mask "AA00 0000 0000 0000 0000 00" when /DE.*/ as germany
            mask "AA00 0000 0000 00" when /[A-Z]{2}[0-9]{2}[0-9]{10}/ as short
            mask "AA00 AAAA 0000 0000" when /[A-Z]{2}[0-9]{2}[A-Z]{4}.*/i as letters
            mask "AAAAAA"
            """)))
        let tuned = plain.tunedForBatch()
        #expect(tuned.choiceTable != nil)
        var generator = SplitMix64(seed: 3)
        let alphabet = Array("DEdeXYZ0123456789 -é")
        let values = (0..<20_000).map { _ in
            String((0..<Int.random(in: 0...22, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
        }
        expectSameChoices(plain, tuned, values + ["DE", "DE89370400440532013000", "GB12345678901234", "gb12ABCD"])
    }

    @Test func typesTheTableCannotServeAreLeftAsTheyAre() throws {
        // A condition kept as an NFA (its DFA would pass the cap).
        let nfa = try compile(try #require(resolvedField("""
            field z
            mask "00000000000000000000" when /[0-9]*1[0-9]{14}/
            mask "0000"
            """)))
        #expect(nfa.choices.first?.condition.isDFA == false)
        #expect(nfa.tunedForBatch() === nfa)
        // A product past the cap: a suffix window twelve digits long needs 4096 states alone.
        let wide = try compile(try #require(resolvedField("""
            field z
            mask "0000000000000" when /[0-9]*1[0-9]{11}/
            mask "0000000000000" when /[0-9]*2[0-9]{11}/
            mask "0000"
            """)))
        #expect(wide.choices.allSatisfy { $0.condition.isDFA })
        #expect(MaskChoiceTable(conditions: wide.choices.map(\.condition.automaton)) == nil)
        #expect(wide.tunedForBatch() === wide)
        // A type without choices has nothing to tune.
        let single = try compile(try #require(resolvedField("field z\nmask \"0000\"")))
        #expect(single.tunedForBatch() === single)
    }

    @Test func aTunedTypeJudgesAsThePlainOne() throws {
        let plain = try builtinCard()
        let tuned = plain.tunedForBatch()
        var generator = SplitMix64(seed: 11)
        let scratch = Scratch()
        for _ in 0..<5000 {
            let digits = (0..<Int.random(in: 10...20, using: &generator)).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) }
            var text = String(digits)
            if Bool.random(using: &generator) { text.insert(" ", at: text.index(text.startIndex, offsetBy: 4)) }
            let (a, b) = text.withUTF8 { raw in
                (plain.screen(utf8: UnsafeRawBufferPointer(raw), scratch: scratch), tuned.screen(utf8: UnsafeRawBufferPointer(raw), scratch: scratch))
            }
            #expect(a == b, "\(text)")
        }
        for value in ["4111 1111 1111 1111", "4111 1111 1111 1112", "3782 822463 1000", "6062820000000000"] {
            let (a, b) = (plain.validate(value), tuned.validate(value))
            #expect(a.formatted == b.formatted && a.mask == b.mask && a.violations.map(\.rule) == b.violations.map(\.rule), "\(value)")
        }
    }
}
