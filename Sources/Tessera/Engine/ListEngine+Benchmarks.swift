#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

/// What `cellbench measure` reads from a profile-driven engine to check and explain its
/// timings; not part of the supported API.
extension ListEngine {
    /// Each row's own measured height in points (in a grid the item's height, not its
    /// line's), or its current height for a row never measured; `heights` holds at least
    /// `store.count` entries.
    @_spi(Benchmarks)
    public func measuredHeights(into heights: UnsafeMutableBufferPointer<Double>) {
        precondition(heights.count >= store.count)
        guard store.count > 0 else { return }
        var c = store.cursor(atRow: 0)
        while c.row < store.count {
            var units = store.heightUnits(at: c)
            if let layout, layout.isGrid {
                let item = store.itemUnits(at: c)
                units = item == ProfileLayout.unmeasured ? -1 : Int64(item)
            }
            heights[c.row] = units < 0 ? .nan : LayoutUnit.points(units)
            store.advance(&c)
        }
    }

    /// The thread CPU time (ns) each worker of the last `measureAll` spent in it.
    @_spi(Benchmarks)
    public var lastMeasureAllThreadCPU: [UInt64] { layout?.threadCPU ?? [] }

    /// How many rows the last `measureAll` took from kept results alone, their values
    /// unread (`CellMeasurer.engineKeptHeight`).
    @_spi(Benchmarks)
    public var lastMeasureAllKeptRows: Int { layout?.keptRows ?? 0 }

    /// The text engines' cache statistics of every measurer, summed.
    @_spi(Benchmarks)
    public var textEngineStatistics: [TextLayoutStatistics] { layout?.measurers.map { $0.textEngine.statistics } ?? [] }
}

/// The calling thread's CPU time in nanoseconds.
func threadCPUTime() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}
