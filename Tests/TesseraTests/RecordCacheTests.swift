import Testing
@testable import Tessera

/// The byte-record cache behind the prepared-text and line-break caches, against a model
/// (a dictionary of what was inserted): every hit returns exactly the payload inserted
/// under its key, the budget holds, the newest record is always present, and a record
/// looked up since the hand last passed it survives the next sweep (CLOCK's second chance).
@Suite struct RecordCacheTests {
    struct Key: RecordCacheKey {
        var a: UInt64
        var b: UInt64
        var cacheHash: UInt64 { mix64(a ^ (b &* 0x9E37_79B9_7F4A_7C15)) }
    }

    /// Payload of `size` bytes derived from the key, so a wrong record is detected.
    static func fill(_ p: UnsafeMutableRawPointer, _ key: Key, _ size: Int) {
        for i in 0..<size { p.storeBytes(of: UInt8(truncatingIfNeeded: key.a &+ UInt64(i) &* 31), toByteOffset: i, as: UInt8.self) }
    }

    static func matches(_ p: UnsafeRawPointer, _ key: Key, _ size: Int) -> Bool {
        (0..<size).allSatisfy { p.load(fromByteOffset: $0, as: UInt8.self) == UInt8(truncatingIfNeeded: key.a &+ UInt64($0) &* 31) }
    }

    @Test(arguments: [4096, 20_000, 1 << 20])
    func randomOperationsAgreeWithTheModel(budget: Int) {
        var rng = SplitMix64(seed: UInt64(budget))
        var cache = RecordCache<Key>(budget: budget)
        defer { cache.deallocate() }
        var sizes: [UInt64: Int] = [:]  // key.a → payload size, for every key ever inserted
        var newest: Key? = nil
        for step in 0..<6000 {
            let key = Key(a: UInt64(rng.int(0...400)), b: 7)
            let size = sizes[key.a] ?? rng.int(0...300)
            if let p = cache.lookup(key) {
                #expect(Self.matches(p, key, size), "step \(step): wrong payload for key \(key.a)")
            } else if let p = cache.insert(key, payloadBytes: size) {
                Self.fill(p, key, size)
                sizes[key.a] = size
                newest = key
            }
            if let newest { #expect(cache.lookup(newest) != nil, "step \(step): the newest record was evicted") }
            #expect(cache.statistics.bytes <= budget)
            if step % 97 == 0 { cache._checkInvariants() }
        }
        let s = cache.statistics
        #expect(s.hits > 0 && s.misses > 0)
        if budget < 1 << 20 { #expect(s.evictions > 0) } else { #expect(s.evictions == 0) }
        cache._checkInvariants()
        cache.removeAll()
        #expect(cache.statistics.entries == 0 && cache.lookup(Key(a: 1, b: 7)) == nil)
        cache._checkInvariants()
    }

    @Test func referencedRecordsGetASecondChance() {
        var cache = RecordCache<Key>(budget: 8192)
        defer { cache.deallocate() }
        // Fill with 64-byte payloads, touch key 0, then insert until 39 records were
        // evicted: the untouched originals went, key 0 got its second chance.
        for a in 0..<40 { _ = cache.insert(Key(a: UInt64(a), b: 1), payloadBytes: 64) }
        #expect(cache.lookup(Key(a: 0, b: 1)) != nil)
        var a: UInt64 = 100
        while cache.statistics.evictions < 39 {  // every untouched original, once
            _ = cache.insert(Key(a: a, b: 1), payloadBytes: 64)
            a += 1
        }
        #expect(cache.lookup(Key(a: 0, b: 1)) != nil)
        #expect(cache.lookup(Key(a: 1, b: 1)) == nil)
        cache._checkInvariants()
    }

    @Test func oversizedRecordsAndZeroBudgetsBypass() {
        var small = RecordCache<Key>(budget: 2048)
        defer { small.deallocate() }
        #expect(small.insert(Key(a: 1, b: 1), payloadBytes: 4096) == nil)
        #expect(small.statistics.bypasses == 1 && small.statistics.entries == 0)
        var off = RecordCache<Key>(budget: 0)
        #expect(!off.isEnabled && off.insert(Key(a: 1, b: 1), payloadBytes: 8) == nil && off.lookup(Key(a: 1, b: 1)) == nil)
    }
}
