import Testing
@testable import Tessera

// MARK: Rows

/// Random rows that obey a profile's rules: each optional slot is given at random and a
/// row that breaks a rule (exclusive slots, image ranges, counts) is drawn again; groups
/// of selection cells get at least their `groupMinimum` rows.
struct EngineRowFactory {
    let profile: Profile
    let validator: CellMeasurer
    let headers: [CellKind], footers: [CellKind], cells: [CellKind]
    /// Cell kinds with a `groupMinimum` rule, and the rule's minimum.
    let minimums: [UInt16: Int]

    static let words = [
        "Coffee", "Shop", "Salary", "Transfer", "to", "Müller", "Überweisung", "Rent", "April", "Invoice", "4711",
        "−1,234.56", "EUR", "Card", "payment", "Grocery", "Store", "Insurance", "Quarterly", "report", "Order",
        "Purchase", "Laptop", "Approved", "Pending", "日本語", "Ελληνικά", "Привет", "👍🏽", "Zahlung", "a", "b",
    ]

    init(_ profile: Profile) {
        self.profile = profile
        validator = try! CellMeasurer(profile: profile, environment: LayoutEnvironment(width: 375, platform: profile.platforms[0]), textEngine: StubText.engine())
        headers = profile.kinds.filter { $0.role == .header }
        footers = profile.kinds.filter { $0.role == .footer }
        cells = profile.kinds.filter { $0.role == .cell }
        var minimums: [UInt16: Int] = [:]
        for (i, k) in profile.model.kinds.enumerated() {
            for case .groupMinimum(let n) in k.rules { minimums[profile.kinds[i].code] = n }
        }
        self.minimums = minimums
    }

    static func text(_ rng: inout SplitMix64) -> String {
        if rng.chance(0.1) { return rng.pick(sampleTexts.filter { !$0.isEmpty && !$0.contains("\u{0}") }) }
        let n = rng.chance(0.7) ? rng.int(1...4) : rng.int(5...30)
        var words = (0..<n).map { _ in rng.pick(Self.words) }
        if rng.chance(0.05) { words.insert("\n", at: rng.below(words.count)) }
        return words.joined(separator: " ")
    }

    func value(_ slot: CellKind.Slot, _ rng: inout SplitMix64) -> String {
        switch slot.type {
        case "text", "button": return Self.text(&rng)
        case "textList": return (0..<rng.int(1...3)).map { _ in Self.text(&rng) }.joined(separator: "\u{1E}")
        case "box": return "1"
        case "image": return rng.pick(["*", "*", "44", "40", "60", "28", "45", "110", "110x80", "100"])
        case "boxStack": return String(rng.int(1...3))
        default: return ""
        }
    }

    /// Slot strings of a valid row of `kind`.
    func row(_ kind: CellKind, _ rng: inout SplitMix64) -> [String] {
        for _ in 0..<60 {
            var slots = [String](repeating: "", count: kind.valueCount)
            for s in kind.slots {
                guard let i = s.valueIndex else { continue }
                if s.isRequired || rng.chance(0.35) { slots[i] = value(s, &rng) }
            }
            if (try? validator.validate(kind: kind.code, slots: slots, row: 0)) != nil { return slots }
        }
        // Only the required values.
        var slots = [String](repeating: "", count: kind.valueCount)
        for s in kind.slots where s.isRequired { slots[s.valueIndex!] = "Label" }
        if (try? validator.validate(kind: kind.code, slots: slots, row: 0)) == nil { Issue.record("no valid row for \(kind.name)") }
        return slots
    }

    /// Whole groups: an optional header, cells (selection cells at least their minimum),
    /// an optional footer; about `rows` rows.
    func batch(rows: Int, _ rng: inout SplitMix64, ids: inout IDSource) -> EngineBatch {
        var b = EngineBatch(slotsPerRow: profile.kinds.map(\.valueCount).max() ?? 0)
        while b.kinds.count < rows {
            if !headers.isEmpty, rng.chance(0.7) {
                let h = rng.pick(headers)
                b.add(h, row(h, &rng), &ids)
            }
            let kind = rng.pick(cells)
            let n = max(rng.int(1...8), minimums[kind.code] ?? 0)
            let uniform = minimums[kind.code] != nil || rng.chance(0.3)
            for _ in 0..<n {
                let k = uniform ? kind : rng.pick(cells.filter { minimums[$0.code] == nil })
                b.add(k, row(k, &rng), &ids)
            }
            if !footers.isEmpty, rng.chance(0.3) {
                let f = rng.pick(footers)
                b.add(f, row(f, &rng), &ids)
            }
        }
        return b
    }
}

/// Rows to append or insert, as the engine takes them.
struct EngineBatch {
    var ids: [UInt64] = []
    var kinds: [UInt16] = []
    var slots: [[String]] = []
    var text: RowText

    init(slotsPerRow: Int) { text = RowText(slotsPerRow: slotsPerRow) }

    mutating func add(_ kind: CellKind, _ values: [String], _ ids: inout IDSource) {
        self.ids.append(ids.next())
        kinds.append(kind.code)
        slots.append(values)
        text.append(values)
    }
}

// MARK: The naive model

/// A profile-driven list computed the naive way: every clean row measured from scratch by
/// a fresh `CellMeasurer` per environment, grid lines packed by a plain loop, offsets by
/// prefix sums, the anchoring rule applied after every change. Which rows are dirty is
/// read from the engine after environment changes (it may flag more than needed) and
/// after budgeted measurements (the model checks they are the next ones in priority
/// order); everything else is the model's own.
final class ProfileListModel {
    let profile: Profile
    let makeTextEngine: () -> TextLayoutEngine
    var env: LayoutEnvironment
    var viewport: Double
    var overscan: Double
    var scrollOffset = 0.0
    var anchor: ScrollAnchor?
    /// In a grid, the padding above the anchor line's items that the anchor's offset
    /// counts: the grid's padding when the anchor is row 0 (the first line), else 0.
    var anchorPadding = 0.0

    var ids: [UInt64] = []
    var kinds: [UInt16] = []
    var slots: [[String]] = []
    var dirty: [Bool] = []
    /// Each row's last measured height (units), nil until its first measurement.
    var measured: [Int64?] = []

    let gridCodes: Set<UInt16>
    let roles: [UInt16: CellKind.Role]
    let sticky: Set<UInt16>
    private var measurers: [String: CellMeasurer] = [:]
    private var freshCache: [String: [UInt64: Int64]] = [:]

    init(profile: Profile, env: LayoutEnvironment, viewport: Double, overscan: Double, makeTextEngine: @escaping () -> TextLayoutEngine) {
        self.profile = profile
        self.env = env
        self.viewport = viewport
        self.overscan = overscan
        self.makeTextEngine = makeTextEngine
        gridCodes = Set(profile.gridKinds.map { profile.kind(named: $0)!.code })
        roles = Dictionary(uniqueKeysWithValues: profile.kinds.map { ($0.code, $0.role) })
        sticky = Set(profile.kinds.filter(\.isSticky).map(\.code))
    }

    var count: Int { ids.count }
    var isGrid: Bool { profile.hasGrid }

    static func key(_ e: LayoutEnvironment) -> String {
        "\(e.width)|\(e.platform)|\(e.editMode)|\(e.fontScale)|\(e.parameters.sorted { $0.key < $1.key })"
    }

    /// A fresh measurer for the environment (one per environment, never reused across).
    var measurer: CellMeasurer {
        let k = Self.key(env)
        if let m = measurers[k] { return m }
        let m = try! CellMeasurer(profile: profile, environment: env, textEngine: makeTextEngine())
        measurers[k] = m
        return m
    }

    /// Row `r` measured from scratch in the current environment, in units.
    func fresh(_ r: Int) -> Int64 {
        let k = Self.key(env)
        if let h = freshCache[k]?[ids[r]] { return h }
        let h = Int64(measurer.height(kind: kinds[r], slots: slots[r]) * 64)
        freshCache[k, default: [:]][ids[r]] = h
        return h
    }

    /// Drops cached fresh heights of rows whose values changed (the cache is by id).
    func forgetFreshHeights(of ids: [UInt64]) {
        for k in freshCache.keys { for id in ids { freshCache[k]![id] = nil } }
    }

    func estimate(_ kind: UInt16) -> Int64 {
        Int64((profile.kind(code: kind)!.estimatedHeight(on: env.platform) * 64).rounded())
    }

    /// A row's own height now: measured from scratch when clean, else its last measurement
    /// or its kind's estimate.
    func itemUnits(_ r: Int) -> Int64 { dirty[r] ? (measured[r] ?? estimate(kinds[r])) : fresh(r) }

    // MARK: Geometry

    var grid: GridMetrics { measurer.grid! }

    /// Grid lines as row ranges (every row its own line outside grid mode).
    var lines: [Range<Int>] {
        guard isGrid else { return (0..<count).map { $0..<($0 + 1) } }
        var result: [Range<Int>] = []
        var start = 0, n = 0
        let columns = grid.columnCount
        for r in 0..<count {
            if !gridCodes.contains(kinds[r]) {
                if n > 0 { result.append(start..<r) }
                result.append(r..<(r + 1))
                n = 0
                continue
            }
            if n == 0 { start = r }
            n += 1
            if n == columns {
                result.append(start..<(r + 1))
                n = 0
            }
        }
        if n > 0 { result.append(start..<count) }
        return result
    }

    /// What the store must hold per row: the row's height, or in a grid the line's span
    /// on its first row and 0 on the others.
    var rowUnits: [Int64] {
        guard isGrid else { return (0..<count).map(itemUnits) }
        var units = [Int64](repeating: 0, count: count)
        let pad = Int64(grid.padding * 64), gap = Int64(grid.rowGap * 64)
        for line in lines {
            let tallest = line.map(itemUnits).max()!
            units[line.lowerBound] = (line.lowerBound == 0 ? pad : 0) + tallest + (line.upperBound == count ? pad : gap)
        }
        return units
    }

    /// Row tops (units), count + 1 entries.
    var prefix: [Int64] {
        var p: [Int64] = [0]
        for u in rowUnits { p.append(p.last! + u) }
        return p
    }

    var totalHeight: Double { Double(prefix.last!) / 64 }
    var maximumScrollOffset: Double { max(totalHeight - viewport, 0) }

    /// The row covering unit `y` (< total): the first whose bottom is past it.
    func covering(_ y: Int64, _ p: [Int64]) -> Int? {
        guard y < p.last! else { return nil }
        var lo = 0, hi = count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if p[mid + 1] > y { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    func leader(of r: Int) -> Int { lines.first { $0.contains(r) }!.lowerBound }

    // MARK: Anchoring

    func anchor(at y: Double) -> ScrollAnchor? {
        let p = prefix
        guard let r = covering(Int64((y * 64).rounded(.down)), p) else { return nil }
        return ScrollAnchor(id: ids[r], offsetInRow: y - Double(p[r]) / 64)
    }

    func scroll(to y: Double) {
        scrollOffset = min(y, maximumScrollOffset)
        setAnchor()
    }

    /// The anchor at the scroll offset and the padding its offset counts.
    func setAnchor() {
        anchor = anchor(at: scrollOffset)
        anchorPadding = isGrid && anchor != nil && ids[0] == anchor!.id ? grid.padding : 0
    }

    /// The documented rule: the anchor row's line keeps its place (in a grid, its items
    /// do: the padding above the first line's items leaves the distance into the line
    /// when the line stops being the first, and joins it when the line becomes the
    /// first), at most the line's span into it; then the offset is clamped and the row
    /// under it becomes the anchor.
    func reanchor() {
        if let anchor, let r = ids.firstIndex(of: anchor.id) {
            let p = prefix, units = rowUnits, s = leader(of: r)
            let padding = isGrid && s == 0 ? grid.padding : 0
            scrollOffset = Double(p[s]) / 64 + min(anchor.offsetInRow + (padding - anchorPadding), Double(units[s]) / 64)
        }
        scrollOffset = min(scrollOffset, maximumScrollOffset)
        setAnchor()
    }

    // MARK: Changes

    func insert(_ b: EngineBatch, at index: Int) {
        ids.insert(contentsOf: b.ids, at: index)
        kinds.insert(contentsOf: b.kinds, at: index)
        slots.insert(contentsOf: b.slots, at: index)
        dirty.insert(contentsOf: repeatElement(true, count: b.ids.count), at: index)
        measured.insert(contentsOf: repeatElement(nil, count: b.ids.count), at: index)
        reanchor()
    }

    func remove(_ range: Range<Int>) {
        ids.removeSubrange(range)
        kinds.removeSubrange(range)
        slots.removeSubrange(range)
        dirty.removeSubrange(range)
        measured.removeSubrange(range)
        reanchor()
    }

    /// Switches the environment. Rows whose fresh height changes must be flagged by the
    /// engine (checked); the engine may flag more, and the model takes its flags.
    func setEnvironment(_ e: LayoutEnvironment, engineDirty: [Bool], _ c: Checker) {
        let before = (0..<count).map { dirty[$0] ? nil : fresh($0) }
        env = e
        for r in 0..<count {
            if let old = before[r], fresh(r) != old, !engineDirty[r] {
                c.fail("row \(r) (\(profile.kind(code: kinds[r])!.name)) measures \(fresh(r)) units now, \(old) before, and was not flagged dirty")
            }
            if engineDirty[r] && !dirty[r] {
                dirty[r] = true
                measured[r] = before[r]
            }
            if !engineDirty[r] && dirty[r] { c.fail("row \(r) was dirty and is clean after an environment change") }
        }
        reanchor()
    }

    /// The order `measure(budget:)` takes dirty rows in.
    func priorityOrder() -> [Int] {
        let visible = windowRows(before: 0, after: 0), over = windowRows(before: overscan, after: overscan)
        var order = visible.filter { dirty[$0] }
        order += (visible.upperBound..<over.upperBound).filter { dirty[$0] }
        order += (over.lowerBound..<visible.lowerBound).reversed().filter { dirty[$0] }
        // The rest by distance from the overscan's edges, below first on a tie.
        let rest = (0..<count).filter { dirty[$0] && !over.contains($0) }.map { r in
            r >= over.upperBound ? (distance: r - over.upperBound, side: 0, row: r) : (distance: over.lowerBound - 1 - r, side: 1, row: r)
        }
        return order + rest.sorted { ($0.distance, $0.side) < ($1.distance, $1.side) }.map(\.row)
    }

    /// Marks `rows` measured (their heights become fresh), then re-anchors once.
    func measured(_ rows: [Int]) {
        for r in rows {
            dirty[r] = false
            measured[r] = fresh(r)
        }
        reanchor()
    }

    // MARK: Window

    /// Rows of `[scrollOffset - before, scrollOffset + viewport + after)`, whole lines in a
    /// grid; an empty window is the empty range at the row under the offset.
    func windowRows(before: Double, after: Double) -> Range<Int> {
        guard count > 0 else { return 0..<0 }
        let p = prefix
        let start = max(0, Int64(((scrollOffset - before) * 64).rounded(.down)))
        let end = Int64(((scrollOffset + viewport + after) * 64).rounded(.up))
        if viewport == 0 && before == 0 && after == 0 {
            let r = covering(Int64((scrollOffset * 64).rounded(.down)), p) ?? count
            return r..<r
        }
        guard let first = covering(start, p) else { return count..<count }
        var last = first
        for line in lines where line.lowerBound >= first {
            if p[line.lowerBound] >= end { break }
            last = line.upperBound
        }
        return first..<last
    }

    func itemY(_ r: Int, _ p: [Int64]) -> Int64 {
        guard isGrid else { return p[r] }
        let s = leader(of: r)
        return s == 0 ? p[s] + Int64(grid.padding * 64) : p[s]
    }

    /// What `ListEngine.window` must report.
    func window() -> (items: [VisibleItem], sticky: VisibleItem?) {
        let p = prefix
        let range = windowRows(before: overscan, after: overscan)
        var items: [VisibleItem] = []
        let width = Double(Int64((env.width * 64).rounded())) / 64
        let lines = self.lines
        for r in range {
            var flags: RowFlags = dirty[r] ? [.dirty] : []
            if isGrid || measured[r] != nil { flags.insert(.measured) }
            if drawsDivider(r) { flags.insert(.divider) }
            var item = VisibleItem(row: r, id: ids[r], x: 0, y: Double(itemY(r, p)) / 64, width: width, height: Double(itemUnits(r)) / 64, kind: kinds[r], flags: flags)
            if isGrid && gridCodes.contains(kinds[r]) {
                let line = lines.first { $0.contains(r) }!
                item.x = grid.x(ofColumn: r - line.lowerBound)
                item.width = measurer.cellWidth(kind: kinds[r], slots: slots[r])
            }
            items.append(item)
        }
        return (items, stickyHeader(p))
    }

    func drawsDivider(_ r: Int) -> Bool {
        guard roles[kinds[r]] == .cell, r + 1 < count, roles[kinds[r + 1]] == .cell else { return false }
        guard !(isGrid && gridCodes.contains(kinds[r])) else { return false }
        return measurer.frames(kind: kinds[r], slots: slots[r]).divider != nil
    }

    func stickyHeader(_ p: [Int64]) -> VisibleItem? {
        guard let r = covering(Int64((scrollOffset * 64).rounded(.down)), p) else { return nil }
        // Back to the group's header; a footer before r ended another group.
        var h: Int? = nil
        var i = r
        while i >= 0 {
            let role = roles[kinds[i]]!
            if role == .header { h = i; break }
            if role == .footer && i != r { break }
            i -= 1
        }
        guard let h, sticky.contains(kinds[h]) else { return nil }
        var end = count
        for j in (h + 1)..<count where roles[kinds[j]] != .cell {
            end = roles[kinds[j]] == .footer ? j + 1 : j
            break
        }
        let endY = end < count ? itemY(end, p) : p.last!
        let height = itemUnits(h)
        let y = min(scrollOffset, Double(endY - height) / 64)
        var flags: RowFlags = dirty[h] ? [.dirty] : []
        if isGrid || measured[h] != nil { flags.insert(.measured) }
        let width = Double(Int64((env.width * 64).rounded())) / 64
        return VisibleItem(row: h, id: ids[h], x: 0, y: y, width: width, height: Double(height) / 64, kind: kinds[h], flags: flags)
    }
}

// MARK: Checks

/// The engine's dirty flags, per row.
func engineDirtyFlags(_ engine: borrowing ListEngine) -> [Bool] {
    (0..<engine.store.count).map { try! engine.store.row($0).flags.contains(.dirty) }
}

/// Everything the engine reports against the model: rows, heights, flags, offsets, anchor,
/// window, sticky header.
func verifyProfileEngine(_ engine: borrowing ListEngine, _ m: ProfileListModel, _ c: Checker, returned: Double? = nil) {
    engine._checkInvariants()
    c.equal(engine.store.count, m.count, "count")
    guard engine.store.count == m.count else { return }
    let units = m.rowUnits
    var dirty = 0
    for r in 0..<m.count {
        let info = try! engine.store.row(r)
        c.equal(info.id, m.ids[r], "id of row \(r)")
        c.equal(info.flags.contains(.dirty), m.dirty[r], "dirty flag of row \(r)")
        c.equal(info.height, Double(units[r]) / 64, "height of row \(r) (\(m.profile.kind(code: m.kinds[r])!.name), dirty \(m.dirty[r]))")
        if m.dirty[r] { dirty += 1 }
    }
    c.equal(engine.dirtyCount, dirty, "dirtyCount")
    c.equal(engine.store.totalHeight, m.totalHeight, "totalHeight")
    if let returned { c.equal(returned, engine.scrollOffset, "returned offset") }
    c.equal(engine.scrollOffset, m.scrollOffset, "scrollOffset")
    c.equal(engine.anchor, m.anchor, "anchor")
    let (items, sticky) = m.window()
    withItemBuffer(items.count + 8) { buffer in
        guard let w = try? engine.window(into: buffer) else { return c.fail("window threw") }
        c.equal(w.count, items.count, "window count")
        if w.count == items.count {
            for i in 0..<items.count { c.equal(buffer[i], items[i], "window item \(i)") }
        }
        c.equal(w.stickyHeader, sticky, "sticky header")
    }
}

func withItemBuffer<R>(_ capacity: Int, _ body: (UnsafeMutableBufferPointer<VisibleItem>) -> R) -> R {
    let buffer = UnsafeMutableBufferPointer<VisibleItem>.allocate(capacity: max(capacity, 1))
    defer { buffer.deallocate() }
    return body(buffer)
}

/// Where the items of a row's line start, and how much of its line's span lies above
/// them (the padding, for the first line of a grid): its top in a list.
func itemTop(_ engine: borrowing ListEngine, row r: Int) -> (top: Double, padding: Double) {
    let s = engine.layout?.lineStart(r, engine.store) ?? r
    let padding = engine.layout?.isGrid == true && s == 0 ? engine.grid!.padding : 0
    return (try! engine.store.offset(ofRow: s) + padding, padding)
}

/// The on-screen y of the anchor row's items (its line's, in a grid) and the distance
/// from them to the viewport's top.
func anchorScreenY(_ engine: borrowing ListEngine, _ m: ProfileListModel) -> (id: UInt64, y: Double, inRow: Double)? {
    guard let a = engine.anchor, let r = engine.store.index(of: a.id) else { return nil }
    let (top, padding) = itemTop(engine, row: r)
    return (a.id, top - engine.scrollOffset, a.offsetInRow - padding)
}

/// After a change: the anchor row's items, if the row survived, are where they were on
/// screen, unless the offset had to be clamped or its line's span below its items got
/// shorter than the distance into it.
func checkAnchorStill(_ before: (id: UInt64, y: Double, inRow: Double)?, _ engine: borrowing ListEngine, _ c: Checker) {
    guard let before, let r = engine.store.index(of: before.id) else { return }
    let s = engine.layout?.lineStart(r, engine.store) ?? r
    let (top, padding) = itemTop(engine, row: r)
    let span = try! engine.store.row(s).height - padding
    guard before.inRow <= span, top + before.inRow <= engine.maximumScrollOffset else { return }
    c.equal(top - engine.scrollOffset, before.y, "anchor row \(before.id) moved on screen")
}
