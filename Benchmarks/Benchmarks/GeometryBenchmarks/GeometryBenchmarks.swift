// Geometry benchmarks of Tessera's RowStore at 1,000,000 rows: window queries (smooth
// scroll and random offsets), one-row insert and remove near the middle, and a random
// height change.
//
// Every fixture (the store, the offsets, the ids and positions of the operations) is built
// in the benchmark's setup hook, outside the measured region. One benchmark iteration does
// `scalingFactor` operations, so results read per operation. Metrics are wall clock and
// malloc counts (package-benchmark's malloc interposer); CPU instruction counts need perf
// counters, which the machines here do not offer, so they are left out.

import Benchmark
import Tessera

let rowCount = 1_000_000

/// Deterministic pseudo-random numbers (splitmix64).
struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
}

let estimates: [Double] = [44, 56, 72, 88]

/// A measured height for a row of `kind`: a multiple of 0.25 pt between the kind's
/// minimum and 44...200 pt, skewed towards short rows as real lists are.
func measuredHeight(kind: UInt16, _ rng: inout SplitMix64) -> Double {
    let low: [Double] = [44, 48, 60, 72], high: [Double] = [64, 96, 140, 200]
    let u = rng.unit()
    let h = low[Int(kind)] + (high[Int(kind)] - low[Int(kind)]) * u * u
    return (h * 4).rounded() / 4
}

/// The store and the inputs of the operations, shared by the benchmark closures (one
/// benchmark runs at a time). The ~Copyable store sits behind a pointer and the inputs are
/// `let` arrays, so the measured loops pay no dynamic exclusivity check per access.
final class Fixture: @unchecked Sendable {
    static let operations = 250_000  // more than the most iterations (plus warm-up) use

    let store: UnsafeMutablePointer<RowStore>
    let scrollOffsets: [Double]
    let randomOffsets: [Double]
    let positions: [Int]
    let newIDs: [[UInt64]]
    let newKinds: [[UInt16]]
    let newHeights: [[Double]]
    let heights: [Double]
    let randomRows: [Int]
    let buffer = UnsafeMutableBufferPointer<VisibleRow>.allocate(capacity: 512)
    /// Where the next iteration continues in the input arrays.
    var next = 0

    init(rows: Int, seed: UInt64 = 0x7E55_E7A) {
        var rng = SplitMix64(state: seed)
        var ids = [UInt64](), kinds = [UInt16](), hs = [Double]()
        ids.reserveCapacity(rows)
        kinds.reserveCapacity(rows)
        hs.reserveCapacity(rows)
        for _ in 0..<rows {
            let kind = UInt16(rng.below(4))
            ids.append(rng.next() & ~(1 << 63))  // top bit clear; inserted rows' ids have it set
            kinds.append(kind)
            hs.append(measuredHeight(kind: kind, &rng))
        }
        var built = try! RowStore(estimatedHeights: estimates)
        try! built.append(ids: ids, kinds: kinds, heights: hs)
        let total = built.totalHeight, viewport = 844.0
        store = .allocate(capacity: 1)
        store.initialize(to: built)

        // A 120 Hz scroll at 2000 pt/s: 16.67 pt a frame, wrapping at the end.
        var scroll = [Double](), random = [Double](), y = total * 0.3
        for _ in 0..<Self.operations {
            scroll.append(y)
            y += 2000.0 / 120.0
            if y > total - viewport { y = 0 }
            random.append(rng.unit() * total)
        }
        scrollOffsets = scroll
        randomOffsets = random
        var rowsToChange = [Int](), at = [Int](), newIDs = [[UInt64]](), newKinds = [[UInt16]]()
        var newHeights = [[Double]](), heights = [Double]()
        for _ in 0..<Self.operations {
            rowsToChange.append(rng.below(rows))
            at.append(rows / 2 - rows / 20 + rng.below(rows / 10))
            let kind = UInt16(rng.below(4))
            newIDs.append([rng.next() | 1 << 63])
            newKinds.append([kind])
            newHeights.append([measuredHeight(kind: kind, &rng)])
            heights.append(measuredHeight(kind: kind, &rng))
        }
        randomRows = rowsToChange
        positions = at
        self.newIDs = newIDs
        self.newKinds = newKinds
        self.newHeights = newHeights
        self.heights = heights
    }

    deinit {
        buffer.deallocate()
        store.deinitialize(count: 1)
        store.deallocate()
    }
}

nonisolated(unsafe) var fixture: Fixture?

func makeFixture() {
    if fixture == nil { fixture = Fixture(rows: rowCount) }
}

/// Inserts and removes change the row count; each benchmark starts from a fresh store.
func freshFixture() {
    fixture = Fixture(rows: rowCount)
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        scalingFactor: .kilo,
        maxDuration: .seconds(3),
        maxIterations: 200
    )

    Benchmark("window query, smooth scroll (1M rows)") { benchmark in
        let f = fixture!
        var sum = 0, i = f.next
        for _ in benchmark.scaledIterations {
            i = i + 1 == Fixture.operations ? 0 : i + 1
            let r = try! f.store.pointee.window(
                offset: f.scrollOffsets[i], viewport: 844, overscanBefore: 250, overscanAfter: 250, into: f.buffer)
            sum &+= r.rows.lowerBound &+ r.count
        }
        blackHole(sum)
        f.next = i
    } setup: {
        makeFixture()
        fixture!.next = 0
    }

    Benchmark("window query, random offset (1M rows)") { benchmark in
        let f = fixture!
        var sum = 0, i = f.next
        for _ in benchmark.scaledIterations {
            i = i + 1 == Fixture.operations ? 0 : i + 1
            let r = try! f.store.pointee.window(
                offset: f.randomOffsets[i], viewport: 844, overscanBefore: 250, overscanAfter: 250, into: f.buffer)
            sum &+= r.rows.lowerBound &+ r.count
        }
        blackHole(sum)
        f.next = i
    } setup: {
        makeFixture()
    }

    Benchmark("height update, random row (1M rows)") { benchmark in
        let f = fixture!
        var i = f.next
        for _ in benchmark.scaledIterations {
            i = i + 1 == Fixture.operations ? 0 : i + 1
            try! f.store.pointee.setHeight(f.heights[i], ofRow: f.randomRows[i])
        }
        f.next = i
    } setup: {
        makeFixture()
    }

    Benchmark("insert one row, middle (1M rows)") { benchmark in
        let f = fixture!
        var i = f.next
        for _ in benchmark.scaledIterations {
            i = i + 1 == Fixture.operations ? 0 : i + 1
            try! f.store.pointee.insert(
                ids: f.newIDs[i], kinds: f.newKinds[i], heights: f.newHeights[i], at: f.positions[i])
        }
        f.next = i
    } setup: {
        freshFixture()
    } teardown: {
        fixture = nil
    }

    Benchmark("remove one row, middle (1M rows)") { benchmark in
        let f = fixture!
        var i = f.next
        for _ in benchmark.scaledIterations {
            i = i + 1 == Fixture.operations ? 0 : i + 1
            let row = f.positions[i] % f.store.pointee.count
            try! f.store.pointee.removeRows(row..<(row + 1))
        }
        f.next = i
    } setup: {
        freshFixture()
    } teardown: {
        fixture = nil
    }
}
