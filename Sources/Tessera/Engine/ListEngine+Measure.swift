import CJemalloc
import Dispatch

/// How much one `measure(budget:)` call may do.
public enum MeasureBudget: Sendable, Equatable {
    /// At most this many rows.
    case rows(Int)
    /// Until this many nanoseconds (monotonic clock) have passed; checked before each row,
    /// so a call may overrun by one row's measurement.
    case nanoseconds(UInt64)
}

/// What a `measure(budget:)` call did.
public struct MeasureProgress: Sendable, Equatable {
    /// Rows measured by the call.
    public var measured: Int
    /// Rows still dirty.
    public var remaining: Int
    /// The corrected scroll offset.
    public var scrollOffset: Double

    public init(measured: Int, remaining: Int, scrollOffset: Double) {
        self.measured = measured
        self.remaining = remaining
        self.scrollOffset = scrollOffset
    }
}

extension ListEngine {
    /// Measures dirty rows in priority order within `budget`: the visible rows (top down),
    /// then the overscan below and above (each from the viewport outward), then the rest
    /// outward from there, nearest first (rows from the overscan's edge; below first on a
    /// tie), so budgets alternate below and above and neither side starves. In a grid the
    /// window's rows are whole lines. The heights go into the geometry together,
    /// then the anchor row is put back where it was seen, so visible content never jumps.
    /// Successive calls do not rescan rows they already found clean.
    /// `accept` is asked once the heights are computed and before any is stored: false
    /// discards them and changes nothing (a host measure callback that answered a bad
    /// width, which the C ABI reports as a failure of the whole call).
    /// - Throws: `invalidBudget` for a negative row count.
    @discardableResult
    public mutating func measure(budget: MeasureBudget, acceptIf accept: () -> Bool = { true }) throws(TesseraError) -> MeasureProgress {
        var limit = Int.max, deadline = UInt64.max
        switch budget {
        case .rows(let n):
            guard n >= 0 else { throw .invalidBudget(rows: n) }
            limit = n
        case .nanoseconds(let ns):
            let (d, overflow) = EngineClock.now().addingReportingOverflow(ns)
            deadline = overflow ? .max : d
        }
        guard let layout, layout.dirtyCount > 0, limit > 0 else {
            return MeasureProgress(measured: 0, remaining: dirtyCount, scrollOffset: scrollOffset)
        }
        let count = store.count
        let visible = measureWindowRows(before: 0, after: 0)
        let overscanned = measureWindowRows(before: overscan, after: overscan)
        var run = MeasureRun(layout: layout, arena: UnsafeRawPointer(store.text.base), limit: min(limit, layout.dirtyCount), deadline: deadline)

        // The window, then the overscan below and above it.
        run.scan(store, from: visible.lowerBound, to: visible.upperBound)
        run.scan(store, from: visible.upperBound, to: overscanned.upperBound)
        run.scan(store, from: visible.lowerBound - 1, downTo: overscanned.lowerBound)
        let windowDone = !run.stopped

        // Outward, skipping rows known clean around the window.
        var below = overscanned.upperBound, above = overscanned.lowerBound - 1
        if let clean = layout.clean, clean.lowerBound <= overscanned.upperBound, clean.upperBound >= overscanned.lowerBound {
            below = max(below, clean.upperBound)
            above = min(above, clean.lowerBound - 1)
        }
        if windowDone {
            // The nearer of the next dirty rows below and above, by rows from the window's
            // edge (below first on a tie).
            var b = below < count ? store.cursor(atRow: below) : RowCursor(leaf: HeightTree.none, slot: 0, row: count)
            var a = above >= 0 ? store.cursor(atRow: above) : RowCursor(leaf: HeightTree.none, slot: 0, row: -1)
            var haveBelow = run.seek(store, &b, forward: true)
            var haveAbove = run.seek(store, &a, forward: false)
            while !run.stopped && (haveBelow || haveAbove) {
                if haveBelow && (!haveAbove || b.row - overscanned.upperBound <= overscanned.lowerBound - 1 - a.row) {
                    guard run.measure(store, b) else { break }
                    store.advance(&b)
                    haveBelow = run.seek(store, &b, forward: true)
                } else {
                    guard run.measure(store, a) else { break }
                    store.retreat(&a)
                    haveAbove = run.seek(store, &a, forward: false)
                }
            }
            below = b.row
            above = a.row
        }

        guard accept() else { return MeasureProgress(measured: 0, remaining: layout.dirtyCount, scrollOffset: scrollOffset) }
        let measured = run.rows.count
        apply(run: &run)
        if windowDone {
            // Every row between the two scans is clean now.
            layout.clean = (above + 1)..<below
        }
        let offset = reanchor()
        return MeasureProgress(measured: measured, remaining: layout.dirtyCount, scrollOffset: offset)
    }

    /// The rows of the window `[scrollOffset - before, scrollOffset + viewport + after)`
    /// (whole lines in a grid); an empty window gives the empty range at the row under the
    /// scroll offset.
    func measureWindowRows(before: Double, after: Double) -> Range<Int> {
        let count = store.count
        guard count > 0 else { return 0..<0 }
        let window = try? LayoutUnit.window(offset: scrollOffset, length: viewport, before: before, after: after)
        let start = window?.start ?? ((try? LayoutUnit.offset(scrollOffset)) ?? 0)
        guard start < store.tree.totalHeight else { return count..<count }
        let first = store.position(coveringUnits: start)
        guard let (_, end) = window else { return first.row..<first.row }
        var c = RowCursor(leaf: first.leaf, slot: first.slot, row: first.row)
        var y = first.y
        var lines = LineTracker(layout: layout)
        while c.row < count {
            let kind = store.kind(at: c)
            if lines.isLeader(kind), y >= end { break }
            y += store.heightUnits(at: c)
            store.advance(&c)
        }
        return first.row..<c.row
    }

    /// Writes a run's heights to the store (ascending rows), clears their dirty flags and,
    /// in a grid, recomputes the lines they are in.
    mutating func apply(run: inout MeasureRun) {
        guard let layout, !run.rows.isEmpty else { return }
        // Priority order to row order.
        let order = run.rows.indices.sorted { run.rows[$0] < run.rows[$1] }
        let rows = order.map { run.rows[$0] }, units = order.map { run.units[$0] }
        layout.dirtyCount -= rows.count
        rows.withUnsafeBufferPointer { r in
            units.withUnsafeBufferPointer { u in
                if layout.isGrid {
                    store.setItemUnits(rows: r, units: u, clearing: RowFlags.dirty.rawValue)
                    layout.updateLines(holding: r, &store)
                } else {
                    store.setMeasuredHeights(rows: r, units: u, clearing: RowFlags.dirty.rawValue)
                }
            }
        }
    }

    /// Measures every dirty row, on `threads` threads, each with its own measurer and text
    /// engine (created once and kept); then the heights go into the geometry in one pass
    /// and the anchor row is put back once. Returns the corrected scroll offset.
    ///
    /// With `keepsPreparedTexts` (the default), when most rows are dirty (the first
    /// measurement, or one after an environment change) and no prepared texts are kept,
    /// the rows are split into `threads` contiguous parts and each part's texts are
    /// prepared into a `CellTextBatch` that the engine keeps; every later `measureAll`
    /// while the rows stay the same (environment changes do not change them) measures from
    /// those batches: a new width, width class, edit mode or font scale is arithmetic over
    /// the kept segments. Otherwise the dirty rows are split into `threads` parts of equal
    /// size and measured through the text engines' caches. The heights are the same.
    /// `accept` as for `measure(budget:acceptIf:)`: false stores nothing (and drops the
    /// prepared texts).
    /// - Throws: `invalidThreadCount` outside 1...256.
    @discardableResult
    public mutating func measureAll(threads: Int = ListEngine.processorCount, acceptIf accept: () -> Bool = { true }) throws(TesseraError) -> Double {
        guard threads >= 1, threads <= 256 else { throw .invalidThreadCount(threads) }
        layout?.threadCPU = []
        layout?.keptRows = 0
        guard let layout, layout.dirtyCount > 0 else { return scrollOffset }
        let n = layout.dirtyCount, count = store.count
        let dirty = RowFlags.dirty.rawValue
        var rows: [Int32] = [], units: [UInt32] = []
        swap(&rows, &layout.passRows)
        swap(&units, &layout.passUnits)
        defer {
            swap(&rows, &layout.passRows)
            swap(&units, &layout.passUnits)
        }
        if rows.count < count {
            rows = Self.uninitialized(count)
            units = Self.uninitialized(count)
        }
        let found: Int
        if layout.keepsPreparedTexts && (layout.batchesAreValid(store) || 2 * n >= count) {
            found = measureAllPrepared(layout, threads: threads, rows: &rows, units: &units)
        } else {
            measureAllDirty(layout, threads: threads, rows: &rows, units: &units)
            found = n
        }
        guard accept() else {
            // Nothing stored; texts prepared on this pass may hold the rejected widths.
            layout.rowsChanged()
            layout.batchVersion = nil
            return scrollOffset
        }
        layout.dirtyCount = 0
        rows.withUnsafeBufferPointer { all in
            units.withUnsafeBufferPointer { allUnits in
                let r = UnsafeBufferPointer(rebasing: all[0..<found]), u = UnsafeBufferPointer(rebasing: allUnits[0..<found])
                if layout.isGrid {
                    layout.repack(from: 0, measured: (r, u, dirty), &store)
                } else {
                    store.setMeasuredHeights(rows: r, units: u, clearing: dirty)
                }
            }
        }
        layout.clean = 0..<count
        return reanchor()
    }

    /// `measureAll` through the text engines' caches: the dirty rows split into `threads`
    /// contiguous parts of equal size; the first entries of `rows` and `units` (room for
    /// every row) become the rows in ascending order and their heights (one entry per
    /// dirty row).
    private func measureAllDirty(_ layout: ProfileLayout, threads: Int, rows: inout [Int32], units: inout [UInt32]) {
        let n = layout.dirtyCount, count = store.count
        let parts = min(threads, n)
        // Where each part starts: the cursor at its first dirty row.
        var starts: [RowCursor] = []
        starts.reserveCapacity(parts)
        var c = store.cursor(atRow: 0), seen = 0
        let dirty = RowFlags.dirty.rawValue
        while c.row < count, starts.count < parts {
            if store.flagBits(at: c) & dirty != 0 {
                if seen == n * starts.count / parts { starts.append(c) }
                seen += 1
            }
            store.advance(&c)
        }
        let workers = layout.workers(parts)
        let walker = store.walker
        var cpu = [UInt64](repeating: 0, count: parts)
        defer { layout.threadCPU = cpu }
        rows.withUnsafeMutableBufferPointer { rows in
            units.withUnsafeMutableBufferPointer { units in
              cpu.withUnsafeMutableBufferPointer { cpu in
                let shared = EngineSendable(value: (workers, layout.offsets, starts, rows, units, walker, cpu))
                @Sendable func part(_ p: Int) {
                    let (workers, offsets, starts, rows, units, walker, cpu) = shared.value
                    let started = threadCPUTime()
                    // This thread's own measurer and scratch, read once: nothing per row
                    // touches an object another thread uses.
                    let measurer = workers[p], o = offsets[p], arena = walker.arena
                    measurer.engineBegin(nil)
                    defer {
                        measurer.engineEnd()
                        cpu[p] = threadCPUTime() &- started
                    }
                    var c = starts[p]
                    var i = n * p / parts
                    let end = n * (p + 1) / parts
                    while i < end {
                        let page = walker.page(c.leaf)
                        if page.flags[c.slot] & dirty != 0 {
                            rows[i] = Int32(c.row)
                            units[i] = ProfileLayout.measure(measurer, kind: page.kinds[c.slot], arena: arena, textReference: page.text[c.slot], offsets: o)
                            i += 1
                        }
                        walker.advance(&c)
                    }
                }
                if parts == 1 {
                    part(0)
                } else {
                    DispatchQueue.concurrentPerform(iterations: parts) { part($0) }
                }
              }
            }
        }
    }

    /// Whether a pass over every row of `batch` (`rows` of them) starts each row's loads
    /// ahead: when a row's kept texts and text record average at least `heavyRowBytes`.
    /// Medians of five alternating runs at 3·10^5 rows, with the loads against without:
    /// fiori-android's rows (about 420 bytes) relaid out 39 % faster after a width-class
    /// change and 19 % after a font scale (the cold pass 7 %), fiori-ios's (470) 12 % and
    /// 12 %; George's rows (280) took 13 % longer after a width-class change and the
    /// collection's (160) 9 %, their loads' instructions costing more than the waits they
    /// save.
    static func rowsAreHeavy(_ batch: CellTextBatch, _ rows: Int, textBytesPerRow: Double) -> Bool {
        Double(batch.bytes) / Double(max(rows, 1)) + textBytesPerRow >= heavyRowBytes
    }

    static let heavyRowBytes = 384.0

    /// `measureAll` with prepared texts: the kept batches' row ranges (or, when none are
    /// valid, `threads` new ranges of equal size whose texts each worker prepares first),
    /// range `i` measured by worker `i % threads`. Each range's dirty rows go to
    /// `rows`/`units` (room for every row) from the range's first row on, then the parts
    /// are closed up in place; returns how many entries that leaves.
    private func measureAllPrepared(_ layout: ProfileLayout, threads: Int, rows rangeRows: inout [Int32], units rangeUnits: inout [UInt32]) -> Int {
        let count = store.count
        let building = !layout.batchesAreValid(store)
        if building {
            let parts = max(1, min(threads, count))
            layout.batchRanges = (0..<parts).map { count * $0 / parts..<count * ($0 + 1) / parts }
            layout.batches = []
        }
        let ranges = layout.batchRanges
        let workerCount = min(threads, ranges.count)
        let workers = layout.workers(workerCount)
        let starts = ranges.map { store.cursor(atRow: $0.lowerBound) }
        let walker = store.walker
        let slotsPerRow = layout.slotsPerRow, epoch = layout.epoch
        let dirty = RowFlags.dirty.rawValue
        let dirtyCount = layout.dirtyCount, sparse = !building && 4 * dirtyCount < count
        let textBytesPerRow = Double(store.text.liveBytes) / Double(max(count, 1))
        // Per range: the batch (made by its worker when building), and (entries 2i, 2i + 1)
        // how many dirty rows it had and how many of them kept results gave.
        var made = [CellTextBatch?](repeating: nil, count: ranges.count)
        var found = [Int](repeating: 0, count: 2 * ranges.count)
        let kept = building ? [] : layout.batches
        // Each range writes from its first row's position: at most a row per entry (only
        // the entries written are read).
        var cpu = [UInt64](repeating: 0, count: workers.count)
        defer { layout.threadCPU = cpu }
        cpu.withUnsafeMutableBufferPointer { cpu in
        rangeRows.withUnsafeMutableBufferPointer { rows in
            rangeUnits.withUnsafeMutableBufferPointer { units in
                made.withUnsafeMutableBufferPointer { made in
                    found.withUnsafeMutableBufferPointer { found in
                        let shared = EngineSendable(value: (workers, layout.offsets, starts, ranges, kept, rows, units, made, found, walker, cpu))
                        @Sendable func worker(_ w: Int) {
                            let (workers, offsets, starts, ranges, kept, rows, units, made, found, walker, cpu) = shared.value
                            let started = threadCPUTime()
                            defer { cpu[w] = threadCPUTime() &- started }
                            let measurer = workers[w], o = offsets[w], arena = walker.arena
                            var i = w
                            while i < ranges.count {
                                let range = ranges[i]
                                let batch: CellTextBatch
                                if building {
                                    var builder = measurer.engineBatchBuilder(rowCount: range.count, slotsPerRow: slotsPerRow)
                                    var c = starts[i]
                                    while c.row < range.upperBound {
                                        let page = walker.page(c.leaf)
                                        builder.add(row: c.row - range.lowerBound, kind: page.kinds[c.slot],
                                                    ProfileLayout.values(arena: arena, textReference: page.text[c.slot], offsets: o))
                                        walker.advance(&c)
                                    }
                                    batch = builder.finish()
                                    made[i] = batch
                                } else {
                                    batch = kept[i]
                                }
                                measurer.engineBegin(batch, epoch: epoch)
                                // Heights from kept results alone (`engineKeptHeight`) once
                                // the batch has measured the rows.
                                let keptResults = building ? nil : measurer.engineKeptResults(arena: arena)
                                var k = range.lowerBound, fromKept = 0
                                // Rows measured from kept results read no text record (an image's or a
                                // box stack's value is kept parsed): only the others' are loaded ahead.
                                @inline(__always) func readsRecord(_ kind: UInt16) -> Bool { !(keptResults?.worthTrying(kind) ?? false) }
                                @inline(__always) func measure(_ c: RowCursor, _ page: Page) {
                                    rows[k] = Int32(c.row)
                                    let kind = page.kinds[c.slot], b = c.row &- range.lowerBound
                                    let h: Int64
                                    if let keptResults, keptResults.worthTrying(kind),
                                       let kept = measurer.engineKeptHeight(keptResults, kind: kind, batchRow: b, textReference: page.text + c.slot) {
                                        h = kept
                                        fromKept &+= 1
                                        #if TESSERA_INVARIANTS
                                        let values = ProfileLayout.values(arena: arena, textReference: page.text[c.slot], offsets: o)
                                        let range = measurer.engineWidthRange(batchRow: b)
                                        precondition(h == measurer.engineHeightUnits(kind: kind, values, batchRow: b), "a height from kept results differs from measuring the row")
                                        let full = measurer.engineWidthRange(batchRow: b)
                                        // A row without a range (a fixed-width grid item's) keeps its stamp.
                                        let stamped = range?.epoch == full?.epoch || (full?.low == full?.high && range?.epoch != 0)
                                        precondition(range?.low == full?.low && range?.high == full?.high && stamped && range?.present == full?.present,
                                                     "a width range from kept results differs from measuring the row")
                                        #endif
                                    } else {
                                        let values = ProfileLayout.values(arena: arena, textReference: page.text[c.slot], offsets: o)
                                        h = measurer.engineHeightUnits(kind: kind, values, batchRow: b)
                                    }
                                    units[k] = UInt32(min(max(h, 0), LayoutUnit.maximumRowUnits))
                                    k += 1
                                }
                                if sparse, let view = measurer.engineBatch {
                                    // Few rows to measure, far apart: each one's page columns,
                                    // text record and kept texts would miss in turn. Their
                                    // places are gathered first, then loaded 8, 4 and 2 rows
                                    // ahead in three steps (each reads what the one before loaded).
                                    // Below a quarter of the rows: at 44 % (fiori-android's rows
                                    // after a change of width class) the loop over every row
                                    // took 10 % less time, at 12 % (fiori-ios's after an
                                    // edit-mode toggle) 15 % more.
                                    // `dirtyCount` counts the flagged rows exactly (`_checkInvariants`).
                                    let capacity = max(min(dirtyCount, range.count), 1)
                                    let dirtyRows = UnsafeMutablePointer<RowCursor>.allocate(capacity: capacity)
                                    defer { dirtyRows.deallocate() }
                                    var n = 0
                                    walker.forEach(from: starts[i], below: range.upperBound, flagged: dirty) {
                                        precondition(n < capacity, "more rows flagged dirty than counted")
                                        dirtyRows[n] = $0
                                        n &+= 1
                                    }
                                    for j in 0..<n {
                                        if j &+ 8 < n {
                                            let a = dirtyRows[j &+ 8], page = walker.page(a.leaf)
                                            tess_prefetch(page.kinds + a.slot)
                                            tess_prefetch(page.text + a.slot)
                                            view.pointee.prefetchRow(a.row - range.lowerBound)
                                        }
                                        if j &+ 4 < n {
                                            let a = dirtyRows[j &+ 4], page = walker.page(a.leaf)
                                            if readsRecord(page.kinds[a.slot]) {
                                                let record = arena + Int(page.text[a.slot]) * 4
                                                tess_prefetch(record)
                                                tess_prefetch(record + 64)
                                            }
                                            view.pointee.prefetchTexts(ofRow: a.row - range.lowerBound)
                                        }
                                        if j &+ 2 < n { view.pointee.prefetchSegments(ofRow: dirtyRows[j &+ 2].row - range.lowerBound) }
                                        let c = dirtyRows[j]
                                        measure(c, walker.page(c.leaf))
                                    }
                                } else if let view = measurer.engineBatch, Self.rowsAreHeavy(batch, range.count, textBytesPerRow: textBytesPerRow) {
                                    // Rows whose text record and kept texts span many cache lines: the
                                    // hardware prefetchers fall behind their streams, so each row's
                                    // slots, record, kept texts and segments load 16, 8 and 4 rows ahead
                                    // (the record only within the page). The kept texts and segments
                                    // are columns in row order: where a row's start lies is found
                                    // every eighth row and estimated in between from the batch's mean
                                    // per row (finding it for every row cost more than the loads saved;
                                    // a line or two off costs little). The per-text columns load every
                                    // other row: a row's texts fill a fraction of their lines, and loading
                                    // them for every row left fiori-android's relayouts 3 % slower.
                                    var ahead = LoadAhead(view, keptResults, arena: arena)
                                    let dirtyShift = UInt16(dirty.trailingZeroBitCount), everyRow = dirtyCount == count
                                    var c = starts[i]
                                    while c.row < range.upperBound {
                                        // A page at a time: its columns found once.
                                        let page = walker.page(c.leaf), count = Int(walker.leaves[Int(c.leaf)].count)
                                        let end = Swift.min(count, c.slot &+ (range.upperBound &- c.row))
                                        let flags = page.flags
                                        var slot = c.slot, b = c.row &- range.lowerBound
                                        if everyRow {
                                            while slot < end {
                                                ahead.load(page, slot: slot, count: count, row: b)
                                                if flags[slot] & dirty != 0 { measure(RowCursor(leaf: c.leaf, slot: slot, row: range.lowerBound &+ b), page) }
                                                slot &+= 1
                                                b &+= 1
                                            }
                                        }
                                        while slot < end {
                                            // Some rows clean: eight rows at a time, each row's loads ahead,
                                            // then the dirty ones measured by their bits (where about half
                                            // the rows, in no order, are dirty, a branch per row mispredicts
                                            // one in two; where every row is, eight rows' loads at once cost
                                            // more than that saves).
                                            let first = slot, firstRow = b, last = Swift.min(slot &+ 8, end)
                                            var dirtyRows: UInt32 = 0
                                            while slot < last {
                                                ahead.load(page, slot: slot, count: count, row: b)
                                                dirtyRows |= UInt32(truncatingIfNeeded: (flags[slot] & dirty) >> dirtyShift) << (slot &- first)
                                                slot &+= 1
                                                b &+= 1
                                            }
                                            while dirtyRows != 0 {
                                                let j = dirtyRows.trailingZeroBitCount
                                                measure(RowCursor(leaf: c.leaf, slot: first &+ j, row: range.lowerBound &+ firstRow &+ j), page)
                                                dirtyRows &= dirtyRows &- 1
                                            }
                                        }
                                        c.row &+= end &- c.slot
                                        c.slot = 0
                                        c.leaf = walker.leaves[Int(c.leaf)].next
                                    }
                                } else {
                                    // A page at a time: its columns found once.
                                    var c = starts[i]
                                    while c.row < range.upperBound {
                                        let page = walker.page(c.leaf)
                                        let end = Swift.min(Int(walker.leaves[Int(c.leaf)].count), c.slot &+ (range.upperBound &- c.row))
                                        let flags = page.flags
                                        var slot = c.slot
                                        // A row that reads its text record (not from kept results,
                                        // or a text that needs its bytes) misses unless the record
                                        // was loaded ahead; loading every row's costs as much where
                                        // rows rarely read theirs (George's at a new width). So
                                        // records are loaded eight rows ahead while one measured row
                                        // in 20 or more has read its own, else not at all (`end`
                                        // rows ahead: one loop either way, a second copy of it was slower).
                                        let measured = k &- range.lowerBound
                                        let reads = measured &- fromKept &+ measurer.engineRecordReads
                                        let ahead = keptResults != nil && reads &* 20 >= measured ? 8 : end
                                        while slot < end {
                                            if slot &+ ahead < end { tess_prefetch(arena + Int(page.text[slot &+ ahead]) &* 4) }
                                            if flags[slot] & dirty != 0 { measure(RowCursor(leaf: c.leaf, slot: slot, row: c.row &+ (slot &- c.slot)), page) }
                                            slot &+= 1
                                        }
                                        c.row &+= end &- c.slot
                                        c.slot = 0
                                        c.leaf = walker.leaves[Int(c.leaf)].next
                                    }
                                }
                                measurer.engineEnd()
                                withExtendedLifetime(batch) {}
                                found[2 &* i] = k - range.lowerBound
                                found[2 &* i &+ 1] = fromKept
                                i += workers.count
                            }
                        }
                        if workers.count == 1 {
                            worker(0)
                        } else {
                            DispatchQueue.concurrentPerform(iterations: workers.count) { worker($0) }
                        }
                    }
                }
            }
        }
        }
        if building {
            layout.batches = made.map { $0! }
            layout.batchVersion = store.contentMutations
        }
        // Close the parts up, in row order (each moves towards the front, if at all).
        var at = 0
        for (i, range) in ranges.enumerated() {
            if at != range.lowerBound {
                for j in 0..<found[2 * i] {
                    rangeRows[at + j] = rangeRows[range.lowerBound + j]
                    rangeUnits[at + j] = rangeUnits[range.lowerBound + j]
                }
            }
            at += found[2 * i]
        }
        layout.keptRows = ranges.indices.reduce(0) { $0 + found[2 * $1 + 1] }
        return at
    }

    /// An array of `n` elements whose values the caller writes before reading any.
    private static func uninitialized<T: BitwiseCopyable>(_ n: Int) -> [T] {
        [T](unsafeUninitializedCapacity: n) { _, count in count = n }
    }

    /// Empties the text caches of every measurer of a profile-driven list (the caller's and
    /// `measureAll`'s workers'), e.g. after a host measure callback answered a bad width
    /// that may have been cached.
    public func removeAllCachedTextResults() {
        guard let layout else { return }
        for m in layout.measurers { m.textEngine.removeAllCachedResults() }
    }

    /// Online processors: `measureAll`'s default thread count.
    public static var processorCount: Int { EngineClock.processorCount }
}

/// One `measure(budget:)` call's progress: the rows it measured (in priority order) and
/// their heights, and its limits.
struct MeasureRun {
    let layout: ProfileLayout
    let arena: UnsafeRawPointer
    let limit: Int
    let deadline: UInt64
    var rows: [Int32] = []
    var units: [UInt32] = []
    var stopped = false
    var scanned = 0

    init(layout: ProfileLayout, arena: UnsafeRawPointer, limit: Int, deadline: UInt64) {
        self.layout = layout
        self.arena = arena
        self.limit = limit
        self.deadline = deadline
        rows.reserveCapacity(min(limit, 1 << 16))
        units.reserveCapacity(min(limit, 1 << 16))
    }

    /// Whether the time is up (the clock is read every 64 rows scanned, and before each
    /// measurement).
    @inline(__always)
    mutating func outOfTime(measuring: Bool) -> Bool {
        guard deadline != .max else { return false }
        scanned &+= 1
        guard measuring || scanned & 63 == 0 else { return false }
        if EngineClock.now() >= deadline { stopped = true }
        return stopped
    }

    /// Measures the row under `c` if it is dirty; false when the budget ran out first.
    @inline(__always)
    mutating func visit(_ store: borrowing RowStore, _ c: RowCursor) -> Bool {
        if store.flagBits(at: c) & RowFlags.dirty.rawValue == 0 { return !outOfTime(measuring: false) }
        return measure(store, c)
    }

    /// Measures the (dirty) row under `c`; false when the budget ran out first.
    @inline(__always)
    mutating func measure(_ store: borrowing RowStore, _ c: RowCursor) -> Bool {
        if stopped || outOfTime(measuring: true) { return false }
        rows.append(Int32(c.row))
        units.append(ProfileLayout.measure(layout.measurer, kind: store.kind(at: c), arena: arena, textReference: store.textReference(at: c), offsets: layout.offsets[0]))
        if rows.count >= limit { stopped = true }
        return true
    }

    /// Rows `from..<to`, ascending.
    mutating func scan(_ store: borrowing RowStore, from: Int, to: Int) {
        guard !stopped, from < to else { return }
        var c = store.cursor(atRow: from)
        while c.row < to, !stopped {
            guard visit(store, c) else { return }
            store.advance(&c)
        }
    }

    /// Rows `from` down to `downTo`, descending.
    mutating func scan(_ store: borrowing RowStore, from: Int, downTo: Int) {
        guard !stopped, from >= downTo, from >= 0 else { return }
        var c = store.cursor(atRow: from)
        while c.row >= downTo, !stopped {
            guard visit(store, c) else { return }
            store.retreat(&c)
        }
    }

    /// Moves `c` in its direction to the next dirty row, starting with the row under it;
    /// false at the end of the rows or when time ran out (with `c` on the first row not
    /// looked at).
    mutating func seek(_ store: borrowing RowStore, _ c: inout RowCursor, forward: Bool) -> Bool {
        let count = store.count
        while c.row >= 0, c.row < count {
            if store.flagBits(at: c) & RowFlags.dirty.rawValue != 0 { return true }
            if outOfTime(measuring: false) { return false }
            if forward { store.advance(&c) } else { store.retreat(&c) }
        }
        return false
    }
}

/// Follows grid lines while walking rows forward from a line's first row: tells which
/// rows start a line. Outside grid mode every row does.
struct LineTracker {
    let inGrid: [Bool]?
    let columns: Int
    /// Column of the next grid row (0: it starts a line).
    var column = 0

    init(layout: ProfileLayout?) {
        if let layout, let g = layout.grid {
            inGrid = layout.inGrid
            columns = g.columnCount
        } else {
            inGrid = nil
            columns = 1
        }
    }

    /// Whether the next row, of `kind`, starts a line, and its grid column (0 for a row
    /// outside the grid); advances past it.
    @inline(__always)
    mutating func place(_ kind: UInt16) -> (leader: Bool, column: Int) {
        guard let inGrid else { return (true, 0) }
        guard inGrid[Int(kind)] else {
            column = 0
            return (true, 0)
        }
        let placed = column
        column += 1
        if column == columns { column = 0 }
        return (placed == 0, placed)
    }

    @inline(__always)
    mutating func isLeader(_ kind: UInt16) -> Bool { place(kind).leader }
}

/// What `measureAllPrepared`'s loop over heavy rows loads ahead of each row (see there):
/// its slots and width range 16 rows ahead, its text record 8 ahead (within the page, for
/// kinds not measured from kept results), the per-text columns every other row 8 ahead and
/// segments 4 ahead, found every eighth row and estimated in between.
struct LoadAhead {
    let view: UnsafeMutablePointer<CellTextBatch.View>
    let keptResults: CellMeasurer.KeptResults?
    let arena: UnsafeRawPointer
    /// Means per row in 1/65536 (no division per row).
    let textsPerRow: Int, segmentsPerRow: Int
    var textRow = -1, textAt = 0, segmentRow = -1, segmentAt = 0

    init(_ view: UnsafeMutablePointer<CellTextBatch.View>, _ keptResults: CellMeasurer.KeptResults?, arena: UnsafeRawPointer) {
        let rowCount = max(view.pointee.rowCount, 1)
        self.view = view
        self.keptResults = keptResults
        self.arena = arena
        textsPerRow = (view.pointee.head.count << 16) / rowCount
        segmentsPerRow = (view.pointee.segments.count << 16) / rowCount
    }

    /// The loads for page slot `slot` of `count`, batch row `b`.
    @inline(__always)
    mutating func load(_ page: Page, slot: Int, count: Int, row b: Int) {
        // Rows measured from kept results read no text record (`measureAllPrepared`).
        if slot &+ 8 < count && !(keptResults?.worthTrying(page.kinds[slot &+ 8]) ?? false) {
            let record = arena + Int(page.text[slot &+ 8]) &* 4
            tess_prefetch(record)
            tess_prefetch(record + 64)
        }
        view.pointee.prefetchRow(b &+ 16)
        if b & 7 == 0 {
            // The last anchor's segments start (its column loaded by now).
            if textRow >= 0 { (segmentRow, segmentAt) = (textRow, Int(view.pointee.segmentStart[textAt])) }
            let a = view.pointee.someKeptText(ofRow: b &+ 8)
            if a >= 0 { (textRow, textAt) = (b &+ 8, a) }
        }
        if textRow >= 0 && b & 1 == 0 { view.pointee.prefetchTexts(from: textAt &+ ((b &+ 8 &- textRow) &* textsPerRow) >> 16) }
        if segmentRow >= 0 { view.pointee.prefetchSegments(from: segmentAt &+ ((b &+ 4 &- segmentRow) &* segmentsPerRow) >> 16) }
    }
}

/// A read-only view of the store's pages for worker threads, valid while the store is not
/// mutated.
struct RowWalker {
    let leaves: UnsafeMutablePointer<HeightTree.Leaf>
    let layout: Page.Layout
    let arena: UnsafeRawPointer

    @inline(__always) func page(_ leaf: UInt32) -> Page { Page(leaves[Int(leaf)].page!, layout) }

    /// Calls `body` with each row from `c` on, below row `end`, that has a bit of `mask`
    /// among its flags (page by page: a page's columns are found once).
    @inline(__always) func forEach(from c: RowCursor, below end: Int, flagged mask: UInt16, _ body: (RowCursor) -> Void) {
        var leaf = c.leaf, slot = c.slot, row = c.row
        while row < end {
            let page = page(leaf), flags = page.flags
            let last = Swift.min(Int(leaves[Int(leaf)].count), slot &+ (end &- row))
            for s in slot..<last where flags[s] & mask != 0 { body(RowCursor(leaf: leaf, slot: s, row: row &+ (s &- slot))) }
            row &+= last &- slot
            leaf = leaves[Int(leaf)].next
            guard leaf != HeightTree.none else { return }
            slot = 0
        }
    }

    @inline(__always) func advance(_ c: inout RowCursor) {
        c.row &+= 1
        c.slot &+= 1
        if c.slot >= Int(leaves[Int(c.leaf)].count) {
            let next = leaves[Int(c.leaf)].next
            guard next != HeightTree.none else { return }
            c.leaf = next
            c.slot = 0
        }
    }
}

extension RowStore {
    var walker: RowWalker { RowWalker(leaves: tree.leaves, layout: layout, arena: UnsafeRawPointer(text.base)) }
}
