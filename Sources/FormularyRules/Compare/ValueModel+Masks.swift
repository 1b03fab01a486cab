/// The mask stage and the checks of ``ValueModel``: how the normalized value is chosen a
/// mask, laid into it and read by the checks, and what is accepted when the value ends.
extension ValueModel {
    /// The normalized value's next scalar (class `c`) into the conditions and every branch.
    func read(_ t: inout [Int32], _ c: Int32) throws(TooComplex) {
        if isSlot[Int(c)] {
            for k in conditions.indices {
                guard let condition = conditions[k], t[conditionBase + k] >= 0 else { continue }
                t[conditionBase + k] = try condition.next(t[conditionBase + k], c)
            }
        }
        for k in conditions.indices {
            let base = branchBase + k * stride
            let m = t[base]
            guard m != Self.gone && m != Self.rejecting else { continue }
            guard hasMask[k] && m >= 0 else {
                try feed(&t, base, c)
                continue
            }
            // As `CompiledMask.format`: each literal is written; the scalar is taken by the
            // first literal equal to it, else by the slot after them, else copied as it is.
            let start = itemStart[k], count = itemCount[k]
            var j = Int(m)
            var taken = false
            while !taken, j < count, items[start + j] >= 0 {
                let literal = items[start + j]
                try feed(&t, base, literal)
                j += 1
                taken = literal == c
            }
            if taken {
                t[base] = Int32(j)
            } else if j < count && fits(items[start + j], c) {
                try feed(&t, base, c)
                t[base] = Int32(j + 1)
            } else {
                try feed(&t, base, c)
                t[base] = Self.copying
            }
        }
    }

    func fits(_ slot: Int32, _ c: Int32) -> Bool {
        switch slot {
        case Self.digitSlot: isDigit[Int(c)]
        case Self.letterSlot: isLetter[Int(c)]
        default: isDigit[Int(c)] || isLetter[Int(c)]
        }
    }

    /// Class `c` of the formatted text into the checks of the branch at `base`.
    func feed(_ t: inout [Int32], _ base: Int, _ c: Int32) throws(TooComplex) {
        for j in checks.indices {
            let s = t[base + 1 + j]
            if s >= 0 { t[base + 1 + j] = try checks[j].next(s, c) }
        }
    }

    /// Collapses what no longer matters (see the type's comment); false when the thread can
    /// no longer accept anything.
    func settle(_ t: inout [Int32]) throws(TooComplex) -> Bool {
        var open = false
        var cutAfter = conditions.count
        let checkCount = negated.count
        for k in 0..<hasMask.count {
            let base = branchBase + k * stride
            if t[base] == Self.gone { continue }   // for good
            let conditional = conditionFlags[k]
            let state = t[conditionBase + k]
            if k >= cutAfter || (conditional && state < 0) {
                if conditional { t[conditionBase + k] = -1 }
                clear(&t, base, Self.gone)
                continue
            }
            if conditional && Int(state) < conditionUniversalCount[k]
                && conditionUniversal[conditionUniversalStart[k] + Int(state)] { cutAfter = k + 1 }
            if t[base] == Self.rejecting { continue }
            var rejects = excluded[k] || (fillIsError[k] && t[base] == Self.copying)
            var j = 0
            while j < checkCount && !rejects {
                let s = t[base + 1 + j]
                if s != Self.satisfied {
                    let always = s >= 0 && Int(s) < universalCount[j] && universal[universalStart[j] + Int(s)]
                    if negated[j] {
                        if s < 0 { t[base + 1 + j] = Self.satisfied } else if always { rejects = true }
                    } else {
                        if s < 0 { rejects = true } else if always { t[base + 1 + j] = Self.satisfied }
                    }
                }
                j += 1
            }
            if rejects { clear(&t, base, Self.rejecting) } else { open = true }
        }
        return open
    }

    func clear(_ t: inout [Int32], _ base: Int, _ mark: Int32) {
        t[base] = mark
        for j in 0..<checks.count { t[base + 1 + j] = 0 }
    }

    /// Whether the value read into `thread` is accepted, now that it has ended.
    func accepts(_ thread: [Int32]) throws(TooComplex) -> Bool {
        for (i, kind) in stepKinds.enumerated() where kind == .trim {
            if thread[i] == 2 { return false }   // white space read as inner, and the value ended
            if thread[i] == 4 { return true }    // trailing white space after an accepted value
        }
        var chosen = conditions.count - 1
        for k in conditions.indices {
            guard let condition = conditions[k] else { break }
            let s = thread[conditionBase + k]
            if s >= 0 && condition.accepting[Int(s)] {
                chosen = k
                break
            }
        }
        let base = branchBase + chosen * stride
        var t = thread
        var m = t[base]
        guard m != Self.rejecting && m != Self.gone else { return false }
        if hasMask[chosen] {
            let start = itemStart[chosen], count = itemCount[chosen]
            if m > 0 && Int(m) >= trailingStart[chosen] {
                while Int(m) < count, items[start + Int(m)] >= 0 {
                    try feed(&t, base, items[start + Int(m)])
                    m += 1
                }
            }
            if fillIsError[chosen] && Int(m) != count { return false }
        }
        for j in checks.indices {
            let s = t[base + 1 + j]
            if s == Self.satisfied { continue }
            let matched = s >= 0 && checks[j].accepting[Int(s)]
            if matched == negated[j] { return false }
        }
        return true
    }
}
