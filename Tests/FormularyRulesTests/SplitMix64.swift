@testable import FormularyRules

/// A small seeded generator (SplitMix64), so a failing random sequence can be replayed
/// from the seed the test prints.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }
    mutating func pick<T>(_ items: [T]) -> T { items[int(0...items.count - 1)] }

    mutating func string(from alphabet: [Character], maxLength: Int) -> String {
        String((0..<int(0...maxLength)).map { _ in pick(alphabet) })
    }
}

/// Characters worth typing into `type`: digits, letters, its mask's literals, white space,
/// separators, and a few non-ASCII characters.
func alphabet(for type: CompiledFieldType) -> [Character] {
    var characters = Array("0123456789012345678901234567890123456789abcXYZ @.-/_'()+:") + ["é", "ß", "👍", "\u{301}", "\t"]
    if let pattern = type.mask?.display {
        for c in pattern where !characters.contains(c) { characters.append(c) }
    }
    return characters
}
