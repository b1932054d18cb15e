import Tessera

/// Tessera's side of the scroll run: a profile-driven `ListEngine` as a host drives it.
/// Each frame: apply the user's scroll, measure every unmeasured row of the window (the
/// viewport and its overscan) before anything is drawn, then up to `backgroundRows` more
/// rows nearest the window (the engine's priority order), keep the anchor, and query the
/// window the host draws. Nothing here allocates per row: the window goes into one buffer
/// made at the start.
final class TesseraScrollList: ScrollingList {
    var engine: ListEngine
    let viewport: Double
    let backgroundRows: Int
    let batches: [(ids: [UInt64], kinds: [UInt16], text: RowText)]
    private let items: UnsafeMutableBufferPointer<VisibleItem>
    let shown: UnsafeMutableBufferPointer<ShownItem>
    private(set) var shownCount = 0
    private(set) var shownOffset = 0.0
    /// Window queries and measure calls of the run (the frame loop's work, for the notes).
    private(set) var windowQueries = 0
    private(set) var measuredRows = 0

    static let capacity = 8_192
    /// Rounds of "measure the window, look again" in one frame before giving up (a
    /// correction can pull new rows into the window; two rounds settle it in practice).
    static let settleRounds = 8

    init(engine: consuming ListEngine, viewport: Double, backgroundRows: Int, batches: [(ids: [UInt64], kinds: [UInt16], text: RowText)]) {
        self.engine = engine
        self.viewport = viewport
        self.backgroundRows = backgroundRows
        self.batches = batches
        items = .allocate(capacity: Self.capacity)
        shown = .allocate(capacity: Self.capacity)
    }

    deinit {
        items.deallocate()
        shown.deallocate()
    }

    func frame(_ input: ScrollInput, insertBatch: Int?) throws -> FrameCost {
        let cpu = ThreadCPUClock.now(), start = MonotonicClock.now()
        var delta = 0.0
        switch input {
        case .drag(let d):
            // A drag longer than the overscan is taken in overscan-sized steps, measuring in
            // between, so the anchor always lands on a row measured before it is seen.
            let step = max(engine.overscan, 1)
            var remaining = d
            while remaining != 0 {
                let s = max(-step, min(step, remaining))
                let before = engine.scrollOffset
                let after = try engine.scroll(to: max(0, before + s))
                delta += after - before
                remaining -= s
                try settle()
                if after == before { break }
            }
        case .toRow(let row):
            try engine.scroll(to: engine.store.offset(ofRow: row))
            try settle()
        case .toEnd:
            // The end moves as the last rows are measured: scroll to it until it stays.
            for _ in 0..<Self.settleRounds {
                try engine.scroll(to: engine.maximumScrollOffset)
                try settle()
                if engine.scrollOffset == engine.maximumScrollOffset { break }
            }
        case .toTop:
            try engine.scroll(to: 0)
            try settle()
        }
        if let b = insertBatch {
            let batch = batches[b]
            try engine.insert(ids: batch.ids, kinds: batch.kinds, text: batch.text, at: 0)
            try settle()
        }
        if backgroundRows > 0 { measuredRows += try engine.measure(budget: .rows(backgroundRows)).measured }
        let window = try engine.window(into: items)
        windowQueries += 1
        let ns = MonotonicClock.now() &- start, cpuNs = ThreadCPUClock.now() &- cpu

        // What the host draws (outside the timed work).
        shownOffset = engine.scrollOffset
        shownCount = window.count
        for i in 0..<window.count {
            let item = items[i]
            shown[i] = ShownItem(id: item.id, y: item.y, height: item.height, measured: !item.flags.contains(.dirty))
        }
        return FrameCost(wall: ns, cpu: cpuNs, userDelta: delta)
    }

    /// Measures the window's unmeasured rows until the window holds none (the engine
    /// measures the visible rows first, then the overscan, and keeps the anchor).
    private func settle() throws {
        for _ in 0..<Self.settleRounds {
            let window = try engine.window(into: items)
            windowQueries += 1
            var dirty = 0
            for i in 0..<window.count where items[i].flags.contains(.dirty) { dirty += 1 }
            if dirty == 0 { return }
            measuredRows += try engine.measure(budget: .rows(dirty)).measured
        }
    }
}
