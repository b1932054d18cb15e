import Testing
@testable import Tessera

/// Groups in the window query: which header sticks at the top of the viewport and where,
/// and which rows draw dividers, on a hand-built George list (one-line rows measured with
/// the stub text engine: section headers 42 pt, basic cells 44 pt on iOS).
@Suite struct GroupTests {
    /// 0 section header, 1–3 cells, 4 section header, 5–6 cells, 7 footer, 8 a cell of a
    /// group without header, 9 title header (not sticky), 10–11 cells, 12 section header,
    /// 13 cell.
    static let layout: [String] = [
        "sectionHeader", "basicCell", "basicCell", "basicCell", "sectionHeader", "basicCell", "basicCell", "footerDefault",
        "basicCell", "titleHeader", "basicCell", "basicCell", "sectionHeader", "basicCell",
    ]

    static func engine(platform: LayoutEnvironment.Platform = .ios, viewport: Double = 100) throws -> ListEngine {
        let g = ProfileFixtures.george
        var text = RowText(slotsPerRow: 10)
        var kinds: [UInt16] = []
        for name in layout {
            let values: [String: String] = switch name {
            case "sectionHeader": ["headline": "a"]
            case "titleHeader": ["title": "a"]
            case "footerDefault": ["text": "a"]
            default: ["label": "a"]
            }
            let row = g.row(name, values)
            kinds.append(row.code)
            text.append(row.slots)
        }
        var engine = try ListEngine(
            profile: g, environment: LayoutEnvironment(width: 375, platform: platform), viewport: viewport, overscan: 0, textEngine: StubText.engine())
        try engine.append(ids: (0..<UInt64(layout.count)).map { $0 + 100 }, kinds: kinds, text: text)
        try engine.measureAll(threads: 1)
        engine._checkInvariants()
        return engine
    }

    static func window(_ engine: borrowing ListEngine) -> (items: [VisibleItem], result: WindowResult) {
        withItemBuffer(64) { buffer in
            let w = try! engine.window(into: buffer)
            return (Array(buffer[0..<w.count]), w)
        }
    }

    @Test func heightsOfTheFixture() throws {
        let engine = try Self.engine()
        #expect(try engine.store.row(0).height == 42)
        #expect(try engine.store.row(1).height == 44)
        #expect(try engine.store.offset(ofRow: 4) == 174)
        #expect(try engine.store.offset(ofRow: 7) == 304)
    }

    /// The header of the group under the viewport's top sticks there until the group's end
    /// pushes it up; groups without a (sticky) header have none.
    @Test func stickyHeaderIsPinnedAndPushedUp() throws {
        var engine = try Self.engine()
        let footer = try engine.store.row(7).height
        let eighth = try engine.store.offset(ofRow: 8)
        #expect(eighth == 304 + footer)
        func sticky(at y: Double) throws -> (row: Int, y: Double)? {
            try engine.scroll(to: y)
            engine._checkInvariants()
            return Self.window(engine).result.stickyHeader.map { ($0.row, $0.y) }
        }
        #expect(try sticky(at: 0)! == (0, 0))
        #expect(try sticky(at: 100)! == (0, 100))
        // Row 3 (130..<174) is the group's last: its end at 174 pushes the 42 pt header up.
        #expect(try sticky(at: 131)! == (0, 131))
        #expect(try sticky(at: 132)! == (0, 132))
        #expect(try sticky(at: 150)! == (0, 132))
        #expect(try sticky(at: 173.5)! == (0, 132))
        // The next header under the top is its own sticky header.
        #expect(try sticky(at: 174)! == (4, 174))
        #expect(try sticky(at: 230)! == (4, 230))
        // The footer belongs to the group: its end pushes the header.
        #expect(try sticky(at: 304)! == (4, min(304, eighth - 42)))
        #expect(try sticky(at: eighth - 1)! == (4, eighth - 42))
        // After the footer: a group without header; then a title header, which does not stick.
        #expect(try sticky(at: eighth) == nil)
        let tenth = try engine.store.offset(ofRow: 10)
        #expect(try sticky(at: tenth) == nil)
        // The last group (42 + 44 pt) runs to the end of the list, which pushes too.
        let twelfth = try engine.store.offset(ofRow: 12)
        try engine.setViewport(10)
        #expect(try sticky(at: twelfth + 40)! == (12, twelfth + 40))
        #expect(try sticky(at: twelfth + 50)! == (12, twelfth + 44))
        let header = Self.window(engine).result.stickyHeader!
        #expect(header.id == 112 && header.height == 42 && header.width == 375 && header.kind == ProfileFixtures.george.kind(named: "sectionHeader")!.code)
    }

    @Test func dividersBetweenCellsOfAGroupOnIOSOnly() throws {
        var engine = try Self.engine(viewport: 2000)
        let expected: Set<Int> = [1, 2, 5, 10]
        let items = Self.window(engine).items
        #expect(items.count == Self.layout.count)
        #expect(Set(items.filter { $0.flags.contains(.divider) }.map(\.row)) == expected)
        // A window ending at a row: the row after it decides.
        try engine.setViewport(130)  // rows 0..<3
        #expect(Self.window(engine).items.map(\.row) == [0, 1, 2])
        #expect(Self.window(engine).items.last!.flags.contains(.divider))
        try engine.setViewport(174)  // rows 0..<4: row 3 is followed by a header
        #expect(!Self.window(engine).items.last!.flags.contains(.divider))
        // The flag is never stored.
        #expect((0..<Self.layout.count).allSatisfy { !(try! engine.store.row($0)).flags.contains(.divider) })

        let android = try Self.engine(platform: .android, viewport: 2000)
        #expect(Self.window(android).items.allSatisfy { !$0.flags.contains(.divider) })
    }

    /// A list without a profile still answers the item query: no dividers, no sticky header.
    @Test func storeDrivenListHasNoGroups() throws {
        var store = try RowStore(estimatedHeights: [40, 50])
        try store.append(ids: [1, 2, 3], kinds: [0, 1, 0])
        let engine = try ListEngine(store: store, viewport: 100)
        let (items, result) = Self.window(engine)
        #expect(result.rows == 0..<3 && result.stickyHeader == nil)
        #expect(items.map(\.y) == [0, 40, 90] && items.map(\.height) == [40, 50, 40])
        #expect(items.allSatisfy { $0.x == 0 && !$0.flags.contains(.divider) })
    }
}
