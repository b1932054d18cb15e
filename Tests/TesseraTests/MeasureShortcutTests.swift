import Testing
@_spi(Benchmarks) @testable import Tessera

/// The measurer's shortcuts must not change a height: a text limited to one line is one
/// line whatever it holds, and trusted rows measure as validated ones.
@Suite struct MeasureShortcutTests {
    static let texts = [
        "", " ", "a", "Hello world", "ends with a newline\n", "\n", "\n\n\n", "two\nlines", "tab\there",
        String(repeating: "long words that wrap many times ", count: 40), "Rechnungsbetragsübersichtsvorlage",
        "日本語のテキストを折り返す", "emoji 🎉🎉🎉 and flags 🇦🇹🇩🇪", "trailing spaces     ", "\u{2028}separator",
    ]

    @Test func oneLineLimitIsOneLine() throws {
        let font = try Font(path: "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf")
        let style = try TextStyle(fonts: [font], size: 15, lineHeight: 20)
        let engine = TextLayoutEngine()
        for text in Self.texts {
            for width in [0.015625, 1, 10, 40, 200, 1e6] {
                #expect(try engine.measure(text, style: style, width: width, maxLines: 1).lineCount == 1, "\(text) at \(width)")
            }
        }
    }

    /// The written-out Default_Ignorable_Code_Point ranges are the standard library's.
    @Test func defaultIgnorablesAreTheStandardLibrarys() {
        var differing: [UInt32] = []
        for v in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(v) else { continue }
            if isDefaultIgnorable(v) != scalar.properties.isDefaultIgnorableCodePoint { differing.append(v) }
        }
        #expect(differing.isEmpty, "\(differing.prefix(8).map { String($0, radix: 16) })")
    }

    /// A block's mapped bits, found by walking the character map's runs, are those of
    /// asking for each scalar's glyph, over the BMP and past it.
    @Test func mappedBitsAreGlyphsOfEachScalar() throws {
        for path in ["/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf",
                     "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"] {
            let map = try Font(path: path).characterMap
            for block in 0..<(0x20000 >> 6) {
                let base = UInt32(block << 6)
                var expected: UInt64 = 0
                for k in 0..<UInt32(64) where map.glyph(base + k) != 0 { expected |= 1 << UInt64(k) }
                #expect(map.mappedBits(from: base) == expected, "\(path) block \(String(base, radix: 16))")
            }
        }
    }

    @Test func trustedRowsMeasureAsChecked() throws {
        let profile = try Profile.load(path: "Profiles/george.json")
        let m = try CellMeasurer(profile: profile, environment: LayoutEnvironment(width: 375, platform: .ios))
        let code = profile.kind(named: "transaction")!.code
        var text = RowText(slotsPerRow: 5)
        for t in Self.texts where !t.isEmpty { text.append([t, t, t, t, t]) }
        let kinds = [UInt16](repeating: code, count: text.offsets.count / 5)
        var checked = [Double](repeating: 0, count: kinds.count), trusted = checked
        try kinds.withUnsafeBufferPointer { k in
            try text.utf8.withUnsafeBytes { u in
                try text.offsets.withUnsafeBufferPointer { o in
                    try checked.withUnsafeMutableBufferPointer { try m.heights(kinds: k, utf8: u, offsets: o, slotsPerRow: 5, into: $0) }
                    try trusted.withUnsafeMutableBufferPointer {
                        try m.heights(kinds: k, utf8: u, offsets: o, slotsPerRow: 5, into: $0, rowsAreValidUTF8: true)
                    }
                }
            }
        }
        #expect(checked == trusted)
        #expect(checked.allSatisfy { $0 > 0 })
    }
}

/// Text batches and skipped kinds give the heights a plain measurement gives.
@Suite struct CellTextBatchTests {
    static let words = ["Rechnungsbetragsübersicht", "Kartenzahlung", "BILLA", "DANKT", "1230", "WIEN", "Überweisung", "an",
                        "Sicherheitsschuhe", "S3", "Gr.", "44", "日本語のテキスト", "Ελληνικά", "emoji", "🎉", "−12,40 EUR"]

    /// Rows of every kind of a profile, with texts long enough to wrap and be truncated:
    /// `perKind` rows each, texts of 1 to `maxWords` of `words` (optional slots left empty
    /// a third of the time unless `everyText`; one gap in four doubled with `doubleSpaces`).
    static func rows(_ profile: Profile, words: [String] = words, seed: UInt64 = 7, perKind: Int = 12, maxWords: Int = 14,
                     everyText: Bool = false, doubleSpaces: Bool = false) -> (kinds: [UInt16], text: RowText) {
        let spr = profile.kinds.map(\.valueCount).max()!
        var text = RowText(slotsPerRow: spr)
        var kinds: [UInt16] = []
        var seed = seed
        func next(_ n: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(n))
        }
        for kind in profile.kinds {
            for _ in 0..<perKind {
                var values = [String](repeating: "", count: spr)
                for slot in kind.slots {
                    guard let v = slot.valueIndex else { continue }
                    switch slot.type {
                    case "text", "button":
                        if everyText || slot.isRequired || next(3) > 0 {
                            let picked = (0..<(1 + next(maxWords))).map { _ in words[next(words.count)] }
                            values[v] = picked.joined(separator: doubleSpaces && next(4) == 0 ? "  " : " ")
                        }
                    case "textList":
                        values[v] = (0..<next(3)).map { _ in words[next(words.count)] }.joined(separator: "\u{1E}")
                    default: break
                    }
                }
                kinds.append(kind.code)
                text.append(values)
            }
        }
        return (kinds, text)
    }

    func heights(_ m: CellMeasurer, _ kinds: [UInt16], _ text: RowText, batch: CellTextBatch?, into results: inout [Double],
                 onlyChanged: Bool = false) throws {
        try kinds.withUnsafeBufferPointer { k in
            try text.utf8.withUnsafeBytes { u in
                try text.offsets.withUnsafeBufferPointer { o in
                    try results.withUnsafeMutableBufferPointer { r in
                        if let batch {
                            try m.heights(kinds: k, utf8: u, offsets: o, slotsPerRow: text.slotsPerRow, texts: batch, into: r, onlyChangedKinds: onlyChanged)
                        } else {
                            try m.heights(kinds: k, utf8: u, offsets: o, slotsPerRow: text.slotsPerRow, into: r)
                        }
                    }
                }
            }
        }
    }

    @Test(arguments: ["george", "fiori-android", "fiori-ios", "fiori-ios-collection"])
    func batchHeightsEqualPlainHeights(_ name: String) throws {
        let profile = try Profile.load(path: "Profiles/\(name).json")
        let (kinds, text) = Self.rows(profile)
        let platform = profile.platforms[0]
        let m = try CellMeasurer(profile: profile, environment: LayoutEnvironment(width: 375, platform: platform))
        let batch = try kinds.withUnsafeBufferPointer { k in
            try text.utf8.withUnsafeBytes { u in
                try text.offsets.withUnsafeBufferPointer { o in try m.prepareTexts(kinds: k, utf8: u, offsets: o, slotsPerRow: text.slotsPerRow) }
            }
        }
        #expect(batch.textCount > 0)
        let environments = [
            LayoutEnvironment(width: 375, platform: platform), LayoutEnvironment(width: 1024, platform: platform),
            LayoutEnvironment(width: 375, platform: platform, editMode: true), LayoutEnvironment(width: 320, platform: platform, fontScale: 1.3),
            LayoutEnvironment(width: 200, platform: platform),
        ]
        var previous = [Double](repeating: 0, count: kinds.count)
        try heights(m, kinds, text, batch: batch, into: &previous)
        for e in environments {
            try m.setEnvironment(e)
            let fresh = try CellMeasurer(profile: profile, environment: e)
            var plain = [Double](repeating: 0, count: kinds.count)
            try heights(fresh, kinds, text, batch: nil, into: &plain)
            var batched = [Double](repeating: 0, count: kinds.count)
            try heights(m, kinds, text, batch: batch, into: &batched)
            #expect(batched == plain, "\(name) at \(e)")
            // Rows of kinds whose layout did not change keep the previous heights, and those are right.
            var skipping = previous
            try heights(m, kinds, text, batch: batch, into: &skipping, onlyChanged: true)
            #expect(skipping == plain, "\(name) skipping unchanged kinds at \(e)")
            previous = plain
        }
    }

    /// Heights go through plans (one per kind and set of present values, compiled on first
    /// use and dropped with the program); debug builds check each against `layoutRow`, and
    /// here they are checked against a measurer laying out each row alone.
    @Test(arguments: ["george", "fiori-android", "fiori-ios", "fiori-ios-collection"])
    func plannedHeightsEqualSingleRows(_ name: String) throws {
        let profile = try Profile.load(path: "Profiles/\(name).json")
        let (kinds, text) = Self.rows(profile)
        let platform = profile.platforms[0]
        let m = try CellMeasurer(profile: profile, environment: LayoutEnvironment(width: 375, platform: platform))
        for e in [LayoutEnvironment(width: 375, platform: platform), LayoutEnvironment(width: 900, platform: platform, editMode: true)] {
            try m.setEnvironment(e)
            #expect(m.compiledPlanCount == 0)
            var batched = [Double](repeating: 0, count: kinds.count)
            try heights(m, kinds, text, batch: nil, into: &batched)
            #expect(m.compiledPlanCount > 0 && m.compiledPlanCount < kinds.count)
            let single = try CellMeasurer(profile: profile, environment: e)
            for r in 0..<kinds.count {
                let values = (0..<text.slotsPerRow).map { s in String(decoding: text.utf8[text.offsets[r * text.slotsPerRow + s]..<text.offsets[r * text.slotsPerRow + s + 1]], as: UTF8.self) }
                #expect(batched[r] == single.height(kind: kinds[r], slots: values), "\(name) row \(r) at \(e)")
            }
        }
    }

    /// Planned heights, of rows as they come and of stored (validated) rows, whose plans
    /// leave out columns that never set the height, equal the reference measurer's over
    /// random rows in several widths and font scales; a row whose plan is width-free has
    /// the reference's height at other widths of its width class too.
    @Test(arguments: ["george", "fiori-android", "fiori-ios", "fiori-ios-collection"])
    func plannedHeightsEqualLayoutRow(_ name: String) throws {
        let profile = try Profile.load(path: "Profiles/\(name).json")
        var rng = SplitMix64(seed: 0x91A7 ^ UInt64(name.utf8.count))
        let platform = profile.platforms[0]
        let m = try CellMeasurer(profile: profile, environment: LayoutEnvironment(width: 375, platform: platform))
        let classes = profile.model.widthClasses
        var widthFree = 0
        for width in [320.0, 390, 700, 1024] {
            for scale in [1.0, 1.3, 2] {
                let env = LayoutEnvironment(width: width, platform: platform, editMode: rng.chance(0.3), fontScale: scale)
                try m.setEnvironment(env)
                let reference = ReferenceMeasurer(profile: profile, environment: env)
                let generator = RowGenerator(model: profile.model, env: env)
                // Other widths of the width class: the same layout apart from the width.
                let c = classes.lastIndex { $0.minWidth <= width }!
                let others = [Swift.max(classes[c].minWidth, 120), c + 1 < classes.count ? classes[c + 1].minWidth - 1 : 2 * width + 300]
                    .map { w in ReferenceMeasurer(profile: profile, environment: LayoutEnvironment(
                        width: w, platform: platform, editMode: env.editMode, fontScale: scale)) }
                for r in 0..<120 {
                    let k = rng.pick(profile.model.kinds)
                    let row = generator.row(k, &rng)
                    try m.validate(kind: k.code, slots: row, row: r)
                    let expected = reference.frames(k.name, row).height
                    #expect(m.height(kind: k.code, slots: row) == expected, "\(k.name) \(row) at \(env)")
                    let stored = RowValues.with(row) { values in
                        m.engineBegin(nil)
                        defer { m.engineEnd() }
                        return LayoutUnit.points(m.heightUnits(kind: k.code, values))
                    }
                    #expect(stored == expected, "stored \(k.name) \(row) at \(env)")
                    let ki = profile.kindIndex(k.code)
                    guard m.program.kinds[ki].gridMode == 0, let mask = RowValues.with(row, { values in
                        m.presentValues(ki, m.program.kinds.baseAddress! + ki, m.program, values)
                    }) else { continue }
                    let plans = m.scratch.pointee.plans
                    let index = plans.pointee.find(RowPlans.key(kind: ki, present: mask, valid: true))
                    guard index >= 0, plans.pointee.plans[index].widthFree else { continue }
                    widthFree += 1
                    for other in others { #expect(other.frames(k.name, row).height == expected, "width-free \(k.name) \(row) at \(other.env)") }
                }
            }
        }
        // George's cells wrap a text in the fill column; the collection is a grid.
        #expect(widthFree > 0 || name == "george" || name == "fiori-ios-collection")
    }

    /// Counting the emergency-broken lines of a kept text gives the count, cut and range of
    /// breaking it, over texts (printable ASCII or not) with words wider than the line, at
    /// many limits and line limits, in the styles of two font scales.
    @Test func emergencyCountEqualsBreaking() throws {
        let profile = try Profile.load(path: "Profiles/fiori-ios-collection.json")
        let platform = profile.platforms[0]
        var rng = SplitMix64(seed: 0xE3E7)
        let words = ["a", "of", "Pump", "maintenance", "https://example.com/orders/4711?item=12", "ZX-9000-ALPHA-BRAVO", "W", "iiiiiiiiiiiiiiii",
                     "MMMMMMMMMMMM", "x.y.z", "(42)", "re-order", "  ", "Kühlschrankgefrierkombination", "é\u{301}e", "🇦🇹🇩🇪🎉", "日本語のテキスト", "line\nbreak"]
        var compared = 0
        for scale in [1.0, 1.3] {
            let m = try CellMeasurer(profile: profile, environment: LayoutEnvironment(width: 375, platform: platform, fontScale: scale))
            let styles = m.program.styles
            for _ in 0..<300 {
                let text = (0..<rng.int(1...8)).map { _ in rng.pick(words) }.joined(separator: rng.chance(0.2) ? "  " : " ")
                    + (rng.chance(0.2) ? " " : "")
                let style = styles.baseAddress! + rng.int(0...(styles.count - 1))
                var bytes = Array(text.utf8)
                bytes.withUnsafeMutableBytes { raw in
                    let utf8 = UnsafeRawBufferPointer(raw)
                    let widest = m.textEngine.prepare(utf8, style.pointee)
                    let segments = Array(m.textEngine.caches.pointee.segments.buffer)
                    segments.withUnsafeBufferPointer { segs in
                        let view = PreparedTextView(segments: segs, widest: widest)
                        for _ in 0..<6 {
                            let limit = Double(widest) * Double(rng.int(5...120)) / 100 + 0.015625
                            let maxLines = rng.pick([0, 1, 2, 3])
                            var range = (low: -Double.infinity, high: Double.infinity)
                            let ascii = utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
                            guard let (count, cut) = m.emergencyCount(view, utf8, style, ascii: ascii, limit: limit, maxLines: maxLines, range: &range) else { return }
                            var exact = (low: -Double.infinity, high: Double.infinity)
                            let exactCut = m.textEngine.breakLinesWithEmergency(view, utf8, style.pointee, limit: limit, maxLines: maxLines, range: &exact,
                                                                                ellipsizing: false)
                            #expect(count == m.textEngine.caches.pointee.lines.count && cut == exactCut, "\(text) at \(limit), \(maxLines) lines")
                            #expect(range.low.bitPattern == exact.low.bitPattern && range.high.bitPattern == exact.high.bitPattern, "\(text) at \(limit)")
                            compared += 1
                        }
                    }
                }
            }
        }
        #expect(compared > 1000)
    }

    /// A kept text's emergency breaks bounded from its wide words' cluster sums
    /// (`boundedEmergency`) give, wherever they settle the count, the count of breaking the
    /// text at that limit, and of breaking it in the style of a font scale at the scaled
    /// limit: texts with long words (German compounds, references, kerning pairs in Roboto,
    /// letter spacing) and mandatory breaks, at limits from a third of the widest word up,
    /// with line limits and without.
    @Test(arguments: [0.0, 0.6])
    func boundedEmergencyEqualsBreaking(letterSpacing: Double) throws {
        let font = try Font(path: TestFonts.roboto)
        let style = try TextStyle(fontChain: FontChain([font]), size: 15, letterSpacing: letterSpacing)
        let engine = TextLayoutEngine()
        let words = ["Überziehungsrahmen", "Heurigenschank", "AVAVAVTeTeWAWAyoyo", "RF8712345678901234", "a", "und", "Wien", "go", "Typewriter",
                     "Kühlschrankgefrierkombination", "W", "ii", "\n", "Verwendungszweck:", "éèêë"]
        var rng = SplitMix64(seed: 0xB0B)
        var settled = 0, compared = 0
        for _ in 0..<400 {
            let text = (0..<rng.int(1...7)).map { _ in rng.pick(words) }.joined(separator: rng.chance(0.2) ? "  " : " ")
            try Array(text.utf8).withUnsafeBytes { utf8 in
                let widest = engine.prepare(utf8, style)
                let segments = Array(engine.caches.pointee.segments.buffer)
                var wide = ScratchBuffer<CellTextBatch.WideSegment>()
                defer { wide.deallocate() }
                let first = segments.withUnsafeBufferPointer { segs in
                    withUnsafePointer(to: style) { CellTextBatch.keepWideSegments(utf8, segs, style: $0, engine, threshold: 45, into: &wide) }
                }
                guard first >= 0 else { return }
                try segments.withUnsafeBufferPointer { segs in
                    let view = PreparedTextView(segments: segs, widest: widest)
                    for _ in 0..<8 {
                        let width = Double(widest) * Double(rng.int(30...130)) / 100
                        let limit = width + TextLayoutEngine.widthTolerance
                        let maxLines = rng.pick([0, 0, 1, 2, 3])
                        compared += 1
                        guard let bound = CellMeasurer.boundedEmergency(wide.mutableBase + Int(first), view, limit: limit, maxLines: maxLines) else { continue }
                        settled += 1
                        // The line limit cuts the same greedy fill.
                        func capped(_ count: Int) -> Int { maxLines > 0 ? Swift.min(count, maxLines) : count }
                        _ = engine.breakLines(view, utf8, style, width: width, maxLines: 0)
                        #expect(capped(engine.caches.pointee.lines.count) == bound, "\(text) at \(width), \(maxLines) lines")
                        let r = rng.pick([1.15, 1.3, 0.85, 2.0])
                        let scaled = try TextStyle(fontChain: FontChain([font]), size: 15 * r, letterSpacing: letterSpacing * r)
                        let scaledWidest = engine.prepare(utf8, scaled)
                        let scaledSegments = Array(engine.caches.pointee.segments.buffer)
                        scaledSegments.withUnsafeBufferPointer {
                            _ = engine.breakLines(PreparedTextView(segments: $0, widest: scaledWidest), utf8, scaled,
                                                  width: limit * r - TextLayoutEngine.widthTolerance, maxLines: 0)
                        }
                        #expect(capped(engine.caches.pointee.lines.count) == bound, "\(text) at \(width), \(maxLines) lines, scale \(r)")
                    }
                }
            }
        }
        #expect(settled > 500 && settled < compared, "\(settled) of \(compared) settled")
    }

    /// The least inner width at which a fraction-capped fit column reaches a natural width,
    /// against trying every width.
    @Test func leastInnerMatchesSearch() {
        var rng = SplitMix64(seed: 17)
        for _ in 0..<400 {
            let fraction = rng.chance(0.1) ? 0.5 : Double(rng.int(1...999)) / 1000
            let inner = Int64(rng.int(0...4000))
            let cap = CellMeasurer.fractionCap(fraction, inner)
            let w = Int64(rng.int(0...Int(cap)))
            let least = CellMeasurer.leastInner(reaching: w, fraction, below: inner)
            let searched = (0...inner).first { CellMeasurer.fractionCap(fraction, $0) >= w }!
            #expect(w == 0 ? least <= 0 : least == searched, "fraction \(fraction), inner \(inner), w \(w)")
        }
    }

    /// The libm-free roundings give what the standard library's give: edges (whole
    /// numbers, halves, the ends of their fast ranges, negative zero) and random doubles of
    /// every magnitude up to past 2^52.
    @Test func roundingsAreTheStandardLibrarys() {
        var values: [Double] = [0, -0.0, 0.5, -0.5, 1, -1, 1.5, -1.5, 2.5, 0x1p52 - 1, -0x1p52 + 1, 0x1p52, -0x1p52, 0x1p53, -0x1p60,
                                0x1p52 - 0.5, 1.0.nextUp, 1.0.nextDown, (-1.0).nextUp, Double.leastNonzeroMagnitude, -Double.leastNonzeroMagnitude]
        var rng = SplitMix64(seed: 0xCE11)
        for _ in 0..<20_000 {
            let magnitude = Double(sign: .plus, exponent: rng.int(-30...56), significand: 1 + rng.unit())
            values.append(rng.chance(0.5) ? magnitude : -magnitude)
            values.append(Double(rng.int(-1_000_000...1_000_000)) / Double(1 << rng.int(0...6)))
        }
        for x in values {
            #expect(LayoutUnit.ceiling(x) == Int64(x.rounded(.up)), "ceiling(\(x))")
            if x >= 0 { #expect(LayoutUnit.nearest(x) == Int64(x.rounded()), "nearest(\(x))") }
        }
    }

    /// A kind said to keep no valid row's height through a fill shift
    /// (`CellProgram.fillShiftIsNil`, which lets `markDirty` skip the per-row lookup) has
    /// no valid row whose present values give one, over changes of width, width class,
    /// edit mode, font scale, platform and parameters (fiori-android's description lines
    /// change an optional slot alone); and the premise is not empty: some changes say so
    /// of some kinds, others of none. Every shift, for the rows' present values and for
    /// random ones, equals the one found the plain way (`referenceFillShift`, columns
    /// collected into arrays; `fillShift` walks them in step).
    @Test(arguments: ["george", "fiori-android", "fiori-ios", "fiori-ios-collection"])
    func noFillShiftHoldsForEveryValidRow(_ name: String) throws {
        let profile = try Profile.load(path: "Profiles/\(name).json")
        var rng = SplitMix64(seed: 0x5D1F ^ UInt64(name.utf8.count))
        var environments: [LayoutEnvironment] = []
        for platform in profile.platforms {
            for width in [320.0, 375, 390, 700, 1024] {
                for scale in [1.0, 1.3] {
                    for edit in [false, true] {
                        for p in [nil] + profile.model.parameters {
                            // Each parameter at another allowed value than its default.
                            let values = p.map { p in [p.name: p.allowed?.first { $0 != p.defaultValue } ?? Swift.max(p.defaultValue - 1, p.minimum ?? 0)] } ?? [:]
                            environments.append(LayoutEnvironment(width: width, platform: platform, editMode: edit, fontScale: scale, parameters: values))
                        }
                    }
                }
            }
        }
        var claimed = 0, shifted = 0
        // One measurer, as the engine has: styles of one font scale keep their identities.
        let m = try CellMeasurer(profile: profile, environment: environments[0])
        for _ in 0..<60 {
            let a = rng.pick(environments), b = rng.pick(environments)
            try m.setEnvironment(a)
            let before = m.program
            try m.setEnvironment(b)
            let after = m.program
            let generator = RowGenerator(model: profile.model, env: b)
            for (k, kind) in profile.model.kinds.enumerated() {
                let none = after.fillShiftIsNil(kind: k, from: before)
                if none { claimed += 1 }
                for _ in 0..<10 {
                    let mask = UInt32(truncatingIfNeeded: rng.next())
                    #expect(after.fillShift(kind: k, from: before, present: mask) == Self.referenceFillShift(after, kind: k, from: before, present: mask),
                            "\(kind.name) mask \(mask) from \(a) to \(b)")
                }
                for r in 0..<40 {
                    let row = generator.row(kind, &rng)
                    try m.validate(kind: kind.code, slots: row, row: r)
                    guard let mask = RowValues.with(row, { m.presentValues(k, after.kinds.baseAddress! + k, after, $0) }) else { continue }
                    let shift = after.fillShift(kind: k, from: before, present: mask)
                    #expect(shift == Self.referenceFillShift(after, kind: k, from: before, present: mask), "\(kind.name) \(row) from \(a) to \(b)")
                    if shift != nil { shifted += 1 }
                    #expect(!none || shift == nil, "\(kind.name) \(row): a shift of \(shift.map { "\($0.fill)" } ?? "none") from \(a) to \(b)")
                }
            }
        }
        // The collection's cells are all grid items: never shifted.
        #expect(claimed > 0 && (shifted > 0 || name == "fiori-ios-collection"))
    }

    /// `fillShift` as first written: both sides' present columns collected (with their
    /// present items) into arrays, the boxes-alone columns within the floor summed into
    /// `used`, the rest compared (the kinds and slots compared as `fillShift` does).
    static func referenceFillShift(_ here: CellProgram, kind k: Int, from there: CellProgram, present mask: UInt32) -> FillShift? {
        guard let (slotsA, slotsB, slotCount) = here.shiftableSlots(kind: k, from: there) else { return nil }
        for s in 0..<slotCount where here.slots[slotsA + s].isPresent(in: mask) && there.slots[slotsB + s].isPresent(in: mask) {
            guard here.measuresAlike(slotsA + s, there, slotsB + s) else { return nil }
        }
        func summary(_ p: CellProgram) -> (used: Int64, content: [(column: ColumnProgram, items: [ItemProgram])])? {
            let kp = p.kinds[k]
            let slots = UnsafeBufferPointer(rebasing: p.slots[Int(kp.slotStart)..<Int(kp.slotStart + kp.slotCount)])
            var used: Int64 = 0, previous: ColumnProgram? = nil
            var present: [(column: ColumnProgram, items: [ItemProgram], least: Int64, boxes: Int64?)] = []
            for c in Int(kp.columnStart)..<Int(kp.columnStart + kp.columnCount) {
                var column = p.columns[c]
                let items = p.items[Int(column.itemStart)..<Int(column.itemStart + column.itemCount)].filter { slots[Int($0.slot)].isPresent(in: mask) }
                guard column.mode == .fill || !items.isEmpty else { continue }
                guard column.mode != .fraction else { return nil }
                if let prev = previous { used += CellMeasurer.gap(prev.spaceAfter, column.spaceBefore, kp.columnGap) }
                previous = column
                var least: Int64 = 0, widest: Int64 = 0, boxesAlone = column.mode != .fill, item: ItemProgram? = nil
                for i in items {
                    if let prev = item { least += CellMeasurer.gap(prev.spaceAfter, i.spaceBefore, column.gap) }
                    item = i
                    let sp = slots[Int(i.slot)]
                    switch sp.type {
                    case .box: least += sp.height; widest = max(widest, sp.width)
                    case .text: least += p.lineHeights[Int(sp.style)]; boxesAlone = false
                    default: boxesAlone = false
                    }
                }
                let width: Int64? = !boxesAlone ? nil : column.mode == .fixed ? column.fixed : column.maxMode == 0 ? widest : nil
                (column.itemStart, column.itemCount, column.spaceBefore, column.spaceAfter) = (0, 0, 0, 0)
                present.append((column, items, least, width))
            }
            let floor = present.reduce(kp.minHeight - kp.padTop - kp.padBottom) { $1.boxes == nil ? max($0, $1.least) : $0 }
            var content: [(column: ColumnProgram, items: [ItemProgram])] = []
            for c in present {
                if let width = c.boxes, c.least <= floor { used += width } else { content.append((c.column, c.items)) }
            }
            return (used, content)
        }
        guard let x = summary(here), let y = summary(there), x.content.count == y.content.count else { return nil }
        for (p, q) in zip(x.content, y.content) {
            guard p.column == q.column, p.items.elementsEqual(q.items) else { return nil }
        }
        let padding = (here.kinds[k].padLeading + here.kinds[k].padTrailing) - (there.kinds[k].padLeading + there.kinds[k].padTrailing)
        return FillShift(fill: x.used - y.used + padding, padding: padding)
    }

    @Test func layoutChangedFollowsVariants() throws {
        let george = try Profile.load(path: "Profiles/george.json")
        let m = try CellMeasurer(profile: george, environment: LayoutEnvironment(width: 375, platform: .ios))
        try m.setEnvironment(LayoutEnvironment(width: 375, platform: .ios, editMode: true))
        #expect(george.kinds.allSatisfy { !m.layoutChanged(kind: $0.code) }, "no George kind has an edit-mode variant")
        try m.setEnvironment(LayoutEnvironment(width: 376, platform: .ios, editMode: true))
        #expect(george.kinds.allSatisfy { m.layoutChanged(kind: $0.code) })
        let fiori = try Profile.load(path: "Profiles/fiori-ios.json")
        let f = try CellMeasurer(profile: fiori, environment: LayoutEnvironment(width: 390, platform: .ios))
        try f.setEnvironment(LayoutEnvironment(width: 390, platform: .ios, editMode: true))
        #expect(fiori.kinds.allSatisfy { f.layoutChanged(kind: $0.code) })
    }
}
