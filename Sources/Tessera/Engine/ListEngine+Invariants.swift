extension ListEngine {
    /// Recomputes what the engine caches from the rows and traps on the first disagreement:
    /// the store's own invariants, the anchor, and for a profile-driven list the dirty
    /// count, the clean range, the group marks, and in a grid the line breaks, item
    /// heights and line spans. Compiled in only with `TESSERA_INVARIANTS`; tests call it
    /// after every mutation.
    public func _checkInvariants() {
        #if TESSERA_INVARIANTS
        store._checkInvariants()
        precondition(scrollOffset >= 0 && scrollOffset <= maximumScrollOffset, "scroll offset \(scrollOffset) outside 0...\(maximumScrollOffset)")
        precondition(anchor == (try? store.anchor(atOffset: scrollOffset)) ?? nil, "anchor \(String(describing: anchor)) is not the row under offset \(scrollOffset)")
        let firstLine = anchor.map { store.index(of: $0.id) == 0 } ?? false
        precondition(anchorPadding == (firstLine ? layout?.firstLinePadding ?? 0 : 0), "anchor padding \(anchorPadding) with the anchor in the first line \(firstLine)")
        // The flag bits mirror the id-keyed swipe and selection state.
        var selected = 0, open: UInt64? = nil
        for r in 0..<store.count {
            let info = try! store.row(r)
            if info.flags.contains(.selected) {
                selected += 1
                precondition(interaction.selected.contains(info.id), "row \(r) (id \(info.id)) is flagged selected but not in the selection")
            }
            if info.flags.contains(.swipeOpen) {
                precondition(open == nil, "rows \(String(describing: open)) and \(info.id) are both swiped open")
                open = info.id
            }
        }
        precondition(selected == interaction.selected.count, "\(interaction.selected.count) ids selected, \(selected) rows flagged")
        precondition(open == interaction.swipe?.id, "row \(String(describing: open)) flagged open, \(String(describing: interaction.swipe)) recorded")
        guard let layout else { return }
        layout._checkInvariants(store)
        #endif
    }
}

extension ProfileLayout {
    func _checkInvariants(_ store: borrowing RowStore) {
        #if TESSERA_INVARIANTS
        precondition(measurers[0].environment == environment, "measurer environment differs from the engine's")
        let count = store.count
        var dirty = 0
        var marks: [Int32] = [], breaks: [Int32] = []
        var spans: [UInt32] = []
        var c = count > 0 ? store.cursor(atRow: 0) : RowCursor(leaf: HeightTree.none, slot: 0, row: 0)
        var column = 0, leader = 0, tallest: Int64 = 0
        func close(_ end: Int) {
            let span = (leader == 0 ? gridPadding : 0) + tallest + (end == count ? gridPadding : gridRowGap)
            spans[leader] = UInt32(min(span, LayoutUnit.maximumRowUnits))
        }
        if isGrid { spans = [UInt32](repeating: 0, count: count) }
        while c.row < count {
            let k = store.kind(at: c), flags = store.flagBits(at: c)
            precondition(Int(k) < roles.count && profile.kind(code: k) != nil, "row \(c.row) has kind \(k), not one of the profile's")
            if flags & RowFlags.dirty.rawValue != 0 {
                dirty += 1
                if let clean { precondition(!clean.contains(c.row), "row \(c.row) is dirty inside the clean range \(clean)") }
            }
            if roles[Int(k)] != Self.roleCell { marks.append(Int32(c.row)) }
            if let g = grid {
                precondition(flags & RowFlags.measured.rawValue != 0, "grid row \(c.row) holds an estimate, not its line's span")
                let h = itemHeight(store.itemUnits(at: c), kind: k)
                if !inGrid[Int(k)] {
                    breaks.append(Int32(c.row))
                    if column > 0 { close(c.row) }
                    leader = c.row
                    tallest = h
                    close(c.row + 1)
                    column = 0
                } else {
                    if column == 0 {
                        leader = c.row
                        tallest = 0
                    }
                    tallest = max(tallest, h)
                    column += 1
                    if column == g.columnCount {
                        close(c.row + 1)
                        column = 0
                    }
                }
            }
            store.advance(&c)
        }
        if isGrid && column > 0 { close(count) }
        precondition(dirty == dirtyCount, "\(dirty) rows flagged dirty, \(dirtyCount) counted")
        precondition(marks == groupMarks, "group marks \(groupMarks) differ from the rows' \(marks)")
        if isGrid {
            precondition(breaks == lineBreaks, "line breaks \(lineBreaks) differ from the rows' \(breaks)")
            for r in 0..<count {
                precondition(Int64(spans[r]) == store.heightUnits(ofRow: r), "grid row \(r) holds \(store.heightUnits(ofRow: r)) units, its line needs \(spans[r])")
            }
        }
        if let clean { precondition(clean.lowerBound >= 0 && clean.upperBound <= count, "clean range \(clean) outside \(count) rows") }
        #endif
    }
}
