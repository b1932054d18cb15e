// Cell measurement: a profile-driven ListEngine measuring 1,000 rows of a George account
// history (Profiles/george.json: day headers, transactions, basic cells, balances,
// footers) on iOS, as cellbench's measure suite does (Sources/cellbench/MeasureSuite.swift,
// EngineMeasurer.swift) but on one thread, so the counts do not depend on how work is
// split.
//
// - measureAll cold: a fresh engine (its text caches empty) with the rows appended,
//   built outside the measured region; the measured region is `measureAll(threads: 1)`:
//   every row's texts prepared (kept for later environment changes) and laid out, the
//   template's arithmetic, the heights into the tree.
// - relayout at a new width: the same engine measured once in setup, then each iteration
//   switches between 375 pt (compact) and 768 pt (regular) with `setEnvironment` and
//   measures again with `measureAll(threads: 1)`, from the kept prepared texts.
//
// One iteration measures every row once (`scalingFactor: .kilo`): results read per row.

import Benchmark
import BenchmarkFixtures
import Tessera

let rowCount = 1_000
let compact = LayoutEnvironment(width: 375, platform: .ios)
let regular = LayoutEnvironment(width: 768, platform: .ios)

final class Fixture: @unchecked Sendable {
    let profile = Paths.loadProfile("george")
    let rows: ProfileRows
    let ids: [UInt64]
    var engine: Held<ListEngine>?
    var iteration = 0

    init() {
        rows = ProfileRows.george(profile, count: rowCount)
        ids = (0..<UInt64(rowCount)).map { $0 + 1 }
    }

    /// A fresh engine holding every row, nothing measured.
    func makeEngine() -> ListEngine {
        var engine = try! ListEngine(profile: profile, environment: compact, viewport: 844, overscan: 0)
        try! engine.append(ids: ids, kinds: rows.kinds, text: rows.text)
        return engine
    }
}

nonisolated(unsafe) var fixture: Fixture!

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = Suite.configuration()

    Benchmark("measureAll.cold.george.1000") { benchmark in
        var engine = fixture.makeEngine()
        benchmark.measured { try! engine.measureAll(threads: 1) }
        blackHole(engine.store.totalHeight)
    } setup: {
        fixture = Fixture()
    } teardown: {
        fixture = nil
    }

    Benchmark("relayout.newWidth.george.1000") { benchmark in
        let f = fixture!, engine = f.engine!.pointer
        f.iteration += 1
        let environment = f.iteration % 2 == 0 ? compact : regular
        benchmark.measured {
            try! engine.pointee.setEnvironment(environment)
            try! engine.pointee.measureAll(threads: 1)
        }
        blackHole(engine.pointee.store.totalHeight)
    } setup: {
        fixture = Fixture()
        var engine = fixture.makeEngine()
        try! engine.measureAll(threads: 1)
        fixture.engine = Held(engine)
    } teardown: {
        fixture = nil
    }
}
