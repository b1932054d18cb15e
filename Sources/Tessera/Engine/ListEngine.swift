/// A list as a host scrolls it: the rows, the viewport and the scroll anchor. Every
/// change made through the engine returns the corrected scroll offset, which keeps the
/// row under the user's eye exactly where it was, whether rows above it were inserted,
/// removed or re-measured (what `maintainVisibleContentPosition` promises and estimated
/// self-sizing lists miss).
///
/// Two modes. `init(store:viewport:)` drives a store whose heights the host sets (or
/// leaves at their estimates). `init(profile:environment:viewport:)` drives a list of a
/// profile's cell kinds: rows carry their values, the engine validates them, measures them
/// when asked (`measure(budget:)`, `measureAll(threads:)`), re-measures after environment
/// changes, and reports sticky headers, dividers and grid positions (see
/// ListEngine+Profile.swift).
public struct ListEngine: ~Copyable {
    public internal(set) var store: RowStore
    /// The current scroll offset (top of the viewport), in points.
    public internal(set) var scrollOffset: Double = 0
    public private(set) var viewport: Double
    /// The first visible row and the offset inside it; nil while the list is empty.
    public private(set) var anchor: ScrollAnchor?
    /// In a grid: the padding above the items of the anchor row's line that
    /// `anchor.offsetInRow` counts (the grid's top padding when the anchor is the first
    /// line, which carries it in its span; 0 otherwise), in points. A change that moves
    /// the padding (rows inserted above the first line, or removed up to the anchor's)
    /// takes it back out, so the anchor's items stay still.
    private(set) var anchorPadding: Double = 0
    /// Points beyond each edge of the viewport that the profile window query reports and
    /// that `measure(budget:)` measures right after the visible rows.
    public internal(set) var overscan: Double = 0
    /// The profile-driven state; nil for a store-driven list.
    var layout: ProfileLayout?
    /// Diffs snapshots against the rows (`prepare`), keeping its scratch between batches.
    let differ = KeyedDiffer()
    /// Swipe and selection state by row id (ListEngine+Interaction.swift).
    var interaction = InteractionState()

    public init(store: consuming RowStore, viewport: Double) throws(TesseraError) {
        guard viewport.isFinite, viewport >= 0 else { throw .invalidViewport(viewport) }
        // No profile yet, so no grid: no padding in the anchor.
        anchor = try store.anchor(atOffset: 0)
        self.store = store
        self.viewport = viewport
        adoptInteractionFlags()
    }

    /// The furthest the content scrolls.
    public var maximumScrollOffset: Double { max(store.totalHeight - viewport, 0) }

    /// Scrolls to `offset` (clamped to the content) and anchors there.
    @discardableResult
    public mutating func scroll(to offset: Double) throws(TesseraError) -> Double {
        guard offset.isFinite, offset >= 0 else { throw .invalidOffset(offset) }
        scrollOffset = min(offset, maximumScrollOffset)
        try anchorAtScrollOffset()
        // A swiped row scrolled out of the viewport closes; off screen, nothing to report.
        _ = closeSwipeIfHidden()
        return scrollOffset
    }

    public mutating func setViewport(_ height: Double) throws(TesseraError) {
        guard height.isFinite, height >= 0 else { throw .invalidViewport(height) }
        viewport = height
        try scroll(to: min(scrollOffset, maximumScrollOffset))
    }

    /// The visible rows plus overscan, into `buffer` (see `RowStore.window`): the store's
    /// rows as they are. A profile-driven list answers with cell frames, dividers and the
    /// sticky header through `window(overscan:into:)` with `VisibleItem`s (in a grid the
    /// store's rows are items holding their line's height on the first one).
    public func window(overscan: Double = 0, into buffer: UnsafeMutableBufferPointer<VisibleRow>)
        throws(TesseraError) -> WindowRange
    {
        try store.window(
            offset: scrollOffset, viewport: viewport, overscanBefore: overscan, overscanAfter: overscan, into: buffer)
    }

    // MARK: Changes, each returning the corrected scroll offset

    /// Inserts rows before row `index`. A profile-driven list takes no heights: each row
    /// is checked against its kind's rules and the groups it joins (all or nothing), starts
    /// at its kind's estimate and is dirty until measured. `versions` are the rows' content
    /// versions (0 when nil), which `apply` diffs against.
    @discardableResult
    public mutating func insert(
        ids: [UInt64], kinds: [UInt16], heights: [Double]? = nil, text: RowText? = nil, versions: [UInt64]? = nil, at index: Int
    ) throws(TesseraError) -> Double {
        if let layout {
            return try insertProfiled(layout, ids: ids, kinds: kinds, heights: heights, text: text, versions: versions, at: index)
        }
        try store.insert(ids: ids, kinds: kinds, heights: heights, text: text, versions: versions, at: index)
        return reanchor()
    }

    @discardableResult
    public mutating func append(
        ids: [UInt64], kinds: [UInt16], heights: [Double]? = nil, text: RowText? = nil, versions: [UInt64]? = nil
    ) throws(TesseraError) -> Double {
        try insert(ids: ids, kinds: kinds, heights: heights, text: text, versions: versions, at: store.count)
    }

    /// `insert` of a store-driven list from borrowed columns (the C ABI's path: the host's
    /// arrays are read in place, not copied first). All or nothing.
    @discardableResult
    package mutating func insert(_ rows: RowColumns, at index: Int) throws(TesseraError) -> Double {
        guard layout == nil else { throw .unsupported("borrowed columns on a profile-driven list") }
        try store.insert(rows, at: index)
        return reanchor()
    }

    /// Removes rows `range`. In a profile-driven list the groups left behind must still
    /// obey the profile's group rules.
    @discardableResult
    public mutating func removeRows(_ range: Range<Int>) throws(TesseraError) -> Double {
        if let layout {
            let offset = try removeProfiled(layout, range)
            _ = pruneInteractionState()
            return offset
        }
        try store.removeRows(range)
        _ = pruneInteractionState()
        return reanchor()
    }

    /// Sets a row's measured height. A profile-driven list measures its rows itself and
    /// throws `unsupported`.
    @discardableResult
    public mutating func setHeight(_ height: Double, ofRow row: Int) throws(TesseraError) -> Double {
        guard layout == nil else { throw .unsupported("setHeight on a profile-driven list: the engine measures its rows") }
        try store.setHeight(height, ofRow: row)
        return reanchor()
    }

    /// Returns a row to its kind's estimate. In a profile-driven list the row keeps its
    /// height and becomes dirty, to be measured again.
    @discardableResult
    public mutating func invalidateHeight(ofRow row: Int) throws(TesseraError) -> Double {
        if let layout {
            try store.checkRow(row)
            if store.flagBits(ofRow: row) & RowFlags.dirty.rawValue == 0 {
                store.setFlagBits(RowFlags.dirty.rawValue, ofRow: row)
                layout.dirtyCount += 1
                layout.clean = nil
            }
            return scrollOffset
        }
        try store.invalidateHeight(ofRow: row)
        return reanchor()
    }

    /// Sets and clears host-settable flags of a row directly, for hosts that keep swipe and
    /// selection themselves (the C ABI): `selected` and `swipeOpen` are mirrored into the
    /// id-keyed state without the checks of `select` and `swipe`.
    public mutating func updateFlags(ofRow row: Int, setting set: RowFlags = [], clearing clear: RowFlags = [])
        throws(TesseraError)
    {
        try store.updateFlags(ofRow: row, setting: set, clearing: clear)
        mirrorFlags(ofRow: row, set: set, clear: clear)
    }

    /// Puts the anchor row back where it was seen. If it was removed, the offset stays and
    /// the row now under it becomes the anchor, as UIKit and RecyclerView keep the rows
    /// above a deletion still.
    mutating func reanchor() -> Double {
        reanchor(keeping: anchor)
        return scrollOffset
    }

    /// Puts `keep` where it was seen (its row's line in a grid); without it, or when its
    /// row is gone, the offset stays. Then clamps and anchors at the row under the offset.
    mutating func reanchor(keeping keep: ScrollAnchor?) {
        if let keep, let kept = keptOffset(keep) { scrollOffset = kept }
        scrollOffset = min(scrollOffset, maximumScrollOffset)
        // The offset is in range: nothing throws.
        try? anchorAtScrollOffset()
    }

    /// Anchors at the row covering the scroll offset (nil past the content), noting the
    /// padding its offset counts in a grid.
    mutating func anchorAtScrollOffset() throws(TesseraError) {
        guard let (row, inside) = try store.row(atOffset: scrollOffset) else {
            anchor = nil
            anchorPadding = 0
            return
        }
        anchor = ScrollAnchor(id: try store.row(row).id, offsetInRow: inside)
        // The covering row of a grid is a line's first row (the others hold 0); row 0's
        // line is the first, whose span starts with the padding.
        anchorPadding = row == 0 ? layout?.firstLinePadding ?? 0 : 0
    }

    /// Where `anchor` is seen now (nil when its row is gone). In a grid the items of the
    /// anchor row's line keep their place: the line may now start at another row after a
    /// re-pack, and it may have become, or stopped being, the first line, whose span has
    /// the padding above its items (`anchorPadding`). The distance into the line is capped
    /// by its span, as a row's is by its height.
    func keptOffset(_ anchor: ScrollAnchor) -> Double? {
        guard let layout, layout.isGrid else { return store.offset(keeping: anchor) }
        guard let row = store.index(of: anchor.id) else { return nil }
        let leader = layout.lineStart(row, store)
        let padding = leader == 0 ? layout.firstLinePadding : 0
        // Unchanged padding adds exactly 0, so the offset is the same double as a list's.
        let inside = anchor.offsetInRow + (padding - anchorPadding)
        return LayoutUnit.points(store.top(ofRow: leader)) + min(inside, LayoutUnit.points(store.heightUnits(ofRow: leader)))
    }
}
