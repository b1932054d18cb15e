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
    /// Measure through per-thread `CellTextBatch`es: each part's texts are prepared once
    /// (in the first pass, and again after a style change) and later passes lay them out
    /// from their kept segments. Without, every pass goes through the text engine's caches.
    let usesTextBatches: Bool
    /// One box per part, so each thread writes only its own.
    private final class BatchBox { var batch: CellTextBatch? }
    private let batches: [BatchBox]

    /// - Parameter copies: loads the profile again for each thread after the first, so the
    ///   threads share no font or font chain object (whose reference counts every text
    ///   layout updates); nil shares `profile`.
    init(profile: Profile, environment: LayoutEnvironment, threads: Int, caches: TextLayoutEngine.Configuration,
         copies: (() throws -> Profile)? = nil, textBatches: Bool = true) throws {
        usesTextBatches = textBatches
        batches = (0..<max(1, threads)).map { _ in BatchBox() }
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
    ///
    /// With `onlyChangedKinds`, rows of kinds whose layout the last `setEnvironment` did not
    /// change keep the heights `heights` holds (an engine keeps them in its store).
    func measureAll(_ rows: CellRows, into heights: UnsafeMutableBufferPointer<Double>, trusted: Bool = true,
                    onlyChangedKinds: Bool = false) -> UInt64 {
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
            let input = Unchecked((kinds, utf8, offsets, heights, measurers, cpu, self))
            let start = MonotonicClock.now()
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                let (kinds, utf8, offsets, heights, measurers, cpu, owner) = input.value
                let cpuStart = Self.threadCPU()
                defer { cpu[part] = Self.threadCPU() &- cpuStart }
                let lo = kinds.count * part / parts, hi = kinds.count * (part + 1) / parts
                guard lo < hi else { return }
                do {
                    let k = UnsafeBufferPointer(rebasing: kinds[lo..<hi]), o = UnsafeBufferPointer(rebasing: offsets[(lo * spr)...(hi * spr)])
                    let out = UnsafeMutableBufferPointer(rebasing: heights[lo..<hi])
                    let m = measurers[part]
                    if owner.usesTextBatches {
                        let box = owner.batches[part]
                        var batch = box.batch
                        if batch == nil || batch!.rowCount != hi - lo || !batch!.isCurrent(for: m) {
                            batch = try m.prepareTexts(kinds: k, utf8: utf8, offsets: o, slotsPerRow: spr, rowsAreValidUTF8: trusted)
                            box.batch = batch
                        }
                        try m.heights(kinds: k, utf8: utf8, offsets: o, slotsPerRow: spr, texts: batch!, into: out, rowsAreValidUTF8: trusted,
                                      onlyChangedKinds: onlyChangedKinds)
                    } else {
                        try m.heights(kinds: k, utf8: utf8, offsets: o, slotsPerRow: spr, into: out, rowsAreValidUTF8: trusted,
                                      onlyChangedKinds: onlyChangedKinds)
                    }
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

    /// Bytes held by the parts' text batches.
    var textBatchBytes: Int { batches.reduce(0) { $0 + ($1.batch?.bytes ?? 0) } }

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
