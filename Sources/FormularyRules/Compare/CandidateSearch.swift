/// Strings of an automaton in shortlex order (shortest first, then by the readable order of
/// their scalars), each class offering several scalars: what a witness search tries when a
/// check the automaton leaves out (a checksum, a date) must judge the candidates — every
/// ASCII digit of a class, so that some candidate gets any check digit right or wrong.
struct CandidateSearch {
    let dfa: ClassDFA
    let classes: ScalarClasses
    /// How many candidates to judge at most.
    var maxCandidates = 2_000
    /// How many automaton steps the search may take, all lengths together.
    var maxSteps = 400_000
    /// How much longer than the shortest string candidates may be.
    var maxExtraLength = 6

    /// The first candidate `judge` accepts, or nil: among values of printable ASCII first,
    /// then among all.
    func first(where judge: (String) -> Bool) -> String? {
        guard dfa.count > 0 else { return nil }
        // Every class's scalars, most readable first, merged into one list.
        var choices: [(scalar: UInt32, cls: Int)] = []
        for c in 0..<classes.count {
            for s in ScalarClasses.alternatives(in: classes.ranges[c], limit: 16) { choices.append((s, c)) }
        }
        choices.sort { (ScalarClasses.rank($0.scalar), $0.scalar) < (ScalarClasses.rank($1.scalar), $1.scalar) }
        var budget = (candidates: maxCandidates, steps: maxSteps)
        let printable = choices.filter { (0x20...0x7E).contains($0.scalar) }
        // Distances over the printable classes only, so that the first search does not wander
        // where only other scalars lead to acceptance.
        let printableClasses = Set(printable.map(\.cls))
        let ascii = distances { printableClasses.contains($0) }
        if ascii[0] >= 0, let found = search(printable, ascii, &budget, judge) { return found }
        let all = distances { _ in true }
        guard all[0] >= 0 else { return nil }
        return search(choices, all, &budget, judge)
    }

    private func search(_ choices: [(scalar: UInt32, cls: Int)], _ distance: [Int32],
                        _ budget: inout (candidates: Int, steps: Int), _ judge: (String) -> Bool) -> String? {
        let shortest = Int(distance[0])
        for length in shortest...(shortest + maxExtraLength) {
            // Depth-first, choices in order: strings of exactly `length`, in order.
            var stack: [(state: Int32, choice: Int)] = [(0, 0)]
            var path: [UInt32] = []
            while let (state, k) = stack.last {
                if path.count == length {
                    if dfa.accepting[Int(state)] {
                        budget.candidates -= 1
                        var text = String.UnicodeScalarView()
                        for s in path { text.append(Unicode.Scalar(s)!) }
                        if judge(String(text)) { return String(text) }
                        if budget.candidates <= 0 { return nil }
                    }
                    stack.removeLast()
                    if !path.isEmpty { path.removeLast() }
                    continue
                }
                var k2 = k
                var pushed = false
                while k2 < choices.count {
                    let (s, c) = choices[k2]
                    k2 += 1
                    budget.steps -= 1
                    if budget.steps <= 0 { return nil }
                    let t = dfa.next(state, c)
                    guard t >= 0, distance[Int(t)] >= 0, path.count + 1 + Int(distance[Int(t)]) <= length else { continue }
                    stack[stack.count - 1].choice = k2
                    stack.append((t, 0))
                    path.append(s)
                    pushed = true
                    break
                }
                if !pushed {
                    stack.removeLast()
                    if !path.isEmpty { path.removeLast() }
                }
            }
        }
        return nil
    }

    /// Per state, the fewest classes (of those `allowed`) to an accepting state (-1: none).
    private func distances(_ allowed: (Int) -> Bool) -> [Int32] {
        var incoming = [[Int32]](repeating: [], count: dfa.count)
        for s in 0..<dfa.count {
            for c in 0..<dfa.classCount where allowed(c) {
                let t = dfa.table[s * dfa.classCount + c]
                if t >= 0 { incoming[Int(t)].append(Int32(s)) }
            }
        }
        var distance = [Int32](repeating: -1, count: dfa.count)
        var queue: [Int32] = []
        for s in 0..<dfa.count where dfa.accepting[s] {
            distance[s] = 0
            queue.append(Int32(s))
        }
        var q = 0
        while q < queue.count {
            let t = queue[q]
            for p in incoming[Int(t)] where distance[Int(p)] < 0 {
                distance[Int(p)] = distance[Int(t)] + 1
                queue.append(p)
            }
            q += 1
        }
        return distance
    }
}
