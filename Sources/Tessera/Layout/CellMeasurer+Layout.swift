/// The measuring program's interpreter: README "How height and frames follow", in 1/64 pt
/// integers, over the scratch state (no allocation).
extension CellMeasurer {
    /// The gap between two consecutive present things: the larger of the overrides that are
    /// defined, else the default.
    @inline(__always)
    static func gap(_ after: Int64, _ before: Int64, _ standard: Int64) -> Int64 {
        after < 0 && before < 0 ? standard : Swift.max(after, before)
    }

    // MARK: Values

    /// A box stack count or an image side: decimal digits (a side may have a fraction).
    /// nil when unparsable.
    static func parseDecimal(_ b: UnsafeRawBufferPointer, allowFraction: Bool) -> Double? {
        var i = 0, whole = 0.0, digits = 0
        while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
            whole = whole * 10 + Double(b[i] - 0x30)
            i += 1
            digits += 1
        }
        guard digits > 0, digits <= 9 else { return nil }
        if i < b.count, b[i] == UInt8(ascii: "."), allowFraction {
            i += 1
            var scale = 0.1, fraction = 0
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39, fraction < 6 {
                whole += Double(b[i] - 0x30) * scale
                scale /= 10
                i += 1
                fraction += 1
            }
            guard fraction > 0 else { return nil }
        }
        return i == b.count ? whole : nil
    }

    /// An image value: "" or "*" → the default; "44" → 44 × 44; "110x80". nil when unparsable.
    static func parseImage(_ b: UnsafeRawBufferPointer, default d: Int64) -> (width: Int64, height: Int64)? {
        if b.isEmpty || (b.count == 1 && b[0] == UInt8(ascii: "*")) { return (d, d) }
        if let whole = parseWholeImage(b) { return whole }
        var x = -1
        for i in 0..<b.count where b[i] == UInt8(ascii: "x") {
            x = i
            break
        }
        if x < 0 {
            guard let side = parseDecimal(b, allowFraction: true) else { return nil }
            let u = LayoutUnit.units(side)
            return (u, u)
        }
        guard let w = parseDecimal(UnsafeRawBufferPointer(rebasing: b[0..<x]), allowFraction: true),
              let h = parseDecimal(UnsafeRawBufferPointer(rebasing: b[(x + 1)...]), allowFraction: true) else { return nil }
        return (LayoutUnit.units(w), LayoutUnit.units(h))
    }

    /// `parseImage` of "44" or "110x80", whole sides of at most 9 digits (most values),
    /// with no floating point: `n` points are exactly `n * 64` units. nil for any other value.
    @inline(__always)
    static func parseWholeImage(_ b: UnsafeRawBufferPointer) -> (width: Int64, height: Int64)? {
        var width: Int64 = -1, side: Int64 = 0, digits = 0
        for byte in b {
            if byte &- 0x30 < 10 && digits < 9 {
                side = side * 10 + Int64(byte &- 0x30)
                digits += 1
            } else if byte == UInt8(ascii: "x") && width < 0 && digits > 0 {
                width = side
                side = 0
                digits = 0
            } else {
                return nil
            }
        }
        guard digits > 0 else { return nil }
        return ((width < 0 ? side : width) * 64, side * 64)
    }

    /// An image slot's size from its value (the default size for "", "*" or an unparsable one).
    @inline(__always)
    static func imageSize(_ b: UnsafeRawBufferPointer, _ sp: UnsafePointer<SlotProgram>) -> (width: Int64, height: Int64) {
        // Two digits ("44"), the commonest value, without the call.
        if b.count == 2 {
            let high = b[0] &- 0x30, low = b[1] &- 0x30
            if high < 10 && low < 10 {
                let side = (Int64(high) &* 10 &+ Int64(low)) &* 64
                return (side, side)
            }
        }
        let d = sp.pointee.imageDefault
        return parseImage(b, default: d) ?? (d, d)
    }

    /// A box stack's count from its value, capped at the slot's maximum (0: absent).
    @inline(__always)
    static func boxCount(_ b: UnsafeRawBufferPointer, _ sp: UnsafePointer<SlotProgram>) -> Int32 {
        Swift.min(b.isEmpty ? 0 : Int32(parseDecimal(b, allowFraction: false) ?? 0), sp.pointee.max)
    }

    /// The size of a box stack of `count` boxes, stacked vertically with the slot's flag.
    @inline(__always)
    static func boxStackSize(_ sp: UnsafePointer<SlotProgram>, count: Int32) -> (width: Int64, height: Int64) {
        let n = Int64(count)
        return sp.pointee.flag
            ? (sp.pointee.width, n * sp.pointee.height + (n - 1) * sp.pointee.gap)
            : (n * sp.pointee.width + (n - 1) * sp.pointee.gap, sp.pointee.height)
    }

    /// The number of non-empty items of a text list value.
    static func itemCount(_ b: UnsafeRawBufferPointer) -> Int {
        var n = 0, length = 0
        for byte in b {
            if byte == 0x1E {
                if length > 0 { n += 1 }
                length = 0
            } else {
                length += 1
            }
        }
        return length > 0 ? n + 1 : n
    }

    /// The next non-empty item of a text list value in `[from, end)`, or nil.
    @inline(__always)
    static func nextItem(_ utf8: UnsafeRawBufferPointer, from: Int, end: Int) -> Range<Int>? {
        var a = from
        while a < end {
            let b = itemEnd(utf8, from: a, end: end)
            if b > a { return a..<b }
            a = b + 1
        }
        return nil
    }

    /// The first item separator (0x1E) in `[from, end)` of a text list value, or `end`;
    /// eight bytes at a time.
    @inline(__always)
    static func itemEnd(_ utf8: UnsafeRawBufferPointer, from: Int, end: Int) -> Int {
        let p = utf8.baseAddress.unsafelyUnwrapped
        let ones: UInt64 = 0x0101_0101_0101_0101
        var b = from
        while b + 8 <= end {
            let w = p.loadUnaligned(fromByteOffset: b, as: UInt64.self).littleEndian ^ (0x1E &* ones)
            // High bits at the zero bytes of `w` (and maybe above the first): the lowest is
            // the first separator.
            let zero = (w &- ones) & ~w & (0x80 &* ones)
            if zero != 0 { return b + zero.trailingZeroBitCount / 8 }
            b += 8
        }
        while b < end && p.load(fromByteOffset: b, as: UInt8.self) != 0x1E { b += 1 }
        return b
    }

    // MARK: Text

    /// Lines of a text at `width` units (at least one unit: a column squeezed to nothing
    /// still lays out, one cluster per line).
    @inline(__always)
    func textMeasure(_ bytes: UnsafeRawBufferPointer, _ p: CellProgram, style: Int32, width: Int64, maxLines: Int32, includeLines: Bool = false) -> TextMeasurement? {
        textLayout(bytes, p.styles[Int(style)], width: LayoutUnit.points(Swift.max(width, 1)), maxLines: maxLines, includeLines: includeLines)
    }

    /// Lays out a text of the current row: straight through the engine's layout when the
    /// row's slots were found valid UTF-8 (`readSlots`), so a text is not validated again
    /// for every measurement of it; otherwise through `measure`, which validates (nil for
    /// a text that is not valid UTF-8). Both give the same result for a valid text.
    @inline(__always)
    func textLayout(_ bytes: UnsafeRawBufferPointer, _ style: TextStyle, width: Double, maxLines: Int32, includeLines: Bool) -> TextMeasurement? {
        if rowIsValidUTF8 && maxLines >= 0 && bytes.count <= TextLayoutEngine.maximumTextBytes {
            return textEngine.layout(validUTF8: bytes, style: style, width: width, maxLines: Int(maxLines), includeLines: includeLines)
        }
        return try? textEngine.measure(utf8: bytes, style: style, width: width, maxLines: Int(maxLines), includeLines: includeLines)
    }

    /// The height of a text's lines. A text limited to one line is one line whatever it
    /// holds (a longer one is truncated, an empty or invalid one is one empty line), so it
    /// is not laid out for its height.
    /// A text kept in the rows' `CellTextBatch` is laid out from its segments.
    @inline(__always)
    func textHeight(_ bytes: UnsafeRawBufferPointer, _ p: CellProgram, style: Int32, width: Int64, maxLines: Int32, slot: Int,
                    value: Int32, item: Int = 0) -> Int64 {
        if let log = textLog { return log.height(self, bytes, p, style: style, width: width, maxLines: maxLines, slot: slot) }
        if maxLines == 1 { return p.lineHeights[Int(style)] }
        let lines: Int
        if maxLines >= 0, rowIsValidUTF8, let (batch, t, ratio) = batchText(bytes, p, style: style, value: value, item: item) {
            lines = batchLines(batch, t, bytes, p, style: style, width: LayoutUnit.points(Swift.max(width, 1)), maxLines: Int(maxLines), ratio: ratio)
        } else {
            lines = textMeasure(bytes, p, style: style, width: width, maxLines: maxLines)?.lineCount ?? 1
        }
        #if TESSERA_INVARIANTS
        // `CellProgram.fillShift` counts on it.
        precondition(bytes.isEmpty || lines >= 1, "a present text takes at least one line")
        #endif
        return Int64(lines) * p.lineHeights[Int(style)]
    }

    /// The widest item of text list slot `s` whose value is `range` of the row.
    @inline(__always)
    func textListNatural(_ range: Range<Int>, _ s: Int, _ sp: UnsafePointer<SlotProgram>, _ p: CellProgram, _ row: RowValues) -> Int64 {
        // From its kept items when the batch has them (`keptListNatural`).
        if textLog == nil, rowIsValidUTF8, let batch = scratch.pointee.batch,
           let w = keptListNatural(batch, scratch.pointee.batchRow, sp, p, count: range.count, { row.bytes(range) }) { return w }
        var w: Int64 = 0, from = range.lowerBound, k = 0
        while let item = Self.nextItem(row.utf8, from: from, end: range.upperBound) {
            w = Swift.max(w, textNatural(row.bytes(item), p, style: sp.pointee.style, slot: s, value: sp.pointee.valueIndex, item: k))
            from = item.upperBound + 1
            k += 1
        }
        return w
    }

    /// The items of text list slot `s` (value `range` of the row) stacked with the slot's
    /// gap at `columnWidth`.
    @inline(__always)
    func textListHeight(_ range: Range<Int>, _ s: Int, _ sp: UnsafePointer<SlotProgram>, _ p: CellProgram, _ row: RowValues,
                        columnWidth: Int64) -> Int64 {
        var h: Int64 = 0, from = range.lowerBound, k = 0
        while let item = Self.nextItem(row.utf8, from: from, end: range.upperBound) {
            if k > 0 { h += sp.pointee.gap }
            h += textHeight(row.bytes(item), p, style: sp.pointee.style, width: columnWidth, maxLines: sp.pointee.maxLines, slot: s,
                            value: sp.pointee.valueIndex, item: k)
            from = item.upperBound + 1
            k += 1
        }
        return h
    }

    /// The widest line of a text laid out without a width limit, rounded up to a unit.
    @inline(__always)
    func textNatural(_ bytes: UnsafeRawBufferPointer, _ p: CellProgram, style: Int32, slot: Int, value: Int32, item: Int = 0) -> Int64 {
        if let log = textLog { return log.natural(self, bytes, p, style: style, slot: slot) }
        if rowIsValidUTF8, let (batch, t, ratio) = batchText(bytes, p, style: style, value: value, item: item) {
            return batchNatural(batch, t, bytes, p, style: style, ratio: ratio)
        }
        guard let m = textLayout(bytes, p.styles[Int(style)], width: Self.naturalLayoutWidth, maxLines: 0, includeLines: false) else { return 0 }
        return Swift.max(LayoutUnit.unitsUp(m.width), 0)
    }

    // MARK: Phases
    //
    // The phases read the program through pointers to its elements (`p.slots` etc. are
    // buffers the program owns), so a slot's or column's program is not copied out whole
    // for each field read.

    /// Phase 1: presence and value-given sizes of every slot of the kind. Only a present
    /// slot's state is written in full; an absent one gets `present = false` and nothing
    /// reads its other fields.
    func readSlots(_ kp: KindProgram, _ p: CellProgram, _ row: RowValues) {
        rowIsValidUTF8 = scratch.pointee.trustsRows || row.isValidUTF8
        let slots = p.slots.baseAddress.unsafelyUnwrapped + Int(kp.slotStart)
        for s in 0..<Int(kp.slotCount) { readSlot(s, slots, row) }
    }

    /// Phase 1 for local slot `s` of the kind whose slot programs start at `slots`.
    @inline(__always)
    func readSlot(_ s: Int, _ slots: UnsafePointer<SlotProgram>, _ row: RowValues) {
        let sp = slots + s
        let st = slotState + s
        guard sp.pointee.placed || sp.pointee.overlay else {
            st.pointee.present = false
            return
        }
        var start = 0, end = 0
        if sp.pointee.valueIndex >= 0 {
            let r = row.range(Int(sp.pointee.valueIndex))
            start = r.lowerBound
            end = r.upperBound
        }
        let bytes = row.bytes(start..<end)
        var new = SlotState()
        new.start = start
        new.end = end
        switch sp.pointee.type {
        case .text, .button:
            guard !bytes.isEmpty else {
                st.pointee.present = false
                return
            }
            new.present = true
        case .textList:
            new.count = Int32(Self.itemCount(bytes))
            guard new.count > 0 else {
                st.pointee.present = false
                return
            }
            new.present = true
        case .box:
            guard sp.pointee.always || !bytes.isEmpty else {
                st.pointee.present = false
                return
            }
            new.present = true
            new.width = sp.pointee.width
            new.height = sp.pointee.height
            new.natural = sp.pointee.width
        case .image:
            guard sp.pointee.always || !bytes.isEmpty else {
                st.pointee.present = false
                return
            }
            new.present = true
            if sp.pointee.flag {
                new.natural = 0
            } else {
                let size = Self.imageSize(bytes, sp)
                new.width = size.width
                new.height = size.height
                new.natural = size.width
            }
        case .boxStack:
            new.count = Self.boxCount(bytes, sp)
            guard new.count > 0 else {
                st.pointee.present = false
                return
            }
            new.present = true
            (new.width, new.height) = Self.boxStackSize(sp, count: new.count)
            new.natural = new.width
        }
        st.pointee = new
    }

    /// A present slot's natural width, measured once.
    func natural(_ s: Int, _ sp: UnsafePointer<SlotProgram>, _ p: CellProgram, _ row: RowValues) -> Int64 {
        let st = slotState + s
        if st.pointee.natural >= 0 { return st.pointee.natural }
        var w: Int64 = 0
        let start = st.pointee.start, end = st.pointee.end
        switch sp.pointee.type {
        case .text:
            w = textNatural(row.bytes(start..<end), p, style: sp.pointee.style, slot: s, value: sp.pointee.valueIndex)
        case .textList:
            w = textListNatural(start..<end, s, sp, p, row)
        case .button:
            w = textNatural(row.bytes(start..<end), p, style: sp.pointee.style, slot: s, value: sp.pointee.valueIndex) + 2 * sp.pointee.paddingHorizontal
        default: break
        }
        st.pointee.natural = w
        return w
    }

    /// The widest present item of a column.
    func columnNatural(_ c: UnsafePointer<ColumnProgram>, _ kp: KindProgram, _ p: CellProgram, _ row: RowValues) -> Int64 {
        var w: Int64 = 0
        let items = p.items.baseAddress.unsafelyUnwrapped + Int(c.pointee.itemStart)
        let slots = p.slots.baseAddress.unsafelyUnwrapped + Int(kp.slotStart)
        for i in 0..<Int(c.pointee.itemCount) {
            let s = Int(items[i].slot)
            guard slotState[s].present else { continue }
            let sp = slots + s
            // A fill button takes the column's width and asks for none.
            if sp.pointee.type == .button && sp.pointee.flag { continue }
            w = Swift.max(w, natural(s, sp, p, row))
        }
        return w
    }

    /// Whether any item of a column is present.
    @inline(__always)
    func anyPresent(_ c: UnsafePointer<ColumnProgram>, _ p: CellProgram) -> Bool {
        let items = p.items.baseAddress.unsafelyUnwrapped + Int(c.pointee.itemStart)
        for i in 0..<Int(c.pointee.itemCount) where slotState[Int(items[i].slot)].present { return true }
        return false
    }

    /// The cell width of a row: the content width, a grid item's own width, or a "content"
    /// grid item's natural width (padding, present columns' natural widths and the gaps
    /// between them), capped by the grid's slot width.
    func cellWidthUnits(_ kp: KindProgram, _ p: CellProgram, _ row: RowValues) -> Int64 {
        switch kp.gridMode {
        case 0: return p.width
        case 1: return kp.gridWidth
        default:
            readSlots(kp, p, row)
            var total = kp.padLeading + kp.padTrailing
            var previous: UnsafePointer<ColumnProgram>? = nil
            let columns = p.columns.baseAddress.unsafelyUnwrapped + Int(kp.columnStart)
            for ci in 0..<Int(kp.columnCount) {
                let c = columns + ci
                guard c.pointee.mode == .fill || anyPresent(c, p) else { continue }
                if let prev = previous { total += Self.gap(prev.pointee.spaceAfter, c.pointee.spaceBefore, kp.columnGap) }
                var w = c.pointee.mode == .fixed ? c.pointee.fixed : columnNatural(c, kp, p, row)
                if c.pointee.mode == .fit && c.pointee.maxMode == 1 { w = Swift.min(w, c.pointee.maxLength) }
                total += w
                previous = c
            }
            return Swift.max(Swift.min(total, kp.gridWidth), 1)
        }
    }

    /// Measures a row at `width` units into the scratch state; returns the cell height.
    func layoutRow(_ kp: KindProgram, _ p: CellProgram, _ row: RowValues, cellWidth width: Int64) -> Int64 {
        readSlots(kp, p, row)
        let columnCount = Int(kp.columnCount)
        let inner = width - kp.padLeading - kp.padTrailing
        let columns = p.columns.baseAddress.unsafelyUnwrapped + Int(kp.columnStart)
        let slots = p.slots.baseAddress.unsafelyUnwrapped + Int(kp.slotStart)
        let state = columnState

        // Columns present, fixed and fit widths, gaps between present columns.
        var used: Int64 = 0
        var previous = -1
        for ci in 0..<columnCount {
            let c = columns + ci
            var cs = ColumnState()
            cs.present = c.pointee.mode == .fill || anyPresent(c, p)
            if cs.present {
                if previous >= 0 { used += Self.gap(columns[previous].spaceAfter, c.pointee.spaceBefore, kp.columnGap) }
                switch c.pointee.mode {
                case .fixed:
                    cs.width = c.pointee.fixed
                case .fit:
                    var w = columnNatural(c, kp, p, row)
                    if c.pointee.maxMode == 1 { w = Swift.min(w, c.pointee.maxLength) }
                    if c.pointee.maxMode == 2 { w = Swift.min(w, Swift.max(LayoutUnit.nearest(c.pointee.maxFraction * Double(inner)), 0)) }
                    cs.width = w
                default: break
                }
                used += cs.width
                previous = ci
            }
            state[ci] = cs
        }
        // The flexible width: fractions of it, and the rest to the fill column.
        let flexible = Swift.max(inner - used, 0)
        var fractions: Int64 = 0
        var fill = 0
        for ci in 0..<columnCount where state[ci].present {
            let c = columns + ci
            if c.pointee.mode == .fraction {
                let w = LayoutUnit.nearest(c.pointee.fraction * Double(flexible))
                state[ci].width = w
                fractions += w
            } else if c.pointee.mode == .fill {
                fill = ci
            }
        }
        state[fill].width = Swift.max(flexible - fractions, 0)

        // Item heights at their column's width; column heights.
        var tallest: Int64 = 0
        for ci in 0..<columnCount where state[ci].present {
            let c = columns + ci
            let items = p.items.baseAddress.unsafelyUnwrapped + Int(c.pointee.itemStart)
            let columnWidth = state[ci].width
            var h: Int64 = 0
            var previousItem = -1
            for i in 0..<Int(c.pointee.itemCount) {
                let s = Int(items[i].slot)
                guard slotState[s].present else { continue }
                if previousItem >= 0 { h += Self.gap(items[previousItem].spaceAfter, items[i].spaceBefore, c.pointee.gap) }
                h += itemHeight(s, slots + s, p, row, columnWidth: columnWidth)
                previousItem = i
            }
            state[ci].height = h
            tallest = Swift.max(tallest, h)
        }
        return Swift.max(kp.padTop + tallest + kp.padBottom, kp.minHeight)
    }

    /// Lays out one present item at its column's width: sets its width and height.
    func itemHeight(_ s: Int, _ sp: UnsafePointer<SlotProgram>, _ p: CellProgram, _ row: RowValues, columnWidth: Int64) -> Int64 {
        // A fit button needs its natural width, which is kept in the state: measure it first.
        let type = sp.pointee.type
        let buttonNatural = type == .button && !sp.pointee.flag ? natural(s, sp, p, row) : 0
        let st = slotState + s
        switch type {
        case .text:
            st.pointee.width = columnWidth
            st.pointee.height = textHeight(row.bytes(st.pointee.start..<st.pointee.end), p, style: sp.pointee.style, width: columnWidth,
                                           maxLines: sp.pointee.maxLines, slot: s, value: sp.pointee.valueIndex)
        case .textList:
            st.pointee.width = columnWidth
            st.pointee.height = textListHeight(st.pointee.start..<st.pointee.end, s, sp, p, row, columnWidth: columnWidth)
        case .button:
            let width = sp.pointee.flag ? columnWidth : Swift.min(buttonNatural, columnWidth)
            st.pointee.width = width
            if sp.pointee.buttonHeight >= 0 {
                st.pointee.height = sp.pointee.buttonHeight
            } else {
                let label = textHeight(row.bytes(st.pointee.start..<st.pointee.end), p, style: sp.pointee.style,
                                       width: width - 2 * sp.pointee.paddingHorizontal, maxLines: sp.pointee.maxLines, slot: s,
                                       value: sp.pointee.valueIndex)
                st.pointee.height = label + 2 * sp.pointee.paddingVertical
            }
        case .image:
            if sp.pointee.flag {
                let side = Swift.min(Swift.max(columnWidth, sp.pointee.imageMin), sp.pointee.imageMax)
                st.pointee.width = side
                st.pointee.height = side
            }
        case .box, .boxStack:
            break
        }
        return st.pointee.height
    }
}
