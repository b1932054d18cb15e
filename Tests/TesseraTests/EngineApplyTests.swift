import Testing
@testable import Tessera

// MARK: A naive store-driven list

/// One row of the naive model of a store-driven list.
struct ApplyModelRow: Equatable {
    var id: UInt64
    var kind: UInt16
    var version: UInt64
    var units: Int64
    var measured: Bool
    var unread: Bool
    var slots: [String]
}

/// A store-driven list done the naive way: an array of rows, prefix sums recomputed, the
/// anchoring rules of `ListEngine.apply` restated.
final class StoreListModel {
    let estimates: [Int64]
    let viewport: Double
    var rows: [ApplyModelRow] = []
    var scrollOffset = 0.0
    var anchor: ScrollAnchor?

    init(estimates: [Double], viewport: Double) {
        self.estimates = estimates.map { Units.height($0)! }
        self.viewport = viewport
    }

    var prefix: [Int64] {
        var p: [Int64] = [0]
        for r in rows { p.append(p.last! + r.units) }
        return p
    }

    var maximumScrollOffset: Double { max(Units.points(prefix.last!) - viewport, 0) }

    func anchor(at y: Double) -> ScrollAnchor? {
        let p = prefix, u = Units.flooredOffset(y)
        guard u < p.last!, let r = (0..<rows.count).first(where: { p[$0 + 1] > u }) else { return nil }
        return ScrollAnchor(id: rows[r].id, offsetInRow: y - Units.points(p[r]))
    }

    func scroll(to y: Double) {
        scrollOffset = min(y, maximumScrollOffset)
        anchor = anchor(at: scrollOffset)
    }

    /// The rows after `snapshot`: kept rows as they were, updated rows (version or kind
    /// changed) with the snapshot's values, inserted rows new. `moved` are the ids the
    /// engine reported as moved (their minimality is KeyedDiffTests' business); they do
    /// not take a deleted anchor's place.
    func apply(_ s: RowSnapshot, slots: [[String]]?, moved: Set<UInt64>) {
        let old = rows
        var byID: [UInt64: ApplyModelRow] = [:]
        for r in old { byID[r.id] = r }
        rows = (0..<s.count).map { j in
            let h = s.heights.map { Units.height($0[j])! }
            let unread = s.unread?[j] ?? false
            let fresh = ApplyModelRow(
                id: s.ids[j], kind: s.kinds[j], version: s.versions[j], units: h ?? estimates[Int(s.kinds[j])], measured: h != nil,
                unread: unread, slots: slots?[j] ?? [])
            guard let was = byID[s.ids[j]] else { return fresh }
            if was.version == s.versions[j] && was.kind == s.kinds[j] { return was }
            var updated = fresh
            updated.unread = was.unread || unread
            return updated
        }
        // The anchor: itself, else the nearest old row that stays in place, else any survivor.
        var keep = anchor
        let survivors = Set(s.ids)
        if let a = anchor, !survivors.contains(a.id), let at = old.firstIndex(where: { $0.id == a.id }) {
            keep = nil
            for staysOnly in [true, false] where keep == nil {
                var d = 1
                while keep == nil && (at + d < old.count || at - d >= 0) {
                    for i in [at + d, at - d] where keep == nil && i >= 0 && i < old.count {
                        let id = old[i].id
                        if survivors.contains(id) && (!staysOnly || !moved.contains(id)) { keep = ScrollAnchor(id: id, offsetInRow: a.offsetInRow) }
                    }
                    d += 1
                }
            }
        }
        if let keep, let r = rows.firstIndex(where: { $0.id == keep.id }) {
            scrollOffset = Units.points(prefix[r]) + min(keep.offsetInRow, Units.points(rows[r].units))
        }
        scrollOffset = min(scrollOffset, maximumScrollOffset)
        anchor = anchor(at: scrollOffset)
    }
}

/// Every column of every row, the text, offsets and anchor against the model.
func verifyStoreEngine(_ engine: borrowing ListEngine, _ m: StoreListModel, slotsPerRow: Int, _ c: Checker) {
    engine._checkInvariants()
    c.equal(engine.store.count, m.rows.count, "count")
    guard engine.store.count == m.rows.count else { return }
    for (r, row) in m.rows.enumerated() {
        let info = try! engine.store.row(r)
        c.equal(info.id, row.id, "id of row \(r)")
        c.equal(info.kind, row.kind, "kind of row \(r)")
        c.equal(info.contentVersion, row.version, "version of row \(r)")
        c.equal(try! engine.store.contentVersion(ofRow: r), row.version, "contentVersion(ofRow: \(r))")
        c.equal(info.height, Units.points(row.units), "height of row \(r)")
        var flags: RowFlags = row.measured ? [.measured] : []
        if row.unread { flags.insert(.unread) }
        c.equal(info.flags, flags, "flags of row \(r)")
        for s in 0..<slotsPerRow {
            c.equal(try! engine.store.text(ofRow: r, slot: s), s < row.slots.count ? row.slots[s] : "", "text of row \(r) slot \(s)")
        }
    }
    c.equal(engine.store.totalHeight, Units.points(m.prefix.last!), "total height")
    c.equal(engine.scrollOffset, m.scrollOffset, "scroll offset")
    c.equal(engine.anchor, m.anchor, "anchor")
}

/// The ids a batch's sequential form produces from the old ids, and the updates it names.
func checkBatch(_ result: AppliedBatch, old: [UInt64], oldKeys: [UInt64: (UInt64, UInt16)], new s: RowSnapshot, _ c: Checker) {
    let batch = result.batch
    var list: [UInt64?] = old
    for op in result.operations() {
        switch op {
        case .remove(let at, let count): list.removeSubrange(at..<(at + count))
        case .insert(let at, let count): list.insert(contentsOf: repeatElement(nil, count: count), at: at)
        case .move(let from, let to): list.insert(list.remove(at: from), at: to)
        case .change: break
        }
    }
    var filled = list
    for j in batch.inserts { filled[j] = s.ids[j] }
    c.equal(filled.map { $0 ?? 0 }, s.ids, "sequential form replays to the new ids")
    let newSet = Set(s.ids)
    c.equal(batch.deletes, old.indices.filter { !newSet.contains(old[$0]) }, "deletes")
    let changed = (0..<s.count).filter { j in oldKeys[s.ids[j]].map { $0 != (s.versions[j], s.kinds[j]) } ?? false }
    c.equal(batch.updatedNewIndexes, changed, "updates: version or kind changed")
}

// MARK: Tests

@Suite struct EngineApplyTests {
    static let slotsPerRow = 2
    static let estimates: [Double] = [44, 60.5, 30]

    /// Move sources are put in old order by a radix sort above 256 moves: it orders as the
    /// standard library's sort does, at every size and digit split (one to three passes).
    @Test(arguments: [(0, 10), (1, 10), (256, 1000), (257, 300), (2_000, 2_048), (5_000, 1 << 21), (20_000, 4_000_000), (3_000, 1 << 30)])
    func moveSourcesSortLikeTheStandardLibrary(_ count: Int, _ limit: Int) {
        var rng = SplitMix64(seed: UInt64(count &* 31 &+ limit))
        var froms = Set<Int>()
        while froms.count < count { froms.insert(rng.below(limit)) }
        var order = Array(froms)
        for i in order.indices.reversed() where i > 0 { order.swapAt(i, rng.below(i + 1)) }
        var keys = order.enumerated().map { UInt64($0.element) << 32 | UInt64($0.offset) }
        let expected = keys.sorted()
        ApplyPlan.sortBySource(&keys, below: limit)
        #expect(keys == expected)
    }

    /// Builds a new snapshot from the model's rows: deletions, insertions, moves, updates
    /// (version, kind, text), sometimes all rows replaced, sometimes nothing changed.
    static func nextSnapshot(
        _ m: StoreListModel, _ rng: inout SplitMix64, _ ids: inout IDSource
    ) -> (RowSnapshot, [[String]]?) {
        var rows: [(id: UInt64, kind: UInt16, version: UInt64, slots: [String])] = m.rows.map { ($0.id, $0.kind, $0.version, $0.slots) }
        func fresh() -> (UInt64, UInt16, UInt64, [String]) {
            (ids.next(), UInt16(rng.below(estimates.count)), rng.next() % 4, (0..<slotsPerRow).map { _ in rng.chance(0.3) ? "" : "w\(rng.below(1000)) é" })
        }
        switch rng.below(10) {
        case 0:
            rows = (0..<rng.int(0...(rng.chance(0.5) ? 40 : 400))).map { _ in fresh() }  // replaced (the rebuild path)
        case 1:
            break  // unchanged
        default:
            let rate = rng.pick([0.01, 0.05, 0.2])
            rows = rows.filter { _ in !rng.chance(rate) }
            for _ in 0..<rng.int(0...max(1, Int(Double(rows.count) * rate) + 2)) where rng.chance(0.8) {
                let at = rng.chance(0.3) ? 0 : rng.int(0...rows.count)
                for _ in 0..<rng.int(1...(rng.chance(0.1) ? 30 : 3)) { rows.insert(fresh(), at: at) }
            }
            for _ in 0..<rng.int(0...max(1, Int(Double(rows.count) * rate))) where !rows.isEmpty {
                let row = rows.remove(at: rng.below(rows.count))
                rows.insert(row, at: rng.int(0...rows.count))
            }
            for i in rows.indices where rng.chance(rate) {
                rows[i].version &+= 1
                if rng.chance(0.3) { rows[i].kind = UInt16(rng.below(estimates.count)) }
                rows[i].slots = fresh().3
            }
            // A kind change alone is an update too.
            if !rows.isEmpty, rng.chance(0.2) {
                let i = rng.below(rows.count)
                rows[i].kind = (rows[i].kind + 1) % UInt16(estimates.count)
            }
        }
        let withText = rng.chance(0.8)
        var text = RowText(slotsPerRow: slotsPerRow)
        for r in rows { text.append(r.slots) }
        let heights: [Double]? = rng.chance(0.5) ? rows.map { _ in Double(rng.int(0...200 * 64)) / 64 } : nil
        let unread: [Bool]? = rng.chance(0.5) ? rows.map { _ in rng.chance(0.3) } : nil
        let s = RowSnapshot(
            ids: rows.map(\.id), kinds: rows.map(\.kind), versions: rows.map(\.version), text: withText ? text : nil, heights: heights, unread: unread)
        return (s, withText ? rows.map(\.slots) : nil)
    }

    @Test(arguments: [(UInt64(1), 3, 4), (2, 4, 4), (3, 7, 5), (4, 16, 6), (5, RowStore.defaultPageCapacity, 64)])
    func storeDrivenSnapshotsMatchTheModel(_ seed: UInt64, _ pageCapacity: Int, _ fanout: Int) throws {
        var rng = SplitMix64(seed: seed &* 0x51_7CC1_B727_220A)
        var ids = IDSource(seed: seed + 100)
        let viewport = Double(rng.int(100...600))
        var engine = try ListEngine(
            store: try RowStore(estimatedHeights: Self.estimates, pageCapacity: pageCapacity, treeFanout: fanout), viewport: viewport)
        let m = StoreListModel(estimates: Self.estimates, viewport: viewport)
        let c = Checker("store-driven seed \(seed), pages of \(pageCapacity)")
        for step in 0..<(pageCapacity > 100 ? 40 : 150) where c.ok {
            c.context = "store-driven seed \(seed), pages of \(pageCapacity), step \(step)"
            if rng.chance(0.3), m.maximumScrollOffset > 0 {
                let y = Double(rng.below(Int(m.maximumScrollOffset * 64) + 1)) / 64
                try engine.scroll(to: y)
                m.scroll(to: y)
            }
            let (snapshot, slots) = Self.nextSnapshot(m, &rng, &ids)
            let old = m.rows.map(\.id)
            var oldKeys: [UInt64: (UInt64, UInt16)] = [:]
            for r in m.rows { oldKeys[r.id] = (r.version, r.kind) }
            let before = engine.anchor.flatMap { a in engine.store.index(of: a.id).map { (a, try! engine.store.offset(ofRow: $0) - engine.scrollOffset) } }
            let result = try engine.apply(snapshot)
            c.equal(result.scrollOffset, engine.scrollOffset, "returned offset")
            checkBatch(result, old: old, oldKeys: oldKeys, new: snapshot, c)
            m.apply(snapshot, slots: slots, moved: Set(result.batch.moves.map { old[$0.from] }))
            verifyStoreEngine(engine, m, slotsPerRow: Self.slotsPerRow, c)
            // A surviving anchor row is exactly where it was on screen unless clamped.
            if let (a, y) = before, let r = engine.store.index(of: a.id) {
                let top = try engine.store.offset(ofRow: r), h = try engine.store.row(r).height
                if a.offsetInRow <= h, top + a.offsetInRow <= engine.maximumScrollOffset {
                    c.equal(top - engine.scrollOffset, y, "anchor row \(a.id) moved on screen")
                }
            }
        }
    }

    /// A deleted anchor row's place goes to the nearest row that stays (below first), at
    /// the same distance into it, so what was under the viewport's top edge stays there.
    @Test func deletedAnchorRowIsReplacedByTheNearestStayingRow() throws {
        var engine = try ListEngine(store: try RowStore(estimatedHeights: [50]), viewport: 200)
        let ids: [UInt64] = Array(1...20)
        try engine.append(ids: ids, kinds: Array(repeating: 0, count: 20))
        try engine.scroll(to: 5 * 50 + 10)  // row 5 (id 6), 10 pt in
        #expect(engine.anchor == ScrollAnchor(id: 6, offsetInRow: 10))
        // Rows above are inserted, ids 5 and 6 are deleted, id 7 moves far away: id 4
        // (above, staying) and id 8 (below, staying) are both at distance 2; below wins.
        var new: [UInt64] = [100, 101] + ids.filter { $0 != 5 && $0 != 6 && $0 != 7 }
        new.append(7)
        let r = try engine.apply(RowSnapshot(ids: new, kinds: Array(repeating: 0, count: new.count), versions: Array(repeating: 0, count: new.count)))
        #expect(r.batch.moves.map(\.from) == [6])
        let row8 = engine.store.index(of: 8)!
        #expect(engine.scrollOffset == Double(row8) * 50 + 10)
        #expect(engine.anchor == ScrollAnchor(id: 8, offsetInRow: 10))
        engine._checkInvariants()
    }

    // MARK: Full pages

    /// Rows per page, in order.
    static func pageCounts(_ store: borrowing RowStore) -> [Int] {
        var counts: [Int] = [], l = store.tree.firstLeaf
        while l != HeightTree.none {
            counts.append(store.rowCount(ofLeaf: l))
            l = store.tree.leaves[Int(l)].next
        }
        return counts
    }

    /// An engine of `pages` full pages of 32 rows (measured), the same rows in `m`.
    static func fullPages(_ pages: Int, _ m: StoreListModel, _ ids: inout IDSource) throws -> ListEngine {
        var engine = try ListEngine(store: try RowStore(estimatedHeights: estimates, pageCapacity: 32, treeFanout: 4), viewport: m.viewport)
        var text = RowText(slotsPerRow: slotsPerRow)
        for r in 0..<(32 * pages) {
            let row = ApplyModelRow(id: ids.next(), kind: UInt16(r % 3), version: 1, units: Int64(40 * 64 + r), measured: true, unread: false, slots: ["r\(r)", ""])
            m.rows.append(row)
            text.append(row.slots)
        }
        try engine.append(
            ids: m.rows.map(\.id), kinds: m.rows.map(\.kind), heights: m.rows.map { Units.points($0.units) }, text: text,
            versions: m.rows.map(\.version))
        try engine.scroll(to: 1000)
        m.scroll(to: 1000)
        return engine
    }

    /// Applies `rows` (model rows in their new order) to both and checks the engine.
    static func applyRows(_ rows: [ApplyModelRow], _ engine: inout ListEngine, _ m: StoreListModel, _ c: Checker) throws {
        var text = RowText(slotsPerRow: slotsPerRow)
        for r in rows { text.append(r.slots) }
        let s = RowSnapshot(
            ids: rows.map(\.id), kinds: rows.map(\.kind), versions: rows.map(\.version), text: text, heights: rows.map { Units.points($0.units) })
        let old = m.rows.map(\.id)
        let result = try engine.apply(s)
        m.apply(s, slots: rows.map(\.slots), moved: Set(result.batch.moves.map { old[$0.from] }))
        verifyStoreEngine(engine, m, slotsPerRow: slotsPerRow, c)
    }

    /// A full page that gains rows hands the rows over the top to the page before when it
    /// has room, else to the page after, through full pages while few rows change pages
    /// that way, and splits only when that would move more rows than a split.
    @Test func overflowingFullPagesHandRowsToTheirNeighbours() throws {
        let c = Checker("full pages")
        let m = StoreListModel(estimates: Self.estimates, viewport: 300)
        var ids = IDSource(seed: 77)
        var engine = try Self.fullPages(8, m, &ids)
        func fresh() -> ApplyModelRow {
            ApplyModelRow(id: ids.next(), kind: 1, version: 1, units: 50 * 64, measured: true, unread: false, slots: ["new", "x"])
        }
        // Page 1 loses a row, page 2 gains one: page 1 takes page 2's first row.
        var rows = m.rows
        rows.remove(at: 40)
        rows.insert(fresh(), at: 70)
        try Self.applyRows(rows, &engine, m, c)
        #expect(Self.pageCounts(engine.store) == Array(repeating: 32, count: 8))
        // Page 5 loses a row, page 3 gains one: pages 3 and 4 hand one row on each.
        rows = m.rows
        rows.remove(at: 170)
        rows.insert(fresh(), at: 100)
        try Self.applyRows(rows, &engine, m, c)
        #expect(Self.pageCounts(engine.store) == Array(repeating: 32, count: 8))
        // A row moves from page 6 to page 0 and the last page gains one: page 0 would hand
        // one row on through pages 1 to 5 (more rows changing pages than a split moves), so
        // it splits; page 7 hands its first row to page 6.
        rows = m.rows
        rows.insert(rows.remove(at: 200), at: 3)
        rows.append(fresh())
        try Self.applyRows(rows, &engine, m, c)
        let counts = Self.pageCounts(engine.store)
        #expect(counts.count == 9 && counts[2...] == Array(repeating: 32, count: 7)[...])
        // Moves, inserts and deletes spread at random: every page stays within its room.
        var rng = SplitMix64(seed: 9)
        for step in 0..<60 where c.ok {
            c.context = "full pages, step \(step)"
            rows = m.rows
            for _ in 0..<rng.int(0...3) { rows.remove(at: rng.below(rows.count)) }
            for _ in 0..<rng.int(0...4) { rows.insert(fresh(), at: rng.int(0...rows.count)) }
            for _ in 0..<rng.int(0...3) { rows.insert(rows.remove(at: rng.below(rows.count)), at: rng.int(0...(rows.count - 1))) }
            for _ in 0..<rng.int(0...2) {
                let i = rng.below(rows.count)
                rows[i].version += 1
                rows[i].slots = ["u\(step)", ""]
            }
            try Self.applyRows(rows, &engine, m, c)
        }
    }

    // MARK: Profile-driven lists

    @Test(arguments: EngineEquivalenceTests.scenarios.prefix(10))
    func profileSnapshotsMatchTheModel(_ s: EngineEquivalenceTests.Scenario) throws {
        let profile = EngineEquivalenceTests.profile(s.profile)
        var rng = SplitMix64(seed: s.seed &* 0x2545_F491_4F6C_DD1D)
        let factory = EngineRowFactory(profile)
        var ids = IDSource(seed: s.seed + 7)
        var env = LayoutEnvironment(width: rng.pick(EngineEquivalenceTests.widths), platform: s.platform)
        let viewport = Double(rng.int(200...900)), overscan = Double(rng.pick([0, 50, 250]))
        var engine = try ListEngine(
            profile: profile, environment: env, viewport: viewport, overscan: overscan, textEngine: TextLayoutEngine(),
            pageCapacity: rng.int(3...12), treeFanout: rng.int(4...6))
        let m = ProfileListModel(profile: profile, env: env, viewport: viewport, overscan: overscan) { TextLayoutEngine() }
        var versions: [UInt64: UInt64] = [:]
        m.reanchor()
        let c = Checker(s.testDescription)
        let first = factory.batch(rows: 40, &rng, ids: &ids)
        try engine.append(ids: first.ids, kinds: first.kinds, text: first.text)
        m.insert(first, at: 0)
        for id in first.ids { versions[id] = 0 }
        var applied = 0, rejected = 0
        for step in 0..<60 where c.ok {
            c.context = "\(s.testDescription), step \(step)"
            switch rng.below(6) {
            case 0:
                try engine.measure(budget: .rows(rng.int(1...30)))
                let now = engineDirtyFlags(engine)
                m.measured((0..<m.count).filter { !now[$0] && m.dirty[$0] })
            case 1:
                if rng.chance(0.5) {
                    env.width = rng.pick(EngineEquivalenceTests.widths)
                } else {
                    env.editMode.toggle()
                }
                try engine.setEnvironment(env)
                m.setEnvironment(env, engineDirty: engineDirtyFlags(engine), c)
            case 2:
                let y = Double(rng.below(Int(m.maximumScrollOffset * 16) + 1)) / 16
                try engine.scroll(to: y)
                m.scroll(to: y)
            default:
                let (snapshot, slots) = Self.nextProfileSnapshot(m, versions, factory, &rng, &ids)
                let before = anchorScreenY(engine, m)
                let oldIDs = m.ids
                do {
                    let result = try engine.apply(snapshot)
                    applied += 1
                    c.equal(result.scrollOffset, engine.scrollOffset, "returned offset")
                    m.apply(snapshot, slots: slots, versions: versions, moved: Set(result.batch.moves.map { oldIDs[$0.from] }))
                    versions = Dictionary(uniqueKeysWithValues: zip(snapshot.ids, snapshot.versions))
                    checkAnchorStill(before, engine, c)
                } catch {
                    // Only a broken group rule may reject these snapshots; nothing changed.
                    guard case .ruleViolation(_, _, .groupMinimum) = error else { throw error }
                    rejected += 1
                }
            }
            verifyProfileEngine(engine, m, c)
        }
        c.context = "\(s.testDescription), measureAll"
        try engine.measureAll(threads: 2)
        m.measured((0..<m.count).filter { m.dirty[$0] })
        verifyProfileEngine(engine, m, c)
        #expect(applied > 10, "\(applied) snapshots applied, \(rejected) rejected")
    }

    /// Groups moved, deleted and inserted whole (so group rules hold), rows updated with
    /// new values or a new kind, and sometimes a single row deleted (which may break a
    /// group rule).
    static func nextProfileSnapshot(
        _ m: ProfileListModel, _ versions: [UInt64: UInt64], _ factory: EngineRowFactory, _ rng: inout SplitMix64, _ ids: inout IDSource
    ) -> (RowSnapshot, [[String]]) {
        typealias Row = (id: UInt64, kind: UInt16, version: UInt64, slots: [String])
        // Chunks: a header starts one, a footer ends one.
        var chunks: [[Row]] = []
        var current: [Row] = []
        for r in 0..<m.count {
            let row: Row = (m.ids[r], m.kinds[r], versions[m.ids[r]] ?? 0, m.slots[r])
            let role = m.roles[row.kind]!
            if role == .header, !current.isEmpty { chunks.append(current); current = [] }
            current.append(row)
            if role == .footer { chunks.append(current); current = [] }
        }
        if !current.isEmpty { chunks.append(current) }
        for _ in 0..<rng.int(0...2) where !chunks.isEmpty && rng.chance(0.5) { chunks.remove(at: rng.below(chunks.count)) }
        for _ in 0..<rng.int(0...2) where rng.chance(0.6) {
            let b = factory.batch(rows: rng.int(1...8), &rng, ids: &ids)
            let rows: [Row] = b.ids.indices.map { (b.ids[$0], b.kinds[$0], 0, b.slots[$0]) }
            chunks.insert(rows, at: rng.int(0...chunks.count))
        }
        if chunks.count > 1, rng.chance(0.5) {
            let chunk = chunks.remove(at: rng.below(chunks.count))
            chunks.insert(chunk, at: rng.int(0...chunks.count))
        }
        var rows = chunks.flatMap { $0 }
        let freeCells = factory.cells.filter { factory.minimums[$0.code] == nil }
        for i in rows.indices where rng.chance(0.05) {
            rows[i].version &+= 1
            let kind = factory.profile.kind(code: rows[i].kind)!
            if kind.role == .cell, factory.minimums[kind.code] == nil, !freeCells.isEmpty, rng.chance(0.3) {
                let k = rng.pick(freeCells)
                rows[i].kind = k.code
                rows[i].slots = factory.row(k, &rng)
            } else {
                rows[i].slots = factory.row(kind, &rng)
            }
        }
        if !rows.isEmpty, rng.chance(0.15) { rows.remove(at: rng.below(rows.count)) }
        var text = RowText(slotsPerRow: factory.profile.kinds.map(\.valueCount).max() ?? 0)
        for r in rows { text.append(r.slots) }
        return (RowSnapshot(ids: rows.map(\.id), kinds: rows.map(\.kind), versions: rows.map(\.version), text: text), rows.map(\.slots))
    }
}


extension ProfileListModel {
    /// The rows after a snapshot: kept rows as they were (dirty state and last
    /// measurement), updated rows (version or kind changed) with new values, dirty, keeping
    /// their last measurement, inserted rows dirty and never measured. Then the anchoring
    /// rule of `ListEngine.apply`.
    func apply(_ s: RowSnapshot, slots newSlots: [[String]], versions: [UInt64: UInt64], moved: Set<UInt64>) {
        let oldIDs = ids
        var old: [UInt64: (kind: UInt16, slots: [String], dirty: Bool, measured: Int64?)] = [:]
        for r in 0..<count { old[ids[r]] = (kinds[r], slots[r], dirty[r], measured[r]) }
        // Before `ids` change: what a clean row measures now is its last measurement.
        var lastHeights: [UInt64: Int64] = [:]
        for r in 0..<count where !dirty[r] { lastHeights[ids[r]] = fresh(r) }
        // Updated rows measure anew.
        forgetFreshHeights(of: (0..<s.count).filter { j in old[s.ids[j]].map { versions[s.ids[j]] != s.versions[j] || $0.kind != s.kinds[j] } ?? false }.map { s.ids[$0] })
        ids = s.ids
        kinds = s.kinds
        slots = newSlots
        dirty = []
        measured = []
        for j in 0..<s.count {
            guard let was = old[s.ids[j]] else {
                dirty.append(true)
                measured.append(nil)
                continue
            }
            if versions[s.ids[j]] == s.versions[j] && was.kind == s.kinds[j] {
                slots[j] = was.slots
                dirty.append(was.dirty)
                measured.append(was.measured)
            } else {
                dirty.append(true)
                measured.append(was.dirty ? was.measured : lastHeights[s.ids[j]])
            }
        }
        let survivors = Set(s.ids)
        if let a = anchor, !survivors.contains(a.id), let at = oldIDs.firstIndex(of: a.id) {
            var keep: ScrollAnchor? = nil
            for staysOnly in [true, false] where keep == nil {
                var d = 1
                while keep == nil && (at + d < oldIDs.count || at - d >= 0) {
                    for i in [at + d, at - d] where keep == nil && i >= 0 && i < oldIDs.count {
                        if survivors.contains(oldIDs[i]) && (!staysOnly || !moved.contains(oldIDs[i])) {
                            keep = ScrollAnchor(id: oldIDs[i], offsetInRow: a.offsetInRow)
                        }
                    }
                    d += 1
                }
            }
            anchor = keep
        }
        reanchor()
    }
}

// MARK: Bad input

/// Everything a failed call must leave as it was: every row's columns and text, the
/// geometry, the anchor, the dirty count and the interaction state.
struct EngineState: Equatable {
    var rows: [RowInfo]
    var text: [[String]]
    var totalHeight: Double
    var scrollOffset: Double
    var anchor: ScrollAnchor?
    var dirtyCount: Int
    var swipe: SwipeState?
    var selected: [UInt64]

    init(_ e: borrowing ListEngine) {
        rows = (0..<e.store.count).map { try! e.store.row($0) }
        text = (0..<e.store.count).map { r in (0..<3).map { try! e.store.text(ofRow: r, slot: $0) } }
        totalHeight = e.store.totalHeight
        scrollOffset = e.scrollOffset
        anchor = e.anchor
        dirtyCount = e.dirtyCount
        swipe = e.openSwipe
        selected = e.selectedIDs
    }
}

/// `body` throws `expected` and changes nothing.
func expectRejected(
    _ engine: inout ListEngine, _ expected: TesseraError, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (inout ListEngine) throws -> Void
) {
    let before = EngineState(engine)
    let error = thrownError { try body(&engine) }
    #expect(error == expected, sourceLocation: sourceLocation)
    engine._checkInvariants()
    #expect(EngineState(engine) == before, "state changed by a rejected call", sourceLocation: sourceLocation)
}

@Suite struct EngineApplyBadInputTests {
    static func storeEngine() throws -> ListEngine {
        var e = try ListEngine(store: try RowStore(estimatedHeights: [44, 60], pageCapacity: 4, treeFanout: 4), viewport: 100)
        var text = RowText(slotsPerRow: 1)
        for i in 0..<10 { text.append(["row \(i)"]) }
        try e.append(ids: Array(1...10), kinds: Array(repeating: 0, count: 10), text: text, versions: Array(repeating: 1, count: 10))
        try e.scroll(to: 130)
        try e.updateFlags(ofRow: 4, setting: .unread)
        return e
    }

    static func snapshot(_ ids: [UInt64], version: UInt64 = 1, kind: UInt16 = 0) -> RowSnapshot {
        RowSnapshot(ids: ids, kinds: Array(repeating: kind, count: ids.count), versions: Array(repeating: version, count: ids.count))
    }

    @Test func duplicateIDsNameTheIDAndBothIndexes() throws {
        var e = try Self.storeEngine()
        expectRejected(&e, .duplicateIDInDiff(7, side: "new", firstIndex: 2, secondIndex: 5)) {
            _ = try $0.apply(Self.snapshot([1, 2, 7, 3, 4, 7, 8]))
        }
        expectRejected(&e, .duplicateIDInDiff(42, side: "new", firstIndex: 0, secondIndex: 11)) {
            _ = try $0.apply(Self.snapshot([42] + Array(1...10) + [42]))
        }
    }

    @Test func columnsOfOtherLengthsAreRejected() throws {
        var e = try Self.storeEngine()
        var s = Self.snapshot([1, 2, 3])
        s.kinds = [0, 0]
        expectRejected(&e, .columnLengthMismatch(column: "kinds", expected: 3, actual: 2)) { _ = try $0.apply(s) }
        s = Self.snapshot([1, 2, 3])
        s.heights = [10]
        expectRejected(&e, .columnLengthMismatch(column: "heights", expected: 3, actual: 1)) { _ = try $0.apply(s) }
        s = Self.snapshot([1, 2, 3])
        s.unread = [true]
        expectRejected(&e, .columnLengthMismatch(column: "unread", expected: 3, actual: 1)) { _ = try $0.apply(s) }
        s = Self.snapshot([1, 2, 3])
        s.text = RowText(utf8: [], slotsPerRow: 1, offsets: [0, 0])
        expectRejected(&e, .columnLengthMismatch(column: "text offsets", expected: 4, actual: 2)) { _ = try $0.apply(s) }
    }

    /// Bad values in inserted or updated rows are found before anything changes; the
    /// error names the row's index in the snapshot. Rows that keep their version are not
    /// read.
    @Test func badRowsAreRejectedBeforeAnythingChanges() throws {
        var e = try Self.storeEngine()
        var s = Self.snapshot(Array(1...10) + [11])
        s.kinds[10] = 7
        expectRejected(&e, .unknownKind(7, kindCount: 2)) { _ = try $0.apply(s) }
        s = Self.snapshot(Array(1...10) + [11])
        s.heights = Array(repeating: 10, count: 11)
        s.heights![10] = -1
        expectRejected(&e, .invalidHeight(-1)) { _ = try $0.apply(s) }
        // An updated row (index 3) with invalid UTF-8; a kept row's bad bytes are not read.
        s = Self.snapshot(Array(1...10))
        s.versions[3] = 2
        var utf8: [UInt8] = [], offsets = [0]
        for j in 0..<10 {
            utf8 += j == 3 || j == 6 ? [0x61, 0xFF] : Array("ok".utf8)
            offsets.append(utf8.count)
        }
        s.text = RowText(utf8: utf8, slotsPerRow: 1, offsets: offsets)
        expectRejected(&e, .invalidUTF8(row: 3, slot: 0, byteOffset: 1)) { _ = try $0.apply(s) }
        s.versions[3] = 1
        s.versions[5] = 2
        let r = try e.apply(s)
        #expect(r.batch.updates == [5])
        #expect(try e.store.text(ofRow: 5, slot: 0) == "ok")
        e._checkInvariants()
    }

    /// A prepared batch applies once, to the list it was prepared for, while its rows are
    /// as they were; measuring, scrolling and flags do not change the rows.
    @Test func staleBatchesAreRejected() throws {
        var e = try Self.storeEngine()
        var other = try Self.storeEngine()
        let prepared = try e.prepare(Self.snapshot([10, 1, 2, 3, 99]))
        expectRejected(&other, .staleBatch("the batch was prepared for another list")) { _ = try $0.apply(prepared) }
        try e.setHeight(80, ofRow: 2)
        try e.scroll(to: 40)
        try e.updateFlags(ofRow: 1, setting: .unread)
        let again = try e.prepare(Self.snapshot([10, 1, 2, 3, 99]))
        try e.append(ids: [50], kinds: [1])
        expectRejected(&e, .staleBatch("the list's rows changed after the batch was prepared")) { _ = try $0.apply(again) }
        try e.removeRows(10..<11)
        expectRejected(&e, .staleBatch("the list's rows changed after the batch was prepared")) { _ = try $0.apply(again) }
        let fresh = try e.prepare(Self.snapshot([10, 1, 2, 3, 99]))
        try e.setHeight(90, ofRow: 0)
        let applied = try e.apply(fresh)
        #expect(applied.batch == fresh.batch)
        #expect(applied.operations() == fresh.operations())
        #expect(e.store.count == 5)
        expectRejected(&e, .staleBatch("the list's rows changed after the batch was prepared")) { _ = try $0.apply(fresh) }
    }

    static let georgeIDs: [UInt64] = Array(101...108)

    static func georgeEngine(editMode: Bool = false) throws -> ListEngine {
        let g = ProfileFixtures.george
        var e = try ListEngine(
            profile: g, environment: LayoutEnvironment(width: 375, platform: .ios, editMode: editMode), viewport: 300,
            textEngine: TextLayoutEngine(), pageCapacity: 4, treeFanout: 4)
        // header, 2 single-selection cells, footer, header, 3 basic cells
        let kinds: [UInt16] = [13, 2, 2, 15, 13, 1, 1, 1]
        let ids = georgeIDs
        var text = RowText(slotsPerRow: 8)
        for k in kinds { text.append(GeorgeRows.values(k)) }
        try e.append(ids: ids, kinds: kinds, text: text, versions: Array(repeating: 1, count: ids.count))
        try e.measureAll(threads: 1)
        return e
    }

    static func georgeSnapshot(_ ids: [UInt64], _ kinds: [UInt16], versions: [UInt64]? = nil) -> RowSnapshot {
        var text = RowText(slotsPerRow: 8)
        for k in kinds { text.append(GeorgeRows.values(k)) }
        return RowSnapshot(ids: ids, kinds: kinds, versions: versions ?? Array(repeating: 1, count: ids.count), text: text)
    }

    @Test func profileRulesAreCheckedBeforeAnythingChanges() throws {
        var e = try Self.georgeEngine()
        let ids = Self.georgeIDs
        let kinds: [UInt16] = [13, 2, 2, 15, 13, 1, 1, 1]
        // Deleting one of the two selection cells leaves a group of one.
        expectRejected(&e, .ruleViolation(row: 1, kind: "singleSelectionLeading", rule: .groupMinimum(rows: 1, minimum: 2))) {
            _ = try $0.apply(Self.georgeSnapshot(ids.filter { $0 != 103 }, [13, 2, 15, 13, 1, 1, 1]))
        }
        // Moving one of them into the other group leaves two groups of one.
        expectRejected(&e, .ruleViolation(row: 1, kind: "singleSelectionLeading", rule: .groupMinimum(rows: 1, minimum: 2))) {
            _ = try $0.apply(Self.georgeSnapshot([101, 102, 104, 105, 106, 103, 107, 108], [13, 2, 15, 13, 1, 2, 1, 1]))
        }
        // An inserted header splits the selection group.
        expectRejected(&e, .ruleViolation(row: 1, kind: "singleSelectionLeading", rule: .groupMinimum(rows: 1, minimum: 2))) {
            _ = try $0.apply(Self.georgeSnapshot([101, 102, 900, 103, 104, 105, 106, 107, 108], [13, 2, 13, 2, 15, 13, 1, 1, 1]))
        }
        // An updated row that lacks its required label (index 6 of the snapshot).
        var bad = Self.georgeSnapshot(ids, kinds)
        bad.versions[6] = 2
        var text = RowText(slotsPerRow: 8)
        for (j, k) in kinds.enumerated() { text.append(j == 6 ? [] : GeorgeRows.values(k)) }
        bad.text = text
        let error = thrownError { _ = try e.apply(bad) }
        guard case .ruleViolation(let row, let kind, _)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(row == 6 && kind == "basicCell")
        expectRejected(&e, error!) { _ = try $0.apply(bad) }
        // Heights are the engine's business.
        var withHeights = Self.georgeSnapshot(ids, kinds)
        withHeights.heights = Array(repeating: 44, count: ids.count)
        expectRejected(&e, .unsupported("heights for rows of a profile-driven list: the engine measures them")) { _ = try $0.apply(withHeights) }
        // The same snapshot with the whole group moved applies.
        let moved = try e.apply(Self.georgeSnapshot([105, 106, 107, 108, 101, 102, 103, 104], [13, 1, 1, 1, 13, 2, 2, 15]))
        #expect(moved.batch.moves.count == 4)
        e._checkInvariants()
    }
}

/// Valid values for George's kinds used by these tests.
enum GeorgeRows {
    static func values(_ kind: UInt16) -> [String] {
        let kind = ProfileFixtures.george.kind(code: kind)!
        var slots = [String](repeating: "", count: kind.valueCount)
        for s in kind.slots where s.isRequired { slots[s.valueIndex!] = "Label \(kind.code)" }
        return slots
    }
}
