/// One laid-out line.
public struct TextLine: Sendable, Equatable, CustomStringConvertible {
    /// UTF-8 byte offsets of the line: from its first byte to the next line's first byte
    /// (trailing spaces and the line terminator included). For an ellipsized last line, the
    /// visible range only (without trailing whitespace; the ellipsis follows it).
    public var range: Range<Int>
    /// Width in points without trailing whitespace; for an ellipsized line, the visible
    /// text plus the ellipsis.
    public var width: Double
    /// The line was shortened and ends in "…" (U+2026).
    public var isEllipsized: Bool

    public init(range: Range<Int>, width: Double, isEllipsized: Bool = false) {
        self.range = range
        self.width = width
        self.isEllipsized = isEllipsized
    }

    public var description: String { "\(range.lowerBound)..<\(range.upperBound) \(width)\(isEllipsized ? " …" : "")" }
}

/// The size of a laid-out text (a plain value, for caller-provided result buffers).
public struct TextMetrics: Sendable, Equatable, CustomStringConvertible {
    /// Number of lines (≥ 1: empty text is one empty line, as Android's StaticLayout).
    public var lineCount: Int
    /// `lineCount × style.lineHeight`, points.
    public var height: Double
    /// The widest line, points (trailing whitespace excluded, ellipsis included).
    public var width: Double
    /// The text needed more than `maxLines` lines and was cut.
    public var isTruncated: Bool

    public init(lineCount: Int = 0, height: Double = 0, width: Double = 0, isTruncated: Bool = false) {
        self.lineCount = lineCount
        self.height = height
        self.width = width
        self.isTruncated = isTruncated
    }

    public var description: String { "\(lineCount) lines, \(height) × \(width) pt\(isTruncated ? ", truncated" : "")" }
}

/// The result of `TextLayoutEngine.measure`: metrics, and the lines when requested.
public struct TextMeasurement: Sendable, Equatable {
    public var metrics: TextMetrics
    /// The lines, when `includeLines` was true; empty otherwise.
    public var lines: [TextLine]

    public var lineCount: Int { metrics.lineCount }
    public var height: Double { metrics.height }
    public var width: Double { metrics.width }
    public var isTruncated: Bool { metrics.isTruncated }
}

/// Statistics of the three caches of a `TextLayoutEngine`.
public struct TextLayoutStatistics: Sendable, Equatable, CustomStringConvertible {
    /// (style, segment bytes) → widths.
    public var segments: CacheStatistics
    /// (text, style) → segment list.
    public var preparedTexts: CacheStatistics
    /// (text, style, width, max lines) → lines.
    public var lineBreaks: CacheStatistics

    public var description: String {
        "segments: \(segments)\nprepared texts: \(preparedTexts)\nline breaks: \(lineBreaks)"
    }
}
