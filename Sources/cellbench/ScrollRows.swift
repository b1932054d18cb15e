import Tessera

/// The rows of a scroll run: `CellRowGenerator`'s rows for the profile, of which the last
/// `loaded` ones are the list at the start and the first ones arrive later, batch by batch,
/// at the top (newest first, as the generators order an account history or a feed). Every
/// batch starts where a group starts, so the list after each insert is a prefix-shortened
/// copy of the generator's valid sequence.
struct ScrollRows {
    let rows: CellRows
    /// Generated rows that make up the list at the start.
    let loaded: Range<Int>
    /// Generated rows inserted at the top, in the order they arrive (the one just above
    /// `loaded` first).
    let batches: [Range<Int>]
    let seed: UInt64

    /// `batchUnit`: rows per step of an ungrouped batch (a grid's column count: a batch that
    /// is not whole lines would move every item after it to another column, which no
    /// anchor can hide).
    init(profile: Profile, count: Int, seed: UInt64, batchUnit: Int = 1, batchCount: Int = ScrollScript.insertBatchCount) throws {
        self.seed = seed
        // Headers start groups; a header right after another (George's month title before
        // the day's header) belongs to the same start.
        var isHeader = [Bool](repeating: false, count: Int(profile.kinds.map(\.code).max() ?? 0) + 1)
        for k in profile.kinds where k.role == .header { isHeader[Int(k.code)] = true }
        var extra = 4_096
        while true {
            let rows = try CellRowGenerator.rows(profile: profile, count: count + extra, seed: seed)
            var rng = Xoshiro256(seed: seed ^ 0xBA7C_4E5)
            var cuts = [0]
            var i = 0
            let grouped = isHeader.contains(true)
            while cuts.count <= batchCount, i < rows.count {
                if grouped {
                    // The next group start after the current one.
                    i += 1
                    while i < rows.count, !(isHeader[Int(rows.kinds[i])] && !isHeader[Int(rows.kinds[i - 1])]) { i += 1 }
                } else {
                    i += batchUnit * (1 + rng.below(3))
                }
                cuts.append(i)
            }
            let start = cuts[cuts.count - 1]
            if cuts.count == batchCount + 1, start + count <= rows.count {
                var r = rows
                r.truncate(to: start + count)
                self.rows = r
                loaded = start..<(start + count)
                batches = (0..<batchCount).reversed().map { cuts[$0]..<cuts[$0 + 1] }
                return
            }
            extra *= 4
        }
    }

    /// A row's id: distinct for distinct generated rows (splitmix64 is a bijection).
    func id(_ generated: Int) -> UInt64 { SplitMix64.mix(UInt64(generated) &+ seed &* 0x9E37_79B9_7F4A_7C15) }

    /// Ids, kinds and text of generated rows `range`, as the engine's append and insert take them.
    func columns(_ range: Range<Int>) -> (ids: [UInt64], kinds: [UInt16], text: RowText) {
        let s = rows.slotsPerRow
        let lo = rows.offsets[range.lowerBound * s], hi = rows.offsets[range.upperBound * s]
        let utf8 = Array(rows.utf8[lo..<hi])
        let offsets = rows.offsets[(range.lowerBound * s)...(range.upperBound * s)].map { $0 - lo }
        return (range.map(id), Array(rows.kinds[range]), RowText(utf8: utf8, slotsPerRow: s, offsets: offsets))
    }
}
