import Testing
import Tessera

/// Fonts shared by the layout tests (loaded once).
enum LayoutFonts {
    static let roboto = try! Font(path: TestFonts.roboto)
    static let dejaVu = try! Font(path: TestFonts.dejaVu)
    static let droid = try! Font(path: TestFonts.droid)
    static let emoji = try! Font(path: TestFonts.emoji)
    static let chain = [roboto, droid, emoji]
}

/// An independent naive layout: segments from `LineBreaking`/`GraphemeBreaking`, widths
/// from `Font.width(of:size:)` on Strings measured from scratch (no caches, no engine code),
/// greedy filling where every candidate line's width is recomputed from its segments.
/// Widths follow the engine's documented segment-sum rule (no kerning across segments,
/// emergency pieces as sums of clusters), so results must agree exactly on breaks.
struct NaiveLayout {
    let fonts: [Font]
    let size: Double
    let letterSpacing: Double

    struct Segment {
        var start: Int, contentEnd: Int, end: Int
        var width: Double, spaces: Double
        var mandatory: Bool
        var clusters: [(Int, Int)]  // clusters of the content, absolute offsets
    }

    static func isTerminator(_ s: Unicode.Scalar) -> Bool {
        [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029].contains(s.value)
    }
    static func isSpace(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        return v == 0x20 || v == 0x1680 || (0x2000...0x200A).contains(v) && v != 0x2007 || v == 0x205F || v == 0x3000
    }

    func face(_ s: Unicode.Scalar) -> Int { fonts.firstIndex { $0.hasGlyph(for: s) } ?? 0 }

    /// Runs of one face by the documented fallback rule, measured with `Font.width`.
    func width(_ text: String) -> Double {
        var runs: [(String, Int)] = []
        var clusters = 0
        for ch in text {
            clusters += 1
            var f0 = 0
            for (k, s) in ch.unicodeScalars.enumerated() {
                let ignorable = s.properties.isDefaultIgnorableCodePoint
                let f: Int
                if k == 0 {
                    f = ignorable && !runs.isEmpty ? runs[runs.count - 1].1 : face(s)
                    f0 = f
                } else {
                    f = ignorable || fonts[f0].hasGlyph(for: s) ? f0 : face(s)
                }
                if let last = runs.last, last.1 == f {
                    runs[runs.count - 1].0.unicodeScalars.append(s)
                } else {
                    runs.append((String(s), f))
                }
            }
        }
        let total = runs.reduce(0.0) { $0 + fonts[$1.1].width(of: $1.0, size: size) }
        return letterSpacing == 0 ? total : total + letterSpacing * Double(clusters)
    }

    func segments(_ bytes: [UInt8]) -> [Segment] {
        let boundaries = Set(try! GraphemeBreaking.boundaries(in: bytes))
        var result: [Segment] = []
        var start = 0
        for o in try! LineBreaking.opportunities(in: bytes) where boundaries.contains(o.offset) {
            let text = String(decoding: bytes[start..<o.offset], as: UTF8.self)
            var pos = start, contentEnd = start, spaceEnd = start
            var last: Unicode.Scalar = " "
            for s in text.unicodeScalars {
                pos += UTF8.width(s)
                last = s
                if Self.isTerminator(s) { continue }
                spaceEnd = pos
                if !Self.isSpace(s) { contentEnd = pos }
            }
            let content = Array(bytes[start..<contentEnd])
            var clusters: [(Int, Int)] = []
            var a = start
            for b in try! GraphemeBreaking.boundaries(in: content) { clusters.append((a, start + b)); a = start + b }
            result.append(Segment(
                start: start, contentEnd: contentEnd, end: o.offset,
                width: width(String(decoding: content, as: UTF8.self)),
                spaces: width(String(decoding: bytes[contentEnd..<spaceEnd], as: UTF8.self)),
                mandatory: o.isMandatory && (o.offset < bytes.count || Self.isTerminator(last)),
                clusters: clusters))
            start = o.offset
        }
        return result
    }

    /// The width of the visible range `ls..<e` laid out as one line.
    func lineWidth(_ ls: Int, _ e: Int, _ segs: [Segment], _ bytes: [UInt8], limit: Double) -> Double {
        var acc = 0.0, pending = 0.0
        for seg in segs where seg.end > ls && seg.start < e {
            let split = seg.width > limit
            let from = max(seg.start, ls), to = min(seg.contentEnd, e)
            let base = split ? 0 : acc + pending
            if split || from != seg.start || to != seg.contentEnd {
                var sum = 0.0
                for (a, b) in seg.clusters where a >= from && b <= to {
                    sum += width(String(decoding: bytes[a..<b], as: UTF8.self))
                }
                acc = base + sum
            } else {
                acc = base + seg.width
            }
            pending = seg.spaces
        }
        return acc
    }

    func layout(_ text: String, width: Double, maxLines: Int) -> (lines: [TextLine], truncated: Bool) {
        let bytes = Array(text.utf8)
        let segs = segments(bytes)
        let limit = width + 1.0 / 64
        var lines: [TextLine] = []
        var ls = 0
        var has = false
        func close(_ end: Int) {
            lines.append(TextLine(range: ls..<end, width: lineWidth(ls, end, segs, bytes, limit: limit)))
            ls = end
            has = false
        }
        for seg in segs {
            if has && lineWidth(ls, seg.end, segs, bytes, limit: limit) > limit { close(seg.start) }
            if !has && seg.width > limit {
                var pieceHas = false
                for (a, b) in seg.clusters {
                    if pieceHas && lineWidth(ls, b, segs, bytes, limit: limit) > limit { close(a) }
                    pieceHas = true
                }
            }
            has = true
            if seg.mandatory { close(seg.end) }
        }
        if has || lines.isEmpty || segs.last?.mandatory == true { close(bytes.count) }
        guard maxLines > 0, lines.count > maxLines else { return (lines, false) }
        lines.removeLast(lines.count - maxLines)
        let line = lines[maxLines - 1]
        let ellipsis = self.width("\u{2026}")
        let (s0, e0) = (line.range.lowerBound, line.range.upperBound)
        let overlapping = segs.filter { $0.end > s0 && $0.start < e0 }
        if line.width + ellipsis <= limit {
            let visible = overlapping.map { min($0.contentEnd, e0) }.reduce(s0, max)
            lines[maxLines - 1] = TextLine(range: s0..<visible, width: line.width + ellipsis, isEllipsized: true)
        } else {
            var best = TextLine(range: s0..<s0, width: ellipsis, isEllipsized: true)
            for seg in overlapping {
                for (a, b) in seg.clusters where a >= max(seg.start, s0) && b <= min(seg.contentEnd, e0) {
                    let w = lineWidth(s0, b, segs, bytes, limit: limit) + ellipsis
                    if w <= limit { best = TextLine(range: s0..<b, width: w, isEllipsized: true) }
                }
            }
            lines[maxLines - 1] = best
        }
        return (lines, true)
    }
}

/// Random multi-script texts from a small word list.
enum LayoutCorpus {
    static let words = [
        "hello", "world", "Straße", "naïve", "AVATAR", "Tower", "Wolf", "the", "a", "of", "Type",
        "καλημέρα", "κόσμε", "привет", "мир", "Łódź", "Żółw", "e\u{301}te\u{301}", "x\u{323}\u{302}",
        "漢字", "日本語のテキスト", "中文", "한국어", "👍", "👨‍👩‍👧", "🇩🇪🇫🇷", "❤️", "👍🏽",
        "Donaudampfschifffahrtsgesellschaftskapitän", "(test)", "1.5%", "$100", "well-known", "a/b",
        "https://example.com/a/very/long/path?query=value", "co-operate", "…", "«quote»",
    ]
    static let separators = [" ", " ", " ", " ", " ", " ", "  ", "\n", "\r\n", "\u{3000}", "", " \n"]

    static func text(_ rng: inout SplitMix64, words count: Int) -> String {
        var s = ""
        for i in 0..<count {
            if i > 0 { s += rng.pick(separators) }
            s += rng.pick(words)
        }
        if rng.chance(0.1) { s = " " + s }
        if rng.chance(0.1) { s += rng.pick(["\n", " ", "  "]) }
        return s
    }

    static func width(_ rng: inout SplitMix64) -> Double {
        switch rng.below(4) {
        case 0: return 0.5 + rng.unit() * 8  // smaller than most glyphs: emergency breaks
        case 1: return 8 + rng.unit() * 60
        default: return 60 + rng.unit() * 300
        }
    }
}

func expectSameLayout(_ m: TextMeasurement, _ ref: (lines: [TextLine], truncated: Bool), _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(m.lines.map(\.range) == ref.lines.map(\.range), "\(context)", sourceLocation: sourceLocation)
    #expect(m.lines.map(\.isEllipsized) == ref.lines.map(\.isEllipsized), "\(context)", sourceLocation: sourceLocation)
    #expect(m.isTruncated == ref.truncated, "\(context)", sourceLocation: sourceLocation)
    #expect(m.lineCount == ref.lines.count, "\(context)", sourceLocation: sourceLocation)
    if m.lines.count == ref.lines.count {
        for (a, b) in zip(m.lines, ref.lines) where abs(a.width - b.width) > 1e-9 * max(1, abs(b.width)) {
            Issue.record("width \(a.width) != \(b.width): \(context)", sourceLocation: sourceLocation)
            break
        }
    }
}

@Suite struct TextLayoutReferenceTests {
    @Test func matchesNaiveReferenceOnRandomTexts() throws {
        var rng = SplitMix64(seed: 0x7E57_1A70)
        let cached = TextLayoutEngine()
        let uncached = TextLayoutEngine(configuration: .uncached)
        let styles = try [
            TextStyle(fonts: LayoutFonts.chain, size: 14),
            TextStyle(fonts: LayoutFonts.chain, size: 17, letterSpacing: 0.5),
            TextStyle(fonts: [LayoutFonts.dejaVu, LayoutFonts.droid, LayoutFonts.emoji], size: 12),
        ]
        let naive = styles.map { NaiveLayout(fonts: $0.fontChain.fonts, size: $0.size, letterSpacing: $0.letterSpacing) }
        for round in 0..<220 {
            let text = LayoutCorpus.text(&rng, words: rng.int(0...14))
            let s = rng.below(styles.count)
            let width = LayoutCorpus.width(&rng)
            let maxLines = rng.chance(0.5) ? 0 : rng.int(1...4)
            let ref = naive[s].layout(text, width: width, maxLines: maxLines)
            let context = "round \(round) style \(s) width \(width) maxLines \(maxLines) text \(text.debugDescription)"
            for engine in [cached, uncached] {
                let m = try engine.measure(text, style: styles[s], width: width, maxLines: maxLines, includeLines: true)
                expectSameLayout(m, ref, context)
                #expect(m.height == Double(m.lineCount) * styles[s].lineHeight)
            }
            cached._checkInvariants()
        }
    }

    @Test func segmentSumsStayCloseToWholeLineWidths() throws {
        // The documented difference: no kerning across segment boundaries.
        let style = try TextStyle(fonts: [LayoutFonts.roboto], size: 16)
        let engine = TextLayoutEngine()
        for text in ["AVATAR Tower Wolf Type", "hello world of the AVATAR", "T. V. W. Y. a b c"] {
            let m = try engine.measure(text, style: style, width: 10_000, includeLines: true)
            #expect(m.lineCount == 1)
            let whole = LayoutFonts.roboto.width(of: text, size: 16)
            let segments = LineBreaking.opportunities(in: text).count
            #expect(abs(m.width - whole) <= 0.5 * Double(segments), "\(text): \(m.width) vs \(whole)")
        }
    }
}

@Suite struct TextLayoutCacheTests {
    @Test func cachedTinyBudgetAndUncachedAgree() throws {
        var rng = SplitMix64(seed: 0xCAC4E)
        let styles = try [
            TextStyle(fonts: LayoutFonts.chain, size: 14),
            TextStyle(fonts: LayoutFonts.chain, size: 15, letterSpacing: 0.25),
        ]
        let tinyConfig = TextLayoutEngine.Configuration(segmentCacheBytes: 2048, preparedTextCacheBytes: 1024, lineBreakCacheBytes: 1024)
        let normal = TextLayoutEngine(), tiny = TextLayoutEngine(configuration: tinyConfig), none = TextLayoutEngine(configuration: .uncached)
        var cases: [(String, Int, Double, Int)] = []
        for _ in 0..<150 {
            cases.append((LayoutCorpus.text(&rng, words: rng.int(1...12)), rng.below(2), LayoutCorpus.width(&rng), rng.chance(0.5) ? 0 : rng.int(1...3)))
        }
        for pass in 0..<2 {
            for (text, s, width, maxLines) in cases {
                let a = try normal.measure(text, style: styles[s], width: width, maxLines: maxLines, includeLines: true)
                let b = try tiny.measure(text, style: styles[s], width: width, maxLines: maxLines, includeLines: true)
                let c = try none.measure(text, style: styles[s], width: width, maxLines: maxLines, includeLines: true)
                #expect(a == b && a == c, "pass \(pass) \(text.debugDescription) width \(width)")
                let st = tiny.statistics
                #expect(st.segments.bytes <= st.segments.budget && st.preparedTexts.bytes <= st.preparedTexts.budget && st.lineBreaks.bytes <= st.lineBreaks.budget)
            }
            normal._checkInvariants()
            tiny._checkInvariants()
            if pass == 0 {
                #expect(normal.statistics.lineBreaks.hits == 0)
            }
        }
        let n = normal.statistics, t = tiny.statistics, z = none.statistics
        #expect(n.lineBreaks.hits == cases.count)  // the whole second pass
        #expect(n.segments.hits > 0 && n.segments.evictions == 0 && n.lineBreaks.evictions == 0)
        #expect(t.segments.evictions > 0 && t.preparedTexts.evictions > 0 && t.lineBreaks.evictions > 0)
        #expect(t.lineBreaks.hits < n.lineBreaks.hits)
        #expect(z.segments.hits == 0 && z.segments.entries == 0 && z.lineBreaks.entries == 0 && z.preparedTexts.entries == 0)
    }

    @Test func relayoutAtNewWidthUsesPreparedTextOnly() throws {
        let style = try TextStyle(fonts: LayoutFonts.chain, size: 14)
        let engine = TextLayoutEngine()
        let text = "The quick brown fox jumps over the lazy dog. Καλημέρα κόσμε, привет мир! 日本語のテキスト 👍"
        let first = try engine.measure(text, style: style, width: 320)
        let before = engine.statistics
        #expect(before.preparedTexts.misses == 1 && before.lineBreaks.misses == 1)
        var previous = first
        for width in [200.0, 150, 100, 90, 250] {
            let m = try engine.measure(text, style: style, width: width)
            #expect(m.lineCount >= previous.lineCount || width > 150)
            previous = m
        }
        let after = engine.statistics
        #expect(after.preparedTexts.hits == before.preparedTexts.hits + 5)
        #expect(after.segments == before.segments)  // not one segment lookup
        #expect(after.lineBreaks.misses == before.lineBreaks.misses + 5)
        // The same width again: the line-break cache answers.
        _ = try engine.measure(text, style: style, width: 150)
        #expect(engine.statistics.lineBreaks.hits == after.lineBreaks.hits + 1)
        #expect(engine.statistics.preparedTexts == after.preparedTexts)
    }

    @Test func bulkFormMatchesSingleCallsAcrossThreads() throws {
        var rng = SplitMix64(seed: 0xB01C)
        let style = try TextStyle(fonts: LayoutFonts.chain, size: 13)
        var rows = RowText(slotsPerRow: 1)
        var texts: [String] = []
        for _ in 0..<300 {
            let t = LayoutCorpus.text(&rng, words: rng.int(0...8))
            texts.append(t)
            rows.append([t])
        }
        let single = TextLayoutEngine()
        let expected = try texts.map { try single.measure($0, style: style, width: 120, maxLines: 2).metrics }
        for threads in [1, 3] {
            let engine = TextLayoutEngine()
            var out = [TextMetrics](repeating: TextMetrics(), count: texts.count)
            try out.withUnsafeMutableBufferPointer { try engine.measure(rows, style: style, width: 120, maxLines: 2, into: $0, threads: threads) }
            #expect(out == expected, "threads \(threads)")
        }
        let engine = TextLayoutEngine()
        var small = [TextMetrics](repeating: TextMetrics(), count: 2)
        #expect(throws: TesseraError.bufferTooSmall(needed: 300, capacity: 2)) {
            try small.withUnsafeMutableBufferPointer { try engine.measure(rows, style: style, width: 120, into: $0) }
        }
    }
}

@Suite struct TextLayoutEdgeCaseTests {
    let style = try! TextStyle(fonts: LayoutFonts.chain, size: 14)

    func layout(_ text: String, width: Double = 200, maxLines: Int = 0, engine: TextLayoutEngine = TextLayoutEngine()) throws -> TextMeasurement {
        try engine.measure(text, style: style, width: width, maxLines: maxLines, includeLines: true)
    }

    @Test func emptySpacesAndNewlines() throws {
        let empty = try layout("")
        #expect(empty.lines == [TextLine(range: 0..<0, width: 0)] && empty.height == style.lineHeight)
        let spaces = try layout("     ")
        #expect(spaces.lines == [TextLine(range: 0..<5, width: 0)])
        #expect(try layout("\n").lines.map(\.range) == [0..<1, 1..<1])
        #expect(try layout("a\r\nb").lines.map(\.range) == [0..<3, 3..<4])
        #expect(try layout("a\r\n").lines.map(\.range) == [0..<3, 3..<3])
        #expect(try layout("a\n\nb").lineCount == 3)
        // Trailing spaces do not count.
        let a = try layout("word")
        let b = try layout("word      ")
        #expect(a.width == b.width && b.lineCount == 1)
    }

    @Test func lineHeightFromPrimaryFont() throws {
        let m = LayoutFonts.roboto.metrics
        #expect(style.lineHeight == Double(m.ascender - m.descender + m.lineGap) * 14 / Double(LayoutFonts.roboto.unitsPerEm))
        let explicit = try TextStyle(fonts: LayoutFonts.chain, size: 14, lineHeight: 20)
        #expect(try TextLayoutEngine().measure("a\nb", style: explicit, width: 100).height == 40)
        #expect(try explicit.withLineHeight(30).identity == explicit.identity)
    }

    @Test func megabyteStringCompletes() throws {
        var text = ""
        let sentence = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, Καλημέρα привет 漢字. "
        while text.utf8.count < 1 << 20 { text += sentence }
        let engine = TextLayoutEngine()
        let m = try engine.measure(text, style: style, width: 300)
        #expect(m.lineCount > 1000)
        let relaid = try engine.measure(text, style: style, width: 250)
        #expect(relaid.lineCount > m.lineCount)
        let truncated = try engine.measure(text, style: style, width: 300, maxLines: 3, includeLines: true)
        #expect(truncated.lineCount == 3 && truncated.isTruncated && truncated.lines[2].isEllipsized)
    }

    @Test func widthSmallerThanOneGlyph() throws {
        let m = try layout("abc", width: 1)
        #expect(m.lines.map(\.range) == [0..<1, 1..<2, 2..<3])
        #expect(m.lines.allSatisfy { $0.width > 1 })
        let word = try layout("Straße", width: 0.01)
        #expect(word.lineCount == 6)
    }

    @Test func clustersAreNeverSplit() throws {
        for text in ["👨‍👩‍👧👨‍👩‍👧", "e\u{301}e\u{301}x\u{323}\u{302}", "🇩🇪🇫🇷", "👍🏽👍🏽", "a \u{301}b"] {
            let boundaries = Set(GraphemeBreaking.boundaries(in: text) + [0])
            let m = try layout(text, width: 1)
            for line in m.lines {
                #expect(boundaries.contains(line.range.lowerBound) && boundaries.contains(line.range.upperBound), "\(text.debugDescription): \(m.lines)")
            }
            #expect(m.lineCount == boundaries.count - 1 - (text.contains(" ") ? 1 : 0), "\(text.debugDescription): \(m.lines)")
        }
    }

    @Test func cjkBreaksBetweenIdeographs() throws {
        let text = "漢字漢字漢字漢字"  // 8 ideographs, 3 bytes each
        let one = try layout(text, width: 10_000).width / 8
        let m = try layout(text, width: one * 3 + 0.001)
        #expect(m.lines.map(\.range) == [0..<9, 9..<18, 18..<24])
        let opportunities = LineBreaking.opportunities(in: text).map(\.offset)
        #expect(opportunities == Array(stride(from: 3, through: 24, by: 3)))
    }

    @Test func fallbackRunsUseEachFace() throws {
        let chain = try FontChain(LayoutFonts.chain)
        #expect(chain.runs(in: "ab漢字👍c").map(\.face) == [0, 1, 2, 0])
        #expect(chain.runs(in: "👨‍👩‍👧").map(\.face) == [2])
        #expect(chain.runs(in: "e\u{301}").map(\.face) == [0])
        let engine = TextLayoutEngine()
        let cjk = try engine.measure("漢", style: style, width: 1000).width
        #expect(abs(cjk - LayoutFonts.droid.width(of: "漢", size: 14)) < 1e-9)
        let emoji = try engine.measure("👍", style: style, width: 1000).width
        #expect(abs(emoji - LayoutFonts.emoji.width(of: "👍", size: 14)) < 1e-9)
        let mixed = try engine.measure("ab漢👍", style: style, width: 1000).width
        let expected = LayoutFonts.roboto.width(of: "ab", size: 14) + LayoutFonts.droid.width(of: "漢", size: 14) + LayoutFonts.emoji.width(of: "👍", size: 14)
        #expect(abs(mixed - expected) < 1e-9)
        // Without the fallbacks, the primary face's .notdef is used.
        let robotoOnly = try TextStyle(fonts: [LayoutFonts.roboto], size: 14)
        #expect(try engine.measure("漢", style: robotoOnly, width: 1000).width == LayoutFonts.roboto.width(of: "漢", size: 14))
    }

    @Test func hostCallbackShaper() throws {
        let shaper = HostCallbackShaper { utf8, face, _ in
            #expect(face == 0)
            return 10 * Double(utf8.count)
        }
        let engine = TextLayoutEngine(shaper: shaper)
        let m = try engine.measure("aaaa bbbb cccc", style: style, width: 95, includeLines: true)
        #expect(m.lines == [TextLine(range: 0..<10, width: 90), TextLine(range: 10..<14, width: 40)])
        let spaced = try TextStyle(fonts: LayoutFonts.chain, size: 14, letterSpacing: 1)
        #expect(try engine.measure("ab", style: spaced, width: 100).width == 22)
        // C function pointer with a context.
        var perByte = 5.0
        let width = try withUnsafeMutablePointer(to: &perByte) { ctx in
            let c = HostCallbackShaper(function: { _, n, _, _, context in Double(n) * context!.load(as: Double.self) }, context: UnsafeMutableRawPointer(ctx))
            return try TextLayoutEngine(shaper: c).measure("abc def", style: style, width: 100).width
        }
        #expect(width == 35)
        // Truncation: 3 lines needed, 2 kept, the ellipsis (3 bytes → 30 pt) fits after "bbbb".
        let t = try engine.measure("aaaa bbbb cccc", style: style, width: 70, maxLines: 2, includeLines: true)
        #expect(t.lines == [TextLine(range: 0..<5, width: 40), TextLine(range: 5..<9, width: 70, isEllipsized: true)] && t.isTruncated)
        let short = try engine.measure("aaaa bbbb cccc", style: style, width: 55, maxLines: 2, includeLines: true)
        #expect(short.lines.last == TextLine(range: 5..<7, width: 50, isEllipsized: true))
    }
}

@Suite struct TextLayoutBadInputTests {
    @Test func badInputThrowsAndLeavesCachesUnchanged() throws {
        let style = try TextStyle(fonts: LayoutFonts.chain, size: 14)
        let engine = TextLayoutEngine()
        _ = try engine.measure("warm up the caches", style: style, width: 100)
        let before = engine.statistics
        let bad: [UInt8] = [0x61, 0x62, 0xE2, 0x82, 0x41]
        #expect(throws: TesseraError.invalidUTF8Text(byteOffset: 2)) {
            try bad.withUnsafeBytes { _ = try engine.measure(utf8: $0, style: style, width: 100) }
        }
        for w in [Double.nan, -1, 0, .infinity, -.infinity] {
            do {
                _ = try engine.measure("abc", style: style, width: w)
                Issue.record("width \(w) accepted")
            } catch {
                guard case .invalidTextWidth(let v) = error, v.bitPattern == w.bitPattern else { Issue.record("\(error)"); continue }
            }
        }
        #expect(throws: TesseraError.invalidTextWidth(-1)) { _ = try engine.measure("abc", style: style, width: -1) }
        #expect(throws: TesseraError.invalidMaxLines(-1)) { _ = try engine.measure("abc", style: style, width: 10, maxLines: -1) }
        var rows = RowText(slotsPerRow: 1)
        rows.append(["fine"])
        rows.utf8 += [0xFF]
        rows.offsets.append(rows.utf8.count)
        var out = [TextMetrics](repeating: TextMetrics(), count: 2)
        #expect(throws: TesseraError.invalidUTF8(row: 1, slot: 0, byteOffset: 0)) {
            try out.withUnsafeMutableBufferPointer { try engine.measure(rows, style: style, width: 100, into: $0) }
        }
        #expect(out == [TextMetrics(), TextMetrics()])
        #expect(engine.statistics == before)
        // "é" split between two texts: the bytes are valid UTF-8 together, neither text is.
        var split = RowText(slotsPerRow: 1)
        split.utf8 = Array("abé".utf8)
        split.offsets = [0, 3, 4]
        #expect(throws: TesseraError.invalidUTF8(row: 0, slot: 0, byteOffset: 2)) {
            try out.withUnsafeMutableBufferPointer { try engine.measure(split, style: style, width: 100, into: $0) }
        }
        split.offsets = [0, 2, 3, 4]
        var three = [TextMetrics](repeating: TextMetrics(), count: 3)
        #expect(throws: TesseraError.invalidUTF8(row: 1, slot: 0, byteOffset: 0)) {
            try three.withUnsafeMutableBufferPointer { try engine.measure(split, style: style, width: 100, into: $0) }
        }
        #expect(engine.statistics == before)

        #expect(throws: TesseraError.emptyFontChain) { _ = try TextStyle(fonts: [], size: 14) }
        #expect(throws: TesseraError.emptyFontChain) { _ = try FontChain([]) }
        #expect(throws: TesseraError.self) { _ = try TextStyle(fonts: LayoutFonts.chain, size: .nan) }
        #expect(throws: TesseraError.invalidFontSize(0)) { _ = try TextStyle(fonts: LayoutFonts.chain, size: 0) }
        #expect(throws: TesseraError.invalidLineHeight(-2)) { _ = try TextStyle(fonts: LayoutFonts.chain, size: 12, lineHeight: -2) }
        #expect(throws: TesseraError.invalidLetterSpacing(.infinity)) { _ = try TextStyle(fonts: LayoutFonts.chain, size: 12, letterSpacing: .infinity) }
        #expect(TesseraError.invalidTextWidth(.nan).description.contains("nan"))
        #expect(TesseraError.invalidMaxLines(-3).description.contains("-3"))
    }
}

@Suite struct PreparedTextsTests {
    /// Prepared texts laid out at many widths and line limits give exactly what `measure`
    /// gives (an uncached engine, so nothing is shared), lines included, on any thread count.
    @Test func layoutMatchesMeasure() throws {
        var rng = SplitMix64(seed: 0x9E9A)
        let style = try TextStyle(fonts: LayoutFonts.chain, size: 13)
        var rows = RowText(slotsPerRow: 1)
        var texts: [String] = []
        for i in 0..<400 {
            // Long words force emergency breaks at narrow widths; some texts end in a newline.
            var t = LayoutCorpus.text(&rng, words: rng.int(0...12))
            if i % 17 == 0 { t += "Donaudampfschifffahrtsgesellschaftskapitän" }
            if i % 23 == 0 { t += "\n" }
            if i % 29 == 0 { t = "Zeile\u{2028}" + t }
            texts.append(t)
            rows.append([t])
        }
        let reference = TextLayoutEngine(configuration: .uncached)
        for threads in [1, 3] {
            let engine = TextLayoutEngine()
            let prepared = try rows.utf8.withUnsafeBytes { bytes in
                try rows.offsets.withUnsafeBufferPointer { try engine.prepare(texts: bytes, offsets: $0, style: style, threads: threads) }
            }
            #expect(prepared.count == texts.count && prepared.bytes > 0)
            for (width, maxLines) in [(300.0, 0), (120, 2), (40, 1), (9, 0), (75, 3)] {
                var out = [TextMetrics](repeating: TextMetrics(), count: texts.count)
                try out.withUnsafeMutableBufferPointer { try engine.layout(prepared, width: width, maxLines: maxLines, into: $0, threads: threads) }
                for i in texts.indices {
                    let expected = try reference.measure(texts[i], style: style, width: width, maxLines: maxLines, includeLines: true)
                    #expect(out[i] == expected.metrics, "text \(i) at \(width)/\(maxLines)")
                    let single = try engine.layout(prepared, text: i, width: width, maxLines: maxLines, includeLines: true)
                    #expect(single == expected, "text \(i) at \(width)/\(maxLines)")
                }
            }
            // Each text at its own one-line width and just below it, where the one-line
            // shortcut of the bulk layout must agree with the fill to the last bit.
            for i in texts.indices.prefix(150) {
                let natural = try reference.measure(texts[i], style: style, width: 1e6).metrics.width
                for width in [natural, natural.nextDown, natural - 1 / 64, natural - 0.02].filter({ $0 > 0 }) {
                    var out = [TextMetrics](repeating: TextMetrics(), count: texts.count)
                    try out.withUnsafeMutableBufferPointer { try engine.layout(prepared, width: width, into: $0, threads: threads) }
                    let expected = try reference.measure(texts[i], style: style, width: width)
                    #expect(out[i] == expected.metrics, "text \(i) at \(width)")
                }
            }
        }
    }

    @Test func badInputThrowsAndPreparesNothing() throws {
        let style = try TextStyle(fonts: LayoutFonts.chain, size: 13)
        let engine = TextLayoutEngine()
        let before = engine.statistics
        let bytes: [UInt8] = Array("ok".utf8) + [0xC3]
        #expect(throws: TesseraError.invalidUTF8(row: 1, slot: 0, byteOffset: 0)) {
            _ = try bytes.withUnsafeBytes { b in try [0, 2, 3].withUnsafeBufferPointer { try engine.prepare(texts: b, offsets: $0, style: style) } }
        }
        #expect(throws: TesseraError.invalidTextOffsets(row: 0, slot: 0)) {
            _ = try bytes.withUnsafeBytes { b in try [0, 9].withUnsafeBufferPointer { try engine.prepare(texts: b, offsets: $0, style: style) } }
        }
        #expect(engine.statistics == before)
        let prepared = try bytes.withUnsafeBytes { b in try [0, 2].withUnsafeBufferPointer { try engine.prepare(texts: b, offsets: $0, style: style) } }
        var out = [TextMetrics](repeating: TextMetrics(), count: 1)
        #expect(throws: TesseraError.invalidTextWidth(0)) { try out.withUnsafeMutableBufferPointer { try engine.layout(prepared, width: 0, into: $0) } }
        #expect(throws: TesseraError.invalidMaxLines(-1)) { try out.withUnsafeMutableBufferPointer { try engine.layout(prepared, width: 10, maxLines: -1, into: $0) } }
        var none: [TextMetrics] = []
        #expect(throws: TesseraError.bufferTooSmall(needed: 1, capacity: 0)) { try none.withUnsafeMutableBufferPointer { try engine.layout(prepared, width: 10, into: $0) } }
        #expect(throws: TesseraError.rowOutOfBounds(index: 1, count: 1)) { _ = try engine.layout(prepared, text: 1, width: 10) }
        #expect(out == [TextMetrics()])
    }
}
