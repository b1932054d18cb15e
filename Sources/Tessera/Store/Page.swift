import CJemalloc

/// One page of rows: its columns side by side in one 64-byte aligned jemalloc block.
///
/// A row costs 27 bytes: height 3 (24 bits of 1/64 pt, in a 16-bit and an 8-bit plane so
/// both scan as plain vectors), kind 2, flags 2, id 8, content version 8, text reference 4.
/// The columns a window query reads (height, kind, flags) come first, so they share the
/// block's first 4 KiB; the content versions, read only by a diff, sit after the ids. A
/// header before them holds the height sum of each group of 64 rows, so finding the row
/// at an offset reads the header and one group instead of scanning the page.
/// `RowStore.defaultPageCapacity` rows fill a 10 KiB size class almost exactly.
/// A grid's store has one more column, last: each item's own height (4 bytes), which the
/// engine keeps beside the line spans the height column holds, so it moves with its row.
/// Rows `0..<count` are live. Row 0 sits at slot `start` of every column (a word after the
/// group sums), so a change near the front of a page can shift the rows before it instead
/// of all the rows after it, and a batch's page rewrite picks the start that leaves the
/// most rows where they are: `start + count <= capacity`.
struct Page {
    static let groupRows = 64
    /// An item height not measured yet (the item column of a new row).
    static let unmeasuredItem = UInt32.max

    /// Where each column starts in a page of `capacity` rows; computed once per store.
    struct Layout {
        let capacity: Int
        let groups: Int
        /// Where the header keeps the page's `start`.
        let startOffset: Int
        let low: Int, high: Int, kinds: Int, flags: Int, ids: Int, versions: Int, text: Int, items: Int, bytes: Int
        /// Whether the pages have the item height column.
        let hasItems: Bool

        init(capacity: Int, itemColumn: Bool = false) {
            self.capacity = capacity
            groups = (capacity + Page.groupRows - 1) / Page.groupRows
            startOffset = 4 * groups
            low = (startOffset + 4 + 63) & ~63
            high = low + 2 * capacity
            kinds = high + capacity
            flags = kinds + 2 * capacity
            ids = (flags + 2 * capacity + 7) & ~7
            versions = ids + 8 * capacity
            text = versions + 8 * capacity
            items = text + 4 * capacity
            hasItems = itemColumn
            bytes = items + (itemColumn ? 4 * capacity : 0)
        }
    }

    let base: UnsafeMutableRawPointer
    let layout: Layout
    /// The column slot of row 0.
    let start: Int

    /// The page at `base`, as its header places it.
    @inline(__always) init(_ base: UnsafeMutableRawPointer, _ layout: Layout) {
        self.base = base
        self.layout = layout
        start = Int(base.load(fromByteOffset: layout.startOffset, as: UInt32.self))
    }

    /// The page's rows as they stand once row 0 is at `start` (the header is not changed).
    @inline(__always) init(_ base: UnsafeMutableRawPointer, _ layout: Layout, start: Int) {
        self.base = base
        self.layout = layout
        self.start = start
    }

    var capacity: Int { layout.capacity }

    /// Records `start` in the header and returns the page as it places rows from then on;
    /// rows already there are not moved.
    @discardableResult
    func setStart(_ start: Int) -> Page {
        base.storeBytes(of: UInt32(start), toByteOffset: layout.startOffset, as: UInt32.self)
        return Page(base, layout, start: start)
    }

    /// Moves rows `0..<count` so that row 0 sits at slot `start`; the page as it is then.
    func moved(toStart start: Int, count: Int) -> Page {
        let to = Page(base, layout, start: start)
        if start != self.start { to.copyRows(from: self, at: 0, to: 0, count: count) }
        return to.setStart(start)
    }

    /// Height sum of rows `64 g ..< 64 (g + 1)`, per group `g` (a group's 64 rows of at
    /// most 2^24 - 1 units fit in 32 bits).
    @inline(__always) var groupHeights: UnsafeMutablePointer<UInt32> { base.assumingMemoryBound(to: UInt32.self) }
    @inline(__always) var heightLow: UnsafeMutablePointer<UInt16> { (base + layout.low).assumingMemoryBound(to: UInt16.self) + start }
    @inline(__always) var heightHigh: UnsafeMutablePointer<UInt8> { (base + layout.high).assumingMemoryBound(to: UInt8.self) + start }
    @inline(__always) var kinds: UnsafeMutablePointer<UInt16> { (base + layout.kinds).assumingMemoryBound(to: UInt16.self) + start }
    @inline(__always) var flags: UnsafeMutablePointer<UInt16> { (base + layout.flags).assumingMemoryBound(to: UInt16.self) + start }
    @inline(__always) var ids: UnsafeMutablePointer<UInt64> { (base + layout.ids).assumingMemoryBound(to: UInt64.self) + start }
    /// The host's content version of each row (what a keyed diff compares).
    @inline(__always) var versions: UnsafeMutablePointer<UInt64> { (base + layout.versions).assumingMemoryBound(to: UInt64.self) + start }
    @inline(__always) var text: UnsafeMutablePointer<UInt32> { (base + layout.text).assumingMemoryBound(to: UInt32.self) + start }
    /// Each item's own height in a grid's store, or `unmeasuredItem`; only when
    /// `layout.hasItems`.
    @inline(__always) var itemHeights: UnsafeMutablePointer<UInt32> { (base + layout.items).assumingMemoryBound(to: UInt32.self) + start }

    /// Recomputes the group sums after rows `from..<count` changed (groups past them are
    /// 0; the groups before `from`'s are kept); returns the page's total height.
    @discardableResult
    func refreshGroups(from: Int = 0, count: Int) -> Int64 {
        let first = min(from / Self.groupRows, layout.groups)
        var total: Int64 = 0
        for g in 0..<first { total &+= Int64(groupHeights[g]) }
        for g in first..<layout.groups {
            let from = g * Self.groupRows
            // Whole groups in one unrolled pass; the last partial one, and those past the
            // rows (0), the general way.
            let sum = from + Self.groupRows <= count ? heightSum64(from) : heightSum(min(from, count), count)
            groupHeights[g] = UInt32(sum)
            total &+= sum
        }
        return total
    }

    /// Sum of the heights of rows `i ..< i + 64` (a group's 8-bit plane sums to at most
    /// 64 * 255, within 16 bits).
    @inline(__always) func heightSum64(_ i: Int) -> Int64 {
        var lows = SIMD16<UInt32>(), highs = SIMD16<UInt16>()
        for k in 0..<4 {
            let at = i &+ 16 &* k
            lows &+= SIMD16<UInt32>(truncatingIfNeeded: UnsafeRawPointer(heightLow + at).loadUnaligned(as: SIMD16<UInt16>.self))
            highs &+= SIMD16<UInt16>(truncatingIfNeeded: UnsafeRawPointer(heightHigh + at).loadUnaligned(as: SIMD16<UInt8>.self))
        }
        return Int64(lows.wrappedSum()) &+ Int64(highs.wrappedSum()) << 16
    }

    /// Writes the heights (validated points) of all `count` rows and their group sums in
    /// one pass; returns the page's total height.
    func replaceHeights(from points: UnsafePointer<Double>, count: Int) -> Int64 {
        var total: Int64 = 0
        var row = 0
        for g in 0..<layout.groups {
            var sum: UInt32 = 0
            let end = min(row &+ Self.groupRows, count)
            while row < end {
                let units = LayoutUnit.roundedUnits(points[row])
                setHeight(units, row)
                sum &+= units
                row &+= 1
            }
            groupHeights[g] = sum
            total &+= Int64(sum)
        }
        return total
    }

    /// Records a height change of row `i` in its group's sum.
    @inline(__always) func adjustGroup(of i: Int, by delta: Int64) {
        let g = i / Self.groupRows
        groupHeights[g] = UInt32(truncatingIfNeeded: Int64(groupHeights[g]) &+ delta)
    }

    /// Sum of the heights of rows `0..<i`.
    @inline(__always) func top(of i: Int) -> Int64 {
        let g = i / Self.groupRows
        var sum: Int64 = 0
        for k in 0..<g { sum &+= Int64(groupHeights[k]) }
        return sum &+ heightSum(g * Self.groupRows, i)
    }

    /// Row `i`'s height in 1/64 pt.
    @inline(__always) func height(_ i: Int) -> Int64 {
        Int64(heightLow[i]) | Int64(heightHigh[i]) << 16
    }

    @inline(__always) func setHeight(_ units: UInt32, _ i: Int) {
        heightLow[i] = UInt16(truncatingIfNeeded: units)
        heightHigh[i] = UInt8(truncatingIfNeeded: units >> 16)
    }

    /// Sum of the heights of rows `i ..< i + 8`.
    @inline(__always) func heightSum8(_ i: Int) -> Int64 {
        let low = UnsafeRawPointer(heightLow + i).loadUnaligned(as: SIMD8<UInt16>.self)
        let high = UnsafeRawPointer(heightHigh + i).loadUnaligned(as: SIMD8<UInt8>.self)
        return Int64(SIMD8<UInt32>(truncatingIfNeeded: low).wrappedSum())
            + Int64(SIMD8<UInt32>(truncatingIfNeeded: high).wrappedSum()) << 16
    }

    /// The slot among `0..<count` of the row covering `y` (`y` lies in this page, whose
    /// first row starts at `pageTop`) and that row's top: whole groups by the header,
    /// then blocks of eight, then single rows.
    @inline(__always) func slot(covering y: Int64, top pageTop: Int64, count: Int) -> (slot: Int, top: Int64) {
        var slot = 0, top = pageTop
        var g = 0
        while slot &+ Self.groupRows <= count {
            let sum = Int64(groupHeights[g])
            if top &+ sum > y { break }
            top &+= sum
            slot &+= Self.groupRows
            g &+= 1
        }
        while slot &+ 8 <= count {
            let sum = heightSum8(slot)
            if top &+ sum > y { break }
            top &+= sum
            slot &+= 8
        }
        while top &+ height(slot) <= y {
            top &+= height(slot)
            slot &+= 1
        }
        return (slot, top)
    }

    /// Starts loading the columns of the row a page scan for offset `y` (from the page's
    /// top) will most likely end on, guessed from the page's mean row height, so those
    /// misses overlap the scan instead of following it.
    @inline(__always) func prefetchRow(near y: Int64, pageHeight: Int64, count: Int) {
        guard pageHeight > 0 else { return }
        let guess = min(Int(y * Int64(count) / pageHeight), count - 1)
        tess_prefetch(heightLow + guess)
        tess_prefetch(heightHigh + guess)
        tess_prefetch(kinds + guess)
        tess_prefetch(flags + guess)
        tess_prefetch(ids + guess)
    }

    /// Starts loading every column of row `i` (its id too when `ids`).
    @inline(__always) func prefetchColumns(_ i: Int, ids withIDs: Bool) {
        if withIDs { tess_prefetch(ids + i) }
        tess_prefetch(heightLow + i)
        tess_prefetch(heightHigh + i)
        tess_prefetch(kinds + i)
        tess_prefetch(flags + i)
        tess_prefetch(versions + i)
        tess_prefetch(text + i)
        if layout.hasItems { tess_prefetch(itemHeights + i) }
    }

    /// Starts loading part `stage` (0, 1, 2) of what rewriting the page from row `first`
    /// on reads: the group sums, heights (from `first`'s group, whose sum is redone), kinds
    /// and flags; then the ids; then the versions, text references and item heights. The
    /// rows before `first` stay where they are and are not read. A page's loads are
    /// started in these parts spread over the rewrite of the page before: started all at
    /// once they measured slower, holding up that rewrite's own misses.
    @inline(__always) func prefetch(stage: Int, from first: Int, count: Int) {
        switch stage {
        case 0:
            tess_prefetch(base)
            let group = first / Self.groupRows * Self.groupRows
            prefetchColumn(heightLow, group, count)
            prefetchColumn(heightHigh, group, count)
            prefetchColumn(kinds, first, count)
            prefetchColumn(flags, first, count)
        case 1:
            prefetchColumn(ids, first, count)
        default:
            prefetchColumn(versions, first, count)
            prefetchColumn(text, first, count)
            if layout.hasItems { prefetchColumn(itemHeights, first, count) }
        }
    }

    @inline(__always) func prefetchColumn<T>(_ column: UnsafeMutablePointer<T>, _ from: Int, _ to: Int) {
        guard from < to else { return }
        var line = UInt(bitPattern: column + from) & ~63
        let end = UInt(bitPattern: column + to)
        while line < end {
            tess_prefetch(UnsafeRawPointer(bitPattern: line))
            line &+= 64
        }
    }

    /// A new page whose row 0 will sit at slot `start`.
    static func allocate(_ layout: Layout, start: Int = 0) -> Page {
        Page(Jemalloc.allocate(bytes: layout.bytes), layout, start: 0).setStart(start)
    }

    /// The slot of `id` among the first `count` rows (other than `skipping`), or -1.
    func slot(of id: UInt64, count: Int, skipping: Int = -1) -> Int {
        let ids = self.ids
        for i in 0..<count where ids[i] == id && i != skipping { return i }
        return -1
    }

    /// Copies `n` rows from `source[from...]` to `self[to...]`, every column (memmove-safe).
    func copyRows(from source: Page, at from: Int, to: Int, count n: Int) {
        guard n > 0 else { return }
        (ids + to).update(from: source.ids + from, count: n)
        (heightLow + to).update(from: source.heightLow + from, count: n)
        (heightHigh + to).update(from: source.heightHigh + from, count: n)
        (kinds + to).update(from: source.kinds + from, count: n)
        (flags + to).update(from: source.flags + from, count: n)
        (versions + to).update(from: source.versions + from, count: n)
        (text + to).update(from: source.text + from, count: n)
        if layout.hasItems { (itemHeights + to).update(from: source.itemHeights + from, count: n) }
    }

    /// Sum of the heights of rows `from..<to`, in 1/64 pt.
    func heightSum(_ from: Int, _ to: Int) -> Int64 {
        // Sixteen lanes per plane, reduced once (a lane adds at most 256 values of a
        // 4096-row page: no overflow in 32 bits, nor in 16 bits for the 8-bit plane).
        var lows = SIMD16<UInt32>(), highs = SIMD16<UInt16>(), i = from
        while i &+ 16 <= to {
            lows &+= SIMD16<UInt32>(truncatingIfNeeded: UnsafeRawPointer(heightLow + i).loadUnaligned(as: SIMD16<UInt16>.self))
            highs &+= SIMD16<UInt16>(truncatingIfNeeded: UnsafeRawPointer(heightHigh + i).loadUnaligned(as: SIMD16<UInt8>.self))
            i &+= 16
        }
        var low = UInt64(lows.wrappedSum())
        var high = UInt64(SIMD8<UInt32>(truncatingIfNeeded: highs.lowHalf).wrappedSum())
            &+ UInt64(SIMD8<UInt32>(truncatingIfNeeded: highs.highHalf).wrappedSum())
        if i &+ 8 <= to {
            low &+= UInt64(SIMD8<UInt32>(truncatingIfNeeded: UnsafeRawPointer(heightLow + i).loadUnaligned(as: SIMD8<UInt16>.self)).wrappedSum())
            high &+= UInt64(SIMD8<UInt32>(truncatingIfNeeded: UnsafeRawPointer(heightHigh + i).loadUnaligned(as: SIMD8<UInt8>.self)).wrappedSum())
            i &+= 8
        }
        let l = heightLow, h = heightHigh
        for i in i..<max(i, to) {
            low &+= UInt64(l[i])
            high &+= UInt64(h[i])
        }
        return Int64(low &+ high << 16)
    }
}
