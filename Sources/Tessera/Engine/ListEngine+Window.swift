/// One row of a profile-driven window: where its cell goes in the content (points, x from
/// the leading edge, y from the top) and what it is.
public struct VisibleItem: Equatable, Sendable {
    public var row: Int
    public var id: UInt64
    /// 0 for a row of a list; the grid column's x for a grid item.
    public var x: Double
    public var y: Double
    /// The content width, or a grid item's width.
    public var width: Double
    /// The row's height; a grid item's own height (items are top-aligned in their line).
    public var height: Double
    public var kind: UInt16
    /// The stored flags, plus `RowFlags.divider` when the row draws a divider.
    public var flags: RowFlags

    public init(row: Int, id: UInt64, x: Double, y: Double, width: Double, height: Double, kind: UInt16, flags: RowFlags) {
        self.row = row
        self.id = id
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.kind = kind
        self.flags = flags
    }
}

/// What a profile-driven window query found: its rows (written to the caller's buffer in
/// order) and the header pinned at the top of the viewport.
public struct WindowResult: Equatable, Sendable {
    public var rows: Range<Int>
    public var count: Int { rows.count }
    /// The sticky header of the group under the top of the viewport, with `y` its pinned
    /// position: the viewport's top, or higher when the end of its group pushes it up
    /// (UITableView's plain style, `ListSectionHeader` in lazy lists). Nil when that group
    /// has no header, or a header that does not stick.
    public var stickyHeader: VisibleItem?

    public init(rows: Range<Int>, stickyHeader: VisibleItem?) {
        self.rows = rows
        self.stickyHeader = stickyHeader
    }
}

extension ListEngine {
    /// The rows intersecting `[scrollOffset - overscan, scrollOffset + viewport +
    /// overscan)` (whole lines in a grid) into `buffer`, each with its frame and a divider
    /// flag, and the sticky header. `overscan` defaults to the engine's. Allocates nothing.
    ///
    /// A row draws a divider when its kind has one on the platform, it is a cell (not in a
    /// grid line) and the next row is a cell too, so of the same group: not after a group's
    /// last cell, before a footer or a header, nor after the list's last row.
    /// - Throws: `invalidViewport` for a bad overscan, `bufferTooSmall` with the count
    ///   needed (the buffer's contents are then unspecified; the engine is unchanged).
    public func window(overscan: Double? = nil, into buffer: UnsafeMutableBufferPointer<VisibleItem>) throws(TesseraError) -> WindowResult {
        let over = overscan ?? self.overscan
        guard over.isFinite, over >= 0 else { throw .invalidViewport(over) }
        let sticky = stickyHeader()
        let count = store.count
        guard let (start, end) = try LayoutUnit.window(offset: scrollOffset, length: viewport, before: over, after: over) else {
            let first = try store.row(atOffset: scrollOffset)?.row ?? count
            return WindowResult(rows: first..<first, stickyHeader: sticky)
        }
        guard start < store.tree.totalHeight else { return WindowResult(rows: count..<count, stickyHeader: sticky) }
        let first = store.position(coveringUnits: start)
        var c = RowCursor(leaf: first.leaf, slot: first.slot, row: first.row)
        var y = first.y, lineY = first.y, n = 0
        let capacity = buffer.count
        // Per kind: a cell, draws a divider after itself (a cell of a list, not of a grid
        // line), in the grid. Empty without a profile.
        let roles = layout?.roles ?? [], dividers = layout?.dividers ?? [], inGrid = layout?.inGrid ?? []
        let grid = layout?.grid
        let width = LayoutUnit.points(layout.map { LayoutUnit.units($0.environment.width) } ?? 0)
        let arena = UnsafeRawPointer(store.text.base)
        var lines = LineTracker(layout: layout)
        var dividerBefore = false
        while c.row < count {
            let page = store.page(ofLeaf: c.leaf), kind = page.kinds[c.slot], h = page.height(c.slot)
            let (leader, column) = lines.place(kind)
            if leader && y >= end { break }
            let isCell = !roles.isEmpty && roles[Int(kind)] == ProfileLayout.roleCell
            // The row before draws its divider when this one is a cell too.
            if dividerBefore && isCell && n - 1 < capacity { buffer[n - 1].flags.insert(.divider) }
            if n < capacity {
                var item = VisibleItem(
                    row: c.row, id: page.ids[c.slot], x: 0, y: LayoutUnit.points(y), width: width, height: LayoutUnit.points(h),
                    kind: kind, flags: RowFlags(rawValue: page.flags[c.slot]))
                if let grid, let layout {
                    if leader { lineY = layout.lineY(leader: c.row, top: y) }
                    item.y = LayoutUnit.points(lineY)
                    item.height = LayoutUnit.points(layout.itemHeight(page.itemHeights[c.slot], kind: kind))
                    if inGrid[Int(kind)] {
                        item.x = grid.x(ofColumn: column)
                        let values = ProfileLayout.values(arena: arena, textReference: page.text[c.slot], offsets: layout.offsets[0])
                        item.width = LayoutUnit.points(layout.measurer.engineCellWidthUnits(kind: kind, values))
                    }
                }
                buffer[n] = item
            }
            dividerBefore = isCell && dividers[Int(kind)] && !(grid != nil && inGrid[Int(kind)])
            n &+= 1
            y &+= h
            store.advance(&c)
        }
        // The row after the window decides the last row's divider.
        if dividerBefore, c.row < count, n - 1 < capacity, roles[Int(store.kind(at: c))] == ProfileLayout.roleCell {
            buffer[n - 1].flags.insert(.divider)
        }
        guard n <= capacity else { throw .bufferTooSmall(needed: n, capacity: capacity) }
        return WindowResult(rows: first.row..<(first.row + n), stickyHeader: sticky)
    }

    /// The header pinned at the top of the viewport (see `WindowResult.stickyHeader`).
    func stickyHeader() -> VisibleItem? {
        guard let layout, layout.hasStickyHeaders, let y = try? LayoutUnit.offset(scrollOffset), y < store.tree.totalHeight else { return nil }
        let row = store.position(coveringUnits: y).row
        let marks = layout.groupMarks
        let i = ProfileLayout.firstIndex(in: marks, atLeast: row + 1) - 1
        guard i >= 0 else { return nil }
        // The group of `row` starts at a header; a footer before `row` ended another group.
        var h = i
        if layout.role(store.kindCode(ofRow: Int(marks[i]))) == ProfileLayout.roleFooter {
            guard Int(marks[i]) == row, i > 0, layout.role(store.kindCode(ofRow: Int(marks[i - 1]))) == ProfileLayout.roleHeader else { return nil }
            h = i - 1
        }
        let header = Int(marks[h])
        let info = try! store.row(header)
        guard layout.sticky[Int(info.kind)] else { return nil }
        // The group ends before the next header, or after its footer.
        var end = store.count
        if h + 1 < marks.count {
            let next = Int(marks[h + 1])
            end = layout.role(store.kindCode(ofRow: next)) == ProfileLayout.roleFooter ? next + 1 : next
        }
        let endY = end < store.count ? itemY(end, layout) : store.tree.totalHeight
        let height = layout.isGrid ? layout.itemHeight(store.itemUnits(ofRow: header), kind: info.kind) : LayoutUnit.units(info.height)
        let pinned = min(scrollOffset, LayoutUnit.points(endY - height))
        return VisibleItem(
            row: header, id: info.id, x: 0, y: pinned, width: LayoutUnit.points(LayoutUnit.units(layout.environment.width)), height: LayoutUnit.points(height),
            kind: info.kind, flags: info.flags)
    }

    /// The y of a row's cell: its top, or in a grid its line's.
    func itemY(_ row: Int, _ layout: ProfileLayout) -> Int64 {
        guard layout.isGrid else { return store.top(ofRow: row) }
        let leader = layout.lineStart(row, store)
        return layout.lineY(leader: leader, top: store.top(ofRow: leader))
    }
}
