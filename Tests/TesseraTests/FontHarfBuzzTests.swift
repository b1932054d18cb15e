import Testing
import Tessera

/// Advances and kerning checked against HarfBuzz (`hb-shape`, installed by the bootstrap)
/// on a corpus of 6,000+ generated words in English, German, French, Polish, Greek and
/// Russian/Ukrainian.
@Suite(.serialized) struct FontHarfBuzzTests {
    /// GSUB features that substitute glyphs in these fonts and scripts; switched off so
    /// HarfBuzz measures nominal glyphs as Tessera does. Kerning (and mark positioning)
    /// stay on.
    static let noSubstitution = "-liga,-clig,-dlig,-calt,-rlig"

    struct Agreement: CustomStringConvertible {
        var font: String
        var words = 0
        var identical = 0
        var maxRelative = 0.0
        var maxAbsolute = 0
        var worst = ""
        var glyphMismatches = 0
        var differing: [String] = []
        var glyphSamples: [String] = []
        /// Words whose HarfBuzz width differs from the plain sum of advances.
        var kerned = 0
        /// Words with combining marks that HarfBuzz shaped to other glyphs.
        var composed = 0

        var description: String {
            let rel = (maxRelative * 10000).rounded() / 100
            return "\(font): \(identical)/\(words) words identical to hb-shape, max deviation \(maxAbsolute) units (\(rel)%)"
                + (worst.isEmpty ? "" : " on \"\(worst)\"") + ", \(glyphMismatches) words with other glyph ids, \(composed) with marks or ignorables HarfBuzz composed or hid"
        }
    }

    /// Compares `Font.unscaledWidth(of:)` with the sum of hb-shape's x advances per word.
    static func agreement(path: String, name: String, corpus: [String], features: String) throws -> Agreement {
        let font = try Font(path: path)
        let shaped = try #require(hbShape(font: path, lines: corpus, features: features), "hb-shape failed on \(path)")
        var a = Agreement(font: name)
        for (word, glyphs) in zip(corpus, shaped) {
            a.words += 1
            let reference = glyphs.reduce(0) { $0 + $1.xAdvance }
            let ours = font.unscaledWidth(of: word)
            let nominal = word.unicodeScalars.map { font.glyph(for: $0) ?? 0 }
            if nominal != glyphs.map(\.glyph) {
                // HarfBuzz composes a base and combining marks when the font has the
                // composed glyph (Υ + U+0308 → Ϋ) and hides default ignorables (ZWJ, soft
                // hyphen) behind a zero-advance space; Tessera keeps the nominal glyphs.
                if word.unicodeScalars.contains(where: {
                    $0.properties.generalCategory == .nonspacingMark || $0.properties.isDefaultIgnorableCodePoint
                }) {
                    a.composed += 1
                } else {
                    a.glyphMismatches += 1
                }
                if a.glyphSamples.count < 12 { a.glyphSamples.append("\(word): ours \(nominal), hb \(glyphs.map(\.glyph))") }
            }
            let unkerned = zip(word.unicodeScalars, nominal).reduce(0) { $0 + font.advance(of: $1.1) }
            if unkerned != reference { a.kerned += 1 }
            if ours == reference {
                a.identical += 1
                continue
            }
            let deviation = abs(ours - reference)
            let relative = Double(deviation) / Double(max(reference, 1))
            if relative > a.maxRelative {
                a.maxRelative = relative
                a.maxAbsolute = deviation
                a.worst = word
            }
            if a.differing.count < 12 {
                a.differing.append("\(word): ours \(ours), hb \(reference), hb glyphs \(glyphs.map { "\($0.glyph)+\($0.xAdvance)" })")
            }
        }
        return a
    }

    static let corpus = fontTestCorpus().map(\.word)

    @Test(arguments: [(TestFonts.roboto, "Roboto-Regular"), (TestFonts.dejaVu, "DejaVuSans")])
    func widthsAgreeWithHarfBuzz(path: String, name: String) throws {
        let corpus = Self.corpus
        #expect(corpus.count >= 6000)
        let a = try Self.agreement(path: path, name: name, corpus: corpus, features: Self.noSubstitution)
        print("[font] \(a); \(a.kerned) words kerned")
        for d in a.differing + a.glyphSamples { print("[font]   \(d)") }
        #expect(a.words == corpus.count)
        #expect(a.maxRelative <= 0.005, "\(a)")
        // Tessera maps every scalar to its nominal glyph; HarfBuzz must agree on all of them
        // except where it composes marks (all-caps Greek ΰ → Υ + U+0308 + U+0301).
        #expect(a.glyphMismatches == 0, "\(a)")
    }

    /// Kerning from the legacy `kern` table: DejaVu Sans carries both GPOS and `kern`;
    /// with its GPOS table renamed, HarfBuzz (and Tessera) fall back to `kern`.
    @Test func kernTableAgreesWithHarfBuzz() throws {
        var bytes = try #require(fontReadBytes(TestFonts.dejaVu))
        let numTables = Int(bytes[4]) << 8 | Int(bytes[5])
        var renamed = false
        for i in 0..<numTables where Array(bytes[12 + 16 * i..<16 + 16 * i]) == Array("GPOS".utf8) {
            bytes[15 + 16 * i] = UInt8(ascii: "T")  // "GPOT" keeps the directory sorted
            renamed = true
        }
        #expect(renamed)
        let dir = fontTemporaryDirectory("kern")
        defer { _ = fontRunCommand("rm -rf \(fontShellQuoted(dir))") }
        let path = dir + "/DejaVuSans-kern.ttf"
        #expect(fontWriteBytes(bytes, to: path))
        let font = try Font(path: path)
        #expect(font.kerningSource == .kernTable)
        #expect(try Font(path: TestFonts.dejaVu).kerningSource == .gpos)
        let a = try Self.agreement(path: path, name: "DejaVuSans (kern table)", corpus: Self.corpus, features: Self.noSubstitution)
        print("[font] \(a)")
        for d in a.differing { print("[font]   \(d)") }
        #expect(a.maxRelative <= 0.005, "\(a)")
        #expect(a.identical > a.words * 99 / 100, "\(a)")
    }

    /// Tessera does not substitute ligatures: how much HarfBuzz's default features (liga,
    /// clig, calt, ...) change the widths of the corpus.
    @Test(arguments: [(TestFonts.roboto, "Roboto-Regular"), (TestFonts.dejaVu, "DejaVuSans")])
    func ligatureImpact(path: String, name: String) throws {
        let corpus = Self.corpus
        let plain = try #require(hbShape(font: path, lines: corpus, features: Self.noSubstitution))
        let defaults = try #require(hbShape(font: path, lines: corpus, features: ""))
        var changed = 0
        var maxRelative = 0.0
        var maxAbsolute = 0
        var worst = ""
        var totalPlain = 0
        var totalDefault = 0
        for (word, (p, d)) in zip(corpus, zip(plain, defaults)) {
            let wp = p.reduce(0) { $0 + $1.xAdvance }
            let wd = d.reduce(0) { $0 + $1.xAdvance }
            totalPlain += wp
            totalDefault += wd
            guard wp != wd else { continue }
            changed += 1
            let relative = Double(abs(wp - wd)) / Double(max(wd, 1))
            if relative > maxRelative {
                maxRelative = relative
                maxAbsolute = abs(wp - wd)
                worst = word
            }
        }
        let percent = (Double(changed) / Double(corpus.count) * 10000).rounded() / 100
        let rel = (maxRelative * 10000).rounded() / 100
        let total = (Double(totalPlain - totalDefault) / Double(totalDefault) * 100000).rounded() / 1000
        print("[font] \(name) ligatures: default features change \(changed)/\(corpus.count) words (\(percent)%), max \(maxAbsolute) units (\(rel)%) on \"\(worst)\"; corpus total +\(total)% without them")
        #expect(changed < corpus.count / 10)
    }
}
