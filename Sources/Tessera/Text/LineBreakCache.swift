/// A text's identity in cache keys: two independent 64-bit hashes of its UTF-8 bytes (so a
/// collision needs 128 bits to agree), the style identity and the length.
struct TextKey: RecordCacheKey {
    var hash1: UInt64
    var hash2: UInt64
    var style: UInt64
    var length: UInt64

    init(_ utf8: UnsafeRawBufferPointer, style: UInt64) {
        let n = utf8.count
        var h1: UInt64 = 0x243F_6A88_85A3_08D3 ^ (UInt64(truncatingIfNeeded: n) &* 0x9E37_79B9_7F4A_7C15)
        var h2: UInt64 = 0x1319_8A2E_0370_7344 ^ (UInt64(truncatingIfNeeded: n) &* 0xC2B2_AE3D_27D4_EB4F)
        if let p = utf8.baseAddress {
            // Both hashes in one pass over the words: multiply-xorshift rounds with two
            // multipliers, then the splitmix64 finaliser.
            var i = 0
            while i + 8 <= n {
                let w = p.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                h1 = (h1 ^ w) &* 0xBF58_476D_1CE4_E5B9
                h2 = (h2 ^ w) &* 0x94D0_49BB_1331_11EB
                h1 ^= h1 >> 29
                h2 ^= h2 >> 31
                i += 8
            }
            if i < n {
                // The last 1–7 bytes: from the final eight when the text has them (shifting
                // out the bytes already hashed), else byte by byte.
                var w: UInt64 = 0
                if n >= 8 {
                    w = p.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self) >> UInt64(8 * (8 - (n - i)))
                } else {
                    var shift: UInt64 = 0
                    while i < n {
                        w |= UInt64(p.load(fromByteOffset: i, as: UInt8.self)) << shift
                        shift += 8
                        i += 1
                    }
                }
                h1 = (h1 ^ w) &* 0xBF58_476D_1CE4_E5B9
                h2 = (h2 ^ w) &* 0x94D0_49BB_1331_11EB
            }
        }
        hash1 = mix64(h1)
        hash2 = mix64(h2 ^ (h2 >> 33))
        self.style = style
        length = UInt64(n)
    }

    @inline(__always) var cacheHash: UInt64 { hash1 ^ (style &* 0x9E37_79B9_7F4A_7C15) }
}

/// A text, a style, a width and a line limit (normalised: a limit no text of this length
/// can reach is 0, unlimited).
struct LineKey: RecordCacheKey {
    var text: TextKey
    var widthBits: UInt64
    var maxLines: UInt64

    init(text: TextKey, width: Double, maxLines: Int) {
        self.text = text
        widthBits = width.bitPattern
        // A text of n bytes has at most n + 1 lines.
        self.maxLines = UInt64(maxLines) > text.length ? 0 : UInt64(maxLines)
    }

    @inline(__always) var cacheHash: UInt64 {
        mix64(text.hash1 ^ (text.style &* 0x9E37_79B9_7F4A_7C15) ^ (widthBits &* 0xBF58_476D_1CE4_E5B9) ^ (maxLines &* 0x94D0_49BB_1331_11EB))
    }
}

/// One segment of a prepared text (a span between two accepted line-break opportunities),
/// 12 bytes. Widths are single precision, rounded where they are measured, so a result is
/// the same whether it came from a cache or not.
struct PreparedSegment {
    /// Width without trailing whitespace.
    var width: Float
    /// Width of the trailing spaces.
    var whitespaceWidth: Float
    /// End offset (exclusive; the next segment starts here), and in the top bit whether it
    /// ends in a line terminator (a mandatory break after it).
    var endAndMandatory: UInt32

    static let mandatoryBit: UInt32 = 1 << 31

    init(end: Int, width: Float, whitespaceWidth: Float, isMandatory: Bool) {
        self.width = width
        self.whitespaceWidth = whitespaceWidth
        endAndMandatory = UInt32(end) | (isMandatory ? Self.mandatoryBit : 0)
    }

    @inline(__always) var end: Int { Int(endAndMandatory & ~Self.mandatoryBit) }
    @inline(__always) var isMandatory: Bool { endAndMandatory & Self.mandatoryBit != 0 }
}

/// The width-independent form of a text in a style: its segments in order, read in place
/// from a prepared-text record (`[UInt32 count][Float widest][segments]`) or the engine's
/// scratch. Re-laying out at another width walks this list only (plus grapheme widths for
/// words wider than the line and for an ellipsized last line).
struct PreparedTextView {
    let segments: UnsafeBufferPointer<PreparedSegment>
    /// For each segment wider than `clusterThreshold`, in order: a count entry, then that
    /// many (end offset within the segment, width) of its content's grapheme clusters, so
    /// an emergency break is arithmetic too. Empty with an infinite threshold otherwise.
    var clusters = UnsafeBufferPointer<PreparedCluster>(start: nil, count: 0)
    var clusterThreshold = Double.infinity
    /// The segments' line positions (`TextLayoutEngine.linePositions`) when kept with them,
    /// and whether any segment ends in a mandatory break; nil when the fill computes them.
    var positions: (x: UnsafePointer<Double>, hasMandatoryBreak: Bool)? = nil
    /// The widest segment without trailing whitespace: a width at or above it never needs
    /// an emergency break.
    let widestSegment: Double

    static let headerBytes = 8

    init(record: UnsafeRawPointer) {
        let count = Int(record.load(as: UInt32.self))
        widestSegment = Double(record.load(fromByteOffset: 4, as: Float.self))
        segments = UnsafeBufferPointer(start: (record + Self.headerBytes).assumingMemoryBound(to: PreparedSegment.self), count: count)
    }

    init(segments: UnsafeBufferPointer<PreparedSegment>, widest: Float) {
        self.segments = segments
        widestSegment = Double(widest)
    }

    static func recordBytes(segments: Int) -> Int { headerBytes + segments * MemoryLayout<PreparedSegment>.stride }

    /// Writes the record form of `segments` to `record`.
    static func write(_ segments: UnsafeBufferPointer<PreparedSegment>, widest: Float, to record: UnsafeMutableRawPointer) {
        record.storeBytes(of: UInt32(segments.count), as: UInt32.self)
        record.storeBytes(of: widest, toByteOffset: 4, as: Float.self)
        if let base = segments.baseAddress {
            (record + headerBytes).copyMemory(from: base, byteCount: segments.count * MemoryLayout<PreparedSegment>.stride)
        }
    }
}

/// One grapheme cluster of a wide segment (or, as a group's first entry, the count).
struct PreparedCluster {
    var end: UInt32
    var width: Double
}

/// A line-break record: `[UInt32 line count][UInt32 truncated][Double widest]` then per
/// line `[UInt32 start][UInt32 end][Double width]`; only a truncated result's last line is
/// ellipsized.
enum LineRecord {
    static let headerBytes = 16
    static let lineBytes = 16

    static func bytes(lines: Int) -> Int { headerBytes + lines * lineBytes }

    static func write(_ lines: UnsafeBufferPointer<TextLine>, isTruncated: Bool, widest: Double, to record: UnsafeMutableRawPointer) {
        record.storeBytes(of: UInt32(lines.count), as: UInt32.self)
        record.storeBytes(of: isTruncated ? 1 : 0, toByteOffset: 4, as: UInt32.self)
        record.storeBytes(of: widest, toByteOffset: 8, as: Double.self)
        for (i, line) in lines.enumerated() {
            let p = record + headerBytes + i * lineBytes
            p.storeBytes(of: UInt32(line.range.lowerBound), as: UInt32.self)
            p.storeBytes(of: UInt32(line.range.upperBound), toByteOffset: 4, as: UInt32.self)
            p.storeBytes(of: line.width, toByteOffset: 8, as: Double.self)
        }
    }

    @inline(__always)
    static func metrics(_ record: UnsafeRawPointer, lineHeight: Double) -> TextMetrics {
        let count = Int(record.load(as: UInt32.self))
        return TextMetrics(lineCount: count, height: Double(count) * lineHeight,
                           width: record.load(fromByteOffset: 8, as: Double.self),
                           isTruncated: record.load(fromByteOffset: 4, as: UInt32.self) != 0)
    }

    static func lines(_ record: UnsafeRawPointer) -> [TextLine] {
        let count = Int(record.load(as: UInt32.self))
        let truncated = record.load(fromByteOffset: 4, as: UInt32.self) != 0
        return (0..<count).map { i in
            let p = record + headerBytes + i * lineBytes
            let lo = Int(p.load(as: UInt32.self)), hi = Int(p.load(fromByteOffset: 4, as: UInt32.self))
            return TextLine(range: lo..<hi, width: p.load(fromByteOffset: 8, as: Double.self), isEllipsized: truncated && i == count - 1)
        }
    }
}
