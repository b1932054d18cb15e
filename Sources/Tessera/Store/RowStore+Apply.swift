import CJemalloc

/// A `DiffBatch` turned into what the pages need: which old rows leave their place and
/// which new positions are filled, both ascending, with the moves tied to each side.
/// Built once per batch (a few arrays per batch, nothing per row).
struct ApplyPlan: Sendable {
    let batch: DiffBatch
    /// Old indexes of rows leaving their place, ascending: deletes and move sources.
    var removed: [Int] = []
    /// Per `removed` entry: the index into `batch.moves` of a move source, -1 for a delete.
    var removedMove: [Int32] = []
    /// New indexes filled by the batch, ascending: inserts and move targets.
    var added: [Int] = []
    /// Per `added` entry: the index into `batch.moves` of a move target, -1 for an insert.
    var addedMove: [Int32] = []

    init(_ batch: DiffBatch) {
        self.batch = batch
        let moves = batch.moves
        // Move sources in old order (moves come in new order), each packed above its move's
        // index.
        var bySource = [UInt64](repeating: 0, count: moves.count)
        for k in moves.indices { bySource[k] = UInt64(moves[k].from) << 32 | UInt64(k) }
        Self.sortBySource(&bySource, below: batch.oldCount)
        removed.reserveCapacity(batch.deletes.count + moves.count)
        removedMove.reserveCapacity(batch.deletes.count + moves.count)
        var d = 0, s = 0
        while d < batch.deletes.count || s < bySource.count {
            if s == bySource.count || (d < batch.deletes.count && batch.deletes[d] < Int(bySource[s] >> 32)) {
                removed.append(batch.deletes[d])
                removedMove.append(-1)
                d += 1
            } else {
                removed.append(Int(bySource[s] >> 32))
                removedMove.append(Int32(truncatingIfNeeded: bySource[s]))
                s += 1
            }
        }
        added.reserveCapacity(batch.inserts.count + moves.count)
        addedMove.reserveCapacity(batch.inserts.count + moves.count)
        var i = 0, m = 0
        while i < batch.inserts.count || m < moves.count {
            if m == moves.count || (i < batch.inserts.count && batch.inserts[i] < moves[m].to) {
                added.append(batch.inserts[i])
                addedMove.append(-1)
                i += 1
            } else {
                added.append(moves[m].to)
                addedMove.append(Int32(m))
                m += 1
            }
        }
    }

    /// Sorts keys `from << 32 | k` by `from` (distinct, below `limit`): the standard
    /// library's sort up to 256 keys, `radixSortByHighHalf` above.
    static func sortBySource(_ keys: inout [UInt64], below limit: Int) {
        let n = keys.count
        guard n > 256 else {
            keys.sort()
            return
        }
        var spare = [UInt64](repeating: 0, count: n), counts = [Int32](repeating: 0, count: radixSortBuckets)
        keys.withUnsafeMutableBufferPointer { k in
            spare.withUnsafeMutableBufferPointer { s in
                counts.withUnsafeMutableBufferPointer { c in
                    radixSortByHighHalf(k.baseAddress!, count: n, below: limit, spare: s.baseAddress!, counts: c.baseAddress!)
                }
            }
        }
    }

    /// The plan entries of the page holding old rows `rows`, whose staying rows start at
    /// rank `stayRank`, given where the page before ended (`ri`, `ai`): the ends of its
    /// removed and added entries, and its staying rows. Added rows placed after a page's
    /// last staying row belong to that page.
    func extent(ofPage rows: Range<Int>, stayRank: Int, _ ri: Int, _ ai: Int) -> (removedEnd: Int, addedEnd: Int, staying: Int) {
        var re = ri
        while re < removed.count, removed[re] < rows.upperBound { re += 1 }
        let staying = rows.count - (re - ri)
        var ae = ai
        while ae < added.count, rank(ae) <= stayRank + staying { ae += 1 }
        return (re, ae, staying)
    }

    /// Staying rows (neither removed nor added) before added entry `p`: the entry goes
    /// right after the staying row of rank `rank(p) - 1` (first of all when 0).
    @inline(__always) func rank(_ p: Int) -> Int { added[p] - p }

    /// The new index of the staying row of rank `rank` (the rank-th row, from 0, that is
    /// neither removed nor added): the rank plus the added rows placed before it.
    func newIndex(ofStayingRank rank: Int) -> Int {
        var lo = 0, hi = added.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if self.rank(mid) <= rank { lo = mid + 1 } else { hi = mid }
        }
        return rank + lo
    }

    /// The old index of every new row, -1 for an inserted one. O(n + m).
    func newToOld() -> [Int32] {
        var map = [Int32](repeating: -1, count: batch.newCount)
        for mv in batch.moves { map[mv.to] = Int32(mv.from) }
        // Staying rows are in the same order on both sides.
        var i = 0, r = 0, a = 0
        for j in 0..<batch.newCount {
            if a < added.count, added[a] == j {
                a += 1
                continue
            }
            while r < removed.count, removed[r] == i {
                r += 1
                i += 1
            }
            map[j] = Int32(i)
            i += 1
        }
        return map
    }

    /// The new index of each staying old row among `oldRows` (ascending, none removed),
    /// in one merge: rank = old index minus removed rows before it; the new index is the
    /// rank plus the added rows placed before it.
    func newIndexes(ofStaying oldRows: [Int32]) -> [Int32] {
        var result = [Int32]()
        result.reserveCapacity(oldRows.count)
        var r = 0, a = 0
        for old in oldRows {
            let i = Int(old)
            while r < removed.count, removed[r] < i { r += 1 }
            let rank = i - r
            while a < added.count, self.rank(a) <= rank { a += 1 }
            result.append(Int32(rank + a))
        }
        return result
    }
}

/// What an applied batch does to the rows it updates: their heights and the flags they
/// gain follow the list's mode.
enum UpdateHeights {
    /// A store-driven list: the batch's height when given (measured), else the kind's
    /// estimate (unmeasured): new content makes the old measurement stale.
    case storeDriven
    /// A profile-driven list: the row keeps its last measured height (an unmeasured row
    /// moves to its kind's estimate) and becomes `dirty`.
    case profile
    /// A grid: the store holds line spans, which the engine re-packs, and the item column
    /// keeps the row's last measured height; the row becomes `dirty`.
    case grid
}

/// The columns of rows taken out of their place before the pages change (move sources),
/// each written back at its new place with everything it had.
struct CapturedRows {
    /// One captured row: every column side by side, so capturing is one append.
    struct Row {
        var id: UInt64, version: UInt64
        var text: UInt32, height: UInt32, item: UInt32
        var kind: UInt16, flags: UInt16
    }
    var rows: [Row] = []
    /// The page each captured move source was on, where its index entry still points
    /// until the row is written at its new place (one re-pointed entry, not a removal and
    /// an insertion).
    var leaves: [UInt32] = []
    /// `order[k]`: the captured position of `batch.moves[k]` (sources are captured in old
    /// order).
    var order: [Int32] = []

    init(capacity: Int) {
        rows.reserveCapacity(capacity)
    }

    var count: Int { rows.count }

    @inline(__always) mutating func append(_ page: Page, _ slot: Int) {
        rows.append(Row(
            id: page.ids[slot], version: page.versions[slot], text: page.text[slot], height: UInt32(page.height(slot)),
            item: page.layout.hasItems ? page.itemHeights[slot] : 0, kind: page.kinds[slot], flags: page.flags[slot]))
    }

    @inline(__always) func write(_ k: Int, into page: Page, at slot: Int) {
        let row = rows[k]
        page.ids[slot] = row.id; page.versions[slot] = row.version
        page.kinds[slot] = row.kind; page.flags[slot] = row.flags
        page.setHeight(row.height, slot); page.text[slot] = row.text
        if page.layout.hasItems { page.itemHeights[slot] = row.item }
    }
}

/// Where one page's rows go when it is rewritten in place: runs of staying rows (old slot,
/// new position, length) and the new positions of added rows (plan entry, new position).
/// Allocated once per batch, big enough for any page: a page has at most one run per row
/// plus one, and no more added rows than the batch.
struct PagePlan {
    typealias Run = (from: Int, to: Int, count: Int)
    let runs: UnsafeMutablePointer<Run>
    let placed: UnsafeMutablePointer<(entry: Int, slot: Int)>
    /// Starts that would leave a run in place, with the rows each leaves in place; only
    /// the first `maximumCandidates` distinct ones count (a page rarely has more).
    let candidates: UnsafeMutablePointer<(start: Int, rows: Int)>
    var runCount = 0, placedCount = 0, candidateCount = 0
    static let maximumCandidates = 16
    /// The next page's rewrite region, whose loads start in parts while this page is
    /// rewritten (see `Page.prefetch(stage:from:count:)`), and the parts started so far.
    var upcoming: (page: Page, first: Int, count: Int)? = nil {
        didSet { upcomingStages = upcoming == nil ? 3 : 1 }
    }
    var upcomingStages = 3

    /// Starts the upcoming page's loads up to part `stage`.
    @inline(__always) mutating func prefetchUpcoming(through stage: Int) {
        guard let at = upcoming else { return }
        while upcomingStages <= stage {
            at.page.prefetch(stage: upcomingStages, from: at.first, count: at.count)
            upcomingStages &+= 1
        }
    }

    init(pageCapacity: Int, added: Int) {
        runs = .allocate(capacity: pageCapacity + 1)
        placed = .allocate(capacity: max(added, 1))
        candidates = .allocate(capacity: Self.maximumCandidates)
    }

    func deallocate() {
        runs.deallocate()
        placed.deallocate()
        candidates.deallocate()
    }

    /// Fills `runs` and `placed` for a page of `old` rows (old rows from `oldStart`,
    /// staying rows from rank `stayRank`, plan entries `removed` and `added`), positions
    /// counted among the page's own new rows; returns how many there are.
    @inline(__always)
    mutating func collect(old: Int, oldStart: Int, stayRank: Int, removed: Range<Int>, added: Range<Int>, _ plan: ApplyPlan) -> Int {
        runCount = 0
        placedCount = 0
        var rank = stayRank, a = added.lowerBound, r = removed.lowerBound, slot = 0, to = 0
        while a < added.upperBound, plan.rank(a) <= rank {
            place(a, to)
            to += 1
            a += 1
        }
        while slot < old {
            if r < removed.upperBound, plan.removed[r] - oldStart == slot {
                r += 1
                slot += 1
                continue
            }
            var end = r < removed.upperBound ? plan.removed[r] - oldStart : old
            if a < added.upperBound { end = min(end, slot + plan.rank(a) - rank) }
            run(slot, to, end - slot)
            to += end - slot
            rank += end - slot
            slot = end
            while a < added.upperBound, plan.rank(a) <= rank {
                place(a, to)
                to += 1
                a += 1
            }
        }
        return to
    }

    /// The start for a page rewritten from `start` with staying runs `parts` (old slot,
    /// new slot, length) and `count` rows: the one that leaves the most staying rows where
    /// they are (a run stays put when start + new slot = old start + old slot), among
    /// those up to `latest`; else the old start, clamped. Also the first slot whose row
    /// changes (its slot differs, or the page shrank to it), where group sums are redone.
    @inline(__always)
    mutating func bestStart(_ parts: UnsafeBufferPointer<Run>, from start: Int, latest: Int, old: Int, count: Int) -> (start: Int, first: Int) {
        var chosen = min(start, latest), best = 0, first = min(old, count)
        candidateCount = 0
        for part in parts {
            let candidate = start &+ part.from &- part.to
            if candidate >= 0, candidate <= latest { tally(candidate, part.count) }
            if part.to != part.from { first = min(first, part.to, part.from) }
        }
        for c in 0..<candidateCount where candidates[c].rows > best {
            (chosen, best) = candidates[c]
        }
        return (chosen, first)
    }

    @inline(__always) mutating func tally(_ start: Int, _ rows: Int) {
        for c in 0..<candidateCount where candidates[c].start == start {
            candidates[c].rows &+= rows
            return
        }
        guard candidateCount < Self.maximumCandidates else { return }
        candidates[candidateCount] = (start, rows)
        candidateCount &+= 1
    }

    @inline(__always) mutating func run(_ from: Int, _ to: Int, _ count: Int) {
        runs[runCount] = (from, to, count)
        runCount &+= 1
    }

    @inline(__always) mutating func place(_ entry: Int, _ slot: Int) {
        placed[placedCount] = (entry, slot)
        placedCount &+= 1
    }
}

extension RowStore {
    /// Checks what applying `plan` with the new rows `rows` (indexed by new position) will
    /// read: the inserted and updated rows' kinds, heights and text, and the capacity.
    /// Throws before anything changes; errors name positions in the new rows.
    func validateApply(_ plan: ApplyPlan, _ rows: RowColumns) throws(TesseraError) {
        let batch = plan.batch, m = batch.newCount
        guard batch.oldCount == count else { throw .staleBatch("computed for \(batch.oldCount) rows, the list has \(count)") }
        guard rows.count == m, rows.kinds.count == m else {
            throw .columnLengthMismatch(column: "kinds", expected: m, actual: rows.kinds.count)
        }
        if let h = rows.heights, h.count != m { throw .columnLengthMismatch(column: "heights", expected: m, actual: h.count) }
        if let v = rows.versions, v.count != m { throw .columnLengthMismatch(column: "versions", expected: m, actual: v.count) }
        guard m < Int(Int32.max) else { throw .capacityExceeded("\(m) rows") }
        var textBytes = 0
        if let t = rows.text {
            let s = t.slotsPerRow
            guard s >= 0, s <= 255 else { throw .capacityExceeded("\(s) text slots per row, at most 255") }
            guard t.offsets.count == m * s + 1 else {
                throw .columnLengthMismatch(column: "text offsets", expected: m * s + 1, actual: t.offsets.count)
            }
        }
        func check(_ j: Int) throws(TesseraError) {
            let kind = rows.kinds[j]
            guard Int(kind) < estimates.count else { throw .unknownKind(kind, kindCount: estimates.count) }
            if let h = rows.heights, !LayoutUnit.isValidRowHeight(h[j]) { throw .invalidHeight(h[j]) }
            if let t = rows.text { textBytes += try validateText(t, row: j) }
        }
        for list in [batch.inserts, batch.updatedNewIndexes] {
            for k in list.indices {
                if k + 16 < list.count { Self.prefetchRow(rows, list[k + 16], text: k + 8 >= list.count ? -1 : list[k + 8]) }
                try check(list[k])
            }
        }
        guard text.used + textBytes <= TextArena.maximumBytes else {
            throw .capacityExceeded("text arena over \(TextArena.maximumBytes) bytes")
        }
    }

    /// Starts loading the columns of new row `j` and the text of new row `textRow` (whose
    /// offsets were loaded before; -1 for none): the rows of a batch lie far apart, so
    /// loading a few ahead overlaps their misses.
    @inline(__always) static func prefetchRow(_ rows: RowColumns, _ j: Int, text textRow: Int) {
        tess_prefetch(rows.kinds.baseAddress! + j)
        if let h = rows.heights { tess_prefetch(h.baseAddress! + j) }
        if let v = rows.versions { tess_prefetch(v.baseAddress! + j) }
        guard let t = rows.text, t.slotsPerRow > 0, t.utf8.count > 0 else { return }
        tess_prefetch(t.offsets.baseAddress! + j * t.slotsPerRow)
        if textRow >= 0 {
            let at = min(max(t.offsets[textRow * t.slotsPerRow], 0), t.utf8.count - 1)
            tess_prefetch(t.utf8.baseAddress! + at)
        }
    }

    /// Offsets and UTF-8 of row `r` of a text batch; its record's size in the arena.
    func validateText(_ text: TextColumns, row r: Int) throws(TesseraError) -> Int {
        let s = text.slotsPerRow
        let first = text.offsets[r * s]
        guard first >= 0 else { throw .invalidTextOffsets(row: r, slot: 0) }
        for slot in 0..<s {
            let lo = text.offsets[r * s + slot], hi = text.offsets[r * s + slot + 1]
            guard lo <= hi, hi <= text.utf8.count else { throw .invalidTextOffsets(row: r, slot: slot) }
            if let bad = firstInvalidUTF8Byte(UnsafeRawBufferPointer(rebasing: text.utf8[lo..<hi])) {
                throw .invalidUTF8(row: r, slot: slot, byteOffset: bad)
            }
        }
        let bytes = s == 0 ? 0 : text.offsets[r * s + s] - first
        return bytes > 0 ? TextArena.recordSize(slotCount: s, textBytes: bytes) : 0
    }

    /// Applies a validated plan: deleted rows leave, moved rows go to their new place
    /// with their height, flags, text and version, inserted rows come from `rows` (their
    /// new positions), updated rows take their new kind, version and text. Nothing here
    /// throws. Only pages holding a change, and the neighbours that take an overflowing
    /// page's rows, are rewritten, each once (O(changes + touched pages), plus O(log n)
    /// per page whose summary changes); when the batch replaces more rows than it keeps,
    /// the pages are rebuilt from scratch instead, which indexes each row once.
    mutating func apply(_ plan: ApplyPlan, _ rows: RowColumns, updates mode: UpdateHeights) {
        let batch = plan.batch
        guard !batch.isEmpty else { return }
        version &+= 1
        contentMutations &+= 1
        index.reserve(count + batch.inserts.count)
        // Page changes mark their tree nodes; each marked node is refreshed once at the end.
        tree.deferring = true
        // Index work of each path: the merge removes and adds entries for changed rows
        // only; the rebuild clears the index and adds every new row.
        if plan.removed.count + plan.added.count + batch.moves.count > batch.newCount {
            rebuild(plan, rows)
        } else {
            merge(plan, rows)
        }
        tree.deferring = true  // a rebuild's tree is new
        applyUpdates(batch, rows, mode)
        tree.flushSummaries()
        if text.deadBytes > max(text.liveBytes, 1 << 20) { compactText() }
    }

    /// Takes the removed rows out before any page changes: deleted rows leave the index
    /// and the arena, move sources are captured with the page they were on (their index
    /// entries stay until they are written at their new place). One walk along the pages
    /// finds them; then each row's columns, index slot and text record are loaded a few
    /// rows ahead, so the misses of different rows overlap.
    mutating func detachRemoved(_ plan: ApplyPlan) -> CapturedRows {
        let moves = plan.batch.moves, n = plan.removed.count
        var captured = CapturedRows(capacity: moves.count)
        captured.leaves.reserveCapacity(moves.count)
        captured.order = [Int32](repeating: -1, count: moves.count)
        var found = [(leaf: UInt32, slot: Int32)]()
        found.reserveCapacity(n)
        var leaf = tree.firstLeaf, leafStart = 0
        for i in plan.removed {
            while i >= leafStart + rowCount(ofLeaf: leaf) {
                leafStart += rowCount(ofLeaf: leaf)
                leaf = tree.leaves[Int(leaf)].next
            }
            found.append((leaf, Int32(i - leafStart)))
            if found.count <= 48 { tess_prefetch(tree.leaves[Int(leaf)].page!) }
            if found.count <= 32 { prefetchRow(found[found.count - 1], all: plan.removedMove[found.count - 1] >= 0) }
        }
        for r in 0..<n {
            // A page's header (where its rows start) before its rows, before their index
            // slots and text.
            if r + 48 < n { tess_prefetch(tree.leaves[Int(found[r + 48].leaf)].page!) }
            if r + 32 < n { prefetchRow(found[r + 32], all: plan.removedMove[r + 32] >= 0) }
            if r + 16 < n {
                let (l, slot) = (found[r + 16].leaf, Int(found[r + 16].slot)), page = page(ofLeaf: l)
                if plan.removedMove[r + 16] < 0 {
                    index.prefetchForRemoval(page.ids[slot])
                    text.prefetch(page.text[slot])
                } else {
                    index.prefetch(page.ids[slot])
                }
            }
            let (l, slot) = (found[r].leaf, Int(found[r].slot)), page = page(ofLeaf: l)
            let m = Int(plan.removedMove[r])
            if m >= 0 {
                captured.order[m] = Int32(captured.count)
                captured.append(page, slot)
                captured.leaves.append(l)
            } else {
                index.remove(page.ids[slot], page: l)
                text.release(page.text[slot])
            }
        }
        return captured
    }

    /// Starts loading the id and text reference of a removed row, and for a move source
    /// (`all`) every other column too, since it is captured whole.
    @inline(__always) func prefetchRow(_ at: (leaf: UInt32, slot: Int32), all: Bool) {
        let page = page(ofLeaf: at.leaf), s = Int(at.slot)
        tess_prefetch(page.ids + s)
        tess_prefetch(page.text + s)
        guard all else { return }
        page.prefetchColumns(s, ids: false)
    }

    /// Writes the row of added entry `a` of the plan at `slot` of `page` (on `leaf`) and
    /// indexes it there: an inserted row from `rows`, or a captured moved row, whose entry
    /// is re-pointed from its old page.
    mutating func writeAdded(
        _ a: Int, _ plan: ApplyPlan, _ rows: RowColumns, _ moved: CapturedRows, into page: Page, at slot: Int, leaf: UInt32
    ) {
        let m = Int(plan.addedMove[a])
        if m >= 0 {
            let k = Int(moved.order[m])
            moved.write(k, into: page, at: slot)
            if moved.leaves[k] != leaf { index.move(moved.rows[k].id, from: moved.leaves[k], to: leaf) }
        } else {
            let j = plan.added[a]
            writeNewRows(rows, j..<(j + 1), into: page, at: slot, leaf: leaf)
        }
    }

    /// Where one page's new rows go besides the page itself. `carry` rows pushed from the
    /// page before wait in `carried`, indexed here already, and come first; the first
    /// `pull` of the page's rows go to the end of page `prev`; the last `push` go to
    /// `pushed`, indexed on page `next`, which takes them first.
    struct Spill {
        var carry = 0, pull = 0, push = 0
        var prev = HeightTree.none, next = HeightTree.none
        var carried: Page, pushed: Page
    }

    /// The incremental path: each page with a removed row or an added row attached to it
    /// is rewritten once, in place when its new rows fit. A page that overflows hands the
    /// rows over the top to its neighbours: the end of the page before as far as it has
    /// room, then the front of the page after, which passes on what it cannot hold in
    /// turn, as long as the rows changing pages that way are fewer than a split would move
    /// (an eighth of a page); otherwise it is rewritten through the scratch page and split.
    /// A page left empty is freed; then neighbours that fit in one page are merged.
    mutating func merge(_ plan: ApplyPlan, _ rows: RowColumns) {
        let moved = detachRemoved(plan)
        if tree.firstLeaf == HeightTree.none, !plan.added.isEmpty {
            // Rows into an empty store: one empty page to attach them to.
            tree.insertLeaf(tree.allocateLeaf(page: Page.allocate(layout, start: appendStart).base), after: HeightTree.none)
        }
        let scratchPage = Page(scratch, layout)
        // Rows handed on wait in one buffer while the next page fills the other (the
        // second allocated only for a page that takes rows and hands rows on).
        var carried = scratchPage, spare: Page? = nil, allocated: UnsafeMutableRawPointer? = nil
        defer { if let allocated { Jemalloc.free(allocated) } }
        var leaf = tree.firstLeaf
        var oldStart = 0, stayRank = 0, ri = 0, ai = 0, carry = 0
        var shrank = false
        var prefetchedAdded = 0, prefetchedColumns = 0
        var pagePlan = PagePlan(pageCapacity: pageCapacity, added: plan.added.count)
        defer { pagePlan.deallocate() }
        while leaf != HeightTree.none {
            let next = tree.leaves[Int(leaf)].next
            let old = rowCount(ofLeaf: leaf), oldEnd = oldStart + old
            // The header (where rows start) of the page after the next, read when that
            // page's loads start on the next step.
            if next != HeightTree.none, case let after = tree.leaves[Int(next)].next, after != HeightTree.none {
                tess_prefetch(tree.leaves[Int(after)].page!)
            }
            let (re, ae, stayHere) = plan.extent(ofPage: oldStart..<oldEnd, stayRank: stayRank, ri, ai)
            // The next page, and the index slots and values of the rows about to be added,
            // load while this page is rewritten.
            if next != HeightTree.none {
                let at = firstChange(next, oldStart: oldEnd, stayRank: stayRank + stayHere, re, ae, plan)
                pagePlan.upcoming = at
                at.page.prefetch(stage: 0, from: at.first, count: at.count)
            }
            // Each added row's loads are started once: an inserted row's columns about eight
            // pages ahead, then (its id and text offsets loaded by then) its index slot and
            // text about four pages ahead, so no read of them waits in between.
            for a in max(ae, prefetchedColumns)..<max(ae, min(ae + 16, plan.added.count)) where plan.addedMove[a] < 0 {
                tess_prefetch(rows.ids.baseAddress! + plan.added[a])
                Self.prefetchRow(rows, plan.added[a], text: -1)
            }
            prefetchedColumns = max(prefetchedColumns, min(ae + 16, plan.added.count))
            for a in max(ae, prefetchedAdded)..<max(ae, min(ae + 8, plan.added.count)) {
                let m = Int(plan.addedMove[a])
                if m >= 0 {
                    index.prefetch(moved.rows[Int(moved.order[m])].id)
                } else {
                    index.prefetch(rows.ids[plan.added[a]])
                    Self.prefetchRow(rows, plan.added[a], text: plan.added[a])
                }
            }
            prefetchedAdded = max(prefetchedAdded, min(ae + 8, plan.added.count))
            let total = carry + stayHere + (ae - ai), changed = re > ri || ae > ai
            var spill = Spill(carry: carry, carried: carried, pushed: carried)
            if total > pageCapacity {
                var over = total - pageCapacity
                let prev = tree.leaves[Int(leaf)].prev
                if carry == 0, prev != HeightTree.none {
                    spill.pull = min(over, pageCapacity - rowCount(ofLeaf: prev))
                    spill.prev = prev
                    over -= spill.pull
                }
                // A page that takes rows hands its overflow on: the chain was checked where
                // it started.
                if over > 0, carry > 0 || chainEnds(after: leaf, handing: over, oldStart: oldEnd, stayRank: stayRank + stayHere, re, ae, plan) {
                    spill.push = over
                    spill.next = next
                    if carry > 0 {
                        if spare == nil {
                            spare = Page.allocate(layout)
                            allocated = spare!.base
                        }
                        spill.pushed = spare!
                        spare = carried
                    }
                } else if over > 0 {
                    spill.pull = 0
                }
            }
            if carry > 0 || (changed && total > 0 && total - spill.pull - spill.push <= pageCapacity) {
                precondition(total - spill.pull - spill.push <= pageCapacity, "RowStore.apply: a chain of pages handing rows on ran out of room")
                rewriteInPlace(leaf, oldStart: oldStart, stayRank: stayRank, removed: ri..<re, added: ai..<ae, spill, plan, rows, moved, &pagePlan)
                if total - spill.pull - spill.push < old { shrank = true }
            } else if changed {
                let page = page(ofLeaf: leaf), oldHeight = tree.leaves[Int(leaf)].height
                scratchPage.copyRows(from: page, at: 0, to: 0, count: old)
                if total == 0 {
                    tree.removeLeaf(leaf)
                    Jemalloc.free(page.base)
                } else {
                    var out = PageWriter(store: self, leaf: leaf, page: page, total: total, oldCount: old, oldHeight: oldHeight)
                    var rank = stayRank, a = ai, r = ri, slot = 0
                    // Added rows that precede every staying row of this page (rank 0 only).
                    while a < ae, plan.rank(a) <= rank {
                        out.writeAdded(a, plan, rows, moved, &self)
                        a += 1
                    }
                    while slot < old {
                        if r < re, plan.removed[r] - oldStart == slot {
                            r += 1
                            slot += 1
                            continue
                        }
                        // A run of staying rows up to the next removed slot or the next
                        // staying rank with rows attached after it.
                        var end = r < re ? plan.removed[r] - oldStart : old
                        if a < ae { end = min(end, slot + plan.rank(a) - rank) }
                        out.copyStaying(from: scratchPage, slot..<end, &self)
                        rank += end - slot
                        slot = end
                        while a < ae, plan.rank(a) <= rank {
                            out.writeAdded(a, plan, rows, moved, &self)
                            a += 1
                        }
                    }
                    out.finish(&self)
                    if total < old { shrank = true }
                }
            }
            pagePlan.prefetchUpcoming(through: 2)
            pagePlan.upcoming = nil
            carry = spill.push
            carried = spill.pushed
            oldStart = oldEnd
            stayRank += stayHere
            ri = re
            ai = ae
            leaf = next
        }
        if shrank { mergeSparsePages() }
    }

    /// Where rewriting page `leaf` (old rows from `oldStart`, staying rows from rank
    /// `stayRank`, plan entries from `ri` and `ai`) starts reading: its first removed row,
    /// or where its first added row goes (at least the staying rows before it; rows
    /// carried into it are rare and load on demand). Loading only the runs the rewrite
    /// moves measured slower: planning the page twice costs more than the loads it saves.
    @inline(__always)
    func firstChange(_ leaf: UInt32, oldStart: Int, stayRank: Int, _ ri: Int, _ ai: Int, _ plan: ApplyPlan) -> (page: Page, first: Int, count: Int) {
        let n = rowCount(ofLeaf: leaf)
        var first = n
        if ri < plan.removed.count { first = min(first, plan.removed[ri] - oldStart) }
        if ai < plan.added.count { first = min(first, max(plan.rank(ai) - stayRank, 0)) }
        return (page(ofLeaf: leaf), first, n)
    }

    /// Whether `over` rows handed to the pages after `leaf` (old rows from `oldStart`, the
    /// plan from staying rank `stayRank` and entries `ri`, `ai`) come to rest, each page
    /// passing on what it cannot hold, with fewer rows changing pages than a split moves.
    func chainEnds(after leaf: UInt32, handing over: Int, oldStart: Int, stayRank: Int, _ ri: Int, _ ai: Int, _ plan: ApplyPlan) -> Bool {
        var l = tree.leaves[Int(leaf)].next, start = oldStart, rank = stayRank, r = ri, a = ai
        var carry = over, handed = 0
        while carry > 0 {
            handed += carry
            guard l != HeightTree.none, handed <= pageCapacity / 8 else { return false }
            let n = rowCount(ofLeaf: l)
            let (re, ae, staying) = plan.extent(ofPage: start..<(start + n), stayRank: rank, r, a)
            carry = max(0, carry + staying + (ae - a) - pageCapacity)
            (start, rank, r, a, l) = (start + n, rank + staying, re, ae, tree.leaves[Int(l)].next)
        }
        return true
    }

    /// Rewrites a page whose new rows fit in it (after `spill`) without a copy: deleted
    /// rows leave the index and the arena; the rows handed to a neighbour go first, while
    /// nothing in the page has moved; then runs of staying rows shift in place (those
    /// moving towards the front in ascending order, those moving back in descending order,
    /// so none overwrites a run not yet moved); then carried rows and added rows fill the
    /// gaps. The page's start moves to wherever the most staying rows keep their slots
    /// (`PagePlan.bestStart`), so a change near the front shifts the rows before it; the
    /// group sums before the first row whose index changes are kept.
    mutating func rewriteInPlace(
        _ leaf: UInt32, oldStart: Int, stayRank: Int, removed: Range<Int>, added: Range<Int>, _ spill: Spill,
        _ plan: ApplyPlan, _ rows: RowColumns, _ moved: CapturedRows, _ pagePlan: inout PagePlan
    ) {
        let page = page(ofLeaf: leaf), old = rowCount(ofLeaf: leaf), oldHeight = tree.leaves[Int(leaf)].height
        let to = pagePlan.collect(old: old, oldStart: oldStart, stayRank: stayRank, removed: removed, added: added, plan)
        // Positions below `pull` go to the page before, from `keep` on to `pushed`,
        // the rest to slot position + `shift` here.
        let keep = to - spill.push, shift = spill.carry - spill.pull, count = to + shift - spill.push
        precondition(spill.carry == 0 || spill.pull == 0, "RowStore.apply: a page takes rows from both sides")
        var prevPage = page
        let prevCount = spill.pull > 0 ? rowCount(ofLeaf: spill.prev) : 0
        if spill.pull > 0 {
            prevPage = self.page(ofLeaf: spill.prev)
            // The page before takes rows at its end: its rows go to the front if needed.
            if prevPage.start + prevCount + spill.pull > pageCapacity {
                prevPage = prevPage.moved(toStart: pageCapacity - prevCount - spill.pull, count: prevCount)
            }
        }
        let runs = UnsafeBufferPointer(start: pagePlan.runs, count: pagePlan.runCount)
        let placed = UnsafeBufferPointer(start: pagePlan.placed, count: pagePlan.placedCount)
        if spill.pull + spill.push > 0 {
            for run in runs {
                let lead = min(max(spill.pull - run.to, 0), run.count)
                if lead > 0 {
                    prevPage.copyRows(from: page, at: run.from, to: prevCount + run.to, count: lead)
                    for t in 0..<lead { index.move(page.ids[run.from + t], from: leaf, to: spill.prev) }
                }
                let tail = max(keep, run.to), n = run.to + run.count - tail
                if n > 0 {
                    spill.pushed.copyRows(from: page, at: run.from + tail - run.to, to: tail - keep, count: n)
                    for t in 0..<n { index.move(spill.pushed.ids[tail - keep + t], from: leaf, to: spill.next) }
                }
            }
        }
        // Each run's part that stays in this page, at its slot there.
        var parts = 0
        for run in runs {
            let lo = max(run.to, spill.pull), hi = min(run.to + run.count, keep)
            if hi > lo {
                pagePlan.runs[parts] = (run.from + lo - run.to, lo + shift, hi - lo)
                parts &+= 1
            }
        }
        let staying = UnsafeBufferPointer(start: pagePlan.runs, count: parts)
        // The new start: the one that leaves the most staying rows where they are (a run
        // stays put when start + new slot = old start + old slot), among those that fit;
        // else the old start, clamped. A row's content changes at its new slot when that
        // differs from its old one; the first such slot is where group sums are redone.
        let chosen = pagePlan.bestStart(staying, from: page.start, latest: pageCapacity - count, old: old, count: count)
        let start = chosen.start
        var first = chosen.first
        let target = Page(page.base, layout, start: start), slide = start - page.start
        // Runs moving towards the front go in ascending order, those moving back in
        // descending order, so none overwrites a run not yet moved.
        for part in staying where slide &+ part.to < part.from {
            target.copyRows(from: page, at: part.from, to: part.to, count: part.count)
        }
        for part in staying.reversed() where slide &+ part.to > part.from {
            target.copyRows(from: page, at: part.from, to: part.to, count: part.count)
        }
        pagePlan.prefetchUpcoming(through: 1)
        if start != page.start { target.setStart(start) }
        if spill.carry > 0 {
            target.copyRows(from: spill.carried, at: 0, to: 0, count: spill.carry)
            first = 0
        }
        for (entry, position) in placed {
            if position < spill.pull {
                writeAdded(entry, plan, rows, moved, into: prevPage, at: prevCount + position, leaf: spill.prev)
            } else if position >= keep {
                writeAdded(entry, plan, rows, moved, into: spill.pushed, at: position - keep, leaf: spill.next)
            } else {
                writeAdded(entry, plan, rows, moved, into: target, at: position + shift, leaf: leaf)
                first = min(first, position + shift)
            }
        }
        pagePlan.prefetchUpcoming(through: 2)
        if spill.pull > 0 {
            let height = prevPage.refreshGroups(from: prevCount, count: prevCount + spill.pull)
            tree.adjust(leaf: spill.prev, rows: spill.pull, height: height - tree.leaves[Int(spill.prev)].height)
        }
        tree.adjust(leaf: leaf, rows: count - old, height: target.refreshGroups(from: first, count: count) - oldHeight)
    }

    /// Merges every pair of neighbouring pages that fits in one.
    mutating func mergeSparsePages() {
        var l = tree.firstLeaf
        while l != HeightTree.none {
            let next = tree.leaves[Int(l)].next
            guard next != HeightTree.none else { break }
            if rowCount(ofLeaf: l) + rowCount(ofLeaf: next) <= pageCapacity {
                absorb(next, into: l)
            } else {
                l = next
            }
        }
    }

    /// The fallback for batches that replace most rows: every surviving row's columns are
    /// captured in new order, the pages and the index are dropped, and the new rows are
    /// written into pages filled as an append fills them and indexed once.
    mutating func rebuild(_ plan: ApplyPlan, _ rows: RowColumns) {
        let batch = plan.batch, m = batch.newCount
        let newToOld = plan.newToOld()
        // Old index → new index of survivors, to capture in one walk over the pages.
        var oldToNew = [Int32](repeating: -1, count: batch.oldCount)
        for j in 0..<m where newToOld[j] >= 0 { oldToNew[Int(newToOld[j])] = Int32(j) }
        var survivorSlot = [Int32](repeating: -1, count: m)
        var captured = CapturedRows(capacity: m - batch.inserts.count)
        var l = tree.firstLeaf
        var row = 0
        while l != HeightTree.none {
            let page = page(ofLeaf: l), n = rowCount(ofLeaf: l), next = tree.leaves[Int(l)].next
            for s in 0..<n {
                let j = Int(oldToNew[row + s])
                if j >= 0 {
                    survivorSlot[j] = Int32(captured.count)
                    captured.append(page, s)
                } else {
                    text.release(page.text[s])
                }
            }
            row += n
            Jemalloc.free(page.base)
            l = next
        }
        tree = HeightTree(fanout: tree.fanout)
        index.removeAll()
        index.reserve(m)
        var previous = HeightTree.none
        var j = 0
        while j < m {
            let n = min(appendFill, m - j)
            let page = Page.allocate(layout, start: appendStart), leaf = tree.allocateLeaf(page: page.base)
            for s in 0..<n {
                let k = Int(survivorSlot[j + s])
                if k >= 0 {
                    captured.write(k, into: page, at: s)
                } else {
                    writeRows(rows, (j + s)..<(j + s + 1), into: page, at: s)
                }
                index.insert(page.ids[s], page: leaf)
            }
            tree.leaves[Int(leaf)].count = Int32(n)
            tree.leaves[Int(leaf)].height = page.refreshGroups(count: n)
            tree.insertLeaf(leaf, after: previous)
            previous = leaf
            j += n
        }
    }

    /// Updated rows (new positions, ascending) take their new kind, version and text; their
    /// heights and flags follow `mode`.
    mutating func applyUpdates(_ batch: DiffBatch, _ rows: RowColumns, _ mode: UpdateHeights) {
        let updated = batch.updatedNewIndexes, n = updated.count
        guard n > 0 else { return }
        let measured = RowFlags.measured.rawValue, dirty = RowFlags.dirty.rawValue
        // Where each updated row is, in one walk along the pages; then each row's page
        // slot, old text record and new values load a few rows ahead.
        var found = [(leaf: UInt32, slot: Int32)]()
        found.reserveCapacity(n)
        var l = tree.firstLeaf, start = 0
        for j in updated {
            while j >= start + rowCount(ofLeaf: l) {
                start += rowCount(ofLeaf: l)
                l = tree.leaves[Int(l)].next
            }
            found.append((l, Int32(j - start)))
            if found.count <= 24 { tess_prefetch(tree.leaves[Int(l)].page!) }
        }
        var leaf = HeightTree.none, delta: Int64 = 0
        for (k, j) in updated.enumerated() {
            if k + 24 < n { tess_prefetch(tree.leaves[Int(found[k + 24].leaf)].page!) }
            if k + 16 < n {
                // The row's columns are rewritten: load them with its text reference.
                page(ofLeaf: found[k + 16].leaf).prefetchColumns(Int(found[k + 16].slot), ids: false)
                Self.prefetchRow(rows, updated[k + 16], text: updated[k + 8])
            }
            if k + 8 < n { text.prefetch(page(ofLeaf: found[k + 8].leaf).text[Int(found[k + 8].slot)]) }
            if found[k].leaf != leaf {
                if leaf != HeightTree.none, delta != 0 { tree.adjust(leaf: leaf, rows: 0, height: delta) }
                leaf = found[k].leaf
                delta = 0
            }
            let page = page(ofLeaf: leaf), s = Int(found[k].slot)
            text.release(page.text[s])
            let kind = rows.kinds[j]
            page.kinds[s] = kind
            page.versions[s] = rows.versions?[j] ?? 0
            if let t = rows.text {
                page.text[s] = text.append(
                    text: t.utf8.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!,
                    offsets: t.offsets.baseAddress! + j * t.slotsPerRow, slotCount: t.slotsPerRow)
            } else {
                page.text[s] = 0
            }
            page.flags[s] |= rows.flags | (rows.rowFlags?[j] ?? 0)
            var units = UInt32(page.height(s))
            switch mode {
            case .storeDriven:
                if let h = rows.heights {
                    units = LayoutUnit.roundedUnits(h[j])
                    page.flags[s] |= measured
                } else {
                    units = estimates[Int(kind)]
                    page.flags[s] &= ~measured
                }
            case .profile:
                page.flags[s] |= dirty
                if page.flags[s] & measured == 0 { units = estimates[Int(kind)] }
            case .grid:
                page.flags[s] |= dirty
            }
            let d = Int64(units) - page.height(s)
            if d != 0 {
                page.setHeight(units, s)
                page.adjustGroup(of: s, by: d)
                delta += d
            }
        }
        if delta != 0 { tree.adjust(leaf: leaf, rows: 0, height: delta) }
    }
}

/// Writes one old page's new rows in order into that page and, when they overflow it, new
/// pages after it. The old page keeps 7/8 of a page and the rest spread evenly over the
/// new pages: each row that lands in a new page costs an index update (a cache miss in a
/// large index), so a page a few rows over capacity moves an eighth of a page, not half,
/// and both pages keep room for more.
struct PageWriter {
    let firstLeaf: UInt32
    let oldCount: Int, oldHeight: Int64
    /// Rows of the old page, then of each new page: `rest / (pages - 1)`, the first
    /// `rest % (pages - 1)` one more.
    let first: Int, rest: Int
    let pages: Int, total: Int
    var j = 0
    var leaf: UInt32
    var page: Page
    var filled = 0
    var size: Int
    var previous = HeightTree.none

    init(store: borrowing RowStore, leaf: UInt32, page: Page, total: Int, oldCount: Int, oldHeight: Int64) {
        firstLeaf = leaf
        self.leaf = leaf
        self.page = page
        self.total = total
        self.oldCount = oldCount
        self.oldHeight = oldHeight
        let capacity = store.pageCapacity
        first = total <= capacity ? total : capacity - capacity / 8
        rest = total - first
        pages = 1 + (rest + capacity - 1) / capacity
        size = first
        // Each page is written whole (the old one from its scratch copy), centred.
        self.page = page.setStart((capacity - first) / 2)
    }

    func size(of k: Int) -> Int {
        k == 0 ? first : rest / (pages - 1) + (k - 1 < rest % (pages - 1) ? 1 : 0)
    }

    /// Closes a full page and opens the next.
    mutating func advanceIfFull(_ store: inout RowStore) {
        guard filled == size, j + 1 < pages else { return }
        close(&store)
        j += 1
        size = size(of: j)
        page = Page.allocate(store.layout, start: (store.pageCapacity - size) / 2)
        leaf = store.tree.allocateLeaf(page: page.base)
        filled = 0
    }

    mutating func close(_ store: inout RowStore) {
        let height = page.refreshGroups(count: filled)
        if j == 0 {
            store.tree.adjust(leaf: leaf, rows: filled - oldCount, height: height - oldHeight)
        } else {
            store.tree.leaves[Int(leaf)].count = Int32(filled)
            store.tree.leaves[Int(leaf)].height = height
            store.tree.insertLeaf(leaf, after: previous)
        }
        previous = leaf
    }

    /// Staying rows `slots` of the old page (copied to `source`), in chunks that fit.
    mutating func copyStaying(from source: Page, _ slots: Range<Int>, _ store: inout RowStore) {
        var s = slots.lowerBound
        while s < slots.upperBound {
            advanceIfFull(&store)
            let n = min(slots.upperBound - s, size - filled)
            page.copyRows(from: source, at: s, to: filled, count: n)
            if leaf != firstLeaf {
                // Rows spilled into a new page: re-point their index entries, loading the
                // entries a few rows ahead so the misses overlap.
                let ids = page.ids + filled
                for t in 0..<min(n, 8) { store.index.prefetch(ids[t]) }
                for t in 0..<n {
                    if t + 8 < n { store.index.prefetch(ids[t + 8]) }
                    store.index.move(ids[t], from: firstLeaf, to: leaf)
                }
            }
            filled += n
            s += n
        }
    }

    /// Added entry `a` of the plan: an inserted row from `rows` or a captured moved row.
    mutating func writeAdded(
        _ a: Int, _ plan: ApplyPlan, _ rows: RowColumns, _ moved: CapturedRows, _ store: inout RowStore
    ) {
        advanceIfFull(&store)
        store.writeAdded(a, plan, rows, moved, into: page, at: filled, leaf: leaf)
        filled += 1
    }

    mutating func finish(_ store: inout RowStore) {
        precondition(filled == size && j == pages - 1, "PageWriter: \(filled) of \(size) rows in page \(j + 1) of \(pages)")
        close(&store)
    }
}
