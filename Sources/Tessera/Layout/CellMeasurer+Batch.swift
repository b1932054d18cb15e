/// The texts of a batch of rows, prepared once in the measurer's styles (each split into
/// its line-break segments with their widths), kept in row order: measuring the same rows
/// again at another width, in edit mode, or in another width class is then arithmetic over
/// the kept segments and natural widths, without hashing a text or looking one up in a
/// cache (pretext's prepare/layout split, per cell).
///
/// `CellMeasurer.prepareTexts` makes one for rows; `CellMeasurer.heights(..., texts:)`
/// measures those same rows with it (the batch keeps no text, only its segments and
/// length: the rows are read again). Texts are kept for the slots the measurer's program
/// lays out (texts with more than one line allowed, and texts whose natural width a `fit`
/// column needs); other texts, texts of another environment's layout and texts in styles
/// that have changed since (a new font scale or platform) go through the text engine and
/// its caches as without a batch. Either way the heights are the same.
///
/// One thread at a time, like the measurer (natural widths are filled in on first use).
public final class CellTextBatch {
    /// The columns, as plain pointers the batch owns (see `View`).
    let view: View

    /// Rows the batch was prepared for.
    public var rowCount: Int { view.rowCount }
    var slotsPerRow: Int { view.slotsPerRow }

    init(rowCount: Int, slotsPerRow: Int, styleIdentities: [UInt64], first: [Int32], head: [Int32], style: [Int32], length: [Int32],
         segmentStart: [Int32], widest: [Float], segments: [PreparedSegment]) {
        let natural = UnsafeMutableBufferPointer<Int64>.allocate(capacity: Swift.max(head.count, 1))
        natural.initialize(repeating: -1)
        view = View(rowCount: rowCount, slotsPerRow: slotsPerRow, styleIdentities: Self.buffer(styleIdentities), first: Self.buffer(first),
                    head: Self.buffer(head), style: Self.buffer(style), length: Self.buffer(length), segmentStart: Self.buffer(segmentStart),
                    widest: Self.buffer(widest), natural: UnsafeMutableBufferPointer(rebasing: natural[0..<head.count]), segments: Self.buffer(segments))
    }

    deinit {
        Self.free(view.first)
        Self.free(view.head)
        Self.free(view.style)
        Self.free(view.length)
        Self.free(view.segmentStart)
        Self.free(view.widest)
        Self.free(view.segments)
        Self.free(view.styleIdentities)
        UnsafeMutableRawPointer(view.natural.baseAddress!).deallocate()
    }

    private static func free<T>(_ buffer: UnsafeBufferPointer<T>) {
        UnsafeMutableRawPointer(mutating: buffer.baseAddress!).deallocate()
    }

    private static func buffer<T>(_ elements: [T]) -> UnsafeBufferPointer<T> {
        let p = UnsafeMutablePointer<T>.allocate(capacity: Swift.max(elements.count, 1))
        elements.withUnsafeBufferPointer { if let b = $0.baseAddress { p.initialize(from: b, count: $0.count) } }
        return UnsafeBufferPointer(start: p, count: elements.count)
    }

    /// Texts kept.
    public var textCount: Int { view.head.count }

    /// Bytes held (segments and per-text and per-slot columns).
    public var bytes: Int {
        view.segments.count * MemoryLayout<PreparedSegment>.stride + view.head.count * (4 * 4 + 4 + 8) + view.segmentStart.count * 4 + view.first.count * 4
    }

    /// Whether the texts were prepared in the measurer's current styles (false after a
    /// font scale or platform change: measuring with the batch then goes through the text
    /// engine's caches for every text).
    public func isCurrent(for measurer: CellMeasurer) -> Bool {
        let identities = measurer.program.styleIdentities
        guard identities.count == view.styleIdentities.count else { return false }
        for i in 0..<identities.count where identities[i] != view.styleIdentities[i] { return false }
        return true
    }

    /// The batch's columns as plain pointers (valid while the batch lives), so the
    /// measurer reads them without touching the object's reference count.
    struct View {
        let rowCount: Int
        let slotsPerRow: Int
        let styleIdentities: UnsafeBufferPointer<UInt64>
        let first: UnsafeBufferPointer<Int32>
        let head: UnsafeBufferPointer<Int32>
        let style: UnsafeBufferPointer<Int32>
        let length: UnsafeBufferPointer<Int32>
        let segmentStart: UnsafeBufferPointer<Int32>
        let widest: UnsafeBufferPointer<Float>
        let natural: UnsafeMutableBufferPointer<Int64>
        let segments: UnsafeBufferPointer<PreparedSegment>

        /// The kept text for item `item` of value `value` of row `row`, when it was
        /// prepared in `styleIndex`'s current identity and has `count` bytes; -1 otherwise.
        @inline(__always)
        func text(row: Int, value: Int32, item: Int, styleIndex: Int32, identity: UInt64, count: Int) -> Int {
            guard value >= 0, row < rowCount, Int(value) < slotsPerRow else { return -1 }
            let f = first[row &* slotsPerRow &+ Int(value)]
            guard f >= 0 else { return -1 }
            let t = Int(f) &+ item
            guard t < head.count, head[t] == f, style[t] == styleIndex, Int(length[t]) == count,
                  styleIdentities[Int(styleIndex)] == identity else { return -1 }
            return t
        }

        @inline(__always)
        func view(_ t: Int) -> PreparedTextView {
            let lo = Int(segmentStart[t]), hi = Int(segmentStart[t + 1])
            return PreparedTextView(segments: UnsafeBufferPointer(rebasing: segments[lo..<hi]), widest: widest[t])
        }
    }

}

extension CellMeasurer {
    /// Prepares the texts of valid rows (laid out as `heights(kinds:utf8:offsets:slotsPerRow:into:)`
    /// takes them) for measuring them again quickly: see `CellTextBatch`.
    /// - Parameter rowsAreValidUTF8: the caller has checked every slot (the row store does
    ///   on insert); otherwise each row is checked and the texts of a row that is not valid
    ///   UTF-8 are not kept.
    /// - Throws: `columnLengthMismatch` when `offsets` does not hold `kinds.count *
    ///   slotsPerRow + 1` entries.
    public func prepareTexts(kinds: UnsafeBufferPointer<UInt16>, utf8: UnsafeRawBufferPointer, offsets: UnsafeBufferPointer<Int>, slotsPerRow: Int,
                             rowsAreValidUTF8: Bool = false) throws(TesseraError) -> CellTextBatch {
        let expected = kinds.count * Swift.max(slotsPerRow, 0) + 1
        guard slotsPerRow >= 0, offsets.count == expected else { throw .columnLengthMismatch(column: "offsets", expected: expected, actual: offsets.count) }
        let p = program
        // Which slots of each kind keep their texts: those the program lays out with more
        // than one line allowed, and those whose natural width a column needs.
        var keeps = [Bool](repeating: false, count: p.slots.count)
        for kp in p.kinds {
            let columns = p.columns.baseAddress.unsafelyUnwrapped + Int(kp.columnStart)
            for ci in 0..<Int(kp.columnCount) {
                let c = columns + ci
                let natural = kp.gridMode == 2 ? c.pointee.mode != .fixed : c.pointee.mode == .fit
                for i in 0..<Int(c.pointee.itemCount) {
                    let s = Int(kp.slotStart) + Int(p.items[Int(c.pointee.itemStart) + i].slot)
                    let sp = p.slots[s]
                    guard sp.placed, sp.valueIndex >= 0 else { continue }
                    switch sp.type {
                    case .text, .textList: keeps[s] = sp.maxLines != 1 || natural
                    case .button: keeps[s] = (sp.buttonHeight < 0 && sp.maxLines != 1) || !sp.flag  // a fit button needs its label's natural width
                    default: break
                    }
                }
            }
        }
        var first = [Int32](repeating: -1, count: kinds.count * slotsPerRow)
        var head: [Int32] = [], style: [Int32] = [], length: [Int32] = [], segmentStart: [Int32] = [], widest: [Float] = []
        var segments: [PreparedSegment] = []
        // Room for a typical list (about two kept texts of eight segments per row), so the
        // columns rarely grow by copying.
        head.reserveCapacity(2 * kinds.count)
        style.reserveCapacity(2 * kinds.count)
        length.reserveCapacity(2 * kinds.count)
        segmentStart.reserveCapacity(2 * kinds.count + 1)
        widest.reserveCapacity(2 * kinds.count)
        segments.reserveCapacity(16 * kinds.count)
        for r in 0..<kinds.count {
            let k = profile.kindIndex(kinds[r])
            guard k >= 0 else { continue }
            let kp = p.kinds[k]
            let row = RowValues(utf8: utf8, offsets: UnsafeBufferPointer(rebasing: offsets[r * slotsPerRow...(r + 1) * slotsPerRow]))
            guard rowsAreValidUTF8 || row.isValidUTF8 else { continue }
            for v in 0..<Swift.min(Int(kp.valueCount), slotsPerRow) {
                let s = Int(kp.slotStart) + Int(p.valueSlots[Int(kp.valueStart) + v])
                guard keeps[s] else { continue }
                let sp = p.slots[s]
                let range = row.range(v)
                guard !range.isEmpty, range.count <= Int(Int32.max) else { continue }
                let f = Int32(head.count)
                func keep(_ r: Range<Int>) {
                    head.append(f)
                    style.append(sp.style)
                    length.append(Int32(r.count))
                    segmentStart.append(Int32(segments.count))
                    widest.append(textEngine.prepare(row.bytes(r), p.styles[Int(sp.style)]))
                    segments.append(contentsOf: textEngine.caches.pointee.segments.buffer)
                }
                if sp.type == .textList {
                    var from = range.lowerBound
                    while let item = Self.nextItem(row.utf8, from: from, end: range.upperBound) {
                        keep(item)
                        from = item.upperBound + 1
                    }
                } else {
                    keep(range)
                }
                if Int(f) < head.count { first[r * slotsPerRow + v] = f }
            }
            guard segments.count < Int(Int32.max) - (1 << 20) else { break }
        }
        segmentStart.append(Int32(segments.count))
        return CellTextBatch(rowCount: kinds.count, slotsPerRow: slotsPerRow, styleIdentities: Array(p.styleIdentities), first: first,
                             head: head, style: style, length: length, segmentStart: segmentStart, widest: widest, segments: segments)
    }

    /// `heights(kinds:utf8:offsets:slotsPerRow:into:)` of the rows `texts` was prepared
    /// for, laying their kept texts out from it (the same heights as without it).
    /// - Throws: as `heights`, and `columnLengthMismatch` when `texts` was prepared for
    ///   another number of rows or slots per row.
    /// `onlyChangedKinds` as in `heights(..., rowsAreValidUTF8:onlyChangedKinds:)`.
    public func heights(kinds: UnsafeBufferPointer<UInt16>, utf8: UnsafeRawBufferPointer, offsets: UnsafeBufferPointer<Int>, slotsPerRow: Int,
                        texts: CellTextBatch, into results: UnsafeMutableBufferPointer<Double>, rowsAreValidUTF8: Bool = false,
                        onlyChangedKinds: Bool = false) throws(TesseraError) {
        guard texts.rowCount == kinds.count else { throw .columnLengthMismatch(column: "texts", expected: kinds.count, actual: texts.rowCount) }
        guard texts.slotsPerRow == slotsPerRow else { throw .columnLengthMismatch(column: "texts.slotsPerRow", expected: slotsPerRow, actual: texts.slotsPerRow) }
        scratch.pointee.batch = texts.view
        defer {
            scratch.pointee.batch = nil
            scratch.pointee.batchRow = 0
        }
        try withExtendedLifetime(texts) { () throws(TesseraError) in
            try heights(kinds: kinds, utf8: utf8, offsets: offsets, slotsPerRow: slotsPerRow, into: results, rowsAreValidUTF8: rowsAreValidUTF8,
                        onlyChangedKinds: onlyChangedKinds)
        }
    }

    /// The kept text of the row being measured for this item, or -1 (no batch, not kept,
    /// or prepared in another style).
    @inline(__always)
    func batchText(_ bytes: UnsafeRawBufferPointer, _ p: CellProgram, style: Int32, value: Int32, item: Int) -> (CellTextBatch.View, Int)? {
        guard let batch = scratch.pointee.batch else { return nil }
        let t = batch.text(row: scratch.pointee.batchRow, value: value, item: item, styleIndex: style,
                           identity: p.styleIdentities[Int(style)], count: bytes.count)
        return t >= 0 ? (batch, t) : nil
    }

    /// Line count of kept text `t` at `width` points with at most `maxLines` lines (0: no
    /// limit): the engine's line breaking over its segments. Lines are filled greedily, so
    /// the first `maxLines` lines do not depend on the limit and the count is the unlimited
    /// count capped at the limit; breaking without the limit skips fitting the ellipsis
    /// into the last line, which only that line's content (not the count) depends on.
    @inline(__always)
    func batchLines(_ batch: CellTextBatch.View, _ t: Int, _ bytes: UnsafeRawBufferPointer, _ style: TextStyle, width: Double, maxLines: Int) -> Int {
        _ = textEngine.breakLines(batch.view(t), bytes, style, width: width, maxLines: 0)
        let count = textEngine.caches.pointee.lines.count
        return maxLines > 0 ? Swift.min(count, maxLines) : count
    }

    /// The natural width of kept text `t` in units (computed once).
    @inline(__always)
    func batchNatural(_ batch: CellTextBatch.View, _ t: Int, _ bytes: UnsafeRawBufferPointer, _ style: TextStyle) -> Int64 {
        let known = batch.natural[t]
        if known >= 0 { return known }
        _ = textEngine.breakLines(batch.view(t), bytes, style, width: Self.naturalLayoutWidth, maxLines: 0)
        var widest = 0.0
        for line in textEngine.caches.pointee.lines.buffer { widest = Swift.max(widest, line.width) }
        let units = Swift.max(LayoutUnit.unitsUp(widest), 0)
        batch.natural[t] = units
        return units
    }
}
