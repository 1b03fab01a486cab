/// A mask's layout of one value, scalar by scalar, with where each value scalar went.
///
/// This is ``CompiledMask/format(_:scratch:buffer:)``'s walk, kept apart from the byte hot
/// path because editing needs to know provenance: which output scalars the mask inserted,
/// and where the scalar the user typed last ended up.
struct MaskLayout {
    /// The formatted scalars (the same text as `format`).
    var output: [Unicode.Scalar]
    /// For each value scalar, the output offset just after it. Every value scalar lands on
    /// exactly one output scalar (a slot, a literal it matched, or the unplaced rest).
    var ends: [Int]
    /// For each value scalar, whether the mask took it as its literal at that place.
    var takenAsLiteral: [Bool]
    /// Every item laid out and every value scalar used.
    var filled: Bool
}

extension CompiledMask {
    /// Whether `s` fits the slot `item` (a literal fits nothing).
    func scalarFits(_ item: Item, _ s: Unicode.Scalar) -> Bool {
        let isDigit = s.value &- 0x30 < 10
        switch item {
        case .digit: return isDigit
        case .letter: return isLetter(s)
        case .alphanumeric: return isDigit || isLetter(s)
        case .literal: return false
        }
    }

    /// Lays `value` (normalized scalars) into the mask exactly as formatting does.
    func layout(_ value: [Unicode.Scalar]) -> MaskLayout {
        var output: [Unicode.Scalar] = []
        output.reserveCapacity(value.count + items.count)
        var ends = [Int](repeating: 0, count: value.count)
        var taken = [Bool](repeating: false, count: value.count)
        var i = 0, m = 0
        var broken = false
        while m < items.count && i < value.count {
            let item = items[m]
            if case .literal(let literal) = item {
                output.append(literal)
                if value[i] == literal {
                    taken[i] = true
                    ends[i] = output.count
                    i += 1
                }
                m += 1
                continue
            }
            guard scalarFits(item, value[i]) else { broken = true; break }
            output.append(value[i])
            ends[i] = output.count
            i += 1
            m += 1
        }
        if !broken && i == value.count && i > 0 && m >= trailingLiteralsStart {
            while m < items.count, case .literal(let literal) = items[m] {
                output.append(literal)
                m += 1
            }
        }
        let rest = value.count - i
        while i < value.count {
            output.append(value[i])
            ends[i] = output.count
            i += 1
        }
        return MaskLayout(output: output, ends: ends, takenAsLiteral: taken,
                          filled: !broken && rest == 0 && m == items.count)
    }
}
