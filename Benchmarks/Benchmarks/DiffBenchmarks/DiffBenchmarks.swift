// Keyed diff and applying a batch to a list.
//
// - KeyedDiffer.diff on DifferenceKit's published case at 100,000 rows (10,000 deleted,
//   10,000 inserted, the first 2,000 shuffled; cellbench's `diffkit_100k`), and on 100 rows
//   prepended to 100,000. The differ keeps its scratch between calls (as a list's differ
//   does), so after the first call a diff allocates only its result.
// - ListEngine.prepare and apply of a small batch on a store-driven list of 100,000
//   measured rows scrolled to the middle: 25 rows each deleted, moved and updated, and 25
//   new (100 changes, spread over the list). Apply alternates between the two snapshots
//   (b, then a, then b…), each prepared outside the measured region.
//
// One iteration is one call (`scalingFactor: .one`).

import Benchmark
import BenchmarkFixtures
import Tessera

final class DifferFixture: @unchecked Sendable {
    let pair: DiffPair
    let differ = KeyedDiffer()

    init(_ pair: DiffPair) {
        self.pair = pair
        _ = try! diff()  // the scratch grows once, as in a list that diffs repeatedly
    }

    func diff() throws(TesseraError) -> DiffBatch {
        try differ.diff(oldIDs: pair.oldIDs, oldVersions: pair.oldVersions, newIDs: pair.newIDs, newVersions: pair.newVersions)
    }
}

final class ApplyFixture: @unchecked Sendable {
    let pair = ApplyPair(rows: 100_000, changes: 25)
    let engine: Held<ListEngine>
    /// The engine shows `a` before an even iteration and `b` before an odd one.
    var iteration = 0

    init() { engine = Held(pair.engine()) }

    var nextSnapshot: RowSnapshot { iteration % 2 == 0 ? pair.b : pair.a }
}

nonisolated(unsafe) var differFixture: DifferFixture!
nonisolated(unsafe) var applyFixture: ApplyFixture!

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = Suite.configuration(scalingFactor: .one)

    Benchmark("diff: KeyedDiffer, DifferenceKit case (100k rows)") { benchmark in
        blackHole(try! differFixture.diff().moves.count)
    } setup: {
        differFixture = DifferFixture(.differenceKit(rows: 100_000))
    } teardown: {
        differFixture = nil
    }

    Benchmark("diff: KeyedDiffer, 100 rows prepended (100k rows)") { benchmark in
        blackHole(try! differFixture.diff().inserts.count)
    } setup: {
        differFixture = DifferFixture(.prepend(rows: 100_000, new: 100))
    } teardown: {
        differFixture = nil
    }

    Benchmark("diff: ListEngine.prepare, 100 changes (100k rows)") { benchmark in
        let f = applyFixture!
        blackHole(try! f.engine.pointer.pointee.prepare(f.pair.b).batch.moves.count)
    } setup: {
        applyFixture = ApplyFixture()
    } teardown: {
        applyFixture = nil
    }

    Benchmark("diff: ListEngine.apply(prepared), 100 changes (100k rows)") { benchmark in
        let f = applyFixture!, engine = f.engine.pointer
        let prepared = try! engine.pointee.prepare(f.nextSnapshot)
        benchmark.startMeasurement()
        let applied = try! engine.pointee.apply(prepared)
        benchmark.stopMeasurement()
        blackHole(applied.scrollOffset)
        f.iteration += 1
    } setup: {
        applyFixture = ApplyFixture()
    } teardown: {
        applyFixture = nil
    }
}
