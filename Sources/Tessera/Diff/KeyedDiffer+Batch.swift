extension KeyedDiffer {
    /// Builds the batch from the maps `match` filled. Each list is counted first and
    /// written once into an array of exactly that size.
    func makeBatch(oldCount n: Int, newCount m: Int, survivors: Int) -> DiffBatch {
        let o2n = oldToNew.base!, n2o = newToOld.base!, changed = changedBits.base!
        let words = (n + 63) >> 6

        let deletes = Self.indexes(count: n - survivors, scanning: n) { o2n[$0] < 0 }
        let kept = markLongestIncreasing(oldCount: n)
        let stay = predecessor.base!

        var updateCount = 0
        for w in 0..<words { updateCount += changed[w].nonzeroBitCount }
        let updates = [Int](unsafeUninitializedCapacity: updateCount) { buffer, written in
            var w = 0
            for word in 0..<words {
                var bits = changed[word]
                while bits != 0 {
                    buffer.initializeElement(at: w, to: word << 6 | bits.trailingZeroBitCount)
                    w += 1
                    bits &= bits &- 1
                }
            }
            written = w
        }
        // Inserts, moves and updated new indexes in one pass over the new rows.
        var moves: [DiffBatch.Move] = [], updatedNewIndexes: [Int] = []
        let inserts = [Int](unsafeUninitializedCapacity: m - survivors) { insertBuffer, insertsWritten in
            moves = [DiffBatch.Move](unsafeUninitializedCapacity: survivors - kept) { moveBuffer, movesWritten in
                updatedNewIndexes = [Int](unsafeUninitializedCapacity: updateCount) { updateBuffer, updatesWritten in
                    var a = 0, b = 0, c = 0
                    for j in 0..<m {
                        let i = Int(n2o[j])
                        if i < 0 {
                            insertBuffer.initializeElement(at: a, to: j)
                            a += 1
                            continue
                        }
                        if stay[i] != Self.stays {
                            moveBuffer.initializeElement(at: b, to: DiffBatch.Move(from: i, to: j))
                            b += 1
                        }
                        if updateCount > 0, changed[i >> 6] & (1 << UInt64(i & 63)) != 0 {
                            updateBuffer.initializeElement(at: c, to: j)
                            c += 1
                        }
                    }
                    precondition(a == m - survivors && b == survivors - kept && c == updateCount, "KeyedDiffer: batch counts")
                    insertsWritten = a
                    movesWritten = b
                    updatesWritten = c
                }
            }
        }
        return DiffBatch(
            oldCount: n, newCount: m, deletes: deletes, inserts: inserts, moves: moves,
            updates: updates, updatedNewIndexes: updatedNewIndexes)
    }

    /// The `count` indexes in `0..<limit` that satisfy `test`, ascending.
    @inline(__always)
    static func indexes(count: Int, scanning limit: Int, where test: (Int) -> Bool) -> [Int] {
        guard count > 0 else { return [] }
        return [Int](unsafeUninitializedCapacity: count) { buffer, written in
            var w = 0
            for k in 0..<limit where test(k) {
                buffer.initializeElement(at: w, to: k)
                w += 1
            }
            precondition(w == count, "KeyedDiffer: expected \(count) indexes, found \(w)")
            written = w
        }
    }

    /// Patience sorting over the new indexes of surviving old rows, in old order, with
    /// predecessor links; then marks the rows of one longest increasing subsequence by
    /// setting their `predecessor` entry to `stays`. Returns its length. O(s log s), and
    /// linear when most rows keep their order (a row past the longest tail appends without
    /// a search).
    func markLongestIncreasing(oldCount n: Int) -> Int {
        let o2n = oldToNew.base!
        let pred = predecessor.reserve(n)
        let tailRow = tailRows.reserve(n), tailValue = tailValues.reserve(n)
        var length = 0
        // The last tail, kept in registers: most rows extend the longest subsequence.
        var lastRow: Int32 = -1, lastValue: Int32 = -1
        for i in 0..<n {
            let v = o2n[i]
            if v < 0 { continue }
            let row = Int32(truncatingIfNeeded: i)
            if v > lastValue {
                pred[i] = lastRow
                tailRow[length] = row
                tailValue[length] = v
                length += 1
                lastRow = row
                lastValue = v
                continue
            }
            // First tail above v (new indexes are distinct, so none equals it); the last
            // tail is above it, and after one row moved forward, v usually replaces it.
            var lo = 0, hi = length - 1
            if hi > 0, tailValue[hi - 1] < v { lo = hi }
            while lo < hi {
                let mid = (lo + hi) >> 1
                if tailValue[mid] < v { lo = mid + 1 } else { hi = mid }
            }
            pred[i] = lo == 0 ? -1 : tailRow[lo - 1]
            tailRow[lo] = row
            tailValue[lo] = v
            if lo == length - 1 {
                lastRow = row
                lastValue = v
            }
        }
        var x = length > 0 ? Int(tailRow[length - 1]) : -1
        while x >= 0 {
            let p = Int(pred[x])
            pred[x] = Self.stays
            x = p
        }
        return length
    }
}
