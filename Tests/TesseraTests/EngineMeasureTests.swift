import Testing
@_spi(Benchmarks) @testable import Tessera

/// Measurement scheduling: priority order, budgets, threads, which environment changes
/// re-measure which kinds, anchoring while estimates become measurements.
@Suite struct EngineMeasureTests {
    static func george(rows: Int, platform: LayoutEnvironment.Platform = .ios, viewport: Double = 500, overscan: Double = 200, seed: UInt64 = 1)
        throws -> ListEngine
    {
        let g = ProfileFixtures.george
        var rng = SplitMix64(seed: seed)
        var ids = IDSource(seed: seed)
        let b = EngineRowFactory(g).batch(rows: rows, &rng, ids: &ids)
        var engine = try ListEngine(
            profile: g, environment: LayoutEnvironment(width: 375, platform: platform), viewport: viewport, overscan: overscan, pageCapacity: 16)
        try engine.append(ids: b.ids, kinds: b.kinds, text: b.text)
        engine._checkInvariants()
        return engine
    }

    static func dirtyRows(_ engine: borrowing ListEngine) -> Set<Int> {
        Set((0..<engine.store.count).filter { try! engine.store.row($0).flags.contains(.dirty) })
    }

    static func windowRows(_ engine: borrowing ListEngine, overscan: Double) -> Range<Int> {
        withItemBuffer(engine.store.count + 1) { try! engine.window(overscan: overscan, into: $0).rows }
    }

    /// One-line basic cells measured with the stub text engine are exactly their 44 pt
    /// estimate, so windows stay put while rows are measured.
    @Test func visibleRowsFirstThenOverscanThenOutward() throws {
        let g = ProfileFixtures.george
        var text = RowText(slotsPerRow: 10)
        for _ in 0..<400 { text.append(g.row("basicCell", ["label": "a"]).slots) }
        var engine = try ListEngine(
            profile: g, environment: LayoutEnvironment(width: 375, platform: .ios), viewport: 500, overscan: 200, textEngine: StubText.engine(),
            pageCapacity: 16)
        try engine.append(ids: Array(1...400), kinds: Array(repeating: 1, count: 400), text: text)
        try engine.scroll(to: 8000)
        let all = Set(0..<400)
        let visible = Self.windowRows(engine, overscan: 0)
        let overscanned = Self.windowRows(engine, overscan: 200)
        // 8000 / 44 = 181.8 … 8500 / 44 = 193.2; 200 pt more on each side.
        #expect(visible == 181..<194 && overscanned == 177..<198)
        var progress = try engine.measure(budget: .rows(visible.count))
        engine._checkInvariants()
        #expect(progress.measured == visible.count && engine.scrollOffset == 8000)
        #expect(Self.dirtyRows(engine) == all.subtracting(visible))
        // The overscan below (top down), then above (bottom up).
        try engine.measure(budget: .rows(4))
        #expect(Self.dirtyRows(engine) == all.subtracting(181..<198))
        try engine.measure(budget: .rows(2))
        #expect(Self.dirtyRows(engine) == all.subtracting(179..<198))
        try engine.measure(budget: .rows(2))
        #expect(Self.dirtyRows(engine) == all.subtracting(overscanned))
        // Then the nearest rows: one below, one above, ...
        try engine.measure(budget: .rows(1))
        #expect(Self.dirtyRows(engine) == all.subtracting(177..<199))
        try engine.measure(budget: .rows(1))
        #expect(Self.dirtyRows(engine) == all.subtracting(176..<199))
        try engine.measure(budget: .rows(3))
        #expect(Self.dirtyRows(engine) == all.subtracting(175..<201))
        // Scrolled elsewhere, the new window comes first.
        try engine.scroll(to: 44)
        try engine.measure(budget: .rows(5))
        #expect(Self.dirtyRows(engine) == all.subtracting(175..<201).subtracting(1..<6))
        // Nothing is left after enough budget; a further call does nothing.
        progress = try engine.measure(budget: .rows(10_000))
        engine._checkInvariants()
        #expect(progress.remaining == 0 && engine.dirtyCount == 0)
        #expect(try engine.measure(budget: .rows(10)).measured == 0)
    }

    @Test func timeBudgets() throws {
        var engine = try Self.george(rows: 200)
        #expect(try engine.measure(budget: .nanoseconds(0)).measured == 0)
        let n = engine.store.count
        #expect(engine.dirtyCount == n)
        let progress = try engine.measure(budget: .nanoseconds(60_000_000_000))
        engine._checkInvariants()
        #expect(progress.measured == n && progress.remaining == 0)
    }

    /// One thread, several threads and budgeted steps give the same heights (real fonts).
    @Test(arguments: [LayoutEnvironment.Platform.ios, .android])
    func threadCountsAndBudgetsAgree(platform: LayoutEnvironment.Platform) throws {
        var heights: [[Double]] = []
        for threads in [1, 2, 3, 0] {
            var engine = try Self.george(rows: 600, platform: platform, seed: 4)
            if threads == 0 {
                while engine.dirtyCount > 0 { try engine.measure(budget: .rows(37)) }
            } else {
                try engine.measureAll(threads: threads)
            }
            engine._checkInvariants()
            #expect(engine.dirtyCount == 0)
            heights.append((0..<engine.store.count).map { try! engine.store.row($0).height })
            // Again after a width change, with the workers kept.
            try engine.setEnvironment(LayoutEnvironment(width: 700, platform: platform, fontScale: 1.25))
            try engine.measureAll(threads: max(threads, 1))
            engine._checkInvariants()
            heights.append((0..<engine.store.count).map { try! engine.store.row($0).height })
        }
        #expect(heights[0] == heights[2] && heights[0] == heights[4] && heights[0] == heights[6])
        #expect(heights[1] == heights[3] && heights[1] == heights[5] && heights[1] == heights[7])
        #expect(heights[0] != heights[1])
    }

    /// Only kinds whose layout inputs changed become dirty: George has no edit-mode
    /// variant, Fiori's object cell has one; a font scale touches every kind with text.
    @Test func environmentChangesFlagOnlyAffectedKinds() throws {
        var george = try Self.george(rows: 100)
        try george.measureAll(threads: 1)
        try george.setEnvironment(LayoutEnvironment(width: 375, platform: .ios, editMode: true))
        george._checkInvariants()
        #expect(george.dirtyCount == 0)
        try george.setEnvironment(LayoutEnvironment(width: 375, platform: .ios, editMode: true, fontScale: 1.6))
        #expect(george.dirtyCount == george.store.count)

        let f = ProfileFixtures.fioriIOS
        var fiori = try ListEngine(profile: f, environment: LayoutEnvironment(width: 390, platform: .ios), viewport: 500)
        var text = RowText(slotsPerRow: 12)
        for i in 0..<10 { text.append(f.row(i % 2 == 0 ? "objectCell" : "objectCellCentered", ["title": "Title \(i)", "chevron": "1"]).slots) }
        try fiori.append(ids: Array(1...10), kinds: (0..<10).map { UInt16($0 % 2 + 1) }, text: text)
        try fiori.measureAll(threads: 1)
        let plain = (0..<10).map { try! fiori.store.row($0).height }
        try fiori.setEnvironment(LayoutEnvironment(width: 390, platform: .ios, editMode: true))
        fiori._checkInvariants()
        // Both kinds have an edit-mode variant, which only adds the selection control's
        // column and hides the chevron: one-line titles keep their rows' heights
        // (`fillShiftsFollowTheProfiles`).
        #expect(fiori.layout!.measurer.layoutChanged(kind: 1) && fiori.layout!.measurer.layoutChanged(kind: 2))
        #expect(fiori.dirtyCount == 0)
        try fiori.measureAll(threads: 2)
        #expect((0..<10).map { try! fiori.store.row($0).height } == plain)
        // Half a point wider: one-line titles keep their lines, so their rows keep their
        // heights (`widthChangesMeasureOnlyRowsThatCanChange`).
        try fiori.setEnvironment(LayoutEnvironment(width: 390.5, platform: .ios, editMode: true))
        #expect(fiori.dirtyCount == 0)
    }

    /// After `measureAll`, a change of the width alone marks dirty only rows whose height
    /// can change (a text in the fill column whose line count's range the new width
    /// leaves); every height is then that of a fresh engine, through widths up and down,
    /// edit mode and font scale in between. The Fiori edit modes only add a
    /// selection-control column (and fiori-ios's hides the chevron and info disclosure), so
    /// toggling them keeps rows too.
    @Test(arguments: ["george", "fiori-ios", "fiori-android"])
    func widthChangesMeasureOnlyRowsThatCanChange(_ name: String) throws {
        let profile = EngineEquivalenceTests.profile(name)
        let platform = profile.platforms[0]
        var rng = SplitMix64(seed: 3)
        var ids = IDSource(seed: 3)
        let b = EngineRowFactory(profile).batch(rows: 300, &rng, ids: &ids)
        var env = LayoutEnvironment(width: 375, platform: platform)
        var engine = try ListEngine(profile: profile, environment: env, viewport: 600, pageCapacity: 16)
        try engine.append(ids: b.ids, kinds: b.kinds, text: b.text)
        try engine.measureAll(threads: 2)
        var kept = 0, keptByEdit = 0, keptAcrossClasses = 0, sparse = 0
        for step in 0..<14 {
            let before = env
            switch step % 7 {
            case 3: env.editMode.toggle()
            case 5: env.fontScale = env.fontScale == 1 ? 1.25 : 1
            default: env.width = Double(rng.int(300 * 64...700 * 64)) / 64
            }
            // Width and edit mode at once: a shift out of edit mode widens the fill column,
            // and fit columns capped by a fraction of the new width must be checked too.
            if step % 7 == 6 { env.editMode.toggle() }
            try engine.setEnvironment(env)
            engine._checkInvariants()
            if step % 7 != 3 && step % 7 != 5 { kept += engine.store.count - engine.dirtyCount }
            // fiori-ios pads wider from 600 pt (its regular width class): a shift.
            if (before.width < 600) != (env.width < 600) && before.editMode == env.editMode && before.fontScale == env.fontScale {
                keptAcrossClasses += engine.store.count - engine.dirtyCount
            }
            if step % 7 == 3 { keptByEdit += engine.store.count - engine.dirtyCount }
            // Fewer than half the rows dirty: measured from a list gathered first, loaded ahead.
            if 2 * engine.dirtyCount < engine.store.count { sparse += 1 }
            try engine.measureAll(threads: 1 + step % 2)
            var fresh = try ListEngine(profile: profile, environment: env, viewport: 600, pageCapacity: 16)
            try fresh.append(ids: b.ids, kinds: b.kinds, text: b.text)
            try fresh.measureAll(threads: 1)
            let n = engine.store.count
            var got = [Double](repeating: 0, count: n), want = got
            got.withUnsafeMutableBufferPointer { engine.measuredHeights(into: $0) }
            want.withUnsafeMutableBufferPointer { fresh.measuredHeights(into: $0) }
            #expect(got == want, "\(name) at \(env)")
        }
        #expect(kept > 0, "\(name): some rows kept their heights through width changes")
        #expect(sparse > 0, "\(name): some changes left fewer than half the rows to measure")
        if name != "george" { #expect(keptByEdit > 0, "\(name): some rows kept their heights through edit-mode toggles") }
        if name == "fiori-ios" { #expect(keptAcrossClasses > 0, "fiori-ios: some rows kept their heights into or out of the regular width class") }
    }

    /// Leaving edit mode while the width narrows: rows keep their heights through the
    /// negative shift only where no fit column capped by a fraction of the inner width
    /// reaches its cap at the narrower width (fiori-ios's attributes; seed 22 has a row
    /// that does). Every height against a fresh engine's.
    @Test(arguments: ["fiori-ios", "fiori-android"])
    func leavingEditModeWhileNarrowingMatchesFreshEngines(_ name: String) throws {
        let profile = EngineEquivalenceTests.profile(name)
        var kept = 0
        for seed in UInt64(0)..<40 {
            var rng = SplitMix64(seed: seed)
            var ids = IDSource(seed: seed)
            let b = EngineRowFactory(profile).batch(rows: 200, &rng, ids: &ids)
            var env = LayoutEnvironment(width: Double(rng.int(330 * 64...700 * 64)) / 64, platform: profile.platforms[0])
            env.editMode = true
            var engine = try ListEngine(profile: profile, environment: env, viewport: 600, pageCapacity: 16)
            try engine.append(ids: b.ids, kinds: b.kinds, text: b.text)
            try engine.measureAll(threads: 1)
            env.editMode = false
            env.width = Swift.max(300, env.width - Double(rng.int(0...40 * 64)) / 64)
            try engine.setEnvironment(env)
            engine._checkInvariants()
            kept += engine.store.count - engine.dirtyCount
            try engine.measureAll(threads: 1)
            var fresh = try ListEngine(profile: profile, environment: env, viewport: 600, pageCapacity: 16)
            try fresh.append(ids: b.ids, kinds: b.kinds, text: b.text)
            try fresh.measureAll(threads: 1)
            var got = [Double](repeating: 0, count: b.ids.count), want = got
            got.withUnsafeMutableBufferPointer { engine.measuredHeights(into: $0) }
            want.withUnsafeMutableBufferPointer { fresh.measuredHeights(into: $0) }
            #expect(got == want, "\(name), seed \(seed), at \(env)")
        }
        #expect(kept > 0)
    }

    /// The fill column's shift between layouts that differ in columns of boxes, padding and
    /// gaps, from the profiles' numbers, per set of present values: fiori-android's edit
    /// mode prepends a 24 dp selection control with the 16 dp column gap; fiori-ios's
    /// prepends a 22 pt control with a 16 pt gap and hides the chevron (8 pt and the 8 pt
    /// column gap) and the info disclosure (22 pt); a row with only a footnote (20 pt
    /// lines) could be set in height by the 22 pt control, and has no shift. fiori-ios's
    /// regular width class pads 20 pt a side (16 in compact) and sets 24 pt before the
    /// attributes (the 8 pt column gap in compact); a description moves to a column of its
    /// own there: no shift.
    @Test func fillShiftsFollowTheProfiles() throws {
        /// The objectCell's shifts from `a` to `b` and back for rows with values `present`.
        func shifts(_ profile: Profile, _ a: LayoutEnvironment, _ b: LayoutEnvironment, _ present: [Int]) throws -> (into: FillShift?, back: FillShift?) {
            let m = try CellMeasurer(profile: profile, environment: a)
            let before = m.program
            try m.setEnvironment(b)
            let k = profile.kindIndex(profile.kind(named: "objectCell")!.code)
            let mask = present.reduce(UInt32(0)) { $0 | 1 << UInt32($1) }
            // A fraction column (a regular-width description's) has no shift, even to itself.
            #expect(m.program.fillShift(kind: k, from: m.program, present: mask) == (b.width >= 600 && present.contains(5) ? nil : FillShift.none))
            return (m.program.fillShift(kind: k, from: before, present: mask), before.fillShift(kind: k, from: m.program, present: mask))
        }
        func editShifts(_ profile: Profile, _ platform: LayoutEnvironment.Platform, _ present: [Int]) throws -> (Int64?, Int64?) {
            let plain = LayoutEnvironment(width: 390, platform: platform)
            var edit = plain
            edit.editMode = true
            let (into, back) = try shifts(profile, plain, edit, present)
            #expect(into?.padding ?? 0 == 0 && back?.padding ?? 0 == 0)
            return (into?.fill, back?.fill)
        }
        func units(_ points: Double) -> (Int64?, Int64?) { (LayoutUnit.units(points), -LayoutUnit.units(points)) }
        // fiori-android: title 3, subtitle 4, description 6.
        #expect(try editShifts(ProfileFixtures.fioriAndroid, .android, [3]) == units(24 + 16))
        #expect(try editShifts(ProfileFixtures.fioriAndroid, .android, [3, 4, 6]) == units(24 + 16))
        // fiori-ios: title 2, subtitle 3, description 5, attributes 6, chevron 7, info
        // disclosure 8, overflow 11, button 10.
        let ios = ProfileFixtures.fioriIOS
        #expect(try editShifts(ios, .ios, [2]) == units(22 + 16))
        #expect(try editShifts(ios, .ios, [2, 3, 7]) == units(22 + 16 - 8 - 8))
        #expect(try editShifts(ios, .ios, [2, 8]) == units(22 + 16 - 22 - 8))
        #expect(try editShifts(ios, .ios, [2, 11]) == units(22 + 16))
        #expect(try editShifts(ios, .ios, [2, 10]) == units(22 + 16))
        let footnote = try editShifts(ios, .ios, [4])
        #expect(footnote.0 == nil && footnote.1 == nil)
        // Compact (390 pt) to regular (1024 pt) and back.
        let compact = LayoutEnvironment(width: 390, platform: .ios), regular = LayoutEnvironment(width: 1024, platform: .ios)
        func widthClass(_ present: [Int]) throws -> (into: FillShift?, back: FillShift?) { try shifts(ios, compact, regular, present) }
        let padding = LayoutUnit.units(2 * (20 - 16))
        let title = try widthClass([2, 3, 7])
        #expect(title.into == FillShift(fill: padding, padding: padding) && title.back == FillShift(fill: -padding, padding: -padding))
        let attributes = try widthClass([2, 6, 7])
        #expect(attributes.into == FillShift(fill: padding + LayoutUnit.units(24 - 8), padding: padding))
        #expect(attributes.back == FillShift(fill: -padding - LayoutUnit.units(24 - 8), padding: -padding))
        let description = try widthClass([2, 5, 7])
        #expect(description.into == nil && description.back == nil)
    }

    /// The table of shifts found per kind and set of present values keeps every entry,
    /// "no shift" included, until it is full at 2,048; emptied, it finds nothing.
    @Test func fillShiftTableKeepsWhatItWasGiven() {
        var table = FillShifts()
        func key(_ k: Int) -> UInt64 { UInt64(k % 7) << 32 | UInt64(k) }
        func shift(_ k: Int) -> FillShift? { k % 3 == 0 ? nil : FillShift(fill: Int64(k) - 1000, padding: Int64(k % 5)) }
        #expect(table.find(key(1)) == nil)
        for k in 0..<2048 {
            #expect(!table.isFull)
            table.insert(key(k), shift(k))
        }
        #expect(table.isFull)
        #expect((0..<2048).allSatisfy { table.find(key($0)) == .some(shift($0)) })
        #expect(table.find(key(2048)) == nil)
        table.removeAll()
        #expect(!table.isFull && table.find(key(1)) == nil)
    }

    /// A shift keeps a range that holds the width less the shift and, where the padding
    /// widened more than the fill column narrowed, the width less the padding's change;
    /// a range of one unit (a fill column that does not follow the width) only for the same
    /// layout.
    @Test func fillShiftKeepsRangesThatFollowTheWidth() {
        func range(_ low: Int32, _ high: Int32) -> CellTextBatch.WidthRange { CellTextBatch.WidthRange(low: low, high: high, epoch: 1, present: 1) }
        let r = range(1000, 2000)
        #expect(FillShift.none.keeps(r, at: 1000) && FillShift.none.keeps(r, at: 1999) && !FillShift.none.keeps(r, at: 2000))
        let narrower = FillShift(fill: 300, padding: 100)
        #expect(narrower.keeps(r, at: 1300) && narrower.keeps(r, at: 2299) && !narrower.keeps(r, at: 1299) && !narrower.keeps(r, at: 2300))
        // Columns 200 narrower, padding 300 wider: the inner width was 300 less.
        let wider = FillShift(fill: 100, padding: 300)
        #expect(!wider.keeps(r, at: 1100) && wider.keeps(r, at: 1300) && wider.keeps(r, at: 2099) && !wider.keeps(r, at: 2100))
        let point = range(1000, 1001)
        #expect(FillShift.none.keeps(point, at: 1000) && !FillShift.none.keeps(point, at: 1001))
        #expect(!narrower.keeps(point, at: 1300) && !FillShift(fill: 0, padding: 0).keeps(point, at: 999))
    }

    /// The marking's branch-free update of a width range does what `shift(by:)` does when it
    /// moves the range, empties the bounds (keeping the epoch) when it marks the row, and
    /// nothing otherwise: edge bounds (the open top, ranges a shift carries out) and random ones.
    @Test func widthRangeUpdateMatchesShift() {
        var rng = SplitMix64(seed: 0x5EED)
        let top = Int32.max
        var cases: [(low: Int32, high: Int32, shift: Int64)] = []
        for (low, high) in [(1, 2), (1, top), (5, 9), (top - 2, top - 1), (top - 1, top), (0, 0), (1000, 2000)] as [(Int32, Int32)] {
            for shift: Int64 in [0, 1, -1, 4, -4, 999, -999, 1000, -1000, Int64(top), -Int64(top), Int64(Int32.min), 1 << 40, -(1 << 40)] {
                cases.append((low, high, shift))
            }
        }
        for _ in 0..<2000 {
            let low = Int32(truncatingIfNeeded: rng.next() % UInt64(top)), high = rng.next() % 8 == 0 ? top : Int32(truncatingIfNeeded: rng.next() % UInt64(top))
            cases.append((low, high, Int64(truncatingIfNeeded: rng.next() % (1 << 33)) - (1 << 32)))
        }
        for c in cases {
            let range = CellTextBatch.WidthRange(low: c.low, high: c.high, epoch: 7, present: 0b1011)
            var shifted = range, moved = range, emptied = range, kept = range
            shifted.shift(by: c.shift)
            moved.update(moves: 1, by: c.shift, empties: 0)
            emptied.update(moves: 0, by: c.shift, empties: 1)
            kept.update(moves: 0, by: c.shift, empties: 0)
            #expect(moved == shifted, "\(c)")
            #expect(emptied == CellTextBatch.WidthRange(low: 0, high: 0, epoch: 7, present: 0b1011), "\(c)")
            #expect(kept == range, "\(c)")
        }
    }

    /// On a new platform rows never measured move to the platform's estimates; measured
    /// ones keep their (stale) heights until measured again.
    @Test func platformChangeMovesEstimates() throws {
        var engine = try Self.george(rows: 50, viewport: 100, overscan: 0)
        try engine.measure(budget: .rows(3))
        let measured = (0..<3).map { try! engine.store.row($0).height }
        try engine.setEnvironment(LayoutEnvironment(width: 375, platform: .android))
        engine._checkInvariants()
        #expect(engine.dirtyCount == engine.store.count)
        #expect((0..<3).map { try! engine.store.row($0).height } == measured)
        let g = ProfileFixtures.george
        for r in 3..<engine.store.count {
            let info = try engine.store.row(r)
            #expect(info.height == g.kind(code: info.kind)!.estimatedHeight(on: .android))
        }
    }

    /// Estimates above the viewport turning into measurements move the offset, not the rows
    /// on screen.
    @Test func measuringAboveTheAnchorKeepsItStill() throws {
        var engine = try Self.george(rows: 500, viewport: 600, overscan: 0)
        try engine.scroll(to: 12_345.5)
        let anchor = engine.anchor!
        let row = engine.store.index(of: anchor.id)!
        let screenY = try engine.store.offset(ofRow: row) - engine.scrollOffset
        try engine.measure(budget: .rows(40))
        #expect(try engine.store.offset(ofRow: row) - engine.scrollOffset == screenY)
        let offset = try engine.measureAll(threads: 2)
        engine._checkInvariants()
        #expect(offset == engine.scrollOffset)
        #expect(try engine.store.offset(ofRow: row) - engine.scrollOffset == screenY)
        #expect(engine.anchor!.id == anchor.id)
    }

    /// The measurers of `measureAll`'s threads are made one after the other on one thread;
    /// the blocks each writes for every row it measures (scratch, slot and column state,
    /// kind counters, plan table, the text engine's caches and cluster tables) start on a
    /// cache line and fill whole lines, so no two threads' blocks share one. Before, small
    /// blocks of two workers sat side by side (a measurer's scratch of 160 bytes beside the
    /// other's, or beside its kind counters).
    @Test func workersShareNoCacheLine() throws {
        var engine = try Self.george(rows: 300)
        try engine.measureAll(threads: 2)
        try engine.setEnvironment(LayoutEnvironment(width: 500, platform: .ios))
        try engine.measureAll(threads: 2)
        let layout = engine.layout
        let workers = try #require(layout).workers(2)
        #expect(workers.count == 2 && workers[0] !== workers[1])
        for m in workers {
            let s = m.scratch.pointee, c = m.textEngine.caches.pointee
            let blocks: [(String, UnsafeMutableRawPointer)] = [
                ("scratch", UnsafeMutableRawPointer(m.scratch)), ("slotState", UnsafeMutableRawPointer(s.slotState)),
                ("columnState", UnsafeMutableRawPointer(s.columnState)), ("coverage", UnsafeMutableRawPointer(s.coverage)),
                ("plans", UnsafeMutableRawPointer(s.plans)), ("keptKinds", UnsafeMutableRawPointer(s.keptKinds)),
                ("keptKeys", UnsafeMutableRawPointer(s.keptKeys)), ("caches", UnsafeMutableRawPointer(m.textEngine.caches)),
                ("clusterStyles", UnsafeMutableRawPointer(c.clusterStyles)), ("clusterWidths", UnsafeMutableRawPointer(c.clusterWidths)),
            ]
            for (name, p) in blocks {
                #expect(UInt(bitPattern: p) % 64 == 0 && Jemalloc.usableSize(p) % 64 == 0, "\(name) at \(p), \(Jemalloc.usableSize(p)) bytes")
            }
        }
    }
}
