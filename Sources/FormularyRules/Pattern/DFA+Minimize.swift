/// Minimization (Hopcroft's partition refinement) and a canonical numbering of states.
extension DFA {
    /// The most cells (states × symbol classes) the dense table of `minimize()` may have. The
    /// subset construction's cap keeps real patterns far below; a DFA above is kept as built
    /// (correct and trimmed, only not minimal).
    static let minimizationCellLimit = 4_000_000

    /// Merges equivalent states: two states are equivalent when both accept or neither does
    /// and every scalar takes them to equivalent states (the dead state included).
    ///
    /// Hopcroft's algorithm over *symbols*: the scalar ranges between the edges' boundaries,
    /// within which every state behaves alike, those that take every state to the same place
    /// merged into one. Starting from accepting and non-accepting states, a block is split by
    /// the states that some symbol takes into a splitter block; the smaller half of each split
    /// becomes a splitter in turn, which makes it O(k·n·log n) for n states and k symbols.
    mutating func minimize() {
        guard let start, count > 1 else { return }
        var points: [UInt32] = []
        for list in edges { for edge in list { points.append(edge.lo); points.append(edge.hi &+ 1) } }
        points.sort()
        points = points.reduce(into: []) { if $0.last != $1 { $0.append($1) } }
        let classes = points.count - 1, n = count, dead = Int32(n)
        guard classes > 0, (n + 1) * classes <= Self.minimizationCellLimit else { return }

        // Each class's column: where it takes every state (`dead` when it has no edge).
        var columns = [Int32](repeating: dead, count: classes * (n + 1))
        for (state, list) in edges.enumerated() {
            for edge in list {
                var c = Self.classIndex(of: edge.lo, in: points)
                while c < classes && points[c] <= edge.hi {
                    columns[c * (n + 1) + state] = edge.target
                    c += 1
                }
            }
        }
        // Classes with the same column are one symbol for the partition: `\p{L}` cuts the
        // scalars into some 1,400 classes that a pattern such as `\p{L}.*` takes alike, and
        // each symbol fewer saves the partition a pass.
        var symbolOf = [Int](repeating: 0, count: classes)
        var byColumn: [HashedList<ArraySlice<Int32>>: Int] = [:]
        var k = 0
        for c in 0..<classes {
            let column = HashedList(columns[c * (n + 1)..<(c + 1) * (n + 1)])
            if let known = byColumn[column] {
                symbolOf[c] = known
            } else {
                byColumn[column] = k
                symbolOf[c] = k
                k += 1
            }
        }
        // δ[s·k + a]: the successor of s on symbol a.
        var delta = [Int32](repeating: dead, count: (n + 1) * k)
        for c in 0..<classes {
            let a = symbolOf[c]
            for s in 0...n { delta[s * k + a] = columns[c * (n + 1) + s] }
        }
        // The predecessors of t on class c: sources[offsets[c·(n+1) + t] ..< offsets[… + 1]].
        var offsets = [Int32](repeating: 0, count: k * (n + 1) + 1)
        for s in 0...n { for c in 0..<k { offsets[c * (n + 1) + Int(delta[s * k + c]) + 1] += 1 } }
        for x in 0..<k * (n + 1) { offsets[x + 1] += offsets[x] }
        var fill = offsets
        var sources = [Int32](repeating: 0, count: k * (n + 1))
        for s in 0...n {
            for c in 0..<k {
                let slot = c * (n + 1) + Int(delta[s * k + c])
                sources[Int(fill[slot])] = Int32(s)
                fill[slot] += 1
            }
        }

        var partition = Partition(count: n + 1) { $0 < n && accepting[$0] }
        guard partition.blockCount == 2 else { return }   // all alike: nothing to merge
        var pending = [Bool](repeating: false, count: (n + 1) * k)
        var work: [(block: Int32, symbol: Int32)] = []
        let smaller: Int32 = partition.size(0) <= partition.size(1) ? 0 : 1
        for c in 0..<k {
            work.append((smaller, Int32(c)))
            pending[Int(smaller) * k + c] = true
        }
        var splitter: [Int32] = []
        var splits: [(old: Int32, new: Int32)] = []
        while let (block, symbol) = work.popLast() {
            pending[Int(block) * k + Int(symbol)] = false
            // Marking reorders the blocks' members, the splitter's too: copy it first.
            splitter.removeAll(keepingCapacity: true)
            partition.appendMembers(of: block, to: &splitter)
            for target in splitter {
                let slot = Int(symbol) * (n + 1) + Int(target)
                for x in Int(offsets[slot])..<Int(offsets[slot + 1]) { partition.mark(sources[x]) }
            }
            partition.splitMarked(into: &splits)
            for (old, new) in splits {
                for c in 0..<k {
                    let half = pending[Int(old) * k + c] || partition.size(new) <= partition.size(old) ? new : old
                    if !pending[Int(half) * k + c] {
                        pending[Int(half) * k + c] = true
                        work.append((half, Int32(c)))
                    }
                }
            }
        }

        let blockOfDead = partition.block(of: dead)
        var newEdges: [[Edge]] = []
        var newAccepting: [Bool] = []
        var order: [Int32: Int32] = [:]   // block → new state
        var queue: [Int32] = [partition.block(of: start)]
        order[queue[0]] = 0
        var q = 0
        while q < queue.count {
            let block = queue[q]
            let representative = Int(partition.members(of: block).first!)
            var list: [Edge] = []
            for edge in edges[representative] {
                let targetBlock = partition.block(of: edge.target)
                precondition(targetBlock != blockOfDead, "a trimmed state is never equivalent to the dead state")
                let target: Int32
                if let known = order[targetBlock] {
                    target = known
                } else {
                    target = Int32(queue.count)
                    order[targetBlock] = target
                    queue.append(targetBlock)
                }
                if let last = list.last, last.target == target, last.hi &+ 1 == edge.lo {
                    list[list.count - 1].hi = edge.hi
                } else {
                    list.append(Edge(lo: edge.lo, hi: edge.hi, target: target))
                }
            }
            newEdges.append(list)
            newAccepting.append(accepting[representative])
            q += 1
        }
        self = DFA(edges: newEdges, accepting: newAccepting, start: 0)
    }

    /// The index of the class that starts at or before `scalar`.
    private static func classIndex(of scalar: UInt32, in points: [UInt32]) -> Int {
        var low = 0, high = points.count
        while low < high {
            let middle = (low + high) / 2
            if points[middle] <= scalar { low = middle + 1 } else { high = middle }
        }
        return low - 1
    }

    /// Numbers the states breadth-first from the start, following each state's edges in
    /// order: the same language always gets the same numbers (minimization already does this).
    mutating func renumberBreadthFirst() {
        guard let start else { return }
        var order = [Int32](repeating: -1, count: count)
        var queue: [Int32] = [start]
        order[Int(start)] = 0
        var q = 0
        while q < queue.count {
            for edge in edges[Int(queue[q])] where order[Int(edge.target)] < 0 {
                order[Int(edge.target)] = Int32(queue.count)
                queue.append(edge.target)
            }
            q += 1
        }
        let newEdges = queue.map { state in
            edges[Int(state)].map { Edge(lo: $0.lo, hi: $0.hi, target: order[Int($0.target)]) }
        }
        self = DFA(edges: newEdges, accepting: queue.map { accepting[Int($0)] }, start: 0)
    }
}

/// The blocks of a partition of the states 0..<count, each a contiguous slice of `elements`
/// whose first `marked` members are marked.
private struct Partition {
    private var elements: [Int32]
    private var location: [Int32]
    private var blockOf: [Int32]
    private var first: [Int32] = []
    private var end: [Int32] = []
    private var marked: [Int32] = []
    private var touched: [Int32] = []

    /// Two blocks, the states where `inFirst` holds and the others (one when either is empty).
    init(count: Int, inFirst: (Int) -> Bool) {
        let firstBlock = (0..<count).filter(inFirst).map(Int32.init)
        let rest = (0..<count).filter { !inFirst($0) }.map(Int32.init)
        elements = firstBlock + rest
        location = [Int32](repeating: 0, count: count)
        blockOf = [Int32](repeating: 0, count: count)
        for (i, state) in elements.enumerated() { location[Int(state)] = Int32(i) }
        for part in [firstBlock.count, rest.count] where part > 0 {
            let lower = end.last ?? 0
            for i in Int(lower)..<Int(lower) + part { blockOf[Int(elements[i])] = Int32(first.count) }
            first.append(lower)
            end.append(lower + Int32(part))
            marked.append(0)
        }
    }

    var blockCount: Int { first.count }
    func size(_ block: Int32) -> Int { Int(end[Int(block)] - first[Int(block)]) }
    func block(of state: Int32) -> Int32 { blockOf[Int(state)] }
    func members(of block: Int32) -> ArraySlice<Int32> { elements[Int(first[Int(block)])..<Int(end[Int(block)])] }

    func appendMembers(of block: Int32, to list: inout [Int32]) {
        for i in Int(first[Int(block)])..<Int(end[Int(block)]) { list.append(elements[i]) }
    }

    /// Moves `state` into the marked front of its block.
    mutating func mark(_ state: Int32) {
        let block = Int(blockOf[Int(state)])
        let position = Int(location[Int(state)])
        let boundary = Int(first[block] + marked[block])
        guard position >= boundary else { return }   // already marked
        let other = elements[boundary]
        elements[boundary] = state
        elements[position] = other
        location[Int(state)] = Int32(boundary)
        location[Int(other)] = Int32(position)
        if marked[block] == 0 { touched.append(Int32(block)) }
        marked[block] += 1
    }

    /// Splits every block with some but not all members marked: the marked ones become a new
    /// block. Puts each split in `splits` as (the old block, the new one), and clears the marks.
    mutating func splitMarked(into splits: inout [(old: Int32, new: Int32)]) {
        splits.removeAll(keepingCapacity: true)
        for block in touched {
            let b = Int(block)
            let count = marked[b]
            marked[b] = 0
            guard count < end[b] - first[b] else { continue }
            let new = Int32(first.count)
            first.append(first[b])
            end.append(first[b] + count)
            marked.append(0)
            first[b] += count
            for i in Int(first[Int(new)])..<Int(end[Int(new)]) { blockOf[Int(elements[i])] = new }
            splits.append((block, new))
        }
        touched.removeAll(keepingCapacity: true)
    }
}
