/// One page of rows: five columns side by side in a single 64-byte aligned block of
/// `capacity * rowBytes` bytes (10 KiB at the default 512 rows, an exact jemalloc size
/// class). Rows `0..<count` are live.
struct Page {
    /// Bytes per row: id 8, height 4, kind 2, flags 2, text reference 4.
    static let rowBytes = 20

    let base: UnsafeMutableRawPointer
    let capacity: Int

    @inline(__always) init(_ base: UnsafeMutableRawPointer, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    // Heights, kinds and flags first: a window query reads them with the ids, and keeping
    // them within the same 4 KiB of the block saves a TLB miss per page it touches.
    @inline(__always) var heights: UnsafeMutablePointer<UInt32> { base.assumingMemoryBound(to: UInt32.self) }
    @inline(__always) var kinds: UnsafeMutablePointer<UInt16> {
        (base + 4 * capacity).assumingMemoryBound(to: UInt16.self)
    }
    @inline(__always) var flags: UnsafeMutablePointer<UInt16> {
        (base + 6 * capacity).assumingMemoryBound(to: UInt16.self)
    }
    @inline(__always) var ids: UnsafeMutablePointer<UInt64> {
        (base + 8 * capacity).assumingMemoryBound(to: UInt64.self)
    }
    @inline(__always) var text: UnsafeMutablePointer<UInt32> {
        (base + 16 * capacity).assumingMemoryBound(to: UInt32.self)
    }

    static func allocate(capacity: Int) -> Page {
        Page(Jemalloc.allocate(bytes: capacity * rowBytes), capacity: capacity)
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
        (heights + to).update(from: source.heights + from, count: n)
        (kinds + to).update(from: source.kinds + from, count: n)
        (flags + to).update(from: source.flags + from, count: n)
        (text + to).update(from: source.text + from, count: n)
    }

    /// Sum of the heights of rows `from..<to`, in 1/64 pt.
    func heightSum(_ from: Int, _ to: Int) -> Int64 {
        var sum: UInt64 = 0
        let h = heights
        for i in from..<to { sum &+= UInt64(h[i]) }
        return Int64(sum)
    }
}
