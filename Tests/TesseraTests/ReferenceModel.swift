import Testing
import Tessera

/// The unit rules of Sources/Tessera/Support/LayoutUnit.swift, restated independently:
/// heights round to the nearest 1/64 pt; scroll offsets are floored to 1/64 pt when
/// locating rows (and clamped at 2^62 units).
enum Units {
    static let perPoint = 64.0
    /// The documented maximum, in units (the public constant is in points).
    static let maximumRowUnits = Int64(RowStore.maximumRowHeight * perPoint)

    /// Nil when the height is invalid (negative, NaN, infinite, over the maximum).
    static func height(_ points: Double) -> Int64? {
        guard points.isFinite, points >= 0 else { return nil }
        let u = (points * perPoint).rounded()
        guard u <= Double(maximumRowUnits) else { return nil }
        return Int64(u)
    }

    static func flooredOffset(_ points: Double) -> Int64 {
        let u = (points * perPoint).rounded(.down)
        return u >= 0x1p62 ? Int64(1) << 62 : Int64(u)
    }

    static func points(_ units: Int64) -> Double { Double(units) / perPoint }
}

/// One row of the naive model: every column, plus the text slots exactly as given.
struct RefRow: Equatable {
    var id: UInt64
    var kind: UInt16
    var units: Int64
    var flags: RowFlags
    /// The row's slots (`slotsPerRow` of them when text was given, else none).
    var slots: [[UInt8]]

    /// The slot counts `textSlotCount(ofRow:)` may report: the slots given, or 0 when
    /// they are all empty (the store then keeps no text record for the row, and the
    /// documentation does not say which of the two a host sees).
    var acceptedSlotCounts: Set<Int> { slots.contains { !$0.isEmpty } ? [slots.count] : [0, slots.count] }

    func text(slot: Int) -> [UInt8] { slot >= 0 && slot < slots.count ? slots[slot] : [] }
}

/// The columns `RowStore.row(_:)` reports (`RowInfo` has no public initialiser).
struct RowFields: Equatable {
    var id: UInt64
    var kind: UInt16
    var flags: RowFlags
    var height: Double

    init(id: UInt64, kind: UInt16, flags: RowFlags, height: Double) {
        self.id = id
        self.kind = kind
        self.flags = flags
        self.height = height
    }

    init(_ info: RowInfo) { self.init(id: info.id, kind: info.kind, flags: info.flags, height: info.height) }
}

/// A batch of rows as the public API takes it, plus the rows the model expects from it.
struct Batch {
    var ids: [UInt64]
    var kinds: [UInt16]
    var heights: [Double]?
    var text: RowText?

    var count: Int { ids.count }

    func refRows(estimates: [Int64]) -> [RefRow] {
        (0..<ids.count).map { i in
            let kind = kinds[i]
            var slots: [[UInt8]] = []
            if let text {
                let s = text.slotsPerRow
                slots = (0..<s).map { k in Array(text.utf8[text.offsets[i * s + k]..<text.offsets[i * s + k + 1]]) }
            }
            if let heights {
                return RefRow(id: ids[i], kind: kind, units: Units.height(heights[i])!, flags: .measured, slots: slots)
            }
            return RefRow(id: ids[i], kind: kind, units: estimates[Int(kind)], flags: [], slots: slots)
        }
    }
}

/// The naive reference: an array of rows and linear prefix sums, recomputed when needed.
final class ReferenceModel {
    let estimates: [Int64]
    private(set) var rows: [RefRow] = []
    private var cachedPrefix: [Int64]? = [0]

    init(estimatedHeights: [Double]) {
        estimates = estimatedHeights.map { Units.height($0)! }
    }

    var count: Int { rows.count }

    /// prefix[r] is the top of row r; prefix[count] the total height (units).
    var prefix: [Int64] {
        if let cachedPrefix { return cachedPrefix }
        var p = [Int64](repeating: 0, count: rows.count + 1)
        for (i, row) in rows.enumerated() { p[i + 1] = p[i] + row.units }
        cachedPrefix = p
        return p
    }

    var totalUnits: Int64 { prefix[rows.count] }
    var totalHeight: Double { Units.points(totalUnits) }

    func index(of id: UInt64) -> Int? { rows.firstIndex { $0.id == id } }

    /// The row covering unit offset `y` (top <= y < bottom), nil at or past the end.
    func row(coveringUnits y: Int64) -> Int? {
        let p = prefix
        guard y < p[rows.count] else { return nil }
        // Smallest r with p[r + 1] > y.
        var lo = 0, hi = rows.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if p[mid + 1] > y { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    func rowAt(offset y: Double) -> (row: Int, offsetInRow: Double)? {
        guard let r = row(coveringUnits: Units.flooredOffset(y)) else { return nil }
        return (r, y - Units.points(prefix[r]))
    }

    func info(_ r: Int) -> RowFields {
        let row = rows[r]
        return RowFields(id: row.id, kind: row.kind, flags: row.flags, height: Units.points(row.units))
    }

    func visibleRow(_ r: Int) -> VisibleRow {
        let row = rows[r]
        return VisibleRow(
            row: r, id: row.id, y: Units.points(prefix[r]), height: Units.points(row.units), kind: row.kind,
            flags: row.flags)
    }

    /// The documented window rule: rows whose bottom is below the window's top and whose
    /// top is above its bottom, for the window [max(0, y - before), y + viewport + after)
    /// where y is the offset floored to units. Empty when that window is empty. Values
    /// are exact dyadic doubles in the tests, so the arithmetic below is exact.
    func window(offset: Double, viewport: Double, before: Double, after: Double) -> [VisibleRow] {
        // The exact window in units (multiplying by 64 is exact), not rounded to whole units.
        let y = offset * Units.perPoint
        let start = max(0, y - before * Units.perPoint)
        let end = y + viewport * Units.perPoint + after * Units.perPoint
        guard start < end else { return [] }
        let p = prefix
        var out: [VisibleRow] = []
        for r in 0..<rows.count where Double(p[r + 1]) > start && Double(p[r]) < end {
            out.append(visibleRow(r))
        }
        return out
    }

    /// The scroll offset `RowStore.scrollOffset(toRow:anchor:viewport:)` documents.
    func scrollOffset(toRow r: Int, anchor: ScrollPosition, viewport: Double) -> Double {
        let top = Units.points(prefix[r]), height = Units.points(rows[r].units)
        let target: Double
        switch anchor {
        case .top: target = top
        case .center: target = top + height / 2 - viewport / 2
        case .bottom: target = top + height - viewport
        }
        return min(max(target, 0), max(totalHeight - viewport, 0))
    }

    // MARK: Mutations

    func insert(_ new: [RefRow], at index: Int) {
        rows.insert(contentsOf: new, at: index)
        cachedPrefix = nil
    }

    func remove(_ range: Range<Int>) {
        rows.removeSubrange(range)
        cachedPrefix = nil
    }

    func setHeight(units: Int64, ofRow r: Int) {
        rows[r].units = units
        rows[r].flags.insert(.measured)
        cachedPrefix = nil
    }

    func setHeights(units: [Int64], startingAt start: Int) {
        for (k, u) in units.enumerated() {
            rows[start + k].units = u
            rows[start + k].flags.insert(.measured)
        }
        cachedPrefix = nil
    }

    func invalidate(_ r: Int) {
        rows[r].units = estimates[Int(rows[r].kind)]
        rows[r].flags.remove(.measured)
        cachedPrefix = nil
    }

    func updateFlags(_ r: Int, setting: RowFlags, clearing: RowFlags) {
        rows[r].flags.subtract(clearing)
        rows[r].flags.formUnion(setting)
    }

    func removeAll() {
        rows.removeAll()
        cachedPrefix = nil
    }
}

/// Records the first disagreements of a long randomised run (as test issues) and lets
/// the run stop there, with enough context to replay it.
final class Checker {
    var context: String
    private(set) var failures = 0
    let limit: Int

    init(_ context: String, limit: Int = 5) {
        self.context = context
        self.limit = limit
    }

    var ok: Bool { failures == 0 }

    func fail(_ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        failures += 1
        if failures <= limit {
            Issue.record(Comment(rawValue: "\(context): \(message)"), sourceLocation: sourceLocation)
        }
    }

    @discardableResult
    func check(
        _ condition: Bool, _ message: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        if !condition { fail(message(), sourceLocation: sourceLocation) }
        return condition
    }

    func equal<T: Equatable>(
        _ actual: T, _ expected: T, _ what: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        if actual != expected { fail("\(what()): got \(actual), expected \(expected)", sourceLocation: sourceLocation) }
    }
}

// MARK: Comparing a store with the model

/// Count, total height and every column, offset, id lookup and text slot of every row.
func verifyAll(_ store: borrowing RowStore, _ ref: ReferenceModel, _ c: Checker) {
    c.equal(store.count, ref.count, "count")
    c.equal(store.totalHeight, ref.totalHeight, "totalHeight")
    for r in 0..<ref.count {
        verifyRow(store, ref, r, c)
        guard c.ok else { return }
    }
}

func verifyRow(_ store: borrowing RowStore, _ ref: ReferenceModel, _ r: Int, _ c: Checker) {
    do {
        c.equal(RowFields(try store.row(r)), ref.info(r), "row(\(r))")
        c.equal(try store.offset(ofRow: r), Units.points(ref.prefix[r]), "offset(ofRow: \(r))")
        c.equal(store.index(of: ref.rows[r].id), r, "index(of: id of row \(r))")
        verifyText(store, ref, r, c)
    } catch {
        c.fail("row \(r): unexpected \(error)")
    }
}

func verifyText(_ store: borrowing RowStore, _ ref: ReferenceModel, _ r: Int, _ c: Checker) {
    do {
        let row = ref.rows[r]
        let slotCount = try store.textSlotCount(ofRow: r)
        c.check(row.acceptedSlotCounts.contains(slotCount), "textSlotCount(ofRow: \(r)) = \(slotCount), expected one of \(row.acceptedSlotCounts)")
        for slot in 0...row.slots.count {
            let text = try store.text(ofRow: r, slot: slot)
            c.equal(Array(text.utf8), row.text(slot: slot), "text(ofRow: \(r), slot: \(slot))")
        }
    } catch {
        c.fail("text of row \(r): unexpected \(error)")
    }
}

func verifyRowAtOffset(_ store: borrowing RowStore, _ ref: ReferenceModel, _ y: Double, _ c: Checker) {
    do {
        let got = try store.row(atOffset: y)
        let want = ref.rowAt(offset: y)
        c.check(
            got?.row == want?.row && got?.offsetInRow == want?.offsetInRow,
            "row(atOffset: \(y)) = \(String(describing: got)), expected \(String(describing: want))")
    } catch {
        c.fail("row(atOffset: \(y)): unexpected \(error)")
    }
}

func verifyWindow(
    _ store: borrowing RowStore, _ ref: ReferenceModel, offset: Double, viewport: Double, before: Double,
    after: Double, buffer: UnsafeMutableBufferPointer<VisibleRow>, _ c: Checker
) {
    let want = ref.window(offset: offset, viewport: viewport, before: before, after: after)
    let what = "window(offset: \(offset), viewport: \(viewport), before: \(before), after: \(after))"
    do {
        let got = try store.window(
            offset: offset, viewport: viewport, overscanBefore: before, overscanAfter: after, into: buffer)
        guard c.check(got.count == want.count, "\(what): \(got.count) rows \(got.rows), expected \(want.count) rows \(want.first?.row ?? -1)...") else { return }
        if let first = want.first { c.equal(got.rows, first.row..<(first.row + want.count), "\(what) range") }
        for i in 0..<want.count where buffer[i] != want[i] {
            c.fail("\(what) entry \(i): got \(buffer[i]), expected \(want[i])")
            return
        }
    } catch {
        c.fail("\(what): unexpected \(error) (expected \(want.count) rows)")
    }
}
