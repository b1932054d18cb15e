/// Measures rows of a profile's kinds in one environment: exact heights (in 1/64 pt), the
/// frame of every element on request, row validation and group lint.
///
/// Each kind is compiled for the environment into a flat program (`CellProgram`); a row is
/// read straight from its UTF-8 slots, the way the row store and the C ABI hold it: slot `i`
/// of a row is `utf8[slotOffsets[i] ..< slotOffsets[i + 1]]` and carries the kind's value
/// index `i`. Encodings (README "Row values"): a text or button label is its string (empty:
/// absent); a text list joins its items with U+001E; a box is present when its value is
/// not empty; an image is `44`, `110x80`, or `*` for the default size; a box stack is a
/// count. Measuring a row allocates nothing and touches no dictionary or string; texts go
/// through the `TextLayoutEngine` and its caches.
///
/// `height` and `frames` expect rows that passed `validate`; on other rows they return
/// some answer without trapping. One thread at a time, like the text engine it uses.
public final class CellMeasurer {
    public let profile: Profile
    public let textEngine: TextLayoutEngine
    public private(set) var environment: LayoutEnvironment

    var program: CellProgram
    /// Per-row working state and other mutable scratch, behind a pointer: one thread at a
    /// time uses a measurer, and reaching the state through a pointer avoids a dynamic
    /// exclusivity check on every access of a stored property. It and every block it points
    /// to come from jemalloc on cache lines of their own (`Jemalloc.allocate`): the
    /// measurers of `measureAll`'s threads are made one after the other on one thread, and
    /// from `allocate(capacity:)` small blocks of two of them shared lines (their scratch,
    /// or one's scratch and the other's kind counters, both written for every row).
    let scratch: UnsafeMutablePointer<Scratch>

    struct Scratch {
        /// Per-row working state, sized for the program's largest kind.
        var slotState: UnsafeMutablePointer<SlotState>
        var columnState: UnsafeMutablePointer<ColumnState>
        var slotCapacity: Int
        var columnCapacity: Int
        /// The row being measured holds valid UTF-8 in every slot (set by `readSlots`).
        var rowIsValidUTF8 = false
        /// The rows being measured were validated by the caller (`heights(...,
        /// rowsAreValidUTF8:)`): `readSlots` does not check them again.
        var trustsRows = false
        /// The rows being measured passed `validate` in this environment (stored rows):
        /// plans may count on their values' limits (`CellMeasurer.heightBounds`).
        var rowsAreValid = false
        /// Benchmark support (`CellTextLog`); nil in normal use.
        var textLog: CellTextLog? = nil
        /// The buffer of the row a text log is recording (request ranges are offsets into it).
        var currentRowBase: UnsafeRawPointer? = nil
        /// The prepared texts of the rows being measured (`heights(..., texts:)`) and the
        /// row's position in them.
        var batch: UnsafeMutablePointer<CellTextBatch.View>? = nil
        var batchRow = 0
        /// The batch was built from the rows being measured (`engineBegin`): a value's
        /// kept text is its bytes, unchecked.
        var batchIsRows = false
        /// Coverage bitmaps of primary faces for restyling kept texts (up to 8, replaced
        /// round-robin).
        var coverage = Jemalloc.allocate(FaceCoverage.self, capacity: 8)
        var coverageCount = 0
        var coverageNext: UInt = 0
        /// The line limits (`low ..< high`) the last kept text's line count holds for, set by
        /// `batchLines` when it gives a count from the text's own widths (nil otherwise).
        var lineRange: (low: Float, high: Float)? = nil
        /// The environment epoch rows measured with the batch are stamped with (0: none).
        var batchEpoch: UInt32 = 0
        /// Rows measured from kept results whose text record was read after all (a text
        /// that needs its bytes) since `engineBegin`: `measureAll` loads records ahead only
        /// while enough rows read theirs.
        var recordReads = 0
        /// The program's row plans (`RowPlans`), dropped with the program.
        var plans = Jemalloc.allocate(RowPlans.self, capacity: 1)
        /// Per kind code: rows `engineKeptHeight` was asked for and gave (zeroed by
        /// `engineBegin`).
        var keptKinds = Jemalloc.allocate(KeptKind.self, capacity: 0)
        var keptKindCount = 0
        /// The plans `engineKeptHeight` looked up, by `KeptKey.slot` of their key (emptied by
        /// `engineBegin`).
        var keptKeys: UnsafeMutablePointer<KeptKey> = {
            let p = Jemalloc.allocate(KeptKey.self, capacity: KeptKey.slots)
            p.initialize(repeating: KeptKey(), count: KeptKey.slots)
            return p
        }()
    }

    /// A direct-mapped slot of rows' kind code and present values (`key`; `.max`: empty) and
    /// their plan's entry in `RowPlans.kept` (-1: none): at hand without the plan lookup's
    /// loads, each depending on the one before. Rows spread over hundreds of sets of values
    /// (fiori-android's): with 128 slots, colliding keys sent 8 % of its font-scale pass to
    /// `findKeptPlan`.
    struct KeptKey {
        static let bits = 10, slots = 1 << bits
        @inline(__always)
        static func slot(_ key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - bits)) }
        var key = UInt64.max
        var kept: Int32 = -1
        /// A walked plan's index in `RowPlans.plans` (shape `walk`), else -1: such a row
        /// reads no `KeptPlan`, whose lines for fiori-ios's 192 walked plans at the regular
        /// width did not stay in L1 (reading them cost 4–9 % of its relayouts).
        var walk: Int32 = -1
    }

    /// Of a kind's rows in this batch: how many `engineKeptHeight` was asked for, and gave.
    /// After `KeptKind.trial` rows of which under a quarter came from kept results, the
    /// kind's rows are measured in full without asking.
    struct KeptKind {
        static let trial: UInt32 = 256
        var tries: UInt32 = 0, hits: UInt32 = 0
        @inline(__always) var worthTrying: Bool { tries < Self.trial || hits &* 4 >= tries }
    }

    /// What `engineKeptHeight` reads of a plan, in one of three shapes:
    /// - `sole`: a grid item's one text measured per row (`RowPlans.Plan.soleText`), in a
    ///   column `soleWidth` units wide, over `soleConstant`;
    /// - `fill`: a list row whose one text measured per row is in the fill column (over
    ///   `fillConstant`), beside fit columns each of a constant width or one text's natural
    ///   width (up to two), no fraction column and no button;
    /// - `walk`: any other list row: `runPlan` walks its plan over the kept results
    ///   (`KeptRow`), found through its key's entry (`KeptKey.walk`) without reading this.
    struct KeptPlan {
        enum Shape: UInt8 { case none, sole, fill, walk }
        /// A text slot: its value, style index, line limit and line height.
        struct Text {
            var value: Int32 = -1, style: Int32 = 0
            var maxLines = 0
            var lineHeight: Int64 = 0

            init() {}

            init(value: Int32, style: Int32, maxLines: Int, lineHeight: Int64) {
                (self.value, self.style, self.maxLines, self.lineHeight) = (value, style, maxLines, lineHeight)
            }

            @inline(__always)
            init(_ sp: UnsafePointer<SlotProgram>, _ p: CellProgram) {
                self.init(value: sp.pointee.valueIndex, style: sp.pointee.style, maxLines: Int(sp.pointee.maxLines),
                          lineHeight: p.lineHeights[Int(sp.pointee.style)])
            }
        }
        /// A fit column (`RowPlans.Fit`) of at most one text.
        struct Fit {
            var constant: Int64 = 0
            var text = Text()
            var maxMode: UInt8 = 0
            var maxLength: Int64 = 0, cap: Int64 = 0
            var maxFraction = 0.0
        }
        var shape = Shape.none
        var text = Text()
        var constantHeight: Int64 = 0, padding: Int64 = 0, minHeight: Int64 = 0
        var soleWidth: Int64 = 0, soleConstant: Int64 = 0
        var width: Int64 = 0, padHorizontal: Int64 = 0, usedConstant: Int64 = 0, fillConstant: Int64 = 0
        var fillFollowsWidth = false
        var fitCount = 0
        var fits = (Fit(), Fit())
    }

    var slotState: UnsafeMutablePointer<SlotState> { @inline(__always) get { scratch.pointee.slotState } }
    var columnState: UnsafeMutablePointer<ColumnState> { @inline(__always) get { scratch.pointee.columnState } }
    var rowIsValidUTF8: Bool {
        @inline(__always) get { scratch.pointee.rowIsValidUTF8 }
        @inline(__always) set { scratch.pointee.rowIsValidUTF8 = newValue }
    }
    var currentRowBase: UnsafeRawPointer? {
        get { scratch.pointee.currentRowBase }
        set { scratch.pointee.currentRowBase = newValue }
    }
    /// Benchmark support: records the row's text measurements or replays given answers
    /// (`CellTextLog`); nil in normal use.
    @_spi(Benchmarks) public var textLog: CellTextLog? {
        @inline(__always) get { scratch.pointee.textLog }
        set { scratch.pointee.textLog = newValue }
    }
    /// Per kind (profile order): whether its rows may measure differently than in the
    /// environment before the last `setEnvironment` (all true at first).
    private var changedKinds: [Bool]
    /// Per kind (profile order): laid out as before the last `setEnvironment` apart from the
    /// content width.
    private var sameApartFromWidth: [Bool]
    /// Per kind (profile order): no valid row of it can keep its height through a fill
    /// shift since the last `setEnvironment` (`CellProgram.fillShiftIsNil`).
    private var noFillShift: [Bool]
    /// Per kind (profile order): some row of this content-wide grid kind was measured
    /// through a layout that reads the width (not through a plan that reads none), since
    /// this measurer was made.
    private var gridRowsReadWidth: [Bool]
    /// The program before the last `setEnvironment`, which fill-column shifts are found
    /// against, and the shifts found so far.
    private var previousProgram: CellProgram?
    private var shifts = FillShifts()
    /// Styles built for recent (platform, font scale) pairs, so switching back reuses their
    /// identities and with them the text caches' entries.
    private var styleCache: [(platform: LayoutEnvironment.Platform, scale: Double, styles: [TextStyle])] = []

    /// The faces of the coverage bitmaps in the scratch (kept so their identifiers stay
    /// their own).
    var coverageFonts: [Font] = []

    /// The width used to measure a text's natural (single-line) width.
    static let naturalLayoutWidth = Double(1 << 24)

    /// - Throws: `invalidEnvironment` when the environment is not one the profile can lay out.
    public init(profile: Profile, environment: LayoutEnvironment, textEngine: TextLayoutEngine = TextLayoutEngine()) throws(TesseraError) {
        self.profile = profile
        self.textEngine = textEngine
        self.environment = environment
        try CellProgram.check(environment, profile.model)
        let styles = try CellProgram.makeStyles(profile, platform: environment.platform, fontScale: environment.fontScale)
        program = try CellProgram(profile: profile, environment: environment, styles: styles)
        styleCache = [(environment.platform, environment.fontScale, styles)]
        changedKinds = [Bool](repeating: true, count: profile.kinds.count)
        sameApartFromWidth = [Bool](repeating: false, count: profile.kinds.count)
        noFillShift = [Bool](repeating: true, count: profile.kinds.count)
        gridRowsReadWidth = [Bool](repeating: false, count: profile.kinds.count)
        let slotCapacity = Swift.max(program.maxSlots, 1)
        let columnCapacity = Swift.max(program.maxColumns, 1)
        let slots = Jemalloc.allocate(SlotState.self, capacity: slotCapacity)
        slots.initialize(repeating: SlotState(), count: slotCapacity)
        let columns = Jemalloc.allocate(ColumnState.self, capacity: columnCapacity)
        columns.initialize(repeating: ColumnState(), count: columnCapacity)
        scratch = Jemalloc.allocate(Scratch.self, capacity: 1)
        scratch.initialize(to: Scratch(slotState: slots, columnState: columns, slotCapacity: slotCapacity, columnCapacity: columnCapacity))
        scratch.pointee.plans.initialize(to: RowPlans())
    }

    deinit {
        let s = scratch.pointee
        for i in 0..<s.coverageCount { Jemalloc.free(s.coverage[i].bits) }
        Jemalloc.free(s.coverage)
        s.plans.pointee.free()
        s.plans.deinitialize(count: 1)
        Jemalloc.free(s.plans)
        Jemalloc.free(s.keptKeys)
        Jemalloc.free(s.keptKinds)
        s.slotState.deinitialize(count: s.slotCapacity)
        Jemalloc.free(s.slotState)
        s.columnState.deinitialize(count: s.columnCapacity)
        Jemalloc.free(s.columnState)
        scratch.deinitialize(count: 1)
        Jemalloc.free(scratch)
    }

    /// The width class the environment's width falls in.
    public var widthClass: String { program.widthClass }

    /// Recompiles every kind for `environment`. On error nothing changes.
    /// - Throws: `invalidEnvironment` (width or font scale not finite and positive or too
    ///   large, a platform the profile lacks, unknown or out-of-range parameters).
    public func setEnvironment(_ environment: LayoutEnvironment) throws(TesseraError) {
        try CellProgram.check(environment, profile.model)
        let cached = styleCache.first { $0.platform == environment.platform && $0.scale == environment.fontScale }
        let styles: [TextStyle]
        if let cached { styles = cached.styles } else { styles = try CellProgram.makeStyles(profile, platform: environment.platform, fontScale: environment.fontScale) }
        let next = try CellProgram(profile: profile, environment: environment, styles: styles)
        // Nothing below throws.
        if cached == nil {
            styleCache.append((environment.platform, environment.fontScale, styles))
            if styleCache.count > 8 { styleCache.removeFirst() }
        }
        if next.maxSlots > scratch.pointee.slotCapacity {
            scratch.pointee.slotState.deinitialize(count: scratch.pointee.slotCapacity)
            Jemalloc.free(scratch.pointee.slotState)
            scratch.pointee.slotCapacity = next.maxSlots
            scratch.pointee.slotState = Jemalloc.allocate(SlotState.self, capacity: next.maxSlots)
            scratch.pointee.slotState.initialize(repeating: SlotState(), count: next.maxSlots)
        }
        if next.maxColumns > scratch.pointee.columnCapacity {
            scratch.pointee.columnState.deinitialize(count: scratch.pointee.columnCapacity)
            Jemalloc.free(scratch.pointee.columnState)
            scratch.pointee.columnCapacity = next.maxColumns
            scratch.pointee.columnState = Jemalloc.allocate(ColumnState.self, capacity: next.maxColumns)
            scratch.pointee.columnState.initialize(repeating: ColumnState(), count: next.maxColumns)
        }
        changedKinds = (0..<profile.kinds.count).map { !next.sameLayout(kind: $0, as: program) }
        sameApartFromWidth = (0..<profile.kinds.count).map { next.sameLayout(kind: $0, as: program, ignoringWidth: true) }
        noFillShift = (0..<profile.kinds.count).map { next.fillShiftIsNil(kind: $0, from: program) }
        previousProgram = program
        shifts.removeAll()
        program = next
        scratch.pointee.plans.pointee.removeAll()
        self.environment = environment
    }

    /// Whether rows of the kind with this code may measure differently than in the
    /// environment before the last `setEnvironment` (true before any change and for an
    /// unknown code). False means every row of the kind keeps its height: nothing the
    /// kind's layout depends on changed (an edit-mode toggle for a kind without an
    /// edit-mode variant, say), so a bulk re-measurement can skip those rows.
    public func layoutChanged(kind code: UInt16) -> Bool {
        let k = profile.kindIndex(code)
        return k < 0 || changedKinds[k]
    }

    /// Whether `layoutWidthShift(kind:present:)` is 0 for every set of present values of
    /// kind `code` (true), depends on them (false), or is nil for all those of valid rows
    /// (nil). A content-wide grid item's kind laid out as before apart from the slot width
    /// gives true: its rows measured through a plan that reads no width hold every width.
    func widthShiftIsZero(kind code: UInt16) -> Bool? {
        let k = profile.kindIndex(code)
        guard k >= 0, previousProgram != nil else { return nil }
        switch program.kinds[k].gridMode {
        case 0: return noFillShift[k] ? nil : sameApartFromWidth[k]
        case 2: return sameApartFromWidth[k] ? true : nil
        default: return nil
        }
    }

    /// Whether every row of the kind with this code that this measurer measured went
    /// through a plan that reads no width while the kind is a content-wide grid item's
    /// (such a row holds every width: `widthShiftIsZero`).
    func measuredGridRowsWithoutWidth(kind code: UInt16) -> Bool {
        let k = profile.kindIndex(code)
        return k >= 0 && !gridRowsReadWidth[k]
    }

    /// For rows of the kind with this code and present values `mask` laid out as before the
    /// last `setEnvironment` apart from the content width, the horizontal padding, the gaps
    /// between columns and columns of boxes that never set the height
    /// (`CellProgram.fillShift`; nil otherwise, and for an unknown code): how the fill
    /// column moved (`FillShift.none`: not at all). A row whose width range
    /// (`CellTextBatch.WidthRange`) the shift `keeps` at the new width keeps its height.
    /// Present values of a row that passed validation.
    func layoutWidthShift(kind code: UInt16, present mask: UInt32) -> FillShift? {
        let k = profile.kindIndex(code)
        guard k >= 0, program.kinds[k].gridMode == 0, let previousProgram, !noFillShift[k] else { return nil }
        if sameApartFromWidth[k] { return FillShift.none }
        let key = UInt64(k) << 32 | UInt64(mask)
        if let known = shifts.find(key) { return known }
        // Past the table's room the row is measured again rather than the shift found
        // (which allocates) for every row.
        guard !shifts.isFull else { return nil }
        let shift = program.fillShift(kind: k, from: previousProgram, present: mask)
        shifts.insert(key, shift)
        return shift
    }

    /// Checks the compiled program and the scratch space (debug builds with
    /// TESSERA_INVARIANTS).
    public func _checkInvariants() {
        #if TESSERA_INVARIANTS
        program._checkInvariants()
        precondition(program.maxSlots <= scratch.pointee.slotCapacity && program.maxColumns <= scratch.pointee.columnCapacity)
        precondition(program.kinds.count == profile.kinds.count)
        textEngine._checkInvariants()
        #endif
    }

    // MARK: Heights

    /// The height of a valid row in points, a whole number of 1/64 pt; 0 for a kind the
    /// profile does not have.
    public func height(kind: UInt16, utf8: UnsafeRawBufferPointer, slotOffsets: UnsafeBufferPointer<Int>) -> Double {
        LayoutUnit.points(heightUnits(kind: kind, RowValues(utf8: utf8, offsets: slotOffsets)))
    }

    /// `height(kind:utf8:slotOffsets:)` of a row given as strings (slot i = value index i).
    public func height(kind: UInt16, slots: [String]) -> Double {
        RowValues.with(slots) { height(kind: kind, utf8: $0.utf8, slotOffsets: $0.offsets) }
    }

    /// Heights of a batch of valid rows: row `r`'s slot `s` is `utf8[offsets[r * slotsPerRow
    /// + s] ..< offsets[r * slotsPerRow + s + 1]]`, as `RowText` holds them.
    /// - Throws: `bufferTooSmall`, `columnLengthMismatch` when `offsets` does not hold
    ///   `kinds.count * slotsPerRow + 1` entries.
    public func heights(kinds: UnsafeBufferPointer<UInt16>, utf8: UnsafeRawBufferPointer, offsets: UnsafeBufferPointer<Int>, slotsPerRow: Int,
                        into results: UnsafeMutableBufferPointer<Double>) throws(TesseraError) {
        try heights(kinds: kinds, utf8: utf8, offsets: offsets, slotsPerRow: slotsPerRow, into: results, rowsAreValidUTF8: false)
    }

    /// `heights(kinds:utf8:offsets:slotsPerRow:into:)` for a caller that has already
    /// checked that every slot of every row is valid UTF-8 with in-bounds, non-decreasing
    /// offsets (`RowStore` does when rows are inserted; `validate` does): with
    /// `rowsAreValidUTF8` the rows are not checked again. Other rows must not be passed
    /// that way.
    ///
    /// With `onlyChangedKinds`, rows of kinds whose layout did not change with the last
    /// `setEnvironment` (`layoutChanged(kind:)` false) are skipped and keep the heights
    /// `results` holds for them.
    @_spi(Benchmarks)
    public func heights(kinds: UnsafeBufferPointer<UInt16>, utf8: UnsafeRawBufferPointer, offsets: UnsafeBufferPointer<Int>, slotsPerRow: Int,
                        into results: UnsafeMutableBufferPointer<Double>, rowsAreValidUTF8: Bool, onlyChangedKinds: Bool = false) throws(TesseraError) {
        guard results.count >= kinds.count else { throw .bufferTooSmall(needed: kinds.count, capacity: results.count) }
        let expected = kinds.count * Swift.max(slotsPerRow, 0) + 1
        guard slotsPerRow >= 0, offsets.count == expected else { throw .columnLengthMismatch(column: "offsets", expected: expected, actual: offsets.count) }
        scratch.pointee.trustsRows = rowsAreValidUTF8
        defer { scratch.pointee.trustsRows = false }
        let p = program
        let skips = onlyChangedKinds && changedKinds.contains(false)
        withExtendedLifetime(p) {
            for r in 0..<kinds.count {
                if skips, !layoutChanged(kind: kinds[r]) { continue }
                let slice = UnsafeBufferPointer(rebasing: offsets[r * slotsPerRow...(r + 1) * slotsPerRow])
                scratch.pointee.batchRow = r
                results[r] = LayoutUnit.points(heightUnits(kind: kinds[r], RowValues(utf8: utf8, offsets: slice), p))
            }
        }
    }

    /// The width a row is laid out at: the content width, or for a grid kind its item
    /// width (README "Grid mode").
    public func cellWidth(kind: UInt16, utf8: UnsafeRawBufferPointer, slotOffsets: UnsafeBufferPointer<Int>) -> Double {
        let k = profile.kindIndex(kind)
        guard k >= 0 else { return 0 }
        return LayoutUnit.points(cellWidthUnits(program.kinds[k], program, RowValues(utf8: utf8, offsets: slotOffsets)))
    }

    public func cellWidth(kind: UInt16, slots: [String]) -> Double {
        RowValues.with(slots) { cellWidth(kind: kind, utf8: $0.utf8, slotOffsets: $0.offsets) }
    }

    func heightUnits(kind: UInt16, _ row: RowValues) -> Int64 {
        // Not retained for each row: only `setEnvironment` replaces the program.
        Unmanaged.passUnretained(program)._withUnsafeGuaranteedRef { heightUnits(kind: kind, row, $0) }
    }

    @inline(__always)
    func heightUnits(kind: UInt16, _ row: RowValues, _ p: CellProgram) -> Int64 {
        let k = profile.kindIndex(kind)
        guard k >= 0 else { return 0 }
        // Read in place, not copied for each row.
        let kp = p.kinds.baseAddress.unsafelyUnwrapped + k
        if let planned = plannedHeight(k, kp, p, row) {
            #if TESSERA_INVARIANTS
            precondition(planned == layoutRow(kp.pointee, p, row, cellWidth: cellWidthUnits(kp.pointee, p, row)), "a planned height differs from laying the row out")
            #endif
            return planned
        }
        if kp.pointee.gridMode == 2 && !gridRowsReadWidth[k] { gridRowsReadWidth[k] = true }
        return layoutRow(kp.pointee, p, row, cellWidth: cellWidthUnits(kp.pointee, p, row))
    }
}

/// A row's values: slot `i` is `utf8[offsets[i] ..< offsets[i + 1]]`; missing slots are
/// empty. Offsets are not trusted here (validation checks them): a bad pair reads as empty.
struct RowValues {
    var utf8: UnsafeRawBufferPointer
    var offsets: UnsafeBufferPointer<Int>

    var slotCount: Int { Swift.max(offsets.count - 1, 0) }

    @inline(__always)
    func range(_ i: Int) -> Range<Int> {
        guard i >= 0, i + 1 < offsets.count else { return 0..<0 }
        let lo = offsets[i], hi = offsets[i + 1]
        guard lo >= 0, lo <= hi, hi <= utf8.count else { return 0..<0 }
        return lo..<hi
    }

    @inline(__always)
    func bytes(_ r: Range<Int>) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: utf8[r]) }

    /// Whether every slot is valid UTF-8, checked in one pass over the row's bytes: the
    /// offsets are in bounds and non-decreasing, the bytes from the first slot's start to
    /// the last slot's end are valid UTF-8, and no slot boundary falls inside a scalar (a
    /// valid sequence cut where no continuation byte follows leaves valid pieces). False
    /// when any of this fails; callers then validate text by text.
    var isValidUTF8: Bool {
        let n = offsets.count
        guard n >= 2 else { return true }
        let lo = offsets[0], hi = offsets[n - 1]
        guard lo >= 0, hi <= utf8.count else { return false }
        var previous = lo
        for i in 1..<n {
            let o = offsets[i]
            guard previous <= o else { return false }
            if o < hi && utf8[o] & 0xC0 == 0x80 { return false }
            previous = o
        }
        return firstInvalidUTF8Byte(UnsafeRawBufferPointer(rebasing: utf8[lo..<hi])) == nil
    }

    /// Calls `body` with strings as one UTF-8 buffer and slot offsets (the convenience forms).
    static func withThrowing<R>(_ slots: [String], _ body: (RowValues) throws(TesseraError) -> R) throws(TesseraError) -> R {
        var bytes: [UInt8] = []
        var offsets = [0]
        for s in slots {
            bytes.append(contentsOf: s.utf8)
            offsets.append(bytes.count)
        }
        let r = bytes.withUnsafeBytes { u in
            offsets.withUnsafeBufferPointer { o -> Result<R, TesseraError> in
                do throws(TesseraError) { return .success(try body(RowValues(utf8: u, offsets: o))) } catch { return .failure(error) }
            }
        }
        return try r.get()
    }

    static func with<R>(_ slots: [String], _ body: (RowValues) -> R) -> R {
        var bytes: [UInt8] = []
        var offsets = [0]
        for s in slots {
            bytes.append(contentsOf: s.utf8)
            offsets.append(bytes.count)
        }
        return bytes.withUnsafeBytes { u in offsets.withUnsafeBufferPointer { o in body(RowValues(utf8: u, offsets: o)) } }
    }
}

/// Working state of one slot while a row is measured.
struct SlotState {
    var present = false
    /// The value's bytes in the row's buffer.
    var start = 0, end = 0
    /// Text list items or box stack boxes.
    var count: Int32 = 0
    /// Natural width (for fit columns and "content" grid items); -1 until measured.
    var natural: Int64 = -1
    var width: Int64 = 0
    var height: Int64 = 0
    var x: Int64 = 0, y: Int64 = 0
}

struct ColumnState {
    var present = false
    var width: Int64 = 0
    var height: Int64 = 0
    var x: Int64 = 0
}
