/// Matching as an NFA: the set of states alive after each scalar.
extension PatternProgram {
    /// Follows the NFA's set of states over `b`.
    func nfaEnd(_ b: Bytes, _ state: PatternScratch) -> End {
        state.reserve(rows)
        var current = state.current, next = state.next
        var count = 0
        var generation = state.nextGeneration()
        for row in starts where state.mark[Int(row)] != generation {
            state.mark[Int(row)] = generation
            current[count] = row
            count += 1
        }
        if let base = b.baseAddress {
            var i = 0
            while i < b.count && count > 0 {
                let scalar: UInt32
                if base[i] < 0x80 {
                    scalar = UInt32(base[i])
                    i += 1
                } else {
                    let (decoded, length) = Self.decode(base, i, b.count)
                    scalar = decoded
                    i += length
                }
                generation = state.nextGeneration()
                var nextCount = 0
                for k in 0..<count {
                    let row = Int(current[k])
                    for x in Int(rangeStart[row])..<Int(rangeStart[row + 1]) {
                        if lo[x] > scalar { break }
                        let t = target[x]
                        if hi[x] >= scalar && state.mark[Int(t)] != generation {
                            state.mark[Int(t)] = generation
                            next[nextCount] = t
                            nextCount += 1
                        }
                    }
                }
                swap(&current, &next)
                count = nextCount
            }
        }
        var accepted = false
        for k in 0..<count where accepting[Int(current[k])] { accepted = true }
        return End(isDead: count == 0, isAccepting: accepted, isUniversal: false)
    }
}

/// One thread's working memory for following an NFA's set of states: two lists of rows and
/// a mark per row (the generation that last added it), grown to the largest program used.
final class PatternScratch {
    private(set) var current: UnsafeMutablePointer<UInt32>
    private(set) var next: UnsafeMutablePointer<UInt32>
    private(set) var mark: UnsafeMutablePointer<UInt32>
    private var capacity = 0
    private var generation: UInt32 = 0

    init() {
        current = .allocate(capacity: 1)
        next = .allocate(capacity: 1)
        mark = .allocate(capacity: 1)
    }

    deinit {
        current.deallocate()
        next.deallocate()
        mark.deallocate()
    }

    /// A generation no row is marked with yet.
    func nextGeneration() -> UInt32 {
        if generation == UInt32.max {
            mark.update(repeating: 0, count: capacity)
            generation = 0
        }
        generation += 1
        return generation
    }

    /// Room for `rows` rows.
    func reserve(_ rows: Int) {
        guard rows > capacity else { return }
        current.deallocate()
        next.deallocate()
        mark.deallocate()
        current = .allocate(capacity: rows)
        next = .allocate(capacity: rows)
        mark = .allocate(capacity: rows)
        mark.initialize(repeating: 0, count: rows)
        generation = 0
        capacity = rows
    }
}
