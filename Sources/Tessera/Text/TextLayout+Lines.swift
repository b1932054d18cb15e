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

    /// Splits valid UTF-8 into segments and measures each (through the segment cache),
    /// into the segment scratch buffer; returns the widest segment.
    func prepare(_ utf8: UnsafeRawBufferPointer, _ style: TextStyle) -> Float {
        let n = utf8.count
        guard n > 0, let base = utf8.baseAddress else {
            caches.pointee.segments.removeAll()
            caches.pointee.preparedFromASCIITables = false
            return 0
        }
        var breaks = LineBreakIterator(validUTF8: utf8)
        let graphemes = graphemePropertyTable
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        // A segment holds at least one byte, so `n` bounds both lists.
        let segments = caches.pointee.segments.prepareForWriting(capacity: n)
        let pending = caches.pointee.pendingSegments.prepareForWriting(capacity: n)
        var count = 0, pendingCount = 0
        var start = 0
        var widest: Float = 0
        let tables = printableASCIITables(style)
        breaks.forEach { opportunity in
            let end = opportunity.offset
            // Accept only opportunities that are grapheme cluster boundaries. Between two
            // ASCII bytes there always is one (CR LF is never an opportunity); otherwise
            // walk the clusters from the segment start, itself a boundary.
            if end < n && !(bytes[end] < 0x80 && bytes[end - 1] < 0x80) && !isCertainGraphemeBoundary(bytes, end, graphemes) {
                var clusters = GraphemeBreakIterator(validUTF8: UnsafeRawBufferPointer(start: base + start, count: n - start))
                var boundary = 0
                while start + boundary < end { boundary = clusters.next() ?? (n - start) }
                if start + boundary != end { return }  // inside a grapheme cluster: not a break
            }
            // A mandatory opportunity follows a terminator, except the end of text (LB3).
            let mandatory = opportunity.isMandatory && (end < n || endsWithTerminator(base + start, end - start))
            // Printable ASCII segments are measured from tables right away, while their
            // bytes are in cache; the others wait for the segment cache (NaN width).
            var segment = PreparedSegment(end: end, width: .nan, whitespaceWidth: 0, isMandatory: mandatory)
            if let tables, let m = tables.measure(bytes + start, end - start) {
                segment.width = m.width
                segment.whitespaceWidth = m.whitespaceWidth
                widest = max(widest, m.width)
            } else {
                pending[pendingCount] = Int32(count)
                pendingCount += 1
            }
            (segments + count).initialize(to: segment)
            count += 1
            start = end
        }
        caches.pointee.segments.finishWriting(count: count)
        caches.pointee.preparedFromASCIITables = pendingCount == 0 && tables != nil
        guard pendingCount > 0 else { return widest }
        // Measure the others once every boundary is known, so the segment cache's memory is
        // fetched for all of them at once (index entries, then their slots) rather than one
        // miss after another.
        @inline(__always) func bounds(_ k: Int) -> (start: Int, length: Int) {
            let i = Int(pending[k])
            let start = i > 0 ? segments[i - 1].end : 0
            return (start, segments[i].end - start)
        }
        if segmentCache.isEnabled {
            let hashes = caches.pointee.hashes.prepareForWriting(capacity: pendingCount)
            for k in 0..<pendingCount {
                let (start, length) = bounds(k)
                let h = length <= SegmentCache.keyCapacity ? SegmentCache.hash(base + start, length, style: style.identity) : 0
                hashes[k] = h
                segmentCache.prefetchIndex(h)
            }
            for k in 0..<pendingCount { segmentCache.prefetchSlot(hashes[k]) }
            for k in 0..<pendingCount {
                let (start, length) = bounds(k)
                let m = measureSegment(base + start, length, style, hash: hashes[k])
                setWidths(&segments[Int(pending[k])], m, &widest)
            }
        } else {
            for k in 0..<pendingCount {
                let (start, length) = bounds(k)
                setWidths(&segments[Int(pending[k])], measureSegment(base + start, length, style), &widest)
            }
        }
        return widest
    }

    @inline(__always)
    private func setWidths(_ segment: inout PreparedSegment, _ m: SegmentMeasure, _ widest: inout Float) {
        segment.width = Float(m.width)
        segment.whitespaceWidth = Float(m.whitespaceWidth)
        widest = max(widest, segment.width)
    }

    /// Whether `end` (inside valid UTF-8) is a grapheme cluster boundary by the pair of
    /// scalars around it alone: before an Other scalar that is not pictographic (GB999
    /// unless GB9b's Prepend precedes it), or before a control other than CR LF (GB5).
    /// False means "walk the clusters to know".
    @inline(__always)
    private func isCertainGraphemeBoundary(_ b: UnsafePointer<UInt8>, _ end: Int, _ table: UnicodePropertyTable) -> Bool {
        let after = table.value(decodeValidUTF8(b, at: end).scalar)
        var j = end - 1
        while j > 0 && b[j] & 0xC0 == 0x80 { j -= 1 }
        let before = GraphemeBreakProperty(rawValue: table.value(decodeValidUTF8(b, at: j).scalar) & 0x0F)
        switch GraphemeBreakProperty(rawValue: after & 0x0F) {
        case .other: return after & 0x80 == 0 && before != .prepend
        case .control, .lf, .cr: return before != .cr
        default: return false
        }
    }

    /// Where the trailing whitespace and line terminators of the segment `[start, end)`
    /// begin (the end of its last other scalar, or `start`).
    func contentEnd(_ base: UnsafeRawPointer, _ start: Int, _ end: Int) -> Int {
        let b = base.assumingMemoryBound(to: UInt8.self)
        var i = end
        while i > start {
            var j = i - 1
            while j > start && b[j] & 0xC0 == 0x80 { j -= 1 }
            let v = decodeValidUTF8(b, at: j).scalar
            if !isLineTerminator(v) && !isLineEndSpace(v) { return i }
            i = j
        }
        return start
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
        return measureSegment(p, n, style, hash: SegmentCache.hash(p, n, style: style.identity))
    }

    /// A segment of printable ASCII in the built-in shaper, from the primary face's ASCII
    /// tables: cheaper than a segment-cache lookup, so such segments skip the cache. The same widths `measureUncached` gives (one face-0 run each for
    /// the content and the trailing spaces); nil for any other segment.
    @inline(__always)
    func measurePrintableASCII(_ b: UnsafePointer<UInt8>, _ n: Int, _ style: TextStyle) -> SegmentMeasure? {
        printableASCIITables(style)?.measure(b, n).map { SegmentMeasure(width: Double($0.width), whitespaceWidth: Double($0.whitespaceWidth), contentLength: $0.contentLength) }
    }

    /// The primary face's ASCII tables when the style can use them (the built-in shaper, a
    /// face mapping all printable ASCII), else nil; valid while the style's font chain lives.
    @inline(__always)
    func printableASCIITables(_ style: TextStyle) -> PrintableASCIITables? {
        let chain = style.fontChain
        guard usesBuiltInShaper, let pairAdvances = chain.primaryPairAdvances else { return nil }
        return PrintableASCIITables(pairAdvances: pairAdvances, size: style.size, unitsPerEm: chain.primaryUnitsPerEm, letterSpacing: style.letterSpacing)
    }

    /// `measureSegment` with the segment's hash already computed (any value when the
    /// segment is longer than the key capacity).
    @inline(__always)
    func measureSegment(_ p: UnsafeRawPointer, _ n: Int, _ style: TextStyle, hash h: UInt64) -> SegmentMeasure {
        if let m = measurePrintableASCII(p.assumingMemoryBound(to: UInt8.self), n, style) { return m }
        guard segmentCache.isEnabled, n <= SegmentCache.keyCapacity else {
            if segmentCache.isEnabled { segmentCache.statistics.bypasses += 1 }
            return measureUncached(p, n, style)
        }
        if let hit = segmentCache.lookup(p, n, style: style.identity, hash: h) { return hit }
        let m = measureUncached(p, n, style)
        segmentCache.insert(p, n, style: style.identity, hash: h, m)
        return m
    }

    func measureUncached(_ p: UnsafeRawPointer, _ n: Int, _ style: TextStyle) -> SegmentMeasure {
        let b = p.assumingMemoryBound(to: UInt8.self)
        if let m = measurePrintableASCII(b, n, style) { return m }
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
        // Single precision, as prepared texts keep them: cached or not, the same sums.
        return SegmentMeasure(width: Double(Float(runWidth(content, style))), whitespaceWidth: Double(Float(runWidth(spaces, style))), contentLength: contentEnd)
    }

    /// Sum of the face runs' widths plus letter spacing per grapheme cluster.
    private func runWidth(_ utf8: UnsafeRawBufferPointer, _ style: TextStyle) -> Double {
        guard utf8.count > 0 else { return 0 }
        if usesBuiltInShaper && style.letterSpacing == 0 {
            // Every scalar in the primary face (most runs): one run of face 0, which is what
            // itemizing would find, measured in one pass without it.
            if let units = style.fontChain.primary.unscaledWidthInThisFace(validUTF8: utf8) {
                return Double(units) * style.size / style.fontChain.primaryUnitsPerEm
            }
        }
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

    /// The widths of the clusters `simpleCluster` indexes in `style` (NaN: not measured
    /// yet), or nil without a segment cache: a table of the segment cache's answers, kept
    /// for the last few styles used (the clusters of URLs, codes and long Latin words that
    /// need emergency breaks; a font-scale change breaks texts in their old and new styles).
    @inline(__always)
    func simpleClusterWidths(_ style: TextStyle) -> UnsafeMutablePointer<Double>? { simpleClusterWidths(identity: style.identity) }

    /// `simpleClusterWidths` of the style of `identity`.
    @inline(__always)
    func simpleClusterWidths(identity: UInt64) -> UnsafeMutablePointer<Double>? {
        guard segmentCache.isEnabled else { return nil }
        let c = caches, size = Caches.simpleClusters
        for i in 0..<Caches.clusterTables where c.pointee.clusterStyles[i] == identity { return c.pointee.clusterWidths + size * i }
        let i = c.pointee.clusterNext
        c.pointee.clusterNext = (i + 1) % Caches.clusterTables
        c.pointee.clusterStyles[i] = identity
        (c.pointee.clusterWidths + size * i).update(repeating: .nan, count: size)
        return c.pointee.clusterWidths + size * i
    }

    /// Width of the cluster `[a, b)` of `utf8` (content or space).
    @inline(__always)
    func clusterWidth(_ base: UnsafeRawPointer, _ a: Int, _ b: Int, _ style: TextStyle) -> Double {
        let byte = base.load(fromByteOffset: a, as: UInt8.self)
        if b - a == 1 && byte < 0x80, let widths = simpleClusterWidths(style) {
            if !widths[Int(byte)].isNaN { return widths[Int(byte)] }
            return withUnsafePointer(to: style) { simpleClusterWidth(widths, Int(byte), base, a, 1, $0) }
        }
        let m = measureSegment(base + a, b - a, style)
        return m.width + m.whitespaceWidth
    }

    /// Whether every scalar of `bytes` is printable ASCII or in U+00A0...U+017F (Latin-1
    /// letters and signs, Latin Extended-A) other than the soft hyphen: none of them has a
    /// Grapheme_Cluster_Break value other than Other, so each is a cluster of its own.
    @inline(__always)
    static func isSimpleLatin(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var k = 0
        while k < bytes.count {
            let lead = bytes[k]
            if lead >= 0x20 && lead <= 0x7E {
                k &+= 1
                continue
            }
            guard lead >= 0xC2 && lead <= 0xC5, k &+ 1 < bytes.count, bytes[k &+ 1] & 0xC0 == 0x80 else { return false }
            let scalar = Int(lead & 0x1F) << 6 | Int(bytes[k &+ 1] & 0x3F)
            guard scalar >= 0xA0 && scalar != 0xAD else { return false }
            k &+= 2
        }
        return true
    }

    /// The cluster of a simple Latin text (`isSimpleLatin`) at `k`: its entry in the
    /// cluster width table and its length in bytes.
    @inline(__always)
    static func simpleCluster(_ b: UnsafePointer<UInt8>, _ k: Int) -> (index: Int, length: Int) {
        let lead = b[k]
        if lead < 0x80 { return (Int(lead), 1) }
        return (128 &+ (Int(lead & 0x1F) << 6 | Int(b[k &+ 1] & 0x3F)) &- 0xA0, 2)
    }

    /// The width of a simple Latin text's cluster `[k, k + length)`, entry `index` of
    /// `widths`, measured and kept on first use.
    func simpleClusterWidth(_ widths: UnsafeMutablePointer<Double>, _ index: Int, _ base: UnsafeRawPointer, _ k: Int, _ length: Int,
                            _ style: UnsafePointer<TextStyle>) -> Double {
        let m = measureSegment(base + k, length, style.pointee)
        widths[index] = m.width + m.whitespaceWidth
        return m.width + m.whitespaceWidth
    }

    // MARK: Lines

    /// Breaks a prepared text into the line scratch buffer; returns whether it was truncated.
    /// A text with a segment wider than the line also narrows `range` (when given, holding
    /// the limit) to the limits over which every comparison of its breaking comes out the
    /// same, so the same lines come out (empty if a grapheme cluster's width is negative).
    func breakLines(_ prepared: PreparedTextView, _ utf8: UnsafeRawBufferPointer, _ style: TextStyle, width: Double, maxLines: Int,
                    range: UnsafeMutablePointer<(low: Double, high: Double)>? = nil) -> Bool {
        let limit = width + Self.widthTolerance
        if prepared.widestSegment <= limit {
            guard breakLinesWithoutEmergency(prepared.segments, linePositions(prepared), limit: limit, maxLines: maxLines) else { return false }
            caches.pointee.lines[maxLines - 1] = ellipsize(caches.pointee.lines[maxLines - 1], prepared, utf8, style, limit: limit)
            return true
        }
        return breakLinesWithEmergency(prepared, utf8, style, limit: limit, maxLines: maxLines, range: range)
    }

    /// `breakLines` for a text with a segment wider than the line: its own function, so the
    /// common path above stays a few instructions. Without `ellipsizing` (for counting
    /// lines) a text cut after `maxLines` lines keeps `maxLines + 1` lines as broken.
    @inline(never)
    func breakLinesWithEmergency(_ prepared: PreparedTextView, _ utf8: UnsafeRawBufferPointer, _ style: TextStyle, limit: Double, maxLines: Int,
                                 range: UnsafeMutablePointer<(low: Double, high: Double)>?, ellipsizing: Bool = true) -> Bool {
        /// Whether `width` passes the limit, narrowing `range` to keep the answer.
        @inline(__always) func over(_ width: Double) -> Bool {
            let over = width > limit
            if let range { if over { range.pointee.high = Swift.min(range.pointee.high, width) } else { range.pointee.low = Swift.max(range.pointee.low, width) } }
            return over
        }
        let n = utf8.count
        caches.pointee.lines.removeAll()
        var lineCount = 0
        var lineStart = 0
        var lineWidth = 0.0
        var pendingSpace = 0.0
        var hasContent = false
        var stop = false

        @inline(__always) func close(_ end: Int) {
            caches.pointee.lines.append(TextLine(range: lineStart..<end, width: lineWidth))
            lineCount += 1
            lineStart = end
            lineWidth = 0
            pendingSpace = 0
            hasContent = false
            if maxLines > 0 && lineCount > maxLines { stop = true }
        }

        let segments = prepared.segments
        let needsEmergency = over(prepared.widestSegment)
        var segmentStart = 0
        var clusterCursor = 0
        for seg in segments {
            let segWidth = Double(seg.width)
            // Segments wider than the threshold have their clusters in `prepared.clusters`:
            // a count, then (end, width) of each.
            var group = 0..<0
            if segWidth > prepared.clusterThreshold {
                let count = Int(prepared.clusters[clusterCursor].end)
                group = clusterCursor + 1..<clusterCursor + 1 + count
                clusterCursor = group.upperBound
            }
            if hasContent && over(lineWidth + pendingSpace + segWidth) {
                close(segmentStart)
                if stop { break }
            }
            if needsEmergency && !hasContent && over(segWidth) {
                // Emergency break at grapheme clusters; each piece is a sum of cluster widths,
                // kept with the prepared text for wide segments or measured here.
                var a = 0
                var piece = 0.0
                var pieceHasCluster = false
                // One cluster `[a, b)` of width `w` onto the piece, closing the line before
                // it when it does not fit; false once the line limit is passed.
                @inline(__always) func add(_ b: Int, _ w: Double) -> Bool {
                    // Sums of widths of one sign stay within a relative bound of their
                    // terms' (`CellTextBatch`, "Font scale"); other sums are given no range.
                    if !(w >= 0), let range { range.pointee = (.infinity, -.infinity) }
                    if pieceHasCluster && over(piece + w) {
                        lineWidth = piece
                        close(segmentStart + a)
                        if stop { return false }
                        piece = 0
                    }
                    piece += w
                    pieceHasCluster = true
                    a = b
                    return true
                }
                if !group.isEmpty {
                    let clusters = prepared.clusters.baseAddress.unsafelyUnwrapped
                    var k = group.lowerBound
                    while k < group.upperBound && add(Int(clusters[k].end), clusters[k].width) { k += 1 }
                } else {
                    let base = utf8.baseAddress.unsafelyUnwrapped
                    let content = UnsafeRawBufferPointer(start: base + segmentStart, count: contentEnd(base, segmentStart, seg.end) - segmentStart)
                    if Self.isPrintableASCII(content) {
                        // Each printable ASCII byte is a grapheme cluster of its own (no
                        // Extend, SpacingMark or CR LF among them): the same clusters without
                        // the iterator, their widths read from the table straight.
                        let widths = simpleClusterWidths(style)
                        var b = 1
                        while b <= content.count {
                            var w = widths?[Int(content[b - 1])] ?? .nan
                            if w.isNaN { w = clusterWidth(base, segmentStart + b - 1, segmentStart + b, style) }
                            guard add(b, w) else { break }
                            b += 1
                        }
                    } else if Self.isSimpleLatin(content), let widths = simpleClusterWidths(style) {
                        // A cluster per scalar, as above, one or two bytes long.
                        let bytes = base.assumingMemoryBound(to: UInt8.self)
                        var k = segmentStart
                        let end = segmentStart &+ content.count
                        while k < end {
                            let (index, length) = Self.simpleCluster(bytes, k)
                            var w = widths[index]
                            if w.isNaN { w = withUnsafePointer(to: style) { simpleClusterWidth(widths, index, base, k, length, $0) } }
                            guard add(k &- segmentStart &+ length, w) else { break }
                            k &+= length
                        }
                    } else {
                        var it = GraphemeBreakIterator(validUTF8: content)
                        while let b = it.next(), add(b, clusterWidth(base, segmentStart + a, segmentStart + b, style)) {}
                    }
                }
                if stop { break }
                lineWidth = piece
            } else {
                lineWidth += pendingSpace + segWidth
            }
            pendingSpace = Double(seg.whitespaceWidth)
            hasContent = true
            if seg.isMandatory {
                close(seg.end)
                if stop { break }
            }
            segmentStart = seg.end
        }
        if !stop && (hasContent || lineCount == 0 || segments.last?.isMandatory == true) { close(n) }
        guard maxLines > 0, lineCount > maxLines else { return false }
        guard ellipsizing else { return true }
        caches.pointee.lines.removeLast(lineCount - maxLines)
        caches.pointee.lines[maxLines - 1] = ellipsize(caches.pointee.lines[maxLines - 1], prepared, utf8, style, limit: limit)
        return true
    }

    /// Whether every byte is printable ASCII (0x20...0x7E).
    @inline(__always)
    static func isPrintableASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for byte in bytes where byte < 0x20 || byte > 0x7E { return false }
        return true
    }

    /// `breakLines` when every segment fits the line (the common case): the greedy fill
    /// writing lines straight into the scratch. Returns whether the text was cut after
    /// `maxLines` lines (the last kept line is then still to be ellipsized).
    private func breakLinesWithoutEmergency(_ segments: UnsafeBufferPointer<PreparedSegment>, _ positions: LinePositions, limit: Double, maxLines: Int) -> Bool {
        // At most one line per segment plus a last empty line.
        let out = caches.pointee.lines.prepareForWriting(capacity: segments.count + 1)
        let lineLimit = maxLines > 0 ? maxLines : Int.max
        var count = 0
        Self.fillLines(segments, positions, limit: limit) { first, last, width in
            let start = first > 0 ? segments[first - 1].end : 0
            let end = last >= 0 ? segments[last].end : start
            (out + count).initialize(to: TextLine(range: start..<end, width: width))
            count += 1
            return count <= lineLimit
        }
        caches.pointee.lines.finishWriting(count: count)
        guard count > lineLimit else { return false }
        caches.pointee.lines.removeLast(count - maxLines)
        return true
    }

    /// The segments' line positions: where each segment's content ends when every segment
    /// before it is on the same line, `x[i] = x[i - 1] + space[i - 1] + width[i]`, summed in
    /// that order from 0. A line from segment `a` to segment `b` is then `x[b] - (x[a - 1] +
    /// space[a - 1])` wide. Also whether any segment ends in a mandatory break (most texts
    /// have none, and their fill then tests no segment for one).
    typealias LinePositions = (x: UnsafePointer<Double>, hasMandatoryBreak: Bool)

    /// Writes the line positions of `segments` to `positions`; returns whether any segment
    /// ends in a mandatory break.
    @inline(__always)
    static func linePositions(_ segments: UnsafeBufferPointer<PreparedSegment>, into positions: UnsafeMutablePointer<Double>) -> Bool {
        var next = 0.0
        var mandatory = false
        for i in 0..<segments.count {
            let x = next + Double(segments[i].width)
            positions[i] = x
            next = x + Double(segments[i].whitespaceWidth)
            mandatory = mandatory || segments[i].isMandatory
        }
        return mandatory
    }

    /// The line positions of `prepared`: kept with it, or computed into the scratch.
    @inline(__always)
    func linePositions(_ prepared: PreparedTextView) -> LinePositions {
        if let kept = prepared.positions { return kept }
        let positions = caches.pointee.positions.prepareForWriting(capacity: prepared.segments.count)
        let mandatory = Self.linePositions(prepared.segments, into: positions)
        caches.pointee.positions.finishWriting(count: prepared.segments.count)
        return (UnsafePointer(positions), mandatory)
    }

    /// The greedy fill when every segment fits `limit` (no emergency break): a line takes
    /// segments while the line up to the next one is at most `limit` wide, and ends after
    /// a segment with a mandatory break. Calls `line(first, last, width)` for each line
    /// (segment indexes; `last` is -1 for the empty line after a final mandatory break or
    /// of an empty text) until it returns false, and `compared(width, fits)` for each
    /// comparison with the limit. Every form of layout (lines, counts, one-line limits)
    /// goes through this or its summing form below, which makes the same comparisons,
    /// so they agree to the bit.
    @inline(__always)
    static func fillLines(_ segments: UnsafeBufferPointer<PreparedSegment>, _ positions: LinePositions, limit: Double,
                          compared: (_ width: Double, _ fits: Bool) -> Void = { _, _ in },
                          line: (_ first: Int, _ last: Int, _ width: Double) -> Bool) {
        let n = segments.count, x = positions.x
        var first = 0
        var base = 0.0
        while first < n {
            // The first segment of a line always opens it.
            var last = first
            if positions.hasMandatoryBreak {
                while !segments[last].isMandatory && last + 1 < n {
                    let width = x[last + 1] - base
                    let fits = width <= limit
                    compared(width, fits)
                    if !fits { break }
                    last += 1
                }
            } else {
                while last + 1 < n {
                    let width = x[last + 1] - base
                    let fits = width <= limit
                    compared(width, fits)
                    if !fits { break }
                    last += 1
                }
            }
            guard line(first, last, x[last] - base) else { return }
            base = x[last] + Double(segments[last].whitespaceWidth)
            first = last + 1
        }
        if n == 0 || (positions.hasMandatoryBreak && segments[n - 1].isMandatory) { _ = line(n, -1, 0) }
    }

    /// `fillLines` summing the line positions as it goes rather than reading them: the same
    /// sums in the same order (`x[i] = (x[i - 1] + space[i - 1]) + width[i]` from 0), so the
    /// same lines to the bit, reading only the segments the fill reaches (a count stopped
    /// after a few lines of a long text; positions summed first would cover every segment).
    @inline(__always)
    static func fillLines(_ segments: UnsafeBufferPointer<PreparedSegment>, limit: Double,
                          compared: (_ width: Double, _ fits: Bool) -> Void = { _, _ in },
                          line: (_ first: Int, _ last: Int, _ width: Double) -> Bool) {
        let n = segments.count
        var first = 0
        var base = 0.0
        while first < n {
            // The first segment of a line always opens it; `x` is the line's end, `x[last]`.
            var last = first
            var x = base + Double(segments[first].width)
            while !segments[last].isMandatory && last + 1 < n {
                let next = (x + Double(segments[last].whitespaceWidth)) + Double(segments[last + 1].width)
                let width = next - base
                let fits = width <= limit
                compared(width, fits)
                if !fits { break }
                last += 1
                x = next
            }
            guard line(first, last, x - base) else { return }
            base = x + Double(segments[last].whitespaceWidth)
            first = last + 1
        }
        if n == 0 || segments[n - 1].isMandatory { _ = line(n, -1, 0) }
    }

    /// The last visible line shortened (from its end, at cluster boundaries) until its
    /// visible text plus the ellipsis fits `limit`.
    private func ellipsize(_ line: TextLine, _ prepared: PreparedTextView, _ utf8: UnsafeRawBufferPointer, _ style: TextStyle, limit: Double) -> TextLine {
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
            if segs[mid].end <= ls { lo = mid + 1 } else { hi = mid }
        }
        // The full-line candidate: visible up to the content end of the line's last part.
        guard let base else { return TextLine(range: ls..<ls, width: ellipsis, isEllipsized: true) }
        var visibleEnd = ls
        var j = lo
        while j < segs.count {
            let s = j == 0 ? 0 : segs[j - 1].end
            if s >= le { break }
            visibleEnd = max(visibleEnd, min(contentEnd(base, s, segs[j].end), le))
            j += 1
        }
        if line.width + ellipsis <= limit {
            return TextLine(range: ls..<visibleEnd, width: line.width + ellipsis, isEllipsized: true)
        }
        // Walk the line's clusters with the widths layout used; keep the last that fits.
        var best = (end: ls, width: ellipsis)
        var w = 0.0
        var pending = 0.0
        j = lo
        while j < segs.count {
            let seg = segs[j]
            let s = j == 0 ? 0 : segs[j - 1].end
            if s >= le { break }
            let segContentEnd = contentEnd(base, s, seg.end)
            let segWidth = Double(seg.width)
            let from = max(s, ls)
            let to = min(segContentEnd, le)
            let split = segWidth > limit
            let segmentBase = split ? 0.0 : w + pending
            var sum = 0.0
            if from < to {
                let content = UnsafeRawBufferPointer(start: base + s, count: segContentEnd - s)
                var it = GraphemeBreakIterator(validUTF8: content)
                var a = 0
                while let b = it.next(), s + a < to {
                    if s + a >= from {
                        sum += clusterWidth(base, s + a, s + b, style)
                        let fullSegment = !split && s + b == segContentEnd
                        let candidate = fullSegment ? segmentBase + segWidth : segmentBase + sum
                        if candidate + ellipsis <= limit { best = (s + b, candidate + ellipsis) }
                    }
                    a = b
                }
            }
            w = split ? sum : segmentBase + segWidth
            pending = Double(seg.whitespaceWidth)
            j += 1
        }
        return TextLine(range: ls..<best.end, width: best.width, isEllipsized: true)
    }

    static let ellipsisUTF8: [UInt8] = Array(ellipsis.utf8)
}

/// A face's printable-ASCII tables (owned by the face), and the style's scale and
/// letter spacing.
struct PrintableASCIITables {
    let pairAdvances: UnsafeMutablePointer<Int32>
    let size: Double
    let unitsPerEm: Double
    let letterSpacing: Double

    /// Width in font units of `n` printable ASCII bytes, nil at any other byte.
    @inline(__always)
    func unscaledWidth(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int? {
        let count = PrintableASCIIMetrics.count, first = Int(PrintableASCIIMetrics.first)
        let table = UnsafePointer(pairAdvances)
        var total = 0
        var row = table + count * count  // the zero row: no character before the first
        var i = 0
        while i < n {
            let c = Int(p[i]) &- first
            guard UInt(bitPattern: c) < UInt(count) else { return nil }
            total &+= Int(row[c])
            row = table + c &* count
            i &+= 1
        }
        return total
    }

    /// A segment's widths (content, trailing spaces) as `measureUncached` gives them: the
    /// same expressions `runWidth` uses (letter spacing once per cluster, and a printable
    /// ASCII byte is a cluster), so the roundings agree.
    @inline(__always)
    func measure(_ b: UnsafePointer<UInt8>, _ n: Int) -> (width: Float, whitespaceWidth: Float, contentLength: Int)? {
        guard n > 0 else { return nil }
        var contentEnd = n
        while contentEnd > 0 && b[contentEnd - 1] == 0x20 { contentEnd -= 1 }
        guard let content = unscaledWidth(b, contentEnd) else { return nil }
        // The trailing spaces are a run of their own: the first space's advance, then
        // each further one with the kerning of a space after a space.
        let k = n - contentEnd, count = PrintableASCIIMetrics.count, space = 0x20 - Int(PrintableASCIIMetrics.first)
        let spaces = k == 0 ? 0 : Int(pairAdvances[count * count + space]) + (k - 1) * Int(pairAdvances[space * count + space])
        let width = Double(content) * size / unitsPerEm, spacesWidth = Double(spaces) * size / unitsPerEm
        guard letterSpacing != 0 else { return (Float(width), Float(spacesWidth), contentEnd) }
        return (contentEnd == 0 ? 0 : Float(width + letterSpacing * Double(contentEnd)), k == 0 ? 0 : Float(spacesWidth + letterSpacing * Double(k)), contentEnd)
    }
}
