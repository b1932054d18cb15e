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

    Benchmark("KeyedDiffer.differenceKit.100k") { benchmark in
        let f = differFixture!
        var moves = 0
        benchmark.measured { moves = try! f.diff().moves.count }
        blackHole(moves)
    } setup: {
        differFixture = DifferFixture(.differenceKit(rows: 100_000))
    } teardown: {
        differFixture = nil
    }

    Benchmark("KeyedDiffer.prepend100.100k") { benchmark in
        let f = differFixture!
        var inserts = 0
        benchmark.measured { inserts = try! f.diff().inserts.count }
        blackHole(inserts)
    } setup: {
        differFixture = DifferFixture(.prepend(rows: 100_000, new: 100))
    } teardown: {
        differFixture = nil
    }

    Benchmark("ListEngine.prepare.100changes.100k") { benchmark in
        let f = applyFixture!, engine = f.engine.pointer
        var moves = 0
        benchmark.measured { moves = try! engine.pointee.prepare(f.pair.b).batch.moves.count }
        blackHole(moves)
    } setup: {
        applyFixture = ApplyFixture()
    } teardown: {
        applyFixture = nil
    }

    Benchmark("ListEngine.applyPrepared.100changes.100k") { benchmark in
        let f = applyFixture!, engine = f.engine.pointer
        let prepared = try! engine.pointee.prepare(f.nextSnapshot)
        var offset = 0.0
        benchmark.measured { offset = try! engine.pointee.apply(prepared).scrollOffset }
        blackHole(offset)
        f.iteration += 1
    } setup: {
        applyFixture = ApplyFixture()
    } teardown: {
        applyFixture = nil
    }
}
