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
    /// out as before apart from the width (and columns of boxes: `layoutWidthShift`) whose
    /// width range, stamped in the environment before, holds the new width less the shift:
    /// those keep their heights (a rotation, a resized window or an edit-mode toggle
    /// measures again only the rows that can change). Rows that keep a valid range get the
    /// new epoch's stamp. Returns how many rows became dirty.
    private mutating func markDirty(_ layout: ProfileLayout, affected: [Bool], width: Int64) -> Int {
        let dirty = RowFlags.dirty.rawValue
        let old = layout.epoch
        layout.epoch = old == UInt32.max ? 1 : old + 1
        guard layout.batchesAreValid(store) else {
            return affected.withUnsafeBufferPointer { store.setFlag(dirty, onKinds: $0) }
        }
        let new = layout.epoch, batches = layout.batches.map(\.viewPointer), ranges = layout.batchRanges
        let measurer = layout.measurers[0]
        // What the new layout does to a clean row, per kind code, decided once here rather
        // than per row.
        let marks = affected.indices.map { code in
            guard affected[code] else { return WidthMark.keep }
            switch measurer.widthShiftIsZero(kind: UInt16(code)) {
            case nil: return .dirty
            case true?: return .sameLayout
            case false?: return .perValues
            }
        }
        // Every kind dirty whatever its rows' ranges hold (a font scale): no row is read.
        if layout.profile.kinds.allSatisfy({ marks[Int($0.code)] == .dirty }) { return store.setFlagOnEveryRow(dirty) }
        let shifts = ShiftCache()
        defer { shifts.deallocate() }
        var b = 0
        return marks.withUnsafeBufferPointer { marks in
            store.setFlags(gaining: dirty) { row, kind, flags in
                let mark = marks[Int(kind)]
                // Dirty whatever its range holds (a font scale: every kind).
                if mark == .dirty { return dirty }
                while b < ranges.count && row >= ranges[b].upperBound { b += 1 }
                guard b < ranges.count, row >= ranges[b].lowerBound else { return mark == .keep ? 0 : dirty }
                let range = batches[b].pointee.widthRanges.baseAddress.unsafelyUnwrapped + (row - ranges[b].lowerBound)
                // A measured row's range holds in the new environment when its kind did not
                // change at all, or changed only in width (and in columns of boxes taking
                // `shift` from the fill column) to a width whose unshifted value is inside the
                // range; the range then moves by the shift.
                guard flags & dirty == 0, range.pointee.epoch == old else { return mark == .keep ? 0 : dirty }
                let shift: Int64
                switch mark {
                case .keep:
                    range.pointee.epoch = new
                    return 0
                case .dirty:
                    return dirty
                case .sameLayout:
                    shift = 0
                case .perValues:
                    guard let s = shifts.shift(kind: kind, present: range.pointee.present, measurer) else { return dirty }
                    shift = s
                }
                guard range.pointee.holds(width - shift, epoch: old), shift >= 0 || range.pointee.holds(width, epoch: old) else { return dirty }
                // A stored range has 1 <= low < high: moving it by 0 leaves it as it is.
                if shift != 0 { range.pointee.shift(by: shift) }
                range.pointee.epoch = new
                return 0
            }
        }
    }

    /// The last shift (`CellMeasurer.layoutWidthShift`) looked up for each of 4,096 slots
    /// of (kind, present values) pairs, for `markDirty`: a few pairs serve a million rows,
    /// and a hit costs a hash and a compare where the measurer's lookup cost about 90
    /// instructions. A pair whose slot holds another is looked up again.
    private struct ShiftCache {
        static let size = 4096
        static let none = Int64.min
        let keys = UnsafeMutablePointer<UInt64>.allocate(capacity: size)
        let shifts = UnsafeMutablePointer<Int64>.allocate(capacity: size)

        init() { keys.initialize(repeating: .max, count: Self.size) }

        func deallocate() {
            keys.deallocate()
            shifts.deallocate()
        }

        @inline(__always)
        func shift(kind: UInt16, present: UInt32, _ measurer: CellMeasurer) -> Int64? {
            let key = UInt64(kind) << 32 | UInt64(present)
            let i = Int(truncatingIfNeeded: mix64(key)) & (Self.size - 1)
            if keys[i] != key {
                keys[i] = key
                shifts[i] = measurer.layoutWidthShift(kind: kind, present: present) ?? Self.none
            }
            return shifts[i] == Self.none ? nil : shifts[i]
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
