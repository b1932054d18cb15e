extension KeyedDiffer {
    /// The batch as RecyclerView-style operations, each index valid when it is applied:
    ///
    /// 1. removes, from the back: runs of consecutive deleted old indexes, highest run
    ///    first, so no removal shifts a later one. The list is then the survivors in old
    ///    order.
    /// 2. moves, by ascending new index of the moved row: each row goes directly after the
    ///    row that precedes it in the new list (or to the front). Rows that stay and rows
    ///    already moved are then in new order, so after the last move the list is the
    ///    survivors in new order. One operation per moved row: neither form has range moves.
    /// 3. inserts, ascending: runs of consecutive new indexes, each at its final index.
    /// 4. changes, ascending: runs of consecutive `updatedNewIndexes`, at final indexes.
    ///
    /// Derived from the batch alone, in O(n + m + moves · log n) with scratch reused across
    /// calls (a Fenwick tree over old rows translates move indexes).
    public func operations(for batch: DiffBatch) -> [DiffOperation] {
        var ops: [DiffOperation] = []
        ops.reserveCapacity(Self.runCount(batch.deletes) + batch.moves.count
            + Self.runCount(batch.inserts) + Self.runCount(batch.updatedNewIndexes))

        var end = batch.deletes.count
        while end > 0 {
            var start = end - 1
            while start > 0, batch.deletes[start - 1] == batch.deletes[start] - 1 { start -= 1 }
            ops.append(.remove(at: batch.deletes[start], count: end - start))
            end = start
        }
        if !batch.moves.isEmpty { appendMoves(batch, to: &ops) }
        Self.appendRuns(batch.inserts, to: &ops) { .insert(at: $0, count: $1) }
        Self.appendRuns(batch.updatedNewIndexes, to: &ops) { .change(at: $0, count: $1) }
        Self._checkOperations(ops, from: batch.oldCount, to: batch.newCount)
        return ops
    }

    /// Every index in range for the list as it is when the operation applies, and the
    /// final length right. Compiled in only with `TESSERA_INVARIANTS`.
    static func _checkOperations(_ ops: [DiffOperation], from oldCount: Int, to newCount: Int) {
        #if TESSERA_INVARIANTS
        var length = oldCount
        for op in ops {
            switch op {
            case .remove(let at, let count):
                precondition(count > 0 && at >= 0 && at + count <= length, "KeyedDiffer: \(op) on \(length) rows")
                length -= count
            case .insert(let at, let count):
                precondition(count > 0 && at >= 0 && at <= length, "KeyedDiffer: \(op) on \(length) rows")
                length += count
            case .move(let from, let to):
                precondition(from >= 0 && from < length && to >= 0 && to < length, "KeyedDiffer: \(op) on \(length) rows")
            case .change(let at, let count):
                precondition(count > 0 && at >= 0 && at + count <= length, "KeyedDiffer: \(op) on \(length) rows")
            }
        }
        precondition(length == newCount, "KeyedDiffer: operations end with \(length) rows, not \(newCount)")
        #endif
    }

    static func runCount(_ sorted: [Int]) -> Int {
        var runs = 0
        for k in sorted.indices where k == 0 || sorted[k - 1] != sorted[k] - 1 { runs += 1 }
        return runs
    }

    static func appendRuns(_ sorted: [Int], to ops: inout [DiffOperation], _ make: (Int, Int) -> DiffOperation) {
        var start = 0
        while start < sorted.count {
            var end = start + 1
            while end < sorted.count, sorted[end] == sorted[end - 1] + 1 { end += 1 }
            ops.append(make(sorted[start], end - start))
            start = end
        }
    }

    /// Step 2. Every survivor is counted in the Fenwick tree at its old index; a moved row
    /// leaves its own count and joins the count of its anchor, the staying row it follows
    /// in the new list (a row with no staying row before it joins `front`). Rows placed after
    /// one anchor sit right behind it in new order, so the running list is, in order: the
    /// front rows, then for each old index its own row if still there followed by the rows
    /// anchored to it. Prefix sums over old indexes are therefore positions.
    func appendMoves(_ batch: DiffBatch, to ops: inout [DiffOperation]) {
        let n = batch.oldCount, words = (n + 63) >> 6
        let moved = movedBits.reserve(words)
        moved.update(repeating: 0, count: words)
        for mv in batch.moves { moved[mv.from >> 6] |= 1 << UInt64(mv.from & 63) }
        @inline(__always) func isMoved(_ i: Int) -> Bool { moved[i >> 6] & (1 << UInt64(i & 63)) != 0 }

        // 1-based tree, built in linear time: each node adds itself into its parent.
        let tree = fenwick.reserve(n + 1)
        tree[0] = 0
        var d = 0
        for i in 0..<n {
            let deleted = d < batch.deletes.count && batch.deletes[d] == i
            if deleted { d += 1 }
            tree[i + 1] = deleted ? 0 : 1
        }
        if n > 0 {
            for k in 1...n {
                let parent = k + (k & -k)
                if parent <= n { tree[parent] &+= tree[k] }
            }
        }
        /// Sum over old indexes `0..<end`.
        @inline(__always) func prefix(_ end: Int) -> Int {
            var k = end, s = 0
            while k > 0 { s += Int(tree[k]); k &= k - 1 }
            return s
        }
        @inline(__always) func add(_ i: Int, _ delta: Int32) {
            var k = i + 1
            while k <= n { tree[k] &+= delta; k += k & -k }
        }

        var front = 0, anchor = -1
        // Staying rows appear in the same order on both sides: the next one in new order
        // is the next old index that is neither deleted nor moved.
        var nextStay = 0, deleteCursor = 0
        var insertCursor = 0, moveCursor = 0
        for j in 0..<batch.newCount {
            if insertCursor < batch.inserts.count, batch.inserts[insertCursor] == j {
                insertCursor += 1
                continue
            }
            if moveCursor < batch.moves.count, batch.moves[moveCursor].to == j {
                let x = batch.moves[moveCursor].from
                moveCursor += 1
                let from = front + prefix(x)
                add(x, -1)
                let to: Int
                if anchor < 0 {
                    to = front
                    front += 1
                } else {
                    to = front + prefix(anchor + 1)
                    add(anchor, 1)
                }
                if from != to { ops.append(.move(from: from, to: to)) }
                continue
            }
            while true {
                precondition(nextStay < n, "KeyedDiffer: batch has more staying rows on the new side")
                if deleteCursor < batch.deletes.count, batch.deletes[deleteCursor] == nextStay {
                    deleteCursor += 1
                } else if !isMoved(nextStay) {
                    break
                }
                nextStay += 1
            }
            anchor = nextStay
            nextStay += 1
        }
    }
}

extension DiffBatch {
    /// The sequential form (see `KeyedDiffer.operations(for:)`), with scratch of its own.
    public func operations() -> [DiffOperation] { KeyedDiffer().operations(for: self) }
}
