import CJemalloc

extension RowStore {
    /// Appends rows. `heights`, when given, are measured heights in points; otherwise each
    /// row starts at its kind's estimate. `versions` are the rows' content versions (0 when
    /// nil). All or nothing: on error nothing changes.
    public mutating func append(
        ids: [UInt64], kinds: [UInt16], heights: [Double]? = nil, text: RowText? = nil, versions: [UInt64]? = nil
    ) throws(TesseraError) {
        try insert(ids: ids, kinds: kinds, heights: heights, text: text, versions: versions, at: count)
    }

    /// Inserts rows before row `index` (`count` appends). All or nothing.
    public mutating func insert(
        ids: [UInt64], kinds: [UInt16], heights: [Double]? = nil, text: RowText? = nil, versions: [UInt64]? = nil, at index: Int
    ) throws(TesseraError) {
        try insert(ids: ids, kinds: kinds, heights: heights, text: text, versions: versions, flags: 0, at: index)
    }

    /// `insert` whose new rows also get `flags` (bits the engine owns).
    mutating func insert(
        ids: [UInt64], kinds: [UInt16], heights: [Double]?, text: RowText?, versions: [UInt64]? = nil, flags: UInt16, at index: Int
    ) throws(TesseraError) {
        try ids.withUnsafeBufferPointer { (ids) throws(TesseraError) in
            try kinds.withUnsafeBufferPointer { (kinds) throws(TesseraError) in
                try Self.withOptionalBuffer(heights) { (heights) throws(TesseraError) in
                    try Self.withOptionalBuffer(versions) { (versions) throws(TesseraError) in
                        try Self.withText(text) { (text) throws(TesseraError) in
                            try insert(
                                RowColumns(ids: ids, kinds: kinds, heights: heights, text: text, versions: versions, flags: flags),
                                at: index)
                        }
                    }
                }
            }
        }
    }

    static func withOptionalBuffer<T, R, E>(_ array: [T]?, _ body: (UnsafeBufferPointer<T>?) throws(E) -> R) throws(E) -> R {
        guard let array else { return try body(nil) }
        return try array.withUnsafeBufferPointer { (buffer) throws(E) in try body(buffer) }
    }

    static func withText<R, E>(_ text: RowText?, _ body: (TextColumns?) throws(E) -> R) throws(E) -> R {
        guard let text else { return try body(nil) }
        return try text.utf8.withUnsafeBufferPointer { (utf8) throws(E) in
            try text.offsets.withUnsafeBufferPointer { (offsets) throws(E) in
                try body(TextColumns(utf8: UnsafeRawBufferPointer(utf8), offsets: offsets, slotsPerRow: text.slotsPerRow))
            }
        }
    }

    /// Checks a batch completely before anything changes (ids only when `checkingIDs`;
    /// appends find duplicates while indexing); returns its text bytes.
    func validate(_ rows: RowColumns, at position: Int, checkingIDs: Bool) throws(TesseraError) -> Int {
        let n = rows.count
        guard position >= 0, position <= count else {
            throw .rangeOutOfBounds(lowerBound: position, upperBound: position, count: count)
        }
        guard rows.kinds.count == n else {
            throw .columnLengthMismatch(column: "kinds", expected: n, actual: rows.kinds.count)
        }
        if let h = rows.heights, h.count != n {
            throw .columnLengthMismatch(column: "heights", expected: n, actual: h.count)
        }
        if let v = rows.versions, v.count != n {
            throw .columnLengthMismatch(column: "versions", expected: n, actual: v.count)
        }
        guard count + n < Int(Int32.max) else { throw .capacityExceeded("\(count + n) rows") }
        for i in 0..<n where Int(rows.kinds[i]) >= estimates.count {
            throw .unknownKind(rows.kinds[i], kindCount: estimates.count)
        }
        if let h = rows.heights {
            for x in h where !LayoutUnit.isValidRowHeight(x) { throw .invalidHeight(x) }
        }
        var textBytes = 0
        if let text = rows.text { textBytes = try validate(text, rows: n) }
        if checkingIDs { try checkUnique(rows.ids) }
        return textBytes
    }

    func validate(_ text: TextColumns, rows n: Int) throws(TesseraError) -> Int {
        let s = text.slotsPerRow
        guard s >= 0, s <= 255 else { throw .capacityExceeded("\(s) text slots per row, at most 255") }
        guard text.offsets.count == n * s + 1 else {
            throw .columnLengthMismatch(column: "text offsets", expected: n * s + 1, actual: text.offsets.count)
        }
        var bytes = 0
        for r in 0..<n { bytes += try validateText(text, row: r) }
        guard self.text.used + bytes <= TextArena.maximumBytes else {
            throw .capacityExceeded("text arena over \(TextArena.maximumBytes) bytes")
        }
        return bytes
    }

    /// Throws for an id that repeats within `ids` or is already stored.
    func checkUnique(_ ids: UnsafeBufferPointer<UInt64>) throws(TesseraError) {
        let n = ids.count
        if count > 0 {
            for i in 0..<n {
                if i + 8 < n { index.prefetch(ids[i + 8]) }
                if find(ids[i]) != nil { throw .duplicateID(ids[i]) }
            }
        }
        guard n > 1 else { return }
        // A temporary set of batch positions (one allocation per batch, none per row).
        var capacity = 16
        while capacity < 2 * n { capacity <<= 1 }
        let table = Jemalloc.allocate(Int32.self, capacity: capacity)
        table.initialize(repeating: -1, count: capacity)
        defer { Jemalloc.free(table) }
        let mask = capacity - 1
        for i in 0..<n {
            if i + 8 < n { tess_prefetch(table + Int(truncatingIfNeeded: index.fingerprint(ids[i + 8])) & mask) }
            let id = ids[i]
            var slot = Int(truncatingIfNeeded: index.fingerprint(id)) & mask
            while table[slot] >= 0 {
                if ids[Int(table[slot])] == id { throw .duplicateID(id) }
                slot = (slot + 1) & mask
            }
            table[slot] = Int32(i)
        }
    }

    mutating func insert(_ rows: RowColumns, at position: Int) throws(TesseraError) {
        let appending = position == count
        let textBytes = try validate(rows, at: position, checkingIDs: !appending)
        let k = rows.count
        guard k > 0 else { return }
        text.reserve(additional: textBytes)
        index.reserve(index.count + k)
        if appending { return try append(rows) }
        // From here on nothing can fail.
        version &+= 1
        contentMutations &+= 1

        let (leaf, slot, _, _) = tree.leaf(containingRow: position)
        var page = Page(tree.leaves[Int(leaf)].page!, layout)
        let old = Int(tree.leaves[Int(leaf)].count), oldHeight = tree.leaves[Int(leaf)].height
        let total = old + k

        if total <= pageCapacity {
            // The shorter side moves: the rows before the new ones towards the front when
            // the page has room there, else the rows after them towards the end (all rows
            // first to the front when the end has no room).
            if slot < old - slot, page.start >= k {
                let front = Page(page.base, layout, start: page.start - k)
                front.copyRows(from: page, at: 0, to: 0, count: slot)
                page = front.setStart(front.start)
            } else {
                if page.start + total > pageCapacity { page = page.moved(toStart: pageCapacity - total, count: old) }
                page.copyRows(from: page, at: slot, to: slot + k, count: old - slot)
            }
            writeNewRows(rows, 0..<k, into: page, at: slot, leaf: leaf)
            tree.adjust(leaf: leaf, rows: k, height: page.refreshGroups(from: slot, count: total) - oldHeight)
            return
        }

        // Spread the page's rows and the new ones evenly over as many pages as needed, so
        // both sides keep room for more.
        let scratchPage = Page(scratch, layout)
        scratchPage.copyRows(from: page, at: 0, to: 0, count: old)
        let pages = (total + pageCapacity - 1) / pageCapacity
        func size(_ j: Int) -> Int { total / pages + (j < total % pages ? 1 : 0) }
        // The combined sequence: scratch[0..<slot], the new rows, scratch[slot..<old].
        var source = 0
        var dest = leaf, destPage = page, previous = HeightTree.none
        for j in 0..<pages {
            let n = size(j)
            // Each page is written whole (the old one from the scratch copy), centred.
            if j > 0 {
                destPage = Page.allocate(layout, start: (pageCapacity - n) / 2)
                dest = tree.allocateLeaf(page: destPage.base)
            } else {
                destPage = page.setStart((pageCapacity - n) / 2)
            }
            var filled = 0
            while filled < n {
                if source < slot {
                    let m = min(n - filled, slot - source)
                    destPage.copyRows(from: scratchPage, at: source, to: filled, count: m)
                    if j > 0 { for t in 0..<m { index.move(destPage.ids[filled + t], from: leaf, to: dest) } }
                    filled += m; source += m
                } else if source < slot + k {
                    let m = min(n - filled, slot + k - source)
                    writeNewRows(rows, (source - slot)..<(source - slot + m), into: destPage, at: filled, leaf: dest)
                    filled += m; source += m
                } else {
                    let m = min(n - filled, total - source)
                    destPage.copyRows(from: scratchPage, at: source - k, to: filled, count: m)
                    if j > 0 { for t in 0..<m { index.move(destPage.ids[filled + t], from: leaf, to: dest) } }
                    filled += m; source += m
                }
            }
            let height = destPage.refreshGroups(count: n)
            if j == 0 {
                tree.adjust(leaf: leaf, rows: n - old, height: height - oldHeight)
            } else {
                tree.leaves[Int(dest)].count = Int32(n)
                tree.leaves[Int(dest)].height = height
                tree.insertLeaf(dest, after: previous)
            }
            previous = dest
        }
    }

    /// Appends after the last row, filling pages to `appendFill` so a growing list keeps
    /// nearly full pages.
    /// Duplicate ids are found while indexing rather than in a pass of their own: the rows
    /// are written into the last page's free slots and into new, unlinked pages; then each
    /// is indexed, a probe that meets an entry with the same fingerprint checking that
    /// entry's page for the id; then the pages are linked into the tree. A duplicate
    /// unwinds the entries, pages and text written so far and leaves the store as it was.
    mutating func append(_ rows: RowColumns) throws(TesseraError) {
        let k = rows.count, textMark = text.used
        let createdFirst = tree.firstLeaf == HeightTree.none
        if createdFirst {
            tree.insertLeaf(tree.allocateLeaf(page: Page.allocate(layout, start: appendStart).base), after: HeightTree.none)
        }
        let last = tree.lastLeaf
        var lastPage = Page(tree.leaves[Int(last)].page!, layout)
        let fill = appendFill
        let old = Int(tree.leaves[Int(last)].count), inLast = max(0, min(fill - old, k))
        // The last page's rows move to the append start when the end has no room (the
        // store holds the same rows either way, should the append fail).
        if inLast > 0, lastPage.start + old + inLast > pageCapacity { lastPage = lastPage.moved(toStart: appendStart, count: old) }
        var leaves: [UInt32] = [last]  // one allocation per batch
        leaves.reserveCapacity(1 + (k - inLast + fill - 1) / fill)

        // Write: the last page's slots up to `fill`, then new pages of `fill` rows (counted,
        // not linked).
        writeRows(rows, 0..<inLast, into: lastPage, at: old)
        var r = inLast
        while r < k {
            let page = Page.allocate(layout, start: appendStart), n = min(fill, k - r)
            let leaf = tree.allocateLeaf(page: page.base)
            writeRows(rows, r..<(r + n), into: page, at: 0)
            tree.leaves[Int(leaf)].count = Int32(n)
            leaves.append(leaf)
            r += n
        }

        // Index, in row order; page `leaves[j]` holds rows from `start(j)`.
        func span(of j: Int) -> (slots: Range<Int>, first: Int) {
            j == 0 ? (old..<(old + inLast), 0) : (0..<Int(tree.leaves[Int(leaves[j])].count), inLast + (j - 1) * fill)
        }
        for j in leaves.indices {
            let page = Page(tree.leaves[Int(leaves[j])].page!, layout), (slots, first) = span(of: j)
            for s in slots {
                let row = first + s - slots.lowerBound
                if row + 8 < k { index.prefetch(rows.ids[row + 8]) }
                let id = page.ids[s]
                let unique = index.insertIfAbsent(id, page: leaves[j]) { q in
                    let count = q == last ? old + inLast : Int(tree.leaves[Int(q)].count)
                    return Page(tree.leaves[Int(q)].page!, layout).slot(of: id, count: count, skipping: q == leaves[j] ? s : -1) >= 0
                }
                guard unique else {
                    // Unwind: entries of the rows before this one, new pages, text.
                    for i in 0...j {
                        let p = Page(tree.leaves[Int(leaves[i])].page!, layout)
                        for t in span(of: i).slots where i < j || t < s { index.remove(p.ids[t], page: leaves[i]) }
                    }
                    for leaf in leaves.dropFirst() {
                        Jemalloc.free(tree.leaves[Int(leaf)].page!)
                        tree.releaseLeaf(leaf)
                    }
                    text.used = textMark
                    if createdFirst {
                        Jemalloc.free(lastPage.base)
                        tree.removeLeaf(last)
                    }
                    throw .duplicateID(id)
                }
            }
        }

        // Link.
        version &+= 1
        contentMutations &+= 1
        tree.adjust(leaf: last, rows: inLast, height: lastPage.refreshGroups(count: old + inLast) - tree.leaves[Int(last)].height)
        var previous = last
        for leaf in leaves.dropFirst() {
            let page = Page(tree.leaves[Int(leaf)].page!, layout)
            tree.leaves[Int(leaf)].height = page.refreshGroups(count: Int(tree.leaves[Int(leaf)].count))
            tree.insertLeaf(leaf, after: previous)
            previous = leaf
        }
    }

    /// Writes new rows `range` of the batch at `slot...` of `page` and indexes them.
    mutating func writeNewRows(_ rows: RowColumns, _ range: Range<Int>, into page: Page, at slot: Int, leaf: UInt32) {
        writeRows(rows, range, into: page, at: slot)
        for r in range {
            if r + 8 < range.upperBound { index.prefetch(rows.ids[r + 8]) }
            index.insert(rows.ids[r], page: leaf)
        }
    }

    /// Writes new rows `range` of the batch at `slot...` of `page` (columns and text).
    @inline(__always)
    mutating func writeRows(_ rows: RowColumns, _ range: Range<Int>, into page: Page, at slot: Int) {
        var s = slot
        for r in range {
            let id = rows.ids[r], kind = rows.kinds[r]
            page.ids[s] = id
            page.kinds[s] = kind
            page.versions[s] = rows.versions?[r] ?? 0
            let flags = rows.flags | (rows.rowFlags?[r] ?? 0)
            if let h = rows.heights {
                page.setHeight(LayoutUnit.roundedUnits(h[r]), s)
                page.flags[s] = RowFlags.measured.rawValue | flags
            } else {
                page.setHeight(estimates[Int(kind)], s)
                page.flags[s] = flags
            }
            if let t = rows.text {
                page.text[s] = text.append(
                    text: t.utf8.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!,
                    offsets: t.offsets.baseAddress! + r * t.slotsPerRow, slotCount: t.slotsPerRow)
            } else {
                page.text[s] = 0
            }
            if layout.hasItems { page.itemHeights[s] = Page.unmeasuredItem }
            s += 1
        }
    }
}
