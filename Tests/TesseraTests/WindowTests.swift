import Testing
import Tessera

/// Window queries against the model: random offsets, viewports and overscans on stores of
/// many shapes, scroll sequences interleaved with mutations (the store keeps a cursor
/// between queries), and buffer sizes.
@Suite struct WindowTests {
    /// A store of `n` random rows (some estimated, some zero height) and its model.
    static func randomFixture(_ rng: inout SplitMix64, rows n: Int, pageCapacity: Int, treeFanout: Int) -> Fixture {
        let estimates: [Double] = [44, 0, 60.5, 17.015625]
        var store = makeStore(estimates, pageCapacity: pageCapacity, treeFanout: treeFanout)
        let ref = ReferenceModel(estimatedHeights: estimates)
        var ids = IDSource(seed: rng.next() & 0xFFFF)
        while ref.count < n {
            let k = min(n - ref.count, rng.int(1...50))
            let batch = Batch(
                ids: (0..<k).map { _ in ids.next() }, kinds: (0..<k).map { _ in UInt16(rng.below(4)) },
                heights: rng.chance(0.5) ? (0..<k).map { _ in randomHeight(&rng) } : nil, text: nil)
            let at = rng.int(0...ref.count)
            try! batch.insert(into: &store, at: at)
            ref.insert(batch.refRows(estimates: ref.estimates), at: at)
        }
        store._checkInvariants()
        return Fixture(store: store, ref: ref)
    }

    @Test(arguments: 1...12)
    func randomWindowsMatchTheModel(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &* 7919)
        let n = rng.pick([0, 1, 2, 7, 100, 600])
        let f = Self.randomFixture(&rng, rows: n, pageCapacity: rng.int(2...8), treeFanout: rng.int(4...6))
        let c = Checker("seed \(seed), \(n) rows")
        let total = f.ref.totalHeight
        withBuffer(n + 1) { buffer in
            for _ in 0..<3_000 {
                let p = f.ref.prefix
                let offset: Double
                switch rng.below(4) {
                case 0: offset = Units.points(p[rng.int(0...n)])  // on a boundary
                case 1: offset = rng.unit() * (total + 50)  // anywhere, arbitrary double
                case 2: offset = Units.points(p[rng.int(0...n)]) + Double(rng.int(-3...3)) / 256
                default: offset = Double(rng.below(Int(total * 256) + 1000)) / 256
                }
                let viewport = rng.chance(0.1) ? 0 : Double(rng.below(1_000 * 256)) / 256
                let before = rng.chance(0.4) ? 0 : Double(rng.below(300 * 256)) / 256
                let after = rng.chance(0.4) ? 0 : Double(rng.below(300 * 64)) / 64
                verifyWindow(
                    f.store, f.ref, offset: max(0, offset), viewport: viewport, before: before, after: after,
                    buffer: buffer, c)
                guard c.ok else { return }
            }
        }
        f.store._checkInvariants()
    }

    /// Consecutive scroll offsets, forward and backward in small and big steps, with
    /// mutations at, above and below the window between queries: a stale cursor would
    /// show up as a wrong first row or a wrong y.
    @Test(arguments: 1...16)
    func scrollSequencesWithInterleavedMutations(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &* 104_729)
        let pageCapacity = rng.int(2...6)
        var f = Self.randomFixture(&rng, rows: 400, pageCapacity: pageCapacity, treeFanout: rng.int(4...5))
        var ids = IDSource(seed: 0xABC0 + UInt64(seed))
        let c = Checker("seed \(seed)")
        var y = 0.0
        let viewport = 300.0
        withBuffer(2_000) { buffer in
            for step in 0..<2_500 {
                c.context = "seed \(seed), step \(step)"
                // Scroll.
                let total = f.ref.totalHeight
                switch rng.below(10) {
                case 0..<4: y += Double(rng.int(1...(20 * 64))) / 64  // forward, small
                case 4..<7: y -= Double(rng.int(1...(20 * 64))) / 64  // backward, small
                case 7: y += Double(rng.int(-8_000...8_000))  // far, past the cursor's walk limit
                case 8: y = Units.points(f.ref.prefix[rng.int(0...f.ref.count)])
                default: y = rng.unit() * total
                }
                y = min(max(0, y), total + 10)
                verifyWindow(f.store, f.ref, offset: y, viewport: viewport, before: 50, after: 50, buffer: buffer, c)
                guard c.ok else { return }
                // Mutate near the window (where the cursor points) or elsewhere.
                let n = f.ref.count
                let near = f.ref.row(coveringUnits: Units.flooredOffset(y)) ?? max(0, n - 1)
                let r = rng.chance(0.7) ? min(max(0, near + rng.int(-3...3)), max(0, n - 1)) : rng.below(max(n, 1))
                switch n > 0 ? rng.below(6) : 5 {
                case 0:
                    let h = randomHeight(&rng)
                    try! f.store.setHeight(h, ofRow: r)
                    f.ref.setHeight(units: Units.height(h)!, ofRow: r)
                case 1:
                    try! f.store.invalidateHeight(ofRow: r)
                    f.ref.invalidate(r)
                case 2 where n > 100:
                    let k = min(n - r, rng.int(1...(3 * pageCapacity)))
                    try! f.store.removeRows(r..<(r + k))
                    f.ref.remove(r..<(r + k))
                case 3:
                    try! f.store.updateFlags(ofRow: r, setting: .selected, clearing: .unread)
                    f.ref.updateFlags(r, setting: .selected, clearing: .unread)
                case 4:
                    break  // two queries in a row from the same cursor
                default:
                    let k = rng.int(1...(3 * pageCapacity))
                    let batch = Batch(
                        ids: (0..<k).map { _ in ids.next() }, kinds: (0..<k).map { _ in UInt16(rng.below(4)) },
                        heights: rng.chance(0.5) ? (0..<k).map { _ in randomHeight(&rng) } : nil, text: nil)
                    try! batch.insert(into: &f.store, at: r)
                    f.ref.insert(batch.refRows(estimates: f.ref.estimates), at: r)
                }
                f.store._checkInvariants()
            }
        }
    }

    @Test func bufferTooSmallReportsTheCountNeededAndAnExactBufferWorks() {
        let f = makeFilled(50, pageCapacity: 3, heights: [10, 0, 25.5])
        let want = f.ref.window(offset: 100, viewport: 150, before: 20, after: 30)
        #expect(want.count > 5)
        withBuffer(want.count) { buffer in
            for capacity in [0, 1, want.count - 1] {
                let small = UnsafeMutableBufferPointer(rebasing: buffer[0..<capacity])
                let e = thrownError {
                    _ = try f.store.window(offset: 100, viewport: 150, overscanBefore: 20, overscanAfter: 30, into: small)
                }
                #expect(e == .bufferTooSmall(needed: want.count, capacity: capacity))
            }
            let range = try? f.store.window(offset: 100, viewport: 150, overscanBefore: 20, overscanAfter: 30, into: buffer)
            #expect(range?.rows == want[0].row..<(want[0].row + want.count))
            #expect(Array(buffer) == want)
        }
    }

    /// With a sub-unit viewport and a sub-unit overscanAfter, the window's bottom is
    /// y + viewport + overscanAfter; the store rounds the two extents up separately and so
    /// reaches up to one unit further, returning a row that starts below the window.
    @Test func fractionalViewportAndOverscanAfterAddNoRowBelowTheWindow() {
        let f = makeFilled(3, heights: [1])  // rows of 1 pt = 64 units at 0, 1 and 2 pt
        // Window [0, 32.5/64 + 31.25/64) = [0, 0.99609375): only row 0 intersects it.
        let viewport = 32.5 / 64, after = 31.25 / 64
        #expect(viewport + after < 1)
        withBuffer(3) { buffer in
            let range = try? f.store.window(offset: 0, viewport: viewport, overscanAfter: after, into: buffer)
            #expect(range?.rows == 0..<1, "row 1 starts at 1 pt, below the window's bottom at \(viewport + after) pt")
        }
    }

    /// Finite but huge viewports and overscans are valid input (only negative, NaN and
    /// infinite ones are rejected); a window that large holds every row.
    @Test func hugeFiniteViewportAndOverscanReturnEveryRow() {
        let f = makeFilled(10, heights: [20])
        withBuffer(10) { buffer in
            let cases: [(offset: Double, viewport: Double, before: Double, after: Double)] = [
                (0, 1e17, 0, 1e17),
                (0, 1e300, 0, 1e300),
                (1e17, 1e17, 1e17, 0),
                (0, .greatestFiniteMagnitude, 0, .greatestFiniteMagnitude),
                (0, 1e17, 0, 0),  // one huge extent alone works
            ]
            for (offset, viewport, before, after) in cases {
                let range = try? f.store.window(
                    offset: offset, viewport: viewport, overscanBefore: before, overscanAfter: after, into: buffer)
                #expect(range?.rows == 0..<10, "offset \(offset), viewport \(viewport), before \(before), after \(after)")
            }
        }
    }
}
