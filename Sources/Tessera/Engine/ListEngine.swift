/// A list as a host scrolls it: the rows, the viewport and the scroll anchor. Every
/// change made through the engine returns the corrected scroll offset, which keeps the
/// row under the user's eye exactly where it was, whether rows above it were inserted,
/// removed or re-measured (what `maintainVisibleContentPosition` promises and estimated
/// self-sizing lists miss).
public struct ListEngine: ~Copyable {
    public private(set) var store: RowStore
    /// The current scroll offset (top of the viewport), in points.
    public private(set) var scrollOffset: Double = 0
    public private(set) var viewport: Double
    /// The first visible row and the offset inside it; nil while the list is empty.
    public private(set) var anchor: ScrollAnchor?

    public init(store: consuming RowStore, viewport: Double) throws(TesseraError) {
        guard viewport.isFinite, viewport >= 0 else { throw .invalidViewport(viewport) }
        anchor = try store.anchor(atOffset: 0)
        self.store = store
        self.viewport = viewport
    }

    /// The furthest the content scrolls.
    public var maximumScrollOffset: Double { max(store.totalHeight - viewport, 0) }

    /// Scrolls to `offset` (clamped to the content) and anchors there.
    @discardableResult
    public mutating func scroll(to offset: Double) throws(TesseraError) -> Double {
        guard offset.isFinite, offset >= 0 else { throw .invalidOffset(offset) }
        scrollOffset = min(offset, maximumScrollOffset)
        anchor = try store.anchor(atOffset: scrollOffset)
        return scrollOffset
    }

    public mutating func setViewport(_ height: Double) throws(TesseraError) {
        guard height.isFinite, height >= 0 else { throw .invalidViewport(height) }
        viewport = height
        try scroll(to: min(scrollOffset, maximumScrollOffset))
    }

    /// The visible rows plus overscan, into `buffer` (see `RowStore.window`).
    public func window(overscan: Double = 0, into buffer: UnsafeMutableBufferPointer<VisibleRow>)
        throws(TesseraError) -> WindowRange
    {
        try store.window(
            offset: scrollOffset, viewport: viewport, overscanBefore: overscan, overscanAfter: overscan, into: buffer)
    }

    // MARK: Changes, each returning the corrected scroll offset

    @discardableResult
    public mutating func insert(ids: [UInt64], kinds: [UInt16], heights: [Double]? = nil, text: RowText? = nil, at index: Int)
        throws(TesseraError) -> Double
    {
        try store.insert(ids: ids, kinds: kinds, heights: heights, text: text, at: index)
        return reanchor()
    }

    @discardableResult
    public mutating func append(ids: [UInt64], kinds: [UInt16], heights: [Double]? = nil, text: RowText? = nil)
        throws(TesseraError) -> Double
    {
        try insert(ids: ids, kinds: kinds, heights: heights, text: text, at: store.count)
    }

    @discardableResult
    public mutating func removeRows(_ range: Range<Int>) throws(TesseraError) -> Double {
        try store.removeRows(range)
        return reanchor()
    }

    @discardableResult
    public mutating func setHeight(_ height: Double, ofRow row: Int) throws(TesseraError) -> Double {
        try store.setHeight(height, ofRow: row)
        return reanchor()
    }

    @discardableResult
    public mutating func invalidateHeight(ofRow row: Int) throws(TesseraError) -> Double {
        try store.invalidateHeight(ofRow: row)
        return reanchor()
    }

    public mutating func updateFlags(ofRow row: Int, setting set: RowFlags = [], clearing clear: RowFlags = [])
        throws(TesseraError)
    {
        try store.updateFlags(ofRow: row, setting: set, clearing: clear)
    }

    /// Puts the anchor row back where it was seen. If it was removed, the offset stays and
    /// the row now under it becomes the anchor, as UIKit and RecyclerView keep the rows
    /// above a deletion still.
    mutating func reanchor() -> Double {
        if let anchor, let kept = store.offset(keeping: anchor) {
            scrollOffset = kept
        }
        scrollOffset = min(scrollOffset, maximumScrollOffset)
        anchor = try? store.anchor(atOffset: scrollOffset)
        return scrollOffset
    }
}
