import Testing
@_spi(Benchmarks) @testable import Tessera

/// The prepared-text paths against measuring from scratch: `ListEngine.measureAll` with
/// kept `CellTextBatch`es under random interleavings of environment changes (width across
/// width classes, edit mode, font scale, platform, parameters), budgeted measurements,
/// inserts and removals; kept texts brought to a new font scale (rescaled or measured
/// again) against texts prepared in that scale; kept line counts over many widths. The
/// reference is always a fresh `CellMeasurer` with a fresh text engine and no batch.
@Suite struct PreparedTextsEngineTests {
    static let profiles = ["george", "fiori-ios", "fiori-android", "fiori-ios-collection"]
    static let scales: [Double] = [0.85, 1, 1.3, 1.6, 2, 3.1]

    /// Every row's height from a fresh measurer in `env`, in points.
    static func reference(_ profile: Profile, _ env: LayoutEnvironment, _ kinds: [UInt16], _ slots: [[String]]) -> [Double] {
        let m = try! CellMeasurer(profile: profile, environment: env, textEngine: TextLayoutEngine())
        return zip(kinds, slots).map { m.height(kind: $0, slots: $1) }
    }

    static func heights(_ engine: borrowing ListEngine) -> [Double] {
        var h = [Double](repeating: 0, count: engine.store.count)
        h.withUnsafeMutableBufferPointer { engine.measuredHeights(into: $0) }
        return h
    }

    @Test(arguments: profiles, [UInt64(1), 2])
    func engineMatchesFreshMeasurers(_ name: String, _ seed: UInt64) throws {
        let profile = EngineEquivalenceTests.profile(name)
        var rng = SplitMix64(seed: seed &* 0x5851_F42D_4C95_7F2D &+ UInt64(name.utf8.count))
        let factory = EngineRowFactory(profile)
        var ids = IDSource(seed: seed)
        let platform = profile.platforms[0]
        var env = LayoutEnvironment(width: 375, platform: platform)
        var engine = try ListEngine(profile: profile, environment: env, viewport: 600, overscan: 100, textEngine: TextLayoutEngine(),
                                    pageCapacity: rng.int(4...16), treeFanout: 4)
        let first = factory.batch(rows: rng.int(150...300), &rng, ids: &ids)
        try engine.append(ids: first.ids, kinds: first.kinds, text: first.text)
        var kinds = first.kinds, slots = first.slots
        try engine.measureAll(threads: rng.int(1...3))
        #expect(engine.preparedTextBytes > 0, "measureAll with every row dirty prepares texts")
        #expect(Self.heights(engine) == Self.reference(profile, env, kinds, slots), "\(name): cold")

        // First the changes the batches must carry through (font scale up, width class,
        // edit mode, another scale, platform, back), then random ones.
        var planned: [(inout LayoutEnvironment) -> Void] = [
            { $0.fontScale = 1.3 }, { $0.width = 1024 }, { $0.editMode = true }, { $0.fontScale = 2 }, { $0.width = 390.5 },
            { $0.fontScale = 1 }, { $0.editMode = false },
        ]
        if profile.platforms.count > 1 { planned.append { $0.platform = $0.platform == .ios ? .android : .ios } }
        var usedBatches = 0
        for step in 0..<60 {
            let what = step < planned.count ? 0 : rng.below(10)
            switch what {
            case 0, 1, 2, 3, 4:
                if step < planned.count {
                    planned[step](&env)
                } else {
                    switch rng.below(5) {
                    case 0: env.editMode.toggle()
                    case 1: env.fontScale = rng.pick(Self.scales)
                    case 2 where profile.platforms.count > 1: env.platform = env.platform == .ios ? .android : .ios
                    case 3: env.parameters = rng.chance(0.4) ? [:] : EngineEquivalenceTests.parameters(name, &rng)
                    default: env.width = rng.pick(EngineEquivalenceTests.widths + [Double(rng.int(200...1400)) + 0.25])
                    }
                }
                try engine.setEnvironment(env)
                if rng.chance(0.3) { try engine.measure(budget: .rows(rng.int(1...40))) }
                try engine.measureAll(threads: rng.int(1...3))
                if engine.preparedTextBytes > 0 { usedBatches += 1 }
            case 5:
                // Rows change: the batches are dropped, later passes go on without them or
                // prepare new ones.
                let b = factory.batch(rows: rng.int(1...8), &rng, ids: &ids)
                let at = rng.int(0...kinds.count)
                do {
                    try engine.insert(ids: b.ids, kinds: b.kinds, text: b.text, at: at)
                    kinds.insert(contentsOf: b.kinds, at: at)
                    slots.insert(contentsOf: b.slots, at: at)
                    #expect(engine.preparedTextBytes == 0, "an insert drops the prepared texts")
                } catch {
                    guard case .ruleViolation(_, _, .groupMinimum) = error else { throw error }
                }
                try engine.measureAll(threads: rng.int(1...3))
            case 6:
                let lo = rng.below(kinds.count), hi = min(kinds.count, lo + rng.int(1...4))
                do {
                    try engine.removeRows(lo..<hi)
                    kinds.removeSubrange(lo..<hi)
                    slots.removeSubrange(lo..<hi)
                } catch {
                    guard case .ruleViolation(_, _, .groupMinimum) = error else { throw error }
                }
                try engine.measureAll(threads: rng.int(1...3))
            default:
                try engine.measureAll(threads: rng.int(1...3))
            }
            #expect(engine.dirtyCount == 0)
            let got = Self.heights(engine), want = Self.reference(profile, env, kinds, slots)
            #expect(got == want, "\(name) seed \(seed) step \(step) at \(env)")
            if got != want { break }
        }
        #expect(usedBatches >= planned.count, "the planned changes were measured from kept texts")
    }

    /// Grid items whose height is one text's lines come from kept results alone after a
    /// change of width class or font scale (their values unread; in debug builds each is
    /// checked against measuring the row in full); image-only items, as wide as their
    /// content, keep their heights through a change of width; and the heights are a fresh
    /// measurer's.
    @Test func gridItemsFromKeptResults() throws {
        let profile = EngineEquivalenceTests.profile("fiori-ios-collection")
        let imageCode = try #require(profile.kinds.first { $0.name == "collectionImage" }).code
        try expectKeptResults(profile, seed: 11, [{ $0.width = 768 }, { $0.fontScale = 1.3 }, { $0.width = 375 }, { $0.fontScale = 0.85 }]) { before, after, dirty, rows in
            let images = rows.kinds.filter { $0 == imageCode }.count
            #expect(images > 0)
            if after.width != before.width { #expect(dirty <= rows.kinds.count - images, "\(after): image-only items measured again") }
        }
    }

    /// List rows whose one text measured per row is in the fill column, beside fit columns
    /// of a constant or one text (George's transactions), come from kept results alone after
    /// a change of font scale or width (in debug builds each height and width range is
    /// checked against measuring the row in full), and the heights are a fresh measurer's.
    @Test func fillColumnRowsFromKeptResults() throws {
        try expectKeptResults(EngineEquivalenceTests.profile("george"), seed: 12,
                              [{ $0.fontScale = 1.3 }, { $0.width = 320 }, { $0.fontScale = 1 }, { $0.width = 768 }])
    }

    /// Object cells (several texts in the fill column, fit columns of images, text lists and
    /// buttons, the description's own column in regular width) come from kept results by
    /// walking their plans: every row measured again after a change of width class, edit
    /// mode or font scale (in debug builds each height and width range checked against
    /// measuring the row in full), and the heights are a fresh measurer's.
    @Test(arguments: ["fiori-ios", "fiori-android"])
    func objectCellsWalkedFromKeptResults(_ name: String) throws {
        try expectKeptResults(EngineEquivalenceTests.profile(name), seed: 13,
                              [{ $0.width = 1024 }, { $0.fontScale = 1.3 }, { $0.editMode = true }, { $0.width = 390 }, { $0.fontScale = 1 }],
                              everyRow: true)
    }

    /// Kept rows whose texts need their bytes — a label with a word wider than the line
    /// (an emergency break at grapheme clusters), labels and amounts with scalars outside the
    /// primary face (measured again at another font scale) — still come from kept results,
    /// reading those bytes from the row's record: every row of the list after each change,
    /// with a fresh measurer's heights (and in debug builds each checked against measuring
    /// the row in full).
    @Test func keptRowsReadTheBytesTheirTextsNeed() throws {
        let profile = EngineEquivalenceTests.profile("george")
        let kind = try #require(profile.kinds.first { $0.name == "transaction" })
        let labels = ["Zahlungsreferenz AT611904300234573201AT611904300234573201AT611904300234573201", "Kaffeehaus 東京 Ginza 🍣 Sushi",
                      "Billa", "Überweisung an Maria Musterfrau für die Miete im November", "ЁЖЗИЙ Москва", "W" + String(repeating: "w", count: 90)]
        let amounts = ["−12,40 €", "−1.234,56 €", "+3.000,00 €", "−9,99 ¥円", "−0,50 €"]
        var slots: [[String]] = [], text = RowText(slotsPerRow: kind.valueCount)
        for i in 0..<60 {
            let row = ["", labels[i % labels.count], i % 3 == 0 ? "Kartenzahlung" : "", i % 4 == 0 ? "Lebensmittel" : "", amounts[i % amounts.count]]
            slots.append(row)
            text.append(row)
        }
        try expectRelayouts(profile, kind.code, slots, text, [{ $0.fontScale = 1.3 }, { $0.width = 250 }, { $0.fontScale = 0.85 }, { $0.width = 375 }]) {
            env, dirty, kept in #expect(dirty > 0 && kept == dirty, "\(env): \(kept) of \(dirty) rows from kept results")
        }
    }

    /// Appends `slots` (rows of `kind`) to an engine at 375 pt, measures them, then makes
    /// each change: every height is a fresh measurer's, and `check` sees the environment,
    /// the rows marked dirty and how many of them came from kept results.
    func expectRelayouts(_ profile: Profile, _ kind: UInt16, _ slots: [[String]], _ text: RowText, _ changes: [(inout LayoutEnvironment) -> Void],
                         check: (LayoutEnvironment, Int, Int) -> Void) throws {
        let kinds = [UInt16](repeating: kind, count: slots.count)
        var env = LayoutEnvironment(width: 375, platform: profile.platforms[0])
        var engine = try ListEngine(profile: profile, environment: env, viewport: 600, overscan: 100, textEngine: TextLayoutEngine())
        try engine.append(ids: (1...UInt64(slots.count)).map { $0 }, kinds: kinds, text: text)
        try engine.measureAll(threads: 1)
        for change in changes {
            change(&env)
            try engine.setEnvironment(env)
            let dirty = engine.dirtyCount
            try engine.measureAll(threads: 1)
            check(env, dirty, engine.lastMeasureAllKeptRows)
            #expect(Self.heights(engine) == Self.reference(profile, env, kinds, slots), "\(env)")
        }
    }

    /// An image's or box stack's value as a batch keeps it parsed (`CellTextBatch.boxCode`)
    /// gives what parsing the value gives, or nothing (the row then reads its value).
    @Test func parsedBoxValuesEqualTheirValues() throws {
        var values = ["", "*", "44", "7", "0", "16", "60x60", "110x80", "45.5", "12.25x3", "x", "44x", "abc", "-3", "1e3", "00044",
                      "999999999", "511x511", "512x1", "0.000001", "3 "]
        var rng = SplitMix64(seed: 7)
        for _ in 0..<500 {
            let bytes = (0..<rng.int(1...7)).map { _ in rng.pick(Array("0123456789x.*".utf8)) }
            values.append(String(decoding: bytes, as: UTF8.self))
        }
        for value in values {
            var bytes = Array(value.utf8)
            bytes.withUnsafeMutableBytes { raw in
                let b = UnsafeRawBufferPointer(raw)
                let image = CellTextBatch.boxCode(.image, b)
                let expected = CellMeasurer.parseImage(b, default: 28 * 64) ?? (28 * 64, 28 * 64)
                if let size = CellTextBatch.imageSize(code: image, default: 28 * 64) {
                    #expect(size == expected, "image \"\(value)\"")
                } else {
                    #expect(image == -1 && (expected.width >= 1 << 15 || expected.height >= 1 << 15 || expected.width < 0), "image \"\(value)\" not kept")
                }
                #expect(CellTextBatch.boxCount(code: image) == nil, "an image's code is no count")
                let box = CellTextBatch.boxCode(.boxStack, b)
                let count = b.isEmpty ? 0 : CellMeasurer.parseDecimal(b, allowFraction: false) ?? 0
                if let kept = CellTextBatch.boxCount(code: box) {
                    #expect(Double(kept) == count, "box stack \"\(value)\"")
                } else {
                    #expect(box == -1 && count >= 0x1p29, "box stack \"\(value)\" not kept")
                }
                #expect(CellTextBatch.imageSize(code: box, default: 0) == nil, "a count's code is no image")
            }
        }
    }

    /// Object cells whose images, icon stacks and attributes take every form of value are
    /// measured from kept results without reading their records, except those whose
    /// attributes have an empty item (not kept): every height a fresh measurer's after each
    /// change (and in debug builds each checked against measuring the row in full).
    @Test func keptRowsReadParsedBoxValues() throws {
        let profile = EngineEquivalenceTests.profile("fiori-ios")
        let kind = try #require(profile.kinds.first { $0.name == "objectCell" })
        let images = ["", "*", "44", "16", "60", "28.5", "45x45"], icons = ["", "1", "2", "3"]
        let attributes = ["", "Q1", "In stock\u{1E}12 pcs", "A\u{1E}\u{1E}B", "Very long attribute text that is capped at a fraction"]
        var slots: [[String]] = [], text = RowText(slotsPerRow: kind.valueCount), emptyItems = 0
        for i in 0..<140 {
            var row = [String](repeating: "", count: kind.valueCount)
            row[0] = icons[i % icons.count]
            row[1] = images[i % images.count]
            row[2] = i % 2 == 0 ? "Pump \(i) maintenance order for the north plant" : "Pump \(i)"
            row[5] = i % 3 == 0 ? "Replace the seals and check the pressure gauge before the next shift." : ""
            row[6] = attributes[i % attributes.count]
            if row[6].contains("\u{1E}\u{1E}") { emptyItems += 1 }
            slots.append(row)
            text.append(row)
        }
        try expectRelayouts(profile, kind.code, slots, text, [{ $0.fontScale = 1.3 }, { $0.width = 700 }, { $0.editMode = true }, { $0.fontScale = 1 }]) {
            env, dirty, kept in #expect(dirty > emptyItems && kept >= dirty - emptyItems, "\(env): \(kept) of \(dirty) rows from kept results")
        }
    }

    /// Appends 400 rows of `profile`, measures them (nothing kept yet), then makes each
    /// change: after it some rows (with `everyRow`, every row measured again) come from kept
    /// results and every height is a fresh measurer's. `check` sees the environments before and after, the rows marked dirty and
    /// the rows.
    func expectKeptResults(_ profile: Profile, seed: UInt64, _ changes: [(inout LayoutEnvironment) -> Void], everyRow: Bool = false,
                           check: (LayoutEnvironment, LayoutEnvironment, Int, EngineBatch) -> Void = { _, _, _, _ in }) throws {
        var rng = SplitMix64(seed: seed)
        var ids = IDSource(seed: seed)
        var env = LayoutEnvironment(width: 375, platform: profile.platforms[0])
        var engine = try ListEngine(profile: profile, environment: env, viewport: 600, overscan: 100, textEngine: TextLayoutEngine())
        let rows = EngineRowFactory(profile).batch(rows: 400, &rng, ids: &ids)
        try engine.append(ids: rows.ids, kinds: rows.kinds, text: rows.text)
        try engine.measureAll(threads: 2)
        #expect(engine.lastMeasureAllKeptRows == 0, "a first pass has nothing kept")
        for change in changes {
            let before = env
            change(&env)
            try engine.setEnvironment(env)
            let dirty = engine.dirtyCount
            check(before, env, dirty, rows)
            try engine.measureAll(threads: 2)
            #expect(engine.lastMeasureAllKeptRows > 0, "\(env): no row from kept results")
            if everyRow { #expect(engine.lastMeasureAllKeptRows == dirty, "\(env): \(engine.lastMeasureAllKeptRows) of \(dirty) rows from kept results") }
            #expect(Self.heights(engine) == Self.reference(profile, env, rows.kinds, rows.slots), "\(env)")
        }
    }

    /// Kept texts brought to a new font scale or platform equal texts prepared in it, to the
    /// bit, whether rescaled or measured again.
    @Test(arguments: profiles)
    func restyledSegmentsEqualFreshlyPrepared(_ name: String) throws {
        let profile = try Profile.load(path: ProfileFixtures.path(name))
        let (kinds, text) = CellTextBatchTests.rows(profile)
        try checkRestyled(name, profile, kinds, text)
    }

    /// Letter-spaced styles (all of fiori-android's): kept texts rescaled to other font
    /// scales, where a width is the scaled unit sum plus the letter spacing per grapheme
    /// cluster, equal texts prepared at that scale — with combining marks, ZWJ emoji,
    /// default ignorables (leading, inside), Unicode spaces after words, terminators,
    /// tabs, spaces inside a segment, and texts mixing the primary face with fallbacks.
    @Test func letterSpacedRestyleEqualsFreshMeasurer() throws {
        let profile = try Profile.load(path: ProfileFixtures.path("fiori-android"))
        let m = try CellMeasurer(profile: profile, environment: LayoutEnvironment(width: 375, platform: profile.platforms[0]))
        try #require(m.program.styles.contains { $0.letterSpacing != 0 })
        let words = ["e\u{301}tude", "Grüße\u{2003}\u{2003}", "Welt", "\u{200B}lead", "a\u{AD}b", "👨‍👩‍👧", "family", "日本語\u{3000}", "テキスト",
                     "Ελληνικά", "Привет", "tab\there", "line\r\nbreak", "( a", "x\u{2009}y", "\u{301}", "Zahlung,", "1.234,56 €", "—",
                     "ﬁle", "ǅ", "\u{FEFF}", "MIXED日本Latin", "🇦🇹", "a\u{200D}b", "ẞ", "ő"]
        let (kinds, text) = CellTextBatchTests.rows(profile, words: words, seed: 11, perKind: 16, maxWords: 12, everyText: true, doubleSpaces: true)
        try checkRestyled("fiori-android", profile, kinds, text)
    }

    /// Rows measured with a batch kept from the first platform at scale 1, brought to each
    /// scale and platform, against fresh measurers: heights with texts scaled where they
    /// can be, then with every text in another style measured again (`restyle`), and each
    /// of those texts' segment widths.
    func checkRestyled(_ name: String, _ profile: Profile, _ kinds: [UInt16], _ text: RowText) throws {
        let platform = profile.platforms[0]
        let start = LayoutEnvironment(width: 375, platform: platform)
        let m = try CellMeasurer(profile: profile, environment: start)
        let batch = try prepare(m, kinds, text)
        var targets = Self.scales.map { LayoutEnvironment(width: 375, platform: platform, fontScale: $0) }
        for p in profile.platforms where p != platform { targets.append(LayoutEnvironment(width: 375, platform: p, fontScale: 1.3)) }
        targets.append(start)
        for e in targets {
            try m.setEnvironment(e)
            let fresh = try CellMeasurer(profile: profile, environment: e)
            let reference = try prepare(fresh, kinds, text)
            var plain = [Double](repeating: 0, count: kinds.count)
            try CellTextBatchTests().heights(fresh, kinds, text, batch: nil, into: &plain)
            for restyling in [false, true] {
                batch.view.restylesEveryText = restyling
                var h = [Double](repeating: 0, count: kinds.count)
                try CellTextBatchTests().heights(m, kinds, text, batch: batch, into: &h)
                #expect(h == plain, "\(name) heights at \(e)\(restyling ? ", every text measured again" : "")")
            }
            batch.view.restylesEveryText = false
            // Texts kept in both (same slots placed) and brought to the current style.
            let a = batch.view, b = reference.view
            var compared = 0
            for i in 0..<a.first.count where a.first[i] >= 0 && b.first[i] >= 0 {
                var t = Int(a.first[i]), u = Int(b.first[i])
                while t < a.head.count && u < b.head.count && a.head[t] == a.first[i] && b.head[u] == b.first[i] {
                    defer { t += 1; u += 1 }
                    guard a.style[t] == b.style[u], batch.styleStates[Int(a.measuredIn[t])].identity == m.program.styleIdentities[Int(a.style[t])] else { continue }
                    let x = a.view(t).segments, y = b.view(u).segments
                    #expect(x.count == y.count)
                    for k in 0..<min(x.count, y.count) {
                        #expect(x[k].width == y[k].width && x[k].whitespaceWidth == y[k].whitespaceWidth && x[k].endAndMandatory == y[k].endAndMandatory,
                                "\(name) at \(e): text \(t) segment \(k): \(x[k].width)/\(x[k].whitespaceWidth) against \(y[k].width)/\(y[k].whitespaceWidth)")
                    }
                    #expect(a.widest[t] == b.widest[u])
                    compared += 1
                }
            }
            #expect(compared > 0, "\(name) at \(e): some kept texts compared")
        }
    }

    /// Line counts kept with the range of widths they hold for, over many widths up and
    /// down (fractional ones too), against fresh measurers.
    @Test(arguments: profiles)
    func keptLineCountsFollowWidths(_ name: String) throws {
        let profile = try Profile.load(path: ProfileFixtures.path(name))
        let (kinds, text) = CellTextBatchTests.rows(profile)
        let platform = profile.platforms[0]
        let m = try CellMeasurer(profile: profile, environment: LayoutEnvironment(width: 375, platform: platform))
        let batch = try prepare(m, kinds, text)
        var rng = SplitMix64(seed: 99)
        for _ in 0..<30 {
            let width = rng.chance(0.3) ? Double(rng.int(120...1400)) : Double(rng.int(120 * 64...1400 * 64)) / 64
            let e = LayoutEnvironment(width: width, platform: platform, editMode: rng.chance(0.3))
            try expectFreshHeights(name, profile, m, batch, kinds, text, in: e)
        }
    }

    /// `m` with `batch` in `e` gives the heights of a fresh measurer without one.
    func expectFreshHeights(_ name: String, _ profile: Profile, _ m: CellMeasurer, _ batch: CellTextBatch, _ kinds: [UInt16], _ text: RowText,
                            in e: LayoutEnvironment) throws {
        try m.setEnvironment(e)
        var h = [Double](repeating: 0, count: kinds.count)
        try CellTextBatchTests().heights(m, kinds, text, batch: batch, into: &h)
        let fresh = try CellMeasurer(profile: profile, environment: e)
        var plain = [Double](repeating: 0, count: kinds.count)
        try CellTextBatchTests().heights(fresh, kinds, text, batch: nil, into: &plain)
        #expect(h == plain, "\(name) at \(e)")
    }

    /// Line counts and natural widths carried across font scales from widths kept at
    /// another scale (no text measured again unless a comparison falls within the margin),
    /// over random widths and scales, against fresh measurers; in some rounds texts must be
    /// left in another style than the current one, or the carried path was not taken.
    @Test(arguments: profiles)
    func keptTextsFollowFontScales(_ name: String) throws {
        let profile = try Profile.load(path: ProfileFixtures.path(name))
        let (kinds, text) = CellTextBatchTests.rows(profile)
        let platform = profile.platforms[0]
        let m = try CellMeasurer(profile: profile, environment: LayoutEnvironment(width: 375, platform: platform))
        let batch = try prepare(m, kinds, text)
        var rng = SplitMix64(seed: 41)
        var carried = 0
        for round in 0..<24 {
            let width = Double(rng.int(160 * 64...1200 * 64)) / 64
            // Back to scale 1 now and then, and not at the end.
            let drawn = Double(rng.int(80...300)) / 100
            let scale = round % 4 == 2 ? 1 : drawn == 1 ? 1.25 : drawn
            let e = LayoutEnvironment(width: width, platform: platform, editMode: rng.chance(0.25), fontScale: scale)
            try expectFreshHeights(name, profile, m, batch, kinds, text, in: e)
            if !batch.isCurrent(for: m) { carried += 1 }
        }
        #expect(carried > 0, "\(name): in some round, kept texts were carried to the new scale instead of measured again")
    }

    /// `countLines` against the engine's line breaking on random segment lists, with the
    /// kept range checked by breaking again at limits inside and just outside it.
    @Test func countLinesAgreesWithTheEngine() throws {
        let engine = TextLayoutEngine()
        let style = try TextStyle(fontChain: FontChain([try Font(path: TestFonts.roboto)]), size: 15)
        var rng = SplitMix64(seed: 5)
        for _ in 0..<3000 {
            let n = rng.int(0...12)
            var segments: [PreparedSegment] = []
            var end = 0
            for i in 0..<n {
                end += rng.int(1...9)
                let w = Float(rng.int(0...4000)) / 64, ws = rng.chance(0.7) ? Float(rng.int(0...300)) / 64 : 0
                segments.append(PreparedSegment(end: end, width: w, whitespaceWidth: ws, isMandatory: i < n - 1 && rng.chance(0.1)))
            }
            let bytes = [UInt8](repeating: 0x61, count: end)
            let widest = segments.map(\.width).max() ?? 0
            let limit = Double(widest) + Double(rng.int(0...8000)) / 64
            try segments.withUnsafeBufferPointer { segs in
                try bytes.withUnsafeBytes { utf8 in
                    func engineCount(_ l: Double) -> Int {
                        _ = engine.breakLines(PreparedTextView(segments: segs, widest: widest), utf8, style, width: l - TextLayoutEngine.widthTolerance, maxLines: 0)
                        return engine.caches.pointee.lines.count
                    }
                    let view = PreparedTextView(segments: segs, widest: widest)
                    // The fill summing positions as it goes gives the lines of the one reading them, to the bit.
                    var kept: [[Double]] = [], summed: [[Double]] = []
                    TextLayoutEngine.fillLines(segs, engine.linePositions(view), limit: limit) { kept.append([Double($0), Double($1), $2]); return true }
                    TextLayoutEngine.fillLines(segs, limit: limit) { summed.append([Double($0), Double($1), $2]); return true }
                    #expect(kept.map { $0.map(\.bitPattern) } == summed.map { $0.map(\.bitPattern) })
                    let (memo, count) = CellMeasurer.countLines(view, limit: limit, stopAfter: 0)
                    #expect(count == engineCount(limit) && Int(memo.count) == count)
                    let low = Double(memo.low), high = Double(memo.high)
                    #expect(low <= limit && limit < high)
                    // Inside the range: the same count.
                    for l in [low, high.isFinite ? high - 1.0 / 64 : low + 500] where l >= low {
                        #expect(engineCount(l) == count, "limit \(l) in \(low)..<\(high)")
                    }
                    let (capped, cappedCount) = CellMeasurer.countLines(view, limit: limit, stopAfter: 2)
                    #expect(min(cappedCount, 2) == min(count, 2))
                    try #require(!capped.partial || count > 2)
                }
            }
        }
    }

    /// Emergency breaks (a word wider than the line) report the range of limits their
    /// comparisons hold for: at limits across that range the lines are the same, and the
    /// range holds the limit.
    @Test func emergencyBreakRangesHoldTheirLines() throws {
        let engine = TextLayoutEngine()
        let style = try TextStyle(fontChain: FontChain([try Font(path: TestFonts.roboto)]), size: 15)
        let words = ["Kühlschrankgefrierkombination", "a", "Donaudampfschifffahrt", "und", "xxxxxxxxxxxxxxxxxxxx", "é\u{301}e", "go"]
        var rng = SplitMix64(seed: 8)
        var emergencies = 0
        for _ in 0..<400 {
            let text = (0..<rng.int(1...6)).map { _ in rng.pick(words) }.joined(separator: " ")
            let width = Double(rng.int(6 * 64...160 * 64)) / 64
            try Array(text.utf8).withUnsafeBytes { utf8 in
                let prepared = engine.prepare(utf8, style)
                let view = PreparedTextView(segments: engine.caches.pointee.segments.buffer, widest: prepared)
                let segments = Array(view.segments)
                try segments.withUnsafeBufferPointer { segs in
                    let v = PreparedTextView(segments: segs, widest: prepared)
                    func lines(_ w: Double, _ range: UnsafeMutablePointer<(low: Double, high: Double)>? = nil) -> [Range<Int>] {
                        _ = engine.breakLines(v, utf8, style, width: w, maxLines: 0, range: range)
                        return engine.caches.pointee.lines.buffer.map(\.range)
                    }
                    var range = (low: -Double.infinity, high: Double.infinity)
                    let got = lines(width, &range)
                    let limit = width + TextLayoutEngine.widthTolerance
                    guard Double(prepared) > limit else { return }
                    emergencies += 1
                    try #require(range.low <= limit && limit < range.high)
                    for l in [range.low, (range.low + limit) / 2, range.high.isFinite ? range.high.nextDown : limit + 300] where l.isFinite && l >= range.low {
                        #expect(lines(l - TextLayoutEngine.widthTolerance) == got, "\(text) at \(width): limit \(l) in \(range)")
                    }
                }
            }
        }
        #expect(emergencies > 200)
    }

    /// `CellTextBatch.twoLinesBelow`: below it a printable ASCII text takes two lines or
    /// more (its first word is broken at its letters), against laying the text out; with
    /// kerning (Roboto) and letter spacing, at limits just under the bound and far under it.
    @Test(arguments: [0.0, 0.6, -0.2])
    func twoLinesBelowTheFirstWordsClusters(letterSpacing: Double) throws {
        let engine = TextLayoutEngine()
        let style = try TextStyle(fontChain: FontChain([try Font(path: TestFonts.roboto)]), size: 15, letterSpacing: letterSpacing)
        let words = ["AVAVAVTeTeWAWAyoyo", "Typewriter", "a", "xxxxxxxxxxxxxxxxxxxx", "IBAN:AT611904300234573201", "go", "Ti", "W"]
        var rng = SplitMix64(seed: 12)
        var bounded = 0
        for _ in 0..<300 {
            let text = (0..<rng.int(1...4)).map { _ in rng.pick(words) }.joined(separator: rng.chance(0.2) ? "  " : " ")
            Array(text.utf8).withUnsafeBytes { utf8 in
                let widest = engine.prepare(utf8, style)
                let segments = Array(engine.caches.pointee.segments.buffer)
                let below = withUnsafePointer(to: style) { CellTextBatch.twoLinesBelow(utf8, first: segments.first, style: $0, engine) }
                guard below > 0 else { return }
                bounded += 1
                segments.withUnsafeBufferPointer { segs in
                    let view = PreparedTextView(segments: segs, widest: widest)
                    for limit in [Double(below.nextDown), Double(below) * 0.9, Double(below) / 2, 8] where limit > 0 {
                        _ = engine.breakLines(view, utf8, style, width: limit - TextLayoutEngine.widthTolerance, maxLines: 2, range: nil)
                        #expect(engine.caches.pointee.lines.count >= 2, "\(text) at \(limit), below \(below)")
                    }
                }
            }
        }
        #expect(bounded > 100)
    }

    /// The greedy fill never gives fewer lines at a narrower limit (what `reportLines`
    /// relies on to keep a capped count below its range): real texts with words wider than
    /// the line (emergency breaks) and without, at random pairs of limits.
    @Test func lineCountsNeverFallAtNarrowerLimits() throws {
        let engine = TextLayoutEngine()
        let style = try TextStyle(fontChain: FontChain([try Font(path: TestFonts.roboto)]), size: 15)
        let words = ["Kühlschrankgefrierkombination", "a", "Donaudampfschifffahrt", "und", "IBAN:AT611904300234573201", "go", "Wien", "\n"]
        var rng = SplitMix64(seed: 10)
        var emergencies = 0
        for _ in 0..<500 {
            let text = (0..<rng.int(1...9)).map { _ in rng.pick(words) }.joined(separator: " ")
            try Array(text.utf8).withUnsafeBytes { utf8 in
                let widest = engine.prepare(utf8, style)
                let segments = Array(engine.caches.pointee.segments.buffer)
                try segments.withUnsafeBufferPointer { segs in
                    func count(_ w: Double) -> Int {
                        _ = engine.breakLines(PreparedTextView(segments: segs, widest: widest), utf8, style, width: w, maxLines: 0)
                        return engine.caches.pointee.lines.count
                    }
                    let wide = Double(rng.int(10 * 64...300 * 64)) / 64, narrow = wide * Double(rng.int(20...99)) / 100
                    if Double(widest) > narrow { emergencies += 1 }
                    try #require(count(narrow) >= count(wide), "\(text): \(narrow) against \(wide)")
                }
            }
        }
        #expect(emergencies > 100)
    }

    /// Random texts of up to `maxWords` of `words` (a double space between words one time
    /// in five) prepared in Roboto 15 pt: `body` gets each with its segments and view, and
    /// a function giving the engine's line count at a limit.
    static func forEachPreparedText(seed: UInt64, maxWords: Int, words extra: [String] = [],
                                    _ body: (String, UnsafeBufferPointer<PreparedSegment>, PreparedTextView, (Double) -> Int) throws -> Void) throws {
        let engine = TextLayoutEngine()
        let style = try TextStyle(fontChain: FontChain([try Font(path: TestFonts.roboto)]), size: 15)
        let words = ["Kühlschrankgefrierkombination", "a", "Donaudampfschifffahrt", "und", "IBAN:AT611904300234573201", "go", "Wien", "BILLA"] + extra
        var rng = SplitMix64(seed: seed)
        for _ in 0..<600 {
            let text = (0..<rng.int(1...maxWords)).map { _ in rng.pick(words) }.joined(separator: rng.chance(0.2) ? "  " : " ")
            try Array(text.utf8).withUnsafeBytes { utf8 in
                let widest = engine.prepare(utf8, style)
                let segments = Array(engine.caches.pointee.segments.buffer)
                try segments.withUnsafeBufferPointer { segs in
                    let view = PreparedTextView(segments: segs, widest: widest)
                    try body(text, segs, view) { limit in
                        _ = engine.breakLines(view, utf8, style, width: limit - TextLayoutEngine.widthTolerance, maxLines: 0)
                        return engine.caches.pointee.lines.count
                    }
                }
            }
        }
    }

    /// What `CellMeasurer.boundedCount` reads from a one-line count: below the bottom of its
    /// range (the natural width, rounded up to a float: the float below it is under it),
    /// with the widest segment at or under that float, the engine breaks into two lines or
    /// more at every limit, wider or narrower than the widest segment (emergency breaks).
    @Test func oneLineBecomesTwoBelowItsNaturalWidth() throws {
        var rng = SplitMix64(seed: 12)
        var checked = 0, emergencies = 0
        try Self.forEachPreparedText(seed: 12, maxWords: 6) { text, _, view, count in
            let (memo, lines) = CellMeasurer.countLines(view, limit: 4000, stopAfter: 0)
            try #require(lines == 1 && !memo.partial)
            let below = memo.low.nextDown
            guard view.widestSegment <= Double(below) else { return }
            for _ in 0..<8 {
                let limit = Double(below) * Double(rng.int(1...1000)) / 1000
                if view.widestSegment > limit { emergencies += 1 }
                try #require(count(limit) >= 2, "\(text) at \(limit), natural \(memo.low)")
                checked += 1
            }
        }
        #expect(checked > 2000 && emergencies > 200)
    }

    /// What `CellMeasurer.boundedCount` reads from a text's content width (its segments'
    /// widths summed, a little under): at a limit under that width over `k - 1`, with the
    /// widest segment under it too, the engine breaks into `k` lines or more (emergency
    /// breaks included, mandatory breaks too).
    @Test func contentWiderThanTheLinesTakesMoreLines() throws {
        var rng = SplitMix64(seed: 13)
        var checked = 0, emergencies = 0
        try Self.forEachPreparedText(seed: 13, maxWords: 14, words: ["\n"]) { text, segs, view, count in
            let content = CellTextBatch.measure(segs).content
            // Just under the sum of the widths, not more than a float under it.
            let sum = segs.reduce(0.0) { $0 + Double($1.width) }
            #expect(Double(content) <= sum && content.nextUp >= Float(sum * (1 - 0x1p-30)))
            for k in 2...4 {
                let long = Double(content) / Double(k - 1)
                guard view.widestSegment < long else { continue }
                let limit = long * Double(rng.int(1...999)) / 1000
                if view.widestSegment > limit { emergencies += 1 }
                try #require(count(limit) >= k, "\(text) at \(limit): under \(k) lines")
                checked += 1
            }
        }
        #expect(checked > 800 && emergencies > 50)
    }

    /// What `CellMeasurer.oneLineMemo` and `wrappedCount` read from a text's one-line width
    /// (`CellTextBatch.measure`): none for a text with a mandatory break, else the width of
    /// the one line the fill makes at no limit, to the bit; at every limit from it up the
    /// engine gives one line, and under it, with every segment fitting, two or more: two
    /// once the limit is half the text and its widest segment (the second line then holds
    /// the rest). Under the widest segment it may give one ("a" at half its width).
    @Test func oneLineWidthTellsOneLineFromTwo() throws {
        var rng = SplitMix64(seed: 14)
        var ones = 0, wraps = 0, twos = 0, mandatory = 0
        try Self.forEachPreparedText(seed: 14, maxWords: 8, words: ["\n"]) { text, segs, view, count in
            let oneLine = CellTextBatch.measure(segs).oneLine
            guard !text.contains("\n") else {
                #expect(oneLine == -1, "\(text)")
                mandatory += 1
                return
            }
            var widths: [Double] = []
            TextLayoutEngine.fillLines(segs, limit: CellMeasurer.naturalLayoutWidth + TextLayoutEngine.widthTolerance) { _, _, width in
                widths.append(width)
                return true
            }
            try #require(widths == [oneLine], "\(text): \(widths) against \(oneLine)")
            for _ in 0..<4 {
                let over = oneLine * Double(rng.int(1000...1500)) / 1000
                try #require(count(over) == 1, "\(text) at \(over), one line \(oneLine)")
                ones += 1
                let under = oneLine * Double(rng.int(1...999)) / 1000
                guard view.widestSegment <= under else { continue }
                try #require(count(under) >= 2, "\(text) at \(under), one line \(oneLine)")
                wraps += 1
                // Two lines where the rest of the text fits the second (`wrappedCount`).
                if (oneLine + view.widestSegment) * 0.5 * (1 + CellMeasurer.twoLineMargin) <= under {
                    try #require(count(under) == 2, "\(text) at \(under), one line \(oneLine)")
                    twos += 1
                }
            }
            try #require(count(oneLine) == 1)
        }
        #expect(ones > 1000 && wraps > 500 && twos > 100 && mandatory > 50)
    }

    /// An emergency break's range carried to a style `r` times the size (letter spacing
    /// following), as the batch carries it ("Font scale"): wherever the scaled limit is
    /// inside the range by the margin, the new style breaks into the same lines.
    @Test func emergencyBreaksFollowFontScales() throws {
        let engine = TextLayoutEngine()
        let chain = try FontChain([try Font(path: TestFonts.roboto)])
        let words = ["Kühlschrankgefrierkombination", "a", "Donaudampfschifffahrt", "und", "IBAN:AT611904300234573201", "go"]
        var rng = SplitMix64(seed: 9)
        var carried = 0
        for _ in 0..<400 {
            let text = (0..<rng.int(1...5)).map { _ in rng.pick(words) }.joined(separator: " ")
            let spacing = rng.chance(0.3) ? 0.25 : 0
            let from = try TextStyle(fontChain: chain, size: 15, letterSpacing: spacing)
            let r = Double(rng.int(80...300)) / 100
            let to = try TextStyle(fontChain: chain, size: 15 * r, letterSpacing: spacing * r)
            let width = Double(rng.int(20 * 64...200 * 64)) / 64
            Array(text.utf8).withUnsafeBytes { utf8 in
                func lines(_ style: TextStyle, _ w: Double, _ range: UnsafeMutablePointer<(low: Double, high: Double)>? = nil) -> [Range<Int>] {
                    let widest = engine.prepare(utf8, style)
                    let segments = Array(engine.caches.pointee.segments.buffer)
                    return segments.withUnsafeBufferPointer { segs in
                        _ = engine.breakLines(PreparedTextView(segments: segs, widest: widest), utf8, style, width: w, maxLines: 0, range: range)
                        return engine.caches.pointee.lines.buffer.map(\.range)
                    }
                }
                // Kept at the scaled limit in the old style, as `batchLines` keeps it.
                let limit = width + TextLayoutEngine.widthTolerance, scaled = limit / r
                var range = (low: -Double.infinity, high: Double.infinity)
                let kept = lines(from, scaled - TextLayoutEngine.widthTolerance, &range)
                let m = CellMeasurer.scaleMargin
                guard range.low.isFinite || range.high.isFinite, scaled >= range.low * (1 + m), scaled < range.high * (1 - m) else { return }
                if range.high.isFinite { carried += 1 }
                #expect(lines(to, width).count == kept.count, "\(text) at \(width), scale \(r)")
            }
        }
        #expect(carried > 100)
    }

    func prepare(_ m: CellMeasurer, _ kinds: [UInt16], _ text: RowText) throws -> CellTextBatch {
        try kinds.withUnsafeBufferPointer { k in
            try text.utf8.withUnsafeBytes { u in
                try text.offsets.withUnsafeBufferPointer { o in try m.prepareTexts(kinds: k, utf8: u, offsets: o, slotsPerRow: text.slotsPerRow) }
            }
        }
    }
}
