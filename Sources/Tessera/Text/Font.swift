#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

/// Vertical font metrics in font units (y up, as in the font: `descender` is negative).
public struct FontMetrics: Sendable, Equatable, CustomStringConvertible {
    public var ascender: Int
    public var descender: Int
    public var lineGap: Int

    public init(ascender: Int, descender: Int, lineGap: Int) {
        self.ascender = ascender
        self.descender = descender
        self.lineGap = lineGap
    }

    /// `ascender - descender + lineGap`: the default line height in font units.
    public var lineHeight: Int { ascender - descender + lineGap }

    public var description: String { "ascender \(ascender), descender \(descender), lineGap \(lineGap)" }
}

/// An OpenType/TrueType font loaded into memory: the tables Tessera needs to measure text
/// (`head`, `hhea`, `OS/2`, `maxp`, `hmtx`, `cmap`, kerning from `GPOS` or `kern`, mark
/// classes from `GDEF`), parsed once at load into compact lookup structures.
///
/// A `Font` is immutable after loading and safe to share between threads. Loading never
/// traps on bad data: every read is bounds-checked (`FontData`), and truncated, malformed or
/// hostile data throws `TesseraError.malformedFont` with the table and the problem.
///
/// Widths follow what HarfBuzz does for a simple left-to-right run without ligatures: the
/// sum of `hmtx` advances, with GPOS mark glyphs given zero advance, plus the pair kerning
/// between consecutive non-mark glyphs. Ligatures and other GSUB substitutions, contextual
/// positioning, cursive and mark attachment offsets are not applied.
public final class Font: Sendable {
    /// Font units per em (`head.unitsPerEm`, 16...16384).
    public let unitsPerEm: Int

    /// The line metrics Tessera uses, chosen by HarfBuzz's rule (`hb_ot_metrics`), which
    /// Chrome/Skia follows too: `OS/2` typo metrics when the font sets `USE_TYPO_METRICS`
    /// (fsSelection bit 7); otherwise `hhea` when its ascender or descender is non-zero;
    /// otherwise the typo metrics when non-zero; otherwise `usWinAscent`/`usWinDescent`
    /// with no line gap.
    public let metrics: FontMetrics

    /// The `hhea` ascender, descender and lineGap as stored.
    public let horizontalHeaderMetrics: FontMetrics

    /// The `OS/2` sTypoAscender, sTypoDescender, sTypoLineGap (nil without an `OS/2` table
    /// long enough to hold them).
    public let typoMetrics: FontMetrics?

    /// `OS/2` usWinAscent and usWinDescent (both positive; nil without `OS/2`).
    public let winAscent: Int?
    public let winDescent: Int?

    /// Whether `OS/2` fsSelection sets USE_TYPO_METRICS (bit 7).
    public let usesTypoMetrics: Bool

    /// `maxp.numGlyphs`: valid glyph ids are `0..<glyphCount`.
    public let glyphCount: Int

    /// Where pair kerning comes from.
    public enum KerningSource: Sendable, Equatable {
        /// GPOS PairPos lookups of the `kern` feature (used whenever GPOS has that feature,
        /// as HarfBuzz does).
        case gpos
        /// The legacy `kern` table, format 0 horizontal subtables.
        case kernTable
        /// No kerning.
        case none
    }

    public let kerningSource: KerningSource

    let advances: [UInt16]
    let characterMap: CharacterMap
    let pairKerning: PairKerning
    let kerningMemo = KerningMemo()
    /// Advances and pair kerning of U+0020–U+007E, when the face maps them all to glyphs
    /// that are not marks (nil otherwise).
    let printableASCII: PrintableASCIIMetrics?
    /// GDEF glyph classes (class 3 = mark); nil when the font has no GDEF glyph class
    /// definition, in which case marks are recognised by Unicode general category Mn.
    let glyphClasses: GlyphRanges?
    /// `glyphClasses` class 3 (mark) as one bit per glyph id below `glyphCount` (empty
    /// without GDEF glyph classes), for the measuring loop.
    let markGlyphs: [UInt64]

    /// Loads face `faceIndex` of the font file at `path` (`.ttf`, `.otf`, or a `.ttc`
    /// collection). Throws `unreadableFont` when the file cannot be read and
    /// `malformedFont` when it is not a usable font.
    public convenience init(path: String, faceIndex: Int = 0) throws(TesseraError) {
        try self.init(bytes: try Font.readFile(path), faceIndex: faceIndex)
    }

    /// Loads face `faceIndex` of the font in `bytes` (copied into storage the font owns).
    public convenience init(bytes: UnsafeRawBufferPointer, faceIndex: Int = 0) throws(TesseraError) {
        try self.init(bytes: Array(bytes), faceIndex: faceIndex)
    }

    /// Loads face `faceIndex` of the font in `bytes`.
    public init(bytes: [UInt8], faceIndex: Int = 0) throws(TesseraError) {
        let file = FontData(bytes: bytes, table: "font file")
        let directory = try TableDirectory(file, faceIndex: faceIndex)
        let tables = try BasicTables(directory)
        unitsPerEm = tables.unitsPerEm
        glyphCount = tables.glyphCount
        horizontalHeaderMetrics = tables.hhea
        typoMetrics = tables.typo
        winAscent = tables.winAscent
        winDescent = tables.winDescent
        usesTypoMetrics = tables.useTypoMetrics
        metrics = tables.chosenMetrics
        advances = tables.advances
        guard let cmap = try directory.table("cmap") else { throw .malformedFont("cmap: table missing") }
        characterMap = try CharacterMap(cmap, glyphCount: glyphCount)
        glyphClasses = try directory.table("GDEF").flatMap { gdef throws(TesseraError) in try GlyphRanges.glyphClasses(gdef) }
        var marks: [UInt64] = []
        if let classes = glyphClasses {
            marks = [UInt64](repeating: 0, count: (glyphCount + 63) / 64)
            for i in 0..<classes.rangeCount where classes.values[i] == 3 {
                let upper = min(Int(classes.ends[i]), glyphCount - 1)
                var g = Int(classes.starts[i])
                while g <= upper {
                    marks[g >> 6] |= 1 << UInt64(g & 63)
                    g += 1
                }
            }
        }
        markGlyphs = marks
        if let gpos = try directory.table("GPOS"), let kerning = try PairKerning(gpos: gpos, glyphCount: glyphCount) {
            pairKerning = kerning
            kerningSource = .gpos
        } else if let kern = try directory.table("kern"), let kerning = try PairKerning(kern: kern, glyphCount: glyphCount) {
            pairKerning = kerning
            kerningSource = .kernTable
        } else {
            pairKerning = PairKerning()
            kerningSource = .none
        }
        printableASCII = PrintableASCIIMetrics(characterMap: characterMap, advances: advances, markGlyphs: markGlyphs, glyphClasses: glyphClasses != nil, kerning: pairKerning)
    }

    /// A font with this one's tables and its own kerning memo and identity, for another
    /// thread: the tables are never written and the measuring paths read them without
    /// retaining them, so nothing one thread writes (a memo entry, this object's reference
    /// count) is the other's; and nothing is read from a file or parsed again (loading the
    /// fallback faces again took a second measuring thread 9 ms).
    func ownCopy() -> Font { Font(tablesOf: self) }

    private init(tablesOf other: Font) {
        unitsPerEm = other.unitsPerEm
        metrics = other.metrics
        horizontalHeaderMetrics = other.horizontalHeaderMetrics
        typoMetrics = other.typoMetrics
        winAscent = other.winAscent
        winDescent = other.winDescent
        usesTypoMetrics = other.usesTypoMetrics
        glyphCount = other.glyphCount
        kerningSource = other.kerningSource
        advances = other.advances
        characterMap = other.characterMap
        pairKerning = other.pairKerning
        printableASCII = other.printableASCII
        glyphClasses = other.glyphClasses
        markGlyphs = other.markGlyphs
    }

    /// The nominal glyph for `scalar` from the font's Unicode `cmap` subtable, or nil when
    /// the font does not map it (a mapping to glyph 0 or to a glyph id at or past
    /// `glyphCount` counts as unmapped, so a non-nil result is never 0). O(1) for scalars
    /// below U+0800, a binary search over the mapped ranges otherwise; no allocation.
    @inline(__always)
    public func glyph(for scalar: Unicode.Scalar) -> UInt32? {
        let g = characterMap.glyph(scalar.value)
        return g == 0 ? nil : UInt32(g)
    }

    /// Whether the font maps `scalar` to a glyph.
    @inline(__always)
    public func hasGlyph(for scalar: Unicode.Scalar) -> Bool {
        characterMap.glyph(scalar.value) != 0
    }

    /// The horizontal advance of `glyph` in font units from `hmtx` (glyphs past the last
    /// long metric repeat its advance); 0 for an id at or past `glyphCount`.
    @inline(__always)
    public func advance(of glyph: UInt32) -> Int {
        glyph < UInt32(advances.count) ? Int(advances[Int(glyph)]) : 0
    }

    /// The pair adjustment to add between `left` and `right`, in font units: the sum over
    /// the GPOS `kern` lookups of the first PairPos subtable that matches the pair (its
    /// first and second glyph XAdvance), or the `kern` table's format 0 value when the
    /// font has no GPOS `kern` feature. 0 when nothing applies.
    public func kerning(_ left: UInt32, _ right: UInt32) -> Int {
        guard left <= 0xFFFF, right <= 0xFFFF else { return 0 }
        return pairKerning.value(UInt16(left), UInt16(right))
    }

    /// Whether `glyph` is a mark glyph in the font's GDEF (class 3).
    public func isMarkGlyph(_ glyph: UInt32) -> Bool {
        guard let glyphClasses, glyph <= 0xFFFF else { return false }
        return glyphClasses.value(UInt16(glyph)) == 3
    }

    /// The advance width of `text` in font units, as HarfBuzz shapes a left-to-right run
    /// with ligatures off: for each Unicode scalar, its nominal glyph's advance (glyph 0,
    /// .notdef, for unmapped scalars), plus `kerning(previous, glyph)` between consecutive
    /// glyphs. Mark glyphs (GDEF class 3, or general category Mn when the font has no GDEF
    /// classes) get zero advance and are skipped when pairing glyphs for kerning, as
    /// HarfBuzz zeroes mark advances and kern lookups usually ignore marks. Default
    /// ignorable scalars (ZWJ, ZWNJ, soft hyphen, variation selectors, ...) are invisible
    /// and contribute nothing. No allocation.
    public func unscaledWidth(of text: String) -> Int {
        var total = 0
        var previous: UInt16? = nil
        let hasGDEF = glyphClasses != nil
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if isDefaultIgnorable(v) { continue }
            let g = characterMap.glyph(v)
            let isMark: Bool
            if hasGDEF {
                isMark = glyphClasses.unsafelyUnwrapped.value(g) == 3
            } else {
                isMark = v >= 0x300 && scalar.properties.generalCategory == .nonspacingMark
            }
            if isMark { continue }
            total += Int(advances[Int(g)])
            if let p = previous { total += pairKerning.value(p, g) }
            previous = g
        }
        return total
    }

    /// The width of `text` in points at font size `size` (points per em):
    /// `unscaledWidth(of: text) * size / unitsPerEm + letterSpacing * n`, where `n` is the
    /// number of extended grapheme clusters (Swift `Character`s) in `text`. Letter spacing
    /// (in points, not ems) is added after every cluster, the last one included, as CSS
    /// `letter-spacing` and Android `Paint` (letterSpacing × size) do.
    public func width(of text: String, size: Double, letterSpacing: Double = 0) -> Double {
        let units = Double(unscaledWidth(of: text)) * size / Double(unitsPerEm)
        return letterSpacing == 0 ? units : units + letterSpacing * Double(text.count)
    }

    /// Converts font units to points at `size`.
    @inline(__always)
    public func points(_ units: Int, size: Double) -> Double {
        Double(units) * size / Double(unitsPerEm)
    }

    /// The largest font file read (512 MiB); larger files, or devices that never end, are
    /// reported as malformed rather than read into memory.
    static let maximumFileSize = 512 << 20

    static func readFile(_ path: String) throws(TesseraError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw .unreadableFont(path: path, errno: errno) }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) != 0 { throw .unreadableFont(path: path, errno: errno) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw .unreadableFont(path: path, errno: EISDIR) }
        let expected = Int(info.st_size)
        if expected > maximumFileSize {
            throw .malformedFont("font file: \(expected) bytes exceed the \(maximumFileSize)-byte limit")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(max(expected, 0) + 1)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .unreadableFont(path: path, errno: errno)
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > maximumFileSize {
                throw .malformedFont("font file: more than \(maximumFileSize) bytes")
            }
        }
        return bytes
    }
}

/// The advances and pair kerning of the 95 printable ASCII characters in font units, so
/// an ASCII run (most words of list text) is measured by table lookups: the same sum
/// `Font.unscaledWidth` computes (no default ignorables or marks among them). Immutable
/// buffers owned for the font's life.
final class PrintableASCIIMetrics: @unchecked Sendable {
    static let first: UInt8 = 0x20
    static let count = 95
    /// `(count + 1) × count`, row = left character, column = right character: the right
    /// character's advance plus the pair's kerning; the last row (no left character) is
    /// the advance alone. One load per byte.
    let pairAdvances: UnsafeMutablePointer<Int32>

    init?(characterMap: CharacterMap, advances hmtx: [UInt16], markGlyphs: [UInt64], glyphClasses: Bool, kerning pairs: PairKerning) {
        var glyphs: [UInt16] = []
        for c in 0..<Self.count {
            let g = characterMap.glyph(UInt32(Self.first) + UInt32(c))
            guard g != 0, Int(g) < hmtx.count else { return nil }
            if glyphClasses && markGlyphs[Int(g) >> 6] & (1 << UInt64(g & 63)) != 0 { return nil }
            glyphs.append(g)
        }
        pairAdvances = .allocate(capacity: (Self.count + 1) * Self.count)
        for l in 0...Self.count {
            for r in 0..<Self.count {
                let kerning = l < Self.count && pairs.mayKern(glyphs[l]) ? Int32(truncatingIfNeeded: pairs.value(glyphs[l], glyphs[r])) : 0
                (pairAdvances + l * Self.count + r).initialize(to: Int32(hmtx[Int(glyphs[r])]) &+ kerning)
            }
        }
    }

    deinit {
        pairAdvances.deallocate()
    }

    /// The width of `n` bytes at `p` in font units, or nil when a byte is not printable
    /// ASCII.
    func unscaledWidth(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int? {
        PrintableASCIITables(pairAdvances: pairAdvances, size: 0, unitsPerEm: 1, letterSpacing: 0).unscaledWidth(p, n)
    }
}
