#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

/// Nanoseconds from a monotonic clock, for measurement time budgets.
enum EngineClock {
    @inline(__always)
    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// Online processors: the default number of threads for `measureAll`.
    static var processorCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}

/// Hands values that are not `Sendable` to `DispatchQueue.concurrentPerform` workers that
/// touch disjoint parts of them.
struct EngineSendable<T>: @unchecked Sendable {
    var value: T
}

/// What a profile-driven `ListEngine` keeps beside its rows: the profile and environment,
/// the measurers, per-kind tables, where groups and grid lines break, the grid's item
/// heights, and the dirty bookkeeping. A class, so the window query (which does not mutate
/// the engine) can use the measurer's scratch space. No per-row objects: the dirty state is
/// a flag bit in the store's pages plus a count here.
final class ProfileLayout {
    let profile: Profile
    private(set) var environment: LayoutEnvironment
    /// `measurers[0]` measures on the engine's thread; the others are `measureAll`'s
    /// workers, created on first use and kept (a measurer and its text engine serve one
    /// thread at a time; the profile and its fonts are shared).
    private(set) var measurers: [CellMeasurer]
    /// Per measurer: the slot offsets of the row it is measuring (a row has at most 255
    /// slots).
    private(set) var offsets: [UnsafeMutablePointer<Int>]

    static let roleCell: UInt8 = 0, roleHeader: UInt8 = 1, roleFooter: UInt8 = 2

    // Per kind, indexed by code (code 0 and unused codes never reach the store).
    let roles: [UInt8]
    let sticky: [Bool]
    let groupMinimum: [Int]
    let inGrid: [Bool]
    let hasGroupRules: Bool
    let hasStickyHeaders: Bool
    private(set) var dividers: [Bool]
    /// Estimated heights on the environment's platform, in 1/64 pt.
    private(set) var estimates: [UInt32]

    /// The grid in the environment; nil when the profile has none.
    private(set) var grid: GridMetrics?
    private(set) var gridPadding: Int64 = 0
    private(set) var gridRowGap: Int64 = 0

    /// Rows whose kind is a header or footer, ascending: where groups start and end.
    var groupMarks: [Int32] = []
    /// Grid only: rows of kinds outside the grid, ascending (each takes a line of its own).
    var lineBreaks: [Int32] = []
    /// A grid item's own height not measured yet: its kind's estimate stands in. The
    /// store's item column holds the items' heights, its height column the lines' spans
    /// (see `ListEngine` "Grid mode").
    static let unmeasured = Page.unmeasuredItem

    /// Rows flagged `dirty` in the store.
    var dirtyCount = 0
    /// Rows known to have no dirty row, so successive budgeted measurements do not rescan
    /// them; nil when unknown.
    var clean: Range<Int>? = nil

    /// `measureAll`'s prepared texts: `batches[i]` holds the kept texts of store rows
    /// `batchRanges[i]` (row `r` is batch row `r - lower bound`). Valid while the store's
    /// rows are those they were prepared for (`batchVersion` is the store's
    /// `contentMutations` then, which every insert, removal, apply and content update
    /// bumps): environment changes keep them.
    var batches: [CellTextBatch] = []
    var batchRanges: [Range<Int>] = []
    var batchVersion: UInt64? = nil
    /// Counts environments (never 0): rows `measureAll` measures with a batch get their
    /// width range stamped with it (`CellTextBatch.WidthRange`).
    var epoch: UInt32 = 1
    /// Per kind code, the epoch in which its layout last changed other than in width: its
    /// rows' ranges stamped before then no longer hold.
    var kindEpochs: [UInt32]
    /// Thread CPU time (ns) of each worker in the last `measureAll`, and the rows it took
    /// from kept results alone.
    var threadCPU: [UInt64] = []
    var keptRows = 0
    /// `measureAll`'s rows and heights, kept between passes: allocated afresh, a million
    /// rows' worth is pages the kernel maps on first touch, every pass.
    var passRows: [Int32] = []
    var passUnits: [UInt32] = []
    /// Whether `measureAll` prepares and keeps texts (`ListEngine.keepsPreparedTexts`).
    var keepsPreparedTexts = true

    /// The rows changed: prepared texts no longer match them, so their memory goes now.
    func rowsChanged() {
        if !batches.isEmpty {
            batches = []
            batchRanges = []
        }
    }

    /// Whether the kept batches still describe the store's rows.
    func batchesAreValid(_ store: borrowing RowStore) -> Bool { !batches.isEmpty && batchVersion == store.contentMutations }

    /// The most value slots any kind reads (a batch's slots per row).
    var slotsPerRow: Int { profile.kinds.map(\.valueCount).max() ?? 0 }

    init(profile: Profile, environment: LayoutEnvironment, textEngine: TextLayoutEngine) throws(TesseraError) {
        let measurer = try CellMeasurer(profile: profile, environment: environment, textEngine: textEngine)
        self.profile = profile
        self.environment = environment
        measurers = [measurer]
        offsets = [Self.allocateOffsets()]
        let codes = profile.kinds.map { Int($0.code) }.max().map { $0 + 1 } ?? 1
        var roles = [UInt8](repeating: Self.roleCell, count: codes)
        var sticky = [Bool](repeating: false, count: codes)
        var groupMinimum = [Int](repeating: 0, count: codes)
        var inGrid = [Bool](repeating: false, count: codes)
        let minimums = measurer.kindGroupMinimums, grid = measurer.kindInGrid
        for (i, k) in profile.kinds.enumerated() {
            let c = Int(k.code)
            roles[c] = switch k.role {
            case .cell: Self.roleCell
            case .header: Self.roleHeader
            case .footer: Self.roleFooter
            }
            sticky[c] = k.isSticky
            groupMinimum[c] = minimums[i]
            inGrid[c] = grid[i]
        }
        self.roles = roles
        kindEpochs = [UInt32](repeating: 0, count: codes)
        self.sticky = sticky
        self.groupMinimum = groupMinimum
        self.inGrid = inGrid
        hasGroupRules = groupMinimum.contains { $0 > 0 }
        hasStickyHeaders = sticky.contains(true)
        dividers = []
        estimates = []
        refreshEnvironmentTables()
    }

    deinit {
        for o in offsets { o.deallocate() }
    }

    static func allocateOffsets() -> UnsafeMutablePointer<Int> { .allocate(capacity: 257) }

    var measurer: CellMeasurer { measurers[0] }
    var isGrid: Bool { grid != nil }

    /// The per-platform and per-width tables: dividers, estimates, grid metrics.
    private func refreshEnvironmentTables() {
        let m = measurers[0]
        var dividers = [Bool](repeating: false, count: roles.count)
        for (i, d) in m.kindDividers.enumerated() { dividers[Int(profile.kinds[i].code)] = d }
        self.dividers = dividers
        estimates = profile.estimatedHeights(platform: environment.platform).map { LayoutUnit.roundedUnits($0) }
        grid = m.grid
        if let g = grid {
            gridPadding = LayoutUnit.units(g.padding)
            gridRowGap = LayoutUnit.units(g.rowGap)
        }
    }

    // MARK: Environment

    /// Switches every measurer's program to `new` and reports, per kind code, whether a
    /// row of the kind may measure differently now. Throws before changing anything.
    ///
    /// A height is a function of the kind's effective layout (the variants that hold), its
    /// cell width (the content width, or a grid kind's item width), the text styles (font
    /// scale and platform), the per-platform values and the parameters (README "How height
    /// and frames follow"). A kind none of whose inputs changed keeps its heights: edit
    /// mode leaves kinds without an edit-mode variant alone, a width change inside a width
    /// class leaves grid kinds of a fixed item width alone.
    func setEnvironment(_ new: LayoutEnvironment) throws(TesseraError) -> [Bool] {
        let old = environment
        let m = measurers[0]
        let oldVariants = profile.holdingVariants(old), oldGridWidths = m.kindGridWidths
        try m.setEnvironment(new)
        environment = new
        refreshEnvironmentTables()
        var affected = [Bool](repeating: false, count: roles.count)
        let everything = new.platform != old.platform || new.parameters != old.parameters
        let newVariants = profile.holdingVariants(new), newGridWidths = m.kindGridWidths
        let hasText = profile.kindHasText
        for (i, k) in profile.kinds.enumerated() {
            let widthInput = newGridWidths[i].mode == 0
                ? new.width != old.width
                : newGridWidths[i] != oldGridWidths[i]
            let inputs = everything || widthInput || oldVariants[i] != newVariants[i] || (new.fontScale != old.fontScale && hasText[i])
            // A kind whose compiled layout came out the same (a variant that changes nothing
            // the height depends on, say) keeps its heights too.
            affected[Int(k.code)] = inputs && m.layoutChanged(kind: k.code)
        }
        return affected
    }

    /// Puts the environment back after a later check failed (it compiled before).
    func restoreEnvironment(_ old: LayoutEnvironment) {
        try! measurers[0].setEnvironment(old)
        environment = old
        refreshEnvironmentTables()
    }

    /// `parts` measurers in the current environment (workers created on first use).
    func workers(_ parts: Int) -> [CellMeasurer] {
        let main = measurers[0]
        while measurers.count < parts {
            // The built-in shaper holds no state: a worker gets its own rather than share
            // one object's reference count with the other threads.
            let shaper: any TextShaper = main.textEngine.shaper is FontShaper ? FontShaper() : main.textEngine.shaper
            let engine = TextLayoutEngine(shaper: shaper, configuration: main.textEngine.configuration)
            // Its own font objects too (the same tables): the fonts' reference counts and
            // kerning memos are written while measuring, and two threads writing one cache
            // line take turns for it.
            let own = shaper is FontShaper ? profile.withOwnFonts() : profile
            measurers.append(try! CellMeasurer(profile: own, environment: environment, textEngine: engine))
            offsets.append(Self.allocateOffsets())
        }
        for w in measurers.prefix(parts) where w.environment != environment { try! w.setEnvironment(environment) }
        return Array(measurers.prefix(parts))
    }

    // MARK: Rows

    /// A stored row's values as the measurer reads them: the text record's bytes and its
    /// slot ends turned into offsets in `o`.
    @inline(__always)
    static func values(arena: UnsafeRawPointer, textReference ref: UInt32, offsets o: UnsafeMutablePointer<Int>) -> RowValues {
        o[0] = 0
        let record = arena + Int(ref) * 4
        let slots = ref == 0 ? 0 : Int(record.load(as: UInt32.self))
        guard slots > 0 else {
            return RowValues(utf8: UnsafeRawBufferPointer(start: nil, count: 0), offsets: UnsafeBufferPointer(start: o, count: 1))
        }
        let ends = (record + 4).assumingMemoryBound(to: UInt32.self)
        for i in 0..<slots { o[i &+ 1] = Int(ends[i]) }
        return RowValues(utf8: UnsafeRawBufferPointer(start: record + 4 + 4 * slots, count: o[slots]), offsets: UnsafeBufferPointer(start: o, count: slots + 1))
    }

    /// The height a measurer gives a row, in units the store can hold.
    @inline(__always)
    static func measure(_ m: CellMeasurer, kind: UInt16, arena: UnsafeRawPointer, textReference ref: UInt32, offsets o: UnsafeMutablePointer<Int>) -> UInt32 {
        let h = m.engineHeightUnits(kind: kind, values(arena: arena, textReference: ref, offsets: o))
        return UInt32(min(max(h, 0), LayoutUnit.maximumRowUnits))
    }

    /// Checks a batch of rows against their kinds' rules (errors name the batch position).
    func validate(kinds: [UInt16], text: RowText?) throws(TesseraError) {
        let n = kinds.count
        let m = measurers[0]
        guard let text else {
            var zero = 0
            for r in 0..<n {
                try withUnsafeMutablePointer(to: &zero) { (z) throws(TesseraError) in
                    try m.validate(kind: kinds[r], utf8: UnsafeRawBufferPointer(start: nil, count: 0), slotOffsets: UnsafeBufferPointer(start: z, count: 1), row: r)
                }
            }
            return
        }
        let s = text.slotsPerRow
        guard s >= 0, s <= 255 else { throw .capacityExceeded("\(s) text slots per row, at most 255") }
        guard text.offsets.count == n * s + 1 else {
            throw .columnLengthMismatch(column: "text offsets", expected: n * s + 1, actual: text.offsets.count)
        }
        let r: Result<Void, TesseraError> = text.utf8.withUnsafeBytes { utf8 in
            text.offsets.withUnsafeBufferPointer { offsets in
                do throws(TesseraError) {
                    for r in 0..<n {
                        try m.validate(kind: kinds[r], utf8: utf8, slotOffsets: UnsafeBufferPointer(rebasing: offsets[(r * s)...(r * s + s)]), row: r)
                    }
                    return .success(())
                } catch { return .failure(error) }
            }
        }
        try r.get()
    }

    /// Checks every stored row against its kind's rules (after the parameters changed:
    /// image ranges follow them). Errors name the row in the list.
    func validateStoredRows(_ store: borrowing RowStore) throws(TesseraError) {
        guard store.count > 0 else { return }
        let m = measurers[0], o = offsets[0], arena = UnsafeRawPointer(store.text.base)
        var c = store.cursor(atRow: 0)
        while c.row < store.count {
            let v = Self.values(arena: arena, textReference: store.textReference(at: c), offsets: o)
            try m.validate(kind: store.kind(at: c), utf8: v.utf8, slotOffsets: v.offsets, row: c.row)
            store.advance(&c)
        }
    }

    // MARK: Groups

    @inline(__always) func role(_ kind: UInt16) -> UInt8 { roles[Int(kind)] }

    /// Checks the groups a change touches against `groupMinimum` rules: the rows from after
    /// the group mark before `start` to the mark at or after `end` (old rows), with
    /// `inserted` kinds in place of rows `start..<end`. So the list obeys the rules after
    /// every change if it did before. Errors name rows of the list after the change.
    func validateGroups(replacing range: Range<Int>, with inserted: [UInt16], _ store: borrowing RowStore) throws(TesseraError) {
        guard hasGroupRules else { return }
        // Only rows of a kind with a minimum change a count, and only headers and footers
        // split or join groups.
        var relevant = inserted.contains { groupMinimum[Int($0)] > 0 || (range.lowerBound < store.count && roles[Int($0)] != Self.roleCell) }
        if !relevant, !range.isEmpty {
            var c = store.cursor(atRow: range.lowerBound)
            while c.row < range.upperBound, !relevant {
                let k = Int(store.kind(at: c))
                relevant = groupMinimum[k] > 0 || roles[k] != Self.roleCell
                store.advance(&c)
            }
        }
        guard relevant else { return }
        let before = Self.lastIndex(in: groupMarks, below: range.lowerBound)
        let start = before < 0 ? 0 : Int(groupMarks[before]) + 1
        let after = Self.firstIndex(in: groupMarks, atLeast: range.upperBound)
        let end = after < groupMarks.count ? Int(groupMarks[after]) : store.count
        var kinds: [UInt16] = []
        kinds.reserveCapacity(end - start - range.count + inserted.count)
        appendKinds(store, start..<range.lowerBound, to: &kinds)
        kinds += inserted
        appendKinds(store, range.upperBound..<end, to: &kinds)
        try measurers[0].validateGroup(rowKinds: kinds, firstRow: start)
    }

    private func appendKinds(_ store: borrowing RowStore, _ range: Range<Int>, to kinds: inout [UInt16]) {
        guard !range.isEmpty else { return }
        var c = store.cursor(atRow: range.lowerBound)
        while c.row < range.upperBound {
            kinds.append(store.kind(at: c))
            store.advance(&c)
        }
    }

    /// Index of the last element below `value`, or -1.
    static func lastIndex(in a: [Int32], below value: Int) -> Int { firstIndex(in: a, atLeast: value) - 1 }

    /// Index of the first element at least `value`, or `a.count`.
    static func firstIndex(in a: [Int32], atLeast value: Int) -> Int {
        var lo = 0, hi = a.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if Int(a[mid]) < value { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Marks after an insertion of `count` rows at `index` whose kinds are `kinds`.
    static func insert(into marks: inout [Int32], at index: Int, count: Int, kinds: [UInt16], where isMark: (UInt16) -> Bool) {
        let p = firstIndex(in: marks, atLeast: index)
        for i in p..<marks.count { marks[i] += Int32(count) }
        var new: [Int32] = []
        for (i, k) in kinds.enumerated() where isMark(k) { new.append(Int32(index + i)) }
        marks.insert(contentsOf: new, at: p)
    }

    /// Marks after rows `range` were removed.
    static func remove(from marks: inout [Int32], _ range: Range<Int>) {
        let p = firstIndex(in: marks, atLeast: range.lowerBound), q = firstIndex(in: marks, atLeast: range.upperBound)
        marks.removeSubrange(p..<q)
        for i in p..<marks.count { marks[i] -= Int32(range.count) }
    }

    // MARK: Grid lines

    /// The first row of the grid line holding `row` (the row itself outside a grid).
    func lineStart(_ row: Int, _ store: borrowing RowStore) -> Int {
        guard let g = grid, inGrid[Int(store.kindCode(ofRow: row))] else { return row }
        let b = Self.lastIndex(in: lineBreaks, below: row)
        let first = b < 0 ? 0 : Int(lineBreaks[b]) + 1
        return row - (row - first) % g.columnCount
    }

    /// One past the last row of the line that starts at `leader`.
    func lineEnd(_ leader: Int, _ store: borrowing RowStore) -> Int {
        guard let g = grid, inGrid[Int(store.kindCode(ofRow: leader))] else { return leader + 1 }
        let b = Self.firstIndex(in: lineBreaks, atLeast: leader)
        let next = b < lineBreaks.count ? Int(lineBreaks[b]) : store.count
        return min(leader + g.columnCount, next)
    }

    /// A row's own height in grid mode from its item column (`units`): measured, or its
    /// kind's estimate.
    @inline(__always) func itemHeight(_ units: UInt32, kind: UInt16) -> Int64 {
        Int64(units == Self.unmeasured ? estimates[Int(kind)] : units)
    }

    /// What the store holds for the line `leader..<end` as tall as `height`: the padding
    /// above the first line, the line, and the row gap below it (the padding below the
    /// last), so the store's offsets are the content's.
    @inline(__always) func lineSpan(leader: Int, end: Int, count: Int, height: Int64) -> UInt32 {
        let span = (leader == 0 ? gridPadding : 0) + height + (end == count ? gridPadding : gridRowGap)
        return UInt32(min(max(span, 0), LayoutUnit.maximumRowUnits))
    }

    /// The line `repack` has open: its first row, where that row's span is stored (the
    /// page of leaf `leaf`), its tallest item and how many items it has.
    struct OpenLine {
        var leader: Int
        var leaf: UInt32
        var low = UnsafeMutablePointer<UInt16>(bitPattern: 2)!
        var high = UnsafeMutablePointer<UInt8>(bitPattern: 1)!
        var group = UnsafeMutablePointer<UInt32>(bitPattern: 4)!
        var tallest: Int64 = 0
        var column = 0
    }

    /// What packing rows into lines reads besides the rows (`repack`): while it stays the
    /// same, so do the lines.
    var packing: (columns: Int, padding: Int64, rowGap: Int64, estimates: [UInt32]) { (grid?.columnCount ?? 0, gridPadding, gridRowGap, estimates) }

    /// The padding above a grid's first line, in points (0 without a grid): part of that
    /// line's span, so an anchor in the first line counts it.
    var firstLinePadding: Double { grid == nil ? 0 : LayoutUnit.points(gridPadding) }

    /// The y of a line's items: its leader's top, below the padding for the first line.
    @inline(__always) func lineY(leader: Int, top: Int64) -> Int64 { leader == 0 ? top + gridPadding : top }

    /// Packs rows `from..<to` (`from` a line's first row, `to` one or the row count) into
    /// lines again and writes their heights to the store: each line's span on its first
    /// row, 0 on the others, every row flagged measured. `measured` (ascending rows and
    /// their item heights) go into the item column first, their rows losing `clearing`.
    /// One pass over the pages, writing in place; a line begun on an earlier page puts
    /// its span there when it closes and corrects that page's sums. O(to - from + log n ·
    /// pages touched).
    func repack(from: Int, to: Int? = nil, measured: (rows: UnsafeBufferPointer<Int32>, units: UnsafeBufferPointer<UInt32>, clearing: UInt16)? = nil,
                _ store: inout RowStore) {
        let count = store.count, to = to ?? count
        guard let g = grid, from < to else { return }
        store.version &+= 1
        let columns = g.columnCount, set = RowFlags.measured.rawValue
        // Past a few pages the tree is summed once at the end rather than per page.
        let manyPages = to - from > 64 * store.pageCapacity
        let measuredRows = measured?.rows ?? UnsafeBufferPointer(start: nil, count: 0)
        let measuredUnits = measured?.units ?? UnsafeBufferPointer(start: nil, count: 0)
        let keep = ~(measured?.clearing ?? 0)
        precondition(measuredRows.isEmpty || (Int(measuredRows.first!) >= from && Int(measuredRows.last!) < to), "measured rows outside the re-packed ones")
        var m = 0
        inGrid.withUnsafeBufferPointer { inGrid in
            estimates.withUnsafeBufferPointer { estimates in
                var c = store.cursor(atRow: from), r = from
                // The open line, passed by reference rather than captured, so the rare rows
                // stepped one at a time (`step`, out of line) pay no dynamic exclusivity checks.
                var line = OpenLine(leader: from, leaf: c.leaf)
                @inline(__always) func close(_ line: inout OpenLine, _ end: Int, _ leaf: UInt32) {
                    let span = lineSpan(leader: line.leader, end: end, count: count, height: line.tallest)
                    let old = Int64(line.low.pointee) | Int64(line.high.pointee) << 16
                    line.low.pointee = UInt16(truncatingIfNeeded: span)
                    line.high.pointee = UInt8(truncatingIfNeeded: span >> 16)
                    // A page's sums come after its rows; a line begun on an earlier page
                    // corrects that page's.
                    guard line.leaf != leaf else { return }
                    let delta = Int64(span) - old
                    line.group.pointee = UInt32(truncatingIfNeeded: Int64(line.group.pointee) &+ delta)
                    if manyPages {
                        store.tree.leaves[Int(line.leaf)].height += delta
                    } else if delta != 0 {
                        store.tree.adjust(leaf: line.leaf, rows: 0, height: delta)
                    }
                }
                while r < to {
                    let leaf = c.leaf, page = store.page(ofLeaf: leaf), rows = store.rowCount(ofLeaf: leaf)
                    let first = c.slot, end = first + min(rows - first, to - r)
                    let kinds = page.kinds, items = page.itemHeights, flags = page.flags
                    let low = page.heightLow, high = page.heightHigh, groups = page.groupHeights
                    // The row after the page's; the next page loads while this one is packed.
                    let next = r &+ (end &- first), after = store.tree.leaves[Int(leaf)].next
                    if next < to { store.prefetchPage(ofLeaf: after, kinds: true, heights: true, items: true) }
                    // The measured rows on the page, then every row's flag and height (the
                    // lines' spans below), in loops of their own.
                    while m < measuredRows.count && Int(measuredRows[m]) < next {
                        let s = first &+ (Int(measuredRows[m]) &- r)
                        items[s] = measuredUnits[m]
                        flags[s] &= keep
                        m &+= 1
                    }
                    for s in first..<end { flags[s] |= set }
                    (low + first).update(repeating: 0, count: end &- first)
                    (high + first).update(repeating: 0, count: end &- first)
                    @inline(__always) func height(_ s: Int) -> Int64 {
                        let units = items[s]
                        return Int64(units == Self.unmeasured ? estimates[Int(kinds[s])] : units)
                    }
                    // One row at a time: a line begun on the page before, a row outside the
                    // grid, a line the page's end cuts.
                    @inline(never) func step(_ line: inout OpenLine, _ s: Int, _ r: Int) {
                        let row = r &+ (s &- first), k = Int(kinds[s]), h = height(s)
                        if line.column == 0 || !inGrid[k] {
                            if line.column > 0 { close(&line, row, leaf) }
                            line = OpenLine(leader: row, leaf: leaf, low: low + s, high: high + s, group: groups + s / Page.groupRows,
                                            tallest: h, column: 1)
                        } else {
                            line.tallest = max(line.tallest, h)
                            line.column &+= 1
                        }
                        if line.column == columns || !inGrid[k] {
                            close(&line, row &+ 1, leaf)
                            line.column = 0
                        }
                    }
                    var s = first
                    while s < end {
                        // Whole lines of grid items on the page: their tallest item on the first.
                        lines: while line.column == 0 && s &+ columns <= end {
                            var tallest: Int64 = 0
                            for j in s..<s &+ columns {
                                guard inGrid[Int(kinds[j])] else { break lines }
                                tallest = max(tallest, height(j))
                            }
                            let row = r &+ (s &- first)
                            let span = lineSpan(leader: row, end: row &+ columns, count: count, height: tallest)
                            low[s] = UInt16(truncatingIfNeeded: span)
                            high[s] = UInt8(truncatingIfNeeded: span >> 16)
                            s &+= columns
                        }
                        guard s < end else { break }
                        repeat {
                            step(&line, s, r)
                            s &+= 1
                        } while s < end && line.column > 0
                    }
                    r = next
                    // The last line closes before the last page's sums.
                    if r == to && line.column > 0 { close(&line, to, leaf) }
                    let total = page.refreshGroups(from: first, count: rows)
                    if manyPages {
                        store.tree.leaves[Int(leaf)].height = total
                    } else {
                        let delta = total - store.tree.leaves[Int(leaf)].height
                        if delta != 0 { store.tree.adjust(leaf: leaf, rows: 0, height: delta) }
                    }
                    c.slot = 0
                    c.leaf = after
                }
            }
        }
        if manyPages { store.tree.refreshAll() }
    }

    /// The column of `row` in its line: 0 for a line's first row and a row outside the
    /// grid.
    func column(_ row: Int, _ store: borrowing RowStore) -> Int { row - lineStart(row, store) }

    /// Re-packs the lines after rows were inserted or removed (the store, line breaks and
    /// item heights updated): from `from` (the first row of the first line the change
    /// touches) up to the first line from which the lines are those of before the change,
    /// so those keep their spans. Rows `resume...` are the rows that were at `resume -
    /// shift...`, and row `resume` was at column `oldColumn` of its line.
    ///
    /// Packing restarts at every row outside the grid and is the same from any row at the
    /// same column, so the old lines come back at the first line start from `resume` on
    /// when row `resume` kept its column (an insert or removal of whole lines: O(change)),
    /// and at the next row outside the grid otherwise (every line in between changes its
    /// items: O(rows to there), the whole rest of a grid without such rows). The first
    /// line's span holds the top padding, so a line that becomes or stops being the first
    /// is packed again too.
    func repack(from: Int, resume: Int, shift: Int, oldColumn: Int, _ store: inout RowStore) {
        let count = store.count
        var stop = count
        if resume < count {
            let newColumn = column(resume, store)
            if newColumn == oldColumn {
                stop = newColumn == 0 ? resume : lineEnd(lineStart(resume, store), store)
            } else {
                let b = Self.firstIndex(in: lineBreaks, atLeast: resume)
                stop = b < lineBreaks.count ? Int(lineBreaks[b]) : count
            }
            if stop < count, stop == 0 || stop - shift == 0 { stop = lineEnd(stop, store) }
        }
        repack(from: from, to: stop, &store)
    }

    /// Recomputes the spans of the lines holding `rows` (ascending) after their item
    /// heights changed.
    func updateLines(holding rows: UnsafeBufferPointer<Int32>, _ store: inout RowStore) {
        var last = -1
        var leaders: [Int32] = [], spans: [UInt32] = []
        for r in rows {
            let s = lineStart(Int(r), store)
            guard s != last else { continue }
            last = s
            let e = lineEnd(s, store)
            var tallest: Int64 = 0
            var c = store.cursor(atRow: s)
            while c.row < e {
                tallest = max(tallest, itemHeight(store.itemUnits(at: c), kind: store.kind(at: c)))
                store.advance(&c)
            }
            leaders.append(Int32(s))
            spans.append(lineSpan(leader: s, end: e, count: store.count, height: tallest))
        }
        leaders.withUnsafeBufferPointer { l in spans.withUnsafeBufferPointer { store.setMeasuredHeights(rows: l, units: $0, clearing: 0) } }
    }
}
