#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Tessera

/// The geometry suite: Tessera's `RowStore` and the flat prefix array, fed the same rows,
/// queries and operations in one run.
///
/// Phases, in order: build both; smooth-scroll window queries; random-offset window
/// queries; a correctness check of the windows; then one-row inserts near the middle,
/// height updates of random rows, and one-row removals near the middle. The peer does far
/// fewer mutations than Tessera (each costs it O(n)), always the first `peerOperations` of
/// the same sequence. After those, both sides are checked against each other; Tessera then
/// does the rest of the sequence, and is put back into the peer's state (untimed) before
/// the next phase so the two stay comparable.
struct GeometrySuite {
    struct Configuration {
        var rows: Int
        var seed: UInt64
        var queries: Int
        var operations: Int
        var peerOperations: Int
    }

    static let viewport = 844.0
    static let overscan = 250.0
    static let frameRate = 120.0
    static let scrollVelocity = 2000.0  // pt/s
    static let bufferCapacity = 1024

    let configuration: Configuration
    let progress: Progress

    /// Runs the suite. Exits with status 1 (after a message on stderr) when Tessera and the
    /// peer disagree: that is a correctness failure, not a speed verdict.
    func run() throws(TesseraError) -> GeometryReport {
        let n = configuration.rows
        progress.begin("generating \(n) rows")
        let workload = Workload(rows: n, seed: configuration.seed)
        progress.end()

        // MARK: Build

        // The input columns exist before the first memory reading, so only the store's own
        // allocations (and temporaries it frees before returning) fall between the two.
        progress.begin("building the store (\(n) rows)")
        let before = MemoryStatistics.current()
        let buildStart = MonotonicClock.now()
        var store = try RowStore(estimatedHeights: Workload.estimatedHeights)
        try store.append(ids: workload.ids, kinds: workload.kinds, heights: workload.heights)
        let buildNanos = MonotonicClock.now() &- buildStart
        let after = MemoryStatistics.current()
        progress.end()
        let storeMemory = store.memory

        progress.begin("building the flat prefix array (\(n) rows)")
        let peerBefore = MemoryStatistics.current()
        let peerBuildStart = MonotonicClock.now()
        var peer = FlatPrefixArray(ids: workload.ids, kinds: workload.kinds, heights: workload.heights)
        let peerBuildNanos = MonotonicClock.now() &- peerBuildStart
        let peerAfter = MemoryStatistics.current()
        progress.end()

        // `build` is the geometry from a height column (every row re-measured, as after a
        // rotation): Tessera rewrites the heights in its pages and its summaries, the peer
        // its heights and offsets. `build_store` above includes ids, kinds, pages and the id
        // index, which the peer does not have.
        progress.begin("rebuilding both geometries from the height column")
        let geometryStart = MonotonicClock.now()
        try store.setHeights(workload.heights, startingAt: 0)
        let geometryNanos = MonotonicClock.now() &- geometryStart
        let peerGeometryStart = MonotonicClock.now()
        peer.setHeights(workload.heights)
        let peerGeometryNanos = MonotonicClock.now() &- peerGeometryStart
        progress.end()

        let memory = Self.memory(
            rows: n, before: before, after: after, store: storeMemory, peerBefore: peerBefore, peerAfter: peerAfter)
        var results = [
            TimedResult(
                name: "build", unit: "ns/row", value: Double(geometryNanos) / Double(n),
                peerValue: Double(peerGeometryNanos) / Double(n), target: .speedupAtLeast(0.5),
                operations: n, peerOperations: n),
            TimedResult(
                name: "build_store", unit: "ns/row", value: Double(buildNanos) / Double(n),
                peerValue: Double(peerBuildNanos) / Double(n), target: nil,
                operations: n, peerOperations: n),
        ]

        let buffer = UnsafeMutableBufferPointer<VisibleRow>.allocate(capacity: Self.bufferCapacity)
        let peerBuffer = UnsafeMutableBufferPointer<VisibleRow>.allocate(capacity: Self.bufferCapacity)
        defer {
            buffer.deallocate()
            peerBuffer.deallocate()
        }
        var agreement = Agreement(buffer: buffer, peerBuffer: peerBuffer, progress: progress)
        try agreement.check(store, peer, rowsAndOffsets: Array(stride(from: 0, to: n, by: max(1, n / 997))), "after the build")

        // MARK: Window queries

        let q = configuration.queries
        let scroll = Self.scrollOffsets(count: q, total: store.totalHeight)
        results.append(
            try windowQueries("window_query_scroll", offsets: scroll, target: .below(100), &store, peer, buffer, peerBuffer))

        var rng = Xoshiro256(seed: configuration.seed ^ 0x5EED_0FF5E7)
        let total = store.totalHeight
        let random = (0..<q).map { _ in rng.unit() * total }
        results.append(
            try windowQueries(
                "window_query_random", offsets: random, target: .speedupAtLeast(1), &store, peer, buffer, peerBuffer))

        let sample = Swift.max(1, q / 2000)
        try agreement.check(store, peer, offsets: stride(from: 0, to: q, by: sample).map { scroll[$0] }, "smooth-scroll windows")
        try agreement.check(store, peer, offsets: stride(from: 0, to: q, by: sample).map { random[$0] }, "random windows")

        // MARK: Mutations

        let m = configuration.operations, p = Swift.min(configuration.peerOperations, m)
        results.append(try insertMiddle(&store, &peer, workload: workload, &rng, &agreement, operations: m, peerOperations: p))
        results.append(try heightUpdates(&store, &peer, &rng, &agreement, operations: m, peerOperations: p))
        results.append(try removeMiddle(&store, &peer, &rng, &agreement, operations: m, peerOperations: p))

        var notes = [
            "window queries: viewport \(Report.number(Self.viewport)) pt, overscan \(Report.number(Self.overscan)) pt each side; "
                + "scroll = \(q) consecutive frames at \(Int(Self.frameRate)) Hz and \(Int(Self.scrollVelocity)) pt/s (wrapping at the end); "
                + "random = \(q) uniform offsets in [0, total height)",
            "mutations: Tessera \(m) operations each, the peer the first \(p) of the same sequence (O(n) each); "
                + "insert/remove at a uniform index within +-5% of the middle; height update of a uniform random row",
            "speedup = peer / tessera (time); both answers checked equal on sampled windows and rows",
        ]
        if n != GeometryReport.targetRows {
            notes.append("targets are defined at \(GeometryReport.targetRows) rows; this run has \(n)")
        }
        return GeometryReport(
            rows: n, seed: configuration.seed, results: results, memory: memory, notes: notes, checksum: checksum)
    }

    // MARK: Memory

    static func memory(
        rows n: Int, before: MemoryStatistics, after: MemoryStatistics, store: StoreMemory,
        peerBefore: MemoryStatistics, peerAfter: MemoryStatistics
    ) -> MemoryResult {
        let delta = after.allocated - before.allocated
        // The text-reference column: 4 bytes per row slot of every page, used or not.
        let textReferences = store.textReferences
        // bytes_per_row: the fixed per-row columns (id, height, kind, flags) plus the
        // summary tree: everything but the id index, text (arena and references), the
        // content versions a diff reads and the spare split page.
        let fixed = delta - store.idIndex - store.textArena - store.scratch - textReferences - store.contentVersions
        let peerDelta = peerAfter.allocated - peerBefore.allocated
        return MemoryResult(
            bytesPerRow: Double(fixed) / Double(n),
            bytesPerRowStore: Double(delta - store.textArena) / Double(n),
            allocatedBytes: delta, residentBytes: after.resident - before.resident,
            processAllocatedBytes: after.allocated, processResidentBytes: after.resident,
            pages: store.pages, textReferences: textReferences, tree: store.tree, idIndex: store.idIndex,
            textArena: store.textArena,
            scratch: store.scratch, peerBytesPerRow: Double(peerDelta) / Double(n), peerAllocatedBytes: peerDelta)
    }

    // MARK: Window queries

    /// Offsets of consecutive frames of a smooth scroll, starting a third of the way down
    /// and wrapping to the top when the viewport reaches the end.
    static func scrollOffsets(count: Int, total: Double) -> [Double] {
        let step = scrollVelocity / frameRate
        let limit = Swift.max(total - viewport, 0)
        var y = limit / 3
        var offsets = [Double]()
        offsets.reserveCapacity(count)
        for _ in 0..<count {
            offsets.append(y)
            y += step
            if y > limit { y = 0 }
        }
        return offsets
    }

    func windowQueries(
        _ name: String, offsets: [Double], target: Target, _ store: inout RowStore, _ peer: FlatPrefixArray,
        _ buffer: UnsafeMutableBufferPointer<VisibleRow>, _ peerBuffer: UnsafeMutableBufferPointer<VisibleRow>
    ) throws(TesseraError) -> TimedResult {
        let q = offsets.count
        let (viewport, overscan) = (Self.viewport, Self.overscan)
        var sum = 0
        let tessera = try offsets.withUnsafeBufferPointer { offsets throws(TesseraError) in
            try timedChunks(0..<q, progress: progress, "\(name) tessera") { range throws(TesseraError) in
                for i in range {
                    let r = try store.window(
                        offset: offsets[i], viewport: viewport, overscanBefore: overscan, overscanAfter: overscan,
                        into: buffer)
                    sum &+= r.rows.lowerBound &+ r.count
                }
            }
        }
        blackHole(sum)
        sum = 0
        let flat = offsets.withUnsafeBufferPointer { offsets in
            timedChunks(0..<q, progress: progress, "\(name) peer") { range in
                for i in range {
                    let r = peer.window(
                        offset: offsets[i], viewport: viewport, overscanBefore: overscan, overscanAfter: overscan,
                        into: peerBuffer)
                    sum &+= r.lowerBound &+ r.count
                }
            }
        }
        blackHole(sum)
        return TimedResult(
            name: name, unit: "ns/query", value: Double(tessera) / Double(q), peerValue: Double(flat) / Double(q),
            target: target, operations: q, peerOperations: q)
    }

    // MARK: Mutations

    /// Uniform positions within +-5% of the middle of `count` rows.
    static func middle(_ count: Int, _ rng: inout Xoshiro256) -> Int {
        let band = Swift.max(1, count / 10)
        return count / 2 - band / 2 + rng.below(band)
    }

    func insertMiddle(
        _ store: inout RowStore, _ peer: inout FlatPrefixArray, workload: Workload, _ rng: inout Xoshiro256,
        _ agreement: inout Agreement, operations m: Int, peerOperations p: Int
    ) throws(TesseraError) -> TimedResult {
        // One-row batches as a caller would pass them, built here, outside the timing.
        let n = store.count
        var positions = [Int](), ids = [[UInt64]](), kinds = [[UInt16]](), heights = [[Double]]()
        for k in 0..<m {
            positions.append(Self.middle(n + k, &rng))
            let kind = Workload.randomKind(&rng)
            ids.append([workload.id(n + k)])
            kinds.append([kind])
            heights.append([Workload.measuredHeight(kind: kind, &rng)])
        }
        var tessera = try timedChunks(0..<p, progress: progress, "insert_middle tessera") { range throws(TesseraError) in
            for k in range { try store.insert(ids: ids[k], kinds: kinds[k], heights: heights[k], at: positions[k]) }
        }
        let flat = timedChunks(0..<p, progress: progress, "insert_middle peer") { range in
            for k in range { peer.insert(id: ids[k][0], kind: kinds[k][0], height: heights[k][0], at: positions[k]) }
        }
        try agreement.check(store, peer, rowsAndOffsets: Array(positions[0..<p]), "after \(p) inserts")
        tessera &+= try timedChunks(p..<m, progress: progress, "insert_middle tessera") { range throws(TesseraError) in
            for k in range { try store.insert(ids: ids[k], kinds: kinds[k], heights: heights[k], at: positions[k]) }
        }
        // Back to the peer's state: undo the inserts the peer did not do, last first.
        progress.begin("restoring the store", total: m - p)
        for k in stride(from: m - 1, through: p, by: -1) { try store.removeRows(positions[k]..<(positions[k] + 1)) }
        progress.end()
        try agreement.check(store, peer, rowsAndOffsets: Array(positions[0..<Swift.min(p, 100)]), "after undoing inserts")
        return TimedResult(
            name: "insert_middle", unit: "ns/op", value: Double(tessera) / Double(m), peerValue: Double(flat) / Double(p),
            target: .speedupAtLeast(1000), operations: m, peerOperations: p)
    }

    func heightUpdates(
        _ store: inout RowStore, _ peer: inout FlatPrefixArray, _ rng: inout Xoshiro256,
        _ agreement: inout Agreement, operations m: Int, peerOperations p: Int
    ) throws(TesseraError) -> TimedResult {
        let n = store.count
        var rows = [Int](), heights = [Double]()
        for _ in 0..<m {
            rows.append(rng.below(n))
            heights.append(Workload.measuredHeight(kind: Workload.randomKind(&rng), &rng))
        }
        var tessera = try timedChunks(0..<p, progress: progress, "height_update_random tessera") {
            range throws(TesseraError) in
            for k in range { try store.setHeight(heights[k], ofRow: rows[k]) }
        }
        let flat = timedChunks(0..<p, progress: progress, "height_update_random peer") { range in
            for k in range { peer.setHeight(heights[k], ofRow: rows[k]) }
        }
        try agreement.check(store, peer, rowsAndOffsets: Array(rows[0..<p]), "after \(p) height updates")
        tessera &+= try timedChunks(p..<m, progress: progress, "height_update_random tessera") {
            range throws(TesseraError) in
            for k in range { try store.setHeight(heights[k], ofRow: rows[k]) }
        }
        // Back to the peer's state: the rows changed only by Tessera get the peer's heights.
        progress.begin("restoring the store", total: m - p)
        for k in p..<m { try store.setHeight(Double(peer.heights[rows[k]]) / FlatPrefixArray.unitsPerPoint, ofRow: rows[k]) }
        progress.end()
        try agreement.check(store, peer, rowsAndOffsets: Array(rows[p..<Swift.min(m, p + 100)]), "after undoing height updates")
        return TimedResult(
            name: "height_update_random", unit: "ns/op", value: Double(tessera) / Double(m),
            peerValue: Double(flat) / Double(p), target: .speedupAtLeast(1000), operations: m, peerOperations: p)
    }

    func removeMiddle(
        _ store: inout RowStore, _ peer: inout FlatPrefixArray, _ rng: inout Xoshiro256,
        _ agreement: inout Agreement, operations m: Int, peerOperations p: Int
    ) throws(TesseraError) -> TimedResult {
        let n = store.count
        let positions = (0..<m).map { k in Self.middle(n - k, &rng) }
        var tessera = try timedChunks(0..<p, progress: progress, "remove_middle tessera") { range throws(TesseraError) in
            for k in range { try store.removeRows(positions[k]..<(positions[k] + 1)) }
        }
        let flat = timedChunks(0..<p, progress: progress, "remove_middle peer") { range in
            for k in range { peer.remove(at: positions[k]) }
        }
        try agreement.check(store, peer, rowsAndOffsets: Array(positions[0..<p]), "after \(p) removals")
        tessera &+= try timedChunks(p..<m, progress: progress, "remove_middle tessera") { range throws(TesseraError) in
            for k in range { try store.removeRows(positions[k]..<(positions[k] + 1)) }
        }
        guard store.count == n - m else {
            Agreement.fail("after \(m) removals Tessera holds \(store.count) rows, expected \(n - m)")
        }
        return TimedResult(
            name: "remove_middle", unit: "ns/op", value: Double(tessera) / Double(m), peerValue: Double(flat) / Double(p),
            target: .speedupAtLeast(1000), operations: m, peerOperations: p)
    }
}
