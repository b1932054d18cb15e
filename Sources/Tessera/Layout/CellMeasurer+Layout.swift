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
            var b = a
            while b < end && utf8[b] != 0x1E { b += 1 }
            if b > a { return a..<b }
            a = b + 1
        }
        return nil
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

    @inline(__always)
    func textHeight(_ bytes: UnsafeRawBufferPointer, _ p: CellProgram, style: Int32, width: Int64, maxLines: Int32, slot: Int) -> Int64 {
        if let log = textLog { return log.height(self, bytes, p, style: style, width: width, maxLines: maxLines, slot: slot) }
        return Int64(textMeasure(bytes, p, style: style, width: width, maxLines: maxLines)?.lineCount ?? 1) * p.lineHeights[Int(style)]
    }

    /// The widest line of a text laid out without a width limit, rounded up to a unit.
    @inline(__always)
    func textNatural(_ bytes: UnsafeRawBufferPointer, _ p: CellProgram, style: Int32, slot: Int) -> Int64 {
        if let log = textLog { return log.natural(self, bytes, p, style: style, slot: slot) }
        guard let m = textLayout(bytes, p.styles[Int(style)], width: Self.naturalLayoutWidth, maxLines: 0, includeLines: false) else { return 0 }
        return Swift.max(LayoutUnit.unitsUp(m.width), 0)
    }

    // MARK: Phases

    /// Phase 1: presence and value-given sizes of every slot of the kind.
    func readSlots(_ kp: KindProgram, _ p: CellProgram, _ row: RowValues) {
        rowIsValidUTF8 = row.isValidUTF8
        for s in 0..<Int(kp.slotCount) {
            let sp = p.slots[Int(kp.slotStart) + s]
            var st = SlotState()
            if sp.valueIndex >= 0 {
                let r = row.range(Int(sp.valueIndex))
                st.start = r.lowerBound
                st.end = r.upperBound
            }
            if sp.placed || sp.overlay {
                let bytes = row.bytes(st.start..<st.end)
                switch sp.type {
                case .text, .button:
                    st.present = !bytes.isEmpty
                case .textList:
                    st.count = Int32(Self.itemCount(bytes))
                    st.present = st.count > 0
                case .box:
                    st.present = sp.always || !bytes.isEmpty
                    st.width = sp.width
                    st.height = sp.height
                    st.natural = sp.width
                case .image:
                    st.present = sp.always || !bytes.isEmpty
                    if sp.flag {
                        st.natural = 0
                    } else {
                        let size = Self.parseImage(bytes, default: sp.imageDefault) ?? (sp.imageDefault, sp.imageDefault)
                        st.width = size.width
                        st.height = size.height
                        st.natural = size.width
                    }
                case .boxStack:
                    let n = bytes.isEmpty ? 0 : Int32(Self.parseDecimal(bytes, allowFraction: false) ?? 0)
                    st.count = Swift.min(n, sp.max)
                    st.present = st.count > 0
                    let n64 = Int64(st.count)
                    if sp.flag {
                        st.width = sp.width
                        st.height = n64 * sp.height + (n64 - 1) * sp.gap
                    } else {
                        st.width = n64 * sp.width + (n64 - 1) * sp.gap
                        st.height = sp.height
                    }
                    st.natural = st.width
                }
            }
            slotState[s] = st
        }
    }

    /// A present slot's natural width, measured once.
    func natural(_ s: Int, _ sp: SlotProgram, _ p: CellProgram, _ row: RowValues) -> Int64 {
        let st = slotState[s]
        if st.natural >= 0 { return st.natural }
        var w: Int64 = 0
        switch sp.type {
        case .text:
            w = textNatural(row.bytes(st.start..<st.end), p, style: sp.style, slot: s)
        case .textList:
            var from = st.start
            while let item = Self.nextItem(row.utf8, from: from, end: st.end) {
                w = Swift.max(w, textNatural(row.bytes(item), p, style: sp.style, slot: s))
                from = item.upperBound + 1
            }
        case .button:
            w = textNatural(row.bytes(st.start..<st.end), p, style: sp.style, slot: s) + 2 * sp.paddingHorizontal
        default: break
        }
        slotState[s].natural = w
        return w
    }

    /// The widest present item of a column.
    func columnNatural(_ c: ColumnProgram, _ kp: KindProgram, _ p: CellProgram, _ row: RowValues) -> Int64 {
        var w: Int64 = 0
        for i in 0..<Int(c.itemCount) {
            let s = Int(p.items[Int(c.itemStart) + i].slot)
            guard slotState[s].present else { continue }
            let sp = p.slots[Int(kp.slotStart) + s]
            // A fill button takes the column's width and asks for none.
            if sp.type == .button && sp.flag { continue }
            w = Swift.max(w, natural(s, sp, p, row))
        }
        return w
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
            var previous: ColumnProgram? = nil
            for ci in 0..<Int(kp.columnCount) {
                let c = p.columns[Int(kp.columnStart) + ci]
                var present = c.mode == .fill
                for i in 0..<Int(c.itemCount) where slotState[Int(p.items[Int(c.itemStart) + i].slot)].present { present = true }
                guard present else { continue }
                if let prev = previous { total += Self.gap(prev.spaceAfter, c.spaceBefore, kp.columnGap) }
                var w = c.mode == .fixed ? c.fixed : columnNatural(c, kp, p, row)
                if c.mode == .fit && c.maxMode == 1 { w = Swift.min(w, c.maxLength) }
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

        // Columns present, fixed and fit widths, gaps between present columns.
        var used: Int64 = 0
        var previous = -1
        for ci in 0..<columnCount {
            let c = p.columns[Int(kp.columnStart) + ci]
            var cs = ColumnState()
            cs.present = c.mode == .fill
            for i in 0..<Int(c.itemCount) where slotState[Int(p.items[Int(c.itemStart) + i].slot)].present { cs.present = true }
            if cs.present {
                if previous >= 0 { used += Self.gap(p.columns[Int(kp.columnStart) + previous].spaceAfter, c.spaceBefore, kp.columnGap) }
                switch c.mode {
                case .fixed:
                    cs.width = c.fixed
                case .fit:
                    var w = columnNatural(c, kp, p, row)
                    if c.maxMode == 1 { w = Swift.min(w, c.maxLength) }
                    if c.maxMode == 2 { w = Swift.min(w, Swift.max(Int64((c.maxFraction * Double(inner)).rounded()), 0)) }
                    cs.width = w
                default: break
                }
                used += cs.width
                previous = ci
            }
            columnState[ci] = cs
        }
        // The flexible width: fractions of it, and the rest to the fill column.
        let flexible = Swift.max(inner - used, 0)
        var fractions: Int64 = 0
        var fill = 0
        for ci in 0..<columnCount where columnState[ci].present {
            let c = p.columns[Int(kp.columnStart) + ci]
            if c.mode == .fraction {
                let w = Int64((c.fraction * Double(flexible)).rounded())
                columnState[ci].width = w
                fractions += w
            } else if c.mode == .fill {
                fill = ci
            }
        }
        columnState[fill].width = Swift.max(flexible - fractions, 0)

        // Item heights at their column's width; column heights.
        var tallest: Int64 = 0
        for ci in 0..<columnCount where columnState[ci].present {
            let c = p.columns[Int(kp.columnStart) + ci]
            let columnWidth = columnState[ci].width
            var h: Int64 = 0
            var previousItem = -1
            for i in 0..<Int(c.itemCount) {
                let item = p.items[Int(c.itemStart) + i]
                let s = Int(item.slot)
                guard slotState[s].present else { continue }
                if previousItem >= 0 { h += Self.gap(p.items[Int(c.itemStart) + previousItem].spaceAfter, item.spaceBefore, c.gap) }
                h += itemHeight(s, p.slots[Int(kp.slotStart) + s], p, row, columnWidth: columnWidth)
                previousItem = i
            }
            columnState[ci].height = h
            tallest = Swift.max(tallest, h)
        }
        return Swift.max(kp.padTop + tallest + kp.padBottom, kp.minHeight)
    }

    /// Lays out one present item at its column's width: sets its width and height.
    func itemHeight(_ s: Int, _ sp: SlotProgram, _ p: CellProgram, _ row: RowValues, columnWidth: Int64) -> Int64 {
        // A fit button needs its natural width, which is kept in the state: measure it first.
        let buttonNatural = sp.type == .button && !sp.flag ? natural(s, sp, p, row) : 0
        var st = slotState[s]
        switch sp.type {
        case .text:
            st.width = columnWidth
            st.height = textHeight(row.bytes(st.start..<st.end), p, style: sp.style, width: columnWidth, maxLines: sp.maxLines, slot: s)
        case .textList:
            st.width = columnWidth
            var h: Int64 = 0, first = true
            var from = st.start
            while let item = Self.nextItem(row.utf8, from: from, end: st.end) {
                if !first { h += sp.gap }
                h += textHeight(row.bytes(item), p, style: sp.style, width: columnWidth, maxLines: sp.maxLines, slot: s)
                first = false
                from = item.upperBound + 1
            }
            st.height = h
        case .button:
            st.width = sp.flag ? columnWidth : Swift.min(buttonNatural, columnWidth)
            if sp.buttonHeight >= 0 {
                st.height = sp.buttonHeight
            } else {
                let label = textHeight(row.bytes(st.start..<st.end), p, style: sp.style, width: st.width - 2 * sp.paddingHorizontal, maxLines: sp.maxLines, slot: s)
                st.height = label + 2 * sp.paddingVertical
            }
        case .image:
            if sp.flag {
                let side = Swift.min(Swift.max(columnWidth, sp.imageMin), sp.imageMax)
                st.width = side
                st.height = side
            }
        case .box, .boxStack:
            break
        }
        slotState[s] = st
        return st.height
    }
}
