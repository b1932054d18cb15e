import Tessera

/// The old and new ids and versions of a keyed diff.
public struct DiffPair {
    public var oldIDs: [UInt64], oldVersions: [UInt64]
    public var newIDs: [UInt64], newVersions: [UInt64]

    /// Row `i` ever created has id `mix(i + seed·φ)` (distinct: the mixer is a bijection)
    /// and version `mix(id)`.
    static func id(_ i: Int, _ seed: UInt64) -> UInt64 { SplitMix64.mix(UInt64(i) &+ seed &* 0x9E37_79B9_7F4A_7C15) }
    static func version(_ id: UInt64) -> UInt64 { SplitMix64.mix(id ^ 0x5EED_7E55) }

    /// DifferenceKit's published benchmark case, as its `BenchmarkData` builds it (and
    /// cellbench's `diffkit_100k`): from `n` old rows remove `n/5 ..< 3n/10`, insert n/10 new
    /// rows at `3n/10`, shuffle the first n/50 rows of the result; no content changes. At
    /// n = 100,000: 10,000 deleted, 10,000 inserted, 2,000 shuffled.
    public static func differenceKit(rows n: Int, seed: UInt64 = 0xD1FF) -> DiffPair {
        var rng = SplitMix64(seed: seed)
        let old = (0..<n).map { id($0, seed) }
        var new = old
        new.removeSubrange(n / 5..<n / 5 + n / 10)
        new.insert(contentsOf: (0..<n / 10).map { id(n + $0, seed) }, at: 3 * n / 10)
        rng.shuffle(&new, 0..<n / 50)
        return DiffPair(oldIDs: old, oldVersions: old.map(version), newIDs: new, newVersions: new.map(version))
    }

    /// `n` old rows and `k` new rows on top of them (new messages or transactions arriving).
    public static func prepend(rows n: Int, new k: Int, seed: UInt64 = 0x9E9) -> DiffPair {
        let old = (0..<n).map { id($0, seed) }
        let new = (0..<k).map { id(n + $0, seed) } + old
        return DiffPair(oldIDs: old, oldVersions: old.map(version), newIDs: new, newVersions: new.map(version))
    }
}

/// Two snapshots of a store-driven list (one text slot, measured heights) that differ by
/// a small batch: `changes` old rows each deleted, moved and updated, and `changes` new
/// rows, spread over the list. Applying `b` to a list showing `a`, then `a` to it, returns
/// it to where it started, so a benchmark can alternate them.
public struct ApplyPair {
    public var a: RowSnapshot
    public var b: RowSnapshot

    public init(rows n: Int, changes k: Int, seed: UInt64 = 0xA991) {
        var rng = SplitMix64(seed: seed)
        var ids = [UInt64](), heights = [Double](), labels = [String]()
        ids.reserveCapacity(n)
        heights.reserveCapacity(n)
        labels.reserveCapacity(n)
        for i in 0..<n {
            ids.append(rng.next() | 1)  // odd; new rows get even ids
            heights.append(Double(44 + rng.below(48)) + Double(rng.below(64)) / 64)
            labels.append("Payment \(i) · card \(rng.below(10_000))")
        }
        // 0 stays, 1 deleted, 2 moved, 3 updated.
        var fate = [UInt8](repeating: 0, count: n)
        for f in [UInt8(1), 2, 3] {
            var marked = 0
            while marked < k {
                let i = rng.below(n)
                if fate[i] == 0 { fate[i] = f; marked += 1 }
            }
        }
        var survivors = [Int]()
        survivors.reserveCapacity(n)
        for i in 0..<n where fate[i] == 0 || fate[i] == 3 { survivors.append(i) }
        var arrivals: [(at: Int, old: Int)] = []  // old -1: a new row
        for i in 0..<n where fate[i] == 2 { arrivals.append((rng.below(survivors.count + 1), i)) }
        for _ in 0..<k { arrivals.append((rng.below(survivors.count + 1), -1)) }
        arrivals.sort { ($0.at, $0.old) < ($1.at, $1.old) }

        var newIDs = [UInt64](), newVersions = [UInt64](), newHeights = [Double](), newText = RowText(slotsPerRow: 1)
        func emit(_ old: Int) {
            if old < 0 {
                newIDs.append(rng.next() & ~1)
                newVersions.append(1)
                newHeights.append(60)
                newText.append(["New payment \(newIDs.count)"])
            } else {
                newIDs.append(ids[old])
                newVersions.append(fate[old] == 3 ? 2 : 1)
                newHeights.append(fate[old] == 3 ? heights[old] + 22 : heights[old])
                newText.append([fate[old] == 3 ? "Updated payment \(old)" : labels[old]])
            }
        }
        var next = 0
        for (s, old) in survivors.enumerated() {
            while next < arrivals.count && arrivals[next].at == s { emit(arrivals[next].old); next += 1 }
            emit(old)
        }
        while next < arrivals.count { emit(arrivals[next].old); next += 1 }

        var text = RowText(slotsPerRow: 1)
        for l in labels { text.append([l]) }
        a = RowSnapshot(ids: ids, kinds: [UInt16](repeating: 0, count: n), versions: [UInt64](repeating: 1, count: n),
                        text: text, heights: heights)
        b = RowSnapshot(ids: newIDs, kinds: [UInt16](repeating: 0, count: newIDs.count), versions: newVersions,
                        text: newText, heights: newHeights)
    }

    /// A store-driven list showing `a`, scrolled to the middle.
    public func engine() -> ListEngine {
        do {
            var engine = try ListEngine(store: try RowStore(estimatedHeights: [60]), viewport: 844)
            try engine.append(ids: a.ids, kinds: a.kinds, heights: a.heights, text: a.text, versions: a.versions)
            try engine.scroll(to: engine.maximumScrollOffset / 2)
            return engine
        } catch { fatalError("ApplyPair.engine: \(error)") }
    }
}
