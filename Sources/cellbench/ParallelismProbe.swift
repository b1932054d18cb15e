import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// The machine's own two-thread speedup, measured in the same run as the engine's: a
/// trivially parallel workload (no shared data; the threads meet only at the start and the
/// join) timed on one thread and then split over two with `DispatchQueue.concurrentPerform`,
/// as `measureAll(threads:)` splits its rows. On a virtual machine whose two cores are not
/// always two free physical cores, this is the ceiling the engine's figure is read against.
///
/// Two workloads, because the engine both computes and reads memory:
/// - `compute`: four independent multiply–xorshift chains in registers (several
///   instructions a cycle, as the measuring loop runs); it shows time the host takes from
///   one virtual core, or a core shared with another.
/// - `memory`: hashed reads over one 64 MiB table, twice the L3, read by both threads (it
///   is never written, so the threads share no line that changes): one thread and two
///   threads touch the same memory, and what the two lose to each other is the shared
///   cache's and the memory's bandwidth.
struct ParallelismProbe {
    struct Figure {
        /// Wall time on one thread over wall time on two.
        var speedup: Double
        /// Both threads' CPU time together over the one thread's.
        var cpuRatio: Double
    }

    var compute: Figure
    var memory: Figure

    static let tableWords = 1 << 23

    /// Both workloads, each on one and then on two threads; `units` sets the work (about
    /// 0.1 s per workload and round on one thread at the default, on a 4 GHz core).
    static func run(units: Int = 96) -> ParallelismProbe {
        let table = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: tableWords)
        defer { table.deallocate() }
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        for i in table.indices {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17
            table[i] = x
        }
        let computeUnit = 1 << 20, memoryUnit = 1 << 18
        let compute = figure(units: units) { seed, count in Self.compute(seed: seed, iterations: count * computeUnit) }
        let shared = Unchecked(table)
        let memory = figure(units: units) { seed, count in Self.memory(shared.value, seed: seed, iterations: count * memoryUnit) }
        return ParallelismProbe(compute: compute, memory: memory)
    }

    /// `work(seed, units)` on one thread for all units, then on two threads for half each;
    /// three rounds, the median of each ratio (the first round also warms the table). The
    /// seed's lowest bit is the thread; the rest is the round, so no round's work is the
    /// same call as another's (which the optimizer would compute once).
    private static func figure(units: Int, _ work: @escaping @Sendable (UInt64, Int) -> UInt64) -> Figure {
        let cpu = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: 2)
        defer { cpu.deallocate() }
        let shared = Unchecked(cpu)
        var speedups: [Double] = [], cpuRatios: [Double] = []
        for round in 0..<3 as Range<UInt64> {
            let one = TimedCall.measure { blackHole(Int(truncatingIfNeeded: work(round << 1, units))) }
            let wall = MonotonicClock.time {
                DispatchQueue.concurrentPerform(iterations: 2) { t in
                    let start = ThreadCPUClock.now()
                    blackHole(Int(truncatingIfNeeded: work(round << 1 | UInt64(t), units / 2)))
                    shared.value[t] = ThreadCPUClock.now() &- start
                }
            }
            speedups.append(Double(one.wall) / Double(wall))
            cpuRatios.append(Double(cpu[0] &+ cpu[1]) / Double(one.cpu))
        }
        return Figure(speedup: speedups.sorted()[1], cpuRatio: cpuRatios.sorted()[1])
    }

    @inline(never)
    static func compute(seed: UInt64, iterations: Int) -> UInt64 {
        var a = seed | 1, b = seed &+ 3, c = seed &+ 5, d = seed &+ 7
        for _ in 0..<iterations {
            a = a &* 0x5851_F42D_4C95_7F2D &+ 1; a ^= a >> 29
            b = b &* 0x5851_F42D_4C95_7F2D &+ 3; b ^= b >> 29
            c = c &* 0x5851_F42D_4C95_7F2D &+ 5; c ^= c >> 29
            d = d &* 0x5851_F42D_4C95_7F2D &+ 7; d ^= d >> 29
        }
        return a ^ b ^ c ^ d
    }

    /// Reads at hashed positions, eight in flight per step (independent of each other, as
    /// the measuring loop's loads ahead are).
    @inline(never)
    static func memory(_ table: UnsafeMutableBufferPointer<UInt64>, seed: UInt64, iterations: Int) -> UInt64 {
        let mask = UInt64(table.count - 1)
        var sum: UInt64 = 0, x: UInt64 = 0x2545_F491_4F6C_DD1D ^ seed
        for _ in 0..<iterations / 8 {
            x = x &* 0x5851_F42D_4C95_7F2D &+ 1
            for k in 0..<8 as Range<UInt64> {
                sum &+= table[Int(truncatingIfNeeded: ((x >> (k &* 5)) &* 0x9E37_79B9) & mask)]
            }
        }
        return sum
    }
}
