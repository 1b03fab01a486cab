import Foundation
import Testing
@testable import FormularyRules

/// The one-pass final stage of types that strip separators and format digits
/// (``DigitPlan``): batch validation's `screen(utf8:)` and `isValid(utf8:)` take it, and must
/// answer exactly as the general pipeline does (`validate`, which never takes it).
@Suite struct DigitPlanTests {
    func builtin(_ name: String) throws -> CompiledFieldType {
        let text = try String(contentsOf: pluginsFolder.appendingPathComponent("\(name).field"), encoding: .utf8)
        return try compile(try #require(resolvedField(text)))
    }

    /// `screen(utf8:)` and `isValid(utf8:)` of each value against `validate`'s verdict.
    func expectSameAsPipeline(_ type: CompiledFieldType, _ values: [String],
                              sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        var differences: [String] = []
        for value in values {
            let result = type.validate(value)
            let expected: CompiledFieldType.Screening = result.isAbsent ? .absent
                : result.violations.isEmpty ? .clean : .failing
            var text = value
            let (screened, valid) = text.withUTF8 { raw in
                let bytes = UnsafeRawBufferPointer(raw)
                return (type.screen(utf8: bytes), type.isValid(utf8: bytes))
            }
            if screened != expected { differences.append("\(value.debugDescription): screened \(screened), pipeline \(expected)") }
            if valid != (result.verdict == .valid) {
                differences.append("\(value.debugDescription): isValid \(valid), pipeline \(result.verdict)")
            }
        }
        #expect(differences.isEmpty, "\(differences.count) differ: \(differences.prefix(8))", sourceLocation: sourceLocation)
    }

    /// Digit strings of every length up to 21 with separators, a valid check digit on half of
    /// them, and the odd letter, tab, non-ASCII space or digit.
    func generatedValues(prefixes: [String], separators: [String], seed: UInt64) -> [String] {
        var generator = SplitMix64(seed: seed)
        var values = ["", " ", "  \t ", "\u{00A0}", "-", " - ", "0", "abc", "é"]
        for prefix in prefixes {
            for length in max(1, prefix.count)...21 {
                var digits = prefix
                while digits.count < length { digits.append(Character(String(Int.random(in: 0...9, using: &generator)))) }
                if Bool.random(using: &generator) { digits = Self.withLuhnDigit(String(digits.dropLast())) }
                var value = ""
                for (i, d) in digits.enumerated() {
                    if i > 0 && Int.random(in: 0..<4, using: &generator) == 0 {
                        value += separators.randomElement(using: &generator)!
                    }
                    value.append(d)
                }
                values.append(value)
                switch Int.random(in: 0..<12, using: &generator) {
                case 0: values.append(value + "x")
                case 1: values.append(" " + value + "\t")
                case 2: values.append(value.replacingOccurrences(of: "1", with: "١"))   // an Arabic-Indic digit
                case 3: values.append("\u{2007}" + value)                              // a non-ASCII space
                default: break
                }
            }
        }
        return values
    }

    static func withLuhnDigit(_ payload: String) -> String {
        for check in 0...9 where Checksum.luhn(Array((payload + String(check)).utf8).withUnsafeBufferPointer { $0 }) {
            return payload + String(check)
        }
        return payload + "0"
    }

    @Test func theBuiltinCardAnswersAsItsPipeline() throws {
        let plain = try builtin("credit-card")
        // Its masks are chosen by the value: the plan needs the choice as one table.
        #expect(plain.digitPlan == nil)
        let tuned = plain.tunedForBatch()
        #expect(tuned.digitPlan != nil)
        let prefixes = ["4", "34", "37", "5105", "2221", "6011", "65", "62", "3528", "36", "300", "220", "6062",
                        "9792", "5067", "4011", "1", "7", "0"]
        expectSameAsPipeline(tuned, generatedValues(prefixes: prefixes, separators: [" ", "-", "  ", " - ", "."],
                                                    seed: 27))
        expectSameAsPipeline(tuned, ["4111 1111 1111 1111", "4111-1111-1111-1111", "4111111111111112",
                                     "378282246310005", "3782 822463 10005", "4222222222222", "4111 1111 1111 111"])
    }

    @Test func itsLuhnAgreesWithTheChecksumOverDigits() throws {
        let plan = try #require(try builtin("credit-card").tunedForBatch().digitPlan)
        var generator = SplitMix64(seed: 30)
        var differences: [String] = []
        for length in 1...25 {
            for _ in 0..<400 {
                let digits = (0..<length).map { _ in UInt8(0x30 + Int.random(in: 0...9, using: &generator)) }
                let (a, b) = digits.withUnsafeBufferPointer { (plan.luhn($0), Checksum.luhn($0)) }
                if a != b { differences.append(String(decoding: digits, as: UTF8.self)) }
            }
        }
        #expect(differences.isEmpty, "\(differences.prefix(5))")
    }

    @Test func thePhoneAnswersAsItsPipeline() throws {
        let phone = try builtin("phone")
        #expect(phone.digitPlan != nil)
        expectSameAsPipeline(phone, generatedValues(prefixes: ["555", "2", "0"], separators: [" ", "(", ")", "-", ".", "/"],
                                                    seed: 28))
        expectSameAsPipeline(phone, ["(212) 555-0100", "212.555.0100", "5551234567", "555123456", "+1 555 123 4567"])
    }

    @Test func typesWithOtherStepsOrChecksHaveNoPlan() throws {
        for name in ["email", "exp-date", "name", "age", "iban", "us-zip"] {
            #expect(try builtin(name).tunedForBatch().digitPlan == nil, "\(name)")
        }
        // A letter slot, a digit literal, a pattern, another normalization step.
        let refused = [
            "field t\nnormalize strip \" \"\nmask \"AA00\"\n",
            "field t\nnormalize strip \" \"\nmask \"00\\\\0\"\n",
            "field t\nnormalize strip \" \"\nmask \"0000\"\npattern /1.*/\n",
            "field t\nnormalize trim\nmask \"0000\"\n",
        ]
        for text in refused {
            #expect(try compile(try #require(resolvedField(text))).digitPlan == nil, "\(text)")
        }
    }

    @Test func strippedDigitsLengthsAndWarningsAnswerAsThePipeline() throws {
        // Two strip steps; `length` counts the formatted text (a mask it could never allow is
        // refused by the compiler); a warning makes a value unclean but still valid.
        let text = """
            field t
            normalize strip "-/" strip-spaces
            mask "00-00-00"
            length 8...12 message "long enough"
            checksum luhn warning
            """
        let type = try compile(try #require(resolvedField(text)))
        #expect(type.digitPlan != nil)
        expectSameAsPipeline(type, generatedValues(prefixes: ["1", "0", "9"], separators: [" ", "-", "\t", "/", "."],
                                                   seed: 29))
        expectSameAsPipeline(type, ["12-34-56", "123456", "12/34/56", "1 2 3 4 5 6", "12 34 5", "123455", "12.34.56"])
    }
}
