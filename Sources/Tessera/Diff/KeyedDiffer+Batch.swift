extension KeyedDiffer {
    /// Builds the batch from the maps `match` filled. Each list is counted first and
    /// written once into an array of exactly that size.
    func makeBatch(oldCount n: Int, newCount m: Int, survivors: Int) -> DiffBatch {
        let o2n = oldToNew.base!, n2o = newToOld.base!, changed = changedBits.base!
        let words = (n + 63) >> 6

        let deletes = Self.indexes(count: n - survivors, scanning: n) { o2n[$0] < 0 }
        let inserts = Self.indexes(count: m - survivors, scanning: m) { n2o[$0] < 0 }

        let kept = markLongestIncreasing(oldCount: n)
        let stay = predecessor.base!
        let moves = [DiffBatch.Move](unsafeUninitializedCapacity: survivors - kept) { buffer, written in
            var w = 0
            for j in 0..<m {
                let i = Int(n2o[j])
                if i >= 0, stay[i] != Self.stays {
                    buffer.initializeElement(at: w, to: DiffBatch.Move(from: i, to: j))
                    w += 1
                }
            }
            precondition(w == survivors - kept, "KeyedDiffer: move count")
            written = w
        }

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
        let updatedNewIndexes = updateCount == 0 ? [] : Self.indexes(count: updateCount, scanning: m) { j in
            let i = Int(n2o[j])
            return i >= 0 && changed[i >> 6] & (1 << UInt64(i & 63)) != 0
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
        for i in 0..<n {
            let v = o2n[i]
            if v < 0 { continue }
            var k = length
            if length > 0, tailValue[length - 1] > v {
                // First tail above v (new indexes are distinct, so none equals it).
                var lo = 0, hi = length - 1
                while lo < hi {
                    let mid = (lo + hi) >> 1
                    if tailValue[mid] < v { lo = mid + 1 } else { hi = mid }
                }
                k = lo
            } else {
                length += 1
            }
            pred[i] = k == 0 ? -1 : tailRow[k - 1]
            tailRow[k] = Int32(truncatingIfNeeded: i)
            tailValue[k] = v
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
