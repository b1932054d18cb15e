import CJemalloc

/// Statistics of one bounded cache.
public struct CacheStatistics: Sendable, Equatable, CustomStringConvertible {
    public var hits = 0
    public var misses = 0
    /// Entries removed to make room.
    public var evictions = 0
    /// Entries now held.
    public var entries = 0
    /// Bytes now held by entries (as the cache accounts them); never above `budget`.
    public var bytes = 0
    /// The configured byte budget (0 disables the cache).
    public var budget = 0
    /// Lookups that could not be cached at all (segment cache: segments longer than its key
    /// capacity; others: a single entry larger than the budget).
    public var bypasses = 0

    public init() {}

    public var description: String {
        "hits \(hits), misses \(misses), evictions \(evictions), entries \(entries), bytes \(bytes)/\(budget), bypasses \(bypasses)"
    }
}

/// A segment's measurement, independent of the layout width.
struct SegmentMeasure {
    /// Width in points without trailing whitespace (letter spacing included).
    var width: Double
    /// Width of the trailing spaces (line terminators count 0), letter spacing included.
    var whitespaceWidth: Double
    /// Bytes before the trailing whitespace and line terminators.
    var contentLength: Int
}

/// (style identity, segment bytes) → `SegmentMeasure`.
///
/// Storage: one arena of fixed 96-byte slots, each a 40-byte header (hash, style identity,
/// width, whitespace width, length, content length, reference bit) followed by up to
/// `keyCapacity` (56) key bytes, plus an open-addressing index of 32-bit slot numbers
/// (linear probing, at most half full, backward-shift deletion). The index starts at
/// `initialIndexCount` entries and doubles as slots fill, up to `maxIndexCount`: sized for
/// the budget from the start, a 128 MiB cache holding 80,000 segments spread them over a
/// 16 MiB index (a line of it for nearly every lookup, and 16 MiB zeroed on first use).
/// Segments longer than `keyCapacity` bytes are measured every time and not stored
/// (counted as bypasses), as Minikin's layout cache skips long runs. Eviction is CLOCK over the slots: a hit sets the
/// slot's reference bit; the hand clears set bits and evicts the first slot whose bit is
/// clear. `budget` bounds arena + index; the arena is allocated on first insert.
///
/// A lookup hashes the bytes, probes the index and compares hash, style, length and bytes
/// (`memcmp`): no allocation and no String on the hit path.
struct SegmentCache {
    static let slotStride = 96
    static let headerSize = 40
    static let keyCapacity = slotStride - headerSize

    static let initialIndexCount = 1 << 12

    let budget: Int
    let slotCount: Int
    /// The index's size at the most (which the budget accounts for).
    let maxIndexCount: Int
    /// The index's size now: a power of two, at least twice the filled slots or `maxIndexCount`.
    private(set) var indexCount = 0
    private var arena: UnsafeMutableRawPointer? = nil
    private var index: UnsafeMutablePointer<UInt32>? = nil
    private var filled = 0
    private var hand = 0
    var statistics = CacheStatistics()

    init(budget: Int) {
        self.budget = max(0, budget)
        // Largest slot count whose arena plus index (power of two >= 2 × slots) fits.
        var slots = self.budget / (Self.slotStride + 8)
        var indexSize = 1
        while slots > 0 {
            indexSize = 1
            while indexSize < 2 * slots { indexSize <<= 1 }
            if slots * Self.slotStride + indexSize * 4 <= self.budget { break }
            slots -= max(1, slots / 16)
        }
        slotCount = max(0, slots)
        maxIndexCount = slotCount > 0 ? indexSize : 0
        statistics.budget = self.budget
    }

    var isEnabled: Bool { slotCount > 0 }

    /// Frees the storage (the owner's deinit calls this).
    mutating func deallocate() {
        if let arena { Jemalloc.free(arena) }
        if let index { Jemalloc.free(index) }
        arena = nil
        index = nil
        indexCount = 0
        filled = 0
        hand = 0
        statistics.entries = 0
        statistics.bytes = 0
    }

    @inline(__always)
    static func hash(_ p: UnsafeRawPointer, _ n: Int, style: UInt64) -> UInt64 {
        // Short keys (most words) in a few overlapping loads, wyhash-style: 1–3 bytes as
        // first, middle and last; 4–7 as two 4-byte words; 8–16 as two 8-byte words; longer
        // keys fold 16 bytes per 128-bit multiply, then the last 16.
        var a: UInt64 = 0, b: UInt64 = 0
        var seed = style ^ 0xA076_1D64_78BD_642F
        if n >= 8 {
            var i = 0
            while n - i > 16 {
                seed = mum(p.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ 0xE703_7ED1_A0B4_28DB,
                           p.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self) ^ seed)
                i += 16
            }
            // The last 16 bytes (all of them up to 16): `max(i, n - 16)` read past the key
            // when the loop stopped 8 or fewer bytes before its end (found by the C ABI
            // fuzzer: a 20-byte key at the end of the host's buffer).
            a = p.loadUnaligned(fromByteOffset: n > 16 ? n - 16 : 0, as: UInt64.self)
            b = p.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
        } else if n >= 4 {
            a = UInt64(p.loadUnaligned(as: UInt32.self)) << 32 | UInt64(p.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self))
        } else if n > 0 {
            a = UInt64(p.load(as: UInt8.self)) << 16 | UInt64(p.load(fromByteOffset: n >> 1, as: UInt8.self)) << 8
                | UInt64(p.load(fromByteOffset: n - 1, as: UInt8.self))
        }
        return mum(a ^ 0xE703_7ED1_A0B4_28DB ^ UInt64(n), b ^ seed ^ 0x8EBC_6AF0_9C88_C6E3) ^ seed
    }

    @inline(__always)
    private func slot(_ s: Int) -> UnsafeMutableRawPointer {
        arena.unsafelyUnwrapped + s * Self.slotStride
    }

    /// Hints the memory system that the index bucket of hash `h` is about to be read.
    @inline(__always)
    func prefetchIndex(_ h: UInt64) {
        guard let index else { return }
        tess_prefetch(index + (Int(truncatingIfNeeded: h) & (indexCount - 1)))
    }

    /// Hints that the slot in the first index bucket of hash `h` is about to be read.
    @inline(__always)
    func prefetchSlot(_ h: UInt64) {
        guard let index else { return }
        let entry = index[Int(truncatingIfNeeded: h) & (indexCount - 1)]
        if entry != 0 { tess_prefetch(slot(Int(entry - 1))) }
    }

    // Header layout: 0 hash, 8 style, 16 width, 24 whitespace width, 32 length (UInt16),
    // 34 content length (UInt16), 36 reference bit (UInt8).

    /// The cached measure of `n` bytes at `p` in style `style` with hash `h`, or nil.
    mutating func lookup(_ p: UnsafeRawPointer, _ n: Int, style: UInt64, hash h: UInt64) -> SegmentMeasure? {
        guard let index else {
            statistics.misses += 1
            return nil
        }
        let mask = indexCount - 1
        var i = Int(truncatingIfNeeded: h) & mask
        while true {
            let entry = index[i]
            if entry == 0 { break }
            let s = slot(Int(entry - 1))
            if s.load(as: UInt64.self) == h, s.load(fromByteOffset: 8, as: UInt64.self) == style,
               Int(s.load(fromByteOffset: 32, as: UInt16.self)) == n,
               memcmpBytes(s + Self.headerSize, p, n) {
                s.storeBytes(of: 1, toByteOffset: 36, as: UInt8.self)
                statistics.hits += 1
                return SegmentMeasure(
                    width: s.load(fromByteOffset: 16, as: Double.self),
                    whitespaceWidth: s.load(fromByteOffset: 24, as: Double.self),
                    contentLength: Int(s.load(fromByteOffset: 34, as: UInt16.self)))
            }
            i = (i + 1) & mask
        }
        statistics.misses += 1
        return nil
    }

    /// Stores a measure after a missed lookup (`n <= keyCapacity`).
    mutating func insert(_ p: UnsafeRawPointer, _ n: Int, style: UInt64, hash h: UInt64, _ m: SegmentMeasure) {
        guard slotCount > 0, n <= Self.keyCapacity else { return }
        if arena == nil {
            arena = Jemalloc.allocate(bytes: slotCount * Self.slotStride)
            indexCount = Swift.min(Self.initialIndexCount, maxIndexCount)
            let idx = Jemalloc.allocate(UInt32.self, capacity: indexCount)
            idx.initialize(repeating: 0, count: indexCount)
            index = idx
        }
        let target: Int
        if filled < slotCount {
            if 2 * (filled + 1) > indexCount && indexCount < maxIndexCount { growIndex() }
            target = filled
            filled += 1
            statistics.entries += 1
            statistics.bytes += Self.slotStride
        } else {
            // CLOCK: second chance for referenced slots.
            while slot(hand).load(fromByteOffset: 36, as: UInt8.self) != 0 {
                slot(hand).storeBytes(of: 0, toByteOffset: 36, as: UInt8.self)
                hand = hand + 1 == slotCount ? 0 : hand + 1
            }
            target = hand
            hand = hand + 1 == slotCount ? 0 : hand + 1
            removeFromIndex(target)
            statistics.evictions += 1
        }
        let s = slot(target)
        s.storeBytes(of: h, as: UInt64.self)
        s.storeBytes(of: style, toByteOffset: 8, as: UInt64.self)
        s.storeBytes(of: m.width, toByteOffset: 16, as: Double.self)
        s.storeBytes(of: m.whitespaceWidth, toByteOffset: 24, as: Double.self)
        s.storeBytes(of: UInt16(n), toByteOffset: 32, as: UInt16.self)
        s.storeBytes(of: UInt16(m.contentLength), toByteOffset: 34, as: UInt16.self)
        s.storeBytes(of: 0, toByteOffset: 36, as: UInt8.self)
        (s + Self.headerSize).copyMemory(from: p, byteCount: n)
        let mask = indexCount - 1
        var i = Int(truncatingIfNeeded: h) & mask
        let idx = index.unsafelyUnwrapped
        while idx[i] != 0 { i = (i + 1) & mask }
        idx[i] = UInt32(target + 1)
    }

    /// Doubles the index, every filled slot indexed again by its hash.
    private mutating func growIndex() {
        let count = indexCount * 2, mask = count - 1
        let idx = Jemalloc.allocate(UInt32.self, capacity: count)
        idx.initialize(repeating: 0, count: count)
        for t in 0..<filled {
            var i = Int(truncatingIfNeeded: slot(t).load(as: UInt64.self)) & mask
            while idx[i] != 0 { i = (i + 1) & mask }
            idx[i] = UInt32(t + 1)
        }
        Jemalloc.free(index.unsafelyUnwrapped)
        index = idx
        indexCount = count
    }

    private mutating func removeFromIndex(_ target: Int) {
        let idx = index.unsafelyUnwrapped
        let mask = indexCount - 1
        var i = Int(truncatingIfNeeded: slot(target).load(as: UInt64.self)) & mask
        while idx[i] != UInt32(target + 1) { i = (i + 1) & mask }
        idx[i] = 0
        var j = i
        while true {
            j = (j + 1) & mask
            let e = idx[j]
            if e == 0 { return }
            let home = Int(truncatingIfNeeded: slot(Int(e - 1)).load(as: UInt64.self)) & mask
            let move = i <= j ? (home <= i || home > j) : (home <= i && home > j)
            if move {
                idx[i] = e
                idx[j] = 0
                i = j
            }
        }
    }

    /// Recomputes entry counts and checks that every stored slot is found by its key.
    func _checkInvariants() {
        #if TESSERA_INVARIANTS
        precondition(statistics.bytes <= budget)
        precondition(statistics.entries == filled)
        guard let index else { return }
        var indexed = 0
        for i in 0..<indexCount where index[i] != 0 { indexed += 1 }
        precondition(indexed == filled, "segment cache index holds \(indexed) of \(filled) slots")
        let mask = indexCount - 1
        for t in 0..<filled {
            var i = Int(truncatingIfNeeded: slot(t).load(as: UInt64.self)) & mask
            while index[i] != UInt32(t + 1) {
                precondition(index[i] != 0, "segment cache slot \(t) unreachable from its hash")
                i = (i + 1) & mask
            }
        }
        #endif
    }
}

/// The high and low halves of a 128-bit product, folded.
@inline(__always)
func mum(_ x: UInt64, _ y: UInt64) -> UInt64 {
    let r = x.multipliedFullWidth(by: y)
    return r.high ^ r.low
}

/// Whether `n` bytes at `a` and `b` are equal: 8-byte words, the last one overlapping the
/// one before; below 8 bytes two overlapping 4-byte words, or bytes.
@inline(__always)
func memcmpBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ n: Int) -> Bool {
    if n >= 8 {
        var i = 0
        while i + 8 < n {
            if a.loadUnaligned(fromByteOffset: i, as: UInt64.self) != b.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
            i += 8
        }
        return a.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self) == b.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
    }
    if n >= 4 {
        return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
            && a.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self) == b.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
    }
    var i = 0
    while i < n {
        if a.load(fromByteOffset: i, as: UInt8.self) != b.load(fromByteOffset: i, as: UInt8.self) { return false }
        i += 1
    }
    return true
}
