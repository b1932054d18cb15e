import Testing
@testable import Tessera

/// Every validation rule triggered, with the measurer's answers unchanged after each error;
/// group minima; lint warnings.
@Suite struct CellMeasurerValidationTests {
    /// Validates `slots` as row 7 of `kind` and returns the error.
    static func error(_ m: CellMeasurer, _ kind: String, _ values: [String: String]) -> TesseraError? {
        let row = m.profile.row(kind, values)
        return thrownError { try m.validate(kind: row.code, slots: row.slots, row: 7) }
    }

    static func violation(_ kind: String, _ rule: CellRuleViolation) -> TesseraError { .ruleViolation(row: 7, kind: kind, rule: rule) }

    /// Heights and frames of a few valid rows, to compare before and after errors.
    static func answers(_ m: CellMeasurer) -> [CellFrames] {
        m.profile.kinds.map { k in
            let required = k.slots.filter(\.isRequired).map(\.name)
            return m.frames(m.profile.row(k.name, Dictionary(uniqueKeysWithValues: required.map { ($0, "Some text that may wrap somewhere") })))
        }
    }

    @Test func georgeRules() {
        let g = ProfileFixtures.george
        let m = makeMeasurer(g, width: 375, engine: TextLayoutEngine())
        let before = Self.answers(m)
        // Valid rows pass.
        for values in [["label": "x"], ["label": "x", "topLine": "y", "toggle": "1"], ["label": "x", "subLine": "y", "chevron": "1", "leadingIcon": "1"]] {
            #expect(Self.error(m, "basicCell", values) == nil)
        }
        #expect(Self.error(m, "basicCell", ["subLine": "y"]) == Self.violation("basicCell", .missingRequired(slot: "label")))
        #expect(Self.error(m, "basicCell", ["label": "x", "subLine": "y", "topLine": "z"]) == Self.violation("basicCell", .exclusive(present: ["subLine", "topLine"])))
        #expect(Self.error(m, "basicCell", ["label": "x", "toggle": "1", "actionIcon": "1"]) == Self.violation("basicCell", .exclusive(present: ["actionIcon", "toggle"])))
        #expect(Self.error(m, "basicCell", ["label": "x", "chevron": "1", "editableValue": "today"]) == Self.violation("basicCell", .exclusive(present: ["chevron", "editableValue"])))
        // The chevron is hidden on Android but still a value of the row: still exclusive.
        let android = makeMeasurer(g, width: 360, platform: .android)
        #expect(Self.error(android, "basicCell", ["label": "x", "chevron": "1", "toggle": "1"]) == Self.violation("basicCell", .exclusive(present: ["chevron", "toggle"])))
        #expect(Self.error(m, "sectionHeader", ["headline": "x", "iconIndent": "1", "avatarIndent": "1"])
            == Self.violation("sectionHeader", .exclusive(present: ["iconIndent", "avatarIndent"])))
        #expect(Self.error(m, "titleHeader", ["actionLabel": "Edit"]) == Self.violation("titleHeader", .missingRequired(slot: "title")))
        #expect(Self.error(m, "infoHorizontal", ["key": "k"]) == Self.violation("infoHorizontal", .missingRequired(slot: "value")))
        // A value at an index the kind does not have (basicCell has values 0...9).
        let basic = g.kind(named: "basicCell")!
        var slots = [String](repeating: "", count: 12)
        slots[2] = "label"
        #expect(thrownError { try m.validate(kind: basic.code, slots: slots, row: 3) } == nil)  // empty extra slots are fine
        slots[11] = "?"
        #expect(thrownError { try m.validate(kind: basic.code, slots: slots, row: 3) }
            == .ruleViolation(row: 3, kind: "basicCell", rule: .unknownSlot(index: 11, valueCount: 10)))
        #expect(thrownError { try m.validate(kind: 2, slots: ["label", "extra"], row: 4) }
            == .ruleViolation(row: 4, kind: "singleSelectionLeading", rule: .unknownSlot(index: 1, valueCount: 1)))
        // Fewer slots than values: the rest are absent.
        #expect(thrownError { try m.validate(kind: basic.code, slots: ["", "", "label"], row: 0) } == nil)
        #expect(thrownError { try m.validate(kind: basic.code, slots: [], row: 0) } == .ruleViolation(row: 0, kind: "basicCell", rule: .missingRequired(slot: "label")))
        // Unknown kinds.
        #expect(thrownError { try m.validate(kind: 0, slots: ["x"], row: 5) } == .unknownKindCode(0, profile: "george"))
        #expect(thrownError { try m.validate(kind: 18, slots: ["x"], row: 5) } == .unknownKindCode(18, profile: "george"))
        #expect(Self.answers(m) == before)
        m._checkInvariants()
    }

    @Test func fioriIOSRules() {
        let p = ProfileFixtures.fioriIOS
        let m = makeMeasurer(p, width: 390, engine: TextLayoutEngine())
        let before = Self.answers(m)
        let ok = ["title": "t", "icons": "3", "attributes": "a\u{1E}b", "detailImage": "60", "actionButton": "Follow"]
        #expect(Self.error(m, "objectCell", ok) == nil)
        #expect(Self.error(m, "objectCell", ["subtitle": "s"]) == Self.violation("objectCell", .missingRequired(slot: "title")))
        #expect(Self.error(m, "objectCell", ["title": "t", "icons": "4"]) == Self.violation("objectCell", .tooManyItems(slot: "icons", count: 4, max: 3)))
        #expect(Self.error(m, "objectCell", ["title": "t", "icons": "three"])
            == .invalidSlotValue(row: 7, slot: 0, problem: "icons: expected a count 0...3 in decimal digits, found \"three\""))
        #expect(Self.error(m, "objectCell", ["title": "t", "icons": "-1"]) != nil)
        #expect(Self.error(m, "objectCell", ["title": "t", "attributes": "a\u{1E}b\u{1E}c"]) == Self.violation("objectCell", .tooManyItems(slot: "attributes", count: 3, max: 2)))
        // Empty items do not count.
        #expect(Self.error(m, "objectCell", ["title": "t", "attributes": "a\u{1E}\u{1E}b\u{1E}"]) == nil)
        #expect(Self.error(m, "objectCell", ["title": "t", "detailImage": "61"])
            == Self.violation("objectCell", .imageSizeOutOfRange(slot: "detailImage", width: 61, height: 61, min: 16, max: 60)))
        #expect(Self.error(m, "objectCell", ["title": "t", "detailImage": "16"]) == nil)
        #expect(Self.error(m, "objectCell", ["title": "t", "detailImage": "44x40"])
            == Self.violation("objectCell", .imageAspect(slot: "detailImage", width: 44, height: 40, aspect: "square")))
        for bad in ["abc", "44x", "x44", "4.4.4", "-5", " 44", "44 ", "1234567890", "4.", "44*"] {
            #expect(Self.error(m, "objectCell", ["title": "t", "detailImage": bad])
                == .invalidSlotValue(row: 7, slot: 1, problem: "detailImage: expected an image size: a side (44), width x height (110x80) or * for the default, found \"\(bad)\""))
        }
        // The UIKit parameters move the range's minimum to 28.
        let uikit = makeMeasurer(p, width: 390, parameters: ["detailImageMin": 28])
        #expect(Self.error(uikit, "objectCell", ["title": "t", "detailImage": "16"])
            == Self.violation("objectCell", .imageSizeOutOfRange(slot: "detailImage", width: 16, height: 16, min: 28, max: 60)))
        #expect(Self.error(uikit, "objectCell", ["title": "t", "detailImage": "28.5"]) == nil)
        #expect(Self.error(m, "objectCell", ["title": "t", "chevron": "1", "overflow": "1", "actionButton": "Go"])
            == Self.violation("objectCell", .exclusive(present: ["chevron", "actionButton", "overflow"])))
        #expect(Self.error(m, "objectCellCentered", ["title": "t", "infoDisclosure": "1", "actionIcon": "1"])
            == Self.violation("objectCellCentered", .exclusive(present: ["infoDisclosure", "actionIcon"])))
        #expect(Self.answers(m) == before)
    }

    /// Text list items found eight bytes at a time: the non-empty runs between separators.
    @Test func textListItemsAreTheRunsBetweenSeparators() {
        var rng = SplitMix64(seed: 3)
        for _ in 0..<2000 {
            let bytes = (0..<rng.int(0...40)).map { _ in rng.chance(0.2) ? UInt8(0x1E) : UInt8(0x61 + rng.int(0...3)) }
            let expected = bytes.split(separator: 0x1E).map { $0.startIndex..<$0.endIndex }
            var found: [Range<Int>] = []
            bytes.withUnsafeBytes { b in
                var from = 0
                while let item = CellMeasurer.nextItem(b, from: from, end: b.count) {
                    found.append(item)
                    from = item.upperBound + 1
                }
            }
            #expect(found == expected, "\(bytes)")
        }
    }

    /// Whole image sides skip floating point (`parseWholeImage`): the sizes of the decimal parse.
    @Test func wholeImageSizesMatchTheDecimalParse() {
        for value in ["0", "7", "44", "007", "110x80", "0x5", "999999999", "999999999x1", "1x999999999"] {
            let bytes = Array(value.utf8)
            let sides = value.split(separator: "x").map { side in
                Array(side.utf8).withUnsafeBytes { LayoutUnit.units(CellMeasurer.parseDecimal($0, allowFraction: true)!) }
            }
            let expected = (width: sides[0], height: sides[sides.count - 1])
            let whole = bytes.withUnsafeBytes { CellMeasurer.parseWholeImage($0) }
            #expect(whole?.width == expected.width && whole?.height == expected.height, "\(value)")
        }
        for value in ["4.5", "44x", "x44", "1234567890", "44x40x2", "44 "] {
            #expect(Array(value.utf8).withUnsafeBytes { CellMeasurer.parseWholeImage($0) } == nil, "\(value)")
        }
    }

    @Test func fioriAndroidAndCollectionRules() {
        let a = ProfileFixtures.fioriAndroid
        let m = makeMeasurer(a, width: 360, platform: .android, engine: TextLayoutEngine())
        let before = Self.answers(m)
        #expect(Self.error(m, "objectCell", ["title": "t", "icons": "2", "statusInfo": "High\u{1E}Open", "actions": "2", "image": "40"]) == nil)
        #expect(Self.error(m, "objectCell", ["title": "t", "icons": "3"]) == Self.violation("objectCell", .tooManyItems(slot: "icons", count: 3, max: 2)))
        #expect(Self.error(m, "objectCell", ["title": "t", "statusInfo": "a\u{1E}b\u{1E}c"]) == Self.violation("objectCell", .tooManyItems(slot: "statusInfo", count: 3, max: 2)))
        #expect(Self.error(m, "objectCell", ["title": "t", "actions": "3"]) == Self.violation("objectCell", .tooManyItems(slot: "actions", count: 3, max: 2)))
        #expect(Self.error(m, "contactCell", ["title": "t", "actions": "4"]) == Self.violation("contactCell", .tooManyItems(slot: "actions", count: 4, max: 3)))
        #expect(Self.error(m, "objectCell", ["title": "t", "image": "48"])
            == Self.violation("objectCell", .imageSizeOutOfRange(slot: "image", width: 48, height: 48, min: 40, max: 40)))
        #expect(Self.error(m, "singleActionCell", ["title": "t", "actionIcon": "1", "actionButton": "Follow"])
            == Self.violation("singleActionCell", .exclusive(present: ["actionIcon", "actionButton"])))
        #expect(Self.error(m, "contactCell", ["caption": "c"]) == Self.violation("contactCell", .missingRequired(slot: "title")))
        #expect(Self.answers(m) == before)

        let c = ProfileFixtures.collection
        let g = makeMeasurer(c, width: 375, engine: TextLayoutEngine())
        #expect(Self.error(g, "collectionItem", ["iconActions": "2", "buttonAction": "Open"])
            == Self.violation("collectionItem", .exclusive(present: ["iconActions", "buttonAction"])))
        #expect(Self.error(g, "collectionItem", ["iconActions": "0", "buttonAction": "Open"]) == nil)  // a count of 0 is no icon
        #expect(Self.error(g, "collectionImage", ["image": "200"])
            == Self.violation("collectionImage", .imageSizeOutOfRange(slot: "image", width: 200, height: 200, min: 60, max: 110)))
        #expect(Self.error(g, "collectionImage", ["iconActions": "3"]) == Self.violation("collectionImage", .tooManyItems(slot: "iconActions", count: 3, max: 2)))
    }

    @Test func malformedRowBuffers() {
        let m = makeMeasurer(ProfileFixtures.george, width: 375)
        let before = Self.answers(m)
        let text: [UInt8] = Array("labelvalue".utf8) + [0xFF]
        func check(_ offsets: [Int]) -> TesseraError? {
            text.withUnsafeBytes { u in offsets.withUnsafeBufferPointer { o in thrownError { try m.validate(kind: 6, utf8: u, slotOffsets: o, row: 9) } } }
        }
        #expect(check([0, 5, 10]) == nil)
        #expect(check([0, 5, 11]) == .invalidUTF8(row: 9, slot: 1, byteOffset: 5))
        #expect(check([0, 6, 5]) == .invalidTextOffsets(row: 9, slot: 1))
        #expect(check([0, 5, 12]) == .invalidTextOffsets(row: 9, slot: 1))
        #expect(check([-1, 5]) == .invalidTextOffsets(row: 9, slot: 0))
        // Bad offsets do not trap the measuring calls either.
        #expect(text.withUnsafeBytes { u in [0, 6, 5, 99].withUnsafeBufferPointer { o in m.height(kind: 6, utf8: u, slotOffsets: o) } } >= 44)
        #expect(Self.answers(m) == before)
    }

    @Test func selectionGroupsNeedTwoRows() {
        let g = ProfileFixtures.george
        let m = makeMeasurer(g, width: 375)
        let before = Self.answers(m)
        defer { #expect(Self.answers(m) == before) }
        let header: UInt16 = 13, footer: UInt16 = 15, basic: UInt16 = 1, single: UInt16 = 2, multi: UInt16 = 5
        #expect(thrownError { try m.validateGroup(rowKinds: [header, single, single, footer]) } == nil)
        #expect(thrownError { try m.validateGroup(rowKinds: [header, single, footer]) }
            == .ruleViolation(row: 1, kind: "singleSelectionLeading", rule: .groupMinimum(rows: 1, minimum: 2)))
        // Groups end at headers and footers; row numbers count from firstRow.
        #expect(thrownError { try m.validateGroup(rowKinds: [single, single, header, basic, multi, basic, footer], firstRow: 100) }
            == .ruleViolation(row: 104, kind: "multiSelectionTrailing", rule: .groupMinimum(rows: 1, minimum: 2)))
        #expect(thrownError { try m.validateGroup(rowKinds: [multi, basic, multi, header, basic]) } == nil)
        #expect(thrownError { try m.validateGroup(rowKinds: [basic, basic, single]) }
            == .ruleViolation(row: 2, kind: "singleSelectionLeading", rule: .groupMinimum(rows: 1, minimum: 2)))
        #expect(thrownError { try m.validateGroup(rowKinds: []) } == nil)
        #expect(thrownError { try m.validateGroup(rowKinds: [single, 40]) } == .unknownKindCode(40, profile: "george"))
    }

    @Test func lintWarnings() {
        let g = ProfileFixtures.george
        let m = makeMeasurer(g, width: 375)
        var text = RowText(slotsPerRow: 10)
        var kinds: [UInt16] = []
        func add(_ kind: String, _ values: [String: String]) {
            let row = g.row(kind, values)
            kinds.append(row.code)
            text.append(row.slots)
        }
        add("sectionHeader", ["headline": "Accounts"])
        add("basicCell", ["label": "a", "leadingIcon": "1"])
        add("basicCell", ["label": "b", "leadingIcon": "1"])
        add("basicCell", ["label": "c"])  // row 3: no icon in a group with icons
        add("sectionHeader", ["headline": "Settings"])
        add("basicCell", ["label": "d"])
        add("basicCell", ["label": "e"])  // a group without icons: consistent
        #expect(m.lint(kinds: kinds, text: text) == [LintWarning(check: .groupConsistent, kind: "basicCell", slot: "leadingIcon", scope: 1..<4, rows: [3])])

        // Collection: icon action counts and image sizes across the whole list.
        let c = ProfileFixtures.collection
        let cm = makeMeasurer(c, width: 768)
        var ct = RowText(slotsPerRow: 5)
        ct.append(["2", "60"])
        ct.append(["2", "60"])
        ct.append(["1", "110"])
        ct.append(["2", ""])  // the default size, 60
        let warnings = cm.lint(kinds: [2, 2, 2, 2], text: ct)
        #expect(warnings == [
            LintWarning(check: .consistentSize, kind: "collectionImage", slot: "image", scope: 0..<4, rows: [2]),
            LintWarning(check: .consistentCount, kind: "collectionImage", slot: "iconActions", scope: 0..<4, rows: [2]),
        ])

        // Fiori iOS: consistent heights in a table.
        let f = ProfileFixtures.fioriIOS
        let fm = makeMeasurer(f, width: 390)
        var ft = RowText(slotsPerRow: 12)
        ft.append(f.row("objectCell", ["title": "a", "subtitle": "b"]).slots)
        ft.append(f.row("objectCell", ["title": "a", "subtitle": "c"]).slots)
        ft.append(f.row("objectCell", ["title": "a"]).slots)
        #expect(fm.lint(kinds: [1, 1, 1], text: ft) == [LintWarning(check: .consistentHeight, kind: "objectCell", slot: nil, scope: 0..<3, rows: [2])])

        // Fiori Android contacts: the same actions on every contact of a group.
        let a = ProfileFixtures.fioriAndroid
        let am = makeMeasurer(a, width: 360, platform: .android)
        var at = RowText(slotsPerRow: 9)
        at.append(a.row("contactCell", ["title": "a", "actions": "3"]).slots)
        at.append(a.row("contactCell", ["title": "b", "actions": "3"]).slots)
        #expect(am.lint(kinds: [3, 3], text: at).isEmpty)
        at.append(a.row("contactCell", ["title": "c", "actions": "2"]).slots)
        #expect(am.lint(kinds: [3, 3, 3], text: at) == [LintWarning(check: .consistentCount, kind: "contactCell", slot: "actions", scope: 0..<3, rows: [2])])
    }
}
