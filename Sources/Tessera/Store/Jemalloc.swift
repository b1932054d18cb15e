import CJemalloc

/// Large buffers (row pages, summary nodes, the id index, the text arena) come from
/// jemalloc with 64-byte alignment, so a column starts on a cache line and
/// `stats.allocated` accounts for every byte the store holds.
enum Jemalloc {
    static let alignment = 64

    static func allocate(bytes: Int, zeroed: Bool = false) -> UnsafeMutableRawPointer {
        let flags = zeroed ? tess_mallocx_align_zeroed(alignment) : tess_mallocx_align(alignment)
        guard let p = mallocx(max(bytes, 1), flags) else { outOfMemory(bytes) }
        return p
    }

    /// Grows or shrinks in place when jemalloc can, otherwise moves the bytes.
    static func reallocate(_ p: UnsafeMutableRawPointer, bytes: Int) -> UnsafeMutableRawPointer {
        guard let q = rallocx(p, max(bytes, 1), tess_mallocx_align(alignment)) else { outOfMemory(bytes) }
        return q
    }

    static func free(_ p: UnsafeMutableRawPointer) {
        dallocx(p, tess_mallocx_align(alignment))
    }

    /// Room for `capacity` values of `T` (uninitialized), for the buffers whose size
    /// follows the data or a cache budget: cache indexes, scratch, prepared-text columns.
    /// Free with `free(_:)`. Swift's `allocate(capacity:)` would take them from
    /// `aligned_alloc` (jemalloc's too, since it is the process's malloc), header-less
    /// blocks that malloc interposers (package-benchmark's) cannot tell from their own.
    static func allocate<T>(_: T.Type, capacity: Int) -> UnsafeMutablePointer<T> {
        allocate(bytes: max(capacity, 1) * MemoryLayout<T>.stride).bindMemory(to: T.self, capacity: max(capacity, 1))
    }

    static func free<T>(_ p: UnsafeMutablePointer<T>) {
        free(UnsafeMutableRawPointer(p))
    }

    /// The bytes jemalloc really reserved for `p` (its size class).
    static func usableSize(_ p: UnsafeMutableRawPointer) -> Int {
        sallocx(p, tess_mallocx_align(alignment))
    }

    static func outOfMemory(_ bytes: Int) -> Never {
        fatalError("Tessera: jemalloc could not allocate \(bytes) bytes")
    }
}

/// jemalloc's own accounting of the process: bytes handed out and bytes resident.
public struct MemoryStatistics: Sendable, Equatable {
    /// `stats.allocated`: bytes in live allocations (size classes included).
    public var allocated: Int
    /// `stats.resident`: bytes in physically resident pages jemalloc maps.
    public var resident: Int

    /// Reads the statistics after refreshing jemalloc's cached totals (`epoch`).
    public static func current() -> MemoryStatistics {
        var epoch: UInt64 = 1, advanced: UInt64 = 0
        var size = MemoryLayout<UInt64>.size
        _ = mallctl("epoch", &advanced, &size, &epoch, MemoryLayout<UInt64>.size)
        return MemoryStatistics(allocated: read("stats.allocated"), resident: read("stats.resident"))
    }

    /// Bytes the calling thread has allocated minus the bytes it has freed since it
    /// started (jemalloc's `thread.allocated` - `thread.deallocated`): other threads'
    /// work does not move it, so the difference across a stretch of code is what that
    /// code kept.
    public static func threadBalance() -> Int {
        read64("thread.allocated") &- read64("thread.deallocated")
    }

    private static func read64(_ name: String) -> Int {
        var value: UInt64 = 0
        var size = MemoryLayout<UInt64>.size
        return mallctl(name, &value, &size, nil, 0) == 0 ? Int(truncatingIfNeeded: value) : 0
    }

    private static func read(_ name: String) -> Int {
        var value = 0
        var size = MemoryLayout<Int>.size
        return mallctl(name, &value, &size, nil, 0) == 0 ? value : -1
    }
}
