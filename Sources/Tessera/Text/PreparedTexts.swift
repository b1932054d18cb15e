import Dispatch

/// Many texts prepared once in one style, to be laid out again at any width or line limit
/// by arithmetic over their segment widths alone (pretext's prepare/layout split): no
/// hashing, no cache lookup and no UTF-8 validation per text on that path. The bytes are
/// kept (a copy) for the rare layouts that need them: a segment wider than the line
/// (emergency break) and a truncated last line (ellipsis).
///
/// Storage is columnar: all segments of all texts in one array (12 bytes each) with their
/// line positions (8 bytes each, so a fill compares one number per segment), the texts'
/// first segment indexes, their widest segments and byte offsets. Immutable once made, so
/// it may be read by any number of threads.
public final class PreparedTexts: @unchecked Sendable {
    public let style: TextStyle
    let utf8: ContiguousArray<UInt8>
    /// `count + 1` byte offsets into `utf8`.
    let textOffsets: ContiguousArray<Int>
    /// `count + 1` indexes into `segments`.
    let segmentOffsets: ContiguousArray<Int>
    let segments: ContiguousArray<PreparedSegment>
    /// The segments' line positions (`TextLayoutEngine.linePositions`), per text.
    let positions: ContiguousArray<Double>
    let widest: ContiguousArray<Float>
    /// Per text, the widest line limit at which the greedy fill would break it (+inf with a
    /// mandatory break inside), and its width as one line: most list texts fit their line,
    /// and then a layout is one comparison.
    let singleLine: ContiguousArray<SingleLine>
    /// `count + 1` indexes into `clusters`, and the clusters of segments wider than
    /// `clusterThreshold` (see `PreparedTextView.clusters`).
    let clusterOffsets: ContiguousArray<Int>
    let clusters: ContiguousArray<PreparedCluster>
    let clusterThreshold: Double

    /// Segments wider than this many times the font size keep their cluster widths: long
    /// words, URLs and codes, the segments that need emergency breaks at list widths.
    static let clusterThresholdEms = 6.0

    struct SingleLine {
        /// The largest width the fill compares with the limit (at least the widest
        /// segment): the text is one line at any limit not below it.
        var limit: Double
        var width: Double

        /// From the comparisons `TextLayoutEngine.fillLines` makes on the first line, so
        /// the comparison gives its answer exactly.
        init(_ segments: UnsafeBufferPointer<PreparedSegment>, _ positions: UnsafeBufferPointer<Double>, widest: Float) {
            // (Infinite exactly when a segment ends in a mandatory break: `Storage.view`.)
            var limit = Double(widest)
            // Every segment must fit (else the emergency path runs), and every comparison
            // must pass; a mandatory break ends a line (the last one adds an empty line).
            for i in 0..<segments.count {
                if segments[i].isMandatory { limit = .infinity }
                if i > 0 { limit = max(limit, positions[i]) }
            }
            self.limit = limit
            width = segments.isEmpty ? 0 : positions[segments.count - 1]
        }
    }

    init(style: TextStyle, utf8: ContiguousArray<UInt8>, textOffsets: ContiguousArray<Int>, segmentOffsets: ContiguousArray<Int>, segments: ContiguousArray<PreparedSegment>, positions: ContiguousArray<Double>, widest: ContiguousArray<Float>, singleLine: ContiguousArray<SingleLine>, clusterOffsets: ContiguousArray<Int>, clusters: ContiguousArray<PreparedCluster>) {
        self.style = style
        self.utf8 = utf8
        self.textOffsets = textOffsets
        self.segmentOffsets = segmentOffsets
        self.segments = segments
        self.positions = positions
        self.widest = widest
        self.singleLine = singleLine
        self.clusterOffsets = clusterOffsets
        self.clusters = clusters
        clusterThreshold = Self.clusterThresholdEms * style.size
    }

    /// Number of texts.
    public var count: Int { widest.count }

    /// Bytes held (text copy, segments and per-text columns).
    public var bytes: Int {
        utf8.count + segments.count * (MemoryLayout<PreparedSegment>.stride + 8)
            + (textOffsets.count + segmentOffsets.count + clusterOffsets.count) * MemoryLayout<Int>.stride + widest.count * 4
            + singleLine.count * MemoryLayout<SingleLine>.stride
            + clusters.count * MemoryLayout<PreparedCluster>.stride
    }

    /// The bytes and segments of every text, for the duration of `body`.
    @inline(__always)
    func withStorage<R>(_ body: (Storage) -> R) -> R {
        utf8.withUnsafeBytes { bytes in
            segments.withUnsafeBufferPointer { segs in
                positions.withUnsafeBufferPointer { positions in
                    textOffsets.withUnsafeBufferPointer { texts in
                        segmentOffsets.withUnsafeBufferPointer { starts in
                            widest.withUnsafeBufferPointer { widest in
                                singleLine.withUnsafeBufferPointer { singleLine in
                                    clusterOffsets.withUnsafeBufferPointer { clusterStarts in
                                        clusters.withUnsafeBufferPointer { clusters in
                                            body(Storage(bytes: bytes, segments: segs, positions: positions, textOffsets: texts, segmentOffsets: starts,
                                                         widest: widest, singleLine: singleLine, clusterOffsets: clusterStarts, clusters: clusters,
                                                         clusterThreshold: clusterThreshold))
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    struct Storage {
        let bytes: UnsafeRawBufferPointer
        let segments: UnsafeBufferPointer<PreparedSegment>
        let positions: UnsafeBufferPointer<Double>
        let textOffsets: UnsafeBufferPointer<Int>
        let segmentOffsets: UnsafeBufferPointer<Int>
        let widest: UnsafeBufferPointer<Float>
        let singleLine: UnsafeBufferPointer<SingleLine>
        let clusterOffsets: UnsafeBufferPointer<Int>
        let clusters: UnsafeBufferPointer<PreparedCluster>
        let clusterThreshold: Double

        @inline(__always) func text(_ i: Int) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(start: bytes.baseAddress.map { $0 + textOffsets[i] }, count: textOffsets[i + 1] - textOffsets[i])
        }

        @inline(__always) func view(_ i: Int) -> PreparedTextView {
            var view = PreparedTextView(segments: UnsafeBufferPointer(start: segments.baseAddress.map { $0 + segmentOffsets[i] }, count: segmentOffsets[i + 1] - segmentOffsets[i]), widest: widest[i])
            view.clusters = UnsafeBufferPointer(start: clusters.baseAddress.map { $0 + clusterOffsets[i] }, count: clusterOffsets[i + 1] - clusterOffsets[i])
            view.clusterThreshold = clusterThreshold
            view.positions = positions.baseAddress.map { (UnsafePointer($0 + segmentOffsets[i]), singleLine[i].limit == .infinity) }
            return view
        }
    }
}

extension TextLayoutEngine {
    /// Prepares many texts in `style` (text `i` is `utf8[offsets[i]..<offsets[i + 1]]`):
    /// breaks each into segments and measures them through the segment cache. With
    /// `threads > 1`, parts are prepared at the same time by this engine and its helpers.
    /// - Throws: `invalidTextOffsets(row:slot: 0)`, `invalidUTF8(row:slot: 0, byteOffset:)`;
    ///   nothing is prepared then.
    public func prepare(texts utf8: UnsafeRawBufferPointer, offsets: UnsafeBufferPointer<Int>, style: TextStyle, threads: Int = 1) throws(TesseraError) -> PreparedTexts {
        let count = max(0, offsets.count - 1)
        try Self.validate(texts: utf8, offsets: offsets, count: count)
        let parts = max(1, min(threads, count))
        var results = [PreparedPart?](repeating: nil, count: parts)
        if parts == 1 {
            results[0] = preparePart(utf8, offsets, 0..<count, style)
        } else {
            let engines = UncheckedSendable(value: helperEngines(parts))
            let input = UncheckedSendable(value: (utf8, offsets))
            results.withUnsafeMutableBufferPointer { out in
                let output = UncheckedSendable(value: out)
                DispatchQueue.concurrentPerform(iterations: parts) { part in
                    let lo = count * part / parts, hi = count * (part + 1) / parts
                    output.value[part] = engines.value[part].preparePart(input.value.0, input.value.1, lo..<hi, style)
                }
            }
        }
        var segments = ContiguousArray<PreparedSegment>()
        var segmentOffsets = ContiguousArray<Int>()
        var widest = ContiguousArray<Float>()
        var clusters = ContiguousArray<PreparedCluster>()
        var clusterOffsets = ContiguousArray<Int>()
        segments.reserveCapacity(results.reduce(0) { $0 + $1!.segments.count })
        segmentOffsets.reserveCapacity(count + 1)
        widest.reserveCapacity(count)
        for part in results {
            let part = part.unsafelyUnwrapped
            let base = segments.count, clusterBase = clusters.count
            for o in part.segmentOffsets.dropLast() { segmentOffsets.append(base + o) }
            for o in part.clusterOffsets.dropLast() { clusterOffsets.append(clusterBase + o) }
            segments.append(contentsOf: part.segments)
            clusters.append(contentsOf: part.clusters)
            widest.append(contentsOf: part.widest)
        }
        segmentOffsets.append(segments.count)
        clusterOffsets.append(clusters.count)
        // Line positions and one-line limits, once every segment is in place.
        var positions = ContiguousArray<Double>(repeating: 0, count: segments.count)
        var singleLine = ContiguousArray<PreparedTexts.SingleLine>()
        singleLine.reserveCapacity(count)
        segments.withUnsafeBufferPointer { all in
            positions.withUnsafeMutableBufferPointer { x in
                for i in 0..<count {
                    let range = segmentOffsets[i]..<segmentOffsets[i + 1]
                    let text = UnsafeBufferPointer(rebasing: all[range])
                    if let base = x.baseAddress, !range.isEmpty { _ = Self.linePositions(text, into: base + range.lowerBound) }
                    singleLine.append(PreparedTexts.SingleLine(text, UnsafeBufferPointer(rebasing: x[range]), widest: widest[i]))
                }
            }
        }
        let first = count > 0 ? offsets[0] : 0
        let bytes = ContiguousArray(UnsafeRawBufferPointer(rebasing: utf8[first..<(count > 0 ? offsets[count] : first)]))
        let textOffsets = ContiguousArray(offsets.map { $0 - first })
        return PreparedTexts(style: style, utf8: bytes, textOffsets: count > 0 ? textOffsets : [0], segmentOffsets: segmentOffsets, segments: segments,
                             positions: positions, widest: widest, singleLine: singleLine, clusterOffsets: clusterOffsets, clusters: clusters)
    }

    /// Lays out every prepared text at `width` with at most `maxLines` lines (0: no limit)
    /// into `results[i]`, by arithmetic over its segments; the same metrics `measure` gives.
    /// - Throws: `invalidTextWidth`, `invalidMaxLines`, `bufferTooSmall`.
    public func layout(_ prepared: PreparedTexts, width: Double, maxLines: Int = 0, into results: UnsafeMutableBufferPointer<TextMetrics>, threads: Int = 1) throws(TesseraError) {
        try Self.validate(width: width, maxLines: maxLines)
        let count = prepared.count
        guard results.count >= count else { throw .bufferTooSmall(needed: count, capacity: results.count) }
        let parts = max(1, min(threads, count))
        if parts == 1 {
            layoutPart(prepared, 0..<count, width, maxLines, results)
            return
        }
        let engines = UncheckedSendable(value: helperEngines(parts))
        let output = UncheckedSendable(value: results)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let lo = count * part / parts, hi = count * (part + 1) / parts
            engines.value[part].layoutPart(prepared, lo..<hi, width, maxLines, output.value)
        }
    }

    /// Lays out prepared text `index`, with its lines when `includeLines` is true.
    /// - Throws: `rowOutOfBounds`, `invalidTextWidth`, `invalidMaxLines`.
    public func layout(_ prepared: PreparedTexts, text index: Int, width: Double, maxLines: Int = 0, includeLines: Bool = false) throws(TesseraError) -> TextMeasurement {
        try Self.validate(width: width, maxLines: maxLines)
        guard index >= 0, index < prepared.count else { throw .rowOutOfBounds(index: index, count: prepared.count) }
        let metrics = prepared.withStorage { layoutPrepared($0, index, prepared.style, width, maxLines) }
        return TextMeasurement(metrics: metrics, lines: includeLines ? Array(caches.pointee.lines.buffer) : [])
    }

    struct PreparedPart {
        var segments = ContiguousArray<PreparedSegment>()
        var segmentOffsets = ContiguousArray<Int>()
        var widest = ContiguousArray<Float>()
        var clusters = ContiguousArray<PreparedCluster>()
        var clusterOffsets = ContiguousArray<Int>()
    }

    private func preparePart(_ utf8: UnsafeRawBufferPointer, _ offsets: UnsafeBufferPointer<Int>, _ range: Range<Int>, _ style: TextStyle) -> PreparedPart {
        var part = PreparedPart()
        part.segmentOffsets.reserveCapacity(range.count + 1)
        part.widest.reserveCapacity(range.count)
        let threshold = PreparedTexts.clusterThresholdEms * style.size
        for i in range {
            let text = UnsafeRawBufferPointer(rebasing: utf8[offsets[i]..<offsets[i + 1]])
            let w = prepare(text, style)
            part.segmentOffsets.append(part.segments.count)
            part.clusterOffsets.append(part.clusters.count)
            part.segments.append(contentsOf: caches.pointee.segments.buffer)
            part.widest.append(w)
            guard Double(w) > threshold, let base = text.baseAddress else { continue }
            var start = 0
            for seg in caches.pointee.segments.buffer {
                defer { start = seg.end }
                guard Double(seg.width) > threshold else { continue }
                let header = part.clusters.count
                part.clusters.append(PreparedCluster(end: 0, width: 0))
                let content = UnsafeRawBufferPointer(start: base + start, count: contentEnd(base, start, seg.end) - start)
                var it = GraphemeBreakIterator(validUTF8: content)
                var a = 0
                while let b = it.next() {
                    part.clusters.append(PreparedCluster(end: UInt32(b), width: clusterWidth(base, start + a, start + b, style)))
                    a = b
                }
                part.clusters[header].end = UInt32(part.clusters.count - header - 1)
            }
        }
        part.segmentOffsets.append(part.segments.count)
        part.clusterOffsets.append(part.clusters.count)
        return part
    }

    private func layoutPart(_ prepared: PreparedTexts, _ range: Range<Int>, _ width: Double, _ maxLines: Int, _ results: UnsafeMutableBufferPointer<TextMetrics>) {
        prepared.withStorage { storage in
            let limit = width + Self.widthTolerance, lineHeight = prepared.style.lineHeight
            let lineLimit = maxLines > 0 ? maxLines : Int.max
            for i in range {
                let single = storage.singleLine[i]
                if single.limit <= limit {
                    results[i] = TextMetrics(lineCount: 1, height: lineHeight, width: single.width, isTruncated: false)
                    continue
                }
                // Counting lines needs no line records; a text cut after `maxLines` lines
                // (its last line ellipsized) or needing an emergency break takes the full path.
                if Double(storage.widest[i]) <= limit {
                    let lo = storage.segmentOffsets[i], hi = storage.segmentOffsets[i + 1]
                    let segments = UnsafeBufferPointer(rebasing: storage.segments[lo..<hi])
                    var count = 0, widest = 0.0
                    let positions = (storage.positions.baseAddress.unsafelyUnwrapped + lo, single.limit == .infinity)
                    Self.fillLines(segments, positions, limit: limit) { _, _, width in
                        count += 1
                        widest = max(widest, width)
                        return count <= lineLimit
                    }
                    if count <= lineLimit {
                        results[i] = TextMetrics(lineCount: count, height: Double(count) * lineHeight, width: widest, isTruncated: false)
                        continue
                    }
                }
                results[i] = layoutPrepared(storage, i, prepared.style, width, maxLines)
            }
        }
    }

    @inline(__always)
    private func layoutPrepared(_ storage: PreparedTexts.Storage, _ i: Int, _ style: TextStyle, _ width: Double, _ maxLines: Int) -> TextMetrics {
        let truncated = breakLines(storage.view(i), storage.text(i), style, width: width, maxLines: maxLines)
        let lines = caches.pointee.lines.buffer
        var widest = 0.0
        for line in lines { widest = max(widest, line.width) }
        return TextMetrics(lineCount: lines.count, height: Double(lines.count) * style.lineHeight, width: widest, isTruncated: truncated)
    }
}
