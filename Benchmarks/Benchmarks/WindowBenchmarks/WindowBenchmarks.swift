// Window queries, the path a host runs every frame: "which rows are visible at this
// offset, where, and how tall". Target: no allocation at all.
//
// - RowStore.window over 1,000,000 measured rows, at the offsets of a smooth 120 Hz scroll
//   (2,000 pt/s) and at random offsets, with 250 pt of overscan on both sides.
// - ListEngine.scroll(to:) then window(into:) of a profile-driven list (a frame): 100,000
//   George rows, measured (cells with frames, dividers and the sticky day header), and
//   100,000 items of the Fiori collection grid (three columns on a 375 pt phone).
//
// Fixtures are built and measured in setup, outside the measured region; one iteration is
// 1,000 queries (`scalingFactor: .kilo`), so results read per query.

import Benchmark
import BenchmarkFixtures
import Tessera

/// Offsets of a smooth scroll from `start`, 2,000 pt/s at 120 Hz, wrapping at the end.
func scrollOffsets(count: Int, total: Double, viewport: Double, start: Double) -> [Double] {
    var y = start, offsets = [Double]()
    offsets.reserveCapacity(count)
    for _ in 0..<count {
        offsets.append(y)
        y += 2000.0 / 120.0
        if y > total - viewport { y = 0 }
    }
    return offsets
}

func randomOffsets(count: Int, total: Double, seed: UInt64) -> [Double] {
    var rng = SplitMix64(seed: seed)
    return (0..<count).map { _ in rng.unit() * total }
}

/// More than the most queries a benchmark runs (iterations and warm-up × 1,000).
let operations = 150_000
let viewport = 844.0

/// A RowStore of 1,000,000 rows with measured heights.
final class StoreFixture: @unchecked Sendable {
    let store: Held<RowStore>
    let smooth: [Double], random: [Double]
    let buffer = UnsafeMutableBufferPointer<VisibleRow>.allocate(capacity: 512)
    var next = 0

    init(rows: Int = 1_000_000) {
        var rng = SplitMix64(seed: 0x51DE)
        var ids = [UInt64](), kinds = [UInt16](), heights = [Double]()
        for _ in 0..<rows {
            let kind = UInt16(rng.below(4))
            ids.append(rng.next())
            kinds.append(kind)
            heights.append(Double(44 + 16 * Int(kind) + rng.below(60)) + Double(rng.below(4)) / 4)
        }
        var store = try! RowStore(estimatedHeights: [44, 56, 72, 88])
        try! store.append(ids: ids, kinds: kinds, heights: heights)
        let total = store.totalHeight
        self.store = Held(store)
        smooth = scrollOffsets(count: operations, total: total, viewport: viewport, start: total * 0.3)
        random = randomOffsets(count: operations, total: total, seed: 0x7A4D)
    }

    deinit { buffer.deallocate() }
}

/// A profile-driven ListEngine with every row measured.
final class EngineFixture: @unchecked Sendable {
    let engine: Held<ListEngine>
    let smooth: [Double], random: [Double]
    let buffer = UnsafeMutableBufferPointer<VisibleItem>.allocate(capacity: 512)
    var next = 0

    init(profile name: String, width: Double, rows count: Int = 100_000) {
        let profile = Paths.loadProfile(name)
        let rows = name == "george" ? ProfileRows.george(profile, count: count) : ProfileRows.collection(profile, count: count)
        var engine = try! ListEngine(profile: profile, environment: LayoutEnvironment(width: width, platform: .ios),
                                     viewport: viewport, overscan: 250)
        try! engine.append(ids: (0..<UInt64(count)).map { $0 + 1 }, kinds: rows.kinds, text: rows.text)
        try! engine.measureAll(threads: 2)
        let total = engine.store.totalHeight
        self.engine = Held(engine)
        smooth = scrollOffsets(count: operations, total: total, viewport: viewport, start: total * 0.3)
        random = randomOffsets(count: operations, total: total, seed: 0x7A4E)
    }

    deinit { buffer.deallocate() }
}

nonisolated(unsafe) var storeFixture: StoreFixture!
nonisolated(unsafe) var engineFixture: EngineFixture!

/// `count` RowStore window queries at `offsets`, from where the last iteration stopped.
@inline(__always)
func storeWindows(_ benchmark: Benchmark, random: Bool) {
    let f = storeFixture!, store = f.store.pointer, offsets = random ? f.random : f.smooth
    var sum = 0, i = f.next
    benchmark.measured {
        for _ in benchmark.scaledIterations {
            i = i + 1 == operations ? 0 : i + 1
            let r = try! store.pointee.window(offset: offsets[i], viewport: viewport, overscanBefore: 250, overscanAfter: 250, into: f.buffer)
            sum &+= r.rows.lowerBound &+ r.count
        }
    }
    blackHole(sum)
    f.next = i
}

/// A frame of a profile-driven list: scroll to the next offset, then the window.
@inline(__always)
func engineFrames(_ benchmark: Benchmark, random: Bool) {
    let f = engineFixture!, engine = f.engine.pointer, offsets = random ? f.random : f.smooth
    var sum = 0, i = f.next
    benchmark.measured {
        for _ in benchmark.scaledIterations {
            i = i + 1 == operations ? 0 : i + 1
            try! engine.pointee.scroll(to: offsets[i])
            let r = try! engine.pointee.window(into: f.buffer)
            sum &+= r.rows.lowerBound &+ r.count &+ (r.stickyHeader?.row ?? 0)
        }
    }
    blackHole(sum)
    f.next = i
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = Suite.configuration()

    Benchmark("RowStore.window.smoothScroll.1M") { benchmark in
        storeWindows(benchmark, random: false)
    } setup: {
        storeFixture = StoreFixture()
    } teardown: {
        storeFixture = nil
    }

    Benchmark("RowStore.window.randomOffset.1M") { benchmark in
        storeWindows(benchmark, random: true)
    } setup: {
        storeFixture = StoreFixture()
    } teardown: {
        storeFixture = nil
    }

    Benchmark("ListEngine.frame.george.smoothScroll.100k") { benchmark in
        engineFrames(benchmark, random: false)
    } setup: {
        engineFixture = EngineFixture(profile: "george", width: 375)
    } teardown: {
        engineFixture = nil
    }

    Benchmark("ListEngine.frame.george.randomOffset.100k") { benchmark in
        engineFrames(benchmark, random: true)
    } setup: {
        engineFixture = EngineFixture(profile: "george", width: 375)
    } teardown: {
        engineFixture = nil
    }

    Benchmark("ListEngine.frame.collectionGrid.smoothScroll.100k") { benchmark in
        engineFrames(benchmark, random: false)
    } setup: {
        engineFixture = EngineFixture(profile: "fiori-ios-collection", width: 375)
    } teardown: {
        engineFixture = nil
    }
}
