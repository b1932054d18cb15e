/// Builds small sfnt fonts byte by byte for the font tests.
struct FontBytes {
    var bytes: [UInt8] = []
    var count: Int { bytes.count }

    mutating func u16(_ v: Int) { bytes += [UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
    mutating func u32(_ v: Int) { u16((v >> 16) & 0xFFFF); u16(v & 0xFFFF) }
    mutating func tag(_ t: String) { bytes += Array(t.utf8) }
    /// Writes a 16-bit value at `position` (for offsets known later).
    mutating func patch16(_ position: Int, _ v: Int) {
        bytes[position] = UInt8((v >> 8) & 0xFF)
        bytes[position + 1] = UInt8(v & 0xFF)
    }
    mutating func patch32(_ position: Int, _ v: Int) {
        patch16(position, (v >> 16) & 0xFFFF)
        patch16(position + 2, v & 0xFFFF)
    }
}

/// An sfnt file from `(tag, bytes)` tables: records sorted by tag, tables 4-byte aligned.
func sfnt(_ tables: [(String, [UInt8])]) -> [UInt8] {
    let sorted = tables.sorted { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) }
    var out = FontBytes()
    out.u32(0x0001_0000)
    out.u16(sorted.count)
    out.u16(0); out.u16(0); out.u16(0)
    var offset = 12 + 16 * sorted.count
    for (tag, data) in sorted {
        out.tag(tag)
        out.u32(0)
        out.u32(offset)
        out.u32(data.count)
        offset += (data.count + 3) & ~3
    }
    for (_, data) in sorted {
        out.bytes += data
        while out.count % 4 != 0 { out.bytes.append(0) }
    }
    return out.bytes
}

/// A TrueType collection holding `fonts` (each a complete sfnt), with every table offset
/// moved to its place in the collection.
func ttc(_ fonts: [[UInt8]]) -> [UInt8] {
    var out = FontBytes()
    out.tag("ttcf")
    out.u16(1); out.u16(0)
    out.u32(fonts.count)
    let headerSize = 12 + 4 * fonts.count
    var starts: [Int] = []
    var offset = headerSize
    for f in fonts {
        starts.append(offset)
        out.u32(offset)
        offset += (f.count + 3) & ~3
    }
    for (f, start) in zip(fonts, starts) {
        var face = FontBytes(bytes: f)
        let numTables = Int(f[4]) << 8 | Int(f[5])
        for i in 0..<numTables {
            let p = 12 + 16 * i + 8
            let old = Int(f[p]) << 24 | Int(f[p + 1]) << 16 | Int(f[p + 2]) << 8 | Int(f[p + 3])
            face.patch32(p, old + start)
        }
        out.bytes += face.bytes
        while out.count % 4 != 0 { out.bytes.append(0) }
    }
    return out.bytes
}

/// A five-glyph font: .notdef, A, B, C, D (U+0041...U+0044, and α β mapped through
/// glyphIdArray to D and C), advances 500 600 700 700 700, units per em 1000, hhea
/// 800/-200/100, OS/2 typo 700/-300/50 with USE_TYPO_METRICS when `useTypo`.
///
/// Its GPOS `kern` feature has two lookups:
/// - lookup 0: an Extension (type 9) to PairPos format 1, value format 1 XPlacement |
///   XAdvance | XPlaDevice, value format 2 XAdvance: A+B → -100 and -5, A+D → -30 and 0;
/// - lookup 1: PairPos format 2, coverage A...C, ClassDef1 {A: 1, B C: 2} (format 2),
///   ClassDef2 {B C: 1, D: 2} (format 1), XAdvance matrix [[0,0,0],[0,-20,-40],[0,10,0]].
/// `nestedExtension` makes lookup 0's extension point to another extension.
func syntheticFont(
    useTypo: Bool = true, nestedExtension: Bool = false, unitsPerEm: Int = 1000, hMetrics: Int = 3,
    gpos: [UInt8]? = nil
) -> [UInt8] {
    var head = FontBytes()
    head.u32(0x0001_0000); head.u32(0x0001_0000); head.u32(0); head.u32(0x5F0F_3CF5)
    head.u16(0); head.u16(unitsPerEm)
    while head.count < 54 { head.bytes.append(0) }

    var hhea = FontBytes()
    hhea.u32(0x0001_0000); hhea.u16(800); hhea.u16(0x10000 - 200); hhea.u16(100)
    while hhea.count < 34 { hhea.bytes.append(0) }
    hhea.u16(hMetrics)

    var maxp = FontBytes()
    maxp.u32(0x0000_5000); maxp.u16(5)

    var hmtx = FontBytes()
    for a in [500, 600, 700] { hmtx.u16(a); hmtx.u16(0) }
    hmtx.u16(0); hmtx.u16(0)

    var os2 = FontBytes()
    os2.u16(4)
    while os2.count < 62 { os2.bytes.append(0) }
    os2.u16(useTypo ? 0x80 : 0x40)
    while os2.count < 68 { os2.bytes.append(0) }
    os2.u16(700); os2.u16(0x10000 - 300); os2.u16(50); os2.u16(900); os2.u16(250)
    while os2.count < 96 { os2.bytes.append(0) }

    // cmap: (3,1) format 4 with segments 0x41-0x44 (delta), 0x3B1-0x3B2 (glyphIdArray), 0xFFFF.
    var cmap = FontBytes()
    cmap.u16(0); cmap.u16(1); cmap.u16(3); cmap.u16(1); cmap.u32(12)
    let segments = [(0x41, 0x44), (0x3B1, 0x3B2), (0xFFFF, 0xFFFF)]
    let segCount = segments.count
    cmap.u16(4); cmap.u16(0); cmap.u16(0)
    cmap.u16(2 * segCount); cmap.u16(4); cmap.u16(1); cmap.u16(2)
    for s in segments { cmap.u16(s.1) }
    cmap.u16(0)
    for s in segments { cmap.u16(s.0) }
    cmap.u16((1 - 0x41) & 0xFFFF); cmap.u16(0); cmap.u16(1)  // deltas
    // idRangeOffsets: segment 1 points at glyphIdArray[0] (2 entries after its own slot).
    cmap.u16(0); cmap.u16(4); cmap.u16(0)
    cmap.u16(4); cmap.u16(3)  // glyphIdArray: α → D, β → C
    let length = cmap.count - 12
    cmap.patch16(12 + 2, length)

    // GPOS
    var g = FontBytes()
    g.u16(1); g.u16(0)
    let scriptListAt = g.count; g.u16(0)
    let featureListAt = g.count; g.u16(0)
    let lookupListAt = g.count; g.u16(0)
    // ScriptList: DFLT → default LangSys → feature 0.
    let scriptList = g.count
    g.patch16(scriptListAt, scriptList)
    g.u16(1); g.tag("DFLT"); g.u16(8)
    g.u16(4); g.u16(0)  // Script: defaultLangSys at +4, no others
    g.u16(0); g.u16(0xFFFF); g.u16(1); g.u16(0)  // LangSys
    // FeatureList: kern → lookups 0, 1.
    let featureList = g.count
    g.patch16(featureListAt, featureList)
    g.u16(1); g.tag("kern"); g.u16(8)
    g.u16(0); g.u16(2); g.u16(0); g.u16(1)
    // LookupList.
    let lookupList = g.count
    g.patch16(lookupListAt, lookupList)
    g.u16(2)
    let lookupOffsets = g.count; g.u16(0); g.u16(0)
    // Lookup 0: type 9, one subtable.
    let lookup0 = g.count
    g.patch16(lookupOffsets, lookup0 - lookupList)
    g.u16(9); g.u16(0); g.u16(1); g.u16(8)
    let ext = g.count
    g.u16(1); g.u16(nestedExtension ? 9 : 2); g.u32(0)
    let pair1 = g.count
    g.patch32(ext + 4, nestedExtension ? 0 : pair1 - ext)
    g.u16(1)
    let cov1At = g.count; g.u16(0)
    g.u16(0x0015); g.u16(0x0004); g.u16(1)
    let set1At = g.count; g.u16(0)
    let cov1 = g.count
    g.patch16(cov1At, cov1 - pair1)
    g.u16(1); g.u16(1); g.u16(1)  // Coverage format 1: [A]
    let set1 = g.count
    g.patch16(set1At, set1 - pair1)
    g.u16(2)
    g.u16(2); g.u16(7); g.u16(0x10000 - 100); g.u16(0); g.u16(0x10000 - 5)  // B
    g.u16(4); g.u16(0); g.u16(0x10000 - 30); g.u16(0); g.u16(0)  // D
    // Lookup 1: PairPos format 2.
    let lookup1 = g.count
    g.patch16(lookupOffsets + 2, lookup1 - lookupList)
    g.u16(2); g.u16(0); g.u16(1); g.u16(8)
    let pair2 = g.count
    g.u16(2)
    let cov2At = g.count; g.u16(0)
    g.u16(0x0004); g.u16(0)
    let cd1At = g.count; g.u16(0)
    let cd2At = g.count; g.u16(0)
    g.u16(3); g.u16(3)
    for v in [0, 0, 0, 0, -20, -40, 0, 10, 0] { g.u16(v & 0xFFFF) }
    let cov2 = g.count
    g.patch16(cov2At, cov2 - pair2)
    g.u16(2); g.u16(1); g.u16(1); g.u16(3); g.u16(0)  // Coverage format 2: A...C
    let cd1 = g.count
    g.patch16(cd1At, cd1 - pair2)
    g.u16(2); g.u16(2); g.u16(1); g.u16(1); g.u16(1); g.u16(2); g.u16(3); g.u16(2)
    let cd2 = g.count
    g.patch16(cd2At, cd2 - pair2)
    g.u16(1); g.u16(1); g.u16(4); g.u16(0); g.u16(1); g.u16(1); g.u16(2)

    return sfnt([
        ("head", head.bytes), ("hhea", hhea.bytes), ("maxp", maxp.bytes), ("hmtx", hmtx.bytes),
        ("OS/2", os2.bytes), ("cmap", cmap.bytes), ("GPOS", gpos ?? g.bytes),
    ])
}

/// A GPOS whose `kern` feature lists `lookups` lookup indices that all point to one lookup
/// holding `subtables` offsets to one and the same PairPos format 2 subtable: little data,
/// `lookups × subtables` references.
func amplifyingGPOS(lookups: Int, subtables: Int) -> [UInt8] {
    var g = FontBytes()
    g.u16(1); g.u16(0); g.u16(0); g.u16(10); g.u16(0)
    // FeatureList at 10.
    g.u16(1); g.tag("kern"); g.u16(8)
    g.u16(0); g.u16(lookups)
    for i in 0..<lookups { g.u16(i) }
    let lookupList = g.count
    g.patch16(8, lookupList)
    g.u16(lookups)
    let lookupOffset = 2 + 2 * lookups
    for _ in 0..<lookups { g.u16(lookupOffset) }
    let lookup = g.count
    g.u16(2); g.u16(0); g.u16(subtables)
    let pairOffset = 6 + 2 * subtables
    for _ in 0..<subtables { g.u16(pairOffset) }
    let pair = g.count
    precondition(pair - lookup == pairOffset)
    // PairPos 2: coverage at +16 (format 2, all glyphs), class defs at +26 (format 2, none),
    // 1 × 1 classes, XAdvance records.
    g.u16(2); g.u16(18); g.u16(4); g.u16(0); g.u16(28); g.u16(28); g.u16(1); g.u16(1); g.u16(7)
    g.u16(2); g.u16(1); g.u16(0); g.u16(0xFFFF); g.u16(0)
    g.u16(2); g.u16(0)
    return g.bytes
}
