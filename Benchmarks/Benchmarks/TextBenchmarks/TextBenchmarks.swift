// Text measurement with TextLayoutEngine, the calls cellbench's text suite times
// (Sources/cellbench/TextSuite.swift): 1,000 list texts (merchants, people, references,
// amounts, descriptions of one to four sentences, some Greek, Cyrillic, CJK and emoji) in
// Roboto 15 pt with Droid Sans Fallback and Noto Color Emoji, at 343 pt (a 375 pt phone's
// content width).
//
// - cold: every cache emptied before the iteration (outside the measured region), then
//   the bulk call over all texts: UAX #14 breaking, segment widths from the font tables.
// - warm, bulk and one call per text: the same width again, answered by the line-break
//   cache. Target: no allocation.
// - relayout at a new width through the caches: a width the line-break cache has not seen,
//   from the prepared-text cache's segment widths (arithmetic).
// - relayout at a new width through PreparedTexts (`prepare` once, `layout` at each width,
//   alternating 343 and 288 pt): arithmetic over segment widths, no cache lookup.
// - prepare: the prepare/layout split's first half, with the segment cache warm.
//
// One iteration handles every text once (`scalingFactor: .kilo`): results read per text.

import Benchmark
import BenchmarkFixtures
import Tessera

let textCount = 1_000
let width = 343.0, narrow = 288.0

final class Fixture: @unchecked Sendable {
    let corpus = TextCorpus(count: textCount)
    let style = Paths.textStyle(size: 15)
    let engine = TextLayoutEngine()
    let results = UnsafeMutableBufferPointer<TextMetrics>.allocate(capacity: textCount)
    let utf8: UnsafeMutableRawBufferPointer
    let offsets: UnsafeMutableBufferPointer<Int>
    var prepared: PreparedTexts?
    var iteration = 0

    init() {
        // The texts in buffers of their own, so the measured calls take no array's
        // `withUnsafe…` closure (which costs nothing, but keeps the loop plain).
        utf8 = .allocate(byteCount: corpus.utf8.count, alignment: 8)
        utf8.copyBytes(from: corpus.utf8)
        offsets = .allocate(capacity: corpus.offsets.count)
        _ = offsets.initialize(from: corpus.offsets)
    }

    deinit {
        results.deallocate()
        utf8.deallocate()
        offsets.deallocate()
    }

    var texts: UnsafeRawBufferPointer { UnsafeRawBufferPointer(utf8) }
    var textOffsets: UnsafeBufferPointer<Int> { UnsafeBufferPointer(offsets) }

    func measureAll(at width: Double) {
        try! engine.measure(texts: texts, offsets: textOffsets, style: style, width: width, into: results)
    }
}

nonisolated(unsafe) var fixture: Fixture!

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = Suite.configuration()

    Benchmark("measure.cold.bulk.1000") { benchmark in
        let f = fixture!
        f.engine.removeAllCachedResults()
        benchmark.measured { f.measureAll(at: width) }
        blackHole(f.results[0])
    } setup: {
        fixture = Fixture()
    } teardown: {
        fixture = nil
    }

    Benchmark("measure.warm.bulk.1000") { benchmark in
        let f = fixture!
        benchmark.measured { f.measureAll(at: width) }
        blackHole(f.results[0])
    } setup: {
        fixture = Fixture()
        fixture.measureAll(at: width)
    } teardown: {
        fixture = nil
    }

    Benchmark("measure.warm.perText.1000") { benchmark in
        let f = fixture!, texts = f.texts, offsets = f.textOffsets
        var lines = 0
        benchmark.measured {
            for i in 0..<textCount {
                let text = UnsafeRawBufferPointer(rebasing: texts[offsets[i]..<offsets[i + 1]])
                lines &+= try! f.engine.measure(utf8: text, style: f.style, width: width).lineCount
            }
        }
        blackHole(lines)
    } setup: {
        fixture = Fixture()
        fixture.measureAll(at: width)
    } teardown: {
        fixture = nil
    }

    Benchmark("relayout.newWidth.caches.1000") { benchmark in
        let f = fixture!
        // A width the line-break cache has not seen (a quarter point apart, 400 of them).
        f.iteration += 1
        let w = 250 + Double(f.iteration % 400) / 4
        benchmark.measured { f.measureAll(at: w) }
        blackHole(f.results[0])
    } setup: {
        fixture = Fixture()
        fixture.measureAll(at: width)
    } teardown: {
        fixture = nil
    }

    Benchmark("relayout.newWidth.preparedTexts.1000") { benchmark in
        let f = fixture!
        f.iteration += 1
        let prepared = f.prepared!, w = f.iteration % 2 == 0 ? width : narrow
        benchmark.measured { try! f.engine.layout(prepared, width: w, into: f.results) }
        blackHole(f.results[0])
    } setup: {
        fixture = Fixture()
        fixture.prepared = try! fixture.engine.prepare(texts: fixture.texts, offsets: fixture.textOffsets, style: fixture.style)
    } teardown: {
        fixture = nil
    }

    Benchmark("prepare.segmentCacheWarm.1000") { benchmark in
        let f = fixture!
        var prepared: PreparedTexts?
        benchmark.measured { prepared = try! f.engine.prepare(texts: f.texts, offsets: f.textOffsets, style: f.style) }
        blackHole(prepared!.count)
    } setup: {
        fixture = Fixture()
        fixture.measureAll(at: width)
    } teardown: {
        fixture = nil
    }
}
