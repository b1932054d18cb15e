import Testing
import Tessera

/// Truncated, mutated and foreign data: always a typed error or a font whose lookups work,
/// never a trap or an out-of-bounds read.
@Suite struct FontMalformedTests {
    /// Table records (tag, offset, length) of an sfnt, read by the test itself.
    static func tables(_ bytes: [UInt8]) -> [(tag: String, offset: Int, length: Int)] {
        func u32(_ p: Int) -> Int { Int(bytes[p]) << 24 | Int(bytes[p + 1]) << 16 | Int(bytes[p + 2]) << 8 | Int(bytes[p + 3]) }
        let n = Int(bytes[4]) << 8 | Int(bytes[5])
        return (0..<n).map { i in
            let r = 12 + 16 * i
            return (String(decoding: bytes[r..<r + 4], as: UTF8.self), u32(r + 8), u32(r + 12))
        }
    }

    /// Loads `bytes`; a load that succeeds must answer lookups; a failure must be
    /// `malformedFont`. Returns whether it loaded.
    @discardableResult
    static func probe(_ bytes: [UInt8], _ rng: inout SplitMix64, faceIndex: Int = 0) -> Bool {
        do {
            let font = try Font(bytes: bytes, faceIndex: faceIndex)
            #expect(font.unitsPerEm >= 16 && font.glyphCount > 0)
            for text in ["AVATAR Tower", "Zażółć gęślą", "Ελληνικά", "Съешь же", "日本語😀", "e\u{301}\u{200D}"] {
                let w = font.width(of: text, size: 16, letterSpacing: 0.5)
                #expect(w.isFinite)
            }
            for _ in 0..<32 {
                let a = UInt32(rng.below(font.glyphCount + 2))
                let b = UInt32(rng.below(font.glyphCount + 2))
                _ = font.kerning(a, b)
                _ = font.advance(of: a)
                _ = font.isMarkGlyph(b)
                if let s = Unicode.Scalar(UInt32(rng.below(0x30000))), let g = font.glyph(for: s) {
                    #expect(Int(g) < font.glyphCount && g != 0)
                }
            }
            return true
        } catch {
            guard case .malformedFont(let reason) = error else {
                Issue.record("unexpected error \(error)")
                return false
            }
            #expect(!reason.isEmpty)
            return false
        }
    }

    @Test func truncations() throws {
        let roboto = try #require(fontReadBytes(TestFonts.roboto))
        var rng = SplitMix64(seed: 1)
        var lengths = Array(stride(from: 0, to: 20_000, by: 97))
        for t in Self.tables(roboto) where t.tag != "glyf" && t.tag != "loca" && t.tag != "name" && t.tag != "post" {
            for k in 0..<8 { lengths.append(t.offset + t.length * k / 8 + 1) }
            lengths.append(t.offset + t.length - 1)
        }
        var loaded = 0
        for n in lengths where n <= roboto.count {
            if Self.probe(Array(roboto[0..<n]), &rng) { loaded += 1 }
        }
        // Cuts that leave every table Tessera reads whole (inside GSUB, the OS/2 tail
        // past the fields read, ...) load; the rest are malformedFont.
        print("[font] truncations: \(lengths.count) lengths, \(loaded) loaded")
        #expect(Self.probe(roboto, &rng))
    }

    /// Random byte mutations of the table directory and of the tables Tessera parses.
    @Test(arguments: [("Roboto", TestFonts.roboto, 300), ("DejaVuSans", TestFonts.dejaVu, 1500), ("DejaVuSans kern", TestFonts.dejaVu, 500)])
    func mutations(name: String, path: String, count: Int) throws {
        var original = try #require(fontReadBytes(path))
        if name.hasSuffix("kern") {  // hide GPOS so the kern table is parsed
            let i = try #require(Self.tables(original).firstIndex { $0.tag == "GPOS" })
            original[15 + 16 * i] = UInt8(ascii: "T")
        }
        let records = Self.tables(original)
        let numTables = records.count
        var regions: [(offset: Int, length: Int)] = [(0, 12 + 16 * numTables)]
        for t in records where ["cmap", "GPOS", "GPOT", "kern", "GDEF", "hhea", "maxp", "head", "OS/2", "hmtx"].contains(t.tag) {
            // The first 2 KB of big tables hold their headers, lists and offsets.
            regions.append((t.offset, min(t.length, 2048)))
            if t.length > 2048 { regions.append((t.offset, t.length)) }
        }
        var rng = SplitMix64(seed: 0xBAD_F0E7 ^ UInt64(count))
        var loaded = 0
        for _ in 0..<count {
            var bytes = original
            let region = rng.pick(regions)
            for _ in 0..<rng.int(1...4) {
                let p = region.offset + rng.below(region.length)
                switch rng.below(4) {
                case 0: bytes[p] = rng.byte()
                case 1: bytes[p] = 0xFF
                case 2: bytes[p] = 0
                default: bytes[p] ^= 1 << UInt8(rng.below(8))
                }
            }
            if Self.probe(bytes, &rng) { loaded += 1 }
        }
        print("[font] \(name): \(count) mutations, \(loaded) still loaded")
    }

    /// Hand-made hostile values in real fonts.
    @Test func hostileFields() throws {
        let roboto = try #require(fontReadBytes(TestFonts.roboto))
        let records = Self.tables(roboto)
        func at(_ tag: String) -> Int { records.first { $0.tag == tag }!.offset }
        func patched(_ changes: [(Int, [UInt8])]) -> [UInt8] {
            var b = roboto
            for (p, v) in changes { for (i, x) in v.enumerated() { b[p + i] = x } }
            return b
        }
        func reason(_ bytes: [UInt8]) -> String {
            guard case .malformedFont(let r)? = thrownError({ _ = try Font(bytes: bytes) }) else { return "no error" }
            return r
        }
        let cmapRecord = records.firstIndex { $0.tag == "cmap" }!
        #expect(reason(patched([(12 + 16 * cmapRecord + 8, [0x7F, 0xFF, 0xFF, 0xFF])])).hasPrefix("cmap: table at offset"))
        #expect(reason(patched([(at("head") + 18, [0, 0])])) == "head: unitsPerEm 0 outside 16...16384")
        #expect(reason(patched([(at("hhea") + 34, [0xFF, 0xFF])])) == "hhea: numberOfHMetrics 65535 exceeds maxp numGlyphs 3359")
        #expect(reason(patched([(at("cmap") + 2, [0xFF, 0xFF])])).hasPrefix("cmap: 65535 encoding records"))
        #expect(reason(patched([(4, [0xFF, 0xFF])])).hasPrefix("table directory: 65535 table records"))
        #expect(reason(patched([(at("maxp") + 4, [0, 0])])) == "maxp: numGlyphs is 0")
        // GPOS lookup list count and feature list count past the table.
        let gpos = at("GPOS")
        let lookupList = Int(roboto[gpos + 8]) << 8 | Int(roboto[gpos + 9])
        #expect(reason(patched([(gpos + lookupList, [0xFF, 0xFF])])).hasPrefix("GPOS LookupList"))
        let featureList = Int(roboto[gpos + 6]) << 8 | Int(roboto[gpos + 7])
        #expect(reason(patched([(gpos + featureList, [0xFF, 0xFF])])).hasPrefix("GPOS FeatureList"))
        #expect(reason(patched([(gpos, [0, 9])])) == "GPOS: unknown version 9")
    }
}
