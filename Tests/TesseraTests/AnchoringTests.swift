import Testing
import Tessera

/// The model's side of a `ListEngine`: the documented anchoring rules. After a change the
/// anchor row's top plus the same distance into it (at most its new height) becomes the
/// scroll offset; when the anchor row is gone the offset stays; either way it is clamped to
/// `0...max(0, totalHeight - viewport)` and the row covering it becomes the new anchor.
final class EngineModel {
    let ref: ReferenceModel
    var scrollOffset = 0.0
    var viewport: Double
    var anchor: ScrollAnchor?

    init(ref: ReferenceModel, viewport: Double) {
        self.ref = ref
        self.viewport = viewport
        anchor = anchor(at: 0)
    }

    var maximumScrollOffset: Double { max(ref.totalHeight - viewport, 0) }

    func anchor(at y: Double) -> ScrollAnchor? {
        ref.rowAt(offset: y).map { ScrollAnchor(id: ref.rows[$0.row].id, offsetInRow: $0.offsetInRow) }
    }

    func scroll(to y: Double) {
        scrollOffset = min(y, maximumScrollOffset)
        anchor = anchor(at: scrollOffset)
    }

    func reanchor() {
        if let anchor, let r = ref.index(of: anchor.id) {
            scrollOffset = Units.points(ref.prefix[r]) + min(anchor.offsetInRow, Units.points(ref.rows[r].units))
        }
        scrollOffset = min(scrollOffset, maximumScrollOffset)
        anchor = anchor(at: scrollOffset)
    }
}

/// Where a row is on screen: its top minus the scroll offset (nil when it is gone).
func screenY(_ engine: borrowing ListEngine, id: UInt64) -> Double? {
    guard let r = engine.store.index(of: id), let top = try? engine.store.offset(ofRow: r) else { return nil }
    return top - engine.scrollOffset
}

func verifyEngine(_ engine: borrowing ListEngine, _ m: EngineModel, returned: Double?, _ c: Checker) {
    engine.store._checkInvariants()
    c.equal(engine.store.count, m.ref.count, "count")
    c.equal(engine.store.totalHeight, m.ref.totalHeight, "totalHeight")
    if let returned { c.equal(returned, engine.scrollOffset, "returned offset") }
    c.equal(engine.scrollOffset, m.scrollOffset, "scrollOffset")
    c.equal(engine.anchor, m.anchor, "anchor")
    c.equal(engine.viewport, m.viewport, "viewport")
    c.equal(engine.maximumScrollOffset, m.maximumScrollOffset, "maximumScrollOffset")
}

@Suite struct AnchoringTests {
    // MARK: Randomised

    /// Inserts, removes and height changes above, inside and below the viewport; after
    /// each, the engine must match the model, and whenever the anchor row survives (no
    /// shorter than the distance into it) and the offset is not clamped, the anchor row's
    /// on-screen y must not have moved at all.
    @Test(arguments: 1...24)
    func anchorRowStaysStillUnderRandomChanges(seed: Int) throws {
        var rng = SplitMix64(seed: UInt64(seed) &* 0x5DEECE66D)
        let estimates: [Double] = [44, 0, 60.5, 17.015625]
        let pageCapacity = rng.int(2...8)
        var store = try RowStore(estimatedHeights: estimates, pageCapacity: pageCapacity, treeFanout: rng.int(4...6))
        let ref = ReferenceModel(estimatedHeights: estimates)
        var ids = IDSource(seed: UInt64(seed))
        func batch(_ k: Int) -> Batch {
            Batch(
                ids: (0..<k).map { _ in ids.next() }, kinds: (0..<k).map { _ in UInt16(rng.below(4)) },
                heights: rng.chance(0.5) ? (0..<k).map { _ in Double(rng.int(0...(120 * 64))) / 64 } : nil, text: nil)
        }
        let initial = batch(rng.int(300...800))
        try initial.append(to: &store)
        ref.insert(initial.refRows(estimates: ref.estimates), at: 0)
        let viewport = Double(rng.int(100...900))
        var engine = try ListEngine(store: store, viewport: viewport)
        let m = EngineModel(ref: ref, viewport: viewport)
        let c = Checker("seed \(seed)")
        verifyEngine(engine, m, returned: nil, c)
        var stillChecks = 0
        withBuffer(2_000) { buffer in
            for step in 0..<400 {
                c.context = "seed \(seed), step \(step)"
                if step % 25 == 0 || rng.chance(0.05) {
                    // Scroll somewhere (multiples of 1/64 and 1/256 pt keep all sums exact).
                    let y = Double(rng.below(Int(m.maximumScrollOffset * 256) + 1)) / 256
                    let got = try! engine.scroll(to: y)
                    m.scroll(to: y)
                    verifyEngine(engine, m, returned: got, c)
                }
                guard let anchor = engine.anchor, let anchorRow = ref.index(of: anchor.id) else {
                    let b = batch(rng.int(50...200))
                    let got = try! engine.append(ids: b.ids, kinds: b.kinds, heights: b.heights)
                    ref.insert(b.refRows(estimates: ref.estimates), at: ref.count)
                    m.reanchor()
                    verifyEngine(engine, m, returned: got, c)
                    continue
                }
                let yBefore = screenY(engine, id: anchor.id)
                let n = ref.count
                // Rows above the anchor row, the visible ones from it on, and those below.
                let lastVisible = ref.row(coveringUnits: Units.flooredOffset(m.scrollOffset + viewport) - 1) ?? (n - 1)
                let region = rng.below(3)
                let range: ClosedRange<Int> =
                    switch region {
                    case 0: 0...max(0, anchorRow - 1)
                    case 1: anchorRow...max(anchorRow, lastVisible)
                    default: min(n - 1, lastVisible + 1)...(n - 1)
                    }
                let r = rng.int(range)
                let got: Double
                switch rng.below(5) {
                case 0, 1:
                    let b = batch(rng.chance(0.7) ? rng.int(1...3) : rng.int(4...(4 * pageCapacity + 10)))
                    let at = rng.chance(0.2) ? r + 1 : r
                    got = try! engine.insert(ids: b.ids, kinds: b.kinds, heights: b.heights, at: at)
                    ref.insert(b.refRows(estimates: ref.estimates), at: at)
                case 2 where n > 200:
                    let k = min(n - r, rng.chance(0.7) ? rng.int(1...3) : rng.int(4...(4 * pageCapacity)))
                    got = try! engine.removeRows(r..<(r + k))
                    ref.remove(r..<(r + k))
                case 3:
                    let h = Double(rng.int(0...(150 * 64))) / 64
                    got = try! engine.setHeight(h, ofRow: r)
                    ref.setHeight(units: Units.height(h)!, ofRow: r)
                default:
                    got = try! engine.invalidateHeight(ofRow: r)
                    ref.invalidate(r)
                }
                // The documented expectation...
                m.reanchor()
                verifyEngine(engine, m, returned: got, c)
                // ...and the property it exists for, stated directly.
                if let i = ref.index(of: anchor.id), Units.points(ref.rows[i].units) >= anchor.offsetInRow,
                    Units.points(ref.prefix[i]) + anchor.offsetInRow <= m.maximumScrollOffset
                {
                    c.equal(screenY(engine, id: anchor.id), yBefore, "screen y of anchor row (region \(region))")
                    stillChecks += 1
                }
                // What the host then draws.
                let want = ref.window(offset: m.scrollOffset, viewport: viewport, before: 32, after: 32)
                if let w = try? engine.window(overscan: 32, into: buffer) {
                    c.check(w.count == want.count && Array(buffer[0..<w.count]) == want, "engine window")
                } else {
                    c.fail("engine window threw")
                }
                guard c.ok else { return }
                if ref.count > 1_500 { _ = try! engine.removeRows(0..<500); ref.remove(0..<500); m.reanchor() }
            }
        }
        #expect(stillChecks > 250, "the anchor row survived unclamped in only \(stillChecks) of 400 changes")
    }

    // MARK: Named scenarios

    /// A chat: the user reads in the middle while new messages arrive at the top.
    @Test func chatMessagesArrivingAtTheTopDoNotMoveWhatIsBeingRead() throws {
        var engine = try ListEngine(store: makeStore([60, 24]), viewport: 700)
        let first = makeBatch(200, firstID: 1, kindCount: 1)  // 200 × 60 pt
        try engine.append(ids: first.ids, kinds: first.kinds)
        try engine.scroll(to: 6_000.5)
        let visible: [UInt64] = withBuffer(64) { buffer in
            let w = try! engine.window(into: buffer)
            return buffer[0..<w.count].map(\.id)
        }
        #expect(visible == Array(101...112))  // rows 100...111 intersect [6000.5, 6700.5)
        let before = visible.map { screenY(engine, id: $0)! }
        var nextID: UInt64 = 10_000
        var offset = engine.scrollOffset
        for (k, heights) in [(1, nil), (5, [80.25]), (30, nil), (2, [0, 33.015625])] as [(Int, [Double]?)] {
            let ids = (0..<k).map { _ in nextID += 1; return nextID }
            let h = heights.map { hs in (0..<k).map { hs[$0 % hs.count] } }
            let got = try engine.insert(ids: ids, kinds: Array(repeating: 0, count: k), heights: h, at: 0)
            engine.store._checkInvariants()
            let added = h?.reduce(0, +) ?? 60 * Double(k)
            #expect(got == offset + added)
            offset = got
            #expect(visible.map { screenY(engine, id: $0)! } == before)
        }
        // The user scrolls on from there as if nothing happened.
        #expect(engine.anchor?.id == visible[0])
        #expect(engine.anchor?.offsetInRow == 0.5)
    }

    /// Rows above the viewport start at their estimates and are measured later (and
    /// invalidated again): the reader must not see a jump.
    @Test func measuringRowsAboveTheViewportKeepsTheReaderStill() throws {
        var engine = try ListEngine(store: makeStore([44], pageCapacity: 5, treeFanout: 4), viewport: 800)
        let rows = makeBatch(500, firstID: 1, kindCount: 1)
        try engine.append(ids: rows.ids, kinds: rows.kinds)
        try engine.scroll(to: 250 * 44 + 10)
        let maybeAnchor = engine.anchor
        let anchor = try #require(maybeAnchor)
        #expect(anchor.id == 251 && anchor.offsetInRow == 10)
        let y = screenY(engine, id: anchor.id)
        for r in stride(from: 249, through: 0, by: -1) {
            try engine.setHeight(Double(20 + r % 70) + 0.25, ofRow: r)
            #expect(screenY(engine, id: anchor.id) == y)
        }
        for r in stride(from: 0, to: 250, by: 3) {
            try engine.invalidateHeight(ofRow: r)
            #expect(screenY(engine, id: anchor.id) == y)
        }
        // Rows below the viewport change: the offset itself does not move.
        let offset = engine.scrollOffset
        for r in 300..<500 { try engine.setHeight(10, ofRow: r) }
        #expect(engine.scrollOffset == offset)
        engine.store._checkInvariants()
    }

    /// Changes inside the viewport below the anchor row, and to the anchor row's height
    /// while the distance into it still fits, leave the anchor row where it is.
    @Test func changesInsideTheViewportBelowTheAnchorRow() throws {
        var engine = try ListEngine(store: makeStore([50]), viewport: 400)
        let rows = makeBatch(100, firstID: 1, kindCount: 1)
        try engine.append(ids: rows.ids, kinds: rows.kinds)
        try engine.scroll(to: 1_020)  // row 20 (id 21), 20 pt into it
        #expect(engine.anchor == ScrollAnchor(id: 21, offsetInRow: 20))
        try engine.setHeight(200, ofRow: 22)
        try engine.insert(ids: [1_000, 1_001], kinds: [0, 0], at: 21)
        try engine.removeRows(23..<26)
        try engine.setHeight(25, ofRow: 20)  // still taller than 20 pt
        #expect(engine.scrollOffset == 1_020)
        #expect(engine.anchor == ScrollAnchor(id: 21, offsetInRow: 20))
        engine.store._checkInvariants()
    }

    /// Deleting the anchor row keeps the offset; the row now covering it becomes the
    /// anchor, as UIKit and RecyclerView keep the rows above a deletion still.
    @Test func deletingTheAnchorRowKeepsTheOffset() throws {
        var engine = try ListEngine(store: makeStore([50], pageCapacity: 3, treeFanout: 4), viewport: 300)
        let rows = makeBatch(60, firstID: 1, kindCount: 1)
        try engine.append(ids: rows.ids, kinds: rows.kinds, heights: (0..<60).map { Double(30 + $0) })
        // Row 10 starts at sum(30..<40) = 345; scroll 5 pt into it.
        try engine.scroll(to: 350)
        #expect(engine.anchor == ScrollAnchor(id: 11, offsetInRow: 5))
        let above = screenY(engine, id: 10)
        let got = try engine.removeRows(10..<11)
        #expect(got == 350)
        #expect(engine.scrollOffset == 350)
        // Row 10 is now id 12 (41 pt tall) starting at 345: 5 pt into it.
        #expect(engine.anchor == ScrollAnchor(id: 12, offsetInRow: 5))
        #expect(screenY(engine, id: 10) == above)
        // The anchor and the rows after it go together: still the same offset.
        try engine.removeRows(10..<20)
        #expect(engine.scrollOffset == 350)
        #expect(engine.anchor == ScrollAnchor(id: 22, offsetInRow: 5))
        engine.store._checkInvariants()
    }

    /// The anchor row shrinks below the distance into it: the offset moves to its new
    /// bottom and the next row becomes the anchor.
    @Test func anchorRowShrinkingBelowTheDistanceIntoIt() throws {
        var engine = try ListEngine(store: makeStore([50]), viewport: 300)
        let rows = makeBatch(40, firstID: 1, kindCount: 1)
        try engine.append(ids: rows.ids, kinds: rows.kinds)
        try engine.scroll(to: 530)  // row 10, 30 pt in
        #expect(engine.anchor == ScrollAnchor(id: 11, offsetInRow: 30))
        let got = try engine.setHeight(20, ofRow: 10)
        #expect(got == 520)
        #expect(engine.anchor == ScrollAnchor(id: 12, offsetInRow: 0))
        // Zero height: the offset is the row's top, which the next row covers.
        try engine.scroll(to: 610)  // row 12 (id 13) starts at 570: 40 pt in
        #expect(engine.anchor == ScrollAnchor(id: 13, offsetInRow: 40))
        try engine.setHeight(0, ofRow: 12)
        #expect(engine.scrollOffset == 570)
        #expect(engine.anchor == ScrollAnchor(id: 14, offsetInRow: 0))
    }

    /// Near the end of the content the corrected offset is clamped to the new maximum;
    /// at the top, rows inserted above push the offset down (the row seen stays).
    @Test func clampingAtBothEnds() throws {
        var engine = try ListEngine(store: makeStore([50]), viewport: 300)
        let rows = makeBatch(20, firstID: 1, kindCount: 1)  // 1,000 pt
        try engine.append(ids: rows.ids, kinds: rows.kinds)
        #expect(try engine.scroll(to: 5_000) == 700)  // clamped on scroll
        #expect(engine.anchor == ScrollAnchor(id: 15, offsetInRow: 0))
        // Rows below vanish: the offset that kept the anchor is past the new maximum.
        #expect(try engine.removeRows(17..<20) == 550)
        #expect(engine.anchor == ScrollAnchor(id: 12, offsetInRow: 0))
        // Rows above the anchor removed: the anchor keeps its place as far as possible.
        #expect(try engine.removeRows(0..<2) == 450)
        #expect(engine.anchor == ScrollAnchor(id: 12, offsetInRow: 0))
        // A viewport taller than the content.
        try engine.setViewport(2_000)
        #expect(engine.scrollOffset == 0)
        #expect(engine.maximumScrollOffset == 0)
        #expect(engine.anchor == ScrollAnchor(id: 3, offsetInRow: 0))
        try engine.setViewport(300)
        #expect(engine.scrollOffset == 0)
        // At offset 0, rows inserted at the top push the offset down: row 3 stays.
        #expect(try engine.insert(ids: [100, 101], kinds: [0, 0], heights: [20, 30.5], at: 0) == 50.5)
        #expect(engine.anchor == ScrollAnchor(id: 3, offsetInRow: 0))
        // Everything removed.
        #expect(try engine.removeRows(0..<engine.store.count) == 0)
        #expect(engine.anchor == nil)
        engine.store._checkInvariants()
    }

    @Test func emptyListThenRowsArrive() throws {
        var engine = try ListEngine(store: makeStore([50]), viewport: 300)
        #expect(engine.anchor == nil)
        #expect(try engine.scroll(to: 100) == 0)
        withBuffer(1) { buffer in #expect((try? engine.window(overscan: 100, into: buffer))?.count == 0) }
        // Shorter than the viewport: nothing scrolls, so a row inserted above shows.
        #expect(try engine.append(ids: [1, 2, 3], kinds: [0, 0, 0]) == 0)
        #expect(engine.anchor == ScrollAnchor(id: 1, offsetInRow: 0))
        #expect(try engine.insert(ids: [9], kinds: [0], at: 0) == 0)
        #expect(engine.anchor == ScrollAnchor(id: 9, offsetInRow: 0))
        // Long enough to scroll: the anchor row is kept in place.
        #expect(try engine.append(ids: Array(10...30), kinds: Array(repeating: 0, count: 21)) == 0)
        #expect(try engine.insert(ids: [8], kinds: [0], at: 0) == 50)
        #expect(engine.anchor == ScrollAnchor(id: 9, offsetInRow: 0))
        try engine.updateFlags(ofRow: 0, setting: .unread)
        #expect(try engine.store.row(0).flags == [.unread])
        #expect(engine.scrollOffset == 50)
    }
}
