import Synchronization

/// Process-wide counter for the identities of font chains and text styles. Identities are
/// never reused, so a cache key that names one can never be confused with a later object
/// allocated at the same address.
let textIdentityCounter = Atomic<UInt64>(1)

@inline(__always)
func nextTextIdentity() -> UInt64 {
    textIdentityCounter.wrappingAdd(1, ordering: .relaxed).oldValue
}

/// A primary font and its fallbacks, in order.
///
/// **Fallback rule** (Minikin's, simplified): each code point is measured with the first
/// face of the chain that maps it; a code point no face maps is measured with the primary
/// face (its `.notdef` glyph). Within an extended grapheme cluster, the code points after
/// the first stay in the face chosen for the first one when that face maps them (so a base
/// letter and its combining marks, or an emoji ZWJ sequence, stay together); otherwise that
/// code point alone falls back by the rule above. Default-ignorable code points (ZWJ,
/// variation selectors, ...) never start a new run: they stay in the current face. A text
/// is itemized into maximal runs of one face; runs are measured independently, so there is
/// no kerning across a face change.
public final class FontChain: Sendable {
    /// The faces, primary first. Never empty.
    public let fonts: [Font]
    /// A process-unique identity (never reused).
    public let identity: UInt64
    /// `fonts[0]`, its printable-ASCII tables (`PrintableASCIIMetrics.pairAdvances`, nil when
    /// it has none) and units per em, read by measurements through a borrowed style without
    /// retaining the face (`fonts` keeps it alive).
    unowned(unsafe) let primary: Font
    nonisolated(unsafe) let primaryPairAdvances: UnsafeMutablePointer<Int32>?
    let primaryUnitsPerEm: Double

    /// - Throws: `TesseraError.emptyFontChain` when `fonts` is empty.
    public init(_ fonts: [Font]) throws(TesseraError) {
        guard !fonts.isEmpty else { throw .emptyFontChain }
        self.fonts = fonts
        self.identity = nextTextIdentity()
        primary = fonts[0]
        primaryPairAdvances = fonts[0].printableASCII?.pairAdvances
        primaryUnitsPerEm = Double(fonts[0].unitsPerEm)
    }

    /// The index of the first face that maps `scalar`, or 0 (the primary face) when none does.
    public func faceIndex(for scalar: Unicode.Scalar) -> Int {
        faceIndex(forValue: scalar.value)
    }

    @inline(__always)
    func faceIndex(forValue v: UInt32) -> Int {
        for (i, font) in fonts.enumerated() where font.characterMap.glyph(v) != 0 { return i }
        return 0
    }

    /// The runs of one face in `text`: `(range of UTF-8 byte offsets, face index)`, in order,
    /// by the fallback rule above.
    public func runs(in text: String) -> [(range: Range<Int>, face: Int)] {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { buffer in
            var result: [(range: Range<Int>, face: Int)] = []
            itemize(UnsafeRawBufferPointer(buffer)) { range, face in result.append((range, face)) }
            return result
        }
    }

    /// Calls `body` with each run of one face in valid UTF-8 `utf8` (which must start at a
    /// grapheme cluster boundary), and returns the number of grapheme clusters.
    @discardableResult
    func itemize(_ utf8: UnsafeRawBufferPointer, _ body: (Range<Int>, Int) -> Void) -> Int {
        let n = utf8.count
        guard n > 0, let base = utf8.baseAddress else { return 0 }
        let p = base.assumingMemoryBound(to: UInt8.self)
        // Most scalars are in the primary face: ask its map first, held once here rather
        // than through the array (whose elements would be retained and released per scalar).
        let primary = fonts[0].characterMap
        var clusters = GraphemeBreakIterator(validUTF8: utf8)
        var clusterEnd = 0
        var clusterCount = 0
        var clusterFace = 0
        var runFace = -1
        var runStart = 0
        var i = 0
        while i < n {
            let (v, length) = decodeValidUTF8(p, at: i)
            let face: Int
            let ignorable = isDefaultIgnorable(v)
            if i >= clusterEnd {
                // First scalar of a cluster.
                clusterEnd = clusters.next() ?? n
                clusterCount += 1
                if ignorable && runFace >= 0 {
                    face = runFace
                } else {
                    face = primary.glyph(v) != 0 ? 0 : faceIndex(forValue: v)
                }
                clusterFace = face
            } else if ignorable || (clusterFace == 0 ? primary.glyph(v) : fonts[clusterFace].characterMap.glyph(v)) != 0 {
                face = clusterFace
            } else {
                face = faceIndex(forValue: v)
            }
            if face != runFace {
                if runFace >= 0 { body(runStart..<i, runFace) }
                runFace = face
                runStart = i
            }
            i += length
        }
        body(runStart..<n, runFace)
        return clusterCount
    }
}

/// Default_Ignorable_Code_Point, as `Font.unscaledWidth` skips it: the standard library's
/// ranges written out, since its property lookup costs hundreds of instructions a scalar
/// (a test holds the two equal over every scalar).
@inline(__always)
func isDefaultIgnorable(_ v: UInt32) -> Bool {
    if v < 0xAD { return false }
    switch v {
    case 0xAD, 0x34F, 0x61C, 0x115F...0x1160, 0x17B4...0x17B5, 0x180B...0x180F, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x206F,
         0x3164, 0xFE00...0xFE0F, 0xFEFF, 0xFFA0, 0xFFF0...0xFFF8, 0x1BCA0...0x1BCA3, 0x1D173...0x1D17A, 0xE0000...0xE0FFF:
        return true
    default:
        return false
    }
}

extension Font {
    /// `unscaledWidth(of:)` over valid UTF-8, with exactly the same rules (advances, marks,
    /// default ignorables, pair kerning), without creating a String.
    func unscaledWidth(validUTF8 utf8: UnsafeRawBufferPointer) -> Int {
        measure(validUTF8: utf8, requireMapped: false).unsafelyUnwrapped
    }

    /// `unscaledWidth(validUTF8:)` when this face maps every scalar that is not default
    /// ignorable (so a chain would measure the whole run with it); nil otherwise.
    func unscaledWidthInThisFace(validUTF8 utf8: UnsafeRawBufferPointer) -> Int? {
        measure(validUTF8: utf8, requireMapped: true)
    }

    @inline(__always)
    private func measure(validUTF8 utf8: UnsafeRawBufferPointer, requireMapped: Bool) -> Int? {
        let n = utf8.count
        guard n > 0, let base = utf8.baseAddress else { return 0 }
        let p = base.assumingMemoryBound(to: UInt8.self)
        var total = 0
        var previous: UInt16? = nil
        let hasGDEF = glyphClasses != nil
        var i = 0
        while i < n {
            let (v, length) = decodeValidUTF8(p, at: i)
            i += length
            if isDefaultIgnorable(v) { continue }
            let g = characterMap.glyph(v)
            if requireMapped && g == 0 { return nil }
            let isMark: Bool
            if hasGDEF {
                isMark = markGlyphs[Int(g) >> 6] & (1 << UInt64(g & 63)) != 0
            } else {
                isMark = v >= 0x300 && Unicode.Scalar(v).unsafelyUnwrapped.properties.generalCategory == .nonspacingMark
            }
            if isMark { continue }
            total += Int(advances[Int(g)])
            if let q = previous, pairKerning.mayKern(q) { total += kerningMemo.value(q, g, pairKerning) }
            previous = g
        }
        return total
    }
}
