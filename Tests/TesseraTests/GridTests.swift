import Testing
@testable import Tessera

/// Grid mode: packing, line heights, item positions and re-packing at new widths, against
/// `CellMeasurer.gridLayout` (which lays out a whole grid at once) and the README's worked
/// example 13.
@Suite struct GridTests {
    /// The collection profile plus kinds outside its grid: a sticky header, a full-width
    /// banner cell with a divider, and a footer, so lines break around them.
    static let mixed: Profile = {
        let doc = JSONValue.parse(ProfileFixtures.text("fiori-ios-collection"))
            .setting("kinds.gridHeader", JSONValue.parse("""
                {"code": 3, "role": "header", "sticky": true, "estimatedHeight": 40, "divider": null,
                 "padding": {"top": 12, "bottom": 8, "leading": 16, "trailing": 16},
                 "slots": {"title": {"type": "text", "index": 0, "style": "title", "maxLines": 2, "required": true}},
                 "layout": {"columnGap": 0, "columns": [{"items": ["title"], "width": "fill"}]}}
                """))
            .setting("kinds.gridBanner", JSONValue.parse("""
                {"code": 4, "role": "cell", "estimatedHeight": 60, "minHeight": 44, "divider": {"ios": {"leadingInset": 16}},
                 "padding": {"top": 8, "bottom": 8, "leading": 16, "trailing": 16},
                 "slots": {"text": {"type": "text", "index": 0, "style": "subtitle", "maxLines": 0, "required": true}},
                 "layout": {"columnGap": 0, "columns": [{"items": ["text"], "width": "fill"}]}}
                """))
            .setting("kinds.gridFooter", JSONValue.parse("""
                {"code": 5, "role": "footer", "estimatedHeight": 30, "divider": null,
                 "padding": {"top": 4, "bottom": 4, "leading": 16, "trailing": 16},
                 "slots": {"text": {"type": "text", "index": 0, "style": "attribute", "maxLines": 1, "required": true}},
                 "layout": {"columnGap": 0, "columns": [{"items": ["text"], "width": "fill"}]}}
                """))
        let count = { if case .array(let a)? = doc.value(at: "provenance") { return a.count } else { return 0 } }()
        let full = doc.setting("provenance.\(count)", JSONValue.parse("""
            {"paths": ["kinds.gridHeader", "kinds.gridBanner", "kinds.gridFooter"], "source": "seed", "assumed": true, "note": "Test kinds."}
            """))
        return try! Profile(json: Array(full.json.utf8))
    }()

    /// The collection profile plus a "content"-wide grid item holding a text without a
    /// line limit: capped by the slot width, its text wraps there, so its height reads the
    /// width (its plans need the column widths).
    static let captioned: Profile = {
        let doc = JSONValue.parse(ProfileFixtures.text("fiori-ios-collection"))
            .setting("kinds.gridCaption", JSONValue.parse("""
                {"code": 6, "role": "cell", "estimatedHeight": 40, "minHeight": 20, "divider": null,
                 "padding": {"top": 4, "bottom": 4, "leading": 4, "trailing": 4},
                 "slots": {"text": {"type": "text", "index": 0, "style": "subtitle", "maxLines": 0, "required": true}},
                 "layout": {"columnGap": 0, "columns": [{"items": ["text"], "width": "fill"}]}}
                """))
            .setting("grid.kinds.2", JSONValue.parse(#"{"kind": "gridCaption", "itemWidth": "content"}"#))
        let count = { if case .array(let a)? = doc.value(at: "provenance") { return a.count } else { return 0 } }()
        let full = doc.setting("provenance.\(count)", JSONValue.parse("""
            {"paths": ["kinds.gridCaption", "grid.kinds.2"], "source": "seed", "assumed": true, "note": "Test kind."}
            """))
        return try! Profile(json: Array(full.json.utf8))
    }()

    /// Image-only "content" items keep their heights through a change of the slot width
    /// without their rows being read; captions, whose text wraps at the slot width, do not:
    /// they are measured again and come out as a fresh measurer's.
    @Test func contentItemsThatReadTheWidthAreMeasuredAgain() throws {
        let profile = Self.captioned
        let caption = profile.kind(named: "gridCaption")!.code, image = profile.kind(named: "collectionImage")!.code
        var rng = SplitMix64(seed: 31)
        var ids = IDSource(seed: 31)
        let b = EngineRowFactory(profile).batch(rows: 80, &rng, ids: &ids)
        let long = b.kinds.indices.filter { b.kinds[$0] == caption && b.slots[$0][0].count > 40 }
        #expect(long.count >= 3 && b.kinds.contains(image))
        var engine = try ListEngine(profile: profile, environment: LayoutEnvironment(width: 1024, platform: .ios), viewport: 700)
        try engine.append(ids: b.ids, kinds: b.kinds, text: b.text)
        try engine.measureAll(threads: 1)
        for width in [768.0, 900, 1024] {
            let environment = LayoutEnvironment(width: width, platform: .ios)
            try engine.setEnvironment(environment)
            engine._checkInvariants()
            let dirty = (0..<engine.store.count).filter { try! engine.store.row($0).flags.contains(.dirty) }
            #expect(long.allSatisfy(dirty.contains), "captions wrapping at the slot width measured again at \(width)")
            #expect(!dirty.contains { b.kinds[$0] == image }, "image-only items keep their heights at \(width)")
            try engine.measureAll(threads: 1)
            #expect(PreparedTextsEngineTests.heights(engine) == PreparedTextsEngineTests.reference(profile, environment, b.kinds, b.slots))
        }
    }

    @Test(arguments: [101, 102, 103, 104, 105, 106] as [UInt64])
    func mixedGridMatchesFromScratch(seed: UInt64) throws {
        try EngineEquivalenceTests.run(
            EngineEquivalenceTests.Scenario(profile: "fiori-ios-collection", platform: .ios, seed: seed), profile: Self.mixed, steps: 100)
    }

    /// Every item's frame and the content height equal `gridLayout`'s for the same rows,
    /// at several widths (3, 4 and 5 columns) and both item widths, re-packed in place.
    @Test(arguments: [Self.mixed, ProfileFixtures.collection])
    func framesMatchGridLayout(profile: Profile) throws {
        var rng = SplitMix64(seed: 0x6121D)
        let factory = EngineRowFactory(profile)
        var ids = IDSource(seed: 77)
        var env = LayoutEnvironment(width: 768, platform: .ios)
        var engine = try ListEngine(profile: profile, environment: env, viewport: 600, pageCapacity: 7, treeFanout: 4)
        var all = EngineBatch(slotsPerRow: factory.batch(rows: 0, &rng, ids: &ids).text.slotsPerRow)
        for _ in 0..<4 {
            let b = factory.batch(rows: 40, &rng, ids: &ids)
            try engine.append(ids: b.ids, kinds: b.kinds, text: b.text)
            engine._checkInvariants()
            for i in b.ids.indices { all.add(profile.kind(code: b.kinds[i])!, b.slots[i], &ids) }
        }
        for (width, itemWidth) in [(768.0, 110), (375, 110), (1024, 120), (414, 120), (1366, 110), (600, 120)] {
            env.width = width
            env.parameters = ["itemWidth": itemWidth]
            try engine.setEnvironment(env)
            engine._checkInvariants()
            try engine.measureAll(threads: 2)
            engine._checkInvariants()
            let reference = makeMeasurer(profile, width: width, parameters: ["itemWidth": itemWidth], engine: TextLayoutEngine())
            let layout = reference.gridLayout(kinds: all.kinds, text: all.text)!
            #expect(engine.store.totalHeight == layout.height, "width \(width)")
            try engine.setViewport(engine.store.totalHeight)
            try engine.scroll(to: 0)
            withItemBuffer(all.kinds.count + 1) { buffer in
                let w = try! engine.window(overscan: 0, into: buffer)
                #expect(w.rows == 0..<all.kinds.count)
                for i in 0..<w.count {
                    let f = layout.frames[i]
                    #expect(CellRect(x: buffer[i].x, y: buffer[i].y, width: buffer[i].width, height: buffer[i].height) == f, "width \(width), row \(i)")
                }
            }
            #expect(engine.grid!.columnCount == reference.grid!.columnCount)
        }
    }

    /// README example 13: six collection items, 5 columns at 768 and 3 at 375.
    @Test func readmeExample13() throws {
        let profile = ProfileFixtures.collection
        let lines: [(Int, Int, Int)] = [(2, 1, 1), (1, 1, 0), (1, 0, 0), (2, 0, 1), (1, 0, 0), (1, 0, 0)]
        var text = RowText(slotsPerRow: 5)
        for (t, s, a) in lines {
            text.append(profile.row("collectionItem", [
                "title": StubText.lines(t), "subtitle": s > 0 ? StubText.lines(s) : "", "attribute": a > 0 ? StubText.lines(a) : "",
            ]).slots)
        }
        let code = profile.kind(named: "collectionItem")!.code
        var engine = try ListEngine(
            profile: profile, environment: LayoutEnvironment(width: 768, platform: .ios), viewport: 1000, overscan: 0, textEngine: StubText.engine())
        try engine.append(ids: Array(1...6), kinds: Array(repeating: code, count: 6), text: text)
        engine._checkInvariants()
        try engine.measureAll(threads: 1)
        engine._checkInvariants()
        #expect(engine.grid!.columnCount == 5)
        #expect(engine.store.totalHeight == 366)
        withItemBuffer(8) { buffer in
            let w = try! engine.window(into: buffer)
            #expect(w.count == 6)
            #expect(buffer[0..<6].map(\.x) == [16, 164.796875, 313.59375, 462.40625, 611.203125, 16])
            #expect(buffer[0..<6].map(\.y) == [16, 16, 16, 16, 16, 214])
            #expect(buffer[0..<6].map(\.height) == [190, 154, 136, 172, 136, 136])
            #expect(buffer[0..<6].allSatisfy { $0.width == 110 })
        }
        // Compact: items narrowed to the 109 pt slot, re-measured, 3 to a line.
        try engine.setEnvironment(LayoutEnvironment(width: 375, platform: .ios))
        engine._checkInvariants()
        #expect(engine.dirtyCount == 6)
        try engine.measureAll(threads: 2)
        engine._checkInvariants()
        #expect(engine.grid!.columnCount == 3)
        withItemBuffer(8) { buffer in
            let w = try! engine.window(into: buffer)
            #expect(w.count == 6)
            #expect(buffer[0..<3].map(\.x) == [16, 133, 250])
            #expect(buffer[0..<3].map(\.height) == [189, 153, 135])
            #expect(buffer[0..<3].allSatisfy { $0.width == 109 && $0.y == 16 })
            #expect(buffer[3].y == 16 + 189 + 8)
        }
    }

    /// A wider screen in the same class keeps labelled items at their 110 pt width: their
    /// heights stay valid (not dirty) and only the lines re-pack. Image-only items are
    /// "content" wide, capped by the slot width, which changed; their heights follow from
    /// their images alone, so they keep them too, through any change of width.
    @Test func widthInsideAClassRepacksWithoutRemeasuring() throws {
        let profile = ProfileFixtures.collection
        var rng = SplitMix64(seed: 9)
        var ids = IDSource(seed: 9)
        let b = EngineRowFactory(profile).batch(rows: 50, &rng, ids: &ids)
        var engine = try ListEngine(profile: profile, environment: LayoutEnvironment(width: 768, platform: .ios), viewport: 700)
        try engine.append(ids: b.ids, kinds: b.kinds, text: b.text)
        try engine.measureAll(threads: 1)
        try engine.scroll(to: 400)
        let anchor = engine.anchor!
        let row = engine.store.index(of: anchor.id)!
        let screenY = try engine.store.offset(ofRow: row) - engine.scrollOffset
        let item = profile.kind(named: "collectionItem")!.code
        func dirtyItems(_ engine: borrowing ListEngine) -> Int {
            (0..<engine.store.count).filter { let r = try! engine.store.row($0); return r.kind == item && r.flags.contains(.dirty) }.count
        }
        try engine.setEnvironment(LayoutEnvironment(width: 1024, platform: .ios))
        engine._checkInvariants()
        #expect(dirtyItems(engine) == 0)
        #expect(engine.dirtyCount == 0)
        #expect(engine.grid!.columnCount == 5)
        // The anchor item's line (now starting at another item) stays on screen where it was.
        let leader = engine.layout!.lineStart(row, engine.store)
        #expect(try engine.store.offset(ofRow: leader) - engine.scrollOffset == screenY)
        try engine.measureAll(threads: 1)
        try engine.setEnvironment(LayoutEnvironment(width: 1024, platform: .ios, editMode: true))
        #expect(engine.dirtyCount == 0)
        try engine.setEnvironment(LayoutEnvironment(width: 375, platform: .ios))
        #expect(engine.dirtyCount == b.kinds.filter { $0 == item }.count)
        try engine.measureAll(threads: 1)
        #expect(PreparedTextsEngineTests.heights(engine) == PreparedTextsEngineTests.reference(profile, LayoutEnvironment(width: 375, platform: .ios), b.kinds, b.slots))
        engine._checkInvariants()
    }

    /// Inserts and removals of whole lines and of single rows, at the top, at a line's
    /// first row, anywhere and at the end, with rows outside the grid among the new rows
    /// (the mixed profile) and rows measured in between: after each, every line's span,
    /// the offsets, the anchor and the window equal the naive model's, which packs every
    /// line from scratch. An insert or removal re-packs only up to where the old lines
    /// come back (whole lines: right after the change; otherwise the next row outside
    /// the grid), so a wrong stop shows as a wrong span here.
    @Test(arguments: [Self.mixed, ProfileFixtures.collection], [1, 2] as [UInt64])
    func linesRepackedAfterInsertsAndRemovalsMatchFromScratch(profile: Profile, seed: UInt64) throws {
        var rng = SplitMix64(seed: 0x7E9AC &+ seed)
        let factory = EngineRowFactory(profile)
        var ids = IDSource(seed: 40 + seed)
        let env = LayoutEnvironment(width: seed == 1 ? 375 : 1024, platform: .ios)
        var engine = try ListEngine(
            profile: profile, environment: env, viewport: 500, overscan: 100, textEngine: TextLayoutEngine(), pageCapacity: 5, treeFanout: 4)
        let m = ProfileListModel(profile: profile, env: env, viewport: 500, overscan: 100) { TextLayoutEngine() }
        m.reanchor()
        let c = Checker("\(profile.name) seed \(seed)")
        let gridKinds = factory.cells.filter { profile.gridKinds.contains($0.name) }
        let others = profile.kinds.filter { !profile.gridKinds.contains($0.name) }
        /// `n` rows, mostly grid items; now and then one outside the grid.
        func rows(_ n: Int) -> EngineBatch {
            var b = EngineBatch(slotsPerRow: profile.kinds.map(\.valueCount).max()!)
            for _ in 0..<n {
                let kind = !others.isEmpty && rng.chance(0.1) ? rng.pick(others) : rng.pick(gridKinds)
                b.add(kind, factory.row(kind, &rng), &ids)
            }
            return b
        }
        let first = rows(60)
        let appended = try engine.append(ids: first.ids, kinds: first.kinds, text: first.text)
        m.insert(first, at: 0)
        verifyProfileEngine(engine, m, c, returned: appended)
        var inserts = 0, removals = 0
        for step in 0..<160 where c.ok {
            c.context = "\(profile.name) seed \(seed), step \(step)"
            let columns = engine.grid!.columnCount
            let count = m.count
            // A place: the top, the end, a line's first row, anywhere.
            let lines = m.lines
            let lineStart = lines.isEmpty ? 0 : rng.pick(lines).lowerBound
            let at = [0, count, lineStart, rng.int(0...count)][rng.below(4)]
            let k = rng.chance(0.5) ? columns * rng.int(1...2) : rng.int(1...columns + 1)
            let before = anchorScreenY(engine, m)
            do {
                if rng.chance(0.55) || count < 30 {
                    let b = rows(k)
                    let got = try engine.insert(ids: b.ids, kinds: b.kinds, text: b.text, at: at)
                    m.insert(b, at: at)
                    verifyProfileEngine(engine, m, c, returned: got)
                    inserts += 1
                } else {
                    let lo = min(at, count - 1), hi = min(count, lo + k)
                    let got = try engine.removeRows(lo..<hi)
                    m.remove(lo..<hi)
                    verifyProfileEngine(engine, m, c, returned: got)
                    removals += 1
                }
            } catch {
                // A footer or header can break a group rule; nothing changed then.
                guard case .ruleViolation = error else { throw error }
                verifyProfileEngine(engine, m, c)
                continue
            }
            checkAnchorStill(before, engine, c)
            switch rng.below(4) {
            case 0:
                let order = m.priorityOrder(), budget = rng.int(1...20)
                let progress = try engine.measure(budget: .rows(budget))
                m.measured(Array(order.prefix(budget)))
                verifyProfileEngine(engine, m, c, returned: progress.scrollOffset)
            case 1:
                let y = Double(rng.below(Int(m.maximumScrollOffset) + 1))
                try engine.scroll(to: y)
                m.scroll(to: y)
                verifyProfileEngine(engine, m, c)
            default: break
            }
        }
        #expect(inserts > 40 && removals > 40)
    }

    // MARK: Anchoring

    /// One row of a test list: id, kind and values.
    typealias TestRow = (id: UInt64, kind: UInt16, slots: [String])

    static func text(_ rows: [TestRow], slotsPerRow: Int) -> RowText {
        var t = RowText(slotsPerRow: slotsPerRow)
        for r in rows { t.append(r.slots) }
        return t
    }

    /// The y of each row's items, packed the naive way from their heights: `columns` to a
    /// line (no kinds outside the grid), each line as tall as its tallest item, `gap`
    /// between lines and `padding` above the first.
    static func naiveItemY(_ heights: [Double], columns: Int, padding: Double, gap: Double) -> [Double] {
        var ys: [Double] = [], y = padding
        for start in stride(from: 0, to: heights.count, by: columns) {
            let line = start..<min(start + columns, heights.count)
            ys += line.map { _ in y }
            y += line.map { heights[$0] }.max()! + gap
        }
        return ys
    }

    /// The anchored item's y on screen, as the engine's window reports it.
    static func screenY(_ engine: borrowing ListEngine, id: UInt64) -> Double? {
        withItemBuffer(engine.store.count + 1) { buffer in
            let w = try! engine.window(overscan: 0, into: buffer)
            return (0..<w.count).first { buffer[$0].id == id }.map { buffer[$0].y - engine.scrollOffset }
        }
    }

    /// Rows inserted above the first grid line, whole lines or not, with the viewport's
    /// top in the first line's padding, in its items, in its row gap, or in a later line:
    /// the anchored item keeps its place on screen (the first line's span holds the
    /// padding above its items, which moves to the new first line), unless its new line
    /// ends above the viewport's top. Checked right after the insert against the lines
    /// packed naively (measured items at their heights, the new ones at their estimate),
    /// after measuring everything against `gridLayout` of all the rows from scratch, and
    /// again after removing the rows (the line becomes the first and takes the padding
    /// back).
    @Test(arguments: [1, 2, 3, 4, 6, 7] as [Int])
    func insertsAboveTheFirstLineKeepTheAnchoredItemStill(inserted k: Int) throws {
        let profile = ProfileFixtures.collection
        let width = 375.0
        let slotsPerRow = profile.kinds.map(\.valueCount).max()!
        let factory = EngineRowFactory(profile)
        var rng = SplitMix64(seed: 0x1A5E7 &+ UInt64(k))
        var ids = IDSource(seed: 31)
        func rows(_ n: Int) -> [TestRow] {
            (0..<n).map { _ in
                let kind = rng.pick(factory.cells)
                return (ids.next(), kind.code, factory.row(kind, &rng))
            }
        }
        let reference = makeMeasurer(profile, width: width, engine: TextLayoutEngine())
        let grid = reference.grid!
        #expect(grid.columnCount == 3)
        func layout(_ rows: [TestRow]) -> GridLayout { reference.gridLayout(kinds: rows.map(\.kind), text: Self.text(rows, slotsPerRow: slotsPerRow))! }
        /// How far below a row's items its line's span reaches: its tallest item and the
        /// gap (the padding after the last line), from the items' heights.
        func spanBelowItems(_ heights: [Double], _ row: Int) -> Double {
            let start = row - row % 3, end = min(start + 3, heights.count)
            return heights[start..<end].max()! + (end == heights.count ? grid.padding : grid.rowGap)
        }
        let base = rows(60)
        let g = layout(base)
        let itemsTop = g.frames[0].y, lineHeight = g.frames[0..<3].map(\.height).max()!
        #expect(itemsTop == grid.padding)
        // In the padding, at the items' top, inside the first item, in the row gap, in
        // the third line.
        let offsets = [0, 9.5, itemsTop, itemsTop + g.frames[0].height / 2, itemsTop + lineHeight + grid.rowGap / 2, g.frames[6].y + 5]
        let added = rows(k)
        let estimates = profile.estimatedHeights(platform: .ios)
        var checked = 0
        for offset in offsets {
            var engine = try ListEngine(
                profile: profile, environment: LayoutEnvironment(width: width, platform: .ios), viewport: 500, overscan: 0,
                pageCapacity: 5, treeFanout: 4)
            try engine.append(ids: base.map(\.id), kinds: base.map(\.kind), text: Self.text(base, slotsPerRow: slotsPerRow))
            try engine.measureAll(threads: 1)
            #expect(try engine.scroll(to: offset) == offset)
            engine._checkInvariants()
            let anchor = engine.anchor!.id
            let row = base.firstIndex { $0.id == anchor }!
            let screen = g.frames[row].y - offset
            #expect(Self.screenY(engine, id: anchor) == screen, "offset \(offset)")

            let got = try engine.insert(ids: added.map(\.id), kinds: added.map(\.kind), text: Self.text(added, slotsPerRow: slotsPerRow), at: 0)
            engine._checkInvariants()
            #expect(got == engine.scrollOffset)
            let heights = added.map { estimates[Int($0.kind)] } + (0..<base.count).map { g.frames[$0].height }
            let naive = Self.naiveItemY(heights, columns: 3, padding: grid.padding, gap: grid.rowGap)
            if -screen <= spanBelowItems(heights, k + row) {
                #expect(naive[k + row] - engine.scrollOffset == screen, "offset \(offset), right after the insert")
                #expect(Self.screenY(engine, id: anchor) == screen, "offset \(offset), window")
                checked += 1
            }

            // Measuring the new rows moves nothing below the anchor, which is still the
            // line of the item read (whose first item may be a new one) unless the
            // viewport's top was in the padding (it is then in the new rows' line above).
            let anchorAfterInsert = engine.anchor!.id
            try engine.measureAll(threads: 1)
            engine._checkInvariants()
            let all = added + base
            let g2 = layout(all)
            #expect(engine.store.totalHeight == g2.height)
            let measured = all.indices.map { g2.frames[$0].height }
            if offset >= itemsTop, -screen <= spanBelowItems(measured, k + row) {
                #expect(engine.store.index(of: anchorAfterInsert)! / 3 == (k + row) / 3, "offset \(offset)")
                #expect(g2.frames[k + row].y - engine.scrollOffset == screen, "offset \(offset), measured")
                checked += 1
            }

            // Removing them again: the item read is in the first line again if it was
            // there, with the padding above its items, and stays where it is seen.
            let now = engine.anchor!.id
            let nowRow = all.firstIndex { $0.id == now }!
            let nowScreen = g2.frames[nowRow].y - engine.scrollOffset
            let back = try engine.removeRows(0..<k)
            engine._checkInvariants()
            #expect(back == engine.scrollOffset)
            if nowRow >= k, -nowScreen <= spanBelowItems(measured.dropFirst(k).map { $0 }, nowRow - k) {
                #expect(g.frames[nowRow - k].y - engine.scrollOffset == nowScreen, "offset \(offset), removed")
                checked += 1
            }
            if offset >= itemsTop && k % 3 == 0 {
                // Whole lines: everything is as it was.
                #expect(engine.scrollOffset == offset)
            }
        }
        // Not vacuous: most cases keep the distance into the line.
        #expect(checked >= 10)
    }
}
