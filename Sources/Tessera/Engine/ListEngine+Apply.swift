/// The rows a host wants a list to show now, as parallel columns in display order.
public struct RowSnapshot: Sendable, Equatable {
    public var ids: [UInt64]
    public var kinds: [UInt16]
    /// Content versions: a row whose version (or kind) differs from the stored one is an
    /// update; the others keep their values, height and state.
    public var versions: [UInt64]
    /// The rows' values; only inserted and updated rows' are read.
    public var text: RowText?
    /// Measured heights (points) of inserted and updated rows, store-driven lists only;
    /// nil leaves them at their kind's estimate.
    public var heights: [Double]?
    /// Inserted rows show the unread indicator where true; updated rows where true gain it
    /// (new content), and keep it otherwise until viewed.
    public var unread: [Bool]?

    public init(
        ids: [UInt64], kinds: [UInt16], versions: [UInt64], text: RowText? = nil, heights: [Double]? = nil, unread: [Bool]? = nil
    ) {
        self.ids = ids
        self.kinds = kinds
        self.versions = versions
        self.text = text
        self.heights = heights
        self.unread = unread
    }

    public var count: Int { ids.count }
}

/// A batch computed and checked against one state of one list (`ListEngine.prepare`), to
/// show the host before applying it. Applying it to another list, or to this one after its
/// rows changed, throws `staleBatch`.
public struct PreparedBatch: Sendable {
    /// The batch form (UIKit `performBatchUpdates`).
    public var batch: DiffBatch { plan.batch }
    /// How the pages change, worked out with the diff.
    let plan: ApplyPlan
    let snapshot: RowSnapshot
    let storeIdentity: UInt64
    let contentMutations: UInt64
    /// The environment the inserted and updated rows were checked in against their kinds'
    /// rules (nil: a list without a profile); `apply` checks them again in another.
    let checkedEnvironment: LayoutEnvironment?

    /// The sequential form (RecyclerView `notifyItemRange…`).
    public func operations() -> [DiffOperation] { batch.operations() }
}

/// What applying a batch did.
public struct AppliedBatch: Sendable, Equatable {
    /// The batch form (UIKit `performBatchUpdates`).
    public var batch: DiffBatch
    /// The corrected scroll offset: the anchor row stays still on screen, or the nearest
    /// row that kept its place takes the place of a deleted anchor row.
    public var scrollOffset: Double
    /// Surviving rows whose interaction state the batch changed besides its own updates: a
    /// swipe closed because its row moved or left the viewport, a selection dropped by a
    /// kind that is not selectable any more or by a single-selection group rule.
    public var interaction: InteractionChange

    /// The sequential form (RecyclerView `notifyItemRange…`), derived from the batch on
    /// demand: O(n + m + moves · log n), which hosts of the batch form need not pay.
    public func operations() -> [DiffOperation] { batch.operations() }
}

extension ListEngine {
    /// The batch that turns the list's rows into `snapshot`, without changing anything.
    /// Rows are matched by id; a surviving row is updated when its content version or its
    /// kind changed. O(n + m) for the diff plus a copy of the stored ids and versions.
    /// Everything `apply` would check is checked here, so a host learns of a bad row before
    /// it animates anything, and applying the batch only changes pages.
    /// - Throws: `columnLengthMismatch` (kinds, versions, heights or unread not one per
    ///   id); `duplicateIDInDiff` naming the id and both its indexes; `capacityExceeded`;
    ///   `unsupported` (heights for a profile-driven list); for inserted and updated rows
    ///   (errors name their snapshot index) `unknownKind`, `invalidHeight`,
    ///   `invalidTextOffsets`, `invalidUTF8`, `ruleViolation`, `invalidSlotValue`,
    ///   `unknownKindCode`; a group rule broken in the new list (`ruleViolation` naming its
    ///   row).
    public func prepare(_ snapshot: RowSnapshot) throws(TesseraError) -> PreparedBatch {
        let m = snapshot.ids.count
        guard snapshot.kinds.count == m else { throw .columnLengthMismatch(column: "kinds", expected: m, actual: snapshot.kinds.count) }
        guard snapshot.versions.count == m else { throw .columnLengthMismatch(column: "versions", expected: m, actual: snapshot.versions.count) }
        if let h = snapshot.heights, h.count != m { throw .columnLengthMismatch(column: "heights", expected: m, actual: h.count) }
        if let u = snapshot.unread, u.count != m { throw .columnLengthMismatch(column: "unread", expected: m, actual: u.count) }
        if layout != nil, snapshot.heights != nil { throw .unsupported("heights for rows of a profile-driven list: the engine measures them") }
        let n = store.count
        var oldIDs = [UInt64](repeating: 0, count: n), oldKeys = [UInt64](repeating: 0, count: n)
        oldIDs.withUnsafeMutableBufferPointer { ids in
            oldKeys.withUnsafeMutableBufferPointer { keys in
                var l = store.tree.firstLeaf, row = 0
                while l != HeightTree.none {
                    let page = store.page(ofLeaf: l), count = store.rowCount(ofLeaf: l)
                    (ids.baseAddress! + row).update(from: page.ids, count: count)
                    for s in 0..<count { keys[row + s] = Self.diffKey(version: page.versions[s], kind: page.kinds[s]) }
                    row += count
                    l = store.tree.leaves[Int(l)].next
                }
            }
        }
        var newKeys = [UInt64](repeating: 0, count: m)
        for j in 0..<m { newKeys[j] = Self.diffKey(version: snapshot.versions[j], kind: snapshot.kinds[j]) }
        let batch = try differ.diff(oldIDs: oldIDs, oldVersions: oldKeys, newIDs: snapshot.ids, newVersions: newKeys)
        let plan = ApplyPlan(batch)
        try Self.withColumns(snapshot, newFlags: 0) { (rows) throws(TesseraError) in
            try store.validateApply(plan, rows)
            if let layout { try validateProfiled(layout, plan, rows) }
        }
        return PreparedBatch(
            plan: plan, snapshot: snapshot, storeIdentity: store.identity, contentMutations: store.contentMutations,
            checkedEnvironment: layout?.environment)
    }

    /// The snapshot's columns as the store reads them.
    static func withColumns<R>(_ s: RowSnapshot, newFlags: UInt16, _ body: (RowColumns) throws(TesseraError) -> R) throws(TesseraError) -> R {
        let unreadBits = s.unread.map { $0.map { $0 ? RowFlags.unread.rawValue : 0 } }
        return try s.ids.withUnsafeBufferPointer { (ids) throws(TesseraError) in
            try s.kinds.withUnsafeBufferPointer { (kinds) throws(TesseraError) in
                try s.versions.withUnsafeBufferPointer { (versions) throws(TesseraError) in
                    try RowStore.withOptionalBuffer(s.heights) { (heights) throws(TesseraError) in
                        try RowStore.withOptionalBuffer(unreadBits) { (unread) throws(TesseraError) in
                            try RowStore.withText(s.text) { (text) throws(TesseraError) in
                                try body(RowColumns(ids: ids, kinds: kinds, heights: heights, text: text, versions: versions, flags: newFlags, rowFlags: unread))
                            }
                        }
                    }
                }
            }
        }
    }

    /// What the diff compares: the version scrambled (a bijection) with the kind folded in,
    /// so a kind change is an update too. Two changes cancel only if the scrambled
    /// versions differ in exactly the kinds' bits (chance 2^-48 for distinct versions).
    @inline(__always)
    static func diffKey(version: UInt64, kind: UInt16) -> UInt64 { mix64(version) ^ UInt64(kind) }

    /// Diffs the list against `snapshot` and applies the batch (see `apply(_:)` with a
    /// prepared batch). All or nothing.
    @discardableResult
    public mutating func apply(_ snapshot: RowSnapshot) throws(TesseraError) -> AppliedBatch {
        try apply(try prepare(snapshot))
    }

    /// Applies a prepared batch to the store, the text arena and the height tree in
    /// O(changes · log n + pages touched) (a rebuild when the batch replaces more rows than
    /// it keeps): deleted rows go, moved rows take their height, measured state, flags,
    /// text and version along, inserted rows start at their kind's estimate (or the
    /// snapshot's height in a store-driven list), updated rows take their new values (a
    /// profile-driven list keeps their last height and marks them dirty; a store-driven
    /// one takes the snapshot's height or the estimate). In a profile-driven list group
    /// marks, dirty counts, the sticky header and dividers follow (O(marks) more); a grid
    /// re-packs its lines, O(n). Swipe and
    /// selection state follow their rows by id (see `AppliedBatch.interaction`). The anchor
    /// row keeps its place on screen; if it was deleted, the nearest row that kept its
    /// place takes the deleted row's place.
    ///
    /// All or nothing: `prepare` checked the rows, and nothing they were checked against
    /// has changed (the rows, or the environment their kinds' rules were read in, which
    /// has them checked again).
    /// - Throws: `staleBatch` (prepared for another list, or this list's rows changed
    ///   since); after an environment change since `prepare`, what its rules throw there.
    @discardableResult
    public mutating func apply(_ prepared: PreparedBatch) throws(TesseraError) -> AppliedBatch {
        guard prepared.storeIdentity == store.identity else { throw .staleBatch("the batch was prepared for another list") }
        guard prepared.contentMutations == store.contentMutations else {
            throw .staleBatch("the list's rows changed after the batch was prepared")
        }
        let plan = prepared.plan
        return try Self.withColumns(prepared.snapshot, newFlags: layout != nil ? RowFlags.dirty.rawValue : 0) { (rows) throws(TesseraError) in
            if let layout, layout.environment != prepared.checkedEnvironment { try validateProfiled(layout, plan, rows) }
            return commit(plan, rows)
        }
    }

    // MARK: Checks before a batch

    /// Inserted and updated rows against their kinds' rules, then the groups the batch
    /// touches in the new list against the group rules.
    func validateProfiled(_ layout: ProfileLayout, _ plan: ApplyPlan, _ rows: RowColumns) throws(TesseraError) {
        let batch = plan.batch, m = batch.newCount
        let measurer = layout.measurer
        var zero = 0
        try withUnsafeMutablePointer(to: &zero) { (z) throws(TesseraError) in
            func check(_ j: Int) throws(TesseraError) {
                if let t = rows.text {
                    let s = t.slotsPerRow
                    try measurer.validate(
                        kind: rows.kinds[j], utf8: t.utf8, slotOffsets: UnsafeBufferPointer(rebasing: t.offsets[(j * s)...(j * s + s)]), row: j)
                } else {
                    try measurer.validate(kind: rows.kinds[j], utf8: UnsafeRawBufferPointer(start: nil, count: 0), slotOffsets: UnsafeBufferPointer(start: z, count: 1), row: j)
                }
            }
            for j in batch.inserts { try check(j) }
            for j in batch.updatedNewIndexes { try check(j) }
        }
        guard layout.hasGroupRules, m > 0 else { return }
        let marks = newMarks(plan, layout.groupMarks, rows.kinds) { layout.roles[Int($0)] != ProfileLayout.roleCell }
        // Points of the new list next to a change: added and updated rows, and the staying
        // rows on both sides of each removed one. Each lies in one region from the mark
        // before it to the mark after it; those regions are checked.
        var points: [Int] = plan.added + batch.updatedNewIndexes
        let staying = batch.oldCount - plan.removed.count
        for (k, i) in plan.removed.enumerated() {
            let rank = i - k
            if rank > 0 { points.append(plan.newIndex(ofStayingRank: rank - 1)) }
            if rank < staying { points.append(plan.newIndex(ofStayingRank: rank)) }
        }
        points.sort()
        var regionStart = -1, regionEnd = -1
        func flush() throws(TesseraError) {
            guard regionStart >= 0, regionEnd > regionStart else { return }
            try measurer.validateGroup(rowKinds: UnsafeBufferPointer(rebasing: rows.kinds[regionStart..<regionEnd]), firstRow: regionStart)
        }
        for p in points where p >= 0 && p < m {
            let before = ProfileLayout.lastIndex(in: marks, below: p)
            let lo = before < 0 ? 0 : Int(marks[before]) + 1
            let after = ProfileLayout.firstIndex(in: marks, atLeast: p + 1)
            let hi = after < marks.count ? Int(marks[after]) : m
            if lo < regionEnd {
                regionEnd = max(regionEnd, hi)
            } else {
                try flush()
                regionStart = lo
                regionEnd = hi
            }
        }
        try flush()
    }

    /// Rows of the new list for which `isMark` holds, ascending: the staying rows that were
    /// marks and are not updated, plus the added and updated rows whose new kind is one.
    /// O(marks + changes).
    func newMarks(_ plan: ApplyPlan, _ old: [Int32], _ kinds: UnsafeBufferPointer<UInt16>, isMark: (UInt16) -> Bool) -> [Int32] {
        let batch = plan.batch
        var kept: [Int32] = []
        kept.reserveCapacity(old.count)
        var r = 0, u = 0
        for mark in old {
            let i = Int(mark)
            while r < plan.removed.count, plan.removed[r] < i { r += 1 }
            while u < batch.updates.count, batch.updates[u] < i { u += 1 }
            if r < plan.removed.count, plan.removed[r] == i { continue }
            if u < batch.updates.count, batch.updates[u] == i { continue }
            kept.append(mark)
        }
        let mapped = plan.newIndexes(ofStaying: kept)
        // Added and updated rows that are marks, ascending, each once (a moved row that
        // changed is in both lists).
        var fresh: [Int32] = []
        var x = 0, y = 0
        let added = plan.added, updated = batch.updatedNewIndexes
        while x < added.count || y < updated.count {
            let j: Int
            if y == updated.count || (x < added.count && added[x] < updated[y]) {
                j = added[x]; x += 1
            } else if x == added.count || updated[y] < added[x] {
                j = updated[y]; y += 1
            } else {
                j = added[x]; x += 1; y += 1
            }
            if isMark(kinds[j]) { fresh.append(Int32(j)) }
        }
        var result: [Int32] = []
        result.reserveCapacity(mapped.count + fresh.count)
        var p = 0, q = 0
        while p < mapped.count || q < fresh.count {
            if q == fresh.count || (p < mapped.count && mapped[p] < fresh[q]) {
                result.append(mapped[p]); p += 1
            } else {
                result.append(fresh[q]); q += 1
            }
        }
        return result
    }

    // MARK: Applying

    /// Applies a checked plan; nothing here throws.
    mutating func commit(_ plan: ApplyPlan, _ rows: RowColumns) -> AppliedBatch {
        let batch = plan.batch
        // What the anchor becomes: itself if it survives, else the nearest staying row.
        let keep = anchorAfter(plan)
        // The open swipe closes when its row moves.
        var closedSwipe: UInt64? = nil
        if let swipe = interaction.swipe, let row = store.index(of: swipe.id), isMove(row, plan) { closedSwipe = swipe.id }

        if let layout {
            // Dirty rows counted before the pages change: deleted ones leave, updated clean
            // ones become dirty, inserted ones arrive dirty.
            var dirtyDelta = batch.inserts.count
            let dirty = RowFlags.dirty.rawValue
            for i in batch.deletes where store.flagBits(ofRow: i) & dirty != 0 { dirtyDelta -= 1 }
            for i in batch.updates where store.flagBits(ofRow: i) & dirty == 0 { dirtyDelta += 1 }
            let roles = layout.roles
            let marks = newMarks(plan, layout.groupMarks, rows.kinds) { roles[Int($0)] != ProfileLayout.roleCell }
            var breaks: [Int32] = []
            if layout.isGrid {
                let inGrid = layout.inGrid
                breaks = newMarks(plan, layout.lineBreaks, rows.kinds) { !inGrid[Int($0)] }
            }
            store.apply(plan, rows, updates: layout.isGrid ? .grid : .profile)
            layout.dirtyCount += dirtyDelta
            layout.clean = nil
            layout.rowsChanged()
            layout.groupMarks = marks
            if layout.isGrid {
                layout.lineBreaks = breaks
                layout.repack(from: 0, &store)
            }
        } else {
            store.apply(plan, rows, updates: .storeDriven)
        }

        var changed: [UInt64] = []
        if let id = closedSwipe {
            closeSwipe(id)
            changed.append(id)
        }
        changed += pruneInteractionState()
        reanchor(keeping: keep)
        if let id = closeSwipeIfHidden() { changed.append(id) }
        return AppliedBatch(batch: batch, scrollOffset: scrollOffset, interaction: references(changed))
    }

    /// Whether old row `row` is a move source of the plan.
    func isMove(_ row: Int, _ plan: ApplyPlan) -> Bool {
        let k = ProfileLayout.firstIndex(plan.removed, atLeast: row)
        return k < plan.removed.count && plan.removed[k] == row && plan.removedMove[k] >= 0
    }

    /// The anchor to keep after the plan: the current one when its row survives; when it is
    /// deleted, the nearest row that keeps its place (below first on a tie; any surviving
    /// row when none does), at the same distance into it.
    func anchorAfter(_ plan: ApplyPlan) -> ScrollAnchor? {
        guard let anchor, let row = store.index(of: anchor.id) else { return anchor }
        let d = ProfileLayout.firstIndex(plan.batch.deletes, atLeast: row)
        guard d < plan.batch.deletes.count, plan.batch.deletes[d] == row else { return anchor }
        let n = store.count
        func removed(_ i: Int) -> Bool {
            let k = ProfileLayout.firstIndex(plan.removed, atLeast: i)
            return k < plan.removed.count && plan.removed[k] == i
        }
        func deleted(_ i: Int) -> Bool {
            let k = ProfileLayout.firstIndex(plan.batch.deletes, atLeast: i)
            return k < plan.batch.deletes.count && plan.batch.deletes[k] == i
        }
        for test in [removed, deleted] {
            var distance = 1
            while row + distance < n || row - distance >= 0 {
                for i in [row + distance, row - distance] where i >= 0 && i < n && !test(i) {
                    return ScrollAnchor(id: try! store.row(i).id, offsetInRow: anchor.offsetInRow)
                }
                distance += 1
            }
        }
        return nil
    }
}

extension ProfileLayout {
    /// `firstIndex(in:atLeast:)` over `Int` arrays.
    static func firstIndex(_ a: [Int], atLeast value: Int) -> Int {
        var lo = 0, hi = a.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if a[mid] < value { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
