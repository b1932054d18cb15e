extension RowStore {
    /// Records a measured height for a row (points) and marks it measured. O(log n).
    public mutating func setHeight(_ height: Double, ofRow row: Int) throws(TesseraError) {
        let units = try LayoutUnit.rowHeight(height)
        try checkRow(row)
        setHeight(units: units, measured: true, ofRow: row)
    }

    /// Records measured heights for rows `start ..< start + heights.count` in one pass, as
    /// after measuring a batch or re-laying out every row at a new width: O(k + pages ·
    /// log n). All or nothing.
    public mutating func setHeights(_ heights: [Double], startingAt start: Int) throws(TesseraError) {
        guard start >= 0, start <= count, heights.count <= count - start else {
            throw .rangeOutOfBounds(lowerBound: start, upperBound: start + heights.count, count: count)
        }
        for h in heights where !LayoutUnit.isValidRowHeight(h) { throw .invalidHeight(h) }
        guard !heights.isEmpty else { return }
        version &+= 1
        var (leaf, slot, _, _) = tree.leaf(containingRow: start)
        var i = 0
        while i < heights.count {
            let info = tree.leaves[Int(leaf)]
            let page = Page(info.page!, layout), rows = Int(info.count)
            let n = min(heights.count - i, rows - slot)
            for t in 0..<n {
                page.setHeight(LayoutUnit.roundedUnits(heights[i + t]), slot + t)
                page.flags[slot + t] |= RowFlags.measured.rawValue
            }
            page.refreshGroups(count: rows)
            let delta = page.heightSum(0, rows) - info.height
            if delta != 0 { tree.adjust(leaf: leaf, rows: 0, height: delta) }
            i += n
            slot = 0
            leaf = info.next
        }
    }

    /// Returns a row to its kind's estimate and marks it unmeasured (its content changed,
    /// or the layout width did). O(log n).
    public mutating func invalidateHeight(ofRow row: Int) throws(TesseraError) {
        try checkRow(row)
        let (page, slot) = locate(row)
        setHeight(units: estimates[Int(page.kinds[slot])], measured: false, ofRow: row)
    }

    @inline(__always)
    mutating func setHeight(units: UInt32, measured: Bool, ofRow row: Int) {
        version &+= 1
        let found = tree.leaf(containingRow: row)
        let page = Page(tree.leaves[Int(found.leaf)].page!, layout)
        let delta = Int64(units) - page.height(found.slot)
        page.setHeight(units, found.slot)
        page.adjustGroup(of: found.slot, by: delta)
        let bit = RowFlags.measured.rawValue
        page.flags[found.slot] = measured ? page.flags[found.slot] | bit : page.flags[found.slot] & ~bit
        if delta != 0 { tree.adjust(leaf: found.leaf, rows: 0, height: delta) }
    }

    /// Sets and clears host-settable flags (`RowFlags.hostSettable`) of a row.
    public mutating func updateFlags(ofRow row: Int, setting set: RowFlags = [], clearing clear: RowFlags = [])
        throws(TesseraError)
    {
        let foreign = set.union(clear).subtracting(.hostSettable)
        guard foreign.isEmpty else { throw .invalidFlags(foreign.rawValue) }
        try checkRow(row)
        let (page, slot) = locate(row)
        page.flags[slot] = page.flags[slot] & ~clear.rawValue | set.rawValue
    }
}
