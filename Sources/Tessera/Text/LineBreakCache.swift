/// A text's identity in cache keys: two independent 64-bit hashes of its UTF-8 bytes (so a
/// collision needs 128 bits to agree), its length and the style identity.
struct TextKey: Hashable {
    var hash1: UInt64
    var hash2: UInt64
    var length: Int
    var style: UInt64

    init(_ utf8: UnsafeRawBufferPointer, style: UInt64) {
        let n = utf8.count
        if let p = utf8.baseAddress {
            hash1 = hashTextBytes(p, n, seed: 0x243F_6A88_85A3_08D3, multiplier: 0xBF58_476D_1CE4_E5B9)
            hash2 = hashTextBytes(p, n, seed: 0x1319_8A2E_0370_7344, multiplier: 0x94D0_49BB_1331_11EB)
        } else {
            hash1 = 0
            hash2 = 0
        }
        length = n
        self.style = style
    }

    /// The fields are already hashes: feed one word instead of SipHashing four.
    func hash(into hasher: inout Hasher) {
        hasher.combine(hash1 ^ style &* 0x9E37_79B9_7F4A_7C15)
    }
}

/// A text, a style, a width and a line limit.
struct LineKey: Hashable {
    var text: TextKey
    var widthBits: UInt64
    var maxLines: Int

    func hash(into hasher: inout Hasher) {
        hasher.combine(text.hash1 ^ text.style &* 0x9E37_79B9_7F4A_7C15 ^ widthBits &* 0xBF58_476D_1CE4_E5B9 ^ UInt64(truncatingIfNeeded: maxLines))
    }
}

/// One segment of a prepared text (a span between two accepted line-break opportunities).
struct PreparedSegment {
    /// End offset (exclusive) of the segment; the next one starts here.
    var end: UInt32
    /// Where its trailing whitespace and line terminators start.
    var contentEnd: UInt32
    /// Width without trailing whitespace.
    var width: Double
    /// Width of the trailing spaces.
    var whitespaceWidth: Double
    /// The segment ends in a line terminator (a mandatory break after it).
    var isMandatory: Bool
}

/// The width-independent form of a text in a style: its segments in order. Re-laying out at
/// another width walks this list only (plus grapheme widths for words wider than the line
/// and for an ellipsized last line).
final class PreparedText {
    let segments: ContiguousArray<PreparedSegment>
    /// The widest segment (without trailing whitespace): a width at or above it never needs
    /// an emergency break.
    let widestSegment: Double

    init(segments: ContiguousArray<PreparedSegment>) {
        self.segments = segments
        widestSegment = segments.reduce(0) { max($0, $1.width) }
    }

    var cost: Int { 64 + segments.count * MemoryLayout<PreparedSegment>.stride }
}

/// A finished layout at one width and line limit.
final class LineResult {
    let lines: ContiguousArray<TextLine>
    let isTruncated: Bool
    let widest: Double

    init(lines: ContiguousArray<TextLine>, isTruncated: Bool) {
        self.lines = lines
        self.isTruncated = isTruncated
        widest = lines.reduce(0) { max($0, $1.width) }
    }

    var cost: Int { 64 + lines.count * MemoryLayout<TextLine>.stride }
}

/// A key of a `ClockCache`: equality plus a well-mixed 64-bit hash.
protocol ClockCacheKey: Equatable {
    var cacheHash: UInt64 { get }
}

extension TextKey: ClockCacheKey {
    @inline(__always) var cacheHash: UInt64 { hash1 ^ (style &* 0x9E37_79B9_7F4A_7C15) }
}

extension LineKey: ClockCacheKey {
    @inline(__always) var cacheHash: UInt64 {
        text.hash1 ^ (text.style &* 0x9E37_79B9_7F4A_7C15) ^ (widthBits &* 0xBF58_476D_1CE4_E5B9) ^ (UInt64(truncatingIfNeeded: maxLines) &* 0x94D0_49BB_1331_11EB)
    }
}

/// A bounded map from keys to reference-typed values with CLOCK eviction: each entry costs
/// its value's byte cost plus `entryOverhead` (key, table slot, bookkeeping); a hit sets the
/// entry's reference bit; inserting past the budget sweeps the hand, clearing set bits and
/// evicting entries whose bit is clear. A value larger than the whole budget is not stored.
///
/// The index is an open-addressing table of entry numbers (linear probing, at most half
/// full, backward-shift deletion) over the keys' own hashes: no `Hasher`, no allocation on
/// a lookup.
struct ClockCache<Key: ClockCacheKey, Value: AnyObject> {
    static var entryOverhead: Int { 48 + MemoryLayout<Key>.stride }

    private struct Entry {
        var key: Key
        var value: Value
        var hash: UInt64
        var cost: Int
        var referenced: Bool
    }

    let budget: Int
    /// 0: empty bucket; otherwise an index into `entries` plus one.
    private var index: [Int32] = []
    private var entries: [Entry?] = []
    private var free: [Int] = []
    private var hand = 0
    var statistics = CacheStatistics()

    init(budget: Int) {
        self.budget = max(0, budget)
        statistics.budget = self.budget
    }

    @inline(__always)
    private static func home(_ h: UInt64, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: h ^ (h >> 29)) & mask
    }

    /// The entry holding `key`, or nil.
    @inline(__always)
    private func find(_ key: Key, _ h: UInt64) -> Int? {
        let count = index.count
        guard count > 0 else { return nil }
        return index.withUnsafeBufferPointer { idx -> Int? in
            entries.withUnsafeBufferPointer { ents -> Int? in
                let mask = count - 1
                var i = Self.home(h, mask)
                while true {
                    let e = Int(idx[i])
                    if e == 0 { return nil }
                    if let entry = ents[e - 1], entry.hash == h, entry.key == key { return e - 1 }
                    i = (i + 1) & mask
                }
            }
        }
    }

    mutating func lookup(_ key: Key) -> Value? {
        if let i = find(key, key.cacheHash) {
            entries[i]!.referenced = true
            statistics.hits += 1
            return entries[i].unsafelyUnwrapped.value
        }
        statistics.misses += 1
        return nil
    }

    private mutating func removeFromIndex(_ entry: Int, hash h: UInt64) {
        let mask = index.count - 1
        index.withUnsafeMutableBufferPointer { idx in
            var i = Self.home(h, mask)
            while Int(idx[i]) != entry + 1 { i = (i + 1) & mask }
            idx[i] = 0
            var j = i
            while true {
                j = (j + 1) & mask
                let e = Int(idx[j])
                if e == 0 { return }
                let home = Self.home(entries[e - 1].unsafelyUnwrapped.hash, mask)
                let move = i <= j ? (home <= i || home > j) : (home <= i && home > j)
                if move {
                    idx[i] = idx[j]
                    idx[j] = 0
                    i = j
                }
            }
        }
    }

    private mutating func addToIndex(_ entry: Int, hash h: UInt64) {
        let mask = index.count - 1
        var i = Self.home(h, mask)
        while index[i] != 0 { i = (i + 1) & mask }
        index[i] = Int32(entry + 1)
    }

    private mutating func growIndexIfNeeded() {
        guard 2 * (statistics.entries + 1) > index.count else { return }
        let size = max(16, index.count * 2)
        index = [Int32](repeating: 0, count: size)
        for (i, e) in entries.enumerated() {
            if let e { addToIndex(i, hash: e.hash) }
        }
    }

    mutating func insert(_ key: Key, _ value: Value, cost valueCost: Int) {
        let cost = valueCost + Self.entryOverhead
        guard cost <= budget else {
            statistics.bypasses += 1
            return
        }
        let h = key.cacheHash
        if let i = find(key, h) {  // replaced (not expected: inserts follow misses)
            statistics.bytes -= entries[i].unsafelyUnwrapped.cost
            removeFromIndex(i, hash: h)
            entries[i] = nil
            free.append(i)
            statistics.entries -= 1
        }
        while statistics.bytes + cost > budget {
            if hand >= entries.count { hand = 0 }
            if let e = entries[hand] {
                if e.referenced {
                    entries[hand]!.referenced = false
                } else {
                    removeFromIndex(hand, hash: e.hash)
                    statistics.bytes -= e.cost
                    statistics.entries -= 1
                    statistics.evictions += 1
                    entries[hand] = nil
                    free.append(hand)
                }
            }
            hand += 1
        }
        growIndexIfNeeded()
        let entry = Entry(key: key, value: value, hash: h, cost: cost, referenced: false)
        let slot: Int
        if let f = free.popLast() {
            entries[f] = entry
            slot = f
        } else {
            entries.append(entry)
            slot = entries.count - 1
        }
        addToIndex(slot, hash: h)
        statistics.bytes += cost
        statistics.entries += 1
    }

    mutating func removeAll() {
        index.removeAll()
        entries.removeAll()
        free.removeAll()
        hand = 0
        statistics.bytes = 0
        statistics.entries = 0
    }

    func _checkInvariants() {
        #if TESSERA_INVARIANTS
        var bytes = 0
        var count = 0
        for (i, e) in entries.enumerated() {
            guard let e else { continue }
            precondition(find(e.key, e.hash) == i, "clock cache entry \(i) not indexed")
            bytes += e.cost
            count += 1
        }
        precondition(count == index.reduce(0) { $0 + ($1 != 0 ? 1 : 0) } && count == statistics.entries)
        precondition(bytes == statistics.bytes && bytes <= budget)
        #endif
    }
}
