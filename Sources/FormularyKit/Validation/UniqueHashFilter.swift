/// Which `unique` key hashes were seen more than once, kept as they arrive during the scan.
///
/// Two bits a slot (seen, seen again), the slot taken from the hash's low bits. The calling
/// thread fills it as each batch's hashes come in, while the workers judge the next ranges,
/// so that after the scan only the hashes whose slot was hit twice (every shared hash, and
/// a few others that merely share a slot) need grouping: the grouping of all the hashes on
/// one thread after the scan was most of what `unique` rules cost in wall time.
struct UniqueHashFilter {
    private var seen: [UInt64]
    private var again: [UInt64]
    private let mask: UInt64

    /// A filter for about `expected` hashes: 16 slots a hash (4 bytes for 16 hashes), so
    /// about 6% of the unshared hashes pass as candidates.
    init(expected: Int) {
        var slots = 1 << 16
        while slots < expected.saturatingMultiplied(by: 16), slots < 1 << 30 { slots <<= 1 }
        seen = [UInt64](repeating: 0, count: slots / 64)
        again = seen
        mask = UInt64(slots - 1)
    }

    /// Notes each hash of one batch.
    mutating func insert(contentsOf hashes: [UniqueKeyHash]) {
        let mask = self.mask
        seen.withUnsafeMutableBufferPointer { seen in
            again.withUnsafeMutableBufferPointer { again in
                for h in hashes {
                    let slot = Int(truncatingIfNeeded: h.hash & mask)
                    let word = slot >> 6, bit = UInt64(1) << UInt64(slot & 63)
                    if seen[word] & bit != 0 { again[word] |= bit } else { seen[word] |= bit }
                }
            }
        }
    }

    /// The hashes whose slot was seen more than once: every hash another one equals, and
    /// some that only share a slot (grouping them by hash tells those apart).
    func candidates(_ hashes: [UniqueKeyHash]) -> [UniqueKeyHash] {
        let mask = self.mask
        return again.withUnsafeBufferPointer { again in
            hashes.filter { h in
                let slot = Int(truncatingIfNeeded: h.hash & mask)
                return again[slot >> 6] & (UInt64(1) << UInt64(slot & 63)) != 0
            }
        }
    }
}

private extension Int {
    func saturatingMultiplied(by other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? .max : product
    }
}
