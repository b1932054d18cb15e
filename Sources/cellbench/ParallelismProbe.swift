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
/// - `compute`: eight independent chains of shifts, rotations, additions and exclusive ors
///   in registers, each chain different (so they are not turned into one vector chain):
///   about 20 one-cycle operations an iteration against a chain latency of 3 cycles, more
///   than the core's integer units issue, so a second thread on the same physical core
///   (SMT siblings) halves each one's rate, as time the host takes from a virtual core
///   does. (A chain of multiplies, latency-bound, would not see a shared core: two such
///   threads interleave on one.)
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

    /// Both workloads, each on one and then on two threads; `units` sets the work (at the
    /// default, 30–100 ms per workload and round on one thread here).
    static func run(units: Int = 96) -> ParallelismProbe {
        let table = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: tableWords)
        defer { table.deallocate() }
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        for i in table.indices {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17
            table[i] = x
        }
        let computeUnit = 1 << 18, memoryUnit = 1 << 18
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
        @inline(__always) func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { x << k | x >> (64 - k) }
        var (a, b, c, d) = (seed | 1, seed &+ 3, seed &+ 5, seed &+ 7)
        var (e, f, g, h) = (seed &+ 11, seed &+ 13, seed &+ 17, seed &+ 19)
        for _ in 0..<iterations {
            a = (a << 7 &+ a) ^ 0x5555
            b = (b >> 11 ^ b) &+ 0x3333
            c = rotl(c, 13) &+ 0x1111
            d = (d &+ d << 3) ^ d >> 29
            e = rotl(e, 55) ^ 0x7777
            f = (f ^ f << 23) &+ 0x2222
            g = (g &+ 0x4444) ^ g >> 17
            h = rotl(h, 21) ^ (h &+ 0x6666)
        }
        return a ^ b ^ c ^ d ^ e ^ f ^ g ^ h
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
