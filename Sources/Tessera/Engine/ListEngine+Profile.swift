/// A profile-driven list (Profiles/README.md): rows of the profile's kinds carrying their
/// values, measured by the engine in an environment.
///
/// - **Appends and inserts** check every row against its kind's rules and the groups the
///   change touches against the group rules before anything changes. New rows start at
///   their kind's estimate, flagged `RowFlags.dirty`.
/// - **Environment changes** (content width and with it the width class, edit mode, font
///   scale, platform, parameters) flag the rows of every kind whose height may change as
///   dirty; nothing is measured until asked. A dirty row keeps its last measured height
///   (or its kind's estimate on the new platform if it never had one) until measured.
/// - **Measurement** (`measure(budget:)`, `measureAll(threads:)`) measures dirty rows and
///   moves their heights into the geometry with scroll anchoring.
/// - **Groups**: a header starts a group, a footer ends it; `window` reports the sticky
///   header and which rows draw dividers.
/// - **Grid mode** (a profile with a `grid`): rows of the grid's kinds are packed into
///   lines of `grid.columnCount`; a line is as tall as its tallest item. The store keeps
///   one row per item (ids, kinds, flags, text); a line's height — with the padding above
///   the first line, the row gap below each line, and the padding below the last — is
///   stored on its first item and the other items hold 0, so the height tree is a list of
///   lines and every offset query, anchor and scroll limit works unchanged. The items'
///   own heights are a column of the store's pages, so they move with their rows. A width change re-packs the lines. Anchoring
///   keeps the items of the anchor row's line still: when the line becomes or stops
///   being the first (rows inserted above it or removed), the padding that moves in or
///   out of its span is taken out of the distance into it.
extension ListEngine {
    /// An empty list of `profile`'s kinds in `environment`. `textEngine` measures on the
    /// caller's thread; `measureAll` gives each further thread an engine with the same
    /// shaper and configuration (the shaper must then be thread-safe, as `FontShaper` is).
    /// - Throws: `invalidEnvironment`, `invalidViewport` (viewport or overscan not finite
    ///   and >= 0), `capacityExceeded` (page capacity or fanout out of range).
    public init(
        profile: Profile, environment: LayoutEnvironment, viewport: Double, overscan: Double = 250,
        textEngine: TextLayoutEngine = TextLayoutEngine(), pageCapacity: Int = RowStore.defaultPageCapacity, treeFanout: Int = 64
    ) throws(TesseraError) {
        guard overscan.isFinite, overscan >= 0 else { throw .invalidViewport(overscan) }
        let layout = try ProfileLayout(profile: profile, environment: environment, textEngine: textEngine)
        let store = try RowStore(
            estimatedHeights: profile.estimatedHeights(platform: environment.platform), pageCapacity: pageCapacity, treeFanout: treeFanout,
            itemColumn: layout.isGrid)
        try self.init(store: store, viewport: viewport)
        self.overscan = overscan
        self.layout = layout
    }

    /// The profile of a profile-driven list.
    public var profile: Profile? { layout?.profile }
    /// The environment rows are measured in (nil without a profile).
    public var environment: LayoutEnvironment? { layout?.environment }
    /// Rows waiting to be measured (flagged `RowFlags.dirty`).
    public var dirtyCount: Int { layout?.dirtyCount ?? 0 }
    /// The grid in the current environment, when the profile has one.
    public var grid: GridMetrics? { layout?.grid }

    /// Whether `measureAll` prepares the rows' texts once (`CellTextBatch`, about 100–300
    /// bytes per row) and keeps them, so measuring again after an environment change
    /// (width, width class, edit mode, font scale, platform) is arithmetic over kept
    /// segments. On by default; turning it off frees them. Inserting or removing rows
    /// drops them; the next `measureAll` with most rows dirty prepares them again.
    public var keepsPreparedTexts: Bool {
        get { layout?.keepsPreparedTexts ?? false }
        set {
            guard let layout else { return }
            layout.keepsPreparedTexts = newValue
            if !newValue { layout.rowsChanged() }
        }
    }

    /// Bytes held by the prepared texts `measureAll` keeps.
    public var preparedTextBytes: Int { layout?.batches.reduce(0) { $0 + $1.bytes } ?? 0 }

    public mutating func setOverscan(_ overscan: Double) throws(TesseraError) {
        guard overscan.isFinite, overscan >= 0 else { throw .invalidViewport(overscan) }
        self.overscan = overscan
    }

    /// Changes the environment rows are measured in. Rows of the kinds whose height may
    /// change become dirty (nothing is measured here); on a new platform rows never
    /// measured move to the new estimates, and a grid re-packs its lines when their column
    /// count, spacing or estimates change.
    /// Returns the corrected scroll offset.
    /// - Throws: `unsupported` without a profile; `invalidEnvironment` (a width or font
    ///   scale not finite, <= 0 or too large, a platform the profile lacks, bad
    ///   parameters); `ruleViolation` / `invalidSlotValue` when new parameter values make a
    ///   stored row break its rules (an image size range). Nothing changes on error.
    @discardableResult
    public mutating func setEnvironment(_ environment: LayoutEnvironment) throws(TesseraError) -> Double {
        guard let layout else { throw .unsupported("an environment on a list without a profile") }
        let old = layout.environment
        guard environment != old else { return scrollOffset }
        let packing = layout.packing
        let affected = try layout.setEnvironment(environment)
        if environment.parameters != old.parameters {
            do throws(TesseraError) {
                try layout.validateStoredRows(store)
            } catch {
                layout.restoreEnvironment(old)
                throw error
            }
        }
        // Nothing below throws.
        if environment.platform != old.platform { store.replaceEstimates(layout.estimates) }
        let gained = markDirty(layout, affected: affected, width: LayoutUnit.units(environment.width))
        if gained > 0 {
            layout.dirtyCount += gained
            layout.clean = nil
        }
        // Item heights stay until measured: the lines change only with the packing.
        if layout.isGrid && layout.packing != packing { layout.repack(from: 0, &store) }
        return reanchor()
    }

    /// Marks the rows of affected kinds dirty after an environment change, except rows laid
    /// out as before apart from the width (and padding, gaps and columns of boxes:
    /// `layoutWidthShift`) whose width range the shift keeps: those keep their heights (a
    /// rotation, a resized window, a change of width class or an edit-mode toggle measures
    /// again only the rows that can change). Returns how many rows became dirty.
    ///
    /// A range is valid from the epoch it was stamped in until its kind's layout changes
    /// other than in width (`ProfileLayout.kindEpochs`), so rows that keep their heights
    /// are not written, and rows of unaffected kinds not read. A row this marks dirty loses
    /// its range here (it may be measured again without one): an empty range.
    private mutating func markDirty(_ layout: ProfileLayout, affected: [Bool], width: Int64) -> Int {
        // No kind laid out differently: every height and range holds.
        guard affected.contains(true) else { return 0 }
        let dirty = RowFlags.dirty.rawValue
        if layout.epoch == UInt32.max {
            // Epochs start again: no range stamped before can be told apart from later ones.
            for batch in layout.batches {
                let ranges = batch.viewPointer.pointee.widthRanges
                for i in ranges.indices { ranges.baseAddress.unsafelyUnwrapped[i].epoch = 0 }
            }
            layout.epoch = 0
            layout.kindEpochs = layout.kindEpochs.map { _ in 0 }
        }
        layout.epoch += 1
        let measurer = layout.measurers[0]
        // What the new layout does to a clean row, per kind code, decided once here rather
        // than per row; without kept batches there are no ranges to read.
        let batchesAreValid = layout.batchesAreValid(store)
        let marks = affected.indices.map { code in
            guard affected[code] else { return WidthMark.keep }
            switch batchesAreValid ? measurer.widthShiftIsZero(kind: UInt16(code)) : nil {
            case nil: return .dirty
            case true?:
                // Content-wide grid items all measured through plans that read no width
                // hold every width: their ranges need not be read.
                let code = UInt16(code)
                let free = measurer.program.kinds[measurer.profile.kindIndex(code)].gridMode == 2
                    && layout.measurers.allSatisfy { $0.measuredGridRowsWithoutWidth(kind: code) }
                return free ? .keep : .sameLayout
            case false?: return .perValues
            }
        }
        for code in marks.indices where marks[code] == .dirty { layout.kindEpochs[code] = layout.epoch }
        let kindMarks = marks.indices.map { code in
            KindMark(dirty: marks[code] == .dirty ? dirty : 0, asks: marks[code] == .sameLayout || marks[code] == .perValues,
                     perValues: marks[code] == .perValues, since: layout.kindEpochs[code])
        }
        let batches = layout.batches.map(\.viewPointer), ranges = layout.batchRanges
        let shifts = ShiftCache(width: width), same = FillShift.none.window(at: width)
        defer { shifts.deallocate() }
        var gained = 0, b = 0
        let dirtyShift = UInt16(dirty.trailingZeroBitCount), asksAny = kindMarks.contains { $0.asks }
        /// 1 or 0, for conditions combined without a branch (`&&` branches on each).
        @inline(__always) func bit(_ condition: Bool) -> Int64 { condition ? 1 : 0 }
        kindMarks.withUnsafeBufferPointer { kindMarks in
            /// Marks rows `0 ..< count` of a page's `kinds` and `flags`, whose width ranges are
            /// `widthRanges` (nil: rows no batch holds, which have none).
            @inline(__always)
            func mark(_ kinds: UnsafePointer<UInt16>, _ flags: UnsafeMutablePointer<UInt16>, count: Int,
                      _ widthRanges: UnsafeMutablePointer<CellTextBatch.WidthRange>?) {
                guard let widthRanges, asksAny else {
                    for j in 0..<count {
                        let f = flags[j], m = kindMarks[Int(kinds[j])]
                        let set = f | m.dirty | (m.asks ? dirty : 0)
                        gained &+= Int((set & ~f & dirty) >> dirtyShift)
                        flags[j] = set
                    }
                    return
                }
                // Keeping or marking a row takes no branch (about half the rows, in no order,
                // go each way): every row's flags and range are written, changed or not.
                for j in 0..<count {
                    let kind = kinds[j], f = flags[j], m = kindMarks[Int(kind)], range = widthRanges + j
                    let epoch = range.pointee.epoch, low = Int64(range.pointee.low), high = Int64(range.pointee.high)
                    // A clean, measured row's range holds in the new environment when its kind
                    // changed only in width (and in padding, gaps and columns of boxes taking
                    // width from the fill column: `FillShift`) to a width the shift keeps; the
                    // range then moves by the shift.
                    let check = bit(m.asks) & bit(f & dirty == 0), valid = bit(epoch != 0) & bit(epoch >= m.since)
                    let window = bit(m.perValues) & check & valid != 0 ? shifts.window(kind: kind, present: range.pointee.present, measurer) : same
                    let keep = valid & bit(low <= window.atMost) & bit(window.below < high) & bit(high &- low > window.span)
                    let marked = check & (keep ^ 1)
                    let set = f | m.dirty | UInt16(truncatingIfNeeded: marked) << dirtyShift
                    gained &+= Int((set & ~f & dirty) >> dirtyShift)
                    flags[j] = set
                    // A stored range has 1 <= low < high: a shift by 0 would leave it as it is.
                    range.pointee.update(moves: check & keep & bit(window.fill != 0), by: window.fill, empties: marked)
                }
            }
            store.forEachPage { first, kinds, flags, n in
                var s = 0
                while s < n {
                    // Rows `s ..< end` lie in batch `b`, or in none (before it or past the last).
                    let row = first &+ s
                    while b < ranges.count && row >= ranges[b].upperBound { b += 1 }
                    let inBatch = b < ranges.count && row >= ranges[b].lowerBound
                    let end = b == ranges.count ? n : Swift.min(n, (inBatch ? ranges[b].upperBound : ranges[b].lowerBound) &- first)
                    let widthRanges = inBatch ? batches[b].pointee.widthRanges.baseAddress.unsafelyUnwrapped + (row &- ranges[b].lowerBound) : nil
                    mark(kinds + s, flags + s, count: end &- s, widthRanges)
                    s = end
                }
            }
        }
        return gained
    }

    /// What an environment change does to the clean rows of a kind code (`markDirty`).
    private struct KindMark {
        /// `dirty` for a kind none of whose rows keeps its height, else 0.
        var dirty: UInt16
        /// Whether a row keeps its height where its width range holds (`sameLayout`,
        /// `perValues`).
        var asks: Bool
        /// Whether the range's window depends on the row's present values.
        var perValues: Bool
        /// The kind's last change other than in width (`ProfileLayout.kindEpochs`).
        var since: UInt32
    }

    /// The last shift (`CellMeasurer.layoutWidthShift`) looked up for each of 4,096 slots
    /// of (kind, present values) pairs, as its window at the new width, for `markDirty`: a
    /// few pairs serve a million rows, and a hit costs a multiplication and a compare where
    /// the measurer's lookup cost about 90 instructions. A pair whose slot holds another is
    /// looked up again.
    private struct ShiftCache {
        static let bits = 12, size = 1 << bits
        let keys = UnsafeMutablePointer<UInt64>.allocate(capacity: size)
        let windows = UnsafeMutablePointer<FillShift.Window>.allocate(capacity: size)
        let width: Int64

        init(width: Int64) {
            self.width = width
            keys.initialize(repeating: .max, count: Self.size)
            windows.initialize(repeating: .never, count: Self.size)
        }

        func deallocate() {
            keys.deallocate()
            windows.deallocate()
        }

        @inline(__always)
        func window(kind: UInt16, present: UInt32, _ measurer: CellMeasurer) -> FillShift.Window {
            let key = UInt64(kind) << 32 | UInt64(present)
            let i = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - Self.bits))
            if keys[i] != key {
                keys[i] = key
                windows[i] = measurer.layoutWidthShift(kind: kind, present: present)?.window(at: width) ?? .never
            }
            return windows[i]
        }
    }

    /// What an environment change does to a clean row of a kind (`markDirty`).
    private enum WidthMark {
        /// The kind's layout did not change: the row keeps its height.
        case keep
        /// Only the width changed: the row keeps its height where its range holds.
        case sameLayout
        /// The fill column's shift depends on which values the row has.
        case perValues
        /// No row of the kind keeps its height.
        case dirty
    }

    mutating func insertProfiled(
        _ layout: ProfileLayout, ids: [UInt64], kinds: [UInt16], heights: [Double]?, text: RowText?, versions: [UInt64]?, at index: Int
    )
        throws(TesseraError) -> Double
    {
        guard heights == nil else { throw .unsupported("heights for rows of a profile-driven list: the engine measures them") }
        guard index >= 0, index <= store.count else { throw .rangeOutOfBounds(lowerBound: index, upperBound: index, count: store.count) }
        guard kinds.count == ids.count else { throw .columnLengthMismatch(column: "kinds", expected: ids.count, actual: kinds.count) }
        try layout.validate(kinds: kinds, text: text)
        try layout.validateGroups(replacing: index..<index, with: kinds, store)
        let before = store.count
        // Where the first row after the new ones was in its line, for the re-pack.
        let oldColumn = layout.isGrid && index < before ? layout.column(index, store) : 0
        try store.insert(ids: ids, kinds: kinds, heights: nil, text: text, versions: versions, flags: RowFlags.dirty.rawValue, at: index)
        // Nothing below throws.
        let k = kinds.count
        guard k > 0 else { return scrollOffset }
        layout.rowsChanged()
        layout.dirtyCount += k
        // Rows after the insertion moved: what was known clean there is not any more.
        if index < before { layout.clean = nil }
        let roles = layout.roles
        ProfileLayout.insert(into: &layout.groupMarks, at: index, count: k, kinds: kinds) { roles[Int($0)] != ProfileLayout.roleCell }
        if layout.isGrid {
            let inGrid = layout.inGrid
            ProfileLayout.insert(into: &layout.lineBreaks, at: index, count: k, kinds: kinds) { !inGrid[Int($0)] }
            // The line before the new rows may gain items, the lines after them may change
            // theirs, and the last line's padding may move.
            layout.repack(
                from: index > 0 ? layout.lineStart(index - 1, store) : 0, resume: index + k, shift: k, oldColumn: oldColumn, &store)
        }
        return reanchor()
    }

    mutating func removeProfiled(_ layout: ProfileLayout, _ range: Range<Int>) throws(TesseraError) -> Double {
        guard range.lowerBound >= 0, range.upperBound <= store.count else {
            throw .rangeOutOfBounds(lowerBound: range.lowerBound, upperBound: range.upperBound, count: store.count)
        }
        guard !range.isEmpty else { return scrollOffset }
        try layout.validateGroups(replacing: range, with: [], store)
        let from = range.lowerBound > 0 && layout.isGrid ? layout.lineStart(range.lowerBound - 1, store) : 0
        // Where the first row after the removed ones was in its line, for the re-pack.
        let oldColumn = layout.isGrid && range.upperBound < store.count ? layout.column(range.upperBound, store) : 0
        let dirty = store.count(flag: RowFlags.dirty.rawValue, in: range)
        try store.removeRows(range)
        // Nothing below throws.
        layout.rowsChanged()
        layout.dirtyCount -= dirty
        layout.clean = nil
        ProfileLayout.remove(from: &layout.groupMarks, range)
        if layout.isGrid {
            ProfileLayout.remove(from: &layout.lineBreaks, range)
            layout.repack(from: from, resume: range.lowerBound, shift: -range.count, oldColumn: oldColumn, &store)
        }
        return reanchor()
    }
}
