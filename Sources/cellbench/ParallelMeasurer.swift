#if canImport(Glibc)
import Glibc
#endif
import Dispatch
@_spi(Benchmarks) import Tessera

/// Measures all rows with one `CellMeasurer` (and its own `TextLayoutEngine`) per thread,
/// each over a contiguous part of the rows: what `ListEngine.measureAll(threads:)` does,
/// kept to one method (`measureAll`) so the suite can switch to the engine's.
final class ParallelMeasurer {
    let profile: Profile
    let caches: TextLayoutEngine.Configuration
    private(set) var measurers: [CellMeasurer]
    private(set) var environment: LayoutEnvironment

    /// - Parameter copies: loads the profile again for each thread after the first, so the
    ///   threads share no font or font chain object (whose reference counts every text
    ///   layout updates); nil shares `profile`.
    init(profile: Profile, environment: LayoutEnvironment, threads: Int, caches: TextLayoutEngine.Configuration,
         copies: (() throws -> Profile)? = nil) throws {
        self.profile = profile
        self.caches = caches
        self.environment = environment
        measurers = try (0..<max(1, threads)).map { i in
            let p = i == 0 ? profile : try copies?() ?? profile
            return try CellMeasurer(profile: p, environment: environment, textEngine: TextLayoutEngine(configuration: caches))
        }
    }

    var threads: Int { measurers.count }

    func setEnvironment(_ environment: LayoutEnvironment) throws {
        for m in measurers { try m.setEnvironment(environment) }
        self.environment = environment
    }

    /// Heights of every row into `heights` (points); returns the wall time in nanoseconds.
    /// With `trusted` the measurers do not check the rows' UTF-8 (the suite validated every
    /// row first, as the row store does on insert, so the engine need not check again).
    func measureAll(_ rows: CellRows, into heights: UnsafeMutableBufferPointer<Double>, trusted: Bool = true) -> UInt64 {
        precondition(heights.count >= rows.count)
        let parts = min(threads, max(1, rows.count))
        let spr = rows.slotsPerRow
        let cpu = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: parts)
        cpu.initialize(repeating: 0)
        defer {
            lastThreadCPU = Array(cpu)
            cpu.deallocate()
        }
        return rows.withColumns { kinds, utf8, offsets in
            let input = Unchecked((kinds, utf8, offsets, heights, measurers, cpu))
            let start = MonotonicClock.now()
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                let (kinds, utf8, offsets, heights, measurers, cpu) = input.value
                let cpuStart = Self.threadCPU()
                defer { cpu[part] = Self.threadCPU() &- cpuStart }
                let lo = kinds.count * part / parts, hi = kinds.count * (part + 1) / parts
                guard lo < hi else { return }
                do {
                    try measurers[part].heights(
                        kinds: UnsafeBufferPointer(rebasing: kinds[lo..<hi]), utf8: utf8,
                        offsets: UnsafeBufferPointer(rebasing: offsets[(lo * spr)...(hi * spr)]), slotsPerRow: spr,
                        into: UnsafeMutableBufferPointer(rebasing: heights[lo..<hi]), rowsAreValidUTF8: trusted)
                } catch {
                    fatalError("heights of rows \(lo)..<\(hi): \(error)")
                }
            }
            return MonotonicClock.now() &- start
        }
    }

    struct Statistics {
        var segments = CacheStatistics()
        var preparedTexts = CacheStatistics()
        var lineBreaks = CacheStatistics()
    }

    /// CPU time (ns) each thread spent in the last `measureAll`, by part.
    private(set) var lastThreadCPU: [UInt64] = []

    /// The calling thread's CPU time in nanoseconds.
    static func threadCPU() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// The caches of all threads' engines, summed.
    var statistics: Statistics {
        var total = Statistics()
        func add(_ a: inout CacheStatistics, _ b: CacheStatistics) {
            a.hits += b.hits
            a.misses += b.misses
            a.evictions += b.evictions
            a.entries += b.entries
            a.bytes += b.bytes
            a.budget += b.budget
            a.bypasses += b.bypasses
        }
        for m in measurers {
            let s = m.textEngine.statistics
            add(&total.segments, s.segments)
            add(&total.preparedTexts, s.preparedTexts)
            add(&total.lineBreaks, s.lineBreaks)
        }
        return total
    }
}

struct Unchecked<T>: @unchecked Sendable {
    var value: T
    init(_ value: T) { self.value = value }
}
