import Testing
import Tessera

/// jemalloc's figures: a store reports the bytes it holds; this thread's balance of
/// allocated minus freed bytes (which tests running in parallel do not move) grows by at
/// least that much when it is built and returns when it is destroyed.
@Suite struct MemoryTests {
    @Test func storeMemoryIsAccountedByJemalloc() throws {
        let rows = 1_000_000
        let m0 = MemoryStatistics.current()
        #expect(m0.allocated > 0)
        #expect(m0.resident > 0)
        let b0 = MemoryStatistics.threadBalance()
        var total = 0
        do {
            let ids = (0..<rows).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 }
            let kinds = [UInt16](repeating: 1, count: rows)
            var utf8: [UInt8] = [], offsets = [0]
            utf8.reserveCapacity(rows * 24)
            offsets.reserveCapacity(rows + 1)
            for i in 0..<rows {
                utf8 += "Transaction \(i) EUR".utf8
                offsets.append(utf8.count)
            }
            var store = try RowStore(estimatedHeights: [44, 72])
            try store.append(ids: ids, kinds: kinds, text: RowText(utf8: utf8, slotsPerRow: 1, offsets: offsets))
            let memory = store.memory
            let b1 = MemoryStatistics.threadBalance()
            total = memory.total
            #expect(memory.pages > 0 && memory.tree > 0 && memory.idIndex > 0 && memory.textArena > 0 && memory.scratch > 0)
            // The text reference column is a part of the pages: 4 bytes per row.
            #expect(memory.textReferences >= rows * 4 && memory.textReferences < memory.pages)
            #expect(memory.total == memory.pages + memory.tree + memory.idIndex + memory.textArena + memory.scratch)
            // Each part at least holds what it stores.
            #expect(memory.pages >= rows * 19, "pages \(memory.pages)")
            #expect(memory.idIndex >= rows * 8, "id index \(memory.idIndex)")
            #expect(memory.textArena >= utf8.count, "text arena \(memory.textArena)")
            // The input arrays are still alive here, on top of the store.
            #expect(b1 - b0 >= memory.total, "allocated grew \(b1 - b0), store holds \(memory.total)")
            withExtendedLifetime((ids, kinds, utf8, offsets)) {}
            store._checkInvariants()
            // A sample of lookups and texts at this size.
            for i in stride(from: 0, to: rows, by: 997) {
                #expect(store.index(of: ids[i]) == i)
                #expect(try store.text(ofRow: i, slot: 0) == "Transaction \(i) EUR")
            }
            #expect(store.index(of: 1) == nil)
            _ = consume store
        }
        // Everything this test allocated is freed again, to within jemalloc's caches.
        let b2 = MemoryStatistics.threadBalance()
        #expect(b2 - b0 < 1 << 20, "this thread kept \(b2 - b0) bytes after the store (\(total) bytes) was freed")
    }
}
