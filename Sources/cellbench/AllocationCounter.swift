import CJemalloc

/// Counts heap allocations with jemalloc's statistics: the process's `malloc` is jemalloc's
/// (libjemalloc is linked, and Swift's runtime allocates through `malloc`), so every array
/// buffer and object the counted code creates is one `nmalloc` of a small or large size
/// class. While counting, the calling thread allocates from an arena of its own (created
/// once with `arenas.create`; jemalloc assigns threads only to its automatic arenas, so no
/// other thread's allocations land there) with its thread cache off (jemalloc counts a
/// cache's allocations only when it refills from an arena, so every allocation must reach
/// the arena). Both are restored afterwards. Counting is slower than the timed runs and done
/// apart from them.
enum AllocationCounter {
    /// Allocations the calling thread makes while `body` runs (other threads' do not
    /// count), or nil when this jemalloc keeps no statistics or has no arena to spare.
    static func count<E: Error>(_ body: () throws(E) -> Void) throws(E) -> Int? {
        guard readBool("config.stats") == true, let arena, let previous = readUInt32("thread.arena") else {
            try body()
            return nil
        }
        let cacheWasEnabled = readBool("thread.tcache.enabled") ?? false
        if cacheWasEnabled { write("thread.tcache.enabled", false) }
        write("thread.arena", arena.index)
        defer {
            write("thread.arena", previous)
            if cacheWasEnabled { write("thread.tcache.enabled", true) }
        }
        guard let before = allocations(arena) else { try body(); return nil }
        try body()
        guard let after = allocations(arena) else { return nil }
        return after - before
    }

    /// Small plus large allocations of the counting arena, after refreshing the
    /// statistics. Reading allocates nothing itself (readings before and after would
    /// otherwise count their own allocations): the names were resolved to MIBs once, and
    /// the MIBs and the name `epoch` live in buffers made once, so no String or Array is
    /// bridged to a C pointer here (an unoptimised build allocates for that).
    static func allocations(_ arena: Arena) -> Int? {
        var epoch: UInt64 = 1, advanced: UInt64 = 0
        var size = MemoryLayout<UInt64>.size
        guard mallctl(arena.epochName, &advanced, &size, &epoch, MemoryLayout<UInt64>.size) == 0 else { return nil }
        var total: UInt64 = 0
        for k in 0..<2 {
            var value: UInt64 = 0
            size = MemoryLayout<UInt64>.size
            guard mallctlbymib(arena.mibs + k * Arena.mibLength, Arena.mibLength, &value, &size, nil, 0) == 0 else { return nil }
            total &+= value
        }
        return Int(truncatingIfNeeded: total)
    }

    /// The counting arena, the MIBs of its `small.nmalloc` and `large.nmalloc` (one after
    /// the other), and the C string `epoch`. Made once, never freed.
    struct Arena: @unchecked Sendable {
        static let mibLength = 5
        var index: UInt32
        var mibs: UnsafeMutablePointer<Int>
        var epochName: UnsafeMutablePointer<CChar>
    }

    static let arena: Arena? = {
        var index: UInt32 = 0
        var size = MemoryLayout<UInt32>.size
        guard mallctl("arenas.create", &index, &size, nil, 0) == 0 else { return nil }
        // The statistics know an arena from the next refresh on; the MIB names arena 0 and
        // its third component is the arena index (jemalloc's documented MIB use).
        var epoch: UInt64 = 1
        _ = mallctl("epoch", nil, nil, &epoch, MemoryLayout<UInt64>.size)
        let mibs = UnsafeMutablePointer<Int>.allocate(capacity: 2 * Arena.mibLength)
        for (k, kind) in ["small", "large"].enumerated() {
            var length = Arena.mibLength
            guard mallctlnametomib("stats.arenas.0.\(kind).nmalloc", mibs + k * Arena.mibLength, &length) == 0,
                  length == Arena.mibLength
            else { return nil }
            mibs[k * Arena.mibLength + 2] = Int(index)
        }
        let name = Array("epoch".utf8CString)
        let epochName = UnsafeMutablePointer<CChar>.allocate(capacity: name.count)
        epochName.initialize(from: name, count: name.count)
        return Arena(index: index, mibs: mibs, epochName: epochName)
    }()

    private static func readUInt32(_ name: String) -> UInt32? {
        var value: UInt32 = 0
        var size = MemoryLayout<UInt32>.size
        return mallctl(name, &value, &size, nil, 0) == 0 ? value : nil
    }

    private static func readBool(_ name: String) -> Bool? {
        var value = false
        var size = MemoryLayout<Bool>.size
        return mallctl(name, &value, &size, nil, 0) == 0 ? value : nil
    }

    private static func write<T: BitwiseCopyable>(_ name: String, _ value: T) {
        var v = value
        _ = mallctl(name, nil, nil, &v, MemoryLayout<T>.size)
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
