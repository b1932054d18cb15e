/// One row of a window: where it is and what it is, heights and offsets in points.
public struct VisibleRow: Equatable, Sendable {
    public var row: Int
    public var id: UInt64
    public var y: Double
    public var height: Double
    public var kind: UInt16
    public var flags: RowFlags

    public init(row: Int, id: UInt64, y: Double, height: Double, kind: UInt16, flags: RowFlags) {
        self.row = row
        self.id = id
        self.y = y
        self.height = height
        self.kind = kind
        self.flags = flags
    }
}

/// The rows a window query found; they were written to the caller's buffer in order.
public struct WindowRange: Equatable, Sendable {
    /// Row indexes in the window (empty past the end of the content).
    public var rows: Range<Int>
    public var count: Int { rows.count }
}

/// Where the last window started, so the next query of a scroll walks a few rows from
/// there instead of descending the tree.
struct WindowCursor {
    var version: UInt64 = .max
    var leaf: UInt32 = HeightTree.none
    /// Offset of the leaf's first row.
    var leafY: Int64 = 0
    var slot = 0
    var row = 0
    /// Offset of row `row`.
    var y: Int64 = 0
}

extension RowStore {
    /// Writes the rows that intersect `[offset - overscanBefore, offset + viewport +
    /// overscanAfter)` into `buffer`, in order, each with its y and height; a row counts
    /// when its bottom is below the window's top and its top above the window's bottom.
    /// Allocates nothing; consecutive queries of a scroll cost a few rows each.
    /// A buffer too small throws `bufferTooSmall` with the count needed (the buffer's
    /// contents are then unspecified; the store is unchanged).
    public func window(
        offset: Double, viewport: Double, overscanBefore: Double = 0, overscanAfter: Double = 0,
        into buffer: UnsafeMutableBufferPointer<VisibleRow>
    ) throws(TesseraError) -> WindowRange {
        guard let (start, end) = try LayoutUnit.window(
            offset: offset, length: viewport, before: overscanBefore, after: overscanAfter)
        else {
            let first = try row(atOffset: offset)?.row ?? count
            return WindowRange(rows: first..<first)
        }
        guard start < tree.totalHeight else { return WindowRange(rows: count..<count) }
        let c = firstRow(coveringUnits: start)
        cursor.pointee = c
        let first = c.row, capacity = buffer.count
        var leaf = c.leaf, slot = c.slot, y = c.y, n = 0
        pages: while true {
            let info = tree.leaves[Int(leaf)]
            let page = Page(info.page!, layout), rows = Int(info.count)
            let low = page.heightLow, high = page.heightHigh, ids = page.ids, kinds = page.kinds, flags = page.flags
            while slot < rows {
                if y >= end { break pages }
                let h = Int64(low[slot]) | Int64(high[slot]) << 16
                if n < capacity {
                    buffer[n] = VisibleRow(
                        row: first &+ n, id: ids[slot], y: LayoutUnit.points(y), height: LayoutUnit.points(h),
                        kind: kinds[slot], flags: RowFlags(rawValue: flags[slot]))
                }
                n &+= 1
                y &+= h
                slot &+= 1
            }
            leaf = info.next
            if leaf == HeightTree.none { break }
            slot = 0
        }
        guard n <= buffer.count else { throw .bufferTooSmall(needed: n, capacity: buffer.count) }
        return WindowRange(rows: first..<(first + n))
    }

    /// The row covering `y` (< total height): stepping from the last query's row when `y`
    /// lies in the same page, else by descending the tree.
    func firstRow(coveringUnits y: Int64) -> WindowCursor {
        var c = cursor.pointee
        guard c.version == version, y >= c.leafY, y < c.leafY + tree.leaves[Int(c.leaf)].height else {
            return position(coveringUnits: y)
        }
        let page = Page(tree.leaves[Int(c.leaf)].page!, layout)
        var steps = 0
        // Back while the row starts below y, then forward while it ends at or above y.
        while c.y > y {
            steps += 1
            if steps > 16 { return position(coveringUnits: y) }
            c.slot -= 1
            c.row -= 1
            c.y -= page.height(c.slot)
        }
        while c.y + page.height(c.slot) <= y {
            steps += 1
            if steps > 16 { return position(coveringUnits: y) }
            c.y += page.height(c.slot)
            c.row += 1
            c.slot += 1
        }
        return c
    }
}
