import Testing
@testable import Tessera

/// `ListEngine.updateContent` (in-place content updates by id) and the `acceptIf` hook of
/// `measure` and `measureAll`, which the C ABI uses to store nothing when a host callback
/// answered a bad width.
@Suite struct EngineUpdateContentTests {
    /// George rows: a section header, then basic cells labelled one line each.
    static func georgeList() throws -> ListEngine {
        var list = try ListEngine(profile: ProfileFixtures.george, environment: LayoutEnvironment(width: 375, platform: .ios), viewport: 400)
        var text = RowText(slotsPerRow: 10)
        text.append(["", "", "", "Today", "-12.40 EUR"])
        for i in 1...5 { text.append(["", "", "Payment \(i)"]) }
        try list.append(ids: [100, 101, 102, 103, 104, 105], kinds: [13, 1, 1, 1, 1, 1], text: text, versions: [1, 1, 1, 1, 1, 1])
        try list.measureAll(threads: 1)
        return list
    }

    /// Every row's id, kind, version, height, flags and first three slots.
    static func state(_ list: borrowing ListEngine) -> [String] {
        (0..<list.store.count).map { r in
            let info = try! list.store.row(r)
            let slots = (0..<3).map { try! list.store.text(ofRow: r, slot: $0) }
            return "\(info.id) \(info.kind) \(try! list.store.contentVersion(ofRow: r)) \(info.height) \(info.flags.rawValue) \(slots)"
        }
    }

    @Test func aProfileRowTakesNewValuesAndIsMeasuredAgain() throws {
        var list = try Self.georgeList()
        let before = try list.store.row(2)
        var text = RowText(slotsPerRow: 10)
        // Profiles/README.md example 7's values: leading icon, two-line label, sub-line, chevron.
        text.append(["1", "", "a\na", "x", "", "", "", "", "", "1"])
        list._checkInvariants()
        try list.updateContent(ids: [102], versions: [9], text: text)
        list._checkInvariants()
        let after = try list.store.row(2)
        #expect(after.id == 102 && after.kind == 1 && after.height == before.height && after.flags.contains(.dirty))
        #expect(try list.store.contentVersion(ofRow: 2) == 9)
        #expect(try list.store.text(ofRow: 2, slot: 2) == "a\na")
        #expect(list.dirtyCount == 1)
        let progress = try list.measure(budget: .rows(10))
        #expect(progress.measured == 1 && progress.remaining == 0)
        // The height a measurer gives the same values, and the other rows as they were.
        let measurer = try CellMeasurer(profile: ProfileFixtures.george, environment: LayoutEnvironment(width: 375, platform: .ios))
        #expect(try list.store.row(2).height == measurer.frames(kind: 1, slots: ["1", "", "a\na", "x", "", "", "", "", "", "1"]).height)
        #expect(try list.store.row(3).height == before.height)
    }

    @Test func badUpdatesChangeNothing() throws {
        var list = try Self.georgeList()
        let state = Self.state(list)
        var label = RowText(slotsPerRow: 10)
        label.append(["", "", "Rent"])
        var noLabel = RowText(slotsPerRow: 10)
        noLabel.append(["", "", "", "sub-line only"])
        #expect(throws: TesseraError.unknownID(999)) { try list.updateContent(ids: [999], versions: [1], text: label) }
        var two = label
        two.append(["", "", "Again"])
        #expect(throws: TesseraError.duplicateID(101)) { try list.updateContent(ids: [101, 101], versions: [1, 2], text: two) }
        #expect(throws: TesseraError.self) { try list.updateContent(ids: [101], versions: [1], text: noLabel) }
        #expect(throws: TesseraError.self) { try list.updateContent(ids: [101], versions: [1], text: nil) }
        #expect(throws: TesseraError.self) { try list.updateContent(ids: [101], versions: [1, 2], text: label) }
        #expect(throws: TesseraError.self) { try list.updateContent(ids: [101, 102], versions: [1, 2], text: label) }
        #expect(Self.state(list) == state)
        #expect(list.dirtyCount == 0)
    }

    @Test func aStoreDrivenRowReturnsToItsEstimateAndAPreparedBatchGoesStale() throws {
        var store = try RowStore(estimatedHeights: [56, 72])
        var text = RowText(slotsPerRow: 1)
        text.append(["old"])
        text.append(["kept"])
        try store.append(ids: [1, 2], kinds: [0, 1], text: text)
        var list = try ListEngine(store: store, viewport: 100)
        try list.setHeight(61.5, ofRow: 0)
        let prepared = try list.prepare(RowSnapshot(ids: [2], kinds: [1], versions: [0]))
        var new = RowText(slotsPerRow: 1)
        new.append(["new"])
        try list.updateContent(ids: [1], versions: [5], text: new)
        list._checkInvariants()
        let row = try list.store.row(0)
        #expect(row.height == 56 && !row.flags.contains(.measured))
        #expect(try list.store.text(ofRow: 0, slot: 0) == "new" && list.store.contentVersion(ofRow: 0) == 5)
        #expect(try list.store.text(ofRow: 1, slot: 0) == "kept")
        #expect(throws: TesseraError.self) { try list.apply(prepared) }
    }

    @Test func measuringStoresNothingWhenNotAccepted() throws {
        var list = try Self.georgeList()
        var text = RowText(slotsPerRow: 10)
        for i in 0..<3 { text.append(["1", "", "a\na \(i)", "x", "", "", "", "", "", "1"]) }
        try list.updateContent(ids: [101, 102, 103], versions: [2, 2, 2], text: text)
        let state = Self.state(list)
        let progress = try list.measure(budget: .rows(10), acceptIf: { false })
        #expect(progress.measured == 0 && progress.remaining == 3)
        #expect(try list.measureAll(threads: 2, acceptIf: { false }) == list.scrollOffset)
        #expect(Self.state(list) == state && list.dirtyCount == 3)
        try list.measureAll(threads: 2)
        #expect(list.dirtyCount == 0)
        list._checkInvariants()
    }
}
