import Dispatch
@_spi(Benchmarks) import Tessera

/// The suite's reference: every row measured by fresh `CellMeasurer`s (one with its own
/// `TextLayoutEngine` per thread, over contiguous parts of the rows) through the text
/// engines' caches alone, without prepared texts; the engine's heights must equal these.
final class ParallelMeasurer {
    let profile: Profile
    let caches: TextLayoutEngine.Configuration
    private(set) var measurers: [CellMeasurer]

    /// - Parameter copies: loads the profile again for each thread after the first, so the
    ///   threads share no font or font chain object (whose reference counts every text
    ///   layout updates); nil shares `profile`.
    init(profile: Profile, environment: LayoutEnvironment, threads: Int, caches: TextLayoutEngine.Configuration,
         copies: (() throws -> Profile)? = nil) throws {
        self.profile = profile
        self.caches = caches
        measurers = try (0..<max(1, threads)).map { i in
            let p = i == 0 ? profile : try copies?() ?? profile
            return try CellMeasurer(profile: p, environment: environment, textEngine: TextLayoutEngine(configuration: caches))
        }
    }

    var threads: Int { measurers.count }

    /// Heights of every row into `heights` (points); returns the wall time in nanoseconds.
    /// The measurers do not check the rows' UTF-8 (the suite validated every row first).
    func measureAll(_ rows: CellRows, into heights: UnsafeMutableBufferPointer<Double>) -> UInt64 {
        precondition(heights.count >= rows.count)
        let parts = min(threads, max(1, rows.count))
        let spr = rows.slotsPerRow
        return rows.withColumns { kinds, utf8, offsets in
            let input = Unchecked((kinds, utf8, offsets, heights, measurers))
            let start = MonotonicClock.now()
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                let (kinds, utf8, offsets, heights, measurers) = input.value
                let lo = kinds.count * part / parts, hi = kinds.count * (part + 1) / parts
                guard lo < hi else { return }
                do {
                    let k = UnsafeBufferPointer(rebasing: kinds[lo..<hi]), o = UnsafeBufferPointer(rebasing: offsets[(lo * spr)...(hi * spr)])
                    try measurers[part].heights(kinds: k, utf8: utf8, offsets: o, slotsPerRow: spr, into: UnsafeMutableBufferPointer(rebasing: heights[lo..<hi]),
                                                rowsAreValidUTF8: true)
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

        mutating func add(_ s: TextLayoutStatistics) {
            func add(_ a: inout CacheStatistics, _ b: CacheStatistics) {
                a.hits += b.hits
                a.misses += b.misses
                a.evictions += b.evictions
                a.entries += b.entries
                a.bytes += b.bytes
                a.budget += b.budget
                a.bypasses += b.bypasses
            }
            add(&segments, s.segments)
            add(&preparedTexts, s.preparedTexts)
            add(&lineBreaks, s.lineBreaks)
        }
    }

    /// The caches of all threads' engines, summed.
    var statistics: Statistics {
        var total = Statistics()
        for m in measurers { total.add(m.textEngine.statistics) }
        return total
    }
}

struct Unchecked<T>: @unchecked Sendable {
    var value: T
    init(_ value: T) { self.value = value }
}
