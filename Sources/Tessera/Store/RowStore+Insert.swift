import CJemalloc

extension RowStore {
    /// Appends rows. `heights`, when given, are measured heights in points; otherwise each
    /// row starts at its kind's estimate. All or nothing: on error nothing changes.
    public mutating func append(
        ids: [UInt64], kinds: [UInt16], heights: [Double]? = nil, text: RowText? = nil
    ) throws(TesseraError) {
        try insert(ids: ids, kinds: kinds, heights: heights, text: text, at: count)
    }

    /// Inserts rows before row `index` (`count` appends). All or nothing.
    public mutating func insert(
        ids: [UInt64], kinds: [UInt16], heights: [Double]? = nil, text: RowText? = nil, at index: Int
    ) throws(TesseraError) {
        try ids.withUnsafeBufferPointer { (ids) throws(TesseraError) in
            try kinds.withUnsafeBufferPointer { (kinds) throws(TesseraError) in
                try Self.withOptionalBuffer(heights) { (heights) throws(TesseraError) in
                    try Self.withText(text) { (text) throws(TesseraError) in
                        try insert(RowColumns(ids: ids, kinds: kinds, heights: heights, text: text), at: index)
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

    /// Checks a batch completely before anything changes; returns its text bytes.
    func validate(_ rows: RowColumns, at position: Int) throws(TesseraError) -> Int {
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
        guard count + n < Int(Int32.max) else { throw .capacityExceeded("\(count + n) rows") }
        for i in 0..<n where Int(rows.kinds[i]) >= estimates.count {
            throw .unknownKind(rows.kinds[i], kindCount: estimates.count)
        }
        if let h = rows.heights {
            for x in h where !LayoutUnit.isValidRowHeight(x) { throw .invalidHeight(x) }
        }
        var textBytes = 0
        if let text = rows.text { textBytes = try validate(text, rows: n) }
        try checkUnique(rows.ids)
        return textBytes
    }

    func validate(_ text: TextColumns, rows n: Int) throws(TesseraError) -> Int {
        let s = text.slotsPerRow
        guard s >= 0, s <= 255 else { throw .capacityExceeded("\(s) text slots per row, at most 255") }
        guard text.offsets.count == n * s + 1 else {
            throw .columnLengthMismatch(column: "text offsets", expected: n * s + 1, actual: text.offsets.count)
        }
        var bytes = 0
        for r in 0..<n {
            let first = text.offsets[r * s]
            guard first >= 0 else { throw .invalidTextOffsets(row: r, slot: 0) }
            for slot in 0..<s {
                let lo = text.offsets[r * s + slot], hi = text.offsets[r * s + slot + 1]
                guard lo <= hi, hi <= text.utf8.count else { throw .invalidTextOffsets(row: r, slot: slot) }
                if let bad = firstInvalidUTF8Byte(UnsafeRawBufferPointer(rebasing: text.utf8[lo..<hi])) {
                    throw .invalidUTF8(row: r, slot: slot, byteOffset: bad)
                }
            }
            let rowBytes = text.offsets[r * s + s] - first
            if rowBytes > 0 { bytes += TextArena.recordSize(slotCount: s, textBytes: rowBytes) }
        }
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
        let table = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        table.initialize(repeating: -1, count: capacity)
        defer { table.deallocate() }
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
        let textBytes = try validate(rows, at: position)
        let k = rows.count
        guard k > 0 else { return }
        // From here on nothing can fail.
        version &+= 1
        text.reserve(additional: textBytes)
        index.reserve(index.count + k)

        if tree.firstLeaf == HeightTree.none {
            let page = Page.allocate(layout)
            let leaf = tree.allocateLeaf(page: page.base)
            tree.insertLeaf(leaf, after: HeightTree.none)
        }
        let leaf: UInt32, slot: Int
        if position == count {
            leaf = tree.lastLeaf
            slot = Int(tree.leaves[Int(leaf)].count)
        } else {
            let found = tree.leaf(containingRow: position)
            (leaf, slot) = (found.leaf, found.slot)
        }
        let page = Page(tree.leaves[Int(leaf)].page!, layout)
        let old = Int(tree.leaves[Int(leaf)].count), oldHeight = tree.leaves[Int(leaf)].height
        let total = old + k

        if total <= pageCapacity {
            page.copyRows(from: page, at: slot, to: slot + k, count: old - slot)
            writeNewRows(rows, 0..<k, into: page, at: slot, leaf: leaf)
            tree.adjust(leaf: leaf, rows: k, height: page.refreshGroups(count: total) - oldHeight)
            return
        }

        // Spread the page's rows and the new ones over as many pages as needed: evenly
        // when inserting inside the page (room on both sides for more), packed full when
        // appending after its last row (so a growing list keeps full pages).
        let scratchPage = Page(scratch, layout)
        scratchPage.copyRows(from: page, at: 0, to: 0, count: old)
        let pages = (total + pageCapacity - 1) / pageCapacity
        let packed = slot == old
        func size(_ j: Int) -> Int {
            packed ? min(pageCapacity, total - j * pageCapacity) : total / pages + (j < total % pages ? 1 : 0)
        }
        // The combined sequence: scratch[0..<slot], the new rows, scratch[slot..<old].
        var source = 0
        var dest = leaf, destPage = page, previous = HeightTree.none
        for j in 0..<pages {
            if j > 0 {
                destPage = Page.allocate(layout)
                dest = tree.allocateLeaf(page: destPage.base)
            }
            let n = size(j)
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

    /// Writes new rows `range` of the batch at `slot...` of `page` and indexes them.
    @inline(__always)
    mutating func writeNewRows(_ rows: RowColumns, _ range: Range<Int>, into page: Page, at slot: Int, leaf: UInt32) {
        var s = slot
        for r in range {
            if r + 8 < range.upperBound { index.prefetch(rows.ids[r + 8]) }
            let id = rows.ids[r], kind = rows.kinds[r]
            page.ids[s] = id
            page.kinds[s] = kind
            if let h = rows.heights {
                page.setHeight(LayoutUnit.roundedUnits(h[r]), s)
                page.flags[s] = RowFlags.measured.rawValue
            } else {
                page.setHeight(estimates[Int(kind)], s)
                page.flags[s] = 0
            }
            if let t = rows.text {
                page.text[s] = text.append(
                    text: t.utf8.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!,
                    offsets: t.offsets.baseAddress! + r * t.slotsPerRow, slotCount: t.slotsPerRow)
            } else {
                page.text[s] = 0
            }
            index.insert(id, page: leaf)
            s += 1
        }
    }
}
