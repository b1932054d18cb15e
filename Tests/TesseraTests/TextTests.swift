import Testing
import Tessera

/// Text slots round-trip byte for byte, wherever their rows move and after the arena
/// compacts.
@Suite struct TextTests {
    @Test func everySampleRoundTripsInEverySlot() throws {
        var store = makeStore([30], pageCapacity: 3, treeFanout: 4)
        let ref = ReferenceModel(estimatedHeights: [30])
        var text = RowText(slotsPerRow: 3)
        var ids: [UInt64] = []
        for (i, sample) in sampleTexts.enumerated() {
            text.append([sample, sampleTexts[(i * 7) % sampleTexts.count], ""])
            text.append([sample])  // fewer slots than slotsPerRow: the rest are empty
            text.append(["a", "b", "c", "dropped"])  // more: the extra one is dropped
            ids += [UInt64(3 * i), UInt64(3 * i + 1), UInt64(3 * i + 2)]
        }
        let batch = Batch(ids: ids, kinds: Array(repeating: 0, count: ids.count), heights: nil, text: text)
        try batch.append(to: &store)
        ref.insert(batch.refRows(estimates: ref.estimates), at: 0)
        store._checkInvariants()
        let c = Checker("samples")
        verifyAll(store, ref, c)
        for (i, sample) in sampleTexts.enumerated() {
            #expect(Array(try store.text(ofRow: 3 * i, slot: 0).utf8) == Array(sample.utf8))
            #expect(try store.text(ofRow: 3 * i + 1, slot: 1) == "")
            #expect(try store.text(ofRow: 3 * i + 2, slot: 2) == "c")
            #expect(try store.text(ofRow: 3 * i + 2, slot: 3) == "")
            #expect(try store.text(ofRow: 3 * i + 2, slot: -1) == "")
            #expect(try store.textSlotCount(ofRow: 3 * i + 2) == 3)
        }
        // Canonically equivalent strings stay distinct bytes.
        try store.append(ids: [1_000, 1_001], kinds: [0, 0], text: {
            var t = RowText(slotsPerRow: 1)
            t.append(["\u{E9}"])
            t.append(["e\u{301}"])
            return t
        }())
        #expect(Array(try store.text(ofRow: store.count - 2, slot: 0).utf8) == [0xC3, 0xA9])
        #expect(Array(try store.text(ofRow: store.count - 1, slot: 0).utf8) == [0x65, 0xCC, 0x81])
    }

    @Test func bytesOutsideEverySlotAreIgnored() throws {
        var store = makeStore([30])
        // Slots are utf8[offsets[k] ..< offsets[k + 1]]; the bytes before the first and
        // after the last are invalid UTF-8 and belong to no slot.
        let utf8: [UInt8] = [0xFF, 0xFE] + Array("héllo".utf8) + Array("wörld".utf8) + [0xC0, 0x80]
        let text = RowText(utf8: utf8, slotsPerRow: 1, offsets: [2, 8, 14])
        try store.append(ids: [1, 2], kinds: [0, 0], text: text)
        #expect(try store.text(ofRow: 0, slot: 0) == "héllo")
        #expect(try store.text(ofRow: 1, slot: 0) == "wörld")
        // No slots at all.
        try store.append(ids: [3, 4], kinds: [0, 0], text: RowText(slotsPerRow: 0))
        #expect(try store.textSlotCount(ofRow: 3) == 0)
        #expect(try store.text(ofRow: 3, slot: 0) == "")
        // Rows without text.
        try store.append(ids: [5], kinds: [0])
        #expect(try store.textSlotCount(ofRow: 4) == 0)
        #expect(try store.text(ofRow: 4, slot: 0) == "")
        store._checkInvariants()
    }

    /// Rows with text inserted, removed and re-measured around each other on tiny pages
    /// (so rows move between pages in every split and merge).
    @Test(arguments: 1...6)
    func textSurvivesInsertsAndRemovesAroundIt(seed: Int) throws {
        var rng = SplitMix64(seed: UInt64(seed) &* 31_337)
        var store = makeStore([30, 0], pageCapacity: rng.int(2...5), treeFanout: 4)
        let ref = ReferenceModel(estimatedHeights: [30, 0])
        var ids = IDSource(seed: UInt64(seed))
        let c = Checker("seed \(seed)")
        for step in 0..<1_500 {
            c.context = "seed \(seed), step \(step)"
            let n = ref.count
            if n < 50 || rng.chance(0.55) {
                let k = rng.chance(0.6) ? rng.int(1...3) : rng.int(4...40)
                let at = rng.int(0...n)
                let batch = Batch(
                    ids: (0..<k).map { _ in ids.next() }, kinds: (0..<k).map { _ in UInt16(rng.below(2)) },
                    heights: nil, text: randomText(&rng, rows: k, slotsPerRow: rng.int(0...4)))
                try batch.insert(into: &store, at: at)
                ref.insert(batch.refRows(estimates: ref.estimates), at: at)
            } else if rng.chance(0.7) {
                let k = min(n, rng.chance(0.7) ? rng.int(1...3) : rng.int(4...60))
                let lower = rng.int(0...(n - k))
                try store.removeRows(lower..<(lower + k))
                ref.remove(lower..<(lower + k))
            } else {
                let r = rng.below(n)
                try store.setHeight(Double(rng.below(100)), ofRow: r)
                ref.setHeight(units: Int64(try store.row(r).height * 64), ofRow: r)
            }
            store._checkInvariants()
            if step % 50 == 0 { verifyAll(store, ref, c) }
            guard c.ok else { return }
        }
        verifyAll(store, ref, c)
    }

    /// Removing most rows of a store holding megabytes of text makes the arena compact
    /// (dead bytes outweigh live ones and exceed 1 MiB); every remaining row keeps its
    /// text, through further inserts, removals and a second compaction.
    @Test func textSurvivesArenaCompaction() throws {
        var rng = SplitMix64(seed: 2_024)
        var store = makeStore([30], pageCapacity: 64, treeFanout: 8)
        let ref = ReferenceModel(estimatedHeights: [30])
        var ids = IDSource(seed: 77)
        func addRows(_ k: Int, at: Int) throws {
            var text = RowText(slotsPerRow: 3)
            for _ in 0..<k {
                text.append([rng.pick(sampleTexts), "\(rng.next())", rng.pick(sampleTexts) + rng.pick(sampleTexts)])
            }
            let batch = Batch(ids: (0..<k).map { _ in ids.next() }, kinds: Array(repeating: 0, count: k), heights: nil, text: text)
            try batch.insert(into: &store, at: at)
            ref.insert(batch.refRows(estimates: ref.estimates), at: at)
        }
        for _ in 0..<20 { try addRows(1_000, at: rng.int(0...ref.count)) }
        let c = Checker("compaction")
        verifyAll(store, ref, c)
        let arenaBefore = store.memory.textArena
        #expect(arenaBefore > 2_000_000)
        // Remove 90%, in ranges of all sizes spread over the store.
        while ref.count > 2_000 {
            let k = min(ref.count - 2_000, rng.chance(0.5) ? rng.int(1...10) : rng.int(10...400))
            let lower = rng.int(0...(ref.count - k))
            try store.removeRows(lower..<(lower + k))
            ref.remove(lower..<(lower + k))
            store._checkInvariants()
        }
        verifyAll(store, ref, c)
        let arenaAfter = store.memory.textArena
        #expect(arenaAfter <= arenaBefore / 2, "the arena did not compact: \(arenaBefore) → \(arenaAfter) bytes")
        // More text in, most of it out again: a second compaction.
        for _ in 0..<15 { try addRows(1_000, at: rng.int(0...ref.count)) }
        verifyAll(store, ref, c)
        let arenaPeak = store.memory.textArena
        try store.removeRows(500..<(ref.count - 500))
        ref.remove(500..<(ref.count - 500))
        store._checkInvariants()
        verifyAll(store, ref, c)
        #expect(store.memory.textArena <= arenaPeak / 4, "no second compaction: \(arenaPeak) → \(store.memory.textArena) bytes")
    }
}
