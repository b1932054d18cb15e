import Benchmark
import CMallocxCounter

/// The configuration every suite starts from, and the measured region.
///
/// Metrics:
/// - wall clock and throughput: reported, never checked (the machines here are shared and
///   noisy);
/// - `mallocCountTotal` and `mallocBytesCount`, from package-benchmark's malloc interposer:
///   malloc, calloc, realloc, posix_memalign and aligned_alloc, that is Swift's arrays,
///   strings, objects, boxes and `UnsafeMutablePointer.allocate`;
/// - `mallocxCount` (below): Tessera's calls of jemalloc's `mallocx` and `rallocx` (pages,
///   tree nodes, text arena, id index, cache indexes and arenas, scratch and prepared-text
///   columns), which the interposer does not see. A region's heap allocations are the two
///   counts together.
///
/// ARC counts (retains, releases, objects) are not in the default set: on Linux with Swift
/// 6.3 the runtime's retain hook that package-benchmark installs for them crashes on some
/// pointers (ordo-one/benchmark#349; here in the progress bar and in profile loading), so
/// `make bench-arc` asks for them explicitly, without the progress bar and without the cell
/// suite. Perf counters (instructions) are not available on these machines. The peak
/// resident memory is left out: its sampling thread allocates while the benchmark runs,
/// and the interposer counts every thread's mallocs.
///
/// `make bench-check` compares `mallocCountTotal` and `mallocxCount` against `Thresholds/`: on one
/// thread with fixed inputs and a fixed number of iterations they are deterministic, so
/// any change, up or down, fails the check until the thresholds are updated
/// (`make bench-thresholds`).
public enum Suite {
    public static let metrics: [BenchmarkMetric] = [
        .wallClock, .throughput, .mallocCountTotal, .mallocBytesCount, .mallocxCount,
    ]

    /// `maxDuration` is generous so that the iteration count (`maxIterations`), and with it
    /// the distribution of the allocation counts, does not depend on the machine's speed.
    public static func configuration(
        scalingFactor: BenchmarkScalingFactor = .kilo, maxIterations: Int = 100, warmupIterations: Int = 2
    ) -> Benchmark.Configuration {
        .init(
            metrics: metrics,
            warmupIterations: warmupIterations,
            scalingFactor: scalingFactor,
            maxDuration: .seconds(60),
            maxIterations: maxIterations
        )
    }
}

extension BenchmarkMetric {
    /// Tessera's calls of jemalloc's `mallocx` and `rallocx` during the measured region
    /// (`CMallocxCounter`).
    public static let mallocxCount = BenchmarkMetric.custom("mallocxCount", polarity: .prefersSmaller, useScalingFactor: true)
}

extension Benchmark {
    /// Runs `body` as the measured region, with the `mallocx` and `rallocx` calls it made
    /// recorded (whatever the closure does before or after is not measured). Reading the
    /// count is one atomic load.
    @inline(__always)
    public func measured(_ body: () throws -> Void) rethrows {
        startMeasurement()
        let before = tess_bench_mallocx_calls()
        try body()
        let after = tess_bench_mallocx_calls()
        stopMeasurement()
        measurement(.mallocxCount, Int(after &- before))
    }
}
