import CJemalloc
/// The texts of a batch of rows, prepared once in the measurer's styles (each split into
/// its line-break segments with their widths), kept in row order: measuring the same rows
/// again at another width, in edit mode, in another width class or at another font scale
/// is then arithmetic over the kept segments, without hashing a text, looking one up in a
/// cache or finding its line-break opportunities again (pretext's prepare/layout split,
/// per cell).
///
/// `CellMeasurer.prepareTexts` makes one for rows; `CellMeasurer.heights(..., texts:)`
/// measures those same rows with it (the batch keeps no text, only its segments and
/// length: the rows are read again). `ListEngine.measureAll` keeps one per thread over
/// the store's rows. Texts are kept for the slots the measurer's program lays out (texts
/// with more than one line allowed, and texts whose natural width a `fit` column needs);
/// other texts and texts of another environment's layout go through the text engine and
/// its caches as without a batch. Either way the heights are the same.
///
/// **Styles.** A kept text remembers the style it was measured in. Where the measurer's
/// style for its slot differs (a new font scale or platform), the text's segments are
/// measured again in the new style on first use — segment boundaries do not depend on
/// the style — and segments the primary face measures alone are rescaled rather than
/// measured: with the built-in shaper the text engine gives the content (and likewise the
/// trailing spaces) of a segment whose scalars the primary face all maps (or that are
/// default ignorable) `Float(units × size / unitsPerEm + letterSpacing × clusters)`,
/// `units` a whole sum of advances and kerning and `clusters` its grapheme clusters (the
/// sum alone without letter spacing; letter spacing is in points and follows the font
/// scale), so the sum is recovered exactly from the kept width and scaled to the new size
/// with the same expression. Which scalars the face maps is read from a bitmap of
/// U+0000...U+07FF per font (Latin, Greek, Cyrillic and more); other segments are
/// measured through the text engine.
///
/// **Line counts.** Each text keeps its last line count with the range of line widths
/// over which every decision of the greedy fill comes out the same (each "does the next
/// segment fit" comparison stays on its side), so a text whose available width moved
/// inside that range is not broken again.
///
/// **Bounds without a fill.** The fill never gives fewer lines at a narrower limit when no
/// width is negative (`reportLines`), so a count kept at or past a line limit holds at
/// every narrower one, and a text kept at one line takes two or more below its natural
/// width; and a text whose segments' widths sum to more than `k - 1` lines' worth takes
/// `k` lines or more (`boundedCount`). After a font-scale increase most texts with a line
/// limit keep their height without being filled again, and at any width a long text at
/// its limit is not filled either.
///
/// **Font scale.** A text measured by the built-in shaper, with no negative width, alone in
/// its primary face or in runs of the faces of a font chain the new style shares (each run
/// its advances and kerning times the size over its face's units per em, summed), has
/// every width `Float(r × v)` in a style whose size and letter spacing are `r` times those
/// it was measured in, where its kept widths are `Float(v)`.
/// Each line width the fill compares is a sum of such widths, so in the new style it is
/// `r` times the kept sum to within a relative `2^-23` (two single-precision roundings and
/// the double arithmetic). Its line count at limit `L` is therefore its count at `L / r`
/// in the kept widths whenever no comparison falls within `scaleMargin` (2^-20, eight
/// times that bound) of the limit. Emergency breaks compare sums of grapheme-cluster
/// widths, each measured as a segment of the same text (the same form, so the same bound;
/// a negative cluster width leaves them no range, `TextLayoutEngine.breakLines`). Its
/// natural width is `r` times the kept one when
/// rounding up to a unit gives the same at both ends of the margin. Such texts are not
/// measured again after a font-scale change; a text for which either does not hold is
/// (`restyle`), so heights are those of measuring in the new style, to the bit.
///
/// One thread at a time, like the measurer (natural widths, line counts and rescaled
/// segments are written on use).
public final class CellTextBatch {
    /// The columns, as plain pointers the batch owns (see `View`), at a fixed address: a
    /// measurer using the batch holds a pointer to them rather than a copy of every column.
    private let viewStorage: UnsafeMutablePointer<View>
    var view: View {
        unsafeAddress { UnsafePointer(viewStorage) }
        unsafeMutableAddress { viewStorage }
    }
    var viewPointer: UnsafeMutablePointer<View> { viewStorage }
    /// The styles the kept texts were measured in (`View.measuredIn` indexes them; the
    /// view holds a copy as `View.states`).
    private(set) var styleStates: [StyleState]
    /// The style of each state (`View.styles` holds a copy), for breaking a kept text in
    /// the style its widths are in.
    private var stateStyles: [TextStyle]

    /// A style some kept texts were measured in, and how their widths follow from it.
    struct StyleState: Equatable {
        var identity: UInt64
        var size: Double
        /// Built-in shaper: a segment part (content or trailing spaces) of `clusters` grapheme
        /// clusters that the primary face measures alone is `width(units:clusters:)` wide.
        var builtIn: Bool
        /// In points (a profile's letter spacing times the font scale).
        var letterSpacing: Double
        var primary: ObjectIdentifier
        /// The font chain's identity: widths scale only within one chain (a text may have
        /// runs in any of its faces).
        var chain: UInt64
        var unitsPerEm: Double
        /// `unitsPerEm / size`, for recovering unit sums.
        var unitsPerPoint: Double

        /// What `TextLayoutEngine.runWidth` gives (stored in single precision) for a run of
        /// the primary face whose advances and kerning sum to `units`: the scaled sum plus
        /// the letter spacing per cluster, added only when there is letter spacing.
        @inline(__always)
        func width(units: Double, clusters: Int) -> Float {
            let x = units * size / unitsPerEm
            return Float(letterSpacing == 0 ? x : x + letterSpacing * Double(clusters))
        }

        /// `r` such that every width the built-in shaper gives a text in `b` (its runs' unit
        /// sums, each times the size over its face's units per em, plus the letter spacing
        /// per cluster) is, before its rounding to single precision, `r` times what it gives
        /// the text in `a` to within a few units in the last place of a double, for the same
        /// font chain; 0 otherwise or when a width could be negative (a negative letter
        /// spacing) or the ratio is beyond 1/64...64.
        static func ratio(_ a: StyleState, _ b: StyleState) -> Double {
            guard a.builtIn, b.builtIn, a.chain == b.chain, a.size > 0, b.size > 0, a.letterSpacing >= 0, b.letterSpacing >= 0 else { return 0 }
            let r = b.size / a.size
            // Letter spacing follows the font scale as the size does.
            guard r >= 1.0 / 64, r <= 64, (b.letterSpacing - r * a.letterSpacing).magnitude <= b.letterSpacing * 0x1p-40 else { return 0 }
            return r
        }

        /// The whole unit sum `width(units:clusters:)` turns into `w`, or nil past 2^22 units.
        /// Below that, in units, `w`'s single-precision rounding is off by at most a quarter
        /// (half a Float step of a width under 2^22 units), so rounding to the nearest whole
        /// number recovers the sum (and no other sum gives `w`).
        @inline(__always)
        func units(of w: Float, clusters: Int) -> Double? {
            let u = (letterSpacing == 0 ? Double(w) : Double(w) - letterSpacing * Double(clusters)) * unitsPerPoint
            guard u.magnitude < 4_194_304, letterSpacing == 0 || Double(w).magnitude * unitsPerPoint < 4_194_304 else { return nil }
            // Adding 1.5 × 2^52 leaves no fraction bits.
            return (u + 0x1.8p52) - 0x1.8p52
        }
    }

    /// Rows the batch was prepared for.
    public var rowCount: Int { view.rowCount }
    var slotsPerRow: Int { view.slotsPerRow }

    /// Takes over the columns' memory.
    fileprivate init(rowCount: Int, slotsPerRow: Int, styleStates: [StyleState], styles: [TextStyle], columns: inout BatchColumns) {
        self.styleStates = styleStates
        stateStyles = styles
        let n = columns.head.count
        let lines = Self.allocate(LineMemo.self, Swift.max(n, 1))
        lines.initialize(repeating: LineMemo())
        let widthRanges = Self.allocate(WidthRange.self, Swift.max(rowCount, 1))
        widthRanges.initialize(repeating: WidthRange())
        let styleCapacity = Swift.max(styleStates.count, 64)
        let current = Self.allocate(UInt16.self, styleCapacity)
        current.initialize(repeating: 0)
        let ratioFrom = Self.allocate(UInt16.self, styleCapacity)
        ratioFrom.initialize(repeating: .max)
        let ratio = Self.allocate(Double.self, styleCapacity)
        ratio.initialize(repeating: 0)
        viewStorage = .allocate(capacity: 1)
        viewStorage.initialize(to: View(rowCount: rowCount, slotsPerRow: slotsPerRow, first: UnsafeBufferPointer(columns.first.take()),
                    head: UnsafeBufferPointer(columns.head.take()), style: UnsafeBufferPointer(columns.style.take()),
                    length: UnsafeBufferPointer(columns.length.take()), segmentStart: UnsafeBufferPointer(columns.segmentStart.take()),
                    widest: columns.widest.take(), content: columns.content.take(), twoLinesBelow: columns.twoLinesBelow.take(), natural: columns.natural.take(),
                    lines: UnsafeMutableBufferPointer(rebasing: lines[0..<n]), widthRanges: UnsafeMutableBufferPointer(rebasing: widthRanges[0..<rowCount]),
                    measuredIn: columns.measuredIn.take(), flags: columns.flags.take(), segments: columns.segments.take(), current: current, ratioFrom: ratioFrom, ratio: ratio,
                    states: Self.buffer(styleStates), styles: Self.styleBuffer(styles), wideFirst: columns.wideFirst.take(), wide: columns.wide.take()))
    }

    deinit {
        Self.free(view.first)
        Self.free(view.head)
        Self.free(view.style)
        Self.free(view.length)
        Self.free(view.segmentStart)
        Self.free(UnsafeBufferPointer(view.widest))
        Self.free(UnsafeBufferPointer(view.content))
        Self.free(UnsafeBufferPointer(view.twoLinesBelow))
        Self.free(UnsafeBufferPointer(view.measuredIn))
        Self.free(UnsafeBufferPointer(view.flags))
        Self.free(UnsafeBufferPointer(view.segments))
        Self.free(UnsafeBufferPointer(view.natural))
        Jemalloc.free(view.lines.baseAddress!)
        Jemalloc.free(view.widthRanges.baseAddress!)
        Jemalloc.free(view.current.baseAddress!)
        Jemalloc.free(view.ratioFrom.baseAddress!)
        Jemalloc.free(view.ratio.baseAddress!)
        Jemalloc.free(view.wideFirst.baseAddress!)
        Jemalloc.free(view.wide.baseAddress!)
        Self.free(view.states)
        Self.free(view.styles)
        viewStorage.deinitialize(count: 1)
        viewStorage.deallocate()
    }

    private static func free<T>(_ buffer: UnsafeBufferPointer<T>) {
        Jemalloc.free(UnsafeMutablePointer(mutating: buffer.baseAddress!))
    }

    /// The columns come from jemalloc, as the store's (see `Jemalloc.allocate(_:capacity:)`).
    private static func allocate<T>(_: T.Type, _ capacity: Int) -> UnsafeMutableBufferPointer<T> {
        UnsafeMutableBufferPointer(start: Jemalloc.allocate(T.self, capacity: capacity), count: capacity)
    }

    private static func buffer<T>(_ elements: [T]) -> UnsafeBufferPointer<T> { UnsafeBufferPointer(mutableBuffer(elements)) }

    private static func mutableBuffer<T>(_ elements: [T]) -> UnsafeMutableBufferPointer<T> {
        let p = Jemalloc.allocate(T.self, capacity: Swift.max(elements.count, 1))
        elements.withUnsafeBufferPointer { if let b = $0.baseAddress { p.initialize(from: b, count: $0.count) } }
        return UnsafeMutableBufferPointer(start: p, count: elements.count)
    }

    /// Texts kept.
    public var textCount: Int { view.head.count }

    /// Whether no width of `segments` is negative (or NaN); the sum of their widths without
    /// trailing spaces, lowered by a relative 2^-30 and rounded down to single precision:
    /// under every sum of them the fill makes, whatever its order and rounding; and, for a
    /// text of one line wherever its segments fit (none negative, no mandatory break), that
    /// line's width as the fill sums it (`TextLayoutEngine.fillLines`), else -1: its natural
    /// width (`View.natural`), found while the segments are at hand.
    static func measure(_ segments: UnsafeBufferPointer<PreparedSegment>) -> (nonNegative: Bool, content: Float, oneLine: Double) {
        guard !segments.isEmpty else { return (true, 0, -1) }
        var nonNegative = true, mandatory = false, sum = 0.0
        // The fill's sums, `x = (x + space before) + width`: from 0 the first is its width.
        var line = 0.0, space = 0.0
        for s in segments {
            nonNegative = nonNegative && s.width >= 0 && s.whitespaceWidth >= 0
            mandatory = mandatory || s.isMandatory
            sum += Double(s.width)
            line = (line + space) + Double(s.width)
            space = Double(s.whitespaceWidth)
        }
        let lowered = sum * (1 - 0x1p-30)
        var content = Float(lowered)
        if Double(content) > lowered { content = content.nextDown }
        // Every line end at or under half the natural layout width: one line there too.
        let oneLine = nonNegative && !mandatory && line <= CellMeasurer.naturalLayoutWidth / 2 ? line : -1
        return (nonNegative, content, oneLine)
    }

    /// `View.first`'s entry for the value `bytes` of an image or box stack slot: the value
    /// parsed, so measuring it from kept results reads no text record. -2: an image of the
    /// slot's default size; -(3 + width << 15 | height): an image of that size in units;
    /// -(3 + 2^30 + count): a box stack's count before its slot's cap; -1 (nothing kept) for
    /// a value outside these ranges.
    static func boxCode(_ type: SlotType, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        if type == .boxStack {
            let count = bytes.isEmpty ? 0 : CellMeasurer.parseDecimal(bytes, allowFraction: false) ?? 0
            return count >= 0 && count < 0x1p29 ? -(3 + (1 << 30) + Int32(count)) : -1
        }
        // Parsed sides are never negative: -1 is the default ("" or "*").
        guard let size = CellMeasurer.parseImage(bytes, default: -1), size.width >= 0 else { return -2 }
        guard size.width < 1 << 15, (0..<(1 << 15)).contains(size.height) else { return -1 }
        return -(3 + Int32(size.width << 15 | size.height))
    }

    /// The image size `code` holds (`boxCode`), or nil.
    @inline(__always)
    static func imageSize(code: Int32, default d: Int64) -> (width: Int64, height: Int64)? {
        if code == -2 { return (d, d) }
        guard code <= -3, code > -(3 + (1 << 30)) else { return nil }
        let packed = Int64(-(code &+ 3))
        return (packed >> 15, packed & 0x7FFF)
    }

    /// The box count `code` holds (`boxCode`), or nil.
    @inline(__always)
    static func boxCount(code: Int32) -> Int32? {
        code <= -(3 + (1 << 30)) ? -(code &+ 3) &- (1 << 30) : nil
    }

    /// `View.twoLinesBelow` of printable ASCII `text` whose first segment is `first`,
    /// measured in `style`: an emergency break (`CellMeasurer.emergencyCount`) starts a
    /// line with that segment, adds its clusters' widths one by one and breaks once the sum
    /// passes the limit, so below both the segment's width (which calls for the break) and
    /// that sum the text takes two lines or more.
    static func twoLinesBelow(_ text: UnsafeRawBufferPointer, first: PreparedSegment?, style: UnsafePointer<TextStyle>, _ engine: TextLayoutEngine) -> Float {
        guard let first, let base = text.baseAddress else { return 0 }
        var end = first.end
        while end > 0 && text[end - 1] == 0x20 { end -= 1 }
        // The style is read through a pointer: a copy would retain its font chain.
        guard end >= 2, let widths = engine.simpleClusterWidths(identity: style.pointee.identity) else { return 0 }
        let b = base.assumingMemoryBound(to: UInt8.self)
        var sum = 0.0
        for k in 0..<end {
            var w = widths[Int(b[k])]
            if w.isNaN { w = engine.clusterWidth(base, k, k + 1, style.pointee) }
            guard w >= 0 else { return 0 }
            sum += w
        }
        var below = Float(sum)
        if Double(below) > sum { below = below.nextDown }
        return Swift.max(Swift.min(below, first.width), 0)
    }

    /// Keeps the `WideSegment`s of `text` (prepared as `segments` in `style`): those at
    /// least `threshold` wide, their clusters as `CellMeasurer.emergencyCount` measures
    /// them. Returns the first one's index in `wide`, or -1 when there is none or a
    /// segment's clusters are not printable ASCII or simple Latin (or have a negative
    /// width): then nothing is kept.
    static func keepWideSegments(_ text: UnsafeRawBufferPointer, _ segments: UnsafeBufferPointer<PreparedSegment>, style: UnsafePointer<TextStyle>,
                                 _ engine: TextLayoutEngine, threshold: Double, into wide: inout ScratchBuffer<WideSegment>) -> Int32 {
        guard let base = text.baseAddress, let widths = engine.simpleClusterWidths(identity: style.pointee.identity) else { return -1 }
        let b = base.assumingMemoryBound(to: UInt8.self)
        let first = wide.count
        var start = 0
        for (i, seg) in segments.enumerated() {
            defer { start = seg.end }
            guard Double(seg.width) >= threshold else { continue }
            let end = engine.contentEnd(base, start, seg.end)
            let content = UnsafeRawBufferPointer(start: base + start, count: end - start)
            var sum = 0.0, widest = 0.0
            var k = start
            if TextLayoutEngine.isPrintableASCII(content) {
                while k < end {
                    var w = widths[Int(b[k])]
                    if w.isNaN { w = engine.clusterWidth(base, k, k + 1, style.pointee) }
                    sum += w
                    widest = Swift.max(widest, w)
                    guard w >= 0 else { break }
                    k += 1
                }
            } else if TextLayoutEngine.isSimpleLatin(content) {
                while k < end {
                    let (index, length) = TextLayoutEngine.simpleCluster(b, k)
                    var w = widths[index]
                    if w.isNaN { w = engine.simpleClusterWidth(widths, index, base, k, length, style) }
                    sum += w
                    widest = Swift.max(widest, w)
                    guard w >= 0 else { break }
                    k &+= length
                }
            }
            guard k == end, end > start else {
                wide.removeLast(wide.count - first)
                return -1
            }
            wide.append(WideSegment(sum: sum, widest: Float(widest).nextUp, segment: UInt32(i)))
        }
        guard wide.count > first else { return -1 }
        wide[wide.count - 1].segment |= WideSegment.last
        return Int32(first)
    }

    /// Bytes held (segments and per-text and per-slot columns).
    public var bytes: Int {
        view.segments.count * MemoryLayout<PreparedSegment>.stride
            + view.head.count * (4 * 4 + 4 + 4 + 4 + 8 + 2 + 1 + 4 + MemoryLayout<LineMemo>.stride) + view.segmentStart.count * 4 + view.first.count * 4
            + view.widthRanges.count * MemoryLayout<WidthRange>.stride + view.wide.count * MemoryLayout<WideSegment>.stride
    }

    /// Whether every kept text is measured in the measurer's current styles (false after a
    /// font scale or platform change until the texts are measured again: each is then
    /// brought to the new style on first use, unless its line counts and natural width
    /// follow from its kept widths scaled, see "Font scale").
    public func isCurrent(for measurer: CellMeasurer) -> Bool {
        let p = measurer.program
        for t in 0..<view.head.count {
            let s = Int(view.style[t])
            guard s < p.styleIdentities.count, styleStates[Int(view.measuredIn[t])].identity == p.styleIdentities[s] else { return false }
        }
        return true
    }

    /// Points `view.current` at the states of `p`'s styles (adding states for new ones), so
    /// each kept text can tell with one comparison whether it is in its current style. The
    /// state table is bounded: when it would pass `UInt16` every kept text is brought to
    /// the current styles first (`adopt` is then called again by the measurer).
    func adopt(_ p: CellProgram, _ engine: TextLayoutEngine) -> Bool {
        guard p.styles.count <= view.current.count else { return false }
        if styleStates.count + p.styles.count > Int(UInt16.max) { compactStates() }
        let before = styleStates.count
        for s in 0..<p.styles.count {
            let state = Self.state(p.styles[s], engine)
            if let i = styleStates.firstIndex(of: state) {
                view.current[s] = UInt16(i)
            } else {
                guard styleStates.count < Int(UInt16.max) else { return false }
                view.current[s] = UInt16(styleStates.count)
                styleStates.append(state)
                stateStyles.append(p.styles[s])
            }
        }
        if styleStates.count != before { publishStates() }
        for s in 0..<view.ratioFrom.count { view.ratioFrom[s] = .max }
        return true
    }

    /// Drops the style states no kept text is measured in (each environment with a new
    /// font scale or platform adds states; this bounds the table by what is in use).
    private func compactStates() {
        var used = [Bool](repeating: false, count: styleStates.count)
        for t in 0..<view.measuredIn.count { used[Int(view.measuredIn[t])] = true }
        var remap = [UInt16](repeating: 0, count: styleStates.count)
        var kept: [StyleState] = [], keptStyles: [TextStyle] = []
        for i in 0..<styleStates.count where used[i] {
            remap[i] = UInt16(kept.count)
            kept.append(styleStates[i])
            keptStyles.append(stateStyles[i])
        }
        for t in 0..<view.measuredIn.count { view.measuredIn[t] = remap[Int(view.measuredIn[t])] }
        styleStates = kept
        stateStyles = keptStyles
        publishStates()
    }

    /// The view's copies of the states and their styles, after a change.
    private func publishStates() {
        Self.free(view.states)
        Self.free(view.styles)
        view.states = Self.buffer(styleStates)
        view.styles = Self.styleBuffer(stateStyles)
    }

    private static func styleBuffer(_ styles: [TextStyle]) -> UnsafeBufferPointer<TextStyle> {
        let p = Jemalloc.allocate(TextStyle.self, capacity: Swift.max(styles.count, 1))
        styles.withUnsafeBufferPointer { if let b = $0.baseAddress { p.initialize(from: b, count: $0.count) } }
        return UnsafeBufferPointer(start: p, count: styles.count)
    }

    private static func free(_ styles: UnsafeBufferPointer<TextStyle>) {
        let p = UnsafeMutablePointer(mutating: styles.baseAddress!)
        p.deinitialize(count: styles.count)
        Jemalloc.free(p)
    }

    static func state(_ style: TextStyle, _ engine: TextLayoutEngine) -> StyleState {
        let primary = style.fontChain.fonts[0]
        return StyleState(identity: style.identity, size: style.size, builtIn: engine.usesBuiltInShaper, letterSpacing: style.letterSpacing,
                          primary: ObjectIdentifier(primary), chain: style.fontChain.identity, unitsPerEm: Double(primary.unitsPerEm), unitsPerPoint: Double(primary.unitsPerEm) / style.size)
    }

    /// A kept text's last line count and the line widths over which it holds: for a limit
    /// `L` (width plus the engine's tolerance) with `low <= L < high` the greedy fill makes
    /// every decision as it did. `count` is the unlimited count, or with `partial` a lower
    /// bound (the fill stopped once the line limit was passed). `high <= low` (the initial
    /// value) means nothing is known.
    ///
    /// The bounds are kept in single precision, rounded inwards (low up, high down), so the
    /// range kept is never wider than the true one; 12 bytes per text.
    struct LineMemo {
        var low: Float = 1
        var high: Float = 0
        var count: Int16 = 0
        var partial = false

        init() {}

        /// `nil`-free: a count beyond `Int16` keeps nothing (the empty range).
        init(low: Double, high: Double, count: Int, partial: Bool) {
            guard count <= Int(Int16.max) else { return }
            var l = Float(low), h = Float(high)
            if Double(l) < low { l = l.nextUp }
            if Double(h) > high { h = h.nextDown }
            self.low = l
            self.high = h
            self.count = Int16(count)
            self.partial = partial
        }
    }

    /// The cell widths (units, `low ..< high`) over which a row's height is the same for
    /// every program that lays its kind out as the one it was measured in apart from the
    /// content width (`CellProgram.sameLayout(kind:as:ignoringWidth:)`), the environment
    /// epoch of that program (0: none), and the row's present values
    /// (`CellMeasurer.presentValues`; an empty range keeps them alone). The list engine
    /// reads it to leave rows alone after a width change (`ListEngine.setEnvironment`).
    struct WidthRange: Equatable {
        var low: Int32 = 0
        var high: Int32 = 0
        var epoch: UInt32 = 0
        var present: UInt32 = 0

        func holds(_ width: Int64) -> Bool { Int64(low) <= width && width < Int64(high) }

        /// The fill column widths (units) a text's line limits `lines` hold for: the text's
        /// limit is `max(w, 1) / 64 + 1/64` for a column `w` units wide.
        static func fillWidths(_ lines: (low: Float, high: Float)) -> (low: Int64?, high: Int64?) {
            (lines.low.isFinite ? LayoutUnit.ceiling(64 * Double(lines.low) - 1) : nil,
             lines.high.isFinite ? LayoutUnit.ceiling(64 * Double(lines.high) - 1) : nil)
        }

        /// The range for a layout whose fill column is `shift` units narrower at every
        /// width (`CellProgram.fillShift`); the open top (`Int32.max`) stays open, and a
        /// bound the shift would carry out of range leaves nothing.
        mutating func shift(by shift: Int64) {
            let l = Int64(low) + shift, h = high == Int32.max ? Int64(Int32.max) : Int64(high) + shift
            guard l >= 1, h <= Int64(Int32.max), l < h else {
                self = WidthRange(present: present)
                return
            }
            low = Int32(l)
            high = Int32(h)
        }

        /// `shift(by: shift)` where `moves` is 1, the bounds emptied (the epoch and present
        /// values kept, for the kept results) where `empties` is 1, else nothing, without a
        /// branch: `ListEngine.markDirty` decides about half its rows each way, in no order.
        /// `moves` and `empties` are each 0 or 1, not both 1.
        @inline(__always)
        mutating func update(moves: Int64, by shift: Int64, empties: Int64) {
            @inline(__always) func bit(_ condition: Bool) -> Int64 { condition ? 1 : 0 }
            let low = Int64(self.low), high = Int64(self.high), top = Int64(Int32.max)
            let l = low &+ shift, h = high &+ shift &* bit(high != top)
            let fits = bit(l >= 1) & bit(h <= top) & bit(l < h), dropped = moves & (fits ^ 1)
            let moved = 0 &- (moves & fits), emptied = 0 &- (empties | dropped), same = ~(moved | emptied)
            self.low = Int32(truncatingIfNeeded: l & moved | low & same)
            self.high = Int32(truncatingIfNeeded: h & moved | high & same)
            epoch &= ~UInt32(truncatingIfNeeded: 0 &- dropped)
        }
    }

    /// A segment of a kept text at least `WideSegment.ems` wide, as an emergency break
    /// measures it: its grapheme clusters' widths summed in order (`sum`, which kerning
    /// inside the word keeps from being the segment's width) and the widest of them, so
    /// that `boundedEmergency` can bound its pieces at a narrower line without the
    /// text's bytes. `segment` is its index in the text, with `last` on the text's last.
    struct WideSegment {
        var sum: Double
        var widest: Float
        var segment: UInt32

        static let last: UInt32 = 1 << 31
        /// Segments this many ems wide or wider are kept (George's long German words and
        /// references: about one row in six).
        static let ems = 6.0
    }

    /// The batch's columns as plain pointers (valid while the batch lives), so the
    /// measurer reads them without touching the object's reference count.
    struct View {
        let rowCount: Int
        let slotsPerRow: Int
        /// Per row and value slot: the value's first kept text; for an image or a box stack
        /// its value parsed (`CellTextBatch.boxCode`, below -1); else -1.
        let first: UnsafeBufferPointer<Int32>
        let head: UnsafeBufferPointer<Int32>
        let style: UnsafeBufferPointer<Int32>
        let length: UnsafeBufferPointer<Int32>
        let segmentStart: UnsafeBufferPointer<Int32>
        let widest: UnsafeMutableBufferPointer<Float>
        /// Per text: its segments' widths without their trailing spaces, summed, a little
        /// under the sum (`CellTextBatch.measure`).
        let content: UnsafeMutableBufferPointer<Float>
        /// Per text: limits below this give it two lines or more (`boundedCount`): for a
        /// printable ASCII text of a slot of two lines at most whose first segment has two
        /// grapheme clusters or more, none of negative width, the least of that segment's
        /// width and its clusters' widths summed as an emergency break sums them (rounded
        /// down); 0 for others, and once the text is measured in another style.
        let twoLinesBelow: UnsafeMutableBufferPointer<Float>
        /// Per text: its widest line at the natural layout width in points, in the style
        /// it is measured in; -1 until needed.
        let natural: UnsafeMutableBufferPointer<Double>
        let lines: UnsafeMutableBufferPointer<LineMemo>
        /// Per row: the cell widths its last height holds for (`WidthRange`).
        let widthRanges: UnsafeMutableBufferPointer<WidthRange>
        /// Per text: the index of the style state its segments are measured in.
        let measuredIn: UnsafeMutableBufferPointer<UInt16>
        /// Per text: `mappedAlone` (every scalar mapped by the primary face it was prepared
        /// in, so its segments scale with the size in that face) and `printableASCII` (so a
        /// grapheme cluster is a byte).
        let flags: UnsafeMutableBufferPointer<UInt8>
        static let mappedAlone: UInt8 = 1
        static let printableASCII: UInt8 = 2
        /// No segment width and no whitespace width is negative: the text's widths scale
        /// with the size (see "Font scale").
        static let nonNegative: UInt8 = 4
        /// No mandatory break and no negative width: the text's natural width, when known,
        /// is its one line's, the line it takes wherever that fits (`oneLineMemo`).
        static let oneLine: UInt8 = 8
        let segments: UnsafeMutableBufferPointer<PreparedSegment>
        #if TESSERA_INVARIANTS
        /// Tests: a kept text in another style is measured again (`restyle`), never scaled.
        var restylesEveryText = false
        #endif
        /// Per style of the program in use: its state's index (`adopt`).
        let current: UnsafeMutableBufferPointer<UInt16>
        /// Per style of the program in use: the state last asked about by `scale` (`.max`:
        /// none) and its ratio.
        let ratioFrom: UnsafeMutableBufferPointer<UInt16>
        let ratio: UnsafeMutableBufferPointer<Double>
        /// The style states (`CellTextBatch.styleStates`) and their styles.
        var states: UnsafeBufferPointer<CellTextBatch.StyleState>
        var styles: UnsafeBufferPointer<TextStyle>
        /// Per text: its first `WideSegment` in `wide`, or -1 (none kept, or the text
        /// measured again in another style since).
        let wideFirst: UnsafeMutableBufferPointer<Int32>
        let wide: UnsafeMutableBufferPointer<WideSegment>

        /// The kept text for item `item` of value `value` of row `row`, when it was
        /// prepared for `styleIndex` and has `count` bytes; -1 otherwise.
        @inline(__always)
        func text(row: Int, value: Int32, item: Int, styleIndex: Int32, count: Int) -> Int {
            guard value >= 0, row < rowCount, Int(value) < slotsPerRow else { return -1 }
            let f = first[row &* slotsPerRow &+ Int(value)]
            guard f >= 0 else { return -1 }
            let t = Int(f) &+ item
            guard t < head.count, head[t] == f, style[t] == styleIndex, Int(length[t]) == count else { return -1 }
            return t
        }

        /// `text(row:value:item:styleIndex:count:)` for item 0 of a value, in a batch built
        /// from the rows being measured (so its kept texts are their values, byte for byte).
        @inline(__always)
        func rowText(row: Int, value: Int32, styleIndex: Int32) -> Int {
            guard value >= 0, row < rowCount, Int(value) < slotsPerRow else { return -1 }
            let t = Int(first[row &* slotsPerRow &+ Int(value)])
            guard t >= 0, style[t] == styleIndex else { return -1 }
            return t
        }

        /// The kept items of text list slot `sp`'s value (`count` bytes) in row `row`: the
        /// consecutive texts from its first one that share it as their head, in order. Only
        /// when they account for the value exactly (each in the slot's style, their lengths
        /// and one separator between each two adding up to its bytes, so no item is empty or
        /// missing); nil otherwise. A batch keeps a list's items only when they do
        /// (`CellTextBatchBuilder`), so for a batch built from the rows measured `count`
        /// may be nil.
        @inline(__always)
        func listItems(row: Int, _ sp: UnsafePointer<SlotProgram>, count: Int?) -> Range<Int>? {
            let value = Int(sp.pointee.valueIndex), style = sp.pointee.style
            guard value >= 0, row < rowCount, value < slotsPerRow else { return nil }
            let f = first[row &* slotsPerRow &+ value]
            guard f >= 0 else { return nil }
            var end = Int(f), bytes = -1
            while end < head.count, head[end] == f {
                guard self.style[end] == style else { return nil }
                bytes &+= Int(length[end]) &+ 1
                end &+= 1
            }
            return count == nil || bytes == count ? Int(f)..<end : nil
        }

        /// What `first` holds for value `value` of row `row` (`CellTextBatch.boxCode`), or
        /// -1 when the value is out of the batch's slots.
        @inline(__always)
        func code(row: Int, value: Int32) -> Int32 {
            guard value >= 0, row < rowCount, Int(value) < slotsPerRow else { return -1 }
            return first[row &* slotsPerRow &+ Int(value)]
        }

        @inline(__always)
        func view(_ t: Int) -> PreparedTextView {
            let lo = Int(segmentStart[t]), hi = Int(segmentStart[t + 1])
            return PreparedTextView(segments: UnsafeBufferPointer(rebasing: segments[lo..<hi]), widest: widest[t])
        }

        /// Starts loading what measuring batch row `row` reads first: its slots' kept texts
        /// and its width range.
        @inline(__always)
        func prefetchRow(_ row: Int) {
            guard row < rowCount else { return }
            tess_prefetch(first.baseAddress! + row &* slotsPerRow)
            tess_prefetch(widthRanges.baseAddress! + row)
        }

        /// A kept text of batch row `row` (the one of its lowest value that has one; a row's
        /// texts are consecutive, so its others lie a few entries after or before), or -1.
        @inline(__always)
        func someKeptText(ofRow row: Int) -> Int {
            guard row < rowCount else { return -1 }
            let f = first.baseAddress! + row &* slotsPerRow
            var v = 0
            while v < slotsPerRow {
                if f[v] >= 0 { return Int(f[v]) }
                v &+= 1
            }
            return -1
        }

        /// Starts loading the per-text columns around batch row `row`'s kept texts (eight
        /// entries from the one `someKeptText` finds), reading its slots' kept texts (loaded
        /// by `prefetchRow`).
        @inline(__always)
        func prefetchTexts(ofRow row: Int) { prefetchTexts(from: someKeptText(ofRow: row)) }

        /// Starts loading the per-text columns of kept texts `a ... a + 7` (none for -1).
        /// The bounds (`widest`, `content`, `twoLinesBelow`) too: a count the kept range
        /// does not give at a new width or font scale reads them first (`boundedCount`),
        /// and their misses took 5 % of fiori-ios's font-scale pass.
        @inline(__always)
        func prefetchTexts(from a: Int) {
            guard a >= 0, a < head.count else { return }
            let b = Swift.min(a &+ 7, head.count &- 1)
            tess_prefetch(head.baseAddress! + a); tess_prefetch(head.baseAddress! + b)
            tess_prefetch(style.baseAddress! + a); tess_prefetch(style.baseAddress! + b)
            tess_prefetch(length.baseAddress! + a); tess_prefetch(length.baseAddress! + b)
            tess_prefetch(segmentStart.baseAddress! + a); tess_prefetch(segmentStart.baseAddress! + b)
            tess_prefetch(measuredIn.baseAddress! + a); tess_prefetch(measuredIn.baseAddress! + b)
            tess_prefetch(flags.baseAddress! + a); tess_prefetch(flags.baseAddress! + b)
            tess_prefetch(natural.baseAddress! + a); tess_prefetch(natural.baseAddress! + b)
            tess_prefetch(lines.baseAddress! + a); tess_prefetch(lines.baseAddress! + b)
            tess_prefetch(widest.baseAddress! + a); tess_prefetch(widest.baseAddress! + b)
            tess_prefetch(content.baseAddress! + a); tess_prefetch(content.baseAddress! + b)
            tess_prefetch(twoLinesBelow.baseAddress! + a); tess_prefetch(twoLinesBelow.baseAddress! + b)
        }

        /// Starts loading four lines of segments from batch row `row`'s kept text that
        /// `someKeptText` finds, reading where they start (loaded by `prefetchTexts`).
        @inline(__always)
        func prefetchSegments(ofRow row: Int) {
            let a = someKeptText(ofRow: row)
            guard a >= 0 else { return }
            prefetchSegments(from: Int(segmentStart[a]))
        }

        /// Starts loading four lines of segments from segment `i`.
        @inline(__always)
        func prefetchSegments(from i: Int) {
            guard i < segments.count else { return }
            let from = UnsafeRawPointer(segments.baseAddress! + i)
            tess_prefetch(from)
            tess_prefetch(from + 64)
            tess_prefetch(from + 128)
            tess_prefetch(from + 192)
        }

        /// The ratio by which the widths of a scalable text measured in state `from` scale to
        /// the current state of style `s`, or 0 when they do not (see "Font scale").
        @inline(__always)
        func scale(style s: Int, from: UInt16) -> Double {
            if ratioFrom[s] == from { return ratio[s] }
            let r = StyleState.ratio(states[Int(from)], states[Int(current[s])])
            ratioFrom[s] = from
            ratio[s] = r
            return r
        }

        /// The ratio by which kept text `t`'s widths scale to the current state of style
        /// `style` (1: measured in it), or nil when they do not (measured again first).
        @inline(__always)
        func keptScale(_ t: Int, style: Int32) -> Double? {
            let from = measuredIn[t]
            if from == current[Int(style)] { return 1 }
            #if TESSERA_INVARIANTS
            if restylesEveryText { return nil }
            #endif
            guard flags[t] & Self.nonNegative != 0 else { return nil }
            let r = scale(style: Int(style), from: from)
            return r > 0 ? r : nil
        }
    }
}

/// The growing columns of a batch being prepared, in jemalloc blocks the batch takes
/// over (`CellTextBatch.init`). Plain values in the builder, so appending retains and
/// checks nothing; every builder is finished (`CellTextBatchBuilder.finish`), which is
/// what frees them.
fileprivate struct BatchColumns {
    var first = ScratchBuffer<Int32>()
    var head = ScratchBuffer<Int32>(), style = ScratchBuffer<Int32>(), length = ScratchBuffer<Int32>(), segmentStart = ScratchBuffer<Int32>()
    var widest = ScratchBuffer<Float>(), content = ScratchBuffer<Float>(), twoLinesBelow = ScratchBuffer<Float>()
    var natural = ScratchBuffer<Double>()
    var measuredIn = ScratchBuffer<UInt16>()
    var flags = ScratchBuffer<UInt8>()
    var segments = ScratchBuffer<PreparedSegment>()
    var wideFirst = ScratchBuffer<Int32>()
    var wide = ScratchBuffer<CellTextBatch.WideSegment>()
}

/// Prepares a `CellTextBatch` row by row (for rows in columns, or a list engine's rows
/// walked through its store). Must be finished: `finish` hands its columns to the batch.
struct CellTextBatchBuilder {
    private let measurer: CellMeasurer
    private let program: CellProgram
    /// Per program slot: whether its texts are kept.
    private let keeps: [Bool]
    /// Per program slot: an image or box stack, its value kept parsed (`CellTextBatch.boxCode`).
    private let parses: [Bool]
    private let slotsPerRow: Int
    private let rowCount: Int
    private let trusted: Bool
    private var columns = BatchColumns()
    private var states: [CellTextBatch.StyleState]
    private let styles: [TextStyle]
    /// Per style: the primary face's coverage when its segments scale with the size.
    private let coverages: [FaceCoverage?]
    private var full = false

    /// - Parameter rowsAreValidUTF8: every row passed is valid UTF-8 (checked by the caller).
    init(_ measurer: CellMeasurer, rowCount: Int, slotsPerRow: Int, rowsAreValidUTF8: Bool) {
        self.measurer = measurer
        let p = measurer.program
        program = p
        self.rowCount = rowCount
        self.slotsPerRow = slotsPerRow
        trusted = rowsAreValidUTF8
        // Which slots of each kind keep their texts: those the program lays out with more
        // than one line allowed, and those whose natural width a column needs.
        var keeps = [Bool](repeating: false, count: p.slots.count)
        for kp in p.kinds {
            let columns = p.columns.baseAddress.unsafelyUnwrapped + Int(kp.columnStart)
            for ci in 0..<Int(kp.columnCount) {
                let c = columns + ci
                let natural = kp.gridMode == 2 ? c.pointee.mode != .fixed : c.pointee.mode == .fit
                for i in 0..<Int(c.pointee.itemCount) {
                    let s = Int(kp.slotStart) + Int(p.items[Int(c.pointee.itemStart) + i].slot)
                    let sp = p.slots[s]
                    guard sp.placed, sp.valueIndex >= 0 else { continue }
                    switch sp.type {
                    case .text, .textList: keeps[s] = sp.maxLines != 1 || natural
                    case .button: keeps[s] = (sp.buttonHeight < 0 && sp.maxLines != 1) || !sp.flag  // a fit button needs its label's natural width
                    default: break
                    }
                }
            }
        }
        self.keeps = keeps
        parses = p.slots.map { $0.type == .image || $0.type == .boxStack }
        let states = (0..<p.styles.count).map { CellTextBatch.state(p.styles[$0], measurer.textEngine) }
        self.states = states
        styles = Array(p.styles)
        coverages = (0..<p.styles.count).map { states[$0].builtIn ? measurer.primaryCoverage(p.styles[$0].fontChain.fonts[0]) : nil }
        columns.first.prepareForWriting(capacity: rowCount * slotsPerRow).initialize(repeating: -1, count: rowCount * slotsPerRow)
        columns.first.finishWriting(count: rowCount * slotsPerRow)
        // Room for a typical list (about two kept texts of eight segments per row), so the
        // columns rarely grow by copying.
        columns.head.reserveCapacity(2 * rowCount)
        columns.style.reserveCapacity(2 * rowCount)
        columns.length.reserveCapacity(2 * rowCount)
        columns.segmentStart.reserveCapacity(2 * rowCount + 1)
        columns.widest.reserveCapacity(2 * rowCount)
        columns.content.reserveCapacity(2 * rowCount)
        columns.natural.reserveCapacity(2 * rowCount)
        columns.twoLinesBelow.reserveCapacity(2 * rowCount)
        columns.measuredIn.reserveCapacity(2 * rowCount)
        columns.flags.reserveCapacity(2 * rowCount)
        columns.wideFirst.reserveCapacity(2 * rowCount)
        columns.segments.reserveCapacity(16 * rowCount)
    }

    /// Keeps the texts of row `r` (of `kind`, with values `row`).
    mutating func add(row r: Int, kind: UInt16, _ row: RowValues) {
        guard !full, r < rowCount else { return }
        let p = program, engine = measurer.textEngine
        let k = measurer.profile.kindIndex(kind)
        guard k >= 0 else { return }
        let kp = p.kinds[k]
        guard trusted || row.isValidUTF8 else { return }
        for v in 0..<Swift.min(Int(kp.valueCount), slotsPerRow) {
            let s = Int(kp.slotStart) + Int(p.valueSlots[Int(kp.valueStart) + v])
            if parses[s] {
                columns.first[r * slotsPerRow + v] = CellTextBatch.boxCode(p.slots[s].type, row.bytes(row.range(v)))
                continue
            }
            guard keeps[s] else { continue }
            // Two fields read in place, not the slot program copied per value.
            let style = p.slots[s].style, isList = p.slots[s].type == .textList, maxLines = p.slots[s].maxLines
            let range = row.range(v)
            guard !range.isEmpty, range.count <= Int(Int32.max) else { continue }
            let f = Int32(columns.head.count)
            func keep(_ r: Range<Int>) {
                columns.head.append(f)
                columns.style.append(style)
                columns.length.append(Int32(r.count))
                columns.segmentStart.append(Int32(columns.segments.count))
                columns.measuredIn.append(UInt16(style))
                let text = row.bytes(r)
                let widest = engine.prepare(text, p.styles[Int(style)])
                columns.widest.append(widest)
                let segments = engine.caches.pointee.segments.buffer
                columns.segments.append(contentsOf: segments)
                let measured = CellTextBatch.measure(segments)
                columns.content.append(measured.content)
                columns.natural.append(measured.oneLine)
                var flags: UInt8 = measured.nonNegative ? CellTextBatch.View.nonNegative : 0
                if measured.oneLine >= 0 { flags |= CellTextBatch.View.oneLine }
                if engine.caches.pointee.preparedFromASCIITables {
                    // Every byte printable ASCII, mapped by the primary face (most list text).
                    flags |= CellTextBatch.View.printableASCII | (coverages[Int(style)] != nil ? CellTextBatch.View.mappedAlone : 0)
                } else if let b = text.baseAddress?.assumingMemoryBound(to: UInt8.self) {
                    if FaceCoverage.printableASCIIPrefix(b, text.count) == text.count { flags |= CellTextBatch.View.printableASCII }
                    if let coverage = coverages[Int(style)], coverage.mapsAll(b, text.count) { flags |= CellTextBatch.View.mappedAlone }
                }
                #if TESSERA_INVARIANTS
                if engine.caches.pointee.preparedFromASCIITables, let b = text.baseAddress?.assumingMemoryBound(to: UInt8.self) {
                    precondition(FaceCoverage.printableASCIIPrefix(b, text.count) == text.count && coverages[Int(style)]?.mapsAll(b, text.count) == true)
                }
                #endif
                columns.flags.append(flags)
                columns.twoLinesBelow.append(maxLines == 2 && flags & CellTextBatch.View.printableASCII != 0
                    ? CellTextBatch.twoLinesBelow(text, first: segments.first, style: p.styles.baseAddress.unsafelyUnwrapped + Int(style), engine) : 0)
                let wideFrom = CellTextBatch.WideSegment.ems * states[Int(style)].size
                columns.wideFirst.append(Double(widest) >= wideFrom
                    ? CellTextBatch.keepWideSegments(text, segments, style: p.styles.baseAddress.unsafelyUnwrapped + Int(style), engine,
                                                     threshold: wideFrom, into: &columns.wide) : -1)
            }
            if isList {
                var from = range.lowerBound, bytes = -1
                while let item = CellMeasurer.nextItem(row.utf8, from: from, end: range.upperBound) {
                    keep(item)
                    bytes += item.count + 1
                    from = item.upperBound + 1
                }
                // Items that do not account for the value (an empty one) are not found.
                guard bytes == range.count else { continue }
            } else {
                keep(range)
            }
            if Int(f) < columns.head.count { columns.first[r * slotsPerRow + v] = f }
        }
        // Segment offsets are 32-bit: stop keeping texts well before they would overflow.
        if columns.segments.count >= Int(Int32.max) - (1 << 20) { full = true }
    }

    /// The batch (the builder is spent).
    consuming func finish() -> CellTextBatch {
        columns.segmentStart.append(Int32(columns.segments.count))
        return CellTextBatch(rowCount: rowCount, slotsPerRow: slotsPerRow, styleStates: states, styles: styles, columns: &columns)
    }
}

extension CellMeasurer {
    /// Prepares the texts of valid rows (laid out as `heights(kinds:utf8:offsets:slotsPerRow:into:)`
    /// takes them) for measuring them again quickly: see `CellTextBatch`.
    /// - Parameter rowsAreValidUTF8: the caller has checked every slot (the row store does
    ///   on insert); otherwise each row is checked and the texts of a row that is not valid
    ///   UTF-8 are not kept.
    /// - Throws: `columnLengthMismatch` when `offsets` does not hold `kinds.count *
    ///   slotsPerRow + 1` entries.
    public func prepareTexts(kinds: UnsafeBufferPointer<UInt16>, utf8: UnsafeRawBufferPointer, offsets: UnsafeBufferPointer<Int>, slotsPerRow: Int,
                             rowsAreValidUTF8: Bool = false) throws(TesseraError) -> CellTextBatch {
        let expected = kinds.count * Swift.max(slotsPerRow, 0) + 1
        guard slotsPerRow >= 0, offsets.count == expected else { throw .columnLengthMismatch(column: "offsets", expected: expected, actual: offsets.count) }
        var builder = CellTextBatchBuilder(self, rowCount: kinds.count, slotsPerRow: slotsPerRow, rowsAreValidUTF8: rowsAreValidUTF8)
        for r in 0..<kinds.count {
            builder.add(row: r, kind: kinds[r], RowValues(utf8: utf8, offsets: UnsafeBufferPointer(rebasing: offsets[r * slotsPerRow...(r + 1) * slotsPerRow])))
        }
        return builder.finish()
    }

    /// `heights(kinds:utf8:offsets:slotsPerRow:into:)` of the rows `texts` was prepared
    /// for, laying their kept texts out from it (the same heights as without it).
    /// - Throws: as `heights`, and `columnLengthMismatch` when `texts` was prepared for
    ///   another number of rows or slots per row.
    /// `onlyChangedKinds` as in `heights(..., rowsAreValidUTF8:onlyChangedKinds:)`.
    public func heights(kinds: UnsafeBufferPointer<UInt16>, utf8: UnsafeRawBufferPointer, offsets: UnsafeBufferPointer<Int>, slotsPerRow: Int,
                        texts: CellTextBatch, into results: UnsafeMutableBufferPointer<Double>, rowsAreValidUTF8: Bool = false,
                        onlyChangedKinds: Bool = false) throws(TesseraError) {
        guard texts.rowCount == kinds.count else { throw .columnLengthMismatch(column: "texts", expected: kinds.count, actual: texts.rowCount) }
        guard texts.slotsPerRow == slotsPerRow else { throw .columnLengthMismatch(column: "texts.slotsPerRow", expected: slotsPerRow, actual: texts.slotsPerRow) }
        use(texts)
        defer { use(nil) }
        try withExtendedLifetime(texts) { () throws(TesseraError) in
            try heights(kinds: kinds, utf8: utf8, offsets: offsets, slotsPerRow: slotsPerRow, into: results, rowsAreValidUTF8: rowsAreValidUTF8,
                        onlyChangedKinds: onlyChangedKinds)
        }
    }

    /// Measures with `texts` (rows are then numbered as in the batch, `scratch.batchRow`)
    /// until called with nil. The caller keeps the batch alive meanwhile.
    func use(_ texts: CellTextBatch?) {
        scratch.pointee.batchRow = 0
        guard let texts else {
            scratch.pointee.batch = nil
            return
        }
        // Without room for the program's style states (65,535 in use at once) the batch
        // is not used: measuring goes through the text engine, with the same heights.
        scratch.pointee.batch = texts.adopt(program, textEngine) ? texts.viewPointer : nil
    }

    /// The kept text of the row being measured for this item and the ratio by which its
    /// kept widths scale to the current style (1: it is measured in the current style; see
    /// "Font scale" in `CellTextBatch`), or nil (no batch or not kept). A text in another
    /// style whose widths do not scale is measured again in the current one first.
    @inline(__always)
    func batchText(_ bytes: UnsafeRawBufferPointer, _ p: CellProgram, style: Int32, value: Int32, item: Int)
        -> (UnsafeMutablePointer<CellTextBatch.View>, Int, ratio: Double)?
    {
        guard let batch = scratch.pointee.batch else { return nil }
        let t = scratch.pointee.batchIsRows && item == 0
            ? batch.pointee.rowText(row: scratch.pointee.batchRow, value: value, styleIndex: style)
            : batch.pointee.text(row: scratch.pointee.batchRow, value: value, item: item, styleIndex: style, count: bytes.count)
        #if TESSERA_INVARIANTS
        precondition(t == batch.pointee.text(row: scratch.pointee.batchRow, value: value, item: item, styleIndex: style, count: bytes.count),
                     "a batch built from the rows keeps a text other than the row's value")
        #endif
        guard t >= 0 else { return nil }
        return (batch, t, keptRatio(batch, t, bytes, p, style: style))
    }

    /// The ratio by which kept text `t`'s widths scale to the current style (1 when it is
    /// measured in it); a text whose widths do not scale is measured again in it first.
    @inline(__always)
    func keptRatio(_ batch: UnsafeMutablePointer<CellTextBatch.View>, _ t: Int, _ bytes: UnsafeRawBufferPointer, _ p: CellProgram, style: Int32) -> Double {
        if let r = batch.pointee.keptScale(t, style: style) { return r }
        restyle(batch, t, bytes, p, style: Int(style), to: batch.pointee.current[Int(style)])
        return 1
    }

    /// Relative margin around a comparison for results carried across a font scale.
    static let scaleMargin = 0x1p-20

    /// Kept text `t`'s line count (capped at `maxLines`) at a column `width` points wide
    /// where its kept widths scale to the current style and a word is wider than the line
    /// there, from its wide segments (`boundedEmergency`), or nil. Asked only once
    /// `keptLines` has found no count: it would make that inlined function longer.
    @inline(__always)
    func keptEmergencyBound(_ batch: UnsafeMutablePointer<CellTextBatch.View>, _ t: Int, style: Int32, width: Double, maxLines: Int) -> Int? {
        let first = Int(batch.pointee.wideFirst[t])
        guard first >= 0, let ratio = batch.pointee.keptScale(t, style: style), ratio != 1 else { return nil }
        let scaled = Self.scaled(width + TextLayoutEngine.widthTolerance, ratio)
        let view = batch.pointee.view(t)
        guard Double(view.widestSegment) > scaled else { return nil }
        return Self.boundedEmergency(batch.pointee.wide.baseAddress.unsafelyUnwrapped + first, view, limit: scaled, maxLines: maxLines)
    }

    /// The line count, capped at `maxLines` (0: none), of a kept text (`view`, its
    /// `WideSegment`s from `wide` on) at `limit` in its kept widths, where a word wider
    /// than the line is broken at its grapheme clusters (an emergency break), without the
    /// text's bytes: nil unless every step below is settled for every limit within
    /// `scaleMargin` of `limit` and every width within 2^-22 of its kept one (so the count
    /// is the one `emergencyCount` gives at `limit` and the one measuring the text again
    /// in the new style gives; see "Font scale"). It settles about five in six of
    /// George's labels that break inside a word at font scale 1.3.
    ///
    /// The fill's comparisons are made on the line's width, known to lie in `low...high`.
    /// A word broken into `k` pieces: each piece but the last closed because the next
    /// cluster (at most `c` wide, the word's widest) did not fit, so it is over `L - c`,
    /// and none is over `L` (every cluster fits the line); the pieces sum to the word's
    /// clusters' sum `S`. So `S / L <= k < 1 + S / (L - c)`, and the last piece lies in
    /// `[S - (k - 1) L, S - (k - 1) (L - c)]`: one `k` for a word much wider than `c`.
    @inline(never)
    static func boundedEmergency(_ wide: UnsafePointer<CellTextBatch.WideSegment>, _ view: PreparedTextView, limit: Double, maxLines: Int) -> Int? {
        var e = 0
        let least = limit * (1 - Self.scaleMargin), most = limit * (1 + Self.scaleMargin)
        let under = 1 - 0x1p-22, over = 1 + 0x1p-22
        let segments = view.segments.baseAddress.unsafelyUnwrapped, n = view.segments.count
        var lines = 0, low = 0.0, high = 0.0, pending = 0.0, hasContent = false
        for i in 0..<n {
            let seg = segments[i], w = Double(seg.width)
            if hasContent {
                if (low + pending + w) * under > most {
                    lines &+= 1
                    if maxLines > 0 && lines > maxLines { return maxLines }
                    (low, high, pending, hasContent) = (0, 0, 0, false)
                } else if !((high + pending + w) * over <= least) {
                    return nil
                }
            }
            if !hasContent && w * over > least {
                guard w * under > most else { return nil }
                // The segment's kept clusters (entries in segment order, the last marked).
                while Int(wide[e].segment & ~CellTextBatch.WideSegment.last) != i {
                    guard Int(wide[e].segment & ~CellTextBatch.WideSegment.last) < i, wide[e].segment & CellTextBatch.WideSegment.last == 0 else { return nil }
                    e &+= 1
                }
                let sumLow = wide[e].sum * under, sumHigh = wide[e].sum * over, widest = Double(wide[e].widest) * over
                let closing = least - widest
                guard closing > 0 else { return nil }
                let k = LayoutUnit.ceiling(sumLow / most)
                guard k >= 1, k == LayoutUnit.ceiling(sumHigh / closing), k < 1 << 31 else { return nil }
                lines &+= Int(k) &- 1
                if maxLines > 0 && lines > maxLines { return maxLines }
                let closed = Double(k &- 1)
                low = Swift.max(sumLow - closed * most, 0)
                high = Swift.min(sumHigh - closed * closing, most)
            } else {
                low += pending + w
                high += pending + w
            }
            pending = Double(seg.whitespaceWidth)
            hasContent = true
            if seg.isMandatory {
                lines &+= 1
                if maxLines > 0 && lines > maxLines { return maxLines }
                (low, high, pending, hasContent) = (0, 0, 0, false)
            }
        }
        if hasContent || lines == 0 || (n > 0 && segments[n &- 1].isMandatory) { lines &+= 1 }
        return maxLines > 0 ? Swift.min(lines, maxLines) : lines
    }

    /// Measures kept text `t` again in `style` (state `state`): the segment boundaries are
    /// kept, segments the primary face measures alone are rescaled (see `CellTextBatch`),
    /// others measured through the text engine as `prepare` measures them.
    /// The style is read from the program only for a text that is not all in one face (a
    /// `TextStyle` copy retains its font chain: most restyled texts need none).
    func restyle(_ view: UnsafeMutablePointer<CellTextBatch.View>, _ t: Int, _ bytes: UnsafeRawBufferPointer, _ p: CellProgram, style s: Int,
                 to state: UInt16) {
        let batch = view.pointee
        let from = batch.states[Int(batch.measuredIn[t])], to = batch.states[Int(state)]
        let lo = Int(batch.segmentStart[t]), hi = Int(batch.segmentStart[t + 1])
        let samePrimary = from.builtIn && to.builtIn && from.primary == to.primary
        // With letter spacing a width also depends on the part's grapheme clusters.
        let spaced = from.letterSpacing != 0 || to.letterSpacing != 0
        // Texts all mapped by this face need no check per segment.
        let alone = samePrimary && batch.flags[t] & CellTextBatch.View.mappedAlone != 0
        let b = bytes.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self)
        var widest: Float = 0
        if alone {
            // Every width of the text is `from.width(units:clusters:)` of a whole sum in the
            // face it was measured in (the text engine computes no other for it), so the sum
            // is recovered with no check per segment.
            @inline(__always) func rescaleAll(_ clusters: (Int, Int) -> (content: Int, spaces: Int)?) {
                var start = 0
                for i in lo..<hi {
                    let end = batch.segments[i].end
                    let w = batch.segments[i].width, ws = batch.segments[i].whitespaceWidth
                    if let c = clusters(start, end), let units = from.units(of: w, clusters: c.content),
                       let spaceUnits = from.units(of: ws, clusters: c.spaces) {
                        #if TESSERA_INVARIANTS
                        precondition(from.width(units: units, clusters: c.content) == w && from.width(units: spaceUnits, clusters: c.spaces) == ws)
                        #endif
                        batch.segments[i].width = to.width(units: units, clusters: c.content)
                        batch.segments[i].whitespaceWidth = to.width(units: spaceUnits, clusters: c.spaces)
                        #if TESSERA_INVARIANTS
                        checkRescaled(batch.segments[i], b + start, end - start, p.styles[s])
                        #endif
                    } else {
                        let m = textEngine.measureSegment(UnsafeRawPointer(b + start), end - start, p.styles[s])
                        batch.segments[i].width = Float(m.width)
                        batch.segments[i].whitespaceWidth = Float(m.whitespaceWidth)
                    }
                    widest = Swift.max(widest, batch.segments[i].width)
                    start = end
                }
            }
            if !spaced {
                rescaleAll { _, _ in (0, 0) }
            } else if batch.flags[t] & CellTextBatch.View.printableASCII != 0 {
                // A cluster per byte; the trailing spaces are U+0020.
                rescaleAll { start, end in
                    var contentEnd = end
                    while contentEnd > start && b[contentEnd - 1] == 0x20 { contentEnd -= 1 }
                    return (contentEnd - start, end - contentEnd)
                }
            } else {
                rescaleAll { start, end in Self.clusters(b, start, end) }
            }
        } else {
            let style = p.styles[s]
            let coverage: FaceCoverage? = samePrimary ? primaryCoverage(style.fontChain.primary) : nil
            var start = 0
            for i in lo..<hi {
                let end = batch.segments[i].end
                var scaled = false
                if coverage?.mapsAll(b + start, end - start) == true, let c = spaced ? Self.clusters(b, start, end) : (content: 0, spaces: 0) {
                    // The segment was measured through the text engine: the sums recovered
                    // are checked against the kept widths.
                    let w = batch.segments[i].width, ws = batch.segments[i].whitespaceWidth
                    if let units = from.units(of: w, clusters: c.content), let spaceUnits = from.units(of: ws, clusters: c.spaces),
                       from.width(units: units, clusters: c.content) == w, from.width(units: spaceUnits, clusters: c.spaces) == ws {
                        batch.segments[i].width = to.width(units: units, clusters: c.content)
                        batch.segments[i].whitespaceWidth = to.width(units: spaceUnits, clusters: c.spaces)
                        scaled = true
                        #if TESSERA_INVARIANTS
                        checkRescaled(batch.segments[i], b + start, end - start, style)
                        #endif
                    }
                }
                if !scaled {
                    let m = textEngine.measureSegment(UnsafeRawPointer(b + start), end - start, style)
                    batch.segments[i].width = Float(m.width)
                    batch.segments[i].whitespaceWidth = Float(m.whitespaceWidth)
                }
                widest = Swift.max(widest, batch.segments[i].width)
                start = end
            }
        }
        batch.widest[t] = widest
        batch.twoLinesBelow[t] = 0
        batch.lines[t] = CellTextBatch.LineMemo()
        batch.measuredIn[t] = state
        batch.wideFirst[t] = -1
        // The mapping flag holds for the face it was checked against.
        if !samePrimary { batch.flags[t] &= ~CellTextBatch.View.mappedAlone }
        batch.flags[t] &= ~(CellTextBatch.View.nonNegative | CellTextBatch.View.oneLine)
        let measured = CellTextBatch.measure(UnsafeBufferPointer(rebasing: batch.segments[lo..<hi]))
        batch.content[t] = measured.content
        batch.natural[t] = measured.oneLine
        if measured.nonNegative { batch.flags[t] |= CellTextBatch.View.nonNegative }
        if measured.oneLine >= 0 { batch.flags[t] |= CellTextBatch.View.oneLine }
    }

    #if TESSERA_INVARIANTS
    /// A rescaled segment against the text engine measuring it from scratch (no cache).
    func checkRescaled(_ segment: PreparedSegment, _ p: UnsafePointer<UInt8>, _ n: Int, _ style: TextStyle) {
        let m = textEngine.measureUncached(UnsafeRawPointer(p), n, style)
        precondition(Float(m.width) == segment.width && Float(m.whitespaceWidth) == segment.whitespaceWidth, "rescaled segment width differs from measuring it")
    }
    #endif

    /// The grapheme clusters of segment `[start, end)` of valid UTF-8 in its content and in
    /// its trailing spaces, as `TextLayoutEngine.runWidth` counts them for letter spacing
    /// (over each part, split as `measureUncached` splits it), for a segment whose scalars
    /// the primary face maps or are default ignorable. Nil when the content starts with a
    /// default ignorable scalar: itemizing may give it (and its cluster) to a fallback face.
    @inline(__always)
    static func clusters(_ b: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> (content: Int, spaces: Int)? {
        // Printable ASCII (most segments): a cluster per byte, the spaces U+0020 at the end.
        var contentEnd = end
        while contentEnd > start && b[contentEnd - 1] == 0x20 { contentEnd -= 1 }
        if FaceCoverage.printableASCIIPrefix(b + start, contentEnd - start) == contentEnd - start { return (contentEnd - start, end - contentEnd) }
        return otherClusters(b, start, end)
    }

    /// `clusters` for a segment that is not all printable ASCII: its own function, so the
    /// ASCII path stays a few instructions.
    @inline(never)
    static func otherClusters(_ b: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> (content: Int, spaces: Int)? {
        // Content ends after the last scalar that is neither a line-end space nor a
        // terminator; the spaces are the line-end spaces after it (terminators end a segment,
        // so none comes between), each its own cluster.
        var contentEnd = start, spaces = 0
        var i = start
        while i < end {
            let (v, length) = decodeValidUTF8(b, at: i)
            i += length
            if isLineTerminator(v) { continue }
            if isLineEndSpace(v) {
                spaces += 1
            } else {
                contentEnd = i
                spaces = 0
            }
        }
        guard contentEnd > start else { return (0, spaces) }
        if isDefaultIgnorable(decodeValidUTF8(b, at: start).scalar) { return nil }
        var it = GraphemeBreakIterator(validUTF8: UnsafeRawBufferPointer(start: b + start, count: contentEnd - start))
        var content = 0
        while it.next() != nil { content += 1 }
        return (content, spaces)
    }

    /// The face's bitmap of the BMP: bit set where it maps the scalar or the scalar is
    /// default ignorable (what `Font.unscaledWidthInThisFace` requires), filled 64 scalars
    /// at a time on first use. Kept per face (up to 8) in the measurer's scratch.
    @inline(__always)
    func primaryCoverage(_ font: Font) -> FaceCoverage {
        let id = ObjectIdentifier(font)
        let table = scratch.pointee.coverage
        for i in 0..<scratch.pointee.coverageCount where table[i].font == id { return table[i] }
        let entry = FaceCoverage(font: id, face: font, bits: Jemalloc.allocate(UInt64.self, capacity: FaceCoverage.words))
        entry.bits.initialize(repeating: 0, count: FaceCoverage.words)
        entry.prepareASCII()
        let slot = scratch.pointee.coverageCount < 8 ? scratch.pointee.coverageCount : Int(scratch.pointee.coverageNext % 8)
        if scratch.pointee.coverageCount < 8 {
            scratch.pointee.coverageCount += 1
        } else {
            Jemalloc.free(table[slot].bits)
        }
        scratch.pointee.coverageNext &+= 1
        table[slot] = entry
        coverageFonts.append(font)
        if coverageFonts.count > 64 { coverageFonts.removeFirst(32) }
        return entry
    }

    /// Line count of kept text `t` at `width` points with at most `maxLines` lines (0: no
    /// limit). Lines are filled greedily, so the first `maxLines` lines do not depend on
    /// the limit and the count is the unlimited count capped at the limit (the ellipsis
    /// fitted into a truncated last line changes that line, not the count). The count is
    /// reused while the width stays inside the range its decisions hold for (`LineMemo`).
    ///
    /// With `ratio` other than 1 the kept widths are in another style (`batchText`): the
    /// count and the range are those of the kept widths at the limit divided by `ratio`
    /// (emergency breaks measuring clusters in that style), used only when the limit is
    /// inside the range by `scaleMargin` at both ends; otherwise the text is measured again
    /// in the current style.
    @inline(__always)
    func batchLines(_ batch: UnsafeMutablePointer<CellTextBatch.View>, _ t: Int, _ bytes: UnsafeRawBufferPointer, _ p: CellProgram, style: Int32,
                    width: Double, maxLines: Int, ratio: Double) -> Int {
        #if TESSERA_INVARIANTS
        let before = batch.pointee.lines[t]
        @inline(__always) func checked(_ count: Int) -> Int {
            // Counts carried across a font scale, and those bounded or filled again, against
            // laying the text out (a count whose kept range held is the fill's own).
            let limit = width + TextLayoutEngine.widthTolerance
            let held = limit >= Double(before.low) && limit < Double(before.high) && (!before.partial || (maxLines > 0 && maxLines < Int(before.count)))
            if ratio != 1 || !held {
                let exact = textEngine.layout(validUTF8: bytes, style: p.styles[Int(style)], width: width, maxLines: maxLines, includeLines: false).lineCount
                precondition(count == exact, "a line count from a text's kept widths differs from laying it out")
            }
            return count
        }
        #else
        @inline(__always) func checked(_ count: Int) -> Int { count }
        #endif
        let count = keptLines(batch, t, width: width, maxLines: maxLines, ratio: ratio)
        if count >= 0 { return checked(count) }
        let limit = width + TextLayoutEngine.widthTolerance
        if ratio != 1 {
            if count == Self.needsEmergency {
                // Counted again in the kept widths at the scaled limit, breaking its segments
                // at grapheme clusters measured in the style those widths are in.
                let scaled = Self.scaled(limit, ratio)
                let (memo, count) = emergencyLines(batch, t, batch.pointee.view(t), bytes,
                                                   batch.pointee.styles.baseAddress.unsafelyUnwrapped + Int(batch.pointee.measuredIn[t]),
                                                   width: scaled - TextLayoutEngine.widthTolerance, maxLines: maxLines)
                if Self.holdsScaled(memo, scaled) { return checked(maxLines > 0 ? Swift.min(count, maxLines) : count) }
            }
            restyle(batch, t, bytes, p, style: Int(style), to: batch.pointee.current[Int(style)])
            return batchLines(batch, t, bytes, p, style: style, width: width, maxLines: maxLines, ratio: 1)
        }
        let (kept, emergency) = emergencyLines(batch, t, batch.pointee.view(t), bytes, p.styles.baseAddress.unsafelyUnwrapped + Int(style),
                                               width: width, maxLines: maxLines)
        scratch.pointee.lineRange = nil
        if Double(kept.low) <= limit && limit < Double(kept.high) { reportLines(batch, t, kept.low, kept.high, count: emergency, maxLines: maxLines) }
        return maxLines > 0 ? Swift.min(emergency, maxLines) : emergency
    }

    /// What `keptLines` gives for a count it cannot finish without the text's bytes: a
    /// segment wider than the line (emergency breaks measure grapheme clusters), or a text
    /// whose kept widths do not give the count in the current style (measured again).
    static let needsEmergency = -1, needsRestyle = -2

    /// `batchLines` as far as the kept widths go, without the text's bytes: the count
    /// (capped at `maxLines`), or `needsEmergency` / `needsRestyle`. Sets `lineRange` as
    /// `batchLines` does.
    @inline(__always)
    func keptLines(_ batch: UnsafeMutablePointer<CellTextBatch.View>, _ t: Int, width: Double, maxLines: Int, ratio: Double) -> Int {
        let limit = width + TextLayoutEngine.widthTolerance
        let memo = batch.pointee.lines[t]
        let counts = !memo.partial || (maxLines > 0 && maxLines < Int(memo.count))
        if ratio != 1 {
            let scaled = Self.scaled(limit, ratio)
            if counts && Self.holdsScaled(memo, scaled) { return maxLines > 0 ? Swift.min(Int(memo.count), maxLines) : Int(memo.count) }
            if let known = boundedCount(batch, t, memo, maxLines: maxLines, narrow: scaled * (1 + Self.scaleMargin)) { return known.count }
            if let line = oneLineMemo(batch, t, limit: scaled, maxLines: maxLines) {
                batch.pointee.lines[t] = line
                return Self.holdsScaled(line, scaled) ? 1 : Self.needsRestyle
            }
            if let wrapped = wrappedCount(batch, t, maxLines: maxLines, least: scaled * (1 - Self.scaleMargin), most: scaled * (1 + Self.scaleMargin)) {
                return wrapped.count
            }
            let view = batch.pointee.view(t)
            guard view.widestSegment <= scaled else { return Self.needsEmergency }
            // Counted again in the kept widths at the scaled limit; the range is of the kept
            // widths, whatever the margin: keep it.
            let (memo, count) = maxLines == 0 && view.segments.count > 0 ? Self.countAllLines(view, limit: scaled) : Self.countLines(view, limit: scaled, stopAfter: maxLines)
            batch.pointee.lines[t] = memo
            return Self.holdsScaled(memo, scaled) ? (maxLines > 0 ? Swift.min(count, maxLines) : count) : Self.needsRestyle
        }
        if limit >= Double(memo.low) && limit < Double(memo.high) && counts {
            reportLines(batch, t, memo.low, memo.high, count: Int(memo.count), maxLines: maxLines)
            return maxLines > 0 ? Swift.min(Int(memo.count), maxLines) : Int(memo.count)
        }
        if let known = boundedCount(batch, t, memo, maxLines: maxLines, narrow: limit) {
            scratch.pointee.lineRange = known.range
            return known.count
        }
        if let line = oneLineMemo(batch, t, limit: limit, maxLines: maxLines) {
            batch.pointee.lines[t] = line
            reportLines(batch, t, line.low, line.high, count: 1, maxLines: maxLines)
            return 1
        }
        if let wrapped = wrappedCount(batch, t, maxLines: maxLines, least: limit, most: limit) {
            scratch.pointee.lineRange = wrapped.range
            return wrapped.count
        }
        let view = batch.pointee.view(t)
        guard view.widestSegment <= limit else { return Self.needsEmergency }
        let (fresh, count) = maxLines == 0 && view.segments.count > 0 ? Self.countAllLines(view, limit: limit) : Self.countLines(view, limit: limit, stopAfter: maxLines)
        batch.pointee.lines[t] = fresh
        // A fresh count is reusable for the same limit on lines (`partial` only past it).
        reportLines(batch, t, fresh.low, fresh.high, count: count, maxLines: maxLines)
        return maxLines > 0 ? Swift.min(count, maxLines) : count
    }

    /// The fill's memo for kept text `t` at `limit` when its natural width is known to be
    /// its one line's (`View.oneLine`) and fits: one line, from that width up, with no pass
    /// over the segments (a title that wrapped at a narrow width and fits a wider one).
    @inline(__always)
    func oneLineMemo(_ batch: UnsafeMutablePointer<CellTextBatch.View>, _ t: Int, limit: Double, maxLines: Int) -> CellTextBatch.LineMemo? {
        // The flag is set with the width (never -1 under it).
        let natural = batch.pointee.natural[t]
        guard batch.pointee.flags[t] & CellTextBatch.View.oneLine != 0, natural <= limit else { return nil }
        let memo = CellTextBatch.LineMemo(low: natural, high: .infinity, count: 1, partial: false)
        #if TESSERA_INVARIANTS
        let view = batch.pointee.view(t)
        let (fill, count) = maxLines == 0 ? Self.countAllLines(view, limit: limit) : Self.countLines(view, limit: limit, stopAfter: maxLines)
        precondition(count == 1 && fill.low == memo.low && fill.high == memo.high && fill.count == 1 && !fill.partial, "a text's one line differs from its fill")
        #endif
        return memo
    }

    /// Two lines for kept text `t` whose every segment fits the limit (between `least` and
    /// `most`) and whose natural width does not (the widest of its lines at no limit wraps):
    /// with a limit of two lines, over limits from its widest segment to under its natural
    /// width. With a limit of three or more, where the second line fits too: the first line ends where its
    /// next segment would pass the limit, so it holds more than `limit - widest`, and what
    /// is left of a one-line text, under `natural - limit + widest`, fits from
    /// `(natural + widest) / 2` up (`twoLineMargin` over it for the sums' roundings). Nil
    /// otherwise (a segment wider than the line may be a cluster that does not break: one
    /// line).
    @inline(__always)
    func wrappedCount(_ batch: UnsafeMutablePointer<CellTextBatch.View>, _ t: Int, maxLines: Int, least: Double, most: Double)
        -> (count: Int, range: (low: Float, high: Float))? {
        let natural = batch.pointee.natural[t], widest = batch.pointee.widest[t], flags = batch.pointee.flags[t]
        guard maxLines >= 2, flags & CellTextBatch.View.nonNegative != 0, natural >= 0, Double(widest) <= least, most < natural else { return nil }
        var high = Float(natural)
        if Double(high) > natural { high = high.nextDown }
        if maxLines == 2 { return (2, (widest, high)) }
        let fits = (natural + Double(widest)) * 0.5 * (1 + Self.twoLineMargin)
        guard flags & CellTextBatch.View.oneLine != 0, fits <= least else { return nil }
        var low = Float(fits)
        if Double(low) < fits { low = low.nextUp }
        return (2, (low, high))
    }

    /// Relative room for the roundings of the fill's sums over a second line (under 2^-53
    /// each, one a segment): far more than a text of 2^20 segments needs.
    static let twoLineMargin = 0x1p-30

    /// A limit in the kept widths of a text whose widths scale by `ratio`: the limit times
    /// the ratio's reciprocal, which is computed while the limit is (a division after it
    /// would lengthen each row's chain of dependent steps). Within a relative 2^-52 of the
    /// quotient, far inside `scaleMargin`, which every use of it allows for.
    @inline(__always)
    static func scaled(_ limit: Double, _ ratio: Double) -> Double { limit * (1 / ratio) }

    /// Whether a count kept in other widths holds at `scaled` (the limit over the ratio):
    /// inside its range by `scaleMargin` at both ends.
    @inline(__always)
    static func holdsScaled(_ memo: CellTextBatch.LineMemo, _ scaled: Double) -> Bool {
        scaled >= Double(memo.low) * (1 + scaleMargin) && scaled < Double(memo.high) * (1 - scaleMargin)
    }

    /// Kept text `t`'s line count, capped at `maxLines`, when it follows from its kept
    /// results without filling its lines (see "Bounds without a fill"), with the line
    /// limits it holds for; nil otherwise. `narrow` is at least the limit in the kept widths
    /// (by the margin of a font scale).
    ///
    /// With no negative width the count does not decrease as the limit narrows, so:
    /// - a text of two lines at most takes two below `View.twoLinesBelow` (its first
    ///   segment is broken at its clusters, which the line cannot hold all of);
    /// - a text whose content (`View.content`, its segments' widths summed) is wider than
    ///   `maxLines - 1` lines of the limit, and than its widest segment, takes `maxLines`
    ///   lines or more: each line is at most the limit wide and their widths sum to at
    ///   least the content (below the widest segment: at least the lines there);
    /// - a kept count at `maxLines` or more (or a lower bound on it) holds below the top of
    ///   its range: `maxLines`;
    /// - a kept count of one line has the text's natural width at the bottom of its range
    ///   (the fill's last comparison; rounded up to single precision, so the float below
    ///   it is under it). Below that width, with the widest segment fitting, the last
    ///   comparison fails: two lines or more, and so at every narrower limit. With two
    ///   lines at most, two.
    @inline(__always)
    func boundedCount(_ batch: UnsafeMutablePointer<CellTextBatch.View>, _ t: Int, _ memo: CellTextBatch.LineMemo, maxLines: Int,
                      narrow: Double) -> (count: Int, range: (low: Float, high: Float))? {
        guard maxLines > 1, batch.pointee.flags[t] & CellTextBatch.View.nonNegative != 0 else { return nil }
        // Two lines at most, and a first segment the line cannot hold even by its clusters.
        if maxLines == 2 {
            let below = batch.pointee.twoLinesBelow[t]
            if narrow < Double(below) { return (2, (-.infinity, below)) }
        }
        let widest = batch.pointee.widest[t]
        // Too long for `maxLines - 1` lines: lines at most `limit` wide, with at least its
        // content between them.
        // Exact without a division for the common limits of 2 and 3 lines (a division's
        // latency lies on the row's chain).
        let content = Double(batch.pointee.content[t])
        let long = maxLines == 2 ? content : maxLines == 3 ? content * 0.5 : content / Double(maxLines - 1)
        if Double(widest) < long && narrow < long {
            var high = Float(long)
            if Double(high) > long { high = high.nextDown }
            return (maxLines, (-.infinity, high))
        }
        guard memo.low < memo.high else { return nil }
        if Int(memo.count) >= maxLines && narrow < Double(memo.high) { return (maxLines, (-.infinity, memo.high)) }
        let below = memo.low.nextDown
        if maxLines == 2 && memo.count == 1 && !memo.partial && widest <= below && narrow < Double(below) { return (2, (-.infinity, below)) }
        return nil
    }

    /// Reports the line limits kept text `t`'s height holds for (`lineRange`): those its
    /// count holds for, and every narrower one when the count reaches `maxLines` and no
    /// width of the text is negative. The greedy fill never gives fewer lines at a narrower
    /// limit then (each line ends no later than at the wider limit: what follows its start
    /// is a suffix of what follows the wider line's, and an emergency break only starts on
    /// an empty line), so the count stays capped.
    @inline(__always)
    func reportLines(_ batch: UnsafeMutablePointer<CellTextBatch.View>, _ t: Int, _ low: Float, _ high: Float, count: Int, maxLines: Int) {
        let capped = maxLines > 0 && count >= maxLines && batch.pointee.flags[t] & CellTextBatch.View.nonNegative != 0
        scratch.pointee.lineRange = (capped ? -.infinity : low, high)
    }

    /// The line count of kept text `t` with a segment wider than the line at `width`: the
    /// engine's emergency breaks at grapheme clusters, measured in `style` (the style its
    /// widths are kept in), kept with the range of limits its comparisons hold for. Stops
    /// once the count passes `maxLines` (0: never), as `countLines` does.
    /// The style is read through a pointer: a `TextStyle` copy retains its font chain, and
    /// printable ASCII texts need only its identity.
    func emergencyLines(_ batch: UnsafeMutablePointer<CellTextBatch.View>, _ t: Int, _ view: PreparedTextView, _ bytes: UnsafeRawBufferPointer,
                        _ style: UnsafePointer<TextStyle>, width: Double, maxLines: Int) -> (CellTextBatch.LineMemo, count: Int) {
        var range = (low: -Double.infinity, high: Double.infinity)
        let limit = width + TextLayoutEngine.widthTolerance
        let count: Int, partial: Bool
        if let (c, cut) = emergencyCount(view, bytes, style, ascii: batch.pointee.flags[t] & CellTextBatch.View.printableASCII != 0, limit: limit,
                                         maxLines: maxLines, range: &range) {
            #if TESSERA_INVARIANTS
            var exact = (low: -Double.infinity, high: Double.infinity)
            let exactCut = textEngine.breakLinesWithEmergency(view, bytes, style.pointee, limit: limit, maxLines: maxLines, range: &exact, ellipsizing: false)
            precondition(c == textEngine.caches.pointee.lines.count && cut == exactCut && exact.low.bitPattern == range.low.bitPattern
                         && exact.high.bitPattern == range.high.bitPattern, "an emergency count differs from breaking the text")
            #endif
            (count, partial) = (c, cut)
        } else {
            partial = textEngine.breakLinesWithEmergency(view, bytes, style.pointee, limit: limit, maxLines: maxLines, range: &range, ellipsizing: false)
            count = textEngine.caches.pointee.lines.count
        }
        let memo = CellTextBatch.LineMemo(low: range.low, high: range.high, count: count, partial: partial)
        batch.pointee.lines[t] = memo
        return (memo, count)
    }

    /// `TextLayoutEngine.breakLinesWithEmergency` without ellipsis, counting lines, for a
    /// kept text (no clusters kept with its view): the same comparisons of the same sums in
    /// the same order, so the same count, cut and `range`, without writing lines or
    /// updating the range through a pointer per cluster. Printable ASCII content (all of it
    /// with `ascii`, the text's flag) is a cluster per byte whose width is read from the
    /// engine's cluster table, and ends before its trailing U+0020s; other simple Latin
    /// content (`TextLayoutEngine.isSimpleLatin`) a cluster per scalar, read from the same
    /// table. Nil without the table (no segment cache).
    func emergencyCount(_ view: PreparedTextView, _ bytes: UnsafeRawBufferPointer, _ style: UnsafePointer<TextStyle>, ascii: Bool, limit: Double,
                        maxLines: Int, range: inout (low: Double, high: Double)) -> (count: Int, partial: Bool)? {
        guard let widths = textEngine.simpleClusterWidths(identity: style.pointee.identity) else { return nil }
        let base = bytes.baseAddress.unsafelyUnwrapped
        let b = base.assumingMemoryBound(to: UInt8.self)
        var low = range.low, high = range.high
        @inline(__always) func over(_ width: Double) -> Bool {
            if width > limit {
                high = Swift.min(high, width)
                return true
            }
            low = Swift.max(low, width)
            return false
        }
        let stop = maxLines > 0 ? maxLines : Int.max
        let segments = view.segments.baseAddress.unsafelyUnwrapped, n = view.segments.count
        var lines = 0, lineWidth = 0.0, pendingSpace = 0.0, hasContent = false, cut = false
        // A cluster of negative (or NaN) width leaves the range empty (`breakLinesWithEmergency`).
        var negative = false
        let needsEmergency = over(view.widestSegment)
        var segmentStart = 0
        var i = 0
        scan: while i < n {
            let seg = segments[i]
            let segWidth = Double(seg.width)
            if hasContent && over(lineWidth + pendingSpace + segWidth) {
                lines += 1
                (lineWidth, pendingSpace, hasContent) = (0, 0, false)
                if lines > stop {
                    cut = true
                    break
                }
            }
            if needsEmergency && !hasContent && over(segWidth) {
                var piece = 0.0, pieceHasCluster = false
                // One cluster onto the piece, closing the line before it when it does not fit;
                // false once the line limit is passed.
                @inline(__always) func add(_ w: Double) -> Bool {
                    if !(w >= 0) { negative = true }
                    if pieceHasCluster && over(piece + w) {
                        lines += 1
                        if lines > stop { return false }
                        piece = 0
                    }
                    piece += w
                    pieceHasCluster = true
                    return true
                }
                var contentEnd = seg.end
                if ascii {
                    while contentEnd > segmentStart && b[contentEnd - 1] == 0x20 { contentEnd -= 1 }
                } else {
                    contentEnd = textEngine.contentEnd(base, segmentStart, seg.end)
                }
                let content = UnsafeRawBufferPointer(start: base + segmentStart, count: contentEnd - segmentStart)
                if ascii || TextLayoutEngine.isPrintableASCII(content) {
                    var k = segmentStart
                    while k < contentEnd {
                        var w = widths[Int(b[k])]
                        if w.isNaN { w = textEngine.clusterWidth(base, k, k + 1, style.pointee) }
                        guard add(w) else {
                            cut = true
                            break scan
                        }
                        k += 1
                    }
                } else if TextLayoutEngine.isSimpleLatin(content) {
                    var k = segmentStart
                    while k < contentEnd {
                        let (index, length) = TextLayoutEngine.simpleCluster(b, k)
                        var w = widths[index]
                        if w.isNaN { w = textEngine.simpleClusterWidth(widths, index, base, k, length, style) }
                        guard add(w) else {
                            cut = true
                            break scan
                        }
                        k &+= length
                    }
                } else {
                    var it = GraphemeBreakIterator(validUTF8: content)
                    var a = 0
                    while let e = it.next() {
                        guard add(textEngine.clusterWidth(base, segmentStart + a, segmentStart + e, style.pointee)) else {
                            cut = true
                            break scan
                        }
                        a = e
                    }
                }
                lineWidth = piece
            } else {
                lineWidth += pendingSpace + segWidth
            }
            pendingSpace = Double(seg.whitespaceWidth)
            hasContent = true
            if seg.isMandatory {
                lines += 1
                (lineWidth, pendingSpace, hasContent) = (0, 0, false)
                if lines > stop {
                    cut = true
                    break
                }
            }
            segmentStart = seg.end
            i += 1
        }
        if !cut && (hasContent || lines == 0 || (n > 0 && segments[n - 1].isMandatory)) { lines += 1 }
        range = negative ? (.infinity, -.infinity) : (low, high)
        return (lines, maxLines > 0 && lines > maxLines)
    }

    /// The greedy fill of `TextLayoutEngine.breakLines` for segments that all fit `limit`,
    /// counting lines only, with the range of limits over which every comparison it makes
    /// comes out the same: a segment that fit needs `limit >=` the line up to it, one that
    /// did not needs `limit <` that width, and no emergency break needs `limit >=` the
    /// widest segment. Stops once the count passes `stopAfter` (0: never).
    @inline(__always)
    static func countLines(_ view: PreparedTextView, limit: Double, stopAfter: Int) -> (CellTextBatch.LineMemo, count: Int) {
        let stop = stopAfter > 0 ? stopAfter : Int.max
        var count = 0
        var low = view.widestSegment, high = Double.infinity
        TextLayoutEngine.fillLines(view.segments, limit: limit, compared: { width, fits in
            if fits { low = Swift.max(low, width) } else { high = Swift.min(high, width) }
        }) { _, _, _ in
            count += 1
            return count <= stop
        }
        return (CellTextBatch.LineMemo(low: low, high: high, count: count, partial: count > stop), count)
    }

    /// `countLines` of a text of at least one segment without a line limit (no stop): one
    /// loop over the segments, each line end picked by selects rather than the fill's two
    /// nested loops, with the same sums and comparisons. The compiler still branches once a
    /// segment on the comparison (in callgrind's model the pass mispredicts 10 % less than
    /// with the fill's loops); written with bit masks or vector lanes it branched all the
    /// same, and took more instructions.
    @inline(__always)
    static func countAllLines(_ view: PreparedTextView, limit: Double) -> (CellTextBatch.LineMemo, count: Int) {
        let segments = view.segments.baseAddress.unsafelyUnwrapped, n = view.segments.count
        var low = view.widestSegment, high = Double.infinity
        var count = 1, base = 0.0, x = Double(segments[0].width)
        var i = 1
        while i < n {
            let previous = segments[i &- 1]
            let start = x + Double(previous.whitespaceWidth)
            let next = start + Double(segments[i].width)
            let width = next - base
            let forced = previous.isMandatory
            let fits = width <= limit
            low = !forced && fits ? Swift.max(low, width) : low
            high = !forced && !fits ? Swift.min(high, width) : high
            let ends = forced || !fits
            base = ends ? start : base
            count &+= ends ? 1 : 0
            x = next
            i &+= 1
        }
        if segments[n &- 1].isMandatory { count &+= 1 }
        let memo = CellTextBatch.LineMemo(low: low, high: high, count: count, partial: false)
        #if TESSERA_INVARIANTS
        let (exact, exactCount) = countLines(view, limit: limit, stopAfter: 0)
        precondition(exactCount == count && exact.low == memo.low && exact.high == memo.high && !exact.partial,
                     "a count of every line in one loop differs from the fill's")
        #endif
        return (memo, count)
    }

    /// The natural width of kept text `t` in units: its widest line at the natural layout
    /// width, as the engine lays it out (the line computed once per style it is kept in).
    ///
    /// With `ratio` other than 1 (`batchText`), `ratio` times the kept line when rounding
    /// up to a unit comes out the same at both ends of `scaleMargin` and the line, scaled
    /// or not, stays far below the natural layout width (so no comparison of the fill there
    /// is near its limit either); otherwise the text is measured again in the current style.
    @inline(__always)
    func batchNatural(_ batch: UnsafeMutablePointer<CellTextBatch.View>, _ t: Int, _ bytes: UnsafeRawBufferPointer, _ p: CellProgram, style: Int32,
                      ratio: Double) -> Int64 {
        if let units = keptNaturalUnits(batch, t, ratio: ratio) {
            #if TESSERA_INVARIANTS
            if ratio != 1 {
                let exact = textEngine.layout(validUTF8: bytes, style: p.styles[Int(style)], width: Self.naturalLayoutWidth, maxLines: 0, includeLines: false)
                precondition(units == Swift.max(LayoutUnit.unitsUp(exact.width), 0), "a natural width carried across a font scale differs")
            }
            #endif
            return units
        }
        if ratio != 1 { restyle(batch, t, bytes, p, style: Int(style), to: batch.pointee.current[Int(style)]) }
        return Swift.max(LayoutUnit.unitsUp(keptNatural(batch, t, bytes, p, style: style)), 0)
    }

    /// `batchNatural` without the text's bytes, or nil when it needs them (a text measured
    /// again in the current style; an emergency break at the natural layout width).
    @inline(__always)
    func keptNaturalUnits(_ batch: UnsafeMutablePointer<CellTextBatch.View>, _ t: Int, ratio: Double) -> Int64? {
        guard ratio != 1 else { return keptNaturalWidth(batch, t).map { Swift.max(LayoutUnit.unitsUp($0), 0) } }
        let far = Self.naturalLayoutWidth / 2
        // A known line at most `far` wide holds every segment of the text whole (none is
        // wider than the line it is on): no test of the widest segment then.
        var kept = batch.pointee.natural[t]
        if !(kept >= 0) {
            // Far below the natural layout width, the kept line is found by filling alone.
            guard batch.pointee.widest[t] <= Float(far), let found = keptNaturalWidth(batch, t) else { return nil }
            kept = found
        }
        return Self.scaledNaturalUnits(kept, ratio: ratio)
    }

    /// A known natural width `kept` (points, in kept widths) scaled by `ratio`, in whole
    /// units rounded up, when both ends of the margin give the same unit; nil otherwise.
    @inline(__always)
    static func scaledNaturalUnits(_ kept: Double, ratio: Double) -> Int64? {
        // Each end of the margin is one product with the kept width, its factor computed
        // beside the chain that ends in that width (`scaled(_:_:)`); within a few units in
        // the last place of the two products before, far inside the margin. Both ends round
        // up to the same unit when the lower one's does not fall short of the upper end.
        let far = naturalLayoutWidth / 2
        let m = scaleMargin, units = ratio * LayoutUnit.perPoint
        let low = LayoutUnit.ceiling(kept * (units * (1 - m)))
        guard kept <= far && kept * ratio <= far && Double(low) >= kept * (units * (1 + m)) else { return nil }
        return Swift.max(low, 0)
    }

    /// The widest line of kept text `t` at the natural layout width in the style its widths
    /// are kept in (computed once).
    @inline(__always)
    func keptNatural(_ batch: UnsafeMutablePointer<CellTextBatch.View>, _ t: Int, _ bytes: UnsafeRawBufferPointer, _ p: CellProgram, style: Int32) -> Double {
        if let known = keptNaturalWidth(batch, t) { return known }
        // Only for a text kept in the current style (emergency breaks measure clusters in it).
        _ = textEngine.breakLines(batch.pointee.view(t), bytes, p.styles[Int(style)], width: Self.naturalLayoutWidth, maxLines: 0)
        var widest = 0.0
        for line in textEngine.caches.pointee.lines.buffer { widest = Swift.max(widest, line.width) }
        batch.pointee.natural[t] = widest
        return widest
    }

    /// `keptNatural` without the text's bytes: nil when a segment is wider than the natural
    /// layout width and the line is not known yet.
    @inline(__always)
    func keptNaturalWidth(_ batch: UnsafeMutablePointer<CellTextBatch.View>, _ t: Int) -> Double? {
        let known = batch.pointee.natural[t]
        if known >= 0 { return known }
        let view = batch.pointee.view(t)
        guard view.widestSegment <= Self.naturalLayoutWidth + TextLayoutEngine.widthTolerance else { return nil }
        // The widths `breakLines` would give its lines, without writing them.
        var widest = 0.0
        TextLayoutEngine.fillLines(view.segments, limit: Self.naturalLayoutWidth + TextLayoutEngine.widthTolerance) { _, _, width in
            widest = Swift.max(widest, width)
            return true
        }
        batch.pointee.natural[t] = widest
        return widest
    }
}

/// Which BMP scalars a face maps by itself (or are default ignorable), as a bitmap filled
/// in blocks of 64 scalars on first use: 1,024 words of bits, then 16 words marking the
/// blocks filled, then one word that is 1 when the face maps all printable ASCII.
struct FaceCoverage {
    let font: ObjectIdentifier
    /// Read only to fill a block. Kept alive by the measurer (`coverageFonts` holds every
    /// face its table has), unretained so that a lookup copies no reference.
    unowned(unsafe) let face: Font
    let bits: UnsafeMutablePointer<UInt64>
    static let words = 1024 + 16 + 1

    /// Fills the ASCII blocks and the printable-ASCII word.
    func prepareASCII() {
        fill(0)
        fill(1)
        let printable = bits[0] >> 32 == 0xFFFF_FFFF && bits[1] | (1 << 63) == UInt64.max
        bits[1040] = printable ? 1 : 0
    }

    /// Whether the face maps all printable ASCII.
    var mapsPrintableASCII: Bool { bits[1040] != 0 }

    /// Whether every scalar of `n` bytes of valid UTF-8 is in the BMP and mapped by the
    /// face or default ignorable.
    @inline(__always)
    func mapsAll(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        let ascii = mapsPrintableASCII
        var i = 0
        while i < n {
            let b0 = UInt32(p[i])
            var v = b0
            if b0 < 0x80 {
                // A run of printable ASCII at once (words between other scalars).
                if ascii && b0 &- 0x20 < 0x5F {
                    i += Self.printableASCIIPrefix(p + i, n - i)
                    continue
                }
                i += 1
            } else if b0 < 0xE0 {
                v = (b0 & 0x1F) << 6 | (UInt32(p[i + 1]) & 0x3F)
                i += 2
            } else if b0 < 0xF0 {
                v = (b0 & 0x0F) << 12 | (UInt32(p[i + 1]) & 0x3F) << 6 | (UInt32(p[i + 2]) & 0x3F)
                i += 3
            } else {
                return false
            }
            let block = Int(v >> 6)
            if bits[1024 + block >> 6] & (1 << UInt64(block & 63)) == 0 { fill(block) }
            if bits[block] & (1 << UInt64(v & 63)) == 0 { return false }
        }
        return true
    }

    /// The length of the longest prefix of `n` bytes that is printable ASCII (U+0020...U+007E).
    @inline(__always)
    static func printableASCIIPrefix(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
        // Eight bytes at a time: no byte >= 0x80, none below 0x20 (the subtraction borrows
        // into the high bit), none 0x7F.
        let high: UInt64 = 0x8080_8080_8080_8080, ones: UInt64 = 0x0101_0101_0101_0101
        var i = 0
        while i + 8 <= n {
            let w = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
            let x = w ^ (0x7F &* ones)
            if (w & high) != 0 || ((w &- 0x20 &* ones) & ~w & high) != 0 || ((x &- ones) & ~x & high) != 0 { break }
            i += 8
        }
        while i < n && p[i] &- 0x20 < 0x5F { i += 1 }
        return i
    }

    func fill(_ block: Int) {
        let mapped = face.characterMap.mappedBits(from: UInt32(block << 6))
        var word: UInt64 = 0
        for k in 0..<64 {
            let v = UInt32(block << 6 | k)
            if (v < 0xD800 || v > 0xDFFF) && (isDefaultIgnorable(v) || mapped & (1 << UInt64(k)) != 0) { word |= 1 << UInt64(k) }
        }
        bits[block] = word
        bits[1024 + block >> 6] |= 1 << UInt64(block & 63)
    }
}

extension CellTextBatch.WidthRange {
    /// What a list row keeps after `runPlan` gave `range` at cell width `width` (units):
    /// the range clamped to `1 ..< Int32.max` when it holds `width`, else none (the
    /// present values alone).
    init(range: (low: Int64, high: Int64), width: Int64, epoch: UInt32, present: UInt32) {
        let low = Swift.max(range.low, 1), high = Swift.min(range.high, Int64(Int32.max))
        self = low < high && low <= width && width < high
            ? CellTextBatch.WidthRange(low: Int32(low), high: Int32(high), epoch: epoch, present: present)
            : CellTextBatch.WidthRange(epoch: epoch, present: present)
    }
}
