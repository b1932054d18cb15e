extension RowStore {
    /// The offset of a row's top edge, in points. O(log n).
    public func offset(ofRow row: Int) throws(TesseraError) -> Double {
        try checkRow(row)
        return LayoutUnit.points(top(ofRow: row))
    }

    func top(ofRow row: Int) -> Int64 {
        let found = tree.leaf(containingRow: row)
        return found.leafY + Page(tree.leaves[Int(found.leaf)].page!, layout).top(of: found.slot)
    }

    /// The row that covers offset `y` (its top <= y < its bottom) and how far into it `y`
    /// lies; nil when `y` is at or past the end of the content. O(log n).
    public func row(atOffset y: Double) throws(TesseraError) -> (row: Int, offsetInRow: Double)? {
        let units = try LayoutUnit.offset(y)
        guard units < tree.totalHeight else { return nil }
        let p = position(coveringUnits: units)
        return (p.row, y - LayoutUnit.points(p.y))
    }

    /// Leaf, slot, row index and top of the row covering `y` (< total height).
    func position(coveringUnits y: Int64) -> WindowCursor {
        let found = tree.leaf(containingOffset: y)
        let info = tree.leaves[Int(found.leaf)]
        let page = Page(info.page!, layout)
        page.prefetchRow(near: y - found.leafY, pageHeight: info.height, count: Int(info.count))
        let (slot, top) = page.slot(covering: y, top: found.leafY, count: Int(info.count))
        return WindowCursor(version: version, leaf: found.leaf, leafY: found.leafY, slot: slot, row: found.leafRow + slot, y: top)
    }

    /// The scroll offset that shows `row` at the top, centre or bottom of a viewport,
    /// clamped to the scrollable range `0...max(0, totalHeight - viewport)`, as
    /// `scrollToItem(at:at:)` and `scrollToPosition` do.
    public func scrollOffset(toRow row: Int, anchor: ScrollPosition, viewport: Double) throws(TesseraError) -> Double {
        try checkRow(row)
        guard viewport.isFinite, viewport >= 0 else { throw .invalidViewport(viewport) }
        let top = LayoutUnit.points(top(ofRow: row))
        let height = try self.row(row).height
        let target: Double = switch anchor {
        case .top: top
        case .center: top + height / 2 - viewport / 2
        case .bottom: top + height - viewport
        }
        return min(max(target, 0), max(totalHeight - viewport, 0))
    }
}

/// Where scroll-to-row puts the row in the viewport.
public enum ScrollPosition: Sendable {
    case top, center, bottom
}
