import CJemalloc

/// The change from an old list of rows to a new one, in the form UIKit's
/// `performBatchUpdates` expects: every old index refers to the list before the batch,
/// every new index to the list after it.
///
/// - `deletes`: old indexes of rows whose id is gone, ascending.
/// - `inserts`: new indexes of rows whose id is new, ascending.
/// - `moves`: surviving rows that change place relative to their neighbours, as
///   (old index, new index), ascending by new index. Only rows outside one longest
///   increasing subsequence are reported (see `KeyedDiffer`), so an insertion at the top
///   moves nothing, and a block of k rows (say a group: header, rows, footer) moved past j
///   other rows costs min(k, j) moves. Neither UIKit nor RecyclerView has a range move, so
///   that is as small as either form allows.
/// - `updates`: old indexes of surviving rows whose version changed, ascending. A row that
///   moved and changed is in both `moves` and `updates`; UIKit rejects a reload of a moved
///   row inside the batch, so hosts reconfigure by `updatedNewIndexes` after it.
/// - `updatedNewIndexes`: the same rows as `updates` at their new indexes, ascending (so
///   not paired element by element with `updates` when moves cross).
public struct DiffBatch: Sendable, Equatable {
    /// A surviving row that changes place: old index `from`, new index `to`.
    public struct Move: Sendable, Equatable, Hashable {
        public var from: Int
        public var to: Int

        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    public internal(set) var oldCount: Int
    public internal(set) var newCount: Int
    public internal(set) var deletes: [Int]
    public internal(set) var inserts: [Int]
    public internal(set) var moves: [Move]
    public internal(set) var updates: [Int]
    public internal(set) var updatedNewIndexes: [Int]

    /// True when old and new hold the same rows in the same order at the same versions.
    public var isEmpty: Bool { deletes.isEmpty && inserts.isEmpty && moves.isEmpty && updates.isEmpty }

    /// Checks sortedness, index ranges and counts (linear in the batch, not in the rows).
    /// Compiled in only with `TESSERA_INVARIANTS`.
    public func _checkInvariants() {
        #if TESSERA_INVARIANTS
        func ascending(_ a: [Int], below limit: Int, _ name: String) {
            var previous = -1
            for x in a {
                precondition(x > previous && x < limit, "DiffBatch: \(name) not ascending in 0..<\(limit) at \(x)")
                previous = x
            }
        }
        ascending(deletes, below: oldCount, "deletes")
        ascending(inserts, below: newCount, "inserts")
        ascending(updates, below: oldCount, "updates")
        ascending(updatedNewIndexes, below: newCount, "updatedNewIndexes")
        ascending(moves.map(\.to), below: newCount, "move targets")
        for m in moves { precondition(m.from >= 0 && m.from < oldCount, "DiffBatch: move source \(m.from) out of range") }
        precondition(oldCount - deletes.count == newCount - inserts.count, "DiffBatch: survivor counts differ")
        precondition(moves.count <= oldCount - deletes.count, "DiffBatch: more moves than survivors")
        precondition(updates.count == updatedNewIndexes.count, "DiffBatch: update index lists differ in length")
        #endif
    }
}

/// One step of the change in the form RecyclerView's `notifyItemRange…` calls expect:
/// applied one after another, each index refers to the list as it is at that moment.
public enum DiffOperation: Sendable, Equatable, Hashable {
    /// `notifyItemRangeRemoved(at, count)`.
    case remove(at: Int, count: Int)
    /// `notifyItemRangeInserted(at, count)`: the new rows at `at..<at + count`.
    case insert(at: Int, count: Int)
    /// `notifyItemMoved(from, to)`: remove the row at `from`, then insert it at `to` in
    /// the shortened list, so `to` is its index once the move is done.
    case move(from: Int, to: Int)
    /// `notifyItemRangeChanged(at, count)`.
    case change(at: Int, count: Int)
}

/// Keyed diff of two row lists, each given as parallel columns of ids and versions. Rows
/// are matched by id (Heckel's idea, as IGListKit and DifferenceKit use it) through one
/// flat open-addressing table, so a diff is linear in expected time; surviving rows keep
/// their place when they belong to one longest increasing subsequence of new positions
/// (taken in old order), and only the others are reported as moves.
///
/// Tie rule: of several longest subsequences the kept one is chosen from the back: its last
/// row has the smallest new index any longest subsequence can end with, the row before it
/// the smallest new index that can precede that one, and so on (patience sorting with
/// predecessor links). For two swapped rows, the one that ends up first stays.
///
/// The differ owns its scratch (the table, the old↔new maps, the subsequence buffers) and
/// reuses it, so a diff allocates only its result; scratch grows amortised and is kept
/// until `releaseScratch()`. Not thread-safe: one differ per thread.
public final class KeyedDiffer {
    /// Rows per side; indexes and table tags are 32-bit.
    public static let maximumRows = 1 << 30

    /// Entries `fingerprint << 32 | tag`, 0 empty. The tag is `old + 1` for an old row and
    /// `newOnlyBit | new` for a new row with no old match (kept to find its duplicates).
    var table = DiffScratch<UInt64>()
    /// Also holds the keys `allOldUnique` checks exactly.
    var spareTable = DiffScratch<UInt64>()
    /// `matchRuns`: the rows it skipped on each side, and the bit filter of old ids.
    var oldLeftovers = DiffScratch<Int32>()
    var newLeftovers = DiffScratch<Int32>()
    /// `matchRuns`: the leftovers' ids and versions, taken while the walk has them in the cache.
    var leftoverStash = DiffScratch<UInt64>()
    var filterWords = DiffScratch<UInt64>()
    /// New index of each old row, -1 if deleted.
    var oldToNew = DiffScratch<Int32>()
    /// Old index of each new row, -1 if inserted.
    var newToOld = DiffScratch<Int32>()
    /// One bit per old row: survives with a different version.
    var changedBits = DiffScratch<UInt64>()
    /// One bit per inserted new row (`match` leaves exactly those set), so that `makeBatch`
    /// lists them without reading `newToOld` when they are few.
    var newMarks = DiffScratch<UInt64>()
    /// `markLongestIncreasing`: the old index of the predecessor of a row that replaced a
    /// tail, the tails' values and every 64th of them, and a bit per old row for: extends
    /// the subsequence, became its last tail, stays (in the subsequence kept).
    var predecessor = DiffScratch<Int32>()
    var tailValues = DiffScratch<Int32>()
    var tailSamples = DiffScratch<Int32>()
    var extendsBits = DiffScratch<UInt64>()
    var lastBits = DiffScratch<UInt64>()
    var stayBits = DiffScratch<UInt64>()
    /// Sequential form: a Fenwick tree over old rows and a bit per moved old row.
    var fenwick = DiffScratch<Int32>()
    var movedBits = DiffScratch<UInt64>()

    /// Keyed per differ so crafted ids cannot force long probe runs; results do not
    /// depend on it.
    let seed: UInt64

    static let newOnlyBit: UInt64 = 0x8000_0000
    /// `matchRuns`' tag of an old leftover already paired.
    static let pairedBit: UInt64 = 0x4000_0000

    public init() {
        var g = SystemRandomNumberGenerator()
        seed = g.next()
    }

    /// Bytes of scratch the differ holds between calls.
    public var allocatedBytes: Int {
        table.allocatedBytes + spareTable.allocatedBytes + oldLeftovers.allocatedBytes
            + newLeftovers.allocatedBytes + leftoverStash.allocatedBytes + filterWords.allocatedBytes + oldToNew.allocatedBytes + newToOld.allocatedBytes
            + changedBits.allocatedBytes + newMarks.allocatedBytes + predecessor.allocatedBytes + tailValues.allocatedBytes + tailSamples.allocatedBytes
            + extendsBits.allocatedBytes + lastBits.allocatedBytes + stayBits.allocatedBytes + fenwick.allocatedBytes + movedBits.allocatedBytes
    }

    /// Frees all scratch, for example after a one-off diff of a huge list.
    public func releaseScratch() {
        table.release(); spareTable.release(); oldLeftovers.release(); newLeftovers.release(); leftoverStash.release(); filterWords.release()
        oldToNew.release(); newToOld.release()
        changedBits.release(); newMarks.release(); predecessor.release(); tailValues.release(); tailSamples.release()
        extendsBits.release(); lastBits.release(); stayBits.release()
        fenwick.release(); movedBits.release()
    }

    /// The batch that turns the old rows into the new ones. All or nothing: it throws,
    /// before producing anything, `columnLengthMismatch` when ids and versions differ in
    /// length, `capacityExceeded` over `maximumRows` a side, and `duplicateIDInDiff` naming a
    /// repeated id and both its indexes (the old side is checked first); the differ stays usable either way.
    /// The buffers are only read during the call.
    public func diff(
        oldIDs: UnsafeBufferPointer<UInt64>, oldVersions: UnsafeBufferPointer<UInt64>,
        newIDs: UnsafeBufferPointer<UInt64>, newVersions: UnsafeBufferPointer<UInt64>
    ) throws(TesseraError) -> DiffBatch {
        let n = oldIDs.count, m = newIDs.count
        guard oldVersions.count == n else {
            throw .columnLengthMismatch(column: "old versions", expected: n, actual: oldVersions.count)
        }
        guard newVersions.count == m else {
            throw .columnLengthMismatch(column: "new versions", expected: m, actual: newVersions.count)
        }
        guard n <= Self.maximumRows, m <= Self.maximumRows else {
            throw .capacityExceeded("diff of \(n) old and \(m) new rows (at most \(Self.maximumRows) a side)")
        }
        let survivors = try match(oldIDs, oldVersions, newIDs, newVersions)
        let batch = makeBatch(oldCount: n, newCount: m, survivors: survivors)
        batch._checkInvariants()
        return batch
    }

    /// `diff` over arrays.
    public func diff(
        oldIDs: [UInt64], oldVersions: [UInt64], newIDs: [UInt64], newVersions: [UInt64]
    ) throws(TesseraError) -> DiffBatch {
        try oldIDs.withUnsafeBufferPointer { (oi) throws(TesseraError) in
            try oldVersions.withUnsafeBufferPointer { (ov) throws(TesseraError) in
                try newIDs.withUnsafeBufferPointer { (ni) throws(TesseraError) in
                    try newVersions.withUnsafeBufferPointer { (nv) throws(TesseraError) in
                        try diff(oldIDs: oi, oldVersions: ov, newIDs: ni, newVersions: nv)
                    }
                }
            }
        }
    }

    @inline(__always)
    func fingerprint(_ id: UInt64) -> UInt64 { mix64(id ^ seed) >> 32 }

    /// Smallest power of two with room for `rows` entries at load 2/3 or below.
    static func tableCapacity(for rows: Int) -> Int {
        var c = 16
        while c < rows + rows / 2 { c <<= 1 }
        return c
    }

    /// Fills `oldToNew`, `newToOld` and `changedBits`; returns the number of survivors.
    /// Ids are unique on each side (checked), so a pairing of equal ids is the pairing,
    /// whichever way it is found: first by runs (`matchRuns`), and where that gives up, or
    /// finds any repeated id, through one table of every old row (`matchWithTable`), which
    /// also reports the repeat.
    func match(
        _ oldIDs: UnsafeBufferPointer<UInt64>, _ oldVersions: UnsafeBufferPointer<UInt64>,
        _ newIDs: UnsafeBufferPointer<UInt64>, _ newVersions: UnsafeBufferPointer<UInt64>
    ) throws(TesseraError) -> Int {
        if let survivors = matchRuns(oldIDs, oldVersions, newIDs, newVersions) { return survivors }
        return try matchWithTable(oldIDs, oldVersions, newIDs, newVersions)
    }

    /// Pairs the rows from old row `i` and new row `j` on whose ids both sides agree, at most
    /// `limit`, in one pass: for each four rows the ids and the versions are compared and
    /// both maps filled (`pairRun` pairs a stretch already known to agree). Returns how many
    /// rows it paired.
    @inline(__always)
    static func pairAgreeing(_ i: Int, _ j: Int, upTo limit: Int, _ c: RunColumns) -> Int {
        let a = c.oldIDs + i, b = c.newIDs + j, va = c.oldVersions + i, vb = c.newVersions + j
        let o2n = c.oldToNew + i, n2o = c.newToOld + j, changed = c.changed
        let iota = SIMD4<Int32>(0, 1, 2, 3)
        var toNew = iota &+ Int32(truncatingIfNeeded: j), toOld = iota &+ Int32(truncatingIfNeeded: i)
        @inline(__always) func markChanged(_ k: Int) { changed[(i + k) >> 6] |= 1 << UInt64((i + k) & 63) }
        var k = 0
        while k + 4 <= limit, (a[k] ^ b[k]) | (a[k + 1] ^ b[k + 1]) | (a[k + 2] ^ b[k + 2]) | (a[k + 3] ^ b[k + 3]) == 0 {
            UnsafeMutableRawPointer(o2n + k).storeBytes(of: toNew, as: SIMD4<Int32>.self)
            UnsafeMutableRawPointer(n2o + k).storeBytes(of: toOld, as: SIMD4<Int32>.self)
            toNew &+= 4
            toOld &+= 4
            if (va[k] ^ vb[k]) | (va[k + 1] ^ vb[k + 1]) | (va[k + 2] ^ vb[k + 2]) | (va[k + 3] ^ vb[k + 3]) != 0 {
                for d in k..<k + 4 where va[d] != vb[d] { markChanged(d) }
            }
            k += 4
        }
        while k < limit, a[k] == b[k] {
            o2n[k] = Int32(truncatingIfNeeded: j + k)
            n2o[k] = Int32(truncatingIfNeeded: i + k)
            if va[k] != vb[k] { markChanged(k) }
            k += 1
        }
        return k
    }

    /// What `pairAgreeing` reads and writes.
    struct RunColumns {
        let oldIDs: UnsafePointer<UInt64>, newIDs: UnsafePointer<UInt64>
        let oldVersions: UnsafePointer<UInt64>, newVersions: UnsafePointer<UInt64>
        let oldToNew: UnsafeMutablePointer<Int32>, newToOld: UnsafeMutablePointer<Int32>, changed: UnsafeMutablePointer<UInt64>
    }

    /// Pairs old rows `i..<i + count` with new rows `j..<j + count` as `pair` would: the maps
    /// as two counting fills, then the versions four a compare (few differ).
    @inline(__always)
    func pairRun(
        _ i: Int, _ j: Int, _ count: Int, _ oldVersions: UnsafeBufferPointer<UInt64>, _ newVersions: UnsafeBufferPointer<UInt64>
    ) {
        guard count > 0 else { return }
        let o2n = oldToNew.base! + i, n2o = newToOld.base! + j, changed = changedBits.base!
        Self.fillCounting(o2n, from: j, count: count)
        Self.fillCounting(n2o, from: i, count: count)
        let a = oldVersions.baseAddress! + i, b = newVersions.baseAddress! + j
        var k = 0
        while k < count {
            if k + 4 <= count, (a[k] ^ b[k]) | (a[k + 1] ^ b[k + 1]) | (a[k + 2] ^ b[k + 2]) | (a[k + 3] ^ b[k + 3]) == 0 {
                k += 4
                continue
            }
            if a[k] != b[k] { changed[(i + k) >> 6] |= 1 << UInt64((i + k) & 63) }
            k += 1
        }
    }

    /// `p[k] = start + k` for `k < count`, eight a store.
    @inline(__always)
    static func fillCounting(_ p: UnsafeMutablePointer<Int32>, from start: Int, count: Int) {
        var v = SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7) &+ Int32(truncatingIfNeeded: start)
        var k = 0
        while k + 8 <= count {
            UnsafeMutableRawPointer(p + k).storeBytes(of: v, as: SIMD8<Int32>.self)
            v &+= 8
            k += 8
        }
        while k < count {
            p[k] = Int32(truncatingIfNeeded: start + k)
            k += 1
        }
    }

    /// Old rows below which `matchRuns` is not tried: the table fits the cache anyway.
    static let runsMinimumRows = 1 << 14
    /// Largest sum of skipped old and new rows `matchRuns` looks at to resynchronise.
    static let resyncWindow = 3

    /// A list that changed a little is mostly runs of rows that follow each other on both
    /// sides. Walking both sides at once pairs those runs with no table; at a mismatch the
    /// walk skips the fewest old plus new rows (up to `resyncWindow`) after which the ids
    /// agree again, or one of each. The skipped rows (leftovers) are paired through a small
    /// table. Hashing only those would miss a repeated id, so every old id then goes through
    /// an exact check (`allOldUnique`): a repeat among old ids, or a new leftover without an
    /// old leftover partner whose id is still an old id (so it repeats a paired new row),
    /// makes this give up. Returns nil, with the maps in any state, when there are over
    /// (n + m) / 16 leftovers or any repeat; `matchWithTable` then starts afresh.
    func matchRuns(
        _ oldIDs: UnsafeBufferPointer<UInt64>, _ oldVersions: UnsafeBufferPointer<UInt64>,
        _ newIDs: UnsafeBufferPointer<UInt64>, _ newVersions: UnsafeBufferPointer<UInt64>
    ) -> Int? {
        let n = oldIDs.count, m = newIDs.count
        guard n >= Self.runsMinimumRows, m > 0 else { return nil }
        let limit = (n + m) >> 4
        let o2n = oldToNew.reserve(n), n2o = newToOld.reserve(m)
        let words = (n + 63) >> 6
        let changed = changedBits.reserve(words)
        changed.update(repeating: 0, count: words)
        let oldLeft = oldLeftovers.reserve(limit), newLeft = newLeftovers.reserve(limit)
        let marks = newMarks.reserve((m + 63) >> 6)
        marks.update(repeating: 0, count: (m + 63) >> 6)
        let stash = leftoverStash.reserve(4 * limit)
        let oldLeftIDs = stash, newLeftIDs = stash + limit, oldLeftVersions = stash + 2 * limit, newLeftVersions = stash + 3 * limit
        var lo = 0, ln = 0, survivors: Int

        // Common prefix and suffix first, so rows added or removed at either end skip
        // nothing.
        let columns = RunColumns(oldIDs: oldIDs.baseAddress!, newIDs: newIDs.baseAddress!, oldVersions: oldVersions.baseAddress!,
                                 newVersions: newVersions.baseAddress!, oldToNew: o2n, newToOld: n2o, changed: changed)
        let shorter = min(n, m)
        let prefix = Self.pairAgreeing(0, 0, upTo: shorter, columns)
        var suffix = 0
        while suffix < shorter - prefix, oldIDs[n - 1 - suffix] == newIDs[m - 1 - suffix] { suffix += 1 }
        pairRun(n - suffix, m - suffix, suffix, oldVersions, newVersions)
        let oldEnd = n - suffix, newEnd = m - suffix
        var i = prefix, j = prefix
        while true {
            let k = Self.pairAgreeing(i, j, upTo: min(oldEnd - i, newEnd - j), columns)
            i += k
            j += k
            if i == oldEnd && j == newEnd { break }
            // Fewest skipped rows after which the ids agree; old rows first at equal cost.
            var skipOld = min(1, oldEnd - i), skipNew = min(1, newEnd - j)
            if i < oldEnd, j < newEnd {
                search: for total in 1...Self.resyncWindow {
                    for d in 0...total where i + total - d < oldEnd && j + d < newEnd {
                        if oldIDs[i + total - d] == newIDs[j + d] {
                            skipOld = total - d
                            skipNew = d
                            break search
                        }
                    }
                }
            } else {
                // One side is done: the rest of the other is leftovers.
                skipOld = oldEnd - i
                skipNew = newEnd - j
            }
            guard lo + ln + skipOld + skipNew <= limit else { return nil }
            for k in i..<i + skipOld {
                o2n[k] = -1
                oldLeft[lo] = Int32(truncatingIfNeeded: k)
                oldLeftIDs[lo] = oldIDs[k]
                oldLeftVersions[lo] = oldVersions[k]
                lo += 1
            }
            for k in j..<j + skipNew {
                n2o[k] = -1
                marks[k >> 6] |= 1 << UInt64(k & 63)
                newLeft[ln] = Int32(truncatingIfNeeded: k)
                newLeftIDs[ln] = newIDs[k]
                newLeftVersions[ln] = newVersions[k]
                ln += 1
            }
            i += skipOld
            j += skipNew
        }

        // Every old row is paired or a leftover.
        survivors = n - lo

        // Leftovers: old ones into a small table, new ones looked up in it. Tags are places
        // in the stash (old: place + 1), so only the pairs found touch the maps.
        let capacity = Self.tableCapacity(for: lo + ln)
        let t = table.reserve(capacity)
        t.update(repeating: 0, count: capacity)
        let mask = capacity - 1
        for k in 0..<lo {
            let id = oldLeftIDs[k], fp = fingerprint(id)
            var s = Int(truncatingIfNeeded: fp) & mask
            while t[s] != 0 {
                if t[s] >> 32 == fp, oldLeftIDs[Int(truncatingIfNeeded: t[s] & 0xFFFF_FFFF) - 1] == id { return nil }
                s = (s + 1) & mask
            }
            t[s] = fp << 32 | UInt64(k + 1)
        }
        // New leftovers with no old leftover partner, kept in `newLeft` for the check below.
        var unmatched = 0
        for k in 0..<ln {
            let j = Int(newLeft[k]), id = newLeftIDs[k], fp = fingerprint(id)
            var s = Int(truncatingIfNeeded: fp) & mask
            while true {
                let e = t[s]
                if e == 0 {
                    t[s] = fp << 32 | Self.newOnlyBit | UInt64(k)
                    newLeft[unmatched] = Int32(truncatingIfNeeded: j)
                    unmatched += 1
                    break
                }
                if e >> 32 == fp {
                    let tag = e & 0xFFFF_FFFF
                    if tag & Self.newOnlyBit != 0 {
                        if newLeftIDs[Int(truncatingIfNeeded: tag & ~Self.newOnlyBit)] == id { return nil }
                    } else {
                        let p = Int(truncatingIfNeeded: tag & ~Self.pairedBit) - 1
                        if oldLeftIDs[p] == id {
                            if tag & Self.pairedBit != 0 { return nil }
                            t[s] = e | Self.pairedBit
                            marks[j >> 6] &= ~(1 << UInt64(j & 63))
                            let i = Int(oldLeft[p])
                            o2n[i] = Int32(truncatingIfNeeded: j)
                            n2o[j] = Int32(truncatingIfNeeded: i)
                            if oldLeftVersions[p] != newLeftVersions[k] { changed[i >> 6] |= 1 << UInt64(i & 63) }
                            survivors += 1
                            break
                        }
                    }
                }
                s = (s + 1) & mask
            }
        }
        return allOldUnique(oldIDs, andAbsent: newIDs, at: newLeft, count: unmatched) ? survivors : nil
    }

    /// Whether the old ids are distinct and none equals the new ids at `rows[0..<count]`.
    /// Keys are a bijection of ids (`uniquenessKey`), so equal keys mean equal ids. A table of every
    /// old key would take a cache miss per row; a filter of one bit per key (its top bits)
    /// stays in the cache instead. A key whose bit is already set is a candidate: a repeat,
    /// or another key on the same bit (most candidates; about n / 16 at 8 bits a row).
    /// Only keys on a candidate bit, which a second pass over the old ids picks out with
    /// the same filter holding just the candidate bits, and of those only keys that share a
    /// bit of a second, smaller filter with another, go into an exact table. The passes
    /// write every key and advance past it only when its bit is set, so they have no
    /// branch to mispredict.
    func allOldUnique(
        _ oldIDs: UnsafeBufferPointer<UInt64>, andAbsent newIDs: UnsafeBufferPointer<UInt64>,
        at rows: UnsafeMutablePointer<Int32>, count: Int
    ) -> Bool {
        let n = oldIDs.count
        var bits = 12
        while bits < Self.filterMaximumBits, 1 << bits < 8 * n { bits += 1 }
        let shift = UInt64(64 - bits), words = 1 << (bits - 6)
        let filter = filterWords.reserve(words)
        filter.update(repeating: 0, count: words)
        /// Whether the key's bit is set, as 0 or 1.
        @inline(__always)
        func isSet(_ b: Int) -> Int { Int(truncatingIfNeeded: filter[b >> 6] >> UInt64(b & 63) & 1) }

        // The old candidates, then the new ones, then every old key on a candidate bit (at
        // most one per old row, so 2n + count slots).
        let keys = spareTable.reserve(2 * n + count)
        var old = 0
        for i in 0..<n {
            let key = uniquenessKey(oldIDs[i]), b = Int(truncatingIfNeeded: key >> shift)
            keys[old] = key
            old &+= isSet(b)
            filter[b >> 6] |= 1 << UInt64(b & 63)
        }
        var all = old
        for k in 0..<count {
            let key = uniquenessKey(newIDs[Int(rows[k])])
            keys[all] = key
            all &+= isSet(Int(truncatingIfNeeded: key >> shift))
        }
        if all == 0 { return true }

        filter.update(repeating: 0, count: words)
        for c in 0..<all {
            let b = Int(truncatingIfNeeded: keys[c] >> shift)
            filter[b >> 6] |= 1 << UInt64(b & 63)
        }
        var on = all
        for i in 0..<n {
            let key = uniquenessKey(oldIDs[i])
            keys[on] = key
            on &+= isSet(Int(truncatingIfNeeded: key >> shift))
        }

        // Those keys again, through a filter on their low bits an eighth the size (the
        // first half of `filter`; the second marks bits two keys share): only keys on a
        // shared bit go on to the exact table. Kept in place, each key moving towards the
        // front: the new ones, then the old ones. Skipped when that filter would be over a
        // quarter full (10^7 rows: most keys are candidates), as it would keep most keys.
        var newEnd = all, oldStart = all, oldEnd = on
        if on - all <= 1 << (bits - 5) {
            let low = UInt64(1 << (bits - 3) - 1), seen = filter, shared = filter + (1 << (bits - 9))
            filter.update(repeating: 0, count: 1 << (bits - 8))
            for c in all..<on {
                let b = Int(truncatingIfNeeded: Self.spread(keys[c]) & low), bit: UInt64 = 1 << UInt64(b & 63)
                shared[b >> 6] |= seen[b >> 6] & bit
                seen[b >> 6] |= bit
            }
            for c in old..<all {
                let b = Int(truncatingIfNeeded: Self.spread(keys[c]) & low)
                shared[b >> 6] |= seen[b >> 6] & 1 << UInt64(b & 63)
            }
            @inline(__always)
            func compact(_ range: Range<Int>, to start: Int) -> Int {
                var end = start
                for c in range {
                    let key = keys[c], b = Int(truncatingIfNeeded: Self.spread(key) & low)
                    keys[end] = key
                    end &+= Int(truncatingIfNeeded: shared[b >> 6] >> UInt64(b & 63) & 1)
                }
                return end
            }
            newEnd = compact(old..<all, to: old)
            oldStart = newEnd
            oldEnd = compact(all..<on, to: newEnd)
        }

        // Key 0 (the id equal to the seed) is kept out of the table, whose empty slot it is.
        let capacity = Self.tableCapacity(for: oldEnd - oldStart), mask = capacity - 1
        let homeShift = UInt64(64 - capacity.trailingZeroBitCount)
        let t = table.reserve(capacity)
        t.update(repeating: 0, count: capacity)
        var zero = false
        for c in oldStart..<oldEnd {
            let key = keys[c]
            if key == 0 {
                if zero { return false }
                zero = true
                continue
            }
            // Homes from bits of neither filter, which vary among these keys.
            var s = Int(truncatingIfNeeded: (key << UInt64(bits)) >> homeShift)
            while t[s] != 0 {
                if t[s] == key { return false }
                s = (s + 1) & mask
            }
            t[s] = key
        }
        for c in old..<newEnd {
            let key = keys[c]
            if key == 0 {
                if zero { return false }
                continue
            }
            var s = Int(truncatingIfNeeded: (key << UInt64(bits)) >> homeShift)
            while t[s] != 0 {
                if t[s] == key { return false }
                s = (s + 1) & mask
            }
        }
        return true
    }

    /// `allOldUnique`'s key of an id: a product with an odd number, invertible, so a
    /// bijection. The first filter uses its top bits, the product's best; the second, which
    /// sees only candidates, the low bits of `spread` of it (a product's low bits follow the
    /// id's low bits alone).
    @inline(__always)
    func uniquenessKey(_ id: UInt64) -> UInt64 { (id ^ seed) &* 0x9E37_79B9_7F4A_7C15 }

    /// The key with its top half folded into its low bits.
    @inline(__always)
    static func spread(_ key: UInt64) -> UInt64 { key ^ key >> 32 }

    /// Largest filter of `allOldUnique`: 2^23 bits, 1 MiB. A 2 MiB filter (the nominal L2
    /// cache) missed it often enough to make the 10^6-row diff slower, fewer candidates
    /// notwithstanding.
    static let filterMaximumBits = 23

    /// Fills the maps like `match`, hashing every old row into one table. The common prefix
    /// and suffix (same ids at the same distance from the ends) are paired without probing;
    /// every old id is still hashed, which finds old duplicates, and a new id that repeats
    /// one of the paired rows lands on an old entry already matched.
    func matchWithTable(
        _ oldIDs: UnsafeBufferPointer<UInt64>, _ oldVersions: UnsafeBufferPointer<UInt64>,
        _ newIDs: UnsafeBufferPointer<UInt64>, _ newVersions: UnsafeBufferPointer<UInt64>
    ) throws(TesseraError) -> Int {
        let n = oldIDs.count, m = newIDs.count
        let o2n = oldToNew.reserve(n), n2o = newToOld.reserve(m), marks = newMarks.reserve((m + 63) >> 6)
        let words = (n + 63) >> 6
        let changed = changedBits.reserve(words)
        marks.update(repeating: 0, count: (m + 63) >> 6)
        o2n.update(repeating: -1, count: n)
        changed.update(repeating: 0, count: words)

        // Old rows into the table. Sized for the larger side: new-only rows join it too.
        var capacity = Self.tableCapacity(for: max(n, m))
        var t = table.reserve(capacity)
        t.update(repeating: 0, count: capacity)
        var mask = capacity - 1
        // Each fingerprint is computed once, 16 rows ahead of its insertion (so its slot
        // can be fetched meanwhile), and kept in a ring until then.
        let lookahead = 16
        let repeated = withUnsafeTemporaryAllocation(of: UInt64.self, capacity: lookahead) { ring -> (Int, Int)? in
            for i in 0..<min(n, lookahead) {
                ring[i] = fingerprint(oldIDs[i])
                tess_prefetch(t + (Int(truncatingIfNeeded: ring[i]) & mask))
            }
            for i in 0..<n {
                let fp = ring[i & (lookahead - 1)]
                if i + lookahead < n {
                    let ahead = fingerprint(oldIDs[i + lookahead])
                    ring[i & (lookahead - 1)] = ahead
                    tess_prefetch(t + (Int(truncatingIfNeeded: ahead) & mask))
                }
                var s = Int(truncatingIfNeeded: fp) & mask
                while true {
                    let e = t[s]
                    if e == 0 { break }
                    if e >> 32 == fp {
                        let earlier = Int(truncatingIfNeeded: e & 0xFFFF_FFFF) - 1
                        if oldIDs[earlier] == oldIDs[i] { return (earlier, i) }
                    }
                    s = (s + 1) & mask
                }
                t[s] = fp << 32 | UInt64(i + 1)
            }
            return nil
        }
        if let (first, second) = repeated {
            throw .duplicateIDInDiff(oldIDs[second], side: "old", firstIndex: first, secondIndex: second)
        }
        var entries = n

        @inline(__always)
        func pair(_ i: Int, _ j: Int) {
            o2n[i] = Int32(truncatingIfNeeded: j)
            n2o[j] = Int32(truncatingIfNeeded: i)
            if oldVersions[i] != newVersions[j] { changed[i >> 6] |= 1 << UInt64(i & 63) }
        }

        let limit = min(n, m)
        var prefix = 0
        while prefix < limit, oldIDs[prefix] == newIDs[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < limit - prefix, oldIDs[n - 1 - suffix] == newIDs[m - 1 - suffix] { suffix += 1 }
        for k in 0..<prefix { pair(k, k) }
        for k in 0..<suffix { pair(n - 1 - k, m - 1 - k) }
        var survivors = prefix + suffix

        let end = m - suffix
        let growAt = { (c: Int) in c - c / 5 }  // load 0.8
        var threshold = growAt(capacity)
        var j = prefix
        // The old row expected next: where the last pairing left off. Most rows of a list
        // that changed a little pair with it directly, without a table probe (every old id
        // is in the table already, so a new id repeating a row paired this way still lands
        // on a matched entry and is reported).
        var cursor = prefix
        let oldEnd = n - suffix
        while j < end {
            let id = newIDs[j]
            if cursor < oldEnd && oldIDs[cursor] == id {
                if o2n[cursor] >= 0 {
                    let other = Int(o2n[cursor])
                    throw .duplicateIDInDiff(id, side: "new", firstIndex: min(other, j), secondIndex: max(other, j))
                }
                pair(cursor, j)
                survivors += 1
                cursor += 1
                j += 1
                continue
            }
            if entries >= threshold {
                capacity <<= 1
                t = rehash(into: capacity, entries: t, count: capacity >> 1)
                mask = capacity - 1
                threshold = growAt(capacity)
            }
            // Fetch ahead only for rows that will not pair directly (a guess: the row 16
            // ahead differs from the old row 16 past the cursor).
            if j + 16 < end && (cursor + 16 >= oldEnd || oldIDs[cursor + 16] != newIDs[j + 16]) {
                tess_prefetch(t + (Int(truncatingIfNeeded: fingerprint(newIDs[j + 16])) & mask))
            }
            let fp = fingerprint(id)
            var s = Int(truncatingIfNeeded: fp) & mask
            while true {
                let e = t[s]
                if e == 0 {
                    n2o[j] = -1
                    marks[j >> 6] |= 1 << UInt64(j & 63)
                    t[s] = fp << 32 | Self.newOnlyBit | UInt64(j)
                    entries += 1
                    break
                }
                if e >> 32 == fp {
                    let tag = e & 0xFFFF_FFFF
                    if tag & Self.newOnlyBit == 0 {
                        let i = Int(truncatingIfNeeded: tag) - 1
                        if oldIDs[i] == id {
                            if o2n[i] >= 0 {
                                // Paired before: in the common prefix or suffix, or earlier here.
                                let other = Int(o2n[i])
                                throw .duplicateIDInDiff(id, side: "new", firstIndex: min(other, j), secondIndex: max(other, j))
                            }
                            pair(i, j)
                            survivors += 1
                            cursor = i + 1
                            break
                        }
                    } else if newIDs[Int(truncatingIfNeeded: tag & ~Self.newOnlyBit)] == id {
                        throw .duplicateIDInDiff(id, side: "new", firstIndex: Int(truncatingIfNeeded: tag & ~Self.newOnlyBit), secondIndex: j)
                    }
                }
                s = (s + 1) & mask
            }
            j += 1
        }
        return survivors
    }

    /// Moves every entry of `old` (`count` slots) into the spare table of `capacity` slots,
    /// which then becomes the table. Homes come from the fingerprint alone, so no id is read.
    func rehash(into capacity: Int, entries old: UnsafeMutablePointer<UInt64>, count: Int) -> UnsafeMutablePointer<UInt64> {
        let t = spareTable.reserve(capacity)
        t.update(repeating: 0, count: capacity)
        let mask = capacity - 1
        for k in 0..<count where old[k] != 0 {
            var s = Int(truncatingIfNeeded: old[k] >> 32) & mask
            while t[s] != 0 { s = (s + 1) & mask }
            t[s] = old[k]
        }
        table.swapStorage(with: &spareTable)
        return t
    }
}
