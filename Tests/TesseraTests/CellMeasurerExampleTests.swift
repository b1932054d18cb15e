import Testing
@testable import Tessera

/// Profiles/README.md "Hand-computed expectations", one test per example, exact to the
/// 1/64 pt. Texts come from `StubText`: line counts by line feeds, natural widths by byte.
@Suite struct CellMeasurerExampleTests {
    let collection = ProfileFixtures.collection

    // 1. Collection item with labels, 110 wide.
    @Test func collectionItem110() {
        // W = 768: the grid slot is 140.8 wide, so the item keeps its own width 110.
        let m = makeMeasurer(collection, width: 768)
        let row = collection.row("collectionItem", ["title": StubText.lines(2), "subtitle": "x", "attribute": "x"])
        #expect(m.cellWidth(kind: row.code, slots: row.slots) == 110)
        #expect(m.height(row) == 190)
        let f = m.frames(row)
        #expect(f.width == 110 && f.height == 190)
        expectFrame(f, "image", 8, 8, 94, 94)
        expectFrame(f, "title", 8, 110, 94, 36)
        expectFrame(f, "subtitle", 8, 148, 94, 16)
        expectFrame(f, "attribute", 8, 166, 94, 16)
        #expect(f.slots.map(\.name) == ["image", "title", "subtitle", "attribute"])
        #expect(f["title"]!.texts.first!.lines.count == 2)
        #expect(f.divider == nil)
    }

    // 2. 120 wide, two icon actions.
    @Test func collectionItem120WithIconActions() {
        let m = makeMeasurer(collection, width: 768, parameters: ["itemWidth": 120])
        let row = collection.row("collectionItem", ["title": StubText.lines(2), "subtitle": "x", "attribute": "x", "iconActions": "2"])
        #expect(m.height(row) == 200)
        let f = m.frames(row)
        expectFrame(f, "image", 8, 8, 104, 104)
        expectFrame(f, "title", 8, 120, 104, 36)
        expectFrame(f, "subtitle", 8, 158, 104, 16)
        expectFrame(f, "attribute", 8, 176, 104, 16)
        expectFrame(f, "iconActions", 48, 12, 60, 28)
        #expect(f["iconActions"]!.boxes == [CellRect(x: 48, y: 12, width: 28, height: 28), CellRect(x: 80, y: 12, width: 28, height: 28)])
        #expect(f.slots.last!.name == "iconActions")  // overlays come last
    }

    // 3. 110 wide, one-line title and a button action.
    @Test func collectionItemWithButton() {
        let m = makeMeasurer(collection, width: 768)
        let row = collection.row("collectionItem", ["title": "x", "buttonAction": "Download"])
        #expect(m.height(row) == 172)
        let f = m.frames(row)
        expectFrame(f, "image", 8, 8, 94, 94)
        expectFrame(f, "title", 8, 110, 94, 18)
        expectFrame(f, "buttonAction", 8, 136, 94, 28)
        // The label inside: 12 side padding, one 18 pt line centred in the 28 pt button.
        #expect(f["buttonAction"]!.texts.first!.frame == CellRect(x: 20, y: 141, width: 70, height: 18))
    }

    // 4. Collection cell without labels, 60.
    @Test func collectionImage60() {
        let m = makeMeasurer(collection, width: 768)
        for value in ["60", "", "*"] {  // 60 is also the default size
            let row = collection.row("collectionImage", ["image": value])
            #expect(m.height(row) == 60)
            #expect(m.cellWidth(kind: row.code, slots: row.slots) == 60)
            let f = m.frames(row)
            expectFrame(f, "image", 0, 0, 60, 60)
            #expect(f.width == 60)
        }
    }

    // 5. Collection cell without labels, 110 and 110 × 80; the errors.
    @Test func collectionImage110() throws {
        let m = makeMeasurer(collection, width: 768)
        let square = collection.row("collectionImage", ["image": "110", "iconActions": "1"])
        try m.validate(kind: square.code, slots: square.slots, row: 0)
        #expect(m.height(square) == 110)
        let f = m.frames(square)
        expectFrame(f, "image", 0, 0, 110, 110)
        expectFrame(f, "iconActions", 78, 4, 28, 28)
        let wide = collection.row("collectionImage", ["image": "110x80"])
        try m.validate(kind: wide.code, slots: wide.slots, row: 1)
        #expect(m.height(wide) == 80)
        expectFrame(m.frames(wide), "image", 0, 0, 110, 80)
        let tall = collection.row("collectionImage", ["image": "80x110"])
        #expect(thrownError { try m.validate(kind: tall.code, slots: tall.slots, row: 2) }
            == .ruleViolation(row: 2, kind: "collectionImage", rule: .imageAspect(slot: "image", width: 80, height: 110, aspect: "widthAtLeastHeight")))
        let small = collection.row("collectionImage", ["image": "50x50"])
        #expect(thrownError { try m.validate(kind: small.code, slots: small.slots, row: 3) }
            == .ruleViolation(row: 3, kind: "collectionImage", rule: .imageSizeOutOfRange(slot: "image", width: 50, height: 50, min: 60, max: 110)))
    }

    // 6. George basic cell with a one-line label.
    @Test func georgeBasicCellOneLine() {
        let g = ProfileFixtures.george
        let row = g.row("basicCell", ["label": "x"])
        let ios = makeMeasurer(g, width: 375)
        #expect(ios.height(row) == 44)
        let f = ios.frames(row)
        expectFrame(f, "label", 16, 11, 343, 22)
        #expect(f.divider == CellRect(x: 16, y: 44, width: 359, height: 0))
        let android = makeMeasurer(g, width: 360, platform: .android)
        #expect(android.height(row) == 48)
        let a = android.frames(row)
        expectFrame(a, "label", 16, 12, 328, 24)
        #expect(a.divider == nil)
    }

    // 7. Leading icon, two-line label, sub-line, chevron.
    @Test func georgeBasicCellFull() {
        let g = ProfileFixtures.george
        let row = g.row("basicCell", ["leadingIcon": "1", "label": StubText.lines(2), "subLine": "x", "chevron": "1"])
        let ios = makeMeasurer(g, width: 375)
        try! ios.validate(kind: row.code, slots: row.slots, row: 0)
        #expect(ios.height(row) == 82)
        let f = ios.frames(row)
        expectFrame(f, "leadingIcon", 16, 29, 24, 24)
        expectFrame(f, "label", 56, 8, 279, 44)
        expectFrame(f, "subLine", 56, 54, 279, 20)
        expectFrame(f, "chevron", 351, 34.5, 8, 13)
        #expect(f.divider == CellRect(x: 56, y: 82, width: 319, height: 0))
        let android = makeMeasurer(g, width: 360, platform: .android)
        #expect(android.height(row) == 86)
        let a = android.frames(row)
        expectFrame(a, "leadingIcon", 16, 31, 24, 24)
        expectFrame(a, "label", 56, 8, 288, 48)
        expectFrame(a, "subLine", 56, 58, 288, 20)
        #expect(a["chevron"] == nil)
    }

    // 8. George section header, with and without the icon indent; Android.
    @Test func georgeSectionHeader() {
        let g = ProfileFixtures.george
        let ios = makeMeasurer(g, width: 375)
        let row = g.row("sectionHeader", ["headline": "x", "sum": String(repeating: "x", count: 8)])
        #expect(ios.height(row) == 42)
        var f = ios.frames(row)
        expectFrame(f, "headline", 16, 16, 247, 18)
        expectFrame(f, "sum", 279, 16, 80, 18)
        let indented = g.row("sectionHeader", ["iconIndent": "1", "headline": "x", "sum": String(repeating: "x", count: 8)])
        #expect(ios.height(indented) == 42)
        f = ios.frames(indented)
        expectFrame(f, "iconIndent", 16, 34, 24, 0)
        expectFrame(f, "headline", 56, 16, 207, 18)
        expectFrame(f, "sum", 279, 16, 80, 18)
        // Android: letter spacing 0.1 per character, so eight 9.9 pt characters are 80 wide.
        let android = makeMeasurer(g, width: 360, platform: .android)
        let a8 = g.row("sectionHeader", ["headline": "x", "sum": String(repeating: "y", count: 8)])
        #expect(android.height(a8) == 44)
        let a = android.frames(a8)
        expectFrame(a, "headline", 16, 16, 232, 20)
        expectFrame(a, "sum", 264, 16, 80, 20)
    }

    // 9. Fiori iOS object cell, compact; with a detail image and a chevron.
    @Test func fioriIOSObjectCellCompact() {
        let p = ProfileFixtures.fioriIOS
        let m = makeMeasurer(p, width: 390)
        let plain = p.row("objectCell", ["title": "x", "subtitle": "x", "footnote": "x"])
        #expect(m.height(plain) == 98)
        var f = m.frames(plain)
        expectFrame(f, "title", 16, 14, 358, 22)
        expectFrame(f, "subtitle", 16, 39, 358, 22)
        expectFrame(f, "footnote", 16, 64, 358, 20)
        let full = p.row("objectCell", ["detailImage": "*", "title": "x", "subtitle": "x", "footnote": "x", "chevron": "1"])
        #expect(m.height(full) == 98)
        f = m.frames(full)
        expectFrame(f, "detailImage", 16, 14, 44, 44)
        expectFrame(f, "title", 72, 14, 286, 22)
        expectFrame(f, "subtitle", 72, 39, 286, 22)
        expectFrame(f, "footnote", 72, 64, 286, 20)
        expectFrame(f, "chevron", 366, 42.5, 8, 13)
        #expect(f.divider == CellRect(x: 72, y: 98, width: 318, height: 0))
        // The same with the size given, and with the UIKit default of 45.
        #expect(m.frames(p.row("objectCell", ["detailImage": "44", "title": "x", "subtitle": "x", "footnote": "x", "chevron": "1"])) == f)
        let uikit = makeMeasurer(p, width: 390, parameters: ["detailImageSize": 45])
        expectFrame(uikit.frames(full), "detailImage", 16, 14, 45, 45)
    }

    // 10. Edit mode.
    @Test func fioriIOSObjectCellEditMode() {
        let p = ProfileFixtures.fioriIOS
        let m = makeMeasurer(p, width: 390, editMode: true)
        let row = p.row("objectCell", ["detailImage": "*", "title": "x", "subtitle": "x", "footnote": "x", "chevron": "1"])
        #expect(m.height(row) == 98)
        let f = m.frames(row)
        expectFrame(f, "selectionControl", 16, 38, 22, 22)
        expectFrame(f, "detailImage", 54, 14, 44, 44)
        expectFrame(f, "title", 110, 14, 264, 22)
        expectFrame(f, "subtitle", 110, 39, 264, 22)
        expectFrame(f, "footnote", 110, 64, 264, 20)
        #expect(f["chevron"] == nil)
        #expect(f["selectionControl"]!.valueIndex == nil)
    }

    // 11. Regular width: the description column; at font scale 1.25 the compact arrangement.
    @Test func fioriIOSObjectCellRegular() {
        let p = ProfileFixtures.fioriIOS
        let row = p.row("objectCell", [
            "detailImage": "*", "title": "x", "subtitle": "x", "footnote": "x", "description": StubText.lines(2),
            "attributes": String(repeating: "x", count: 6), "chevron": "1",
        ])
        let m = makeMeasurer(p, width: 1024)
        #expect(m.widthClass == "regular")
        #expect(m.height(row) == 98)
        let f = m.frames(row)
        expectFrame(f, "detailImage", 20, 14, 44, 44)
        expectFrame(f, "title", 76, 14, 328, 22)
        expectFrame(f, "subtitle", 76, 39, 328, 22)
        expectFrame(f, "footnote", 76, 64, 328, 20)
        expectFrame(f, "description", 412, 14, 492, 40)
        expectFrame(f, "attributes", 928, 14, 60, 20)
        expectFrame(f, "chevron", 996, 42.5, 8, 13)
        let large = makeMeasurer(p, width: 1024, fontScale: 1.25)
        #expect(large.height(row) == 172)
        let l = large.frames(row)
        expectFrame(l, "title", 76, 14, 844, 27.5)
        expectFrame(l, "description", 76, 108, 844, 50)
        expectFrame(l, "detailImage", 20, 14, 44, 44)
    }

    // 12. Fiori Android object cell, description truncated at 3 lines; full; expanded.
    @Test func fioriAndroidObjectCell() {
        let p = ProfileFixtures.fioriAndroid
        let row = p.row("objectCell", ["image": "*", "title": "x", "subtitle": "x", "caption": "x", "description": StubText.lines(5)])
        let m = makeMeasurer(p, width: 360, platform: .android)
        #expect(m.height(row) == 148)
        let f = m.frames(row)
        expectFrame(f, "image", 16, 12, 40, 40)
        expectFrame(f, "title", 72, 12, 272, 24)
        expectFrame(f, "subtitle", 72, 36, 272, 20)
        expectFrame(f, "caption", 72, 56, 272, 16)
        expectFrame(f, "description", 72, 76, 272, 60)
        let d = f["description"]!.texts[0]
        #expect(d.lines.count == 3 && d.isTruncated && d.lines[2].isEllipsized)
        let full = makeMeasurer(p, width: 360, platform: .android, parameters: ["descriptionLines": 0])
        #expect(full.height(row) == 188)
        let expanded = makeMeasurer(p, width: 1000, platform: .android)
        #expect(expanded.widthClass == "expanded")
        #expect(expanded.height(row) == 84)
        let e = expanded.frames(row)
        expectFrame(e, "title", 80, 12, 440, 24)
        expectFrame(e, "description", 536, 12, 440, 60)
    }

    // 13. Collection grid, regular and compact.
    @Test func collectionGrid() {
        let lines: [(Int, Int, Int)] = [(2, 1, 1), (1, 1, 0), (1, 0, 0), (2, 0, 1), (1, 0, 0), (1, 0, 0)]
        var text = RowText(slotsPerRow: 5)
        for (t, s, a) in lines {
            text.append(collection.row("collectionItem", [
                "title": StubText.lines(t), "subtitle": s > 0 ? "x" : "", "attribute": a > 0 ? "x" : "",
            ]).slots)
        }
        let kinds = [UInt16](repeating: 1, count: lines.count)
        let regular = makeMeasurer(collection, width: 768)
        let g = regular.grid!
        #expect(g.columnCount == 5 && g.slotWidth == 140.8)
        #expect((0..<5).map(g.x(ofColumn:)) == [16, 164.796875, 313.59375, 462.40625, 611.203125])
        let layout = regular.gridLayout(kinds: kinds, text: text)!
        #expect(layout.frames.map(\.height) == [190, 154, 136, 172, 136, 136])
        #expect(layout.frames.map(\.y) == [16, 16, 16, 16, 16, 214])
        #expect(layout.frames.map(\.width) == [110, 110, 110, 110, 110, 110])
        #expect(layout.height == 366)
        let compact = makeMeasurer(collection, width: 375)
        #expect(compact.grid!.columnCount == 3 && compact.grid!.slotWidth == 109)
        let c = compact.gridLayout(kinds: kinds, text: text)!
        #expect(c.frames.prefix(3).map(\.height) == [189, 153, 135])
        #expect(c.frames.prefix(3).map(\.x) == [16, 133, 250])
        #expect(c.frames.prefix(3).map(\.width) == [109, 109, 109])
        let f = compact.frames(kind: 1, slots: text.slots(row: 0))
        expectFrame(f, "image", 8, 8, 93, 93)
        #expect(c.height == 16 + 189 + 8 + 171 + 16)  // second grid row: (2, 0, 1) at 109 is 171
    }

    /// A kind outside the grid (a header added to the collection profile) takes a line of
    /// its own at the content width; "content" items are as wide as their image.
    @Test func gridWithRowsOutsideTheGrid() throws {
        let header = JSONValue.parse("""
            {"code": 3, "role": "header", "estimatedHeight": 30, "padding": {"top": 4, "bottom": 4, "leading": 16, "trailing": 16},
             "divider": null, "slots": {"title": {"type": "text", "index": 0, "style": "title", "maxLines": 1, "required": true}},
             "layout": {"columnGap": 0, "columns": [{"items": ["title"], "width": "fill"}]}}
            """)
        let doc = ProfileTests.collection.setting("kinds.sectionTitle", header)
        let profile = try Profile(json: Array(doc.json.utf8))
        #expect(profile.gridKinds == ["collectionItem", "collectionImage"])
        let m = makeMeasurer(profile, width: 768)
        var text = RowText(slotsPerRow: 5)
        for slots in [["Section"], ["", "x"], ["", "x"], ["Next"], ["", "70"]] { text.append(slots) }
        let layout = m.gridLayout(kinds: [3, 1, 1, 3, 2], text: text)!
        #expect(layout.frames == [
            CellRect(x: 0, y: 16, width: 768, height: 26),
            CellRect(x: 16, y: 50, width: 110, height: 136),
            CellRect(x: 164.796875, y: 50, width: 110, height: 136),
            CellRect(x: 0, y: 194, width: 768, height: 26),
            CellRect(x: 16, y: 228, width: 70, height: 70),
        ])
        #expect(layout.height == 228 + 70 + 16)
        #expect(ProfileFixtures.george.gridKinds.isEmpty && makeMeasurer(ProfileFixtures.george, width: 375).grid == nil)
    }

    // 14. George horizontal info cell and its accessibility stacking.
    @Test func georgeInfoHorizontal() {
        let g = ProfileFixtures.george
        let row = g.row("infoHorizontal", ["key": "x", "value": String(repeating: "x", count: 12)])
        let m = makeMeasurer(g, width: 375)
        #expect(m.height(row) == 44)
        let f = m.frames(row)
        expectFrame(f, "key", 16, 12, 207, 20)
        expectFrame(f, "value", 239, 11, 120, 22)
        let large = makeMeasurer(g, width: 375, fontScale: 2)
        #expect(large.height(row) == 102)
        let l = large.frames(row)
        expectFrame(l, "key", 16, 8, 343, 40)
        expectFrame(l, "value", 16, 50, 343, 44)
    }

    /// The George paddings: every cell kind's 16 leading / trailing and 8 top / bottom, the
    /// headers' and footers' vertical paddings, on both platforms.
    @Test func georgePaddings() {
        let g = ProfileFixtures.george
        for platform in [LayoutEnvironment.Platform.ios, .android] {
            let m = makeMeasurer(g, width: 375, platform: platform)
            let line: Double = platform == .ios ? 22 : 24
            // A label of 4 lines is taller than every minimum height: H = top + text + bottom.
            for kind in ["basicCell", "singleSelectionLeading", "singleSelectionTrailing", "multiSelectionLeading", "multiSelectionTrailing",
                         "confirmation", "billPayment"] {
                let row = g.row(kind, ["label": StubText.lines(4)])
                #expect(m.height(row) == 8 + 4 * line + 8, "\(kind) on \(platform)")
                let f = m.frames(row)
                #expect(f["label"]!.frame.y == 8, "\(kind) on \(platform)")
                #expect(f.slots.map(\.frame.x).min() == 16 && f.slots.map { $0.frame.x + $0.frame.width }.max() == 375 - 16, "\(kind) on \(platform)")
            }
            let footer = platform == .ios ? 18.0 : 16
            for kind in ["footerDefault", "footerInfo", "footerError"] {
                let row = g.row(kind, ["text": StubText.lines(3)])
                #expect(m.height(row) == 8 + 3 * footer + 16)
                #expect(m.frames(row)["text"]!.frame == CellRect(x: 16, y: 8, width: 343, height: 3 * footer))
            }
            let title = g.row("titleHeader", ["title": StubText.lines(2)])
            let titleLine: Double = platform == .ios ? 25 : 28
            #expect(m.height(title) == 24 + 2 * titleLine + 8)
            let section = g.row("sectionHeader", ["headline": StubText.lines(2)])
            let sectionLine: Double = platform == .ios ? 18 : 20
            #expect(m.height(section) == 16 + 2 * sectionLine + 8)
        }
    }
}

extension RowText {
    /// Row `r`'s slots as strings.
    func slots(row r: Int) -> [String] {
        (0..<slotsPerRow).map { s in String(decoding: utf8[offsets[r * slotsPerRow + s]..<offsets[r * slotsPerRow + s + 1]], as: UTF8.self) }
    }
}
