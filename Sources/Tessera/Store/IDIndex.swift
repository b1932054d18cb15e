import CJemalloc

/// id → page lookup: open addressing with linear probing over one flat jemalloc buffer.
///
/// An entry is 8 bytes, `fingerprint << 32 | (page + 1)` (0 is empty), where the
/// fingerprint is the upper half of the id's hash and alone decides the home slot
/// (`fingerprint * capacity >> 32`). The id itself is not stored: the page holds it, and a
/// lookup confirms a fingerprint match by finding the id in that page. Because equal
/// fingerprints mean equal homes, two entries with the same fingerprint and page are
/// interchangeable, so re-pointing "an" entry when a row changes pages is always right,
/// and deletion can shift entries back (no tombstones) by recomputing homes.
/// Rows do not change pages when others are inserted beside them, so only page splits and
/// merges touch the index, never an insertion's neighbours.
struct IDIndex: ~Copyable {
    var slots: UnsafeMutablePointer<UInt64>
    var capacity: Int
    var count: Int = 0
    let seed: UInt64

    static let maximumLoad = 0.8
    static let reservedLoad = 0.75

    init(capacity: Int = 16, seed: UInt64) {
        self.capacity = max(capacity, 16)
        self.slots = Self.allocateSlots(self.capacity)
        self.seed = seed
    }

    deinit { Jemalloc.free(slots) }

    private static func allocateSlots(_ n: Int) -> UnsafeMutablePointer<UInt64> {
        Jemalloc.allocate(bytes: n * 8, zeroed: true).bindMemory(to: UInt64.self, capacity: n)
    }

    var allocatedBytes: Int { Jemalloc.usableSize(UnsafeMutableRawPointer(slots)) }

    @inline(__always)
    func fingerprint(_ id: UInt64) -> UInt64 {
        // Keyed per store so crafted ids cannot force collisions.
        mix64(id ^ seed) >> 32
    }

    @inline(__always)
    func home(_ fingerprint: UInt64) -> Int { Int((fingerprint &* UInt64(capacity)) >> 32) }

    @inline(__always)
    func next(_ i: Int) -> Int { i + 1 == capacity ? 0 : i + 1 }

    @inline(__always)
    static func page(_ entry: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: entry) &- 1 }

    /// Starts loading the cache line where a probe for `id` begins.
    @inline(__always)
    func prefetch(_ id: UInt64) { tess_prefetch(slots + home(fingerprint(id))) }

    /// Starts loading the two cache lines from where a probe for `id` begins: a removal
    /// scans on to the end of the entry's cluster, which at the index's load (0.75–0.8)
    /// often lies in the next line (a third and fourth line measured no better).
    @inline(__always)
    func prefetchForRemoval(_ id: UInt64) {
        let i = home(fingerprint(id))
        tess_prefetch(slots + i)
        tess_prefetch(slots + min(i + 8, capacity - 1))
    }

    /// The page holding `id`, or nil. `pageHolds(page)` confirms a fingerprint match.
    func page(of id: UInt64, where pageHolds: (UInt32) -> Bool) -> UInt32? {
        let fp = fingerprint(id)
        var i = home(fp)
        while true {
            let e = slots[i]
            if e == 0 { return nil }
            if e >> 32 == fp, pageHolds(Self.page(e)) { return Self.page(e) }
            i = next(i)
        }
    }

    /// Adds `id` on `page`; the caller has checked that `id` is absent.
    mutating func insert(_ id: UInt64, page: UInt32) {
        if Double(count + 1) > Double(capacity) * Self.maximumLoad { rehash(capacity: capacity * 2) }
        place(fingerprint(id) << 32 | UInt64(page &+ 1))
        count += 1
    }

    @inline(__always)
    func place(_ entry: UInt64) {
        var i = home(entry >> 32)
        while slots[i] != 0 { i = next(i) }
        slots[i] = entry
    }

    /// Adds `id` on `page` unless an entry for it exists; `pageHolds(q)` says whether page
    /// `q`, met under the same fingerprint, holds `id` already. False for a duplicate.
    mutating func insertIfAbsent(_ id: UInt64, page: UInt32, where pageHolds: (UInt32) -> Bool) -> Bool {
        if Double(count + 1) > Double(capacity) * Self.maximumLoad { rehash(capacity: capacity * 2) }
        let fp = fingerprint(id)
        var i = home(fp)
        while slots[i] != 0 {
            if slots[i] >> 32 == fp, pageHolds(Self.page(slots[i])) { return false }
            i = next(i)
        }
        slots[i] = fp << 32 | UInt64(page &+ 1)
        count += 1
        return true
    }

    /// The slot of an entry for `id` that points at `page`.
    func slot(of id: UInt64, page: UInt32) -> Int {
        let target = fingerprint(id) << 32 | UInt64(page &+ 1)
        var i = home(target >> 32)
        while slots[i] != target {
            precondition(slots[i] != 0, "IDIndex: id \(id) is not indexed on page \(page)")
            i = next(i)
        }
        return i
    }

    /// Re-points `id` from page `old` to page `new` after its row moved.
    mutating func move(_ id: UInt64, from old: UInt32, to new: UInt32) {
        let i = slot(of: id, page: old)
        slots[i] = slots[i] & 0xFFFF_FFFF_0000_0000 | UInt64(new &+ 1)
    }

    /// Removes `id`, which is on `page`, shifting later entries of its cluster back.
    mutating func remove(_ id: UInt64, page: UInt32) {
        var hole = slot(of: id, page: page)
        var j = hole
        while true {
            j = next(j)
            let e = slots[j]
            if e == 0 { break }
            let h = home(e >> 32)
            // An entry may fill the hole unless its home lies cyclically in (hole, j].
            let stays = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j)
            if !stays {
                slots[hole] = e
                hole = j
            }
        }
        slots[hole] = 0
        count -= 1
    }

    /// Makes room for `total` entries without growing again.
    mutating func reserve(_ total: Int) {
        guard Double(total) > Double(capacity) * Self.maximumLoad else { return }
        rehash(capacity: Int((Double(total) / Self.reservedLoad).rounded(.up)))
    }

    mutating func rehash(capacity newCapacity: Int) {
        precondition(newCapacity < 1 << 32, "IDIndex: more than 2^32 slots")
        let old = slots, oldCapacity = capacity
        slots = Self.allocateSlots(newCapacity)
        capacity = newCapacity
        for i in 0..<oldCapacity where old[i] != 0 { place(old[i]) }
        Jemalloc.free(old)
    }

    mutating func removeAll() {
        slots.update(repeating: 0, count: capacity)
        count = 0
    }
}
