/// The `i` flag: Unicode simple case folding (CaseFolding.txt, statuses C and S).
///
/// Two scalars match each other case-insensitively when they fold to the same scalar. The
/// scalars that fold together form an *orbit* (`K`, `k` and the Kelvin sign U+212A; `S`, `s`
/// and long s U+017F; `Σ`, `σ` and `ς`), and closing a set under case adds the whole orbit of
/// each member.
enum CaseFolding {
    /// Every scalar that shares its folding with another, sorted, with its orbit's index.
    private static let members: [(scalar: UInt32, orbit: Int32)] = table.members
    /// The orbits, each sorted.
    private static let orbits: [[UInt32]] = table.orbits

    private static let table: (members: [(scalar: UInt32, orbit: Int32)], orbits: [[UInt32]]) = {
        var orbits: [[UInt32]] = [[]]
        var members: [(scalar: UInt32, orbit: Int32)] = []
        members.reserveCapacity(3_000)
        UnicodeTables.scanHex(UnicodeTables.simpleCaseOrbits) { value, separator in
            members.append((value, Int32(orbits.count - 1)))
            orbits[orbits.count - 1].append(value)
            if separator != UInt8(ascii: ":") { orbits.append([]) }
        }
        orbits.removeLast()
        members.sort { $0.scalar < $1.scalar }
        return (members, orbits)
    }()

    /// The scalars that match `scalar` under `i`: its orbit, or itself alone.
    static func variants(of scalar: UInt32) -> ScalarSet {
        let k = firstMember(atLeast: scalar)
        guard k < members.count, members[k].scalar == scalar else { return ScalarSet(scalar: scalar) }
        return ScalarSet(orbits[Int(members[k].orbit)].map { ScalarRange($0, $0) })
    }

    /// `set` with every member's case variants added.
    static func closed(_ set: ScalarSet) -> ScalarSet {
        var added: [ScalarRange] = []
        for range in set.ranges {
            var k = firstMember(atLeast: range.lo)
            while k < members.count && members[k].scalar <= range.hi {
                for scalar in orbits[Int(members[k].orbit)] { added.append(ScalarRange(scalar, scalar)) }
                k += 1
            }
        }
        return added.isEmpty ? set : set.union(ScalarSet(added))
    }

    /// The index of the first member whose scalar is at least `value`.
    private static func firstMember(atLeast value: UInt32) -> Int {
        var low = 0, high = members.count
        while low < high {
            let middle = (low + high) / 2
            if members[middle].scalar < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
