/// Swipe, selection and unread state, kept by row id and carried through every change.
///
/// - **Swipe** (any row of a store-driven list; cells of a profile-driven one, not in edit
///   mode): at most one row is open. Opening another closes the previous (reported with
///   it); a batch that moves the open row, or a scroll or batch that takes it out of the
///   viewport, closes it, as UITableView and RecyclerView's ItemTouchHelper do; deleting it
///   drops its state. A full swipe (`commitSwipe`) deletes the row through the batch
///   pipeline.
/// - **Selection** (profile-driven lists, edit mode, kinds with a `selection`): `single`
///   kinds allow one selected row per group, so selecting one deselects the other;
///   `multiple` kinds any number. Selection survives moves and updates; a batch that
///   brings two selected rows of a single-selection kind into one group keeps the first.
///   Leaving edit mode keeps the selection (`clearSelection()` drops it).
/// - **Unread**: a flag bit carried with its row, cleared when the row is viewed
///   (`markViewed`) or swiped or selected.
///
/// The store's `swipeOpen` and `selected` bits always mirror the id-keyed state. Every call
/// returns the rows whose state changed, to reconfigure.
extension ListEngine {
    /// The row swiped open, if any.
    public var openSwipe: SwipeState? { interaction.swipe }

    /// The selected rows' ids, in row order.
    public var selectedIDs: [UInt64] {
        interaction.selected.elements.compactMap { id in store.index(of: id).map { (id, $0) } }.sorted { $0.1 < $1.1 }.map(\.0)
    }

    public func isSelected(id: UInt64) -> Bool { interaction.selected.contains(id) }

    // MARK: Swipe

    /// Opens a row's leading or trailing actions, `revealedWidth` points wide (or changes
    /// how far an open row is swiped). Another open row closes. Clears the row's unread
    /// indicator.
    /// - Throws: `unknownID`; `invalidSwipeWidth` (not finite and > 0, or wider than the
    ///   content width of a profile-driven list); `interactionNotAllowed` (a header or
    ///   footer, or edit mode).
    public mutating func swipe(id: UInt64, edge: SwipeEdge, revealedWidth: Double) throws(TesseraError) -> InteractionChange {
        let row = try swipeableRow(id)
        guard revealedWidth.isFinite, revealedWidth > 0, revealedWidth <= (layout?.environment.width ?? .infinity) else {
            throw .invalidSwipeWidth(revealedWidth)
        }
        var changed: [UInt64] = []
        if let open = interaction.swipe, open.id != id {
            closeSwipe(open.id)
            changed.append(open.id)
        }
        interaction.swipe = SwipeState(id: id, edge: edge, revealedWidth: revealedWidth)
        changeFlags(ofRow: row, set: RowFlags.swipeOpen.rawValue, clear: RowFlags.unread.rawValue)
        changed.append(id)
        return references(changed)
    }

    /// Closes the open row, if any.
    public mutating func closeSwipe() -> InteractionChange {
        guard let open = interaction.swipe else { return InteractionChange() }
        closeSwipe(open.id)
        return references([open.id])
    }

    /// A full swipe: commits the row's destructive action, deleting it through the batch
    /// pipeline (group rules, anchoring, state); another open row closes and is reported in
    /// the result's `interaction`.
    /// - Throws: `unknownID`, `interactionNotAllowed`, `ruleViolation` when the row's group
    ///   needs it. Nothing changes on error.
    @discardableResult
    public mutating func commitSwipe(id: UInt64) throws(TesseraError) -> AppliedBatch {
        let row = try swipeableRow(id)
        if let layout { try layout.validateGroups(replacing: row..<(row + 1), with: [], store) }
        var closed: [UInt64] = []
        if let open = interaction.swipe, open.id != id {
            closeSwipe(open.id)
            closed.append(open.id)
        }
        let n = store.count
        let batch = DiffBatch(oldCount: n, newCount: n - 1, deletes: [row], inserts: [], moves: [], updates: [], updatedNewIndexes: [])
        let none = UnsafeBufferPointer<UInt64>(start: nil, count: 0)
        var result = commit(ApplyPlan(batch), RowColumns(ids: none, kinds: UnsafeBufferPointer(start: nil, count: 0), heights: nil, text: nil))
        if !closed.isEmpty { result.interaction = references(closed + result.interaction.rows.map(\.id)) }
        return result
    }

    /// The row of `id` if it may be swiped.
    func swipeableRow(_ id: UInt64) throws(TesseraError) -> Int {
        guard let row = store.index(of: id) else { throw .unknownID(id) }
        if let layout {
            let kind = store.kindCode(ofRow: row)
            guard layout.role(kind) == ProfileLayout.roleCell else {
                throw .interactionNotAllowed(id: id, reason: "\(layout.profile.kind(code: kind)?.name ?? "\(kind)") is a header or footer and has no swipe actions")
            }
            guard !layout.environment.editMode else { throw .interactionNotAllowed(id: id, reason: "rows do not swipe in edit mode") }
        }
        return row
    }

    mutating func closeSwipe(_ id: UInt64) {
        if let row = store.index(of: id) { changeFlags(ofRow: row, set: 0, clear: RowFlags.swipeOpen.rawValue) }
        interaction.swipe = nil
    }

    /// Closes the open row when it is not among the visible rows; returns its id then.
    mutating func closeSwipeIfHidden() -> UInt64? {
        guard let open = interaction.swipe, let row = store.index(of: open.id) else { return nil }
        guard !measureWindowRows(before: 0, after: 0).contains(row) else { return nil }
        closeSwipe(open.id)
        return open.id
    }

    // MARK: Selection

    /// Selects a row in edit mode. In a `single` kind's group the other selected row of
    /// that kind's selection is deselected (reported). Clears the row's unread indicator.
    /// - Throws: `unsupported` without a profile; `unknownID`; `interactionNotAllowed`
    ///   (not in edit mode, a kind without selection).
    public mutating func select(id: UInt64) throws(TesseraError) -> InteractionChange {
        let (layout, row) = try selectableRow(id)
        var changed: [UInt64] = []
        if layout.profile.kind(code: store.kindCode(ofRow: row))?.selection == .single {
            for other in interaction.selected.elements where other != id {
                guard let r = store.index(of: other), isSingleSelection(r, layout), sameGroup(r, row, layout) else { continue }
                deselect(other, row: r)
                changed.append(other)
            }
        }
        let unread = store.flagBits(ofRow: row) & RowFlags.unread.rawValue != 0
        if interaction.selected.insert(id) || unread {
            changeFlags(ofRow: row, set: RowFlags.selected.rawValue, clear: RowFlags.unread.rawValue)
            changed.append(id)
        }
        return references(changed)
    }

    /// Deselects a row in edit mode (nothing to report when it was not selected).
    /// - Throws: `unsupported` without a profile; `unknownID`; `interactionNotAllowed`.
    public mutating func deselect(id: UInt64) throws(TesseraError) -> InteractionChange {
        let (_, row) = try selectableRow(id)
        guard interaction.selected.contains(id) else { return InteractionChange() }
        deselect(id, row: row)
        return references([id])
    }

    /// Makes `ids` the selection, all or nothing: rows that leave it and rows that join it
    /// are reported.
    /// - Throws: `unsupported`, `unknownID`, `interactionNotAllowed` as `select`;
    ///   `selectionRuleViolation` for two rows of one single-selection group.
    public mutating func setSelection(_ ids: [UInt64]) throws(TesseraError) -> InteractionChange {
        var wanted = IDSet()
        var singles: [(row: Int, id: UInt64)] = []
        for id in ids where wanted.insert(id) {
            let (layout, row) = try selectableRow(id)
            if isSingleSelection(row, layout) { singles.append((row, id)) }
        }
        if let layout, singles.count > 1 {
            singles.sort { $0.row < $1.row }
            for k in 1..<singles.count where sameGroup(singles[k - 1].row, singles[k].row, layout) {
                throw .selectionRuleViolation(id: singles[k].id, otherID: singles[k - 1].id)
            }
        }
        var changed: [UInt64] = []
        for id in interaction.selected.elements where !wanted.contains(id) {
            if let row = store.index(of: id) { deselect(id, row: row) }
            changed.append(id)
        }
        for id in wanted.elements {
            let row = store.index(of: id)!
            let unread = store.flagBits(ofRow: row) & RowFlags.unread.rawValue != 0
            if interaction.selected.insert(id) || unread {
                changeFlags(ofRow: row, set: RowFlags.selected.rawValue, clear: RowFlags.unread.rawValue)
                changed.append(id)
            }
        }
        return references(changed)
    }

    /// Deselects every row (in edit mode or not).
    public mutating func clearSelection() -> InteractionChange {
        let ids = interaction.selected.elements
        for id in ids {
            if let row = store.index(of: id) { changeFlags(ofRow: row, set: 0, clear: RowFlags.selected.rawValue) }
        }
        interaction.selected.removeAll()
        return references(ids)
    }

    /// The profile and row of `id` if it may be selected now.
    func selectableRow(_ id: UInt64) throws(TesseraError) -> (ProfileLayout, Int) {
        guard let layout else { throw .unsupported("selection on a list without a profile: edit mode and selectable kinds come from the profile") }
        guard let row = store.index(of: id) else { throw .unknownID(id) }
        let kind = layout.profile.kind(code: store.kindCode(ofRow: row))
        guard kind?.selection != nil else {
            throw .interactionNotAllowed(id: id, reason: "\(kind?.name ?? "its kind") is not selectable")
        }
        guard layout.environment.editMode else { throw .interactionNotAllowed(id: id, reason: "selection outside edit mode") }
        return (layout, row)
    }

    func isSingleSelection(_ row: Int, _ layout: ProfileLayout?) -> Bool {
        layout?.profile.kind(code: store.kindCode(ofRow: row))?.selection == .single
    }

    /// Whether two cells are in one group: no header or footer between them.
    func sameGroup(_ a: Int, _ b: Int, _ layout: ProfileLayout) -> Bool {
        let (lo, hi) = (min(a, b), max(a, b))
        let k = ProfileLayout.firstIndex(in: layout.groupMarks, atLeast: lo + 1)
        return k == layout.groupMarks.count || Int(layout.groupMarks[k]) >= hi
    }

    mutating func deselect(_ id: UInt64, row: Int) {
        interaction.selected.remove(id)
        changeFlags(ofRow: row, set: 0, clear: RowFlags.selected.rawValue)
    }

    // MARK: Unread

    /// Clears the unread indicator of rows `range`, as when they have been seen; returns
    /// the rows that had it.
    /// - Throws: `rangeOutOfBounds`.
    public mutating func markViewed(rows range: Range<Int>) throws(TesseraError) -> InteractionChange {
        guard range.lowerBound >= 0, range.upperBound <= store.count else {
            throw .rangeOutOfBounds(lowerBound: range.lowerBound, upperBound: range.upperBound, count: store.count)
        }
        guard !range.isEmpty else { return InteractionChange() }
        var rows: [RowReference] = []
        var c = store.cursor(atRow: range.lowerBound)
        let unread = RowFlags.unread.rawValue
        while c.row < range.upperBound {
            let page = store.page(ofLeaf: c.leaf)
            if page.flags[c.slot] & unread != 0 {
                page.flags[c.slot] &= ~unread
                rows.append(RowReference(id: page.ids[c.slot], row: c.row))
            }
            store.advance(&c)
        }
        return InteractionChange(rows: rows)
    }

    /// `markViewed` for the rows in the viewport now (no overscan).
    public mutating func markVisibleRowsViewed() -> InteractionChange {
        try! markViewed(rows: measureWindowRows(before: 0, after: 0))
    }

    // MARK: Keeping the state consistent

    /// Drops the state of rows that are gone, deselects rows whose kind is no longer
    /// selectable, and keeps one selected row per single-selection group (the first);
    /// returns the surviving rows whose state changed.
    mutating func pruneInteractionState() -> [UInt64] {
        if let open = interaction.swipe, store.index(of: open.id) == nil { interaction.swipe = nil }
        guard interaction.selected.count > 0 else { return [] }
        var changed: [UInt64] = []
        var singles: [(row: Int, id: UInt64)] = []
        for id in interaction.selected.elements {
            guard let row = store.index(of: id) else {
                interaction.selected.remove(id)
                continue
            }
            guard let layout else { continue }
            switch layout.profile.kind(code: store.kindCode(ofRow: row))?.selection {
            case nil:
                deselect(id, row: row)
                changed.append(id)
            case .single: singles.append((row, id))
            case .multiple: break
            }
        }
        if let layout, singles.count > 1 {
            singles.sort { $0.row < $1.row }
            var kept = singles[0]
            for s in singles.dropFirst() {
                if sameGroup(kept.row, s.row, layout) {
                    deselect(s.id, row: s.row)
                    changed.append(s.id)
                } else {
                    kept = s
                }
            }
        }
        return changed
    }

    /// Takes `selected` and `swipeOpen` bits a store was given before the engine got it
    /// into the id-keyed state: the selected rows' ids, and the first row flagged open as
    /// the open row (trailing, width unknown: 0); later rows flagged open are closed.
    mutating func adoptInteractionFlags() {
        guard store.count > 0 else { return }
        let selected = RowFlags.selected.rawValue, open = RowFlags.swipeOpen.rawValue
        var c = store.cursor(atRow: 0)
        while c.row < store.count {
            let page = store.page(ofLeaf: c.leaf), id = page.ids[c.slot]
            if page.flags[c.slot] & selected != 0 { interaction.selected.insert(id) }
            if page.flags[c.slot] & open != 0 {
                if interaction.swipe == nil {
                    interaction.swipe = SwipeState(id: id, edge: .trailing, revealedWidth: 0)
                } else {
                    page.flags[c.slot] &= ~open
                }
            }
            store.advance(&c)
        }
    }

    mutating func changeFlags(ofRow row: Int, set: UInt16, clear: UInt16) {
        let (page, slot) = store.locate(row)
        page.flags[slot] = page.flags[slot] & ~clear | set
    }

    /// The surviving rows among `ids`, each once, ascending by row.
    func references(_ ids: [UInt64]) -> InteractionChange {
        var rows: [RowReference] = []
        for id in ids {
            guard let row = store.index(of: id) else { continue }
            rows.append(RowReference(id: id, row: row))
        }
        rows.sort { $0.row < $1.row }
        var unique: [RowReference] = []
        for r in rows where unique.last != r { unique.append(r) }
        return InteractionChange(rows: unique)
    }

    /// Mirrors host-set `selected` and `swipeOpen` bits (`updateFlags`) into the id-keyed
    /// state: a row set open becomes the open row (trailing, width unknown: 0) and closes
    /// the previous one.
    mutating func mirrorFlags(ofRow row: Int, set: RowFlags, clear: RowFlags) {
        let id = try! store.row(row).id
        if set.contains(.selected) { interaction.selected.insert(id) } else if clear.contains(.selected) { interaction.selected.remove(id) }
        if set.contains(.swipeOpen) {
            if let open = interaction.swipe, open.id != id { closeSwipe(open.id) }
            interaction.swipe = SwipeState(id: id, edge: .trailing, revealedWidth: 0)
        } else if clear.contains(.swipeOpen), interaction.swipe?.id == id {
            interaction.swipe = nil
        }
    }
}
