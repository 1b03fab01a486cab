import Foundation
import Testing
@testable import FormularyRules

/// A batch-tuned type runs its error-severity patterns as one automaton, their product
/// (``CompiledFieldType/patternGate``): it must accept exactly what all of them accept.
@Suite struct PatternGateTests {
    func program(_ source: String) throws -> PatternProgram {
        try #require(PatternProgram.uncached(source, flags: RegexFlags()))
    }

    @Test func theProductAcceptsWhatBothAccept() throws {
        let a = try program("a.*"), b = try program(".*b"), c = try program("[0-9]+")
        let both = try #require(PatternProgram.intersection(of: [a, b]))
        let none = try #require(PatternProgram.intersection(of: [a, c]))
        let scratch = Scratch()
        for value in ["", "a", "b", "ab", "aXb", "ba", "abab", "aé€b", "a\nb", "0", "a0"] {
            Array(value.utf8).withUnsafeBufferPointer { v in
                #expect(both.matches(v, scratch: scratch) == (a.matches(v, scratch: scratch) && b.matches(v, scratch: scratch)), "\(value)")
                #expect(!none.matches(v, scratch: scratch), "\(value)")
            }
        }
        #expect(none.automaton.start.isEmpty)
    }

    @Test func theBuiltinEmailJudgesAsItsChecksDo() throws {
        let text = try String(contentsOf: pluginsFolder.appendingPathComponent("email.field"), encoding: .utf8)
        let plain = try compile(try #require(resolvedField(text)))
        let tuned = plain.tunedForBatch()
        #expect(tuned.patternGate != nil)
        var state: UInt64 = 29
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33) % n
        }
        let pieces = ["a", "b", "Z", "0", "9", ".", "..", "@", "-", "_", "+", "é", "ex", "com", "1", " ", "xn--p1ai"]
        var values = ["ada@example.com", "ada@example.123", "ada@123.example.com", ".ada@example.com", "a@b", "x@a.b"]
        for _ in 0..<20_000 { values.append((0..<next(12)).map { _ in pieces[next(pieces.count)] }.joined()) }
        let scratch = Scratch()
        var differences: [String] = []
        for value in values {
            var v = value
            let (a, b) = v.withUTF8 { raw in
                (plain.screen(utf8: UnsafeRawBufferPointer(raw), scratch: scratch),
                 tuned.screen(utf8: UnsafeRawBufferPointer(raw), scratch: scratch))
            }
            if a != b { differences.append(value) }
        }
        #expect(differences.isEmpty, "\(differences.prefix(10))")
        // A failing value's rules are still found one by one.
        #expect(tuned.validate("ada@example.123").violations.map(\.rule) == ["top-level-domain"])
    }

    @Test func onlyErrorPatternsAreRunTogether() throws {
        let type = try compile(try #require(resolvedField("""
            field z
            pattern /[a-z]+/
            pattern /.*q.*/ warning as has-q
            pattern not /.*x.*/ as no-x
            """)))
        // One error pattern only: nothing to run together.
        #expect(type.tunedForBatch() === type)
        let two = try compile(try #require(resolvedField("""
            field z
            pattern /[a-z]+/
            pattern /.*q.*/ as has-q
            pattern /.*r.*/ warning as has-r
            pattern not /.*x.*/ as no-x
            """)))
        let tuned = two.tunedForBatch()
        #expect(tuned.patternGate != nil)
        let scratch = Scratch()
        for value in ["q", "qr", "qx", "QR", "aqb", "r", "x", "qrx", "abc"] {
            var v = value
            v.withUTF8 { raw in
                #expect(two.passesPresent(raw, scratch: scratch, countingWarnings: true)
                        == tuned.passesPresent(raw, scratch: scratch, countingWarnings: true), "\(value)")
                #expect(two.passesPresent(raw, scratch: scratch, countingWarnings: false)
                        == tuned.passesPresent(raw, scratch: scratch, countingWarnings: false), "\(value)")
            }
        }
    }
}
