/// The language of `range`: the strings `-?[0-9]+(SEP[0-9]+)?` whose exact decimal value
/// lies in the range (leading zeros, trailing fraction zeros and `-0` allowed, as
/// `DecimalParts` reads them). A number compared with a constant is a regular question:
/// reading the digits left to right, after the leading zeros, it is enough to count the
/// whole digits up to one more than the constant has and to remember whether the digits so
/// far are below, equal to or above the constant's; past the separator, the fraction digits
/// are compared the same way.
extension CheckLanguage {
    static func range(_ range: DecimalRange, separator: UInt32) throws(TooComplex) -> RangeAutomaton {
        let lower = range.lower.map(Constant.init), upper = range.upper.map(Constant.init)
        let machine = RangeMachine(lower: lower, upper: upper, lowerExclusive: range.lowerExclusive,
                                   upperInclusive: range.upperInclusive)
        let start = RangeMachine.State(section: 0, negative: false, low: Comparison(), high: Comparison())
        return try RangeAutomaton.explore(from: start, cap: stateCap, accepting: machine.accepts) { state in
            var moves: [(UInt32, UInt32, RangeMachine.State)] = []
            if state.section == 0 {
                var negative = state
                negative.section = 1
                negative.negative = true
                moves.append((0x2D, 0x2D, negative))
            }
            if state.section == 2 {
                var after = state
                after.section = 3
                after.low = machine.separator(state.low, machine.constant(lower: true, negative: state.negative))
                after.high = machine.separator(state.high, machine.constant(lower: false, negative: state.negative))
                moves.append((separator, separator, after))
            }
            for d in 0..<10 {
                var next = state
                switch state.section {
                case 0, 1, 2: next.section = 2
                default: next.section = 4
                }
                next.low = machine.digit(state.low, d, machine.constant(lower: true, negative: state.negative))
                next.high = machine.digit(state.high, d, machine.constant(lower: false, negative: state.negative))
                moves.append((UInt32(0x30 + d), UInt32(0x30 + d), next))
            }
            return moves
        }.trimmed()
    }

    /// A bound's magnitude digits (no leading zeros in `whole`, no trailing ones in
    /// `fraction`) and sign.
    struct Constant {
        var sign: Int
        var whole: [Int]
        var fraction: [Int]

        init(_ c: DecimalConstant) {
            whole = c.parts.integer.map { Int($0) - 0x30 }
            fraction = c.parts.fraction.map { Int($0) - 0x30 }
            sign = whole.isEmpty && fraction.isEmpty ? 0 : (c.parts.negative ? -1 : 1)
        }

        var negated: Constant {
            var c = self
            c.sign = -sign
            return c
        }
    }

    /// How the magnitude read so far compares with a constant: in the whole part, `count`
    /// significant digits read (one more than the constant has: longer) and `order` of them
    /// against the constant's first digits; in the fraction (`inFraction`), `order` once
    /// decided, else `count` fraction digits equal so far. `nonzero` for constants ≤ 0.
    struct Comparison: Hashable {
        var inFraction = false
        var count = 0
        var order = 0
        var nonzero = false
    }

    private struct RangeMachine {
        var lower: Constant?
        var upper: Constant?
        var lowerExclusive: Bool
        var upperInclusive: Bool

        /// `section`: 0 start, 1 after '-', 2 whole digits, 3 after the separator, 4 fraction.
        struct State: Hashable {
            var section: Int
            var negative: Bool
            var low: Comparison
            var high: Comparison
        }

        /// What a bound is compared with, for the magnitude of a value of that sign: −x ≥ L
        /// exactly when x ≤ −L.
        func constant(lower isLower: Bool, negative: Bool) -> Constant? {
            let c = isLower ? lower : upper
            return negative ? c?.negated : c
        }

        func digit(_ s: Comparison, _ d: Int, _ k: Constant?) -> Comparison {
            guard let k else { return s }
            var s = s
            if k.sign <= 0 {
                s.nonzero = s.nonzero || d != 0
                return s
            }
            if s.inFraction {
                guard s.order == 0 else { return s }
                let kd = s.count < k.fraction.count ? k.fraction[s.count] : 0
                if d != kd { s.order = d < kd ? -1 : 1 } else { s.count = min(s.count + 1, k.fraction.count) }
                return s
            }
            if s.count == 0 && d == 0 { return s }   // a leading zero
            let n = s.count + 1
            if n > k.whole.count {
                s.count = k.whole.count + 1
            } else {
                if s.order == 0 && d != k.whole[n - 1] { s.order = d < k.whole[n - 1] ? -1 : 1 }
                s.count = n
            }
            return s
        }

        func separator(_ s: Comparison, _ k: Constant?) -> Comparison {
            guard let k, k.sign > 0 else { return s }
            let verdict = wholeVerdict(s, k)
            return Comparison(inFraction: true, count: 0, order: verdict, nonzero: s.nonzero)
        }

        private func wholeVerdict(_ s: Comparison, _ k: Constant) -> Int {
            if s.count < k.whole.count { return -1 }
            if s.count > k.whole.count { return 1 }
            return s.order
        }

        /// −1, 0 or 1 as the magnitude read compares with `k`.
        func result(_ s: Comparison, _ k: Constant) -> Int {
            if k.sign < 0 { return 1 }
            if k.sign == 0 { return s.nonzero ? 1 : 0 }
            let order = s.inFraction ? s.order : wholeVerdict(s, k)
            if order != 0 { return order }
            let read = s.inFraction ? s.count : 0
            return read < k.fraction.count ? -1 : 0
        }

        func accepts(_ state: State) -> Bool {
            guard state.section == 2 || state.section == 4 else { return false }
            let flip = state.negative ? -1 : 1
            if let k = constant(lower: true, negative: state.negative) {
                let c = flip * result(state.low, k)
                if c < 0 || (c == 0 && lowerExclusive) { return false }
            }
            if let k = constant(lower: false, negative: state.negative) {
                let c = flip * result(state.high, k)
                if c > 0 || (c == 0 && !upperInclusive) { return false }
            }
            return true
        }
    }
}
