import Testing
import Tessera

struct ModelConfig: Sendable, CustomTestStringConvertible {
    var seed: UInt64
    var pageCapacity: Int
    var treeFanout: Int
    var operations: Int
    var maxRows: Int
    var maxBulk: Int
    var fullCheckEvery: Int

    var testDescription: String {
        "seed \(seed), pageCapacity \(pageCapacity), treeFanout \(treeFanout), \(operations) ops, <= \(maxRows) rows"
    }
}

/// Long random sequences of every mutation and query, each answer checked against the
/// naive model and the store's invariants checked after every mutation.
@Suite struct RowStoreModelTests {
    /// Kind 1 estimates zero height, so unmeasured zero-height rows are common.
    static let estimates: [Double] = [44, 0, 60.5, 17.015625, 100.25]

    static let smallPageConfigs: [ModelConfig] = [
        ModelConfig(seed: 1, pageCapacity: 2, treeFanout: 4, operations: 100_000, maxRows: 600, maxBulk: 40, fullCheckEvery: 400),
        ModelConfig(seed: 2, pageCapacity: 3, treeFanout: 5, operations: 100_000, maxRows: 1_500, maxBulk: 60, fullCheckEvery: 500),
        ModelConfig(seed: 3, pageCapacity: 5, treeFanout: 4, operations: 100_000, maxRows: 1_500, maxBulk: 80, fullCheckEvery: 500),
        ModelConfig(seed: 4, pageCapacity: 8, treeFanout: 6, operations: 100_000, maxRows: 1_500, maxBulk: 100, fullCheckEvery: 500),
        // Wide summary nodes (searched eight children at a time) over tiny pages.
        ModelConfig(seed: 6, pageCapacity: 2, treeFanout: 8, operations: 50_000, maxRows: 1_500, maxBulk: 60, fullCheckEvery: 500),
        ModelConfig(seed: 7, pageCapacity: 3, treeFanout: 17, operations: 50_000, maxRows: 1_500, maxBulk: 60, fullCheckEvery: 500),
        // Pages of more than 64 rows: several height groups per page.
        ModelConfig(seed: 5, pageCapacity: 130, treeFanout: 4, operations: 30_000, maxRows: 3_000, maxBulk: 400, fullCheckEvery: 300),
    ]

    @Test(arguments: smallPageConfigs)
    func randomOperationsOnSmallPages(_ config: ModelConfig) {
        var run = ModelRun(config: config, estimates: Self.estimates)
        run.run()
    }

    /// Default page capacity and fanout: bigger stores (two tree levels once a few
    /// dozen pages exist, several 64-row height groups per page), fewer operations.
    @Test func randomOperationsAtDefaultCapacities() {
        let config = ModelConfig(
            seed: 99, pageCapacity: RowStore.defaultPageCapacity, treeFanout: 64, operations: 800, maxRows: 40_000,
            maxBulk: 6_000, fullCheckEvery: 200)
        var run = ModelRun(config: config, estimates: Self.estimates, defaultCapacities: true)
        run.run()
    }

    /// Bulk heights spanning more than 64 default-size pages (the store then rebuilds the
    /// summaries bottom up) and fewer, from the start, the middle and up to the end.
    @Test func bulkHeightsOverManyDefaultPages() throws {
        let estimates: [Double] = [44, 0]
        var store = try RowStore(estimatedHeights: estimates, treeFanout: 8)
        let ref = ReferenceModel(estimatedHeights: estimates)
        let n = 80 * RowStore.defaultPageCapacity + 123
        let batch = makeBatch(n, kindCount: 2)
        try batch.append(to: &store)
        ref.insert(batch.refRows(estimates: ref.estimates), at: 0)
        // Pages half full after inserts in the middle of full ones.
        for k in 0..<60 {
            let extra = makeBatch(50, firstID: 1_000_000 + UInt64(k) * 100, kindCount: 2, heights: [3])
            let at = (k * 7_919) % ref.count
            try extra.insert(into: &store, at: at)
            ref.insert(extra.refRows(estimates: ref.estimates), at: at)
        }
        store._checkInvariants()
        var rng = SplitMix64(seed: 64)
        let c = Checker("bulk heights")
        let big = 64 * RowStore.defaultPageCapacity
        for (start, count) in [(0, ref.count), (17, big + 1), (ref.count - big - 5, big + 5), (1_000, 2_000), (5, 0)] {
            let heights = (0..<count).map { _ in randomHeight(&rng) }
            try store.setHeights(heights, startingAt: start)
            ref.setHeights(units: heights.map { Units.height($0)! }, startingAt: start)
            store._checkInvariants()
            c.equal(store.totalHeight, ref.totalHeight, "totalHeight after setHeights(\(count), startingAt: \(start))")
            for _ in 0..<300 { verifyRowAtOffset(store, ref, rng.unit() * ref.totalHeight, c) }
        }
        verifyAll(store, ref, c)
    }

    /// Default-size pages under a narrow tree: a deep tree of full-size pages.
    @Test func randomOperationsOnDefaultPagesInADeepTree() {
        let config = ModelConfig(
            seed: 98, pageCapacity: RowStore.defaultPageCapacity, treeFanout: 12, operations: 800, maxRows: 30_000,
            maxBulk: 4_000, fullCheckEvery: 200)
        var run = ModelRun(config: config, estimates: Self.estimates)
        run.run()
    }
}

struct ModelRun: ~Copyable {
    var store: RowStore
    let ref: ReferenceModel
    let config: ModelConfig
    let c: Checker
    var rng: SplitMix64
    var ids: IDSource
    var removedIDs: [UInt64] = []
    var target = 0
    var scrollY = 0.0
    var viewport = 300.0
    var op = 0

    init(config: ModelConfig, estimates: [Double], defaultCapacities: Bool = false) {
        self.config = config
        store = defaultCapacities
            ? try! RowStore(estimatedHeights: estimates)
            : try! RowStore(estimatedHeights: estimates, pageCapacity: config.pageCapacity, treeFanout: config.treeFanout)
        ref = ReferenceModel(estimatedHeights: estimates)
        c = Checker(config.testDescription)
        rng = SplitMix64(seed: config.seed)
        ids = IDSource(seed: config.seed)
    }

    mutating func run() {
        let buffer = UnsafeMutableBufferPointer<VisibleRow>.allocate(capacity: config.maxRows + config.maxBulk + 64)
        defer { buffer.deallocate() }
        for i in 0..<config.operations {
            op = i
            c.context = "\(config.testDescription), op \(i), \(ref.count) rows"
            if i % 2_000 == 0 { target = rng.chance(0.1) ? 0 : rng.int(0...config.maxRows) }
            step(buffer)
            guard c.ok else { return }
            if i % config.fullCheckEvery == 0 {
                verifyAll(store, ref, c)
                guard c.ok else { return }
            }
        }
        verifyAll(store, ref, c)
    }

    // MARK: One operation

    mutating func step(_ buffer: UnsafeMutableBufferPointer<VisibleRow>) {
        let n = ref.count
        if rng.below(3_000) == 0 {
            store.removeAll()
            for row in ref.rows.prefix(64) { remember(row.id) }
            ref.removeAll()
            mutated(at: 0)
            return
        }
        switch rng.below(100) {
        case 0..<30:
            if n == 0 || rng.chance(n < target ? 0.7 : 0.3) { insertRows() } else { removeRows() }
        case 48..<55:
            guard n > 0 else { break }
            let start = rng.below(n)
            let k = rng.chance(0.8) ? rng.int(1...min(n - start, 3 * config.pageCapacity + 5)) : rng.int(0...(n - start))
            let heights = (0..<k).map { _ in randomHeight(&rng) }
            do {
                try store.setHeights(heights, startingAt: start)
                ref.setHeights(units: heights.map { Units.height($0)! }, startingAt: start)
            } catch { c.fail("setHeights(\(k) heights, startingAt: \(start)): \(error)") }
            mutated(at: start, count: k)
        case 30..<48:
            guard n > 0 else { break }
            let r = rng.below(n), h = randomHeight(&rng)
            do {
                try store.setHeight(h, ofRow: r)
                ref.setHeight(units: Units.height(h)!, ofRow: r)
            } catch { c.fail("setHeight(\(h), ofRow: \(r)): \(error)") }
            mutated(at: r)
        case 55..<65:
            guard n > 0 else { break }
            let r = rng.below(n)
            do {
                try store.invalidateHeight(ofRow: r)
                ref.invalidate(r)
            } catch { c.fail("invalidateHeight(ofRow: \(r)): \(error)") }
            mutated(at: r)
        case 65..<73:
            guard n > 0 else { break }
            let r = rng.below(n)
            let set = RowFlags(rawValue: UInt16(rng.below(8)) << 1)
            let clear = RowFlags(rawValue: UInt16(rng.below(8)) << 1).subtracting(set)
            do {
                try store.updateFlags(ofRow: r, setting: set, clearing: clear)
                ref.updateFlags(r, setting: set, clearing: clear)
            } catch { c.fail("updateFlags(ofRow: \(r)): \(error)") }
            mutated(at: r)
        case 73..<76:
            rejectedMutation()
        default:
            break
        }
        guard c.ok else { return }
        queries(buffer)
    }

    mutating func remember(_ id: UInt64) {
        if removedIDs.count < 64 { removedIDs.append(id) } else { removedIDs[rng.below(64)] = id }
    }

    mutating func newBatch(_ k: Int) -> Batch {
        let kinds = (0..<k).map { _ in UInt16(rng.below(ref.estimates.count)) }
        var newIDs = (0..<k).map { _ in ids.next() }
        // Now and then a small batch reuses ids of removed rows (the id index must have
        // forgotten them completely).
        if k <= 8, !removedIDs.isEmpty, rng.chance(0.2) {
            for i in 0..<k where rng.chance(0.5) {
                let id = removedIDs[rng.below(removedIDs.count)]
                if ref.index(of: id) == nil, !newIDs.contains(id) { newIDs[i] = id }
            }
        }
        let heights: [Double]? = rng.chance(0.4) ? (0..<k).map { _ in randomHeight(&rng) } : nil
        let text: RowText? = rng.chance(0.5) ? randomText(&rng, rows: k, slotsPerRow: rng.int(0...3)) : nil
        return Batch(ids: newIDs, kinds: kinds, heights: heights, text: text)
    }

    mutating func insertRows() {
        let n = ref.count, p = config.pageCapacity
        let k: Int
        switch rng.below(10) {
        case 0..<5: k = 1
        case 5..<7: k = rng.int(2...max(2, p))
        case 7..<9: k = rng.int((p + 1)...(3 * p + 1))
        default: k = rng.int(1...config.maxBulk)
        }
        let at = rng.chance(0.3) ? n : rng.int(0...n)
        let batch = newBatch(k)
        do {
            if at == n && rng.chance(0.5) {
                try batch.append(to: &store)
            } else {
                try batch.insert(into: &store, at: at)
            }
            ref.insert(batch.refRows(estimates: ref.estimates), at: at)
        } catch {
            c.fail("insert of \(k) rows at \(at): \(error)")
        }
        mutated(at: at, count: k)
    }

    mutating func removeRows() {
        let n = ref.count
        let length: Int
        switch rng.below(10) {
        case 0..<6: length = rng.int(1...min(3, n))
        case 6..<9: length = rng.int(1...min(n, 3 * config.pageCapacity + 2))
        default: length = rng.int(1...max(1, n / 2))
        }
        let lower = rng.int(0...(n - length))
        for r in lower..<(lower + length) where rng.chance(0.2) { remember(ref.rows[r].id) }
        do {
            try store.removeRows(lower..<(lower + length))
            ref.remove(lower..<(lower + length))
        } catch {
            c.fail("removeRows(\(lower)..<\(lower + length)): \(error)")
        }
        mutated(at: lower)
    }

    /// A mutation the store must refuse, leaving everything as it was.
    mutating func rejectedMutation() {
        let n = ref.count
        let countBefore = store.count, totalBefore = store.totalHeight
        var expected: TesseraError
        var error: TesseraError?
        var touched = 0..<0
        switch rng.below(7) {
        case 0 where n > 0:
            // A batch whose one duplicate is a stored id.
            var batch = newBatch(rng.int(1...config.maxBulk))
            let dup = ref.rows[rng.below(n)].id
            batch.ids[rng.below(batch.count)] = dup
            expected = .duplicateID(dup)
            let at = rng.int(0...n)
            error = thrownError { try batch.insert(into: &store, at: at) }
        case 1:
            // A batch that repeats one of its own ids.
            var batch = newBatch(rng.int(2...config.maxBulk + 2))
            let i = rng.below(batch.count - 1)
            let j = rng.int((i + 1)...(batch.count - 1))
            batch.ids[j] = batch.ids[i]
            expected = .duplicateID(batch.ids[i])
            error = thrownError { try batch.append(to: &store) }
        case 2:
            let batch = newBatch(rng.int(1...4))
            let at = n + rng.int(1...3)
            expected = .rangeOutOfBounds(lowerBound: at, upperBound: at, count: n)
            error = thrownError { try batch.insert(into: &store, at: at) }
        case 3:
            let lower = rng.int(0...n), upper = n + rng.int(1...3)
            expected = .rangeOutOfBounds(lowerBound: lower, upperBound: upper, count: n)
            error = thrownError { try store.removeRows(lower..<upper) }
        case 5 where n > 0:
            // Bulk heights with one invalid value: none may be applied.
            let start = rng.below(n), k = rng.int(1...min(n - start, 40))
            var heights = (0..<k).map { _ in randomHeight(&rng) }
            let bad = rng.pick([-1.5, -0.001, RowStore.maximumRowHeight + 1.0 / 64, 1e12])
            heights[rng.below(k)] = bad
            expected = .invalidHeight(bad)
            touched = start..<(start + k)
            error = thrownError { try store.setHeights(heights, startingAt: start) }
        case 6:
            let start = rng.int(0...n), k = n - start + rng.int(1...3)
            expected = .rangeOutOfBounds(lowerBound: start, upperBound: start + k, count: n)
            error = thrownError { try store.setHeights(Array(repeating: 1, count: k), startingAt: start) }
        default:
            let r = rng.int(n...(n + 2))
            expected = .rowOutOfBounds(index: r, count: n)
            error = thrownError { try store.setHeight(10, ofRow: r) }
        }
        c.equal(error, expected, "rejected mutation")
        store._checkInvariants()
        c.equal(store.count, countBefore, "count after rejected mutation")
        c.equal(store.totalHeight, totalBefore, "totalHeight after rejected mutation")
        for r in touched { verifyRow(store, ref, r, c) }
    }

    /// After every mutation: the invariants, the sums and the rows around the change.
    mutating func mutated(at row: Int, count k: Int = 1) {
        store._checkInvariants()
        c.equal(store.count, ref.count, "count")
        c.equal(store.totalHeight, ref.totalHeight, "totalHeight")
        let n = ref.count
        guard n > 0 else { return }
        let lo = max(0, row - 2), hi = min(n, row + min(k, 2 * config.pageCapacity) + 2)
        for r in lo..<hi { verifyRow(store, ref, r, c) }
    }

    // MARK: Queries after every operation

    mutating func queries(_ buffer: UnsafeMutableBufferPointer<VisibleRow>) {
        let n = ref.count, p = ref.prefix
        c.equal(store.count, n, "count")
        c.equal(store.totalHeight, ref.totalHeight, "totalHeight")
        if n > 0 { verifyRow(store, ref, rng.below(n), c) }
        // Offsets on a row boundary (belongs to the row starting there), inside a row
        // (arbitrary doubles), at and past the end.
        let b = rng.int(0...n)
        verifyRowAtOffset(store, ref, Units.points(p[b]), c)
        if n > 0 {
            let r = rng.below(n)
            verifyRowAtOffset(store, ref, (Double(p[r]) + rng.unit() * Double(ref.rows[r].units)) / 64, c)
        }
        verifyRowAtOffset(store, ref, ref.totalHeight + rng.unit() * 100, c)
        // Ids present and absent.
        if !removedIDs.isEmpty {
            let id = removedIDs[rng.below(removedIDs.count)]
            c.equal(store.index(of: id), ref.index(of: id), "index(of: removed id \(id))")
        }
        let absent = ids.absentID(UInt64(op))
        c.equal(store.index(of: absent), nil, "index(of: absent id)")
        c.equal(store.offset(keeping: ScrollAnchor(id: absent, offsetInRow: 0)), nil, "offset(keeping:) of an absent row")
        // Anchors and scroll-to-row.
        do {
            let y = rng.chance(0.5) ? Units.points(p[rng.int(0...n)]) : rng.unit() * (ref.totalHeight + 10)
            let anchor = try store.anchor(atOffset: y)
            if let want = ref.rowAt(offset: y) {
                c.equal(anchor, ScrollAnchor(id: ref.rows[want.row].id, offsetInRow: want.offsetInRow), "anchor(atOffset: \(y))")
                if let anchor { c.equal(store.offset(keeping: anchor), y, "offset(keeping:) at \(y)") }
            } else {
                c.equal(anchor, nil, "anchor(atOffset: \(y)) past the end")
            }
            if n > 0 {
                let r = rng.below(n), v = Double(rng.below(800 * 4)) / 4
                let position = rng.pick([ScrollPosition.top, .center, .bottom])
                c.equal(
                    try store.scrollOffset(toRow: r, anchor: position, viewport: v),
                    ref.scrollOffset(toRow: r, anchor: position, viewport: v), "scrollOffset(toRow: \(r), \(position), \(v))")
            }
        } catch {
            c.fail("anchor queries: \(error)")
        }
        // The window at the next scroll position: mostly small or big steps from the last
        // (so the store's cursor is reused, across mutations too), sometimes a jump.
        let total = ref.totalHeight
        switch rng.below(10) {
        case 0: scrollY = rng.unit() * (total * 1.1 + 1)
        case 1: scrollY = Units.points(p[rng.int(0...n)])
        case 2..<7: scrollY = max(0, scrollY + Double(rng.int(-40 * 256...40 * 256)) / 256)
        default: scrollY = max(0, scrollY + Double(rng.int(-3_000 * 256...3_000 * 256)) / 256)
        }
        if rng.below(50) == 0 { viewport = rng.chance(0.1) ? 0 : Double(rng.below(900 * 256)) / 256 }
        let before = rng.chance(0.5) ? 0 : Double(rng.below(200 * 256)) / 256
        // Whole units after the viewport: with a sub-unit viewport *and* overscanAfter the
        // store rounds each up separately and may add one row the window does not reach
        // (see WindowTests.fractionalViewportAndOverscanAfterAddNoRowBelowTheWindow).
        let after = rng.chance(0.5) ? 0 : Double(rng.below(200 * 64)) / 64
        verifyWindow(store, ref, offset: scrollY, viewport: viewport, before: before, after: after, buffer: buffer, c)
    }
}
