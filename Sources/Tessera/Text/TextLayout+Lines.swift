/// Scalars whose width a line does not count at its end (Minikin's `isLineEndSpace`
/// without the newline).
@inline(__always)
func isLineEndSpace(_ v: UInt32) -> Bool {
    v == 0x20 || v == 0x1680 || (v >= 0x2000 && v <= 0x200A && v != 0x2007) || v == 0x205F || v == 0x3000
}

/// Line terminators (UAX #14 BK, CR, LF, NL): never drawn, width 0.
@inline(__always)
func isLineTerminator(_ v: UInt32) -> Bool {
    (v >= 0x0A && v <= 0x0D) || v == 0x85 || v == 0x2028 || v == 0x2029
}

extension TextLayoutEngine {
    // MARK: Segments

    /// Splits valid UTF-8 into segments and measures each (through the segment cache).
    func prepare(_ utf8: UnsafeRawBufferPointer, _ style: TextStyle) -> PreparedText {
        var segments = ContiguousArray<PreparedSegment>()
        let n = utf8.count
        guard n > 0, let base = utf8.baseAddress else { return PreparedText(segments: segments) }
        segments.reserveCapacity(n / 6 + 2)
        var breaks = LineBreakIterator(validUTF8: utf8)
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        var start = 0
        while let opportunity = breaks.next() {
            let end = opportunity.offset
            // Accept only opportunities that are grapheme cluster boundaries. Between two
            // ASCII bytes there always is one (CR LF is never an opportunity); otherwise
            // walk the clusters from the segment start, itself a boundary.
            if end < n && !(bytes[end] < 0x80 && bytes[end - 1] < 0x80) {
                var clusters = GraphemeBreakIterator(validUTF8: UnsafeRawBufferPointer(start: base + start, count: n - start))
                var boundary = 0
                while start + boundary < end { boundary = clusters.next() ?? (n - start) }
                if start + boundary != end { continue }  // inside a grapheme cluster: not a break
            }
            let m = measureSegment(base + start, end - start, style)
            let contentEnd = start + m.contentLength
            // A mandatory opportunity follows a terminator, except the end of text (LB3).
            let mandatory = opportunity.isMandatory && (end < n || endsWithTerminator(base + start, end - start))
            segments.append(PreparedSegment(end: UInt32(end), contentEnd: UInt32(contentEnd), width: m.width, whitespaceWidth: m.whitespaceWidth, isMandatory: mandatory))
            start = end
        }
        return PreparedText(segments: segments)
    }

    private func endsWithTerminator(_ p: UnsafeRawPointer, _ n: Int) -> Bool {
        let b = p.assumingMemoryBound(to: UInt8.self)
        var i = n - 1
        while i > 0 && b[i] & 0xC0 == 0x80 { i -= 1 }
        return isLineTerminator(decodeValidUTF8(b, at: i).scalar)
    }

    /// The measure of one segment (or grapheme cluster), from the segment cache or measured
    /// and stored.
    @inline(__always)
    func measureSegment(_ p: UnsafeRawPointer, _ n: Int, _ style: TextStyle) -> SegmentMeasure {
        guard segmentCache.isEnabled, n <= SegmentCache.keyCapacity else {
            if segmentCache.isEnabled { segmentCache.statistics.bypasses += 1 }
            return measureUncached(p, n, style)
        }
        let h = SegmentCache.hash(p, n, style: style.identity)
        if let hit = segmentCache.lookup(p, n, style: style.identity, hash: h) { return hit }
        let m = measureUncached(p, n, style)
        segmentCache.insert(p, n, style: style.identity, hash: h, m)
        return m
    }

    private func measureUncached(_ p: UnsafeRawPointer, _ n: Int, _ style: TextStyle) -> SegmentMeasure {
        let b = p.assumingMemoryBound(to: UInt8.self)
        // Content ends after the last scalar that is neither a line-end space nor a
        // terminator; the spaces end after the last non-terminator.
        var contentEnd = 0
        var spaceEnd = 0
        var i = 0
        while i < n {
            let (v, length) = decodeValidUTF8(b, at: i)
            i += length
            if isLineTerminator(v) { continue }
            spaceEnd = i
            if !isLineEndSpace(v) { contentEnd = i }
        }
        let content = UnsafeRawBufferPointer(start: p, count: contentEnd)
        let spaces = UnsafeRawBufferPointer(start: p + contentEnd, count: spaceEnd - contentEnd)
        return SegmentMeasure(width: runWidth(content, style), whitespaceWidth: runWidth(spaces, style), contentLength: contentEnd)
    }

    /// Sum of the face runs' widths plus letter spacing per grapheme cluster.
    private func runWidth(_ utf8: UnsafeRawBufferPointer, _ style: TextStyle) -> Double {
        guard utf8.count > 0 else { return 0 }
        var total = 0.0
        let clusters: Int
        if shaper.usesFontFallback {
            clusters = style.fontChain.itemize(utf8) { range, face in
                total += shaper.width(of: UnsafeRawBufferPointer(rebasing: utf8[range]), face: face, style: style)
            }
        } else {
            total = shaper.width(of: utf8, face: 0, style: style)
            var it = GraphemeBreakIterator(validUTF8: utf8)
            var c = 0
            while it.next() != nil { c += 1 }
            clusters = c
        }
        return style.letterSpacing == 0 ? total : total + style.letterSpacing * Double(clusters)
    }

    /// Width of the cluster `[a, b)` of `utf8` (content or space).
    @inline(__always)
    private func clusterWidth(_ base: UnsafeRawPointer, _ a: Int, _ b: Int, _ style: TextStyle) -> Double {
        let m = measureSegment(base + a, b - a, style)
        return m.width + m.whitespaceWidth
    }

    // MARK: Lines

    func breakLines(_ prepared: PreparedText, _ utf8: UnsafeRawBufferPointer, _ style: TextStyle, width: Double, maxLines: Int) -> LineResult {
        let limit = width + Self.widthTolerance
        let n = utf8.count
        var lines = ContiguousArray<TextLine>()
        lines.reserveCapacity(maxLines > 0 ? maxLines + 1 : 4)
        var lineStart = 0
        var lineWidth = 0.0
        var pendingSpace = 0.0
        var hasContent = false
        var stop = false
        let segments = prepared.segments

        @inline(__always) func close(_ end: Int) {
            lines.append(TextLine(range: lineStart..<end, width: lineWidth))
            lineStart = end
            lineWidth = 0
            pendingSpace = 0
            hasContent = false
            if maxLines > 0 && lines.count > maxLines { stop = true }
        }

        let needsEmergency = prepared.widestSegment > limit
        var segmentStart = 0
        segments.withUnsafeBufferPointer { segs in
            for seg in segs {
                if hasContent && lineWidth + pendingSpace + seg.width > limit {
                    close(segmentStart)
                    if stop { return }
                }
                if needsEmergency && !hasContent && seg.width > limit {
                    // Emergency break at grapheme clusters; each piece is a sum of clusters.
                    let base = utf8.baseAddress.unsafelyUnwrapped
                    let content = UnsafeRawBufferPointer(start: base + segmentStart, count: Int(seg.contentEnd) - segmentStart)
                    var it = GraphemeBreakIterator(validUTF8: content)
                    var a = 0
                    var piece = 0.0
                    var pieceHasCluster = false
                    while let b = it.next() {
                        let w = clusterWidth(base, segmentStart + a, segmentStart + b, style)
                        if pieceHasCluster && piece + w > limit {
                            lineWidth = piece
                            close(segmentStart + a)
                            if stop { return }
                            piece = 0
                        }
                        piece += w
                        pieceHasCluster = true
                        a = b
                    }
                    lineWidth = piece
                } else {
                    lineWidth += pendingSpace + seg.width
                }
                pendingSpace = seg.whitespaceWidth
                hasContent = true
                if seg.isMandatory {
                    close(Int(seg.end))
                    if stop { return }
                }
                segmentStart = Int(seg.end)
            }
            if hasContent || lines.isEmpty || segs.last?.isMandatory == true { close(n) }
        }
        guard maxLines > 0, lines.count > maxLines else { return LineResult(lines: lines, isTruncated: false) }
        lines.removeLast(lines.count - maxLines)
        lines[maxLines - 1] = ellipsize(lines[maxLines - 1], prepared, utf8, style, limit: limit)
        return LineResult(lines: lines, isTruncated: true)
    }

    /// The last visible line shortened (from its end, at cluster boundaries) until its
    /// visible text plus the ellipsis fits `limit`.
    private func ellipsize(_ line: TextLine, _ prepared: PreparedText, _ utf8: UnsafeRawBufferPointer, _ style: TextStyle, limit: Double) -> TextLine {
        let ellipsis: Double = Self.ellipsisUTF8.withUnsafeBytes { e in
            let m = measureSegment(e.baseAddress.unsafelyUnwrapped, e.count, style)
            return m.width + m.whitespaceWidth
        }
        let base = utf8.baseAddress
        let segs = prepared.segments
        let ls = line.range.lowerBound, le = line.range.upperBound
        // Segments overlapping the line: the first whose end is past ls.
        var lo = 0, hi = segs.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if Int(segs[mid].end) <= ls { lo = mid + 1 } else { hi = mid }
        }
        // The full-line candidate: visible up to the content end of the line's last part.
        var visibleEnd = ls
        var j = lo
        while j < segs.count {
            let s = j == 0 ? 0 : Int(segs[j - 1].end)
            if s >= le { break }
            visibleEnd = max(visibleEnd, min(Int(segs[j].contentEnd), le))
            j += 1
        }
        if line.width + ellipsis <= limit {
            return TextLine(range: ls..<visibleEnd, width: line.width + ellipsis, isEllipsized: true)
        }
        // Walk the line's clusters with the widths layout used; keep the last that fits.
        var best = (end: ls, width: ellipsis)
        guard let base else { return TextLine(range: ls..<ls, width: ellipsis, isEllipsized: true) }
        var w = 0.0
        var pending = 0.0
        j = lo
        while j < segs.count {
            let seg = segs[j]
            let s = j == 0 ? 0 : Int(segs[j - 1].end)
            if s >= le { break }
            let from = max(s, ls)
            let to = min(Int(seg.contentEnd), le)
            let split = seg.width > limit
            let segmentBase = split ? 0.0 : w + pending
            var sum = 0.0
            if from < to {
                let content = UnsafeRawBufferPointer(start: base + s, count: Int(seg.contentEnd) - s)
                var it = GraphemeBreakIterator(validUTF8: content)
                var a = 0
                while let b = it.next(), s + a < to {
                    if s + a >= from {
                        sum += clusterWidth(base, s + a, s + b, style)
                        let fullSegment = !split && s + b == Int(seg.contentEnd)
                        let candidate = fullSegment ? segmentBase + seg.width : segmentBase + sum
                        if candidate + ellipsis <= limit { best = (s + b, candidate + ellipsis) }
                    }
                    a = b
                }
            }
            w = split ? sum : segmentBase + seg.width
            pending = seg.whitespaceWidth
            j += 1
        }
        return TextLine(range: ls..<best.end, width: best.width, isEllipsized: true)
    }

    static let ellipsisUTF8: [UInt8] = Array(ellipsis.utf8)
}
