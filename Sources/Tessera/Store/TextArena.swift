import CJemalloc

/// One growable UTF-8 buffer holding every row's text slots, so a row's text costs a
/// 4-byte reference and no heap object.
///
/// A row's record sits at a 4-byte aligned offset: `UInt32 slotCount`, then the end offset
/// of each slot (`UInt32`, relative to the first text byte), then the bytes. A reference is
/// the record offset / 4, which addresses 16 GiB. Reference 0 is the shared empty record.
/// Removed rows leave dead records behind; the store compacts when they outweigh live ones.
struct TextArena: ~Copyable {
    var base: UnsafeMutableRawPointer
    var capacity: Int
    var used: Int
    var deadBytes: Int = 0

    static let maximumBytes = Int(UInt32.max) * 4

    init(capacity: Int = 256) {
        self.capacity = max(capacity, 64)
        base = Jemalloc.allocate(bytes: self.capacity)
        base.storeBytes(of: 0, as: UInt32.self)  // the empty record
        used = 4
    }

    deinit { Jemalloc.free(base) }

    var allocatedBytes: Int { Jemalloc.usableSize(base) }
    var liveBytes: Int { used - deadBytes }

    @inline(__always)
    static func recordSize(slotCount: Int, textBytes: Int) -> Int {
        (4 + 4 * slotCount + textBytes + 3) & ~3
    }

    @inline(__always)
    func slotCount(_ ref: UInt32) -> Int {
        Int(base.load(fromByteOffset: Int(ref) * 4, as: UInt32.self))
    }

    func recordSize(_ ref: UInt32) -> Int {
        let offset = Int(ref) * 4
        let slots = Int(base.load(fromByteOffset: offset, as: UInt32.self))
        let textBytes = slots == 0 ? 0 : Int(base.load(fromByteOffset: offset + 4 * slots, as: UInt32.self))
        return Self.recordSize(slotCount: slots, textBytes: textBytes)
    }

    /// The UTF-8 bytes of slot `slot` of the record; empty past its last slot.
    func bytes(_ ref: UInt32, slot: Int) -> UnsafeRawBufferPointer { TextRecord(UnsafeRawPointer(base) + Int(ref) * 4).bytes(slot: slot) }

    mutating func reserve(additional bytes: Int) {
        let needed = used + bytes
        guard needed > capacity else { return }
        var newCapacity = capacity
        while newCapacity < needed { newCapacity *= 2 }
        base = Jemalloc.reallocate(base, bytes: newCapacity)
        capacity = newCapacity
    }

    /// Appends a record whose slot `s` is `text[offsets[s] ..< offsets[s + 1]]`; the
    /// offsets were validated by the caller. Rows with no text share reference 0.
    mutating func append(text: UnsafeRawPointer, offsets: UnsafePointer<Int>, slotCount: Int) -> UInt32 {
        let first = offsets[0], textBytes = offsets[slotCount] - first
        guard slotCount > 0, textBytes > 0 else { return 0 }
        let size = Self.recordSize(slotCount: slotCount, textBytes: textBytes)
        reserve(additional: size)
        let record = used
        base.storeBytes(of: UInt32(slotCount), toByteOffset: record, as: UInt32.self)
        for s in 0..<slotCount {
            base.storeBytes(of: UInt32(offsets[s + 1] - first), toByteOffset: record + 4 + 4 * s, as: UInt32.self)
        }
        (base + record + 4 + 4 * slotCount).copyMemory(from: text + first, byteCount: textBytes)
        used += size
        return UInt32(record / 4)
    }

    /// Copies a record of another arena (compaction).
    mutating func append(record ref: UInt32, from other: borrowing TextArena) -> UInt32 {
        guard ref != 0 else { return 0 }
        let size = other.recordSize(ref)
        reserve(additional: size)
        let record = used
        (base + record).copyMemory(from: other.base + Int(ref) * 4, byteCount: size)
        used += size
        return UInt32(record / 4)
    }

    /// Starts loading a record's header.
    @inline(__always) func prefetch(_ ref: UInt32) { tess_prefetch(base + Int(ref) * 4) }

    mutating func release(_ ref: UInt32) {
        if ref != 0 { deadBytes += recordSize(ref) }
    }
}

/// One row's record in a `TextArena` (the layout above), read in place.
struct TextRecord {
    let start: UnsafeRawPointer

    init(_ start: UnsafeRawPointer) { self.start = start }

    /// The UTF-8 bytes of slot `slot`; empty outside the record's slots.
    @inline(__always)
    func bytes(slot: Int) -> UnsafeRawBufferPointer {
        let slots = Int(start.load(as: UInt32.self))
        guard slot >= 0, slot < slots else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        let ends = start + 4
        let from = slot == 0 ? 0 : Int(ends.load(fromByteOffset: 4 * (slot - 1), as: UInt32.self))
        let end = Int(ends.load(fromByteOffset: 4 * slot, as: UInt32.self))
        return UnsafeRawBufferPointer(start: ends + 4 * slots + from, count: end - from)
    }
}

/// A row's record as its page refers to it, found only when its bytes are read.
struct TextRecordReference {
    let arena: UnsafeRawPointer
    let reference: UnsafePointer<UInt32>

    @inline(__always)
    var record: TextRecord { TextRecord(arena + Int(reference.pointee) &* 4) }
}
