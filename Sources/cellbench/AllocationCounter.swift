import CJemalloc

/// Counts heap allocations with jemalloc's statistics: the process's `malloc` is jemalloc's
/// (libjemalloc is linked, and Swift's runtime allocates through `malloc`), so every array
/// buffer and object the counted code creates is one `nmalloc` of a small or large size
/// class. jemalloc counts a thread cache's allocations only when it refills from or flushes
/// to an arena, so the calling thread's cache is disabled while counting (every allocation
/// then reaches an arena) and enabled again afterwards. Counting is therefore slower than
/// the timed runs, and done apart from them.
enum AllocationCounter {
    /// Allocations made while `body` runs (by any thread: run nothing else meanwhile), or
    /// nil when this jemalloc keeps no statistics.
    static func count<E: Error>(_ body: () throws(E) -> Void) throws(E) -> Int? {
        guard readBool("config.stats") == true else { try body(); return nil }
        let wasEnabled = readBool("thread.tcache.enabled") ?? false
        if wasEnabled { writeBool("thread.tcache.enabled", false) }
        defer { if wasEnabled { writeBool("thread.tcache.enabled", true) } }
        guard let before = allocations() else { try body(); return nil }
        try body()
        guard let after = allocations() else { return nil }
        return after - before
    }

    /// Small plus large allocations of all arenas, after refreshing the statistics. The
    /// names are resolved to MIBs once, so a reading allocates nothing itself (a reading
    /// before and one after would otherwise count their own name strings).
    static func allocations() -> Int? {
        guard let mibs = mibs else { return nil }
        var epoch: UInt64 = 1, advanced: UInt64 = 0
        var size = MemoryLayout<UInt64>.size
        guard mallctl("epoch", &advanced, &size, &epoch, MemoryLayout<UInt64>.size) == 0 else { return nil }
        var total: UInt64 = 0
        for mib in mibs {
            var value: UInt64 = 0
            size = MemoryLayout<UInt64>.size
            guard mallctlbymib(mib, mib.count, &value, &size, nil, 0) == 0 else { return nil }
            total &+= value
        }
        return Int(truncatingIfNeeded: total)
    }

    /// `stats.arenas.<all>.small.nmalloc` and `.large.nmalloc` as MIBs.
    private static let mibs: [[Int]]? = {
        let names = ["small", "large"].map { "stats.arenas.\(MALLCTL_ARENAS_ALL).\($0).nmalloc" }
        var result: [[Int]] = []
        for name in names {
            var mib = [Int](repeating: 0, count: 8)
            var length = mib.count
            guard mallctlnametomib(name, &mib, &length) == 0 else { return nil }
            result.append(Array(mib.prefix(length)))
        }
        return result
    }()

    private static func readBool(_ name: String) -> Bool? {
        var value = false
        var size = MemoryLayout<Bool>.size
        return mallctl(name, &value, &size, nil, 0) == 0 ? value : nil
    }

    private static func writeBool(_ name: String, _ value: Bool) {
        var v = value
        _ = mallctl(name, nil, nil, &v, MemoryLayout<Bool>.size)
    }
}

extension AllocationCounter {
    /// Whether counting works here: nothing counted for an empty body, one allocation for
    /// one array buffer.
    static func calibrate() -> Bool {
        let none = count {}
        let one = count { blackHole([Int](repeating: 7, count: 100).count) }
        return none == 0 && one == 1
    }
}
