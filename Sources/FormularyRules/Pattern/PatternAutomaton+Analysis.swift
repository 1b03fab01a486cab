/// Questions about a pattern's language answered on its automaton, exactly: what the mask
/// lint (`mask-condition-unmatchable`) asks of a `when` pattern.
extension PatternAutomaton {
    /// The fewest and most scalars of `alphabet` in a string the automaton accepts, reading
    /// only scalars of `alphabet`; nil when it accepts no such string. `longest` is nil when
    /// such strings can be arbitrarily long.
    func lengths(over alphabet: ScalarSet) -> (shortest: Int, longest: Int?)? {
        // Only edges on some scalar of the alphabet count, and only states that can still
        // reach acceptance through them.
        let usable = transitions.map { $0.filter { alphabet.overlaps($0.lo, $0.hi) } }
        var alive = [Bool](repeating: false, count: stateCount)
        var incoming = [[Int]](repeating: [], count: stateCount)
        for (source, list) in usable.enumerated() { for edge in list { incoming[Int(edge.target)].append(source) } }
        var work = accepting
        for state in work { alive[state] = true }
        while let state = work.popLast() {
            for source in incoming[state] where !alive[source] {
                alive[source] = true
                work.append(source)
            }
        }
        let starts = start.filter { alive[$0] }
        guard !starts.isEmpty else { return nil }
        // Shortest: breadth-first from the start states.
        var distance = [Int](repeating: -1, count: stateCount)
        var queue = starts
        for state in starts { distance[state] = 0 }
        var q = 0
        var shortest = Int.max
        while q < queue.count {
            let state = queue[q]
            if accepting.contains(state) { shortest = min(shortest, distance[state]) }
            for edge in usable[state] where alive[Int(edge.target)] && distance[Int(edge.target)] < 0 {
                distance[Int(edge.target)] = distance[state] + 1
                queue.append(Int(edge.target))
            }
            q += 1
        }
        // Longest: a cycle among live states makes it unbounded; otherwise the longest path,
        // in reverse topological order (Kahn's algorithm on the live, reachable states).
        let reachable = queue
        var indegree = [Int](repeating: 0, count: stateCount)
        for state in reachable { for edge in usable[state] where alive[Int(edge.target)] { indegree[Int(edge.target)] += 1 } }
        var order: [Int] = reachable.filter { indegree[$0] == 0 }
        var k = 0
        while k < order.count {
            for edge in usable[order[k]] where alive[Int(edge.target)] {
                indegree[Int(edge.target)] -= 1
                if indegree[Int(edge.target)] == 0 { order.append(Int(edge.target)) }
            }
            k += 1
        }
        guard order.count == reachable.count else { return (shortest, nil) }
        var longestFrom = [Int](repeating: Int.min, count: stateCount)
        for state in order.reversed() {
            var best = accepting.contains(state) ? 0 : Int.min
            for edge in usable[state] where alive[Int(edge.target)] && longestFrom[Int(edge.target)] != Int.min {
                best = max(best, longestFrom[Int(edge.target)] + 1)
            }
            longestFrom[state] = best
        }
        return (shortest, starts.map { longestFrom[$0] }.max())
    }

    /// Whether the automaton accepts some string whose scalar at each position `p` belongs to
    /// `positions[p]`: a walk over (position, state) pairs, exact for an NFA as for a DFA.
    func acceptsSome(of positions: [ScalarSet]) -> Bool {
        var current = Set(start)
        for allowed in positions {
            var next = Set<Int>()
            for state in current {
                for edge in transitions[state] where allowed.overlaps(edge.lo, edge.hi) { next.insert(Int(edge.target)) }
            }
            if next.isEmpty { return false }
            current = next
        }
        return current.contains { accepting.contains($0) }
    }
}

extension ScalarSet {
    /// Whether some scalar from `lo` to `hi` is in the set.
    func overlaps(_ lo: UInt32, _ hi: UInt32) -> Bool {
        var low = 0, high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].hi < lo { low = middle + 1 } else { high = middle }
        }
        return low < ranges.count && ranges[low].lo <= hi
    }
}
