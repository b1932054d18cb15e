import CJemalloc

extension KeyedDiffer {
    /// Builds the batch from the maps `match` filled. Each list is counted first and
    /// written once into an array of exactly that size.
    func makeBatch(oldCount n: Int, newCount m: Int, survivors: Int) -> DiffBatch {
        let changed = changedBits.base!
        let words = (n + 63) >> 6

        // The subsequence's pass over the old rows also lists the deleted ones.
        var kept = 0
        let deletes = [Int](unsafeUninitializedCapacity: n - survivors) { buffer, written in
            kept = markLongestIncreasing(oldCount: n, deletes: buffer.baseAddress, count: n - survivors)
            written = n - survivors
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
        // Inserts, moves and updated new indexes in one pass over the new rows; or, when
        // they are few, the inserts from their marks and the others from the old side.
        let dense = (m - survivors) + (survivors - kept) + updateCount > m >> 4
        let inserts: [Int], moves: [DiffBatch.Move], updatedNewIndexes: [Int]
        if dense {
            (inserts, moves, updatedNewIndexes) = visitNewRows(newCount: m, inserts: m - survivors, moves: survivors - kept, updates: updateCount)
        } else {
            let marks = newMarks.base!
            inserts = [Int](unsafeUninitializedCapacity: m - survivors) { buffer, written in
                var a = 0
                for w in 0..<(m + 63) >> 6 {
                    var bits = marks[w]
                    while bits != 0 {
                        buffer.initializeElement(at: a, to: w << 6 | bits.trailingZeroBitCount)
                        a += 1
                        bits &= bits &- 1
                    }
                }
                precondition(a == m - survivors, "KeyedDiffer: insert count")
                written = a
            }
            (moves, updatedNewIndexes) = gatherMovesAndUpdates(oldCount: n, newCount: m, moves: survivors - kept, updates: updateCount)
        }
        return DiffBatch(
            oldCount: n, newCount: m, deletes: deletes, inserts: inserts, moves: moves,
            updates: updates, updatedNewIndexes: updatedNewIndexes)
    }

    /// Inserts, moves and updated new indexes in one pass over every new row, through
    /// `newToOld`.
    func visitNewRows(newCount m: Int, inserts: Int, moves: Int, updates: Int) -> ([Int], [DiffBatch.Move], [Int]) {
        let n2o = newToOld.base!, stay = stayBits.base!, changed = changedBits.base!
        var moveList: [DiffBatch.Move] = [], updateList: [Int] = []
        let insertList = [Int](unsafeUninitializedCapacity: inserts) { insertBuffer, insertsWritten in
            moveList = [DiffBatch.Move](unsafeUninitializedCapacity: moves) { moveBuffer, movesWritten in
                updateList = [Int](unsafeUninitializedCapacity: updates) { updateBuffer, updatesWritten in
                    var a = 0, b = 0, c = 0
                    for j in 0..<m {
                        let i = Int(n2o[j])
                        if i < 0 {
                            insertBuffer.initializeElement(at: a, to: j)
                            a += 1
                            continue
                        }
                        if stay[i >> 6] & (1 << UInt64(i & 63)) == 0 {
                            moveBuffer.initializeElement(at: b, to: DiffBatch.Move(from: i, to: j))
                            b += 1
                        }
                        if updates > 0, changed[i >> 6] & (1 << UInt64(i & 63)) != 0 {
                            updateBuffer.initializeElement(at: c, to: j)
                            c += 1
                        }
                    }
                    precondition(a == inserts && b == moves && c == updates, "KeyedDiffer: batch counts")
                    insertsWritten = a
                    movesWritten = b
                    updatesWritten = c
                }
            }
        }
        return (insertList, moveList, updateList)
    }

    /// Moves and updated new indexes when they are few: the old rows outside the kept
    /// subsequence (moved or deleted) or changed, ascending, each with its new index, loaded
    /// a few rows ahead (they lie far apart); then each list ordered by new index with a
    /// radix sort. No pass over every new row and no read of `newToOld`.
    func gatherMovesAndUpdates(oldCount n: Int, newCount m: Int, moves: Int, updates: Int) -> ([DiffBatch.Move], [Int]) {
        let o2n = oldToNew.base!, stay = stayBits.base!, changed = changedBits.base!
        let words = (n + 63) >> 6
        // The rows, then their keys `new << 32 | old`: moves first, updates after them.
        /// Word `w`'s rows outside the subsequence (bits past the last row cleared) or changed.
        @inline(__always) func looked(_ w: Int) -> UInt64 {
            let live = w == words - 1 && n & 63 != 0 ? (1 << UInt64(n & 63)) - 1 : ~0 as UInt64
            return (~stay[w] & live) | changed[w]
        }
        var rowCount = 0
        for w in 0..<words { rowCount += looked(w).nonzeroBitCount }
        let rows = oldLeftovers.reserve(rowCount)
        var r = 0
        for w in 0..<words {
            var bits = looked(w)
            while bits != 0 {
                rows[r] = Int32(truncatingIfNeeded: w << 6 | bits.trailingZeroBitCount)
                r += 1
                bits &= bits &- 1
            }
        }
        let keys = spareTable.reserve(2 * (moves + updates))
        var a = 0, b = moves
        let lookahead = 16
        for k in 0..<rowCount {
            if k + lookahead < rowCount { tess_prefetch(o2n + Int(rows[k + lookahead])) }
            let i = Int(rows[k]), j = o2n[i]
            // A deleted row is outside the subsequence too.
            guard j >= 0 else { continue }
            let key = UInt64(UInt32(truncatingIfNeeded: j)) << 32 | UInt64(i)
            if stay[i >> 6] & (1 << UInt64(i & 63)) == 0 {
                keys[a] = key
                a += 1
            }
            if changed[i >> 6] & (1 << UInt64(i & 63)) != 0 {
                keys[b] = key
                b += 1
            }
        }
        precondition(a == moves && b == moves + updates, "KeyedDiffer: batch counts")
        let spare = keys + moves + updates
        radixSortByHighHalf(keys, count: moves, below: m, spare: spare, counts: tailSamples.reserve(radixSortBuckets))
        radixSortByHighHalf(keys + moves, count: updates, below: m, spare: spare, counts: tailSamples.base!)
        let moveList = [DiffBatch.Move](unsafeUninitializedCapacity: moves) { buffer, written in
            for k in 0..<moves {
                buffer.initializeElement(at: k, to: DiffBatch.Move(from: Int(keys[k] & 0xFFFF_FFFF), to: Int(keys[k] >> 32)))
            }
            written = moves
        }
        let updateList = [Int](unsafeUninitializedCapacity: updates) { buffer, written in
            for k in 0..<updates { buffer.initializeElement(at: k, to: Int(keys[moves + k] >> 32)) }
            written = updates
        }
        return (moveList, updateList)
    }

    /// Patience sorting over the new indexes of surviving old rows, in old order, with
    /// predecessor links; then marks the rows of one longest increasing subsequence in
    /// `stayBits`. Returns its length. Writes the `count` deleted old rows, ascending, to
    /// `deletes` on the way. O(s log s), and linear when most rows keep their order (a row
    /// past the longest tail appends without a search).
    ///
    /// Most rows extend the longest subsequence, and the predecessor of such a row is the
    /// last row before it that became the last tail; so those rows store two bits
    /// (`extendsBits`, `lastBits`) instead of a predecessor, and only rows that replace a
    /// tail write `predecessor` (its old index, looked up from the tail's value when the row
    /// replaces it: those lookups are independent and overlap, where the way back, one
    /// lookup after another, waited on each). A tail's row is `newToOld` of its value, so
    /// only values are kept. That is two streams (the map read, the values written) instead
    /// of five. A search for a row that moved back starts in `tailSamples`, every
    /// `tailBlock`th tail value, which stays in the cache, so it misses it on a block of
    /// tails, not on each step.
    func markLongestIncreasing(oldCount n: Int, deletes: UnsafeMutablePointer<Int>?, count: Int) -> Int {
        let o2n = oldToNew.base!, n2o = newToOld.base!
        let words = (n + 63) >> 6
        let extends = extendsBits.reserve(words), last = lastBits.reserve(words), stay = stayBits.reserve(words)
        let pred = predecessor.reserve(n), tailValue = tailValues.reserve(n)
        let tailSample = tailSamples.reserve(n / Self.tailBlock + 1)
        var length = 0, deleted = 0
        // The last tail's value, kept in a register: most rows extend the subsequence.
        var lastValue: Int32 = -1
        // Rows below this one are taken one at a time: their block of eight failed the check.
        var singlyBelow = 0
        // Lane 7's successor is outside the block: its comparison always passes.
        let lastLane: SIMDMask<SIMD8<Int32>> = [false, false, false, false, false, false, false, true]
        // A word of each bit set at a time, built in registers.
        for w in 0..<words {
            var extendsWord: UInt64 = 0, lastWord: UInt64 = 0
            var i = w << 6
            let end = min(n, i + 64)
            while i < end {
                // Eight rows at once that extend the subsequence with increasing new indexes
                // (most rows of a list that changed a little, rows inserted between them
                // or not): two compares, one store.
                if i >= singlyBelow, i + 8 < n, i + 8 <= end {
                    let run = UnsafeRawPointer(o2n + i).loadUnaligned(as: SIMD8<Int32>.self), v = run[0]
                    let next = UnsafeRawPointer(o2n + i + 1).loadUnaligned(as: SIMD8<Int32>.self)
                    if v > lastValue, all((run .< next) .| lastLane) {
                        let bits: UInt64 = 0xFF << UInt64(i & 63)
                        extendsWord |= bits
                        lastWord |= bits
                        UnsafeMutableRawPointer(tailValue + length).storeBytes(of: run, as: SIMD8<Int32>.self)
                        let sampled = (length + Self.tailBlock - 1) & -Self.tailBlock
                        if sampled < length + 8 { tailSample[sampled / Self.tailBlock] = tailValue[sampled] }
                        length += 8
                        lastValue = run[7]
                        i += 8
                        continue
                    }
                    singlyBelow = i + 8
                }
                let v = o2n[i]
                if v < 0 {
                    deletes![deleted] = i
                    deleted += 1
                    i += 1
                    continue
                }
                let bit: UInt64 = 1 << UInt64(i & 63)
                if v > lastValue {
                    extendsWord |= bit
                    lastWord |= bit
                    if length & (Self.tailBlock - 1) == 0 { tailSample[length / Self.tailBlock] = v }
                    tailValue[length] = v
                    length += 1
                    lastValue = v
                    i += 1
                    continue
                }
                // First tail above v (new indexes are distinct, so none equals it); the last
                // tail is above it, and after one row moved forward, v usually replaces it.
                var lo = 0, hi = length - 1
                if hi > 0, tailValue[hi - 1] < v {
                    lo = hi
                } else if hi > Self.tailBlock {
                    // The block from the samples (they fit the cache), then within it.
                    var a = 0, b = (length - 1) / Self.tailBlock
                    while a < b {
                        let mid = (a + b + 1) >> 1
                        if tailSample[mid] < v { a = mid } else { b = mid - 1 }
                    }
                    if tailSample[a] < v {
                        lo = a * Self.tailBlock + 1
                        hi = min(hi, lo - 1 + Self.tailBlock)
                    } else {
                        hi = 0
                    }
                }
                while lo < hi {
                    let mid = (lo + hi) >> 1
                    if tailValue[mid] < v { lo = mid + 1 } else { hi = mid }
                }
                pred[i] = lo == 0 ? -1 : n2o[Int(tailValue[lo - 1])]
                tailValue[lo] = v
                if lo & (Self.tailBlock - 1) == 0 { tailSample[lo / Self.tailBlock] = v }
                if lo == length - 1 {
                    lastWord |= bit
                    lastValue = v
                }
                i += 1
            }
            extends[w] = extendsWord
            last[w] = lastWord
        }
        precondition(deleted == count, "KeyedDiffer: expected \(count) deleted rows, found \(deleted)")
        // Back from the last tail. The predecessor of a row that extended the subsequence is
        // the nearest row below it in `last`, so the chain takes every row in `last` below
        // such a row down to the first that did not extend (which has a stored
        // predecessor): a word of them at a time.
        stay.update(repeating: 0, count: words)
        var x = length > 0 ? Int(n2o[Int(tailValue[length - 1])]) : -1
        while x >= 0 {
            var w = x >> 6
            let bit: UInt64 = 1 << UInt64(x & 63)
            if extends[w] & bit == 0 {
                stay[w] |= bit
                x = Int(pred[x])
                continue
            }
            // Rows of `last` up to x, then the highest that did not extend, if any.
            var chain = last[w] & (bit | (bit &- 1))
            while true {
                let stored = chain & ~extends[w]
                if stored != 0 {
                    let top = 63 - stored.leadingZeroBitCount
                    stay[w] |= chain & ~((1 << UInt64(top)) &- 1)
                    x = Int(pred[w << 6 | top])
                    break
                }
                stay[w] |= chain
                if w == 0 {
                    x = -1
                    break
                }
                w -= 1
                chain = last[w]
            }
        }
        return length
    }

    /// Tails per entry of `tailSamples`: 64 values, four cache lines.
    static let tailBlock = 64
}
