/// A list of integers as a dictionary key, hashed once when made.
///
/// The automata constructions look lists up by value thousands of times: subsets of NFA
/// states, tuples of condition states, a byte's or a class's column of targets. An `[Int32]`
/// key feeds every element through the dictionary's SipHash on each lookup and insert, which
/// was a fifth of compiling the built-in `credit-card` type (49 `when` patterns). Here the
/// elements are mixed once, by multiplication, into one word that is all the dictionary
/// hashes; two lists are equal only when their elements are, so a weak mix costs at most
/// comparisons, never a wrong answer.
struct HashedList<Base: Collection & Equatable>: Hashable where Base.Element: FixedWidthInteger {
    let base: Base
    private let mixed: UInt64

    init(_ base: Base) {
        self.base = base
        var h: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(truncatingIfNeeded: base.count)
        for element in base {
            h = (h ^ UInt64(truncatingIfNeeded: element)) &* 0x9E37_79B9_7F4A_7C15
            h ^= h >> 29
        }
        mixed = h
    }

    static func == (a: Self, b: Self) -> Bool {
        a.mixed == b.mixed && a.base == b.base
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(mixed)
    }
}
