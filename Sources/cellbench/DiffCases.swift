/// The snapshot pairs of the diff suite. Each case is a shape that scales with its row
/// count, so the same shape can be generated at the suite's size and, for the O(ND) peer,
/// at a smaller one.
///
/// Rows carry a stable 64-bit id (splitmix64's bijective mixer over a counter, so ids are
/// distinct and hash like real keys) and a content version. Rows created after the old
/// snapshot continue the id counter.
enum DiffCase: String, CaseIterable, Sendable {
    /// DifferenceKit's published benchmark case, as its `BenchmarkData` builds it: from
    /// the old rows, remove `n/5 ..< 3n/10` (n/10 rows), insert n/10 new rows at
    /// `3n/10`, then shuffle the first n/50 rows of the result. No row changes content.
    /// At n = 100,000: 10,000 deleted, 10,000 inserted, 2,000 shuffled.
    case diffkit = "diffkit_100k"
    /// n old rows, then max(1, n/10,000) new rows at the top (100 at n = 1,000,000).
    case prepend = "prepend_1m"
    /// n old rows; max(1, n/100) each of random deletes, inserts (at random places), moves
    /// (a survivor taken out and put back at a random place) and updates (a random
    /// survivor, possibly a moved one, gets a new version). 1 % of each kind, 4 % in all.
    case sparse = "sparse_1m"
    /// The old rows in reverse order: every survivor but one is a move.
    case reverse = "reverse_100k"
    /// A uniformly random permutation of the old rows.
    case shuffle = "shuffle_100k"

    var name: String { rawValue }

    /// The rows of this case when the suite runs at `rows` (the 1M cases' size): the
    /// `_100k` cases take a tenth.
    func rows(suiteRows rows: Int) -> Int {
        switch self {
        case .diffkit, .reverse, .shuffle: rows / 10
        case .prepend, .sparse: rows
        }
    }

    /// What the generator builds at `rows` old rows.
    func plan(rows n: Int) -> DiffPlan {
        switch self {
        case .diffkit: DiffPlan(deletes: n / 10, inserts: n / 10, moved: n / 50, updates: 0)
        case .prepend: DiffPlan(deletes: 0, inserts: max(1, n / 10_000), moved: 0, updates: 0)
        case .sparse: DiffPlan(deletes: max(1, n / 100), inserts: max(1, n / 100), moved: max(1, n / 100), updates: max(1, n / 100))
        case .reverse: DiffPlan(deletes: 0, inserts: 0, moved: max(0, n - 1), updates: 0)
        case .shuffle: DiffPlan(deletes: 0, inserts: 0, moved: n, updates: 0)
        }
    }

    /// The smallest old row count the case is generated for (every planned kind at least 1
    /// where the shape has it, and DifferenceKit's ranges non-empty).
    static let minimumRows = 100

    /// Builds the old and new snapshots of this case at `rows` old rows.
    func instance(rows n: Int, seed: UInt64) -> DiffInstance {
        precondition(n >= Self.minimumRows, "DiffCase: at least \(Self.minimumRows) rows")
        let seed = seed ^ SplitMix64.mix(UInt64(truncatingIfNeeded: name.hashValueStable))
        var rng = Xoshiro256(seed: seed)
        let ids = DiffIDs(seed: seed)
        var oldIDs = [UInt64](), oldVersions = [UInt64]()
        oldIDs.reserveCapacity(n)
        oldVersions.reserveCapacity(n)
        for i in 0..<n {
            oldIDs.append(ids.id(i))
            oldVersions.append(ids.version(i))
        }
        var newIDs: [UInt64], newVersions: [UInt64]
        let plan = self.plan(rows: n)
        switch self {
        case .diffkit:
            // DifferenceKit: target.removeSubrange(deleteRange); target.insert(contentsOf:
            // at: insertRange.lowerBound); target[shuffleRange].shuffle().
            newIDs = oldIDs
            newIDs.removeSubrange(n / 5..<n / 5 + plan.deletes)
            let at = 3 * n / 10
            newIDs.insert(contentsOf: (0..<plan.inserts).map { ids.id(n + $0) }, at: at)
            Self.shuffle(&newIDs, 0..<plan.moved, &rng)
            newVersions = newIDs.map(ids.version(of:))
        case .prepend:
            newIDs = (0..<plan.inserts).map { ids.id(n + $0) } + oldIDs
            newVersions = newIDs.map(ids.version(of:))
        case .sparse:
            (newIDs, newVersions) = Self.sparse(oldIDs: oldIDs, oldVersions: oldVersions, plan: plan, ids: ids, &rng)
        case .reverse:
            newIDs = oldIDs.reversed()
            newVersions = oldVersions.reversed()
        case .shuffle:
            var order = Array(0..<n)
            Self.shuffle(&order, 0..<n, &rng)
            newIDs = order.map { oldIDs[$0] }
            newVersions = order.map { oldVersions[$0] }
        }
        return DiffInstance(
            diffCase: self, plan: plan, oldIDs: oldIDs, oldVersions: oldVersions, newIDs: newIDs, newVersions: newVersions)
    }

    /// Fisher–Yates over `range` of `a`.
    static func shuffle<T>(_ a: inout [T], _ range: Range<Int>, _ rng: inout Xoshiro256) {
        var i = range.upperBound - 1
        while i > range.lowerBound {
            let j = range.lowerBound + rng.below(i - range.lowerBound + 1)
            a.swapAt(i, j)
            i -= 1
        }
    }

    /// Picks `c` deleted and `c` moved old rows (disjoint), keeps the rest in order, puts
    /// the moved rows and `c` new rows back at uniformly random gaps between the kept
    /// rows (several at one gap in random order), then gives `c` random survivors a new
    /// version.
    static func sparse(
        oldIDs: [UInt64], oldVersions: [UInt64], plan: DiffPlan, ids: DiffIDs, _ rng: inout Xoshiro256
    ) -> ([UInt64], [UInt64]) {
        let n = oldIDs.count, c = plan.deletes
        // A random permutation's first 2c entries: c deleted, then c moved.
        var order = Array(0..<n)
        for k in 0..<2 * c {
            order.swapAt(k, k + rng.below(n - k))
        }
        // 0 kept, 1 deleted, 2 moved.
        var fate = [UInt8](repeating: 0, count: n)
        for k in 0..<c { fate[order[k]] = 1 }
        for k in c..<2 * c { fate[order[k]] = 2 }
        let kept = (0..<n).filter { fate[$0] == 0 }
        // Rows placed back: old index of a moved row, or -1 - k for the k-th new row;
        // each with a gap 0...kept.count (before kept[gap]).
        var placed: [(gap: Int, row: Int)] = (c..<2 * c).map { (rng.below(kept.count + 1), order[$0]) }
        placed += (0..<c).map { (rng.below(kept.count + 1), -1 - $0) }
        shuffle(&placed, 0..<placed.count, &rng)
        // Stable by gap, so rows sharing a gap keep the shuffled order.
        placed = placed.enumerated().sorted { ($0.element.gap, $0.offset) < ($1.element.gap, $1.offset) }.map(\.element)
        var newRows = [Int]()  // old index, or -1 - k for new row k
        newRows.reserveCapacity(kept.count + placed.count)
        var p = 0
        for g in 0...kept.count {
            while p < placed.count, placed[p].gap == g {
                newRows.append(placed[p].row)
                p += 1
            }
            if g < kept.count { newRows.append(kept[g]) }
        }
        let newIDs = newRows.map { $0 >= 0 ? oldIDs[$0] : ids.id(n + (-1 - $0)) }
        var newVersions = newRows.map { $0 >= 0 ? oldVersions[$0] : ids.version(n + (-1 - $0)) }
        // Updates: c distinct surviving positions of the new list.
        var survivors = newRows.indices.filter { newRows[$0] >= 0 }
        for k in 0..<c {
            survivors.swapAt(k, k + rng.below(survivors.count - k))
            newVersions[survivors[k]] &+= 1
        }
        return (newIDs, newVersions)
    }
}

/// What a case's generator builds: exact counts of deleted, inserted and updated rows, and
/// the number of rows it displaced (`moved`: the shuffled, moved, reversed or permuted
/// rows). The differ reports at most `moved` moves; fewer when some displaced rows happen
/// to keep their order relative to the rest (a shuffle's longest increasing run).
struct DiffPlan: Equatable, Sendable {
    var deletes: Int
    var inserts: Int
    var moved: Int
    var updates: Int

    /// The edit distance the O(ND) peer sees, an upper bound: each delete and insert is one
    /// edit; a moved row is a removal plus an insertion, and so is an updated row (the
    /// peer's elements carry id and version, so a new version is a different element).
    var peerEdits: Int { deletes + inserts + 2 * moved + 2 * updates }
}

/// Ids and versions of the suite's rows: the `i`th row ever created has id
/// `mix(i + seed * φ)` (distinct for distinct `i`, the mixer being a bijection) and
/// initial version `mix(id)`.
struct DiffIDs {
    let seed: UInt64

    func id(_ i: Int) -> UInt64 { SplitMix64.mix(UInt64(i) &+ seed &* 0x9E37_79B9_7F4A_7C15) }
    func version(_ i: Int) -> UInt64 { version(of: id(i)) }
    func version(of id: UInt64) -> UInt64 { SplitMix64.mix(id ^ 0x5EED_7E55) }
}

/// One old/new pair of a case.
struct DiffInstance {
    var diffCase: DiffCase
    var plan: DiffPlan
    var oldIDs: [UInt64]
    var oldVersions: [UInt64]
    var newIDs: [UInt64]
    var newVersions: [UInt64]

    var oldCount: Int { oldIDs.count }
    var newCount: Int { newIDs.count }
}

extension String {
    /// FNV-1a of the UTF-8 bytes: the same in every process (`hashValue` is seeded per
    /// process), so a case's rows depend only on the suite's seed.
    var hashValueStable: UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
        return h
    }
}
