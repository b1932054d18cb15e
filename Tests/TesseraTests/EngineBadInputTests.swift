import Testing
@testable import Tessera

/// Everything observable about a profile-driven engine, for "a failed call changed
/// nothing": the store (rows, offsets, texts, windows), the scroll state, the
/// environment, the dirty bookkeeping, the group and line marks, the item window.
struct EngineSnapshot: Equatable, CustomStringConvertible {
    var store: StoreSnapshot
    var scrollOffset: Double, viewport: Double, overscan: Double
    var anchor: ScrollAnchor?
    var environment: LayoutEnvironment?
    var dirtyCount: Int
    var grid: GridMetrics?
    var groupMarks: [Int32], lineBreaks: [Int32], itemHeights: [UInt32]
    var clean: Range<Int>?
    var items: [VisibleItem]
    var sticky: VisibleItem?

    init(_ engine: borrowing ListEngine) {
        store = StoreSnapshot(engine.store)
        scrollOffset = engine.scrollOffset
        viewport = engine.viewport
        overscan = engine.overscan
        anchor = engine.anchor
        environment = engine.environment
        dirtyCount = engine.dirtyCount
        grid = engine.grid
        groupMarks = engine.layout?.groupMarks ?? []
        lineBreaks = engine.layout?.lineBreaks ?? []
        itemHeights = engine.layout?.isGrid == true ? (0..<engine.store.count).map { engine.store.itemUnits(ofRow: $0) } : []
        clean = engine.layout?.clean
        (items, sticky) = withItemBuffer(engine.store.count + 1) { buffer in
            let w = try! engine.window(into: buffer)
            return (Array(buffer[0..<w.count]), w.stickyHeader)
        }
    }

    var description: String { "\(store), offset \(scrollOffset), \(dirtyCount) dirty" }
}

@Suite struct EngineBadInputTests {
    /// A George list on iOS: groups with headers and footers, a selection group, partly
    /// measured, scrolled into the middle.
    static func george() throws -> ListEngine {
        let g = ProfileFixtures.george
        var rng = SplitMix64(seed: 5)
        var ids = IDSource(seed: 5)
        let b = EngineRowFactory(g).batch(rows: 80, &rng, ids: &ids)
        var engine = try ListEngine(profile: g, environment: LayoutEnvironment(width: 375, platform: .ios), viewport: 400, pageCapacity: 6, treeFanout: 4)
        try engine.append(ids: b.ids, kinds: b.kinds, text: b.text)
        // A selection group of exactly two rows at the end.
        var text = RowText(slotsPerRow: 10)
        for row in [g.row("sectionHeader", ["headline": "Pick one"]), g.row("singleSelectionLeading", ["label": "A"]), g.row("singleSelectionLeading", ["label": "B"])] {
            text.append(row.slots)
        }
        try engine.append(ids: [1, 2, 3], kinds: [13, 2, 2], text: text)
        try engine.measure(budget: .rows(30))
        try engine.scroll(to: 500)
        try engine.measure(budget: .rows(10))
        engine._checkInvariants()
        return engine
    }

    /// Runs `body`, which must throw `expected`, and checks the engine is as it was and
    /// still works.
    static func expectUnchanged(_ engine: inout ListEngine, _ expected: TesseraError, sourceLocation: SourceLocation = #_sourceLocation,
                                _ body: (inout ListEngine) throws(TesseraError) -> Void) {
        let before = EngineSnapshot(engine)
        do throws(TesseraError) {
            try body(&engine)
            Issue.record("no error, expected \(expected)", sourceLocation: sourceLocation)
        } catch {
            #expect(error == expected, sourceLocation: sourceLocation)
        }
        engine._checkInvariants()
        #expect(EngineSnapshot(engine) == before, sourceLocation: sourceLocation)
    }

    static func batch(_ rows: [(String, [String: String])], firstID: UInt64 = 10_000) -> EngineBatch {
        let g = ProfileFixtures.george
        var b = EngineBatch(slotsPerRow: 10)
        var ids = IDSource(seed: firstID)
        for (kind, values) in rows { b.add(g.kind(named: kind)!, g.row(kind, values).slots, &ids) }
        return b
    }

    @Test func rowsBreakingRulesChangeNothing() throws {
        var engine = try Self.george()
        let kind = "basicCell"
        let cases: [([(String, [String: String])], TesseraError)] = [
            ([(kind, ["label": "ok"]), (kind, [:])], .ruleViolation(row: 1, kind: kind, rule: .missingRequired(slot: "label"))),
            ([(kind, ["label": "x", "subLine": "s", "topLine": "t"])], .ruleViolation(row: 0, kind: kind, rule: .exclusive(present: ["subLine", "topLine"]))),
            ([(kind, ["label": "x", "chevron": "1", "toggle": "1"])], .ruleViolation(row: 0, kind: kind, rule: .exclusive(present: ["chevron", "toggle"]))),
            ([("sectionHeader", ["headline": "h", "iconIndent": "1", "avatarIndent": "1"])],
             .ruleViolation(row: 0, kind: "sectionHeader", rule: .exclusive(present: ["iconIndent", "avatarIndent"]))),
        ]
        for (rows, error) in cases {
            let b = Self.batch(rows)
            Self.expectUnchanged(&engine, error) { (e) throws(TesseraError) in try e.append(ids: b.ids, kinds: b.kinds, text: b.text) }
            Self.expectUnchanged(&engine, error) { (e) throws(TesseraError) in try e.insert(ids: b.ids, kinds: b.kinds, text: b.text, at: 3) }
        }
        // A value at an index the kind does not have.
        var text = RowText(slotsPerRow: 10)
        text.append(["h", "", "", "surplus"])
        let header = ProfileFixtures.george.kind(named: "titleHeader")!
        Self.expectUnchanged(&engine, .ruleViolation(row: 0, kind: header.name, rule: .unknownSlot(index: 3, valueCount: 3))) { (e) throws(TesseraError) in
            try e.append(ids: [20_000], kinds: [header.code], text: text)
        }
    }

    @Test func malformedBatchesChangeNothing() throws {
        var engine = try Self.george()
        let ok = Self.batch([("basicCell", ["label": "a"]), ("basicCell", ["label": "b"])])
        Self.expectUnchanged(&engine, .unknownKindCode(99, profile: "george")) { (e) throws(TesseraError) in
            try e.append(ids: ok.ids, kinds: [1, 99], text: ok.text)
        }
        Self.expectUnchanged(&engine, .unknownKindCode(0, profile: "george")) { (e) throws(TesseraError) in
            try e.append(ids: ok.ids, kinds: [0, 1], text: ok.text)
        }
        Self.expectUnchanged(&engine, .columnLengthMismatch(column: "kinds", expected: 2, actual: 1)) { (e) throws(TesseraError) in
            try e.append(ids: ok.ids, kinds: [1], text: ok.text)
        }
        var short = ok.text
        short.offsets.removeLast()
        Self.expectUnchanged(&engine, .columnLengthMismatch(column: "text offsets", expected: 21, actual: 20)) { (e) throws(TesseraError) in
            try e.append(ids: ok.ids, kinds: ok.kinds, text: short)
        }
        var invalid = ok.text
        invalid.utf8[invalid.offsets[2]] = 0xFF  // row 0's label
        Self.expectUnchanged(&engine, .invalidUTF8(row: 0, slot: 2, byteOffset: 0)) { (e) throws(TesseraError) in
            try e.append(ids: ok.ids, kinds: ok.kinds, text: invalid)
        }
        var backwards = ok.text
        backwards.offsets[13] = backwards.utf8.count + 5  // row 1, slot 2 ends past the text
        Self.expectUnchanged(&engine, .invalidTextOffsets(row: 1, slot: 2)) { (e) throws(TesseraError) in
            try e.append(ids: ok.ids, kinds: ok.kinds, text: backwards)
        }
        Self.expectUnchanged(&engine, .unsupported("heights for rows of a profile-driven list: the engine measures them")) { (e) throws(TesseraError) in
            try e.append(ids: ok.ids, kinds: ok.kinds, heights: [44, 44], text: ok.text)
        }
        let existing = try engine.store.row(4).id
        Self.expectUnchanged(&engine, .duplicateID(existing)) { (e) throws(TesseraError) in
            try e.append(ids: [ok.ids[0], existing], kinds: ok.kinds, text: ok.text)
        }
        Self.expectUnchanged(&engine, .duplicateID(ok.ids[0])) { (e) throws(TesseraError) in
            try e.insert(ids: [ok.ids[0], ok.ids[0]], kinds: ok.kinds, text: ok.text, at: 5)
        }
        let n = engine.store.count
        Self.expectUnchanged(&engine, .rangeOutOfBounds(lowerBound: n + 1, upperBound: n + 1, count: n)) { (e) throws(TesseraError) in
            try e.insert(ids: ok.ids, kinds: ok.kinds, text: ok.text, at: n + 1)
        }
        Self.expectUnchanged(&engine, .rangeOutOfBounds(lowerBound: n - 1, upperBound: n + 1, count: n)) { (e) throws(TesseraError) in
            try e.removeRows((n - 1)..<(n + 1))
        }
        Self.expectUnchanged(&engine, .rowOutOfBounds(index: n, count: n)) { (e) throws(TesseraError) in _ = try e.invalidateHeight(ofRow: n) }
        Self.expectUnchanged(&engine, .unsupported("setHeight on a profile-driven list: the engine measures its rows")) { (e) throws(TesseraError) in
            try e.setHeight(50, ofRow: 0)
        }
    }

    /// Selection cells come in groups of at least two: appends, inserts and removals that
    /// would leave one alone fail, naming the row in the list.
    @Test func groupRulesChangeNothing() throws {
        var engine = try Self.george()
        let n = engine.store.count
        let lonely = Self.batch([("sectionHeader", ["headline": "h"]), ("singleSelectionLeading", ["label": "a"]), ("footerDefault", ["text": "f"])])
        let rule = TesseraError.ruleViolation(row: n + 1, kind: "singleSelectionLeading", rule: .groupMinimum(rows: 1, minimum: 2))
        Self.expectUnchanged(&engine, rule) { (e) throws(TesseraError) in try e.append(ids: lonely.ids, kinds: lonely.kinds, text: lonely.text) }
        // The list ends with a header and two selection cells (rows n-3...n-1).
        Self.expectUnchanged(&engine, .ruleViolation(row: n - 2, kind: "singleSelectionLeading", rule: .groupMinimum(rows: 1, minimum: 2))) {
            (e) throws(TesseraError) in try e.removeRows((n - 1)..<n)
        }
        let header = Self.batch([("titleHeader", ["title": "split"])])
        Self.expectUnchanged(&engine, .ruleViolation(row: n - 2, kind: "singleSelectionLeading", rule: .groupMinimum(rows: 1, minimum: 2))) {
            (e) throws(TesseraError) in try e.insert(ids: header.ids, kinds: header.kinds, text: header.text, at: n - 1)
        }
        // Adding one more to the group is fine, and so is removing the whole group.
        let third = Self.batch([("singleSelectionLeading", ["label": "c"])])
        try engine.append(ids: third.ids, kinds: third.kinds, text: third.text)
        engine._checkInvariants()
        try engine.removeRows((n - 3)..<(n + 1))
        engine._checkInvariants()
        #expect(engine.store.count == n - 3)
    }

    @Test func badEnvironmentsChangeNothing() throws {
        var engine = try Self.george()
        let good = engine.environment!
        for width in [0, -1, -0.0, .nan, .infinity, 1_000_001] as [Double] {
            var env = good
            env.width = width
            let before = EngineSnapshot(engine)
            let error = thrownError { try engine.setEnvironment(env) }
            guard case .invalidEnvironment(let field, _)? = error else { Issue.record("width \(width): \(String(describing: error))"); continue }
            #expect(field == "width")
            engine._checkInvariants()
            #expect(EngineSnapshot(engine) == before, "width \(width)")
        }
        for scale in [0, -1, .nan, 11] as [Double] {
            var env = good
            env.fontScale = scale
            let before = EngineSnapshot(engine)
            guard case .invalidEnvironment("fontScale", _)? = thrownError({ try engine.setEnvironment(env) }) else { Issue.record("scale \(scale)"); continue }
            #expect(EngineSnapshot(engine) == before)
        }
        var env = good
        env.parameters = ["nope": 1]
        let before = EngineSnapshot(engine)
        guard case .invalidEnvironment("parameters.nope", _)? = thrownError({ try engine.setEnvironment(env) }) else { Issue.record("parameter"); return }
        #expect(EngineSnapshot(engine) == before)

        // A platform the profile lacks; a parameter outside its allowed values.
        var fiori = try ListEngine(profile: ProfileFixtures.collection, environment: LayoutEnvironment(width: 768, platform: .ios), viewport: 300)
        var rng = SplitMix64(seed: 3)
        var ids = IDSource(seed: 3)
        let b = EngineRowFactory(ProfileFixtures.collection).batch(rows: 30, &rng, ids: &ids)
        try fiori.append(ids: b.ids, kinds: b.kinds, text: b.text)
        try fiori.measure(budget: .rows(7))
        let grid = EngineSnapshot(fiori)
        guard case .invalidEnvironment("platform", _)? = thrownError({ try fiori.setEnvironment(LayoutEnvironment(width: 768, platform: .android)) }) else {
            Issue.record("platform"); return
        }
        guard case .invalidEnvironment("parameters.itemWidth", _)? = thrownError({
            try fiori.setEnvironment(LayoutEnvironment(width: 768, platform: .ios, parameters: ["itemWidth": 100]))
        }) else { Issue.record("itemWidth"); return }
        fiori._checkInvariants()
        #expect(EngineSnapshot(fiori) == grid)

        // Bad environments and overscans at creation.
        #expect(thrownError { _ = try ListEngine(profile: ProfileFixtures.george, environment: LayoutEnvironment(width: 0, platform: .ios), viewport: 100) }
            .map { if case .invalidEnvironment("width", _) = $0 { true } else { false } } == true)
        #expect(thrownError { _ = try ListEngine(profile: ProfileFixtures.george, environment: good, viewport: 100, overscan: -1) } == .invalidViewport(-1))
        #expect(thrownError { _ = try ListEngine(profile: ProfileFixtures.george, environment: good, viewport: .nan) }.map { if case .invalidViewport = $0 { true } else { false } } == true)
    }

    /// New parameter values that make a stored row break its rules (an image below the new
    /// minimum size) are refused, naming the row; the environment stays.
    @Test func parametersThatInvalidateStoredRowsChangeNothing() throws {
        let p = ProfileFixtures.fioriIOS
        var engine = try ListEngine(profile: p, environment: LayoutEnvironment(width: 390, platform: .ios), viewport: 500)
        var text = RowText(slotsPerRow: 12)
        text.append(p.row("objectCell", ["title": "One"]).slots)
        text.append(p.row("objectCell", ["title": "Two", "detailImage": "20"]).slots)
        try engine.append(ids: [1, 2], kinds: [1, 1], text: text)
        try engine.measureAll(threads: 1)
        let error = TesseraError.ruleViolation(row: 1, kind: "objectCell", rule: .imageSizeOutOfRange(slot: "detailImage", width: 20, height: 20, min: 28, max: 60))
        Self.expectUnchanged(&engine, error) { (e) throws(TesseraError) in
            try e.setEnvironment(LayoutEnvironment(width: 390, platform: .ios, parameters: ["detailImageMin": 28]))
        }
        // The measurer went back too: rows still validate against the old minimum.
        var more = RowText(slotsPerRow: 12)
        more.append(p.row("objectCell", ["title": "Three", "detailImage": "20"]).slots)
        try engine.append(ids: [3], kinds: [1], text: more)
        engine._checkInvariants()
    }

    /// `prepare` checks the rows a batch brings, so a bad one is refused before the host
    /// animates anything; a batch prepared before an environment change is checked again
    /// against the rules of the new one when applied, and refused whole if a row breaks them.
    @Test func preparedBatchesAreCheckedInTheEnvironmentTheyApplyIn() throws {
        let p = ProfileFixtures.fioriIOS
        var engine = try ListEngine(profile: p, environment: LayoutEnvironment(width: 390, platform: .ios), viewport: 500)
        var text = RowText(slotsPerRow: 12)
        text.append(p.row("objectCell", ["title": "One"]).slots)
        try engine.append(ids: [1], kinds: [1], text: text)
        try engine.measureAll(threads: 1)
        func snapshot(_ second: [String: String]) -> RowSnapshot {
            var t = RowText(slotsPerRow: 12)
            t.append(p.row("objectCell", ["title": "One"]).slots)
            t.append(p.row("objectCell", second).slots)
            return RowSnapshot(ids: [1, 2], kinds: [1, 1], versions: [0, 0], text: t)
        }
        var bad = snapshot(["title": "Two"])
        let title = 2  // the title's slot
        bad.text!.utf8[bad.text!.offsets[12 + title]] = 0xFF
        #expect(thrownError { _ = try engine.prepare(bad) } == .invalidUTF8(row: 1, slot: title, byteOffset: 0))
        #expect(thrownError { _ = try engine.prepare(snapshot(["title": "Two", "detailImage": "12"])) }
            == .ruleViolation(row: 1, kind: "objectCell", rule: .imageSizeOutOfRange(slot: "detailImage", width: 12, height: 12, min: 16, max: 60)))

        let prepared = try engine.prepare(snapshot(["title": "Two", "detailImage": "20"]))
        let uikit = LayoutEnvironment(width: 390, platform: .ios, parameters: ["detailImageMin": 28])
        try engine.setEnvironment(uikit)
        Self.expectUnchanged(&engine, .ruleViolation(row: 1, kind: "objectCell", rule: .imageSizeOutOfRange(slot: "detailImage", width: 20, height: 20, min: 28, max: 60))) {
            (e) throws(TesseraError) in _ = try e.apply(prepared)
        }
        // Back in the environment it was checked in, it applies.
        try engine.setEnvironment(LayoutEnvironment(width: 390, platform: .ios))
        #expect(try engine.apply(prepared).batch.inserts == [1])
        engine._checkInvariants()
        #expect(engine.store.count == 2)
    }

    @Test func badBudgetsThreadsAndBuffers() throws {
        var engine = try Self.george()
        Self.expectUnchanged(&engine, .invalidBudget(rows: -1)) { (e) throws(TesseraError) in _ = try e.measure(budget: .rows(-1)) }
        Self.expectUnchanged(&engine, .invalidThreadCount(0)) { (e) throws(TesseraError) in _ = try e.measureAll(threads: 0) }
        Self.expectUnchanged(&engine, .invalidThreadCount(257)) { (e) throws(TesseraError) in _ = try e.measureAll(threads: 257) }
        Self.expectUnchanged(&engine, .invalidViewport(-1)) { (e) throws(TesseraError) in try e.setOverscan(-1) }
        Self.expectUnchanged(&engine, .invalidViewport(.infinity)) { (e) throws(TesseraError) in try e.setOverscan(.infinity) }
        let needed = EngineSnapshot(engine).items.count
        Self.expectUnchanged(&engine, .bufferTooSmall(needed: needed, capacity: 2)) { (e) throws(TesseraError) in
            try withItemBuffer(2) { (buffer) throws(TesseraError) in _ = try e.window(into: buffer) }
        }
        Self.expectUnchanged(&engine, .invalidViewport(-5)) { (e) throws(TesseraError) in
            try withItemBuffer(200) { (buffer) throws(TesseraError) in _ = try e.window(overscan: -5, into: buffer) }
        }
        // A store-driven list has no environment to set; measuring it is a no-op.
        var store = try RowStore(estimatedHeights: [40])
        try store.append(ids: [1], kinds: [0])
        var plain = try ListEngine(store: store, viewport: 100)
        #expect(thrownError { try plain.setEnvironment(LayoutEnvironment(width: 375, platform: .ios)) }
            == .unsupported("an environment on a list without a profile"))
        #expect(try plain.measure(budget: .rows(10)) == MeasureProgress(measured: 0, remaining: 0, scrollOffset: 0))
        #expect(try plain.measureAll() == 0)
    }
}

/// `withItemBuffer` for bodies that throw a `TesseraError`.
func withItemBuffer<R>(_ capacity: Int, _ body: (UnsafeMutableBufferPointer<VisibleItem>) throws(TesseraError) -> R) throws(TesseraError) -> R {
    let buffer = UnsafeMutableBufferPointer<VisibleItem>.allocate(capacity: max(capacity, 1))
    defer { buffer.deallocate() }
    return try body(buffer)
}
