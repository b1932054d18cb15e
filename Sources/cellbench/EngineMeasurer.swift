import Dispatch
@_spi(Benchmarks) import Tessera

/// A `ListEngine` holding all the suite's rows, measured with `measureAll(threads:)`: what
/// the measure suite times. The engine keeps one measurer and text engine per thread and
/// (unless `textBatches` is off) the rows' prepared texts (`CellTextBatch`) between
/// passes, so an environment change is measured from them.
final class EngineMeasurer {
    private var engine: ListEngine
    let threads: Int
    private(set) var environment: LayoutEnvironment

    /// Appends every row (validated as the engine validates an append; not timed).
    init(profile: Profile, environment: LayoutEnvironment, rows: CellRows, threads: Int, caches: TextLayoutEngine.Configuration,
         textBatches: Bool = true) throws {
        self.threads = max(1, threads)
        self.environment = environment
        engine = try ListEngine(profile: profile, environment: environment, viewport: 800, overscan: 0,
                                textEngine: TextLayoutEngine(configuration: caches))
        engine.keepsPreparedTexts = textBatches
        try engine.append(ids: (0..<rows.count).map { UInt64($0) + 1 }, kinds: rows.kinds, text: rows.text)
    }

    /// Changes the engine's environment; returns the rows it marked for measuring.
    @discardableResult
    func setEnvironment(_ environment: LayoutEnvironment) throws -> Int {
        try engine.setEnvironment(environment)
        self.environment = environment
        return engine.dirtyCount
    }

    /// Rows waiting to be measured.
    var dirtyCount: Int { engine.dirtyCount }

    /// `measureAll(threads:)` of every dirty row, timed (ns, wall clock); then each row's
    /// height into `heights` (not timed).
    func measureAll(into heights: UnsafeMutableBufferPointer<Double>) -> UInt64 {
        let start = MonotonicClock.now()
        do { try engine.measureAll(threads: threads) } catch { fatalError("measureAll: \(error)") }
        let ns = MonotonicClock.now() &- start
        engine.measuredHeights(into: heights)
        return ns
    }

    /// `measureAll(threads:)` alone (for instruction counts: nothing else in the call).
    func measureOnly() {
        do { try engine.measureAll(threads: threads) } catch { fatalError("measureAll: \(error)") }
    }

    /// Each row's height (points) into `heights`.
    func heights(into heights: UnsafeMutableBufferPointer<Double>) { engine.measuredHeights(into: heights) }

    /// CPU time (ns) each worker thread spent in the last `measureAll`.
    var lastThreadCPU: [UInt64] { engine.lastMeasureAllThreadCPU }

    /// Rows the last `measureAll` took from kept results alone.
    var lastKeptRows: Int { engine.lastMeasureAllKeptRows }

    /// Bytes of the prepared texts the engine keeps.
    var textBatchBytes: Int { engine.preparedTextBytes }

    /// The caches of all the engine's measurers, summed.
    var statistics: ParallelMeasurer.Statistics {
        var total = ParallelMeasurer.Statistics()
        for s in engine.textEngineStatistics { total.add(s) }
        return total
    }
}
