/// A mask's number group, `{LOW-HIGH}` (`{01-12}` in `{01-12}/00`): as many digit slots as
/// HIGH has digits, holding a number from LOW to HIGH. Formatting and the mask check treat
/// it as those digit slots; only typing reads the range (``CompiledMask/padded(_:typed:)``),
/// the way input-mask libraries pad a month: `2` becomes `02/`, `1/` becomes `01/`.
struct NumberGroup: Sendable, Hashable {
    /// The index in ``CompiledMask/items`` of the group's first slot.
    let start: Int
    let width: Int
    let low: Int, high: Int

    /// The group written at `scalars[at]` (a `{`) and its length in scalars, or nil when the
    /// text there is not `{DIGITS-DIGITS}` with both numbers of the same 2 to 9 digits and
    /// LOW <= HIGH (the `{` is then a literal, as it was before number groups existed).
    static func parse(_ scalars: [Unicode.Scalar], at k: Int, item: Int) -> (NumberGroup, Int)? {
        func digits(from i: Int) -> (value: Int, count: Int) {
            var j = i, value = 0
            while j < scalars.count, scalars[j].value &- 0x30 < 10, j - i < 9 {
                value = value * 10 + Int(scalars[j].value - 0x30)
                j += 1
            }
            return (value, j - i)
        }
        let low = digits(from: k + 1)
        let dash = k + 1 + low.count
        guard low.count >= 2, dash < scalars.count, scalars[dash] == "-" else { return nil }
        let high = digits(from: dash + 1)
        let close = dash + 1 + high.count
        guard high.count == low.count, close < scalars.count, scalars[close] == "}",
              low.value <= high.value else { return nil }
        return (NumberGroup(start: item, width: low.count, low: low.value, high: high.value), close - k + 1)
    }

    /// Whether some number in range, written with `width` digits, starts with `digit`.
    func canStart(with digit: Int) -> Bool {
        var unit = 1
        for _ in 1..<width { unit *= 10 }
        return digit * unit <= high && (digit + 1) * unit - 1 >= low
    }

    func contains(_ n: Int) -> Bool { low <= n && n <= high }
}

extension CompiledMask {
    /// `value` (normalized scalars) with the number group that the scalar at `typed` (the one
    /// character just typed) lands in padded with leading zeros, and where the caret goes
    /// after it; nil when typing it pads nothing. A group is padded when:
    /// - the typed scalar is a digit in the group's first slot that no number of the range
    ///   starts with, and is itself in range (`2` in `{01-12}` → `02`); when it ends the
    ///   value, the literals after the group follow it, as if typed (`02/`);
    /// - the typed scalar is the literal right after the group, typed after fewer digits
    ///   than the group holds, and those digits are a number in range (`1/` → `01/`);
    /// - (nothing to pad) the typed scalar repeats that literal right after it: it is
    ///   dropped, since the padding may have put it there (`02/` and `/` stay `02/`).
    func padded(_ value: [Unicode.Scalar], typed: Int) -> (value: [Unicode.Scalar], caret: Int)? {
        guard !numbers.isEmpty, typed < value.count else { return nil }
        var i = 0, m = 0
        while m < items.count && i <= typed {
            let item = items[m]
            if case .literal(let literal) = item {
                if value[i] == literal { i += 1 }
                m += 1
                continue
            }
            let s = value[i]
            if i == typed, i > 0, value[i - 1] == s, case .literal(s) = items[m - 1],
               numbers.contains(where: { $0.start + $0.width == m - 1 }) {
                // The separator again, right after the one that ends a group (typing `2/`
                // after padding gave `02/`): it is already there.
                return (Array(value[..<i]) + value[(i + 1)...], i)
            }
            if i == typed, let group = numbers.first(where: { $0.start <= m && m < $0.start + $0.width }) {
                return pad(value, typed: typed, group: group, slot: m - group.start)
            }
            guard scalarFits(item, s) else { return nil }
            i += 1
            m += 1
        }
        return nil
    }

    private func pad(_ value: [Unicode.Scalar], typed: Int, group: NumberGroup,
                     slot: Int) -> (value: [Unicode.Scalar], caret: Int)? {
        let s = value[typed]
        let zero: Unicode.Scalar = "0"
        if slot == 0 {
            let digit = Int(s.value &- 0x30)
            guard digit < 10, !group.canStart(with: digit), group.contains(digit) else { return nil }
            var out = Array(value[..<typed])
            out += [Unicode.Scalar](repeating: zero, count: group.width - 1)
            out.append(s)
            var caret = out.count
            if typed + 1 == value.count {
                var m = group.start + group.width
                while m < items.count, case .literal(let literal) = items[m] {
                    out.append(literal)
                    m += 1
                }
                caret = out.count
            }
            out += value[(typed + 1)...]
            return (out, caret)
        }
        // A separator typed after `slot` digits: the literal that follows the group.
        let after = group.start + group.width
        guard after < items.count, case .literal(let literal) = items[after], s == literal else { return nil }
        var number = 0
        for k in (typed - slot)..<typed { number = number * 10 + Int(value[k].value - 0x30) }
        guard group.contains(number) else { return nil }
        var out = Array(value[..<(typed - slot)])
        out += [Unicode.Scalar](repeating: zero, count: group.width - slot)
        out += value[(typed - slot)...]
        return (out, typed + group.width - slot + 1)
    }
}
