import Benchmark

/// The configuration every suite starts from.
///
/// Metrics: wall clock and throughput (reported, never checked: the machines here are
/// shared and noisy); the malloc count and the bytes requested through malloc
/// (package-benchmark's interposer: malloc, calloc, realloc, posix_memalign and
/// aligned_alloc, so Swift's arrays, strings, objects and boxes; not Tessera's pages, tree
/// nodes, arena and caches, which come from jemalloc's `mallocx`); and ARC traffic
/// (retains, releases, Swift objects allocated). Perf counters (instructions) are not
/// available on these machines. The peak resident memory is left out: its sampling thread
/// allocates while the benchmark runs, and the interposer counts every thread's mallocs.
///
/// `make bench-check` compares only `mallocCountTotal`, against `Thresholds/`: a count is
/// deterministic (one thread, fixed inputs), so any change, up or down, fails the check
/// until the thresholds are updated (`make bench-thresholds`).
public enum Suite {
    public static let metrics: [BenchmarkMetric] = [
        .wallClock, .throughput, .mallocCountTotal, .mallocBytesCount,
    ]

    public static func configuration(
        scalingFactor: BenchmarkScalingFactor = .kilo, maxDuration: Duration = .seconds(2), maxIterations: Int = 100,
        warmupIterations: Int = 2
    ) -> Benchmark.Configuration {
        .init(
            metrics: metrics,
            warmupIterations: warmupIterations,
            scalingFactor: scalingFactor,
            maxDuration: maxDuration,
            maxIterations: maxIterations
        )
    }
}
