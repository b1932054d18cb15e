/// One page of rows: its columns side by side in one 64-byte aligned jemalloc block.
///
/// A row costs 19 bytes: height 3 (24 bits of 1/64 pt, in a 16-bit and an 8-bit plane so
/// both scan as plain vectors), kind 2, flags 2, id 8, text reference 4. The columns a
/// window query reads (height, kind, flags) come first, so they share the block's first
/// 4 KiB. `RowStore.defaultPageCapacity` rows fill a 10 KiB size class almost exactly.
/// Rows `0..<count` are live.
struct Page {
    static let rowBytes = 19

    let base: UnsafeMutableRawPointer
    let capacity: Int

    @inline(__always) init(_ base: UnsafeMutableRawPointer, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    static func bytes(capacity: Int) -> Int { idsOffset(capacity) + 12 * capacity }
    @inline(__always) static func idsOffset(_ capacity: Int) -> Int { (7 * capacity + 7) & ~7 }

    @inline(__always) var heightLow: UnsafeMutablePointer<UInt16> { base.assumingMemoryBound(to: UInt16.self) }
    @inline(__always) var heightHigh: UnsafeMutablePointer<UInt8> {
        (base + 2 * capacity).assumingMemoryBound(to: UInt8.self)
    }
    @inline(__always) var kinds: UnsafeMutablePointer<UInt16> {
        (base + 3 * capacity).assumingMemoryBound(to: UInt16.self)
    }
    @inline(__always) var flags: UnsafeMutablePointer<UInt16> {
        (base + 5 * capacity).assumingMemoryBound(to: UInt16.self)
    }
    @inline(__always) var ids: UnsafeMutablePointer<UInt64> {
        (base + Self.idsOffset(capacity)).assumingMemoryBound(to: UInt64.self)
    }
    @inline(__always) var text: UnsafeMutablePointer<UInt32> {
        (base + Self.idsOffset(capacity) + 8 * capacity).assumingMemoryBound(to: UInt32.self)
    }

    /// Row `i`'s height in 1/64 pt.
    @inline(__always) func height(_ i: Int) -> Int64 {
        Int64(heightLow[i]) | Int64(heightHigh[i]) << 16
    }

    @inline(__always) func setHeight(_ units: UInt32, _ i: Int) {
        heightLow[i] = UInt16(truncatingIfNeeded: units)
        heightHigh[i] = UInt8(truncatingIfNeeded: units >> 16)
    }

    /// Sum of the heights of rows `i ..< i + 8`.
    @inline(__always) func heightSum8(_ i: Int) -> Int64 {
        let low = UnsafeRawPointer(heightLow + i).loadUnaligned(as: SIMD8<UInt16>.self)
        let high = UnsafeRawPointer(heightHigh + i).loadUnaligned(as: SIMD8<UInt8>.self)
        return Int64(SIMD8<UInt32>(truncatingIfNeeded: low).wrappedSum())
            + Int64(SIMD8<UInt32>(truncatingIfNeeded: high).wrappedSum()) << 16
    }

    static func allocate(capacity: Int) -> Page {
        Page(Jemalloc.allocate(bytes: bytes(capacity: capacity)), capacity: capacity)
    }

    /// The slot of `id` among the first `count` rows, or -1.
    func slot(of id: UInt64, count: Int) -> Int {
        let ids = self.ids
        for i in 0..<count where ids[i] == id { return i }
        return -1
    }

    /// Copies `n` rows from `source[from...]` to `self[to...]`, every column (memmove-safe).
    func copyRows(from source: Page, at from: Int, to: Int, count n: Int) {
        guard n > 0 else { return }
        (ids + to).update(from: source.ids + from, count: n)
        (heightLow + to).update(from: source.heightLow + from, count: n)
        (heightHigh + to).update(from: source.heightHigh + from, count: n)
        (kinds + to).update(from: source.kinds + from, count: n)
        (flags + to).update(from: source.flags + from, count: n)
        (text + to).update(from: source.text + from, count: n)
    }

    /// Sum of the heights of rows `from..<to`, in 1/64 pt.
    func heightSum(_ from: Int, _ to: Int) -> Int64 {
        var low: UInt64 = 0, high: UInt64 = 0
        let l = heightLow, h = heightHigh
        for i in from..<to {
            low &+= UInt64(l[i])
            high &+= UInt64(h[i])
        }
        return Int64(low &+ high << 16)
    }
}
