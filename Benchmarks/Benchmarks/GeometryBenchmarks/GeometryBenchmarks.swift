// The height tree under a RowStore of 1,000,000 measured rows: a height change of a random
// row, one-row insert and remove near the middle, and the two lookups, row → offset and
// offset → row. Plus a calibration benchmark that allocates exactly one array per
// operation, so a broken malloc interposer shows as a changed count in `make bench-check`
// rather than as zeros everywhere.
//
// Every fixture (the store, the inputs of each operation) is built in the benchmark's
// setup, outside the measured region. One iteration does 1,000 operations
// (`scalingFactor: .kilo`), so results read per operation.

import Benchmark
import BenchmarkFixtures
import Tessera

let rowCount = 1_000_000
let estimates: [Double] = [44, 56, 72, 88]

/// A measured height for a row of `kind`: a multiple of 0.25 pt between the kind's
/// minimum and 64...200 pt, skewed towards short rows as real lists are.
func measuredHeight(kind: UInt16, _ rng: inout SplitMix64) -> Double {
    let low: [Double] = [44, 48, 60, 72], high: [Double] = [64, 96, 140, 200]
    let u = rng.unit()
    let h = low[Int(kind)] + (high[Int(kind)] - low[Int(kind)]) * u * u
    return (h * 4).rounded() / 4
}

/// The store and the inputs of the operations. The inputs are `let` arrays and the store
/// sits behind a pointer, so the measured loops pay no exclusivity check per access.
final class Fixture: @unchecked Sendable {
    /// More than the most operations a benchmark runs (iterations and warm-up × 1,000).
    static let operations = 150_000

    let store: Held<RowStore>
    let offsets: [Double]
    let rows: [Int]
    let positions: [Int]
    let heights: [Double]
    let newIDs: [[UInt64]]
    let newKinds: [[UInt16]]
    let newHeights: [[Double]]
    /// Where the next iteration continues in the input arrays.
    var next = 0

    init(rows count: Int, seed: UInt64 = 0x7E55_E7A) {
        var rng = SplitMix64(seed: seed)
        var ids = [UInt64](), kinds = [UInt16](), hs = [Double]()
        ids.reserveCapacity(count)
        kinds.reserveCapacity(count)
        hs.reserveCapacity(count)
        for _ in 0..<count {
            let kind = UInt16(rng.below(4))
            ids.append(rng.next() & ~(1 << 63))  // top bit clear; inserted rows' ids have it set
            kinds.append(kind)
            hs.append(measuredHeight(kind: kind, &rng))
        }
        var built = try! RowStore(estimatedHeights: estimates)
        try! built.append(ids: ids, kinds: kinds, heights: hs)
        let total = built.totalHeight
        store = Held(built)

        var offsets = [Double](), rows = [Int](), positions = [Int](), heights = [Double]()
        var newIDs = [[UInt64]](), newKinds = [[UInt16]](), newHeights = [[Double]]()
        for _ in 0..<Self.operations {
            offsets.append(rng.unit() * total)
            rows.append(rng.below(count))
            positions.append(count / 2 - count / 20 + rng.below(count / 10))
            let kind = UInt16(rng.below(4))
            heights.append(measuredHeight(kind: kind, &rng))
            newIDs.append([rng.next() | 1 << 63])
            newKinds.append([kind])
            newHeights.append([measuredHeight(kind: kind, &rng)])
        }
        self.offsets = offsets
        self.rows = rows
        self.positions = positions
        self.heights = heights
        self.newIDs = newIDs
        self.newKinds = newKinds
        self.newHeights = newHeights
    }

    /// The next input index (wrapping).
    @inline(__always) func advance(_ i: inout Int) {
        i = i + 1 == Self.operations ? 0 : i + 1
    }
}

nonisolated(unsafe) var fixture: Fixture!

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = Suite.configuration()

    Benchmark("calibration.oneArrayPerOp") { benchmark in
        var sum = 0
        benchmark.measured {
            for i in benchmark.scaledIterations {
                let a = [Int](repeating: i, count: 16)
                sum &+= a[15]
                blackHole(a)
            }
        }
        blackHole(sum)
    }

    Benchmark("setHeight.randomRow.1M") { benchmark in
        let f = fixture!, store = f.store.pointer
        var i = f.next
        benchmark.measured {
            for _ in benchmark.scaledIterations {
                f.advance(&i)
                try! store.pointee.setHeight(f.heights[i], ofRow: f.rows[i])
            }
        }
        f.next = i
    } setup: {
        fixture = Fixture(rows: rowCount)
    } teardown: {
        fixture = nil
    }

    Benchmark("offsetOfRow.randomRow.1M") { benchmark in
        let f = fixture!, store = f.store.pointer
        var sum = 0.0, i = f.next
        benchmark.measured {
            for _ in benchmark.scaledIterations {
                f.advance(&i)
                sum += try! store.pointee.offset(ofRow: f.rows[i])
            }
        }
        blackHole(sum)
        f.next = i
    } setup: {
        fixture = Fixture(rows: rowCount)
    } teardown: {
        fixture = nil
    }

    Benchmark("rowAtOffset.randomOffset.1M") { benchmark in
        let f = fixture!, store = f.store.pointer
        var sum = 0, i = f.next
        benchmark.measured {
            for _ in benchmark.scaledIterations {
                f.advance(&i)
                sum &+= try! store.pointee.row(atOffset: f.offsets[i])!.row
            }
        }
        blackHole(sum)
        f.next = i
    } setup: {
        fixture = Fixture(rows: rowCount)
    } teardown: {
        fixture = nil
    }

    Benchmark("insertRow.nearMiddle.1M") { benchmark in
        let f = fixture!, store = f.store.pointer
        var i = f.next
        benchmark.measured {
            for _ in benchmark.scaledIterations {
                f.advance(&i)
                try! store.pointee.insert(ids: f.newIDs[i], kinds: f.newKinds[i], heights: f.newHeights[i], at: f.positions[i])
            }
        }
        f.next = i
    } setup: {
        fixture = Fixture(rows: rowCount)
    } teardown: {
        fixture = nil
    }

    Benchmark("removeRow.nearMiddle.1M") { benchmark in
        let f = fixture!, store = f.store.pointer
        var i = f.next
        benchmark.measured {
            for _ in benchmark.scaledIterations {
                f.advance(&i)
                let row = f.positions[i] % store.pointee.count
                try! store.pointee.removeRows(row..<(row + 1))
            }
        }
        f.next = i
    } setup: {
        fixture = Fixture(rows: rowCount)
    } teardown: {
        fixture = nil
    }
}
