import Foundation
import Tessera

/// The scroll suite: one profile's list of `rows` rows, heights unknown at the start,
/// scrolled through the same 120 Hz script (`ScrollScript`) by Tessera's `ListEngine` and
/// by the estimate-and-correct peer, in one run. Both measure with a `CellMeasurer` over a
/// `TextLayoutEngine` of the same configuration and the same profile and environment, so
/// the difference is the virtualization strategy.
struct ScrollSuite {
    struct Configuration {
        var profile: String
        var rows: Int
        var seed: UInt64
        /// Rows Tessera measures per frame beyond the window (nearest first).
        var backgroundRows = 16
        var viewport = 844.0
        var overscan = 250.0
    }

    let configuration: Configuration
    let progress: Progress

    func run() throws -> ScrollReport {
        let c = configuration
        let profile = try MeasureSuite.loadProfile(c.profile)
        let platform = profile.platforms[0]
        let environment = LayoutEnvironment(width: MeasureSuite.widths(profile, platform).compact, platform: platform)

        var engine = try ListEngine(profile: profile, environment: environment, viewport: c.viewport, overscan: c.overscan)
        progress.begin("\(profile.name): generating \(c.rows) rows")
        let rows = try ScrollRows(profile: profile, count: c.rows, seed: c.seed, batchUnit: engine.grid?.columnCount ?? 1)
        let batches = rows.batches.map { rows.columns($0) }
        let script = ScrollScript(seed: c.seed, rows: c.rows)
        progress.end()

        // Tessera: an engine of the profile, every row appended unmeasured.
        progress.begin("\(profile.name): loading Tessera's engine")
        var memory = ScrollReport.Memory()
        var loadedColumns: (ids: [UInt64], kinds: [UInt16], text: RowText)? = rows.columns(rows.loaded)
        let tesseraBefore = MemoryStatistics.current()
        let tesseraLoad = try MonotonicClock.time {
            try engine.append(ids: loadedColumns!.ids, kinds: loadedColumns!.kinds, text: loadedColumns!.text)
        }
        let tesseraLoaded = MemoryStatistics.current()
        memory.tesseraLoad = .init(tesseraBefore, tesseraLoaded)
        memory.store = engine.store.memory
        loadedColumns = nil
        progress.end()
        let tessera = TesseraScrollList(engine: engine, viewport: c.viewport, backgroundRows: c.backgroundRows, batches: batches)

        progress.begin("\(profile.name): loading the peer")
        let peerBefore = MemoryStatistics.current()
        var peer: EstimateAndCorrectList? = nil
        let peerLoad = try MonotonicClock.time {
            peer = try EstimateAndCorrectList(profile: profile, environment: environment, viewport: c.viewport, overscan: c.overscan, rows: rows)
        }
        memory.peerLoad = .init(peerBefore, MemoryStatistics.current())
        progress.end()

        let simulation = ScrollSimulation(script: script)
        let runBefore = MemoryStatistics.current()
        let tesseraFrames = try simulation.run(tessera, progress: progress, label: "\(profile.name): Tessera scrolling")
        memory.tesseraRun = .init(runBefore, MemoryStatistics.current())
        let peerRunBefore = MemoryStatistics.current()
        let peerFrames = try simulation.run(peer!, progress: progress, label: "\(profile.name): the peer scrolling")
        memory.peerRun = .init(peerRunBefore, MemoryStatistics.current())

        // Both measured the same rows with the same measurer: their heights must agree
        // (lists only: a grid's store holds line spans, not item heights).
        let checked = try Self.compareHeights(tessera, peer!, grid: profile.hasGrid)

        return ScrollReport(
            profile: profile.name, rows: c.rows, seed: c.seed, configuration: c, frames: script.frames.count,
            tessera: tesseraFrames, peer: peerFrames, memory: memory,
            loadNanosPerRow: (Double(tesseraLoad) / Double(c.rows), Double(peerLoad) / Double(c.rows)),
            measuredRows: (tessera.measuredRows, peer!.measuredRows), finalRows: peer!.count,
            windowQueries: tessera.windowQueries, peerRebuiltOffsets: peer!.rebuiltOffsets, heightsChecked: checked,
            loadAverage: RunInfo.loadAverage())
    }

    /// Rows measured by both sides, compared; throws on the first difference. Returns how
    /// many were compared.
    static func compareHeights(_ tessera: TesseraScrollList, _ peer: EstimateAndCorrectList, grid: Bool) throws -> Int {
        guard !grid else { return 0 }
        let count = peer.count
        guard tessera.engine.store.count == count else {
            throw SuiteFailure("scroll: the two sides hold \(tessera.engine.store.count) and \(count) rows after the run")
        }
        var compared = 0
        for r in 0..<count {
            guard let peerHeight = peer.measuredHeight(ofRow: r) else { continue }
            let info = try tessera.engine.store.row(r)
            guard info.id == peer.id(ofRow: r) else { throw SuiteFailure("scroll: row \(r) has different ids on the two sides") }
            guard !info.flags.contains(.dirty) else { continue }
            guard info.height == peerHeight else {
                throw SuiteFailure("scroll: row \(r) measured \(info.height) pt by Tessera and \(peerHeight) pt by the peer")
            }
            compared += 1
        }
        return compared
    }
}

/// Frame statistics of a stretch of a run.
struct FrameStatistics: Equatable {
    var frames: Int
    var p50: Double
    var p99: Double
    var max: Double
    var overBudget: Int
    /// The same from thread CPU time.
    var cpuP50: Double
    var cpuP99: Double
    var cpuMax: Double
    var cpuOverBudget: Int
    var blankRows: Int
    var jump: Double
    var jumpFrames: Int
    var largestJump: Double

    static let budgetNanoseconds: UInt64 = 1_000_000

    init<C: Collection>(_ records: C) where C.Element == FrameRecord {
        let times = records.map(\.nanoseconds).sorted(), cpu = records.map(\.cpuNanoseconds).sorted()
        frames = times.count
        func rank(_ times: [UInt64], _ q: Double) -> Double {
            times.isEmpty ? 0 : Double(times[Swift.min(times.count - 1, Int((Double(times.count - 1) * q).rounded()))])
        }
        p50 = rank(times, 0.5)
        p99 = rank(times, 0.99)
        max = Double(times.last ?? 0)
        overBudget = times.reduce(0) { $0 + ($1 > Self.budgetNanoseconds ? 1 : 0) }
        cpuP50 = rank(cpu, 0.5)
        cpuP99 = rank(cpu, 0.99)
        cpuMax = Double(cpu.last ?? 0)
        cpuOverBudget = cpu.reduce(0) { $0 + ($1 > Self.budgetNanoseconds ? 1 : 0) }
        blankRows = records.reduce(0) { $0 + $1.blankRows }
        jump = records.reduce(0) { $0 + $1.jump }
        jumpFrames = records.reduce(0) { $0 + ($1.jump > 0 ? 1 : 0) }
        largestJump = records.reduce(0) { Swift.max($0, $1.jump) }
    }
}
