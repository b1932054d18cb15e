import CJemalloc

/// A key of a `RecordCache`: a plain value compared as a whole, with a well-mixed hash.
protocol RecordCacheKey: BitwiseCopyable, Equatable {
    var cacheHash: UInt64 { get }
}

/// A bounded map from fixed-size keys to variable-size byte records, with CLOCK eviction.
///
/// **Storage.** One ring arena of records, each `[key][UInt32 size][UInt32 referenced]
/// [payload]`, 8-byte aligned and written at the head, plus an open-addressing index
/// (linear probing, at most 3/4 full, backward-shift deletion) of 64-bit entries: the key
/// hash's high 32 bits, which also choose the home bucket and are compared before a record
/// is touched, and the record's offset / 8 + 1. The arena is allocated on the first insert;
/// the index starts small and doubles with the records (up to a quarter of `budget`), so
/// memory touched follows what is stored, not the budget. Arena and largest index together
/// fit `budget`.
///
/// **Eviction** works at the tail, the oldest record: a referenced record gets a second
/// chance (its bit is cleared and it moves to the head; the free gap lies just before it,
/// so this is one `memmove`), an unreferenced one is dropped. This is CLOCK with the records
/// kept in hand order, so a record needs no slot of a fixed size and no list pointers.
///
/// A lookup allocates nothing and returns the payload, valid until the next insert;
/// `insert` returns the payload for the caller to fill.
struct RecordCache<Key: RecordCacheKey> {
    static var headerSize: Int { MemoryLayout<Key>.stride + 8 }

    let budget: Int
    private let arenaBytes: Int
    private let maximumIndexCount: Int
    private var indexCount = 0
    private var arena: UnsafeMutableRawPointer? = nil
    private var index: UnsafeMutablePointer<UInt64>? = nil
    /// Records occupy `[tail, head)`, or `[tail, wrapEnd) ∪ [0, head)` when wrapped.
    private var head = 0
    private var tail = 0
    private var wrapEnd = 0
    private var wrapped = false
    /// Bytes of live records.
    private var used = 0
    var statistics = CacheStatistics()

    init(budget: Int) {
        self.budget = max(0, budget)
        var entries = 16
        while entries * 2 * 8 <= self.budget / 4 { entries *= 2 }
        let arena = (self.budget - entries * 8) & ~7
        if self.budget >= 1024 && arena > 0 {
            maximumIndexCount = entries
            arenaBytes = arena
        } else {
            maximumIndexCount = 0
            arenaBytes = 0
        }
        statistics.budget = self.budget
    }

    var isEnabled: Bool { arenaBytes > 0 }
    private var maximumEntries: Int { maximumIndexCount / 4 * 3 }
    private var indexBytes: Int { index == nil ? 0 : indexCount * 8 }

    /// Frees the storage (the owner's deinit calls this).
    mutating func deallocate() {
        if let arena { Jemalloc.free(arena) }
        if let index { Jemalloc.free(index) }
        arena = nil
        index = nil
        reset()
    }

    /// Drops every record and keeps the storage.
    mutating func removeAll() {
        index?.update(repeating: 0, count: indexCount)
        reset()
    }

    private mutating func reset() {
        head = 0
        tail = 0
        wrapEnd = 0
        wrapped = false
        used = 0
        statistics.entries = 0
        statistics.bytes = indexBytes
    }

    @inline(__always) private static func tag(_ h: UInt64) -> UInt64 { h & 0xFFFF_FFFF_0000_0000 }
    @inline(__always) private func home(_ entry: UInt64) -> Int { Int(truncatingIfNeeded: entry >> 32) & (indexCount - 1) }
    @inline(__always) private static func entry(_ h: UInt64, _ offset: Int) -> UInt64 { tag(h) | UInt64(offset >> 3 + 1) }
    @inline(__always) private func offset(_ entry: UInt64) -> Int { (Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1) << 3 }
    @inline(__always) private func size(at offset: Int) -> Int {
        Int(arena.unsafelyUnwrapped.load(fromByteOffset: offset + MemoryLayout<Key>.stride, as: UInt32.self))
    }

    /// Hints the memory system that `key` is about to be looked up.
    @inline(__always)
    func prefetch(_ h: UInt64) {
        guard let index else { return }
        tess_prefetch(index + home(Self.tag(h)))
    }

    /// The payload stored under `key`, or nil. Marks the record referenced.
    @inline(__always)
    mutating func lookup(_ key: Key) -> UnsafeRawPointer? {
        guard let index else {
            statistics.misses += 1
            return nil
        }
        let h = key.cacheHash, t = Self.tag(h), mask = indexCount - 1
        var i = home(t)
        while true {
            let e = index[i]
            if e == 0 { break }
            if Self.tag(e) == t {
                let record = arena.unsafelyUnwrapped + offset(e)
                if record.load(as: Key.self) == key {
                    record.storeBytes(of: 1, toByteOffset: MemoryLayout<Key>.stride + 4, as: UInt32.self)
                    statistics.hits += 1
                    return UnsafeRawPointer(record + Self.headerSize)
                }
            }
            i = (i + 1) & mask
        }
        statistics.misses += 1
        return nil
    }

    /// Stores a record of `payloadBytes` under `key` (after a missed lookup) and returns its
    /// payload to fill before the next call; nil when the cache is off or the record would
    /// not fit the arena (counted as a bypass).
    mutating func insert(_ key: Key, payloadBytes: Int) -> UnsafeMutableRawPointer? {
        let size = (Self.headerSize + payloadBytes + 7) & ~7
        guard size <= arenaBytes else {
            if isEnabled { statistics.bypasses += 1 }
            return nil
        }
        if arena == nil {
            arena = Jemalloc.allocate(bytes: arenaBytes)
            growIndex(to: min(1024, maximumIndexCount))
        }
        if statistics.entries >= indexCount / 4 * 3 && indexCount < maximumIndexCount {
            growIndex(to: indexCount * 2)
        }
        while true {
            if statistics.entries >= maximumEntries {
                evictAtTail()
            } else if !wrapped {
                if head + size <= arenaBytes { break }
                if statistics.entries == 0 {
                    head = 0
                    tail = 0
                } else {
                    wrapped = true
                    wrapEnd = head
                    head = 0
                }
            } else {
                if head + size <= tail { break }
                evictAtTail()
            }
        }
        let record = arena.unsafelyUnwrapped + head
        record.storeBytes(of: key, as: Key.self)
        record.storeBytes(of: UInt32(size), toByteOffset: MemoryLayout<Key>.stride, as: UInt32.self)
        record.storeBytes(of: 0, toByteOffset: MemoryLayout<Key>.stride + 4, as: UInt32.self)
        let idx = index.unsafelyUnwrapped, mask = indexCount - 1
        let e = Self.entry(key.cacheHash, head)
        var i = home(e)
        while idx[i] != 0 { i = (i + 1) & mask }
        idx[i] = e
        head += size
        used += size
        statistics.entries += 1
        statistics.bytes = used + indexBytes
        return record + Self.headerSize
    }

    /// Replaces the index by one of `count` buckets holding every record. An entry's home
    /// comes from its own tag, so the old index is enough: no record is read, and taken in
    /// order the entries land near `i` or `i + old count`, two sequential streams.
    private mutating func growIndex(to count: Int) {
        let idx = Jemalloc.allocate(UInt64.self, capacity: count)
        idx.initialize(repeating: 0, count: count)
        let mask = count - 1
        if let old = index {
            for k in 0..<indexCount where old[k] != 0 {
                let e = old[k]
                var i = Int(truncatingIfNeeded: e >> 32) & mask
                while idx[i] != 0 { i = (i + 1) & mask }
                idx[i] = e
            }
            Jemalloc.free(old)
        }
        index = idx
        indexCount = count
        statistics.bytes = used + indexBytes
    }

    /// Gives the tail record its second chance or drops it.
    private mutating func evictAtTail() {
        let a = arena.unsafelyUnwrapped
        let from = tail, size = size(at: from)
        let record = a + from
        let h = record.load(as: Key.self).cacheHash
        if record.load(fromByteOffset: MemoryLayout<Key>.stride + 4, as: UInt32.self) != 0 {
            record.storeBytes(of: 0, toByteOffset: MemoryLayout<Key>.stride + 4, as: UInt32.self)
            if !wrapped && head + size > arenaBytes {
                wrapped = true
                wrapEnd = head
                head = 0
            }
            // Wrapped, the gap [head, tail) ends where the record starts, so the ranges may
            // overlap; unwrapped, the head lies past it.
            if head != from { (a + head).copyMemory(from: record, byteCount: size) }
            replaceInIndex(Self.entry(h, from), with: Self.entry(h, head))
            head += size
        } else {
            removeFromIndex(Self.entry(h, from))
            used -= size
            statistics.entries -= 1
            statistics.evictions += 1
            statistics.bytes = used + indexBytes
        }
        tail += size
        if wrapped && tail == wrapEnd {
            wrapped = false
            tail = 0
        }
        if statistics.entries == 0 {
            head = 0
            tail = 0
            wrapped = false
        }
    }

    private func slot(of e: UInt64) -> Int {
        let idx = index.unsafelyUnwrapped, mask = indexCount - 1
        var i = home(e)
        while idx[i] != e { i = (i + 1) & mask }
        return i
    }

    private mutating func replaceInIndex(_ old: UInt64, with new: UInt64) {
        index.unsafelyUnwrapped[slot(of: old)] = new
    }

    private mutating func removeFromIndex(_ e: UInt64) {
        let idx = index.unsafelyUnwrapped, mask = indexCount - 1
        var i = slot(of: e)
        idx[i] = 0
        var j = i
        while true {
            j = (j + 1) & mask
            let f = idx[j]
            if f == 0 { return }
            let h = home(f)
            if i <= j ? (h <= i || h > j) : (h <= i && h > j) {
                idx[i] = f
                idx[j] = 0
                i = j
            }
        }
    }

    /// Walks the records in age order and checks sizes, counts and that each is indexed.
    func _checkInvariants() {
        #if TESSERA_INVARIANTS
        precondition(statistics.bytes <= budget, "record cache over budget")
        guard let arena, let index else {
            precondition(statistics.entries == 0 && used == 0)
            return
        }
        var count = 0, bytes = 0
        func walk(_ from: Int, _ to: Int) {
            var o = from
            while o < to {
                let s = size(at: o)
                precondition(s >= Self.headerSize && s % 8 == 0 && o + s <= to, "record cache record at \(o) has size \(s)")
                let e = Self.entry((arena + o).load(as: Key.self).cacheHash, o)
                var i = home(e)
                while index[i] != e {
                    precondition(index[i] != 0, "record cache record at \(o) is not indexed")
                    i = (i + 1) & (indexCount - 1)
                }
                count += 1
                bytes += s
                o += s
            }
        }
        if wrapped {
            precondition(head <= tail && tail <= wrapEnd && wrapEnd <= arenaBytes)
            walk(tail, wrapEnd)
            walk(0, head)
        } else {
            precondition(tail <= head && head <= arenaBytes)
            walk(tail, head)
        }
        var indexed = 0
        for i in 0..<indexCount where index[i] != 0 { indexed += 1 }
        precondition(count == statistics.entries && indexed == count && bytes == used, "record cache holds \(count) records, \(indexed) indexed, \(statistics.entries) counted")
        precondition(statistics.bytes == used + indexBytes)
        #endif
    }
}
