import Testing
@testable import FormularyRules
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Feeds the front end garbage. The assertion is mostly that it returns: no crash, no hang,
/// and diagnostics that point at real places.
///
/// How long the front end took is measured as the CPU time of the test's own thread: alone
/// each test takes 2–3 s, and a parser that loops burns CPU; wall time would also count the
/// minutes a full `make test` on two cores (browsers, servers, other suites) keeps the test
/// from running, which failed it once for no fault of the parser. The time limit stays as a
/// backstop for a hang, well above what that waiting has been seen to take.
@Suite struct ParserFuzzTests {
    /// The CPU seconds a test's inputs may take together.
    static let cpuBudget = 30.0

    /// CPU time of the calling thread, in seconds (a synchronous test body stays on one).
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Runs `body` and expects it within ``cpuBudget`` CPU seconds.
    func withinBudget(_ body: () -> Void, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let start = Self.threadCPUSeconds()
        body()
        let spent = Self.threadCPUSeconds() - start
        #expect(spent < Self.cpuBudget, "the front end took \(spent) s of CPU", sourceLocation: sourceLocation)
    }

    static let vocabulary = [
        "field", "form", "extends", "label", "help", "placeholder", "keyboard", "number-pad", "secure",
        "autocapitalize", "param", "=", "normalize", "trim", "strip", "mask", "length", "integer", "decimal",
        "places", "range", "pattern", "charset", "digits", "one-of", "ignore-case", "date", "checksum", "luhn",
        "drop", "accept", "reject", "live", "formats", "as", "message", "warning", "final", "same", "require",
        "when", "required", "x", "card", "$x", "$", "\"s\"", "\"\\u{1F600}\"", "\"\\q\"", "\"open", "/a+/i",
        "/x\\/y/", "/open", "2...60", "0..<1", "18...", "...160", "..<10", "0<...1", "1.1<..", "0<..<1",
        "..", "<", "-12", "0.5", "1e5", "2000-01-31", "2023-02-30", "today", "today-18y", "today+3w", "(",
        ")", ",", ":", "#", "\\", "\n", "\n", "\n", "\\\n", "\t", "é", "👨‍👩‍👧", "\r\n",
    ]

    func exercise(_ bytes: [UInt8], file: String) {
        let outcome = PluginSource.parse(bytes: bytes, file: file)
        let lineCount = outcome.source.lines.count
        for diagnostic in outcome.diagnostics {
            #expect(diagnostic.location.line >= 1 && diagnostic.location.line <= max(1, lineCount))
            #expect(diagnostic.location.column >= 1)
            #expect(!DiagnosticFormatter().format(diagnostic).isEmpty)
        }
        switch outcome.content {
        case .field(let decl):
            let resolved = TypeResolver(declarations: [decl.name: decl]).resolve(decl)
            if case .success(let def) = resolved, !decl.hasErrors {
                // Whatever parses cleanly must print to something that parses back the same.
                let again = PluginSource.parse(bytes: Array(def.canonicalSource.utf8), file: "again.field")
                #expect(again.diagnostics == [], "\(def.canonicalSource)")
            }
        case .form(let form):
            _ = FormChecker.check(form, source: outcome.source, knownTypes: ["x"]) { _ in nil }
            _ = form.canonicalSource
        case .none:
            break
        }
        _ = PluginSource.parseTypeReference(String(decoding: bytes, as: UTF8.self))
    }

    @Test(.timeLimit(.minutes(15))) func randomBytes() {
        withinBudget {
            var rng = SplitMix64(seed: 42)
            let alphabet: [UInt8] = Array("field x\n\"\\/#$.<-0123456789abc()=:, \t".utf8) + [0x80, 0xC3, 0xA9, 0xFF, 0xE2, 0x0D]
            for _ in 0..<1500 {
                let count = Int.random(in: 0...120, using: &rng)
                let bytes = (0..<count).map { _ in
                    Bool.random(using: &rng) ? alphabet.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
                }
                exercise(bytes, file: "r.field")
                exercise(bytes, file: "r.form")
            }
        }
    }

    @Test(.timeLimit(.minutes(15))) func tokenSoups() {
        withinBudget {
            var rng = SplitMix64(seed: 7)
            for round in 0..<2000 {
                var text = round % 3 == 0 ? "" : (round % 3 == 1 ? "field x\n" : "form f\n")
                for _ in 0..<Int.random(in: 0...40, using: &rng) {
                    text += Self.vocabulary.randomElement(using: &rng)! + (Bool.random(using: &rng) ? " " : "")
                }
                exercise(Array(text.utf8), file: round % 2 == 0 ? "s.field" : "s.form")
            }
        }
    }

    @Test(.timeLimit(.minutes(15))) func mutatedSpecExample() {
        withinBudget {
            var rng = SplitMix64(seed: 99)
            let original = Array(ParserTests.creditCard.utf8)
            for _ in 0..<1000 {
                var bytes = original
                for _ in 0..<Int.random(in: 1...6, using: &rng) {
                    let index = Int.random(in: 0..<bytes.count, using: &rng)
                    switch Int.random(in: 0..<3, using: &rng) {
                    case 0: bytes.remove(at: index)
                    case 1: bytes.insert(UInt8.random(in: 0...255, using: &rng), at: index)
                    default: bytes.swapAt(index, Int.random(in: 0..<bytes.count, using: &rng))
                    }
                }
                exercise(bytes, file: "m.field")
            }
        }
    }

    @Test func pathologicalInputs() {
        exercise(Array(repeating: UInt8(ascii: "\\"), count: 10_000), file: "p.field")
        exercise(Array(repeating: UInt8(ascii: "\n"), count: 10_000), file: "p.field")
        exercise(Array(("field x\nlength " + String(repeating: "1...", count: 2_000)).utf8), file: "p.field")
        exercise(Array(("field x\none-of " + String(repeating: "\"a\" ", count: 5_000)).utf8), file: "p.field")
        exercise(Array(String(repeating: "field x \\\n", count: 2_000).utf8), file: "p.field")
        exercise(Array(("field x\nlength 99999999999999999999999...").utf8), file: "p.field")
        exercise(Array(("field x\nlabel \"\\u{FFFFFFFFF}\"").utf8), file: "p.field")
        exercise(Array(("field x\nrange today-9999999y...").utf8), file: "p.field")
    }
}
