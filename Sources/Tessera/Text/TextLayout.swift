import Dispatch

/// Lays out text into lines and measures it, in front of three caches.
///
/// **Rules.** Lines break at UAX #14 opportunities that are also grapheme cluster boundaries
/// (an opportunity inside a cluster, e.g. before a combining mark after a space, is
/// ignored); mandatory breaks always end a line. Lines are filled greedily. A segment (a
/// word and its trailing spaces) wider than the line is broken at grapheme cluster
/// boundaries (emergency break); a cluster is never split, and every line holds at least one
/// cluster even when that cluster is wider than the width. Trailing spaces (U+0020, U+1680,
/// U+2000–U+2006, U+2008–U+200A, U+205F, U+3000) and line terminators (LF, VT, FF, CR, NEL,
/// LS, PS) do not count toward a line's width. A line fits when its width is at most
/// `width + widthTolerance` (1/64 pt, the store's unit), which absorbs rounding. Empty text
/// is one empty line, and text ending in a line terminator has an empty last line after it,
/// as Android's StaticLayout. With `maxLines > 0` and more lines needed, the result keeps
/// `maxLines` lines and is truncated: the last line is shortened at grapheme cluster
/// boundaries (from its end) until its visible text plus "…" (U+2026, measured in the
/// style) fits; its range is then the visible range. Unlike Android's ellipsizing, the
/// last line is not refilled with the text that follows it. When not even one cluster fits
/// beside the ellipsis, the line shows the ellipsis alone.
///
/// **Widths.** A segment is itemized into runs of one face (`FontChain`), each measured by
/// the shaper; letter spacing is added per grapheme cluster. A line's width is the sum of
/// its segments' widths and the inner segments' trailing-space widths (no kerning across
/// segment boundaries, see `TextShaper`); pieces of an emergency-broken segment are sums of
/// their clusters' widths.
///
/// **Caches** (each bounded in bytes, CLOCK eviction, with statistics; a budget of 0
/// disables one):
/// - segment cache (default 32 MiB): (style identity, segment bytes) → width, trailing
///   whitespace width, content length. Grapheme clusters measured for emergency breaks and
///   the ellipsis go through it too. See `SegmentCache`.
/// - prepared-text cache (default 16 MiB): (text hash128 + length, style identity) → the
///   segment list (end, content end, width, whitespace width, mandatory flag). A new width
///   or line limit for a prepared text is arithmetic over that list, without the segment
///   cache or the bytes (except for segments wider than the line and an ellipsized line).
/// - line-break cache (default 8 MiB): (text hash128 + length, style identity, width,
///   max lines) → lines (ranges, widths) and the truncation flag.
///
/// One thread at a time. Errors (invalid UTF-8, width, line limit) are thrown before any
/// cache is touched, so a failed call leaves caches and statistics as they were.
public final class TextLayoutEngine {
    /// Byte budgets of the caches.
    public struct Configuration: Sendable, Equatable {
        public var segmentCacheBytes: Int
        public var preparedTextCacheBytes: Int
        public var lineBreakCacheBytes: Int

        public init(segmentCacheBytes: Int = 32 << 20, preparedTextCacheBytes: Int = 16 << 20, lineBreakCacheBytes: Int = 8 << 20) {
            self.segmentCacheBytes = segmentCacheBytes
            self.preparedTextCacheBytes = preparedTextCacheBytes
            self.lineBreakCacheBytes = lineBreakCacheBytes
        }

        /// All caches off (every call measures from scratch).
        public static let uncached = Configuration(segmentCacheBytes: 0, preparedTextCacheBytes: 0, lineBreakCacheBytes: 0)
    }

    /// The tolerance of width comparisons: a line fits when its width ≤ width + 1/64 pt.
    public static let widthTolerance = 1.0 / 64

    /// The ellipsis appended to a truncated last line.
    public static let ellipsis = "\u{2026}"

    public let shaper: any TextShaper
    /// `shaper` is a `FontShaper`, so a run of the primary face may be measured directly.
    let usesBuiltInShaper: Bool
    public let configuration: Configuration

    /// The mutable caches and scratch buffers, behind a pointer: the engine is used by one
    /// thread at a time, and reaching them through a pointer avoids dynamic exclusivity
    /// checks on every access. On cache lines of their own (`Jemalloc.allocate`), as a
    /// measurer's scratch: the engines of several threads are made on one thread.
    struct Caches {
        var segmentCache: SegmentCache
        var preparedCache: RecordCache<TextKey>
        var lineCache: RecordCache<LineKey>
        /// The segments of the text being prepared and the lines being broken.
        var segments = ScratchBuffer<PreparedSegment>()
        var lines = ScratchBuffer<TextLine>()
        /// The line positions of the text being broken (`linePositions`).
        var positions = ScratchBuffer<Double>()
        /// The segments of the text being prepared that wait for the segment cache, by
        /// index, and their hashes.
        var pendingSegments = ScratchBuffer<Int32>()
        var hashes = ScratchBuffer<UInt64>()
        /// Whether the text last prepared was all printable ASCII measured from the primary
        /// face's tables (so that face maps every scalar of it).
        var preparedFromASCIITables = false
        /// Widths of the clusters `TextLayoutEngine.simpleCluster` indexes (printable ASCII
        /// and U+00A0...U+017F), `simpleClusters` per style for the styles `clusterStyles`
        /// (NaN: not known yet); a new style takes the table taken longest ago.
        static let clusterTables = 4
        static let simpleClusters = 128 + 0x180 - 0xA0
        let clusterStyles: UnsafeMutablePointer<UInt64> = {
            let p = Jemalloc.allocate(UInt64.self, capacity: clusterTables)
            p.initialize(repeating: 0, count: clusterTables)
            return p
        }()
        var clusterNext = 0
        let clusterWidths: UnsafeMutablePointer<Double> = {
            let p = Jemalloc.allocate(Double.self, capacity: simpleClusters * clusterTables)
            p.initialize(repeating: .nan, count: simpleClusters * clusterTables)
            return p
        }()
    }

    let caches: UnsafeMutablePointer<Caches>

    var segmentCache: SegmentCache {
        _read { yield caches.pointee.segmentCache }
        _modify { yield &caches.pointee.segmentCache }
    }
    var preparedCache: RecordCache<TextKey> {
        _read { yield caches.pointee.preparedCache }
        _modify { yield &caches.pointee.preparedCache }
    }
    var lineCache: RecordCache<LineKey> {
        _read { yield caches.pointee.lineCache }
        _modify { yield &caches.pointee.lineCache }
    }
    /// Engines for the other threads of the parallel bulk form (created on first use).
    private var helpers: [TextLayoutEngine] = []

    public init(shaper: any TextShaper = FontShaper(), configuration: Configuration = Configuration()) {
        self.shaper = shaper
        usesBuiltInShaper = shaper is FontShaper
        self.configuration = configuration
        caches = Jemalloc.allocate(Caches.self, capacity: 1)
        caches.initialize(to: Caches(
            segmentCache: SegmentCache(budget: configuration.segmentCacheBytes),
            preparedCache: RecordCache(budget: configuration.preparedTextCacheBytes),
            lineCache: RecordCache(budget: configuration.lineBreakCacheBytes)))
    }

    deinit {
        segmentCache.deallocate()
        preparedCache.deallocate()
        lineCache.deallocate()
        caches.pointee.segments.deallocate()
        caches.pointee.lines.deallocate()
        caches.pointee.positions.deallocate()
        caches.pointee.hashes.deallocate()
        caches.pointee.pendingSegments.deallocate()
        Jemalloc.free(caches.pointee.clusterStyles)
        Jemalloc.free(caches.pointee.clusterWidths)
        caches.deinitialize(count: 1)
        Jemalloc.free(caches)
    }

    /// Hit, miss, eviction and byte counts of this engine's caches (helper engines of the
    /// parallel bulk form not included).
    public var statistics: TextLayoutStatistics {
        TextLayoutStatistics(segments: segmentCache.statistics, preparedTexts: preparedCache.statistics, lineBreaks: lineCache.statistics)
    }

    /// Empties every cache (statistics counters other than entries and bytes are kept).
    public func removeAllCachedResults() {
        segmentCache.deallocate()
        caches.pointee.clusterStyles.update(repeating: 0, count: Caches.clusterTables)
        caches.pointee.clusterWidths.update(repeating: .nan, count: Caches.simpleClusters * Caches.clusterTables)
        preparedCache.removeAll()
        lineCache.removeAll()
        helpers.forEach { $0.removeAllCachedResults() }
    }

    /// Checks the caches' internal consistency (debug builds with TESSERA_INVARIANTS).
    public func _checkInvariants() {
        segmentCache._checkInvariants()
        preparedCache._checkInvariants()
        lineCache._checkInvariants()
    }

    // MARK: - Measuring

    /// Lays out `text` in `style` at `width` points with at most `maxLines` lines (0: no
    /// limit). Lines are returned when `includeLines` is true (ranges are offsets into
    /// `text.utf8`).
    /// - Throws: `invalidTextWidth` (NaN, infinite, ≤ 0), `invalidMaxLines` (< 0).
    public func measure(_ text: String, style: TextStyle, width: Double, maxLines: Int = 0, includeLines: Bool = false) throws(TesseraError) -> TextMeasurement {
        var text = text
        let result = text.withUTF8 { buffer -> Result<TextMeasurement, TesseraError> in
            do throws(TesseraError) {
                return .success(try measure(utf8: UnsafeRawBufferPointer(buffer), style: style, width: width, maxLines: maxLines, includeLines: includeLines))
            } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Lays out the UTF-8 text in `utf8` (see `measure(_:style:width:maxLines:includeLines:)`).
    /// - Throws: also `invalidUTF8Text(byteOffset:)`.
    public func measure(utf8: UnsafeRawBufferPointer, style: TextStyle, width: Double, maxLines: Int = 0, includeLines: Bool = false) throws(TesseraError) -> TextMeasurement {
        try Self.validate(width: width, maxLines: maxLines)
        try validateUTF8Text(utf8)
        guard utf8.count <= Self.maximumTextBytes else { throw .capacityExceeded("text of \(utf8.count) bytes (limit \(Self.maximumTextBytes))") }
        return layout(validUTF8: utf8, style: style, width: width, maxLines: maxLines, includeLines: includeLines)
    }

    /// Measures many texts: text `i` is `utf8[offsets[i]..<offsets[i + 1]]`, so `offsets`
    /// holds `count + 1` non-decreasing offsets (as `RowText` with one slot per row), and
    /// its metrics go to `results[i]`. All texts are validated before any is measured.
    ///
    /// With `threads > 1` the texts are split into `threads` contiguous parts measured at the
    /// same time, the first by this engine and each other part by a helper engine this
    /// engine owns (same shaper and configuration, its own caches, kept for later calls),
    /// so no cache is shared between threads. The shaper must then be thread-safe
    /// (`FontShaper` is). `statistics` reports this engine's caches only.
    /// - Throws: `bufferTooSmall` when `results` holds fewer than `offsets.count - 1`
    ///   entries, `invalidTextOffsets(row:slot: 0)`, `invalidUTF8(row:slot: 0, byteOffset:)`,
    ///   `invalidTextWidth`, `invalidMaxLines`.
    public func measure(texts utf8: UnsafeRawBufferPointer, offsets: UnsafeBufferPointer<Int>, style: TextStyle, width: Double, maxLines: Int = 0, into results: UnsafeMutableBufferPointer<TextMetrics>, threads: Int = 1) throws(TesseraError) {
        try Self.validate(width: width, maxLines: maxLines)
        let count = max(0, offsets.count - 1)
        guard results.count >= count else { throw .bufferTooSmall(needed: count, capacity: results.count) }
        guard count > 0 else { return }
        try Self.validate(texts: utf8, offsets: offsets, count: count)
        let parts = max(1, min(threads, count))
        if parts == 1 {
            measureValidated(utf8, offsets, 0..<count, style, width, maxLines, results)
            return
        }
        let engines = UncheckedSendable(value: helperEngines(parts))
        let input = UncheckedSendable(value: (utf8, offsets, results))
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let lo = count * part / parts, hi = count * (part + 1) / parts
            let (u, o, r) = input.value
            engines.value[part].measureValidated(u, o, lo..<hi, style, width, maxLines, r)
        }
    }

    /// Measures a `RowText` batch slot by slot (`results[i]` for slot `i` in row-major order).
    public func measure(_ text: RowText, style: TextStyle, width: Double, maxLines: Int = 0, into results: UnsafeMutableBufferPointer<TextMetrics>, threads: Int = 1) throws(TesseraError) {
        let r = text.utf8.withUnsafeBytes { bytes in
            text.offsets.withUnsafeBufferPointer { offsets -> Result<Void, TesseraError> in
                do throws(TesseraError) {
                    return .success(try measure(texts: bytes, offsets: offsets, style: style, width: width, maxLines: maxLines, into: results, threads: threads))
                } catch { return .failure(error) }
            }
        }
        try r.get()
    }

    private func measureValidated(_ utf8: UnsafeRawBufferPointer, _ offsets: UnsafeBufferPointer<Int>, _ range: Range<Int>, _ style: TextStyle, _ width: Double, _ maxLines: Int, _ results: UnsafeMutableBufferPointer<TextMetrics>) {
        guard !range.isEmpty else { return }
        @inline(__always) func text(_ i: Int) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: utf8[offsets[i]..<offsets[i + 1]]) }
        // Each text's cache entries are looked up while the text before it is laid out, so
        // the index misses of a cold pass overlap with work instead of stalling it.
        var nextKey = TextKey(text(range.lowerBound), style: style.identity)
        for i in range {
            let key = nextKey
            if i + 1 < range.upperBound {
                nextKey = TextKey(text(i + 1), style: style.identity)
                lineCache.prefetch(LineKey(text: nextKey, width: width, maxLines: maxLines).cacheHash)
                preparedCache.prefetch(nextKey.cacheHash)
            }
            results[i] = layout(validUTF8: text(i), textKey: key, style: style, width: width, maxLines: maxLines, includeLines: false).metrics
        }
    }

    /// Checks the offsets and the UTF-8 of every text of a bulk call.
    static func validate(texts utf8: UnsafeRawBufferPointer, offsets: UnsafeBufferPointer<Int>, count: Int) throws(TesseraError) {
        for i in 0..<count {
            let lo = offsets[i], hi = offsets[i + 1]
            guard lo >= 0, lo <= hi, hi <= utf8.count, hi - lo <= Self.maximumTextBytes else { throw .invalidTextOffsets(row: i, slot: 0) }
        }
        guard count > 0 else { return }
        // The texts lie end to end: when all their bytes are valid UTF-8 and no text starts
        // inside a sequence, each text is a run of whole sequences. One pass, then one byte
        // per text; only a failure walks the texts one by one to name the first bad one.
        let start = offsets[0], end = offsets[count]
        if firstInvalidUTF8Byte(UnsafeRawBufferPointer(rebasing: utf8[start..<end])) == nil {
            var boundariesOK = true
            for i in 1..<count where offsets[i] < end && utf8[offsets[i]] & 0xC0 == 0x80 { boundariesOK = false }
            if boundariesOK { return }
        }
        for i in 0..<count {
            if let bad = firstInvalidUTF8Byte(UnsafeRawBufferPointer(rebasing: utf8[offsets[i]..<offsets[i + 1]])) {
                throw .invalidUTF8(row: i, slot: 0, byteOffset: bad)
            }
        }
    }

    /// This engine and `parts - 1` helpers (created on first use and kept).
    func helperEngines(_ parts: Int) -> [TextLayoutEngine] {
        while helpers.count < parts - 1 { helpers.append(TextLayoutEngine(shaper: shaper, configuration: configuration)) }
        return [self] + helpers.prefix(parts - 1)
    }

    static func validate(width: Double, maxLines: Int) throws(TesseraError) {
        guard width.isFinite, width > 0 else { throw .invalidTextWidth(width) }
        guard maxLines >= 0 else { throw .invalidMaxLines(maxLines) }
    }

    /// The longest text (segment ends are 31-bit offsets).
    static let maximumTextBytes = Int(Int32.max)

    /// The line-break cache, then the prepared-text cache, then preparation.
    @inline(__always)
    func layout(validUTF8 utf8: UnsafeRawBufferPointer, style: TextStyle, width: Double, maxLines: Int, includeLines: Bool) -> TextMeasurement {
        layout(validUTF8: utf8, textKey: TextKey(utf8, style: style.identity), style: style, width: width, maxLines: maxLines, includeLines: includeLines)
    }

    /// `layout` with the text's key already computed.
    @inline(__always)
    func layout(validUTF8 utf8: UnsafeRawBufferPointer, textKey: TextKey, style: TextStyle, width: Double, maxLines: Int, includeLines: Bool) -> TextMeasurement {
        let lineKey = LineKey(text: textKey, width: width, maxLines: maxLines)
        if lineCache.isEnabled, let hit = lineCache.lookup(lineKey) {
            return TextMeasurement(metrics: LineRecord.metrics(hit, lineHeight: style.lineHeight), lines: includeLines ? LineRecord.lines(hit) : [])
        }
        let prepared: PreparedTextView
        if preparedCache.isEnabled, let hit = preparedCache.lookup(textKey) {
            prepared = PreparedTextView(record: hit)
        } else {
            let widest = prepare(utf8, style)
            let segments = caches.pointee.segments.buffer
            if preparedCache.isEnabled, let record = preparedCache.insert(textKey, payloadBytes: PreparedTextView.recordBytes(segments: segments.count)) {
                PreparedTextView.write(segments, widest: widest, to: record)
            }
            prepared = PreparedTextView(segments: segments, widest: widest)
        }
        let isTruncated = breakLines(prepared, utf8, style, width: width, maxLines: maxLines)
        let lines = caches.pointee.lines.buffer
        var widest = 0.0
        for line in lines { widest = max(widest, line.width) }
        if lineCache.isEnabled, let record = lineCache.insert(lineKey, payloadBytes: LineRecord.bytes(lines: lines.count)) {
            LineRecord.write(lines, isTruncated: isTruncated, widest: widest, to: record)
        }
        let metrics = TextMetrics(lineCount: lines.count, height: Double(lines.count) * style.lineHeight, width: widest, isTruncated: isTruncated)
        return TextMeasurement(metrics: metrics, lines: includeLines ? Array(lines) : [])
    }
}

/// A growable buffer reused across calls (no allocation once it is large enough).
struct ScratchBuffer<Element> {
    private var base: UnsafeMutablePointer<Element>? = nil
    private var capacity = 0
    private(set) var count = 0

    var buffer: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    mutating func removeAll() { removeLast(count) }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow() }
        (base.unsafelyUnwrapped + count).initialize(to: element)
        count += 1
    }

    /// The elements in place (valid until the next append or removal).
    var mutableBase: UnsafeMutablePointer<Element> { base ?? UnsafeMutablePointer(bitPattern: MemoryLayout<Element>.alignment).unsafelyUnwrapped }

    @inline(__always)
    subscript(i: Int) -> Element {
        get { base.unsafelyUnwrapped[i] }
        set { base.unsafelyUnwrapped[i] = newValue }
    }

    /// Empties the buffer and returns room for `capacity` elements to initialize in order;
    /// `finishWriting(count:)` then says how many were.
    mutating func prepareForWriting(capacity: Int) -> UnsafeMutablePointer<Element> {
        removeAll()
        if capacity > self.capacity {
            if let base { Jemalloc.free(base) }
            let bigger = max(16, capacity, self.capacity * 2)
            base = Jemalloc.allocate(Element.self, capacity: bigger)
            self.capacity = bigger
        }
        return mutableBase
    }

    mutating func finishWriting(count: Int) { self.count = count }

    /// Appends `elements` (plain values).
    @inline(__always)
    mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        if count + elements.count > capacity { grow(to: count + elements.count) }
        if let from = elements.baseAddress { (base.unsafelyUnwrapped + count).initialize(from: from, count: elements.count) }
        count += elements.count
    }

    /// Room for `n` elements in all without growing.
    mutating func reserveCapacity(_ n: Int) { if n > capacity { grow(to: n) } }

    /// Hands the elements over in a jemalloc block of exactly their size (at least one
    /// element's room), to be freed with `Jemalloc.free`; the buffer is left empty.
    mutating func take() -> UnsafeMutableBufferPointer<Element> {
        let n = count
        let p: UnsafeMutablePointer<Element>
        if let base {
            p = Jemalloc.reallocate(UnsafeMutableRawPointer(base), bytes: Swift.max(n, 1) * MemoryLayout<Element>.stride).assumingMemoryBound(to: Element.self)
        } else {
            p = Jemalloc.allocate(Element.self, capacity: 1)
        }
        base = nil
        capacity = 0
        count = 0
        return UnsafeMutableBufferPointer(start: p, count: n)
    }

    mutating func removeLast(_ k: Int) {
        count -= k
        base?.advanced(by: count).deinitialize(count: k)
    }

    private mutating func grow(to least: Int = 0) {
        let bigger = max(16, capacity * 2, least)
        let new = Jemalloc.allocate(Element.self, capacity: bigger)
        if let base {
            new.moveInitialize(from: base, count: count)
            Jemalloc.free(base)
        }
        base = new
        capacity = bigger
    }

    mutating func deallocate() {
        removeAll()
        if let base { Jemalloc.free(base) }
        base = nil
        capacity = 0
        count = 0
    }
}

struct UncheckedSendable<T>: @unchecked Sendable {
    var value: T
}
