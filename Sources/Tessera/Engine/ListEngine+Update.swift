/// Content updates of rows in place, by id, without a snapshot of the whole list.
extension ListEngine {
    /// Replaces the values (`text`, one row per id, in `ids` order; nil: no values) and the
    /// content versions of rows by id. Each row keeps its kind, place, flags and swipe and
    /// selection state. A profile-driven list checks every row against its kind's rules
    /// first and marks it dirty (it keeps its height until measured); a store-driven list
    /// returns it to its kind's estimate. All or nothing. Returns the corrected scroll
    /// offset. O(k log n) for k rows, plus a text compaction now and then; a batch prepared
    /// before is stale after it.
    /// - Throws: `columnLengthMismatch` (versions or text offsets not one row per id),
    ///   `unknownID`, `duplicateID` (an id twice), `invalidTextOffsets`, `invalidUTF8`,
    ///   `ruleViolation`, `invalidSlotValue`, `capacityExceeded` (each naming the row's index
    ///   in `ids`).
    @discardableResult
    public mutating func updateContent(ids: [UInt64], versions: [UInt64], text: RowText?) throws(TesseraError) -> Double {
        let k = ids.count
        guard versions.count == k else { throw .columnLengthMismatch(column: "versions", expected: k, actual: versions.count) }
        var rows = [Int](repeating: 0, count: k)
        var seen = IDSet()
        for (i, id) in ids.enumerated() {
            guard let r = store.index(of: id) else { throw .unknownID(id) }
            guard seen.insert(id) else { throw .duplicateID(id) }
            rows[i] = r
        }
        return try RowStore.withText(text) { (t) throws(TesseraError) -> Double in
            if let t {
                _ = try store.validate(t, rows: k)
                if let layout {
                    for i in 0..<k {
                        let s = t.slotsPerRow
                        try layout.measurer.validate(
                            kind: store.kindCode(ofRow: rows[i]), utf8: t.utf8,
                            slotOffsets: UnsafeBufferPointer(rebasing: t.offsets[(i * s)...(i * s + s)]), row: i)
                    }
                }
            } else if let layout {
                // No values: a kind with a required value refuses it.
                var zero = 0
                for i in 0..<k {
                    try withUnsafeMutablePointer(to: &zero) { (z) throws(TesseraError) in
                        try layout.measurer.validate(
                            kind: store.kindCode(ofRow: rows[i]), utf8: UnsafeRawBufferPointer(start: nil, count: 0),
                            slotOffsets: UnsafeBufferPointer(start: UnsafePointer(z), count: 1), row: i)
                    }
                }
            }
            // Nothing below throws.
            for i in 0..<k { store.replaceContent(ofRow: rows[i], version: versions[i], text: t, batchRow: i) }
            store.compactTextIfWasteful()
            var offset = scrollOffset
            for r in rows { offset = try! invalidateHeight(ofRow: r) }
            return offset
        }
    }
}

extension RowStore {
    /// Replaces a row's text (row `batchRow` of `t`, validated by the caller; nil: none)
    /// and content version; its kind, place, height and flags stay.
    mutating func replaceContent(ofRow row: Int, version v: UInt64, text t: TextColumns?, batchRow i: Int) {
        let (page, slot) = locate(row)
        text.release(page.text[slot])
        if let t {
            page.text[slot] = text.append(
                text: t.utf8.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, offsets: t.offsets.baseAddress! + i * t.slotsPerRow,
                slotCount: t.slotsPerRow)
        } else {
            page.text[slot] = 0
        }
        page.versions[slot] = v
        version &+= 1
        contentMutations &+= 1
    }

    /// Compacts the text arena when released records outweigh the live ones.
    mutating func compactTextIfWasteful() {
        if text.deadBytes > max(text.liveBytes, 1 << 20) { compactText() }
    }
}
