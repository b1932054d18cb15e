extension RowStore {
    /// Records a measured height for a row (points) and marks it measured. O(log n).
    public mutating func setHeight(_ height: Double, ofRow row: Int) throws(TesseraError) {
        let units = try LayoutUnit.rowHeight(height)
        try checkRow(row)
        setHeight(units: units, measured: true, ofRow: row)
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
        let page = Page(tree.leaves[Int(found.leaf)].page!, capacity: pageCapacity)
        let delta = Int64(units) - Int64(page.heights[found.slot])
        page.heights[found.slot] = units
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
