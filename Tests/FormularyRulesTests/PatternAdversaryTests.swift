import Testing
@testable import FormularyRules

/// Patterns that make backtracking engines exponential get their answers on megabyte values:
/// matching is a step per scalar whatever the pattern. Nothing is timed here (a loaded
/// machine must not fail a test); `FormularyBench patterns` prints the times.
@Suite struct PatternAdversaryTests {
    static let megabyte = 1 << 20

    private func program(_ source: String) throws -> PatternProgram {
        try PatternCache.shared.program(source, flags: [])
    }

    @Test func alternativesOfOverlappingLengths() throws {
        let p = try program("(a|aa)+b")
        let run = String(repeating: "a", count: Self.megabyte)
        #expect(PatternLiveOracleTests.end(p, run + "b").isAccepting)
        let prefix = PatternLiveOracleTests.end(p, run)
        #expect(!prefix.isAccepting && !prefix.isDead, "a run of a's can still end in b")
        #expect(PatternLiveOracleTests.end(p, run + "c").isDead)
        #expect(PatternLiveOracleTests.end(p, run + "b!").isDead)
    }

    @Test func nestedStars() throws {
        let p = try program("(.*a){12}")
        let value = String(repeating: "ba", count: Self.megabyte / 2)
        #expect(PatternLiveOracleTests.end(p, value).isAccepting)
        #expect(!PatternLiveOracleTests.end(p, value + "b").isAccepting)
        #expect(!PatternLiveOracleTests.end(p, value + "b").isDead)
        // Eleven a's are one short; a line feed breaks every `.*`.
        #expect(!PatternLiveOracleTests.end(p, String(repeating: "xa", count: 11) + String(repeating: "x", count: Self.megabyte)).isAccepting)
        #expect(PatternLiveOracleTests.end(p, String(repeating: "a", count: Self.megabyte) + "\n").isDead)
        let old = try program("(a+)+$")
        #expect(!PatternLiveOracleTests.end(old, String(repeating: "a", count: Self.megabyte) + "!").isAccepting)
    }

    /// The NFA case: "the sixteenth symbol from the end is an a" needs 2^16 DFA states, so
    /// it runs as an NFA, still a step per scalar (at most 17 states alive).
    @Test func aSymbolFarFromTheEnd() throws {
        let p = try program("(a|b)*a(a|b){15}")
        #expect(!p.isDFA)
        var rng = SplitMix64(seed: 0xAB)
        var scalars = (0..<Self.megabyte).map { _ in rng.chance(0.5) ? "a" : "b" }
        for answer in [true, false] {
            scalars[scalars.count - 16] = answer ? "a" : "b"
            let value = scalars.joined()
            let end = PatternLiveOracleTests.end(p, value)
            #expect(end.isAccepting == answer)
            #expect(!end.isDead)
            #expect(PatternLiveOracleTests.end(p, value + "c").isDead)
        }
    }

    /// Through a whole type, final and live, as validation and typing see them.
    @Test func throughATypeBothStages() throws {
        let type = try compileType(check(.pattern(source: "(a|aa)+b", flags: [])))
        let run = String(repeating: "a", count: Self.megabyte)
        #expect(type.isValid(run + "b"))
        #expect(type.live(run) == .incomplete)
        #expect(type.live(run + "c") == .invalid)
        #expect(type.failed(run) == ["pattern"])
    }
}
