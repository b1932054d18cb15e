/// A row's place in the pages. Walking rows in order with a cursor costs no tree descent
/// per row, which is what the engine's scans (dirty rows, windows, grid lines) need.
struct RowCursor {
    var leaf: UInt32
    var slot: Int
    /// The row index; `count` (or -1) once a walk has left the rows.
    var row: Int
}

/// The engine's access to the pages: row walks, flag bits it owns, bulk height writes.
/// None of these allocate.
extension RowStore {
    @inline(__always) func page(ofLeaf leaf: UInt32) -> Page { Page(tree.leaves[Int(leaf)].page!, layout) }
    @inline(__always) func rowCount(ofLeaf leaf: UInt32) -> Int { Int(tree.leaves[Int(leaf)].count) }

    /// A cursor at `row` (`0..<count`).
    func cursor(atRow row: Int) -> RowCursor {
        let found = tree.leaf(containingRow: row)
        return RowCursor(leaf: found.leaf, slot: found.slot, row: row)
    }

    /// Steps to the next row; the cursor's row becomes `count` after the last one.
    @inline(__always) func advance(_ c: inout RowCursor) {
        c.row &+= 1
        c.slot &+= 1
        if c.slot >= rowCount(ofLeaf: c.leaf) {
            let next = tree.leaves[Int(c.leaf)].next
            guard next != HeightTree.none else { return }
            c.leaf = next
            c.slot = 0
        }
    }

    /// Steps to the previous row; the cursor's row becomes -1 before the first one.
    @inline(__always) func retreat(_ c: inout RowCursor) {
        c.row &-= 1
        if c.slot > 0 {
            c.slot &-= 1
            return
        }
        let prev = tree.leaves[Int(c.leaf)].prev
        guard prev != HeightTree.none else { return }
        c.leaf = prev
        c.slot = rowCount(ofLeaf: prev) &- 1
    }

    @inline(__always) func kind(at c: RowCursor) -> UInt16 { page(ofLeaf: c.leaf).kinds[c.slot] }
    @inline(__always) func flagBits(at c: RowCursor) -> UInt16 { page(ofLeaf: c.leaf).flags[c.slot] }
    @inline(__always) func textReference(at c: RowCursor) -> UInt32 { page(ofLeaf: c.leaf).text[c.slot] }
    @inline(__always) func heightUnits(at c: RowCursor) -> Int64 { page(ofLeaf: c.leaf).height(c.slot) }
    /// The item height column (a grid's store only): the row's own height, or
    /// `Page.unmeasuredItem`.
    @inline(__always) func itemUnits(at c: RowCursor) -> UInt32 { page(ofLeaf: c.leaf).itemHeights[c.slot] }

    /// `itemUnits(at:)` of a row (`0..<count`), O(log n).
    func itemUnits(ofRow row: Int) -> UInt32 {
        let (page, slot) = locate(row)
        return page.itemHeights[slot]
    }

    /// Kind of a row (`0..<count`), O(log n).
    func kindCode(ofRow row: Int) -> UInt16 {
        let (page, slot) = locate(row)
        return page.kinds[slot]
    }

    /// Height of a row in units, O(log n).
    func heightUnits(ofRow row: Int) -> Int64 {
        let (page, slot) = locate(row)
        return page.height(slot)
    }

    // MARK: Flags the engine owns

    func flagBits(ofRow row: Int) -> UInt16 {
        let (page, slot) = locate(row)
        return page.flags[slot]
    }

    mutating func setFlagBits(_ bits: UInt16, ofRow row: Int) {
        let (page, slot) = locate(row)
        page.flags[slot] |= bits
    }

    /// Starts loading the flags of leaf `l`'s page (none: nothing), and its kinds, heights
    /// and item heights where asked: the columns a pass over its rows reads. Pages lie
    /// apart in memory, so each column would otherwise miss at its start.
    @inline(__always)
    func prefetchPage(ofLeaf l: UInt32, kinds: Bool = false, heights: Bool = false, items: Bool = false) {
        guard l != HeightTree.none else { return }
        let page = page(ofLeaf: l), n = rowCount(ofLeaf: l)
        page.prefetchColumn(page.flags, 0, n)
        if kinds { page.prefetchColumn(page.kinds, 0, n) }
        if heights {
            page.prefetchColumn(page.heightLow, 0, n)
            page.prefetchColumn(page.heightHigh, 0, n)
        }
        if items { page.prefetchColumn(page.itemHeights, 0, n) }
    }

    /// Calls `body` with each page in row order: its first row, its kinds and flags (which
    /// `body` may change), and its row count; the next page's kinds and flags load meanwhile.
    @inline(__always)
    mutating func forEachPage(_ body: (_ firstRow: Int, _ kinds: UnsafePointer<UInt16>, _ flags: UnsafeMutablePointer<UInt16>, _ count: Int) -> Void) {
        var row = 0, l = tree.firstLeaf
        while l != HeightTree.none {
            let page = page(ofLeaf: l), n = rowCount(ofLeaf: l)
            let after = tree.leaves[Int(l)].next
            prefetchPage(ofLeaf: after, kinds: true)
            body(row, page.kinds, page.flags, n)
            row &+= n
            l = after
        }
    }

    /// Rows of `range` with `bit` set.
    func count(flag bit: UInt16, in range: Range<Int>) -> Int {
        guard !range.isEmpty else { return 0 }
        var c = cursor(atRow: range.lowerBound), n = 0
        while c.row < range.upperBound {
            if flagBits(at: c) & bit != 0 { n += 1 }
            advance(&c)
        }
        return n
    }

    // MARK: Heights the engine writes

    /// Writes the item heights (a grid's store) of `rows` (ascending) and clears
    /// `clearing` on them. The line spans are the engine's to write after. O(k log n).
    mutating func setItemUnits(rows: UnsafeBufferPointer<Int32>, units: UnsafeBufferPointer<UInt32>, clearing bit: UInt16) {
        var leaf = HeightTree.none, leafRow = 0, leafCount = 0
        // The page's columns, taken once per page rather than once per row.
        var items = UnsafeMutablePointer<UInt32>(bitPattern: 4)!, flags = UnsafeMutablePointer<UInt16>(bitPattern: 2)!
        for i in 0..<rows.count {
            let row = Int(rows[i])
            if leaf == HeightTree.none || row >= leafRow + leafCount {
                let found = tree.leaf(containingRow: row)
                leaf = found.leaf
                leafRow = found.leafRow
                leafCount = rowCount(ofLeaf: leaf)
                let page = page(ofLeaf: leaf)
                (items, flags) = (page.itemHeights, page.flags)
            }
            let slot = row - leafRow
            items[slot] = units[i]
            flags[slot] &= ~bit
        }
    }

    /// New estimates per kind (units); every row not measured moves to its kind's new one.
    mutating func replaceEstimates(_ units: [UInt32]) {
        precondition(units.count == estimates.count)
        estimates = units
        version &+= 1
        let measured = RowFlags.measured.rawValue
        var l = tree.firstLeaf
        while l != HeightTree.none {
            let page = page(ofLeaf: l), n = rowCount(ofLeaf: l)
            var changed = false
            for s in 0..<n where page.flags[s] & measured == 0 {
                let e = units[Int(page.kinds[s])]
                if Int64(e) != page.height(s) {
                    page.setHeight(e, s)
                    changed = true
                }
            }
            if changed { tree.leaves[Int(l)].height = page.refreshGroups(count: n) }
            l = tree.leaves[Int(l)].next
        }
        tree.refreshAll()
    }

    /// Writes measured heights (units, at most `LayoutUnit.maximumRowUnits`) to `rows`
    /// (ascending, distinct), flags them measured and clears `clearing`. O(k + log n · pages
    /// touched).
    mutating func setMeasuredHeights(rows: UnsafeBufferPointer<Int32>, units: UnsafeBufferPointer<UInt32>, clearing: UInt16) {
        guard !rows.isEmpty else { return }
        version &+= 1
        let set = RowFlags.measured.rawValue
        // Past a few pages the tree is summed once at the end rather than per page.
        let manyPages = rows.count > 64 * pageCapacity
        var i = 0
        while i < rows.count {
            // The rows on one page: their heights and flags, then the page's sums once (a
            // sum updated per row would make each row wait for the one before).
            let found = tree.leaf(containingRow: Int(rows[i])), leaf = found.leaf, leafRow = found.leafRow
            let page = page(ofLeaf: leaf), n = rowCount(ofLeaf: leaf)
            let low = page.heightLow, high = page.heightHigh, flags = page.flags
            let first = Int(rows[i]) - leafRow
            if Int(rows[rows.count - 1]) >= leafRow + n { prefetchPage(ofLeaf: tree.leaves[Int(leaf)].next, heights: true) }
            while i < rows.count {
                let slot = Int(rows[i]) &- leafRow
                guard slot < n else { break }
                let u = units[i]
                low[slot] = UInt16(truncatingIfNeeded: u)
                high[slot] = UInt8(truncatingIfNeeded: u >> 16)
                flags[slot] = flags[slot] & ~clearing | set
                i &+= 1
            }
            let total = page.refreshGroups(from: first, count: n)
            if manyPages {
                tree.leaves[Int(leaf)].height = total
            } else {
                let delta = total - tree.leaves[Int(leaf)].height
                if delta != 0 { tree.adjust(leaf: leaf, rows: 0, height: delta) }
            }
        }
        if manyPages { tree.refreshAll() }
    }
}
