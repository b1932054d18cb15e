/// Frames: the same measurement, then positions (README "How height and frames follow",
/// step 8). Allocates its result; meant for the rows a host is about to show.
extension CellMeasurer {
    /// The frame of every present element of a valid row, the texts' lines and the divider.
    /// An unknown kind gives empty frames.
    public func frames(kind: UInt16, utf8: UnsafeRawBufferPointer, slotOffsets: UnsafeBufferPointer<Int>) -> CellFrames {
        let k = profile.kindIndex(kind)
        guard k >= 0 else { return CellFrames(width: 0, height: 0, slots: [], divider: nil) }
        let p = program
        let kp = p.kinds[k]
        let model = profile.model.kinds[k]
        let row = RowValues(utf8: utf8, offsets: slotOffsets)
        let width = cellWidthUnits(kp, p, row)
        let height = layoutRow(kp, p, row, cellWidth: width)
        let box = height - kp.padTop - kp.padBottom
        var result = CellFrames(width: LayoutUnit.points(width), height: LayoutUnit.points(height), slots: [], divider: nil)

        var x = kp.padLeading
        var previous = -1
        for ci in 0..<Int(kp.columnCount) where columnState[ci].present {
            let c = p.columns[Int(kp.columnStart) + ci]
            if previous >= 0 { x += Self.gap(p.columns[Int(kp.columnStart) + previous].spaceAfter, c.spaceBefore, kp.columnGap) }
            columnState[ci].x = x
            let cw = columnState[ci].width
            let ch = columnState[ci].height
            var y = kp.padTop
            switch c.align {
            case .top: break
            case .center: y += (box - ch) >> 1
            case .bottom: y += box - ch
            }
            var previousItem = -1
            for i in 0..<Int(c.itemCount) {
                let item = p.items[Int(c.itemStart) + i]
                let s = Int(item.slot)
                guard slotState[s].present else { continue }
                if previousItem >= 0 { y += Self.gap(p.items[Int(c.itemStart) + previousItem].spaceAfter, item.spaceBefore, c.gap) }
                let w = slotState[s].width
                switch c.hAlign {
                case .leading: slotState[s].x = x
                case .center: slotState[s].x = x + ((cw - w) >> 1)
                case .trailing: slotState[s].x = x + cw - w
                }
                slotState[s].y = y
                y += slotState[s].height
                result.slots.append(slotFrame(s, p.slots[Int(kp.slotStart) + s], model.slots[s].name, p, row))
                previousItem = i
            }
            x += cw
            previous = ci
        }
        for o in p.overlays[Int(kp.overlayStart)..<Int(kp.overlayStart + kp.overlayCount)] {
            let s = Int(o.slot)
            guard slotState[s].present else { continue }
            var ax: Int64 = 0, ay: Int64 = 0, aw = width, ah = height
            if o.anchor >= 0, slotState[Int(o.anchor)].present {
                let a = slotState[Int(o.anchor)]
                (ax, ay, aw, ah) = (a.x, a.y, a.width, a.height)
            }
            let w = slotState[s].width, h = slotState[s].height
            switch o.corner {
            case .topLeading, .bottomLeading: slotState[s].x = ax + o.inset
            case .topTrailing, .bottomTrailing: slotState[s].x = ax + aw - o.inset - w
            }
            switch o.corner {
            case .topLeading, .topTrailing: slotState[s].y = ay + o.inset
            case .bottomLeading, .bottomTrailing: slotState[s].y = ay + ah - o.inset - h
            }
            result.slots.append(slotFrame(s, p.slots[Int(kp.slotStart) + s], model.slots[s].name, p, row))
        }
        if kp.dividerMode != 0 {
            var dx = kp.dividerLength
            if kp.dividerMode == 2 {
                dx = kp.padLeading
                for ci in 0..<Int(kp.columnCount) where columnState[ci].present {
                    let c = p.columns[Int(kp.columnStart) + ci]
                    if p.items[Int(c.itemStart)..<Int(c.itemStart + c.itemCount)].contains(where: { $0.slot == kp.dividerSlot }) {
                        dx = columnState[ci].x
                    }
                }
            }
            result.divider = CellRect(units: dx, height, width - kp.dividerTrailing - dx, 0)
        }
        return result
    }

    /// `frames(kind:utf8:slotOffsets:)` of a row given as strings.
    public func frames(kind: UInt16, slots: [String]) -> CellFrames {
        RowValues.with(slots) { frames(kind: kind, utf8: $0.utf8, slotOffsets: $0.offsets) }
    }

    private func slotFrame(_ s: Int, _ sp: SlotProgram, _ name: String, _ p: CellProgram, _ row: RowValues) -> SlotFrame {
        let st = slotState[s]
        var frame = SlotFrame(
            name: name, valueIndex: sp.valueIndex >= 0 ? Int(sp.valueIndex) : nil,
            frame: CellRect(units: st.x, st.y, st.width, st.height), texts: [], boxes: [])
        switch sp.type {
        case .text:
            frame.texts.append(textFrame(st.start..<st.end, base: st.start, sp, p, row, x: st.x, y: st.y, width: st.width))
        case .textList:
            var y = st.y
            var from = st.start
            while let item = Self.nextItem(row.utf8, from: from, end: st.end) {
                let t = textFrame(item, base: st.start, sp, p, row, x: st.x, y: y, width: st.width)
                frame.texts.append(t)
                y += LayoutUnit.units(t.frame.height) + sp.gap
                from = item.upperBound + 1
            }
        case .button:
            var t = textFrame(st.start..<st.end, base: st.start, sp, p, row, x: st.x + sp.paddingHorizontal, y: 0, width: st.width - 2 * sp.paddingHorizontal)
            let labelHeight = LayoutUnit.units(t.frame.height)
            t.frame.y = LayoutUnit.points(st.y + ((st.height - labelHeight) >> 1))
            frame.texts.append(t)
        case .boxStack:
            for i in 0..<Int64(st.count) {
                frame.boxes.append(sp.flag
                    ? CellRect(units: st.x, st.y + i * (sp.height + sp.gap), sp.width, sp.height)
                    : CellRect(units: st.x + i * (sp.width + sp.gap), st.y, sp.width, sp.height))
            }
        case .box, .image:
            break
        }
        return frame
    }

    /// One text laid out with its lines; `base` is where the slot's value starts, so ranges
    /// are offsets into the value.
    private func textFrame(_ r: Range<Int>, base: Int, _ sp: SlotProgram, _ p: CellProgram, _ row: RowValues, x: Int64, y: Int64, width: Int64) -> TextFrame {
        let m = textMeasure(row.bytes(r), p, style: sp.style, width: width, maxLines: sp.maxLines, includeLines: true)
        let shift = r.lowerBound - base
        let lines = (m?.lines ?? []).map { TextLine(range: ($0.range.lowerBound + shift)..<($0.range.upperBound + shift), width: $0.width, isEllipsized: $0.isEllipsized) }
        let height = Int64(m?.lineCount ?? 1) * p.lineHeights[Int(sp.style)]
        return TextFrame(byteRange: (r.lowerBound - base)..<(r.upperBound - base), frame: CellRect(units: x, y, width, height), lines: lines, isTruncated: m?.isTruncated ?? false)
    }
}
