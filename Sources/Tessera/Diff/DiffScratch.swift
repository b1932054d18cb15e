/// A growable scratch array for the differ. Every diff overwrites what it uses before
/// reading it, so growing frees and allocates instead of copying, and the buffer keeps its
/// size between calls: repeated diffs of similar size allocate nothing.
struct DiffScratch<Element: BitwiseCopyable>: ~Copyable {
    private(set) var base: UnsafeMutablePointer<Element>?
    private(set) var capacity = 0

    init() {}

    deinit { if let base { Jemalloc.free(UnsafeMutableRawPointer(base)) } }

    /// At least `count` elements, contents undefined.
    mutating func reserve(_ count: Int) -> UnsafeMutablePointer<Element> {
        if let base, count <= capacity { return base }
        // 1.5x keeps a run of slowly growing diffs from reallocating every time.
        let c = max(count, capacity + capacity / 2, 16)
        release()
        let p = Jemalloc.allocate(bytes: c * MemoryLayout<Element>.stride).bindMemory(to: Element.self, capacity: c)
        base = p
        capacity = c
        return p
    }

    mutating func release() {
        if let base { Jemalloc.free(UnsafeMutableRawPointer(base)) }
        base = nil
        capacity = 0
    }

    mutating func swapStorage(with other: inout DiffScratch<Element>) {
        (base, other.base) = (other.base, base)
        (capacity, other.capacity) = (other.capacity, capacity)
    }

    var allocatedBytes: Int { base.map { Jemalloc.usableSize(UnsafeMutableRawPointer($0)) } ?? 0 }
}
