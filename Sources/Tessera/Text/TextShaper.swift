/// Measures one run of text in one face: valid UTF-8, a face of the style's chain, a size.
///
/// The engine calls a shaper once per run of one face inside a *segment* (the span between
/// two line-break opportunities: a word and its trailing spaces), never across segments.
/// Segments are measured independently, as Minikin's word cache does, so the pair kerning
/// between the last glyph of a word and the space after it, or between a space and the next
/// word, is not applied. Against whole-line shaping this differs by that pair adjustment
/// (0 for most fonts, whose kerning tables rarely pair the space glyph; a fraction of a point
/// at worst). Letter spacing is added by the engine, not by the shaper.
///
/// Implementations must be safe to call from several threads at once when the engine's
/// parallel bulk form is used (each thread then calls it concurrently).
public protocol TextShaper: AnyObject, Sendable {
    /// Whether the engine splits segments into runs by the style's fallback rule (see
    /// `FontChain`) and passes each run's face index (true), or hands whole segments with
    /// face index 0 and leaves fallback to the shaper (false).
    var usesFontFallback: Bool { get }

    /// The advance width in points of `utf8` (valid UTF-8, never empty) set in face `face`
    /// of `style.fontChain` at `style.size`, without letter spacing.
    func width(of utf8: UnsafeRawBufferPointer, face: Int, style: TextStyle) -> Double
}

/// The built-in shaper over `Font`: advances plus pair kerning within the run, marks with
/// zero advance, default ignorables invisible — exactly `Font.width(of:size:)` of the run.
public final class FontShaper: TextShaper {
    public init() {}

    public var usesFontFallback: Bool { true }

    public func width(of utf8: UnsafeRawBufferPointer, face: Int, style: TextStyle) -> Double {
        let font = style.fontChain.fonts[face]
        return Double(font.unscaledWidth(validUTF8: utf8)) * style.size / Double(font.unitsPerEm)
    }
}

/// A shaper that asks the host: a closure, or a C function pointer with a context, as a
/// platform measurer (Android's `Paint.measureText`) is plugged in through the C ABI.
///
/// The callback receives the run's UTF-8 bytes, the face index within the style's chain
/// (always 0 unless `usesFontFallback` is true) and the size in points, and returns the
/// width in points. It must be deterministic for the same input (results are cached) and,
/// with the parallel bulk form, safe to call from several threads.
public final class HostCallbackShaper: TextShaper, @unchecked Sendable {
    public typealias Callback = @Sendable (_ utf8: UnsafeRawBufferPointer, _ faceIndex: Int, _ size: Double) -> Double
    /// `(utf8, byteCount, faceIndex, size, context) -> width`.
    public typealias CFunction = @convention(c) (UnsafeRawPointer?, Int, Int, Double, UnsafeMutableRawPointer?) -> Double

    private let callback: Callback?
    private let function: CFunction?
    private let context: UnsafeMutableRawPointer?
    public let usesFontFallback: Bool

    public init(usesFontFallback: Bool = false, _ callback: @escaping Callback) {
        self.callback = callback
        self.function = nil
        self.context = nil
        self.usesFontFallback = usesFontFallback
    }

    /// `context` is passed back untouched; the caller keeps it alive while the shaper is used.
    public init(usesFontFallback: Bool = false, function: CFunction, context: UnsafeMutableRawPointer?) {
        self.callback = nil
        self.function = function
        self.context = context
        self.usesFontFallback = usesFontFallback
    }

    public func width(of utf8: UnsafeRawBufferPointer, face: Int, style: TextStyle) -> Double {
        if let callback { return callback(utf8, face, style.size) }
        return function.unsafelyUnwrapped(utf8.baseAddress, utf8.count, face, style.size, context)
    }
}
