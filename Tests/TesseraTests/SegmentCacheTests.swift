import Testing
@testable import Tessera

/// The segment cache against a model (a dictionary of every measure inserted): a hit
/// returns exactly the measure inserted for its bytes and style, the newest entry is always
/// found, and with room for every key nothing inserted is ever lost, through the index's
/// doublings from `initialIndexCount` to its budget's size and through evictions.
@Suite struct SegmentCacheTests {
    struct Key: Hashable {
        var bytes: [UInt8]
        var style: UInt64
    }

    /// A measure derived from the key, so a wrong entry is detected.
    static func measure(_ k: Key) -> SegmentMeasure {
        let h = k.bytes.reduce(k.style) { $0 &* 31 &+ UInt64($1) }
        return SegmentMeasure(width: Double(h % 10_000) / 8, whitespaceWidth: Double(h % 7), contentLength: k.bytes.count - Int(h % 2))
    }

    static func same(_ a: SegmentMeasure, _ b: SegmentMeasure) -> Bool {
        a.width == b.width && a.whitespaceWidth == b.whitespaceWidth && a.contentLength == b.contentLength
    }

    /// 2,048 bytes: 19 slots, an index of 64 from the start, evictions; 256 KiB: 2,363
    /// slots, the index doubling once (4,096 → 8,192), then evictions; 1 MiB: 9,452 slots,
    /// the index doubling from 4,096 to 32,768, room for all 9,000 keys.
    @Test(arguments: [2048, 256 << 10, 1 << 20])
    func randomOperationsAgreeWithTheModel(budget: Int) {
        var rng = SplitMix64(seed: UInt64(budget) ^ 0x5E6)
        var cache = SegmentCache(budget: budget)
        defer { cache.deallocate() }
        #expect(cache.indexCount == 0 && cache.maxIndexCount >= 2 * cache.slotCount)
        var keys: [Key] = [], distinct = Set<Key>()
        while keys.count < 9_000 {
            let key = Key(bytes: (0..<rng.int(1...SegmentCache.keyCapacity)).map { _ in UInt8(truncatingIfNeeded: rng.int(0...255)) }, style: UInt64(rng.int(1...2)))
            if distinct.insert(key).inserted { keys.append(key) }
        }
        var inserted = Set<Int>()
        var newest: Int? = nil
        func lookup(_ i: Int) -> SegmentMeasure? {
            keys[i].bytes.withUnsafeBytes { b in
                cache.lookup(b.baseAddress!, b.count, style: keys[i].style, hash: SegmentCache.hash(b.baseAddress!, b.count, style: keys[i].style))
            }
        }
        var sizes = Set<Int>()
        for step in 0..<40_000 {
            // First every key once, in order (so the index grows through every size), then
            // keys at random.
            let i = step < keys.count ? step : rng.int(0...(keys.count - 1))
            if let m = lookup(i) {
                #expect(inserted.contains(i) && Self.same(m, Self.measure(keys[i])), "step \(step): key \(i)")
            } else {
                let evictionsBefore = cache.statistics.evictions
                #expect(!inserted.contains(i) || evictionsBefore > 0, "step \(step): key \(i) lost without an eviction")
                keys[i].bytes.withUnsafeBytes { b in
                    cache.insert(b.baseAddress!, b.count, style: keys[i].style,
                                 hash: SegmentCache.hash(b.baseAddress!, b.count, style: keys[i].style), Self.measure(keys[i]))
                }
                inserted.insert(i)
                newest = i
            }
            if let newest { #expect(lookup(newest) != nil, "step \(step): the newest entry is not found") }
            #expect(cache.statistics.bytes <= budget)
            sizes.insert(cache.indexCount)
            if step % 211 == 0 { cache._checkInvariants() }
        }
        cache._checkInvariants()
        let s = cache.statistics
        #expect(s.hits > 0 && s.misses > 0)
        if cache.slotCount >= keys.count {
            #expect(s.evictions == 0 && s.entries == keys.count)
        } else {
            #expect(s.evictions > 0)
        }
        // The index grew by doubling, from its first size to the one its entries need.
        let expected = sequence(first: Swift.min(SegmentCache.initialIndexCount, cache.maxIndexCount)) { $0 < cache.maxIndexCount ? $0 * 2 : nil }
            .prefix { $0 <= Swift.max(cache.indexCount, 1) }
        #expect(sizes.subtracting([0]) == Set(expected), "index sizes \(sizes.sorted())")
        #expect(2 * s.entries <= cache.indexCount || cache.indexCount == cache.maxIndexCount)
    }
}
