import Tessera

/// The peer of the scroll run: estimate-and-correct virtualization, as FlashList,
/// FlatList, TanStack Virtual and self-sizing UICollectionView do it, over a flat prefix
/// array (`FlatPrefixArray`).
///
/// - Rows start at their kind's estimated height (the profile's, as Tessera's do).
/// - Each frame the list applies the scroll, finds the rows of the window (viewport plus
///   the same overscan as Tessera: FlashList's draw distance, TanStack's overscan) by
///   binary search and draws them; rows not measured yet are drawn at their estimate (a
///   blank row when inside the viewport). Then it measures them — a real list renders a
///   cell to measure it, so measuring follows drawing (onLayout, ResizeObserver,
///   preferredLayoutAttributesFitting) — with the same `CellMeasurer`, text engine and
///   profile as Tessera, and rebuilds the offsets once from the first changed row.
/// - No anchor is kept: the scroll offset stays where it was, so a correction or an insert
///   above the viewport moves what the user sees. When the content shrinks below the
///   offset, the offset is clamped, as a scroll view clamps it.
///
/// Grids (the collection profile) pack items into lines exactly as Tessera does: a line's
/// height (with the padding above the first line and the row gap or bottom padding after
/// it) is stored on its first item and the others hold 0, so the same prefix array serves.
final class EstimateAndCorrectList: ScrollingList {
    let viewport: Double
    let overscan: Double
    private var geometry: FlatPrefixArray
    private(set) var offset = 0.0
    let shown: UnsafeMutableBufferPointer<ShownItem>
    private(set) var shownCount = 0
    private(set) var shownOffset = 0.0

    private let measurer: CellMeasurer
    private let estimates: [UInt32]
    /// Per row: the generated row it shows (its text), its own height in units and whether
    /// that height was measured.
    private var source: [Int32]
    private var itemUnits: [UInt32]
    private var measured: [Bool]
    /// Grid only: per kind, whether it packs into lines; per row, its line's first row.
    private let inGrid: [Bool]?
    private let grid: GridMetrics?
    private var leader: [Int32] = []
    private let gridPadding: UInt32, gridRowGap: UInt32

    private let rows: ScrollRows
    /// The rows being drawn this frame (indexes into the list), measured after the draw.
    private let drawn: UnsafeMutableBufferPointer<Int>
    private(set) var measuredRows = 0
    /// Rows of offsets rewritten by corrections and inserts over the run.
    private(set) var rebuiltOffsets = 0

    init(profile: Profile, environment: LayoutEnvironment, viewport: Double, overscan: Double, rows: ScrollRows) throws {
        self.viewport = viewport
        self.overscan = overscan
        self.rows = rows
        measurer = try CellMeasurer(profile: profile, environment: environment, textEngine: TextLayoutEngine())
        let estimates = profile.estimatedHeights(platform: environment.platform).map(FlatPrefixArray.units)
        self.estimates = estimates
        grid = profile.hasGrid ? measurer.grid : nil
        if grid != nil {
            var flags = [Bool](repeating: false, count: Int(profile.kinds.map(\.code).max() ?? 0) + 1)
            for name in profile.gridKinds { if let k = profile.kind(named: name) { flags[Int(k.code)] = true } }
            inGrid = flags
        } else {
            inGrid = nil
        }
        gridPadding = FlatPrefixArray.units(grid?.padding ?? 0)
        gridRowGap = FlatPrefixArray.units(grid?.rowGap ?? 0)
        let loaded = rows.loaded, ids = loaded.map(rows.id)
        source = loaded.map { Int32($0) }
        let kinds = Array(rows.rows.kinds[loaded])
        itemUnits = kinds.map { estimates[Int($0)] }
        measured = [Bool](repeating: false, count: loaded.count)
        geometry = FlatPrefixArray()
        geometry.insert(ids: ids, kinds: kinds, heightUnits: itemUnits, at: 0)
        shown = .allocate(capacity: TesseraScrollList.capacity)
        drawn = .allocate(capacity: TesseraScrollList.capacity)
        if grid != nil { repackLines(from: 0) }
    }

    deinit {
        shown.deallocate()
        drawn.deallocate()
    }

    var count: Int { geometry.count }
    var totalHeight: Double { geometry.totalHeight }
    var maximumOffset: Double { max(geometry.totalHeight - viewport, 0) }

    func frame(_ input: ScrollInput, insertBatch: Int?) throws -> FrameCost {
        let cpu = ThreadCPUClock.now(), start = MonotonicClock.now()
        var delta = 0.0
        switch input {
        case .drag(let d):
            let to = max(0, min(offset + d, maximumOffset))
            delta = to - offset
            offset = to
        case .toRow(let row): offset = min(geometry.offset(ofRow: row), maximumOffset)
        case .toEnd: offset = maximumOffset
        case .toTop: offset = 0
        }
        if let b = insertBatch { insert(rows.batches[b]) }

        // Draw the window as the geometry stands.
        let n = draw()

        // Then measure what was drawn unmeasured and correct the offsets once.
        var first = Int.max
        let s = rows.rows.slotsPerRow
        rows.rows.withColumns { _, utf8, offsets in
            for i in 0..<n {
                let r = drawn[i]
                guard !measured[r] else { continue }
                let g = Int(source[r])
                let h = measurer.height(kind: geometry.kinds[r], utf8: utf8, slotOffsets: CellRows.slotOffsets(offsets, row: g, slotsPerRow: s))
                itemUnits[r] = FlatPrefixArray.units(h)
                measured[r] = true
                measuredRows += 1
                if grid == nil { geometry.setHeightUnits(itemUnits[r], ofRow: r) }
                first = min(first, r)
            }
        }
        if first != .max {
            if grid != nil {
                first = Int(leader[first])
                updateLines(from: first, through: drawn[n - 1])
            }
            geometry.rebuildOffsets(from: first)
            rebuiltOffsets += count - first
        }
        // A scroll view clamps its offset when the content shrinks under it.
        offset = min(offset, maximumOffset)
        let ns = MonotonicClock.now() &- start
        return FrameCost(wall: ns, cpu: ThreadCPUClock.now() &- cpu, userDelta: delta)
    }

    /// The rows intersecting `[offset - overscan, offset + viewport + overscan)`, into
    /// `drawn` and, as the user sees them, into `shown`. Returns how many.
    private func draw() -> Int {
        let total = geometry.totalUnits
        let lo = max(0, Int64(((offset - overscan) * FlatPrefixArray.unitsPerPoint).rounded(.down)))
        let hi = Int64(((offset + viewport + overscan) * FlatPrefixArray.unitsPerPoint).rounded(.up))
        var n = 0
        shownOffset = offset
        guard lo < total else {
            shownCount = 0
            return 0
        }
        var r = geometry.row(coveringUnits: lo)
        if grid != nil { r = Int(leader[r]) }
        let count = self.count
        while r < count, n < TesseraScrollList.capacity {
            let top = geometry.topUnits(ofRow: grid == nil ? r : Int(leader[r]))
            if top >= hi { break }
            let lineLeader = grid == nil ? r : Int(leader[r])
            let y = Double(top + (lineLeader == 0 ? Int64(gridPadding) : 0)) / FlatPrefixArray.unitsPerPoint
            drawn[n] = r
            shown[n] = ShownItem(id: geometry.ids[r], y: y, height: Double(itemUnits[r]) / FlatPrefixArray.unitsPerPoint, measured: measured[r])
            n += 1
            r += 1
        }
        shownCount = n
        return n
    }

    /// New rows at the top at their estimates; every offset after them is rewritten.
    private func insert(_ batch: Range<Int>) {
        let kinds = Array(rows.rows.kinds[batch])
        let units = kinds.map { estimates[Int($0)] }
        source.insert(contentsOf: batch.map { Int32($0) }, at: 0)
        itemUnits.insert(contentsOf: units, at: 0)
        measured.insert(contentsOf: repeatElement(false, count: batch.count), at: 0)
        geometry.insert(ids: batch.map(rows.id), kinds: kinds, heightUnits: units, at: 0)
        if grid != nil {
            // Every item after the new ones moves to another column: lines form again.
            leader.insert(contentsOf: repeatElement(0, count: batch.count), at: 0)
            repackLines(from: 0)
            geometry.rebuildOffsets(from: 0)
        }
        rebuiltOffsets += count
    }

    // MARK: Grid lines

    /// Packs rows `from...` (a line's first row) into lines: grid kinds `columnCount` to a
    /// line, other kinds a line each; a line's span goes on its first row, 0 on the others.
    private func repackLines(from: Int) {
        guard let grid, let inGrid else { return }
        let count = self.count
        if leader.count != count { leader = [Int32](repeating: 0, count: count) }
        var r = from
        while r < count {
            var end = r + 1
            if inGrid[Int(geometry.kinds[r])] {
                while end < count, end - r < grid.columnCount, inGrid[Int(geometry.kinds[end])] { end += 1 }
            }
            setLine(r, end)
            r = end
        }
    }

    /// Recomputes the spans of the lines from the one starting at `from` through the line
    /// holding `last` (items' heights changed; the lines themselves did not).
    private func updateLines(from: Int, through last: Int) {
        var r = from
        while r <= last {
            var end = r + 1
            while end < count, Int(leader[end]) == r { end += 1 }
            setLine(r, end)
            r = end
        }
    }

    /// The line `leader..<end`: its span on the leader, 0 on the others.
    private func setLine(_ first: Int, _ end: Int) {
        var tallest: UInt32 = 0
        for i in first..<end {
            tallest = max(tallest, itemUnits[i])
            leader[i] = Int32(first)
            geometry.setHeightUnits(0, ofRow: i)
        }
        let span = (first == 0 ? gridPadding : 0) + tallest + (end == count ? gridPadding : gridRowGap)
        geometry.setHeightUnits(span, ofRow: first)
    }

    /// The measured height (points) of row `r` of the list, or nil while it is unmeasured.
    func measuredHeight(ofRow r: Int) -> Double? {
        measured[r] ? Double(itemUnits[r]) / FlatPrefixArray.unitsPerPoint : nil
    }

    func id(ofRow r: Int) -> UInt64 { geometry.ids[r] }
}
