/// What text is measured with: a font chain, a size, a line height and letter spacing,
/// validated at creation.
///
/// `identity` names the widths this style produces (chain, size, letter spacing) in every
/// cache key. It is assigned from a process-wide counter when the style is created and never
/// reused, so create a style once and reuse it: two separately created styles with the same
/// values are different cache keys (correct, just not shared). Copies share the identity.
/// A style with only a different `lineHeight` (`withLineHeight(_:)`) keeps the identity,
/// since line height changes no width or break.
public struct TextStyle: Sendable {
    public let fontChain: FontChain
    /// Font size in points (points per em).
    public let size: Double
    /// Height of one line in points.
    public let lineHeight: Double
    /// Points added after every grapheme cluster (line terminators excepted), as
    /// `Font.width(of:size:letterSpacing:)` documents. May be negative.
    public let letterSpacing: Double
    /// Stable cache identity of (font chain, size, letter spacing).
    public let identity: UInt64

    /// - Parameters:
    ///   - lineHeight: explicit line height in points; nil takes it from the primary font:
    ///     `(ascender − descender + lineGap) × size / unitsPerEm`.
    /// - Throws: `invalidFontSize` (NaN, infinite, ≤ 0), `invalidLineHeight` (explicit NaN,
    ///   infinite, ≤ 0, or a derived one that is not positive), `invalidLetterSpacing`
    ///   (NaN, infinite).
    public init(fontChain: FontChain, size: Double, lineHeight: Double? = nil, letterSpacing: Double = 0) throws(TesseraError) {
        guard size.isFinite, size > 0 else { throw .invalidFontSize(size) }
        guard letterSpacing.isFinite else { throw .invalidLetterSpacing(letterSpacing) }
        let primary = fontChain.fonts[0]
        let height = lineHeight ?? Double(primary.metrics.lineHeight) * size / Double(primary.unitsPerEm)
        guard height.isFinite, height > 0 else { throw .invalidLineHeight(height) }
        self.fontChain = fontChain
        self.size = size
        self.lineHeight = height
        self.letterSpacing = letterSpacing
        self.identity = nextTextIdentity()
    }

    /// A style over a new chain of `fonts` (primary first).
    /// - Throws: `emptyFontChain` and the errors of `init(fontChain:size:lineHeight:letterSpacing:)`.
    public init(fonts: [Font], size: Double, lineHeight: Double? = nil, letterSpacing: Double = 0) throws(TesseraError) {
        try self.init(fontChain: try FontChain(fonts), size: size, lineHeight: lineHeight, letterSpacing: letterSpacing)
    }

    private init(copying other: TextStyle, lineHeight: Double) {
        fontChain = other.fontChain
        size = other.size
        self.lineHeight = lineHeight
        letterSpacing = other.letterSpacing
        identity = other.identity
    }

    /// The same style (same identity, so the same cache entries) with another line height.
    /// - Throws: `invalidLineHeight` when `lineHeight` is NaN, infinite or ≤ 0.
    public func withLineHeight(_ lineHeight: Double) throws(TesseraError) -> TextStyle {
        guard lineHeight.isFinite, lineHeight > 0 else { throw .invalidLineHeight(lineHeight) }
        return TextStyle(copying: self, lineHeight: lineHeight)
    }
}
