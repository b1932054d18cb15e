import Tessera

/// Bytes per row of a whole George engine: `rows` generated rows appended to a
/// profile-driven `ListEngine` and all measured (two threads), so the store, the height
/// tree, the text arena, the id index and the measurers' text caches are all at size.
/// Growth of jemalloc's `stats.allocated` and `stats.resident` across creating, filling and
/// measuring the engine (the input columns were made before the first reading).
struct EngineMemorySuite {
    var rows: Int
    var seed: UInt64
    var profile = "george"
    let progress: Progress

    struct Result {
        var profile: String
        var memory: SuiteMemory
        var store: StoreMemory
        var measureAllNanosPerRow: Double

        /// What is not the store: the measurers' text caches, profile layout state (group
        /// marks), and allocator slack.
        var cachesAndState: Int { memory.allocated - store.total }

        func printLine() {
            let r = Double(memory.rows)
            func b(_ x: Int) -> String { Report.number(Double(x) / r) }
            print("\(profile) engine at \(memory.rows) rows, every row measured: \(Report.number(memory.allocatedPerRow)) B/row allocated "
                + "(store pages \(b(store.pages)), tree \(b(store.tree)), id index \(b(store.idIndex)), text arena \(b(store.textArena)), "
                + "scratch \(b(store.scratch)), caches and measurer state \(b(cachesAndState))), \(Report.number(memory.residentPerRow)) B/row resident")
        }

        func json(seed: UInt64) -> String {
            var o = "{\"suite\": \"memory\", \"profile\": \(Report.string(profile)), \"rows\": \(memory.rows), \"seed\": \(seed), "
            o += "\"results\": [], \"memory\": \(memory.json(what: "growth across creating, appending every row and measuring every row (2 threads)")), "
            o += "\"breakdown_bytes\": {\"pages\": \(store.pages), \"tree\": \(store.tree), \"id_index\": \(store.idIndex), "
            o += "\"text_arena\": \(store.textArena), \"scratch\": \(store.scratch), \"caches_and_state\": \(cachesAndState)}, "
            o += "\"measure_all_ns_per_row\": \(Report.json(measureAllNanosPerRow))}"
            return RunInfo.stamp(o, seed: seed)
        }
    }

    func run() throws -> Result {
        let loaded = try MeasureSuite.loadProfile(profile)
        let platform = loaded.platforms[0]
        let environment = LayoutEnvironment(width: MeasureSuite.widths(loaded, platform).compact, platform: platform)
        progress.begin("memory: generating \(rows) \(profile) rows")
        let generated = try ScrollRows(profile: loaded, count: rows, seed: seed, batchCount: 0)
        // Made before the first reading and alive after the last, so they do not count.
        let columns = generated.columns(generated.loaded)
        progress.end()
        progress.begin("memory: appending and measuring \(rows) rows")
        defer { progress.end() }
        let before = MemoryStatistics.current()
        var engine = try ListEngine(profile: loaded, environment: environment, viewport: 844)
        try engine.append(ids: columns.ids, kinds: columns.kinds, text: columns.text)
        let start = MonotonicClock.now()
        try engine.measureAll(threads: 2)
        let ns = MonotonicClock.now() &- start
        let after = MemoryStatistics.current()
        withExtendedLifetime(columns) {}
        return Result(profile: profile, memory: SuiteMemory(rows: rows, from: before, to: after), store: engine.store.memory,
                      measureAllNanosPerRow: Double(ns) / Double(rows))
    }
}
