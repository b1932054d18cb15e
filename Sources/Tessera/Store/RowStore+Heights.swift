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
            let (end, overflow) = start.addingReportingOverflow(heights.count)
            throw .rangeOutOfBounds(lowerBound: start, upperBound: overflow ? .max : end, count: count)
        }
        try heights.withUnsafeBufferPointer { (h) throws(TesseraError) in
            if let bad = LayoutUnit.firstInvalidRowHeight(h) { throw .invalidHeight(h[bad]) }
            guard !h.isEmpty else { return }
            version &+= 1
            // Many pages: set their totals, then recompute the summaries once, bottom up.
            let manyPages = h.count > 64 * pageCapacity
            var (leaf, slot, _, _) = tree.leaf(containingRow: start)
            var i = 0
            let measured = RowFlags.measured.rawValue
            while i < h.count {
                let info = tree.leaves[Int(leaf)]
                let page = Page(info.page!, layout), rows = Int(info.count)
                let n = min(h.count - i, rows - slot)
                let total: Int64
                if n == rows {
                    total = page.replaceHeights(from: h.baseAddress! + i, count: n)
                } else {
                    for t in 0..<n { page.setHeight(LayoutUnit.roundedUnits(h[i &+ t]), slot &+ t) }
                    total = page.refreshGroups(count: rows)
                }
                for t in slot..<(slot + n) { page.flags[t] |= measured }
                let delta = total - info.height
                if manyPages {
                    tree.leaves[Int(leaf)].height += delta
                } else if delta != 0 {
                    tree.adjust(leaf: leaf, rows: 0, height: delta)
                }
                i += n
                slot = 0
                leaf = info.next
            }
            if manyPages { tree.refreshAll() }
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
