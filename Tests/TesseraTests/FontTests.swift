import Testing
import Tessera

/// Loading, metrics, character maps and kerning of real and synthetic fonts.
@Suite struct FontTests {
    // Values read independently from the files with a Python `struct` script (offsets from
    // the OpenType spec), not with Tessera.
    @Test func robotoMetrics() throws {
        let font = try Font(path: TestFonts.roboto)
        #expect(font.unitsPerEm == 2048)
        #expect(font.glyphCount == 3359)
        #expect(font.horizontalHeaderMetrics == FontMetrics(ascender: 1900, descender: -500, lineGap: 0))
        #expect(font.typoMetrics == FontMetrics(ascender: 2146, descender: -555, lineGap: 0))
        #expect(font.winAscent == 2146 && font.winDescent == 555)
        #expect(!font.usesTypoMetrics)
        #expect(font.metrics == font.horizontalHeaderMetrics)
        #expect(font.metrics.lineHeight == 2400)
        #expect(font.kerningSource == .gpos)
    }

    @Test func dejaVuMetrics() throws {
        let font = try Font(path: TestFonts.dejaVu)
        #expect(font.unitsPerEm == 2048)
        #expect(font.glyphCount == 6253)
        #expect(font.horizontalHeaderMetrics == FontMetrics(ascender: 1901, descender: -483, lineGap: 0))
        #expect(font.typoMetrics == FontMetrics(ascender: 1556, descender: -492, lineGap: 410))
        #expect(font.winAscent == 1901 && font.winDescent == 483)
        #expect(font.metrics == font.horizontalHeaderMetrics)
        // numberOfHMetrics is 6238: the last 15 glyphs repeat glyph 6237's advance.
        #expect(font.advance(of: 6252) == font.advance(of: 6237))
        #expect(font.advance(of: 6253) == 0)
    }

    @Test func droidAndEmojiMetrics() throws {
        let droid = try Font(path: TestFonts.droid)
        #expect(droid.unitsPerEm == 256)
        #expect(droid.glyphCount == 49382)
        #expect(droid.metrics == FontMetrics(ascender: 267, descender: -68, lineGap: 0))
        #expect(droid.typoMetrics == FontMetrics(ascender: 196, descender: -61, lineGap: 16))
        #expect(droid.kerningSource == .none)
        let emoji = try Font(path: TestFonts.emoji)
        #expect(emoji.glyphCount == 3968)
        #expect(emoji.glyph(for: "😀") != nil)
        #expect(emoji.glyph(for: "A") == nil)
    }

    /// Glyph ids and advances of CJK (DroidSansFallback, binary-searched cmap above U+0800)
    /// and emoji (NotoColorEmoji, format 12 above the BMP) against hb-shape.
    @Test func cjkAndEmojiAgreeWithHarfBuzz() throws {
        var rng = SplitMix64(seed: 42)
        let cases: [(String, [ClosedRange<UInt32>])] = [
            // Katakana U+30F7...U+30FA are left out: DroidSansFallback lacks them, and HarfBuzz
            // then decomposes them into a kana and U+3099, which Tessera does not.
            (TestFonts.droid, [0x4E00...0x9FFF, 0x3041...0x3096, 0x30A1...0x30F6, 0xAC00...0xD7A3, 0xFF01...0xFF5E]),
            (TestFonts.emoji, [0x1F300...0x1F5FF, 0x1F600...0x1F64F, 0x1F680...0x1F6FF]),
        ]
        for (path, ranges) in cases {
            let font = try Font(path: path)
            var lines: [String] = []
            for _ in 0..<60 {
                var line = ""
                for _ in 0..<20 {
                    let r = rng.pick(ranges)
                    let v = r.lowerBound + UInt32(rng.below(Int(r.upperBound - r.lowerBound) + 1))
                    line.unicodeScalars.append(Unicode.Scalar(v)!)
                }
                lines.append(line)
            }
            let shaped = try #require(hbShape(font: path, lines: lines, features: FontHarfBuzzTests.noSubstitution))
            var mismatches = 0
            for (line, glyphs) in zip(lines, shaped) {
                let ours = line.unicodeScalars.map { font.glyph(for: $0) ?? 0 }
                // Emoji ZWJ/variation handling does not arise: every scalar here is a base.
                if ours != glyphs.map(\.glyph) || font.unscaledWidth(of: line) != glyphs.reduce(0, { $0 + $1.xAdvance }) {
                    mismatches += 1
                    if mismatches <= 3 {
                        print("[font]   \(line.unicodeScalars.map { String($0.value, radix: 16) }): ours \(ours) \(font.unscaledWidth(of: line)), hb \(glyphs.map { "\($0.glyph)+\($0.xAdvance)" })")
                    }
                }
            }
            #expect(mismatches == 0, "\(path): \(mismatches) of \(lines.count) lines differ from hb-shape")
        }
    }

    @Test func syntheticFontTables() throws {
        let font = try Font(bytes: syntheticFont())
        #expect(font.unitsPerEm == 1000)
        #expect(font.usesTypoMetrics)
        #expect(font.metrics == FontMetrics(ascender: 700, descender: -300, lineGap: 50))
        #expect(try Font(bytes: syntheticFont(useTypo: false)).metrics == FontMetrics(ascender: 800, descender: -200, lineGap: 100))
        #expect(font.glyph(for: "A") == 1 && font.glyph(for: "D") == 4)
        #expect(font.glyph(for: "α") == 4 && font.glyph(for: "β") == 3)
        #expect(font.glyph(for: "E") == nil && font.glyph(for: "\u{FFFF}") == nil && font.glyph(for: "😀") == nil)
        #expect((0...4).map { font.advance(of: $0) } == [500, 600, 700, 700, 700])
        // Lookup 0 (Extension → PairPos 1, first and second XAdvance) plus lookup 1
        // (PairPos 2 class matrix).
        #expect(font.kerning(1, 2) == -105 - 20)
        #expect(font.kerning(1, 4) == -30 - 40)
        #expect(font.kerning(1, 3) == -20)
        #expect(font.kerning(2, 3) == 10)
        #expect(font.kerning(3, 1) == 0)
        #expect(font.kerning(4, 1) == 0)
        #expect(font.kerning(0, 0) == 0 && font.kerning(70000, 1) == 0)
        #expect(font.unscaledWidth(of: "ABCD") == 600 + 700 + 700 + 700 - 125 + 10 + 0)
        #expect(font.unscaledWidth(of: "Ax") == 600 + 500)  // x unmapped: .notdef
        #expect(font.width(of: "AB", size: 10) == Double(600 + 700 - 125) / 100)
        #expect(font.width(of: "AB", size: 10, letterSpacing: 1.5) == Double(600 + 700 - 125) / 100 + 3)
        #expect(font.width(of: "", size: 10, letterSpacing: 1.5) == 0)
    }

    /// The synthetic font's GPOS is read by HarfBuzz the same way.
    @Test func syntheticKerningAgreesWithHarfBuzz() throws {
        let dir = fontTemporaryDirectory("synthetic")
        defer { _ = fontRunCommand("rm -rf \(fontShellQuoted(dir))") }
        let path = dir + "/synthetic.ttf"
        #expect(fontWriteBytes(syntheticFont(), to: path))
        let font = try Font(path: path)
        let lines = ["AB", "AD", "AC", "BC", "CA", "DA", "ABCD", "CBA", "ADA", "BBB", "αβ", "AαAβ"]
        let shaped = try #require(hbShape(font: path, lines: lines, features: ""))
        for (line, glyphs) in zip(lines, shaped) {
            #expect(font.unscaledWidth(of: line) == glyphs.reduce(0) { $0 + $1.xAdvance }, "\(line)")
        }
    }

    @Test func syntheticMalformations() throws {
        #expect(thrownError { _ = try Font(bytes: syntheticFont(nestedExtension: true)) }.map(\.description)?.contains("Extension") == true)
        #expect(thrownError { _ = try Font(bytes: syntheticFont(unitsPerEm: 0)) } == .malformedFont("head: unitsPerEm 0 outside 16...16384"))
        #expect(thrownError { _ = try Font(bytes: syntheticFont(hMetrics: 6)) } == .malformedFont("hhea: numberOfHMetrics 6 exceeds maxp numGlyphs 5"))
        #expect(thrownError { _ = try Font(bytes: syntheticFont(hMetrics: 0)) } == .malformedFont("hhea: numberOfHMetrics is 0"))
        // hmtx too short for numberOfHMetrics 5 (it holds 3 long metrics and 2 lsbs: 16 bytes).
        let e = thrownError { _ = try Font(bytes: syntheticFont(hMetrics: 5)) }
        #expect(e?.description.contains("hmtx") == true, "\(String(describing: e))")
    }

    /// Lookups and subtables referenced many times are parsed once and capped.
    @Test func amplificationIsBounded() throws {
        let small = try Font(bytes: syntheticFont(gpos: amplifyingGPOS(lookups: 3, subtables: 4)))
        #expect(small.kerning(1, 2) == 3 * 7)  // each lookup applies its first subtable
        let e = thrownError { _ = try Font(bytes: syntheticFont(gpos: amplifyingGPOS(lookups: 200, subtables: 100))) }
        #expect(e == .malformedFont("GPOS: more than 8192 kerning subtable references"))
    }

    @Test func collections() throws {
        let roboto = try #require(fontReadBytes(TestFonts.roboto))
        let collection = ttc([syntheticFont(), roboto])
        let face0 = try Font(bytes: collection, faceIndex: 0)
        let face1 = try Font(bytes: collection, faceIndex: 1)
        let direct = try Font(bytes: roboto)
        #expect(face0.unitsPerEm == 1000 && face0.kerning(1, 2) == -125)
        #expect(face1.metrics == direct.metrics && face1.glyphCount == direct.glyphCount)
        for text in ["AVATAR", "Tower", "Съешь", "Γειά", "ffi"] {
            #expect(face1.unscaledWidth(of: text) == direct.unscaledWidth(of: text))
        }
        #expect(thrownError { _ = try Font(bytes: collection, faceIndex: 2) } == .malformedFont("ttcf header: face index 2 outside 0..<2"))
        #expect(thrownError { _ = try Font(bytes: collection, faceIndex: -1) } == .malformedFont("ttcf header: face index -1 outside 0..<2"))
        #expect(thrownError { _ = try Font(bytes: roboto, faceIndex: 1) } != nil)
        // HarfBuzz reads face 1 of the collection the same way.
        let dir = fontTemporaryDirectory("ttc")
        defer { _ = fontRunCommand("rm -rf \(fontShellQuoted(dir))") }
        let path = dir + "/pair.ttc"
        #expect(fontWriteBytes(collection, to: path))
        let out = try #require(fontRunCommand("hb-shape --no-glyph-names --face-index=1 \(fontShellQuoted(path)) 'AVATAR'"))
        let hbWidth = out.split(separator: "|").compactMap { $0.split(separator: "+").last.flatMap { Int($0.filter(\.isNumber)) } }.reduce(0, +)
        #expect(hbWidth == direct.unscaledWidth(of: "AVATAR"))
        #expect(try Font(path: path, faceIndex: 1).unscaledWidth(of: "AVATAR") == hbWidth)
    }

    @Test func bytesFromRawBuffer() throws {
        let bytes = syntheticFont()
        let font = try bytes.withUnsafeBytes { (raw) throws(TesseraError) -> Font in try Font(bytes: raw) }
        #expect(font.kerning(1, 2) == -125)
    }

    @Test func fileErrors() throws {
        let dir = fontTemporaryDirectory("files")
        defer { _ = fontRunCommand("rm -rf \(fontShellQuoted(dir))") }
        #expect(thrownError { _ = try Font(path: dir + "/missing.ttf") } == .unreadableFont(path: dir + "/missing.ttf", errno: 2))
        #expect(thrownError { _ = try Font(path: dir) } == .unreadableFont(path: dir, errno: 21))
        let empty = dir + "/empty.ttf"
        #expect(fontWriteBytes([], to: empty))
        #expect(thrownError { _ = try Font(path: empty) } == .malformedFont("table directory: 0 bytes is too short for a font"))
        let text = dir + "/text.ttf"
        #expect(fontWriteBytes(Array("This is a text file, not a font.\n".utf8), to: text))
        let e = thrownError { _ = try Font(path: text) }
        #expect(e?.description.contains("sfnt version") == true, "\(String(describing: e))")
    }

    /// `glyph(for:)` is cheap enough for a fallback chain: no allocation, O(1) below U+0800.
    @Test func glyphLookupIsConsistent() throws {
        let font = try Font(path: TestFonts.dejaVu)
        var mapped = 0
        for v in UInt32(0)...0x2FFFF {
            guard let s = Unicode.Scalar(v) else { continue }
            if let g = font.glyph(for: s) {
                mapped += 1
                #expect(g > 0 && Int(g) < font.glyphCount)
                #expect(font.hasGlyph(for: s))
            }
        }
        #expect(mapped > 5000)
    }
}
