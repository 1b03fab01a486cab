/// Matching as a DFA, the hot path of every pattern check: values are UTF-8 bytes, almost
/// always ASCII.
extension PatternProgram {
    /// The row after `b` (0: dead).
    ///
    /// Eight bytes are loaded at once; when all are ASCII, either the row skips them (an
    /// accelerated row none of whose leaving bytes is among them stays where it is) or they
    /// take eight dependent table steps with no branch between them: the dead row's entries
    /// all lead to itself, so one test after the eight is enough. Four ASCII bytes go the
    /// same way; other bytes one by one, a non-ASCII scalar decoded and looked up among the
    /// row's wider ranges.
    @inline(__always)
    func dfaRow(after b: Bytes) -> Int {
        var offset = startOffset
        let shift = self.shift
        guard offset != 0, let base = b.baseAddress else { return offset >> shift }
        let n = b.count
        let table = UnsafePointer(ascii)
        let cls = UnsafePointer(classOf)
        var i = 0
        while i < n {
            if i &+ 8 <= n {
                let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 == 0 {
                    if staysOn(offset >> shift, word) {
                        i &+= 8
                        continue
                    }
                    offset = Int(table[offset | Int(cls[Int(word & 0x7F)])])
                    offset = Int(table[offset | Int(cls[Int(word >> 8 & 0x7F)])])
                    offset = Int(table[offset | Int(cls[Int(word >> 16 & 0x7F)])])
                    offset = Int(table[offset | Int(cls[Int(word >> 24 & 0x7F)])])
                    offset = Int(table[offset | Int(cls[Int(word >> 32 & 0x7F)])])
                    offset = Int(table[offset | Int(cls[Int(word >> 40 & 0x7F)])])
                    offset = Int(table[offset | Int(cls[Int(word >> 48 & 0x7F)])])
                    offset = Int(table[offset | Int(cls[Int(word >> 56)])])
                    if offset == 0 { return 0 }
                    i &+= 8
                    continue
                }
            }
            if i &+ 4 <= n {
                let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt32.self)
                if word & 0x8080_8080 == 0 {
                    offset = Int(table[offset | Int(cls[Int(word & 0x7F)])])
                    offset = Int(table[offset | Int(cls[Int(word >> 8 & 0x7F)])])
                    offset = Int(table[offset | Int(cls[Int(word >> 16 & 0x7F)])])
                    offset = Int(table[offset | Int(cls[Int(word >> 24)])])
                    if offset == 0 { return 0 }
                    i &+= 4
                    continue
                }
            }
            let c = base[i]
            if c < 0x80 {
                offset = Int(table[offset | Int(cls[Int(c)])])
                i &+= 1
            } else {
                let (scalar, length) = Self.decode(base, i, n)
                offset = wideTarget(row: offset >> shift, scalar: scalar) << shift
                i &+= length
            }
            if offset == 0 { return 0 }
        }
        return offset >> shift
    }

    /// Whether `row` is accelerated and none of the eight ASCII bytes of `word` leaves it.
    @inline(__always)
    private func staysOn(_ row: Int, _ word: UInt64) -> Bool {
        let flags = acceleration + row &* 4
        guard flags[0] != 0 else { return false }
        return !Self.hasByte(word, flags[1]) && !Self.hasByte(word, flags[2]) && !Self.hasByte(word, flags[3])
    }

    /// Whether some byte of `word` is the byte `repeated` repeats (exact for ASCII words: no
    /// borrow can carry into a byte that differs).
    @inline(__always)
    private static func hasByte(_ word: UInt64, _ repeated: UInt64) -> Bool {
        let x = word ^ repeated
        return (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080 != 0
    }

    /// The successor row of `row` on a non-ASCII scalar: a binary search of its ranges.
    @inline(__always)
    private func wideTarget(row: Int, scalar: UInt32) -> Int {
        let end = Int(rangeStart[row + 1])
        var low = Int(rangeStart[row]), high = end
        while low < high {
            let middle = (low + high) >> 1
            if hi[middle] < scalar { low = middle + 1 } else { high = middle }
        }
        return low < end && lo[low] <= scalar ? Int(target[low]) : 0
    }
}
