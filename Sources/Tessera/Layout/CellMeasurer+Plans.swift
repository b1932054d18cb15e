/// Heights through plans: a kind's program specialised, on first use, for one set of
/// present values. What `layoutRow` decides for every row from the program — which slots
/// and columns are present, the gaps between them, the widths of fixed columns and the
/// sizes of boxes and one-line texts — depends only on which values a row has, so a plan
/// keeps it folded into constants and lists of what is left to do per row: natural widths
/// of fit columns, fraction and fill widths, and the heights of texts and of items sized
/// by their values. Environment changes measure every row again; with plans each row costs
/// its texts and a few additions rather than a walk over its kind's program. A column that
/// can never be the tallest (`heightBounds`) is left out, and with it, when no kept item
/// reads a width, the widths themselves: such a plan's height holds at every width.
///
/// Plans are compiled per program (`setEnvironment` drops them) and bounded in number;
/// a row without one (a table full, a "content"-wide grid item whose plan reads a width, a
/// text log in use) goes through `layoutRow`. Both give the same height to the bit; builds with
/// TESSERA_INVARIANTS check every planned height against `layoutRow`.
struct RowPlans {
    /// A kind with a set of present values, specialised.
    struct Plan {
        /// The cell width rows are laid out at (`CellMeasurer.planWidth`).
        var width: Int64
        var padTop: Int64, padBottom: Int64, minHeight: Int64
        /// The kind's leading and trailing padding together.
        var padHorizontal: Int64
        /// Where the kind's slot programs start.
        var slotStart: Int32
        /// Fixed column widths, those of fit columns of boxes, and the gaps between present
        /// columns.
        var usedConstant: Int64
        /// Local index of the fill column.
        var fill: Int32
        var fits: Range<Int32>
        var fractions: Range<Int32>
        /// Columns with items measured per row; the others' tallest constant height.
        var columns: Range<Int32>
        var constantHeight: Int64
        /// Slots whose state `readSlot` must write before items read it.
        var stated: Range<Int32>
        /// No fraction column: the fill column is the cell width less a constant (while
        /// that is not negative and no fit column reaches its cap), the others keep their
        /// widths whatever the cell width.
        var fillFollowsWidth: Bool
        /// Some measured item's height depends on its column's width: the rows' column
        /// widths are worked out (else `fits` and `fractions` are empty).
        var needsWidths: Bool
        /// The height is the same at every cell width: no measured item whose height
        /// depends on its column's width is in a column whose width follows the cell's.
        var widthFree: Bool
        /// The one item measured per row when it is a text in a column of a width known
        /// here (a grid item's title): its index in `items`, else -1. Such a row's height
        /// is that text's lines, `soleConstant` and the constants; `runPlan`'s walk is
        /// skipped (its calls cost more than the text's lines).
        var soleText: Int32 = -1
        var soleWidth: Int64 = 0, soleConstant: Int64 = 0
    }

    /// A column measured per row while a plan is compiled, with the least and greatest
    /// height it can have, whether its width follows the cell's and whether an item reads it.
    struct Measured {
        var column: Column
        var least: Int64, greatest: Int64
        var followsWidth: Bool, readsWidth: Bool
    }

    /// A fit column: its width is the widest natural width of its items (`constant` for
    /// boxes), capped as the column says.
    struct Fit {
        var column: Int32
        var constant: Int64
        var items: Range<Int32>
        var maxMode: UInt8
        var maxLength: Int64
        var maxFraction: Double
        /// `maxFraction` of the plan's inner width (`fractionCap`).
        var cap: Int64
    }

    struct Fraction {
        var column: Int32
        var fraction: Double
    }

    /// A present column: its height is `constant` (gaps, boxes, one-line texts) plus its
    /// items' heights at its width (`fixed` when the same for every row: a fixed column or
    /// a fit column of boxes; else -1: computed).
    struct Column {
        var column: Int32
        var fixed: Int64
        var constant: Int64
        var items: Range<Int32>
    }

    /// A slot measured per row: a text, a text list, an image sized by its value or by its
    /// column, or a box stack, each read straight from its value; a button through
    /// `natural`/`itemHeight` over its state (`stated`). An image in a fit column has its
    /// value read once, for its natural width, which keeps its height in its slot state
    /// for the column (`imageMeasured`).
    struct Item {
        enum Kind: UInt8 { case text, textList, image, imageFromColumn, imageMeasured, boxStack, stated }
        var slot: Int32
        var kind: Kind

        init(slot: Int, _ sp: SlotProgram) {
            self.slot = Int32(slot)
            switch sp.type {
            case .text: kind = .text
            case .textList: kind = .textList
            case .image: kind = sp.flag ? .imageFromColumn : .image
            case .boxStack: kind = .boxStack
            default: kind = .stated
            }
        }
    }

    /// A growing array of plain values behind a pointer: rows read it without retaining
    /// anything; it grows only while a plan is compiled.
    struct Buffer<T> {
        private(set) var base = UnsafeMutablePointer<T>.allocate(capacity: 16)
        private(set) var count = 0
        private var capacity = 16

        @inline(__always)
        subscript(i: Int32) -> T { base[Int(i)] }

        mutating func append(_ x: T) {
            if count == capacity {
                let grown = UnsafeMutablePointer<T>.allocate(capacity: 2 * capacity)
                grown.moveInitialize(from: base, count: count)
                base.deallocate()
                base = grown
                capacity *= 2
            }
            (base + count).initialize(to: x)
            count += 1
        }

        /// Empties the buffer, keeping its memory (plain values: nothing to deinitialize).
        mutating func removeAll() { count = 0 }

        /// Drops the values from `n` on (plain values).
        mutating func removeLast(from n: Int32) { count = Swift.min(count, Int(n)) }

        func free() {
            base.deinitialize(count: count)
            base.deallocate()
        }
    }

    var plans = Buffer<Plan>()
    var fits = Buffer<Fit>()
    var fractions = Buffer<Fraction>()
    var columns = Buffer<Column>()
    var items = Buffer<Item>()
    var stated = Buffer<Int32>()
    /// Scratch of `compilePlan`.
    var measured = Buffer<Measured>()
    /// Per kind: its text list and box stack values (bit per value), filled on first use.
    var special = Buffer<UInt32>()
    /// Per plan: its entry in `kept` (`CellMeasurer.engineKeptHeight`): -2 not looked at
    /// yet, -1 none (rows of the plan are measured in full). Apart from the plans, which
    /// `runPlan` reads for every row.
    var keptIndex = Buffer<Int32>()
    var kept = Buffer<CellMeasurer.KeptPlan>()
    /// Open addressing: `keys[i]` is a plan's `key`, `indexes[i]` its plan (-1: empty slot).
    let keys = UnsafeMutablePointer<UInt64>.allocate(capacity: tableSize)
    let indexes = UnsafeMutablePointer<Int32>.allocate(capacity: tableSize)

    static let tableBits = 13
    static let tableSize = 1 << tableBits
    /// At most this many plans per program (half the table).
    static let capacity = tableSize / 2

    init() {
        keys.initialize(repeating: 0, count: Self.tableSize)
        indexes.initialize(repeating: -1, count: Self.tableSize)
    }

    func free() {
        plans.free(); fits.free(); fractions.free(); columns.free(); items.free(); stated.free(); measured.free(); special.free(); keptIndex.free(); kept.free()
        keys.deallocate()
        indexes.deallocate()
    }

    /// The key of the plan of kind `kind` for rows with present values `present`; validated
    /// rows have plans of their own, whose bounds count on it (`CellMeasurer.heightBounds`).
    @inline(__always)
    static func key(kind: Int, present: UInt32, valid: Bool) -> UInt64 { (valid ? 1 << 63 : 0) | UInt64(kind) << 32 | UInt64(present) }

    @inline(__always)
    static func slot(_ key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - tableBits)) }

    /// The plan of `key`, or -1.
    @inline(__always)
    func find(_ key: UInt64) -> Int32 {
        var i = Self.slot(key)
        while true {
            let index = indexes[i]
            if index < 0 || keys[i] == key { return index }
            i = (i + 1) & (Self.tableSize - 1)
        }
    }

    mutating func insert(_ key: UInt64, _ plan: Int32) {
        var i = Self.slot(key)
        while indexes[i] >= 0 { i = (i + 1) & (Self.tableSize - 1) }
        keys[i] = key
        indexes[i] = plan
    }

    @inline(__always)
    mutating func specialValues(_ k: Int, _ p: CellProgram) -> UInt32 {
        if special.count == 0 {
            for kp in p.kinds {
                var mask: UInt32 = 0
                for v in 0..<Swift.min(Int(kp.valueCount), 32) {
                    let type = p.slots[Int(kp.slotStart) + Int(p.valueSlots[Int(kp.valueStart) + v])].type
                    if type == .textList || type == .boxStack { mask |= 1 << UInt32(v) }
                }
                special.append(mask)
            }
        }
        return special[Int32(k)]
    }

    /// Drops every plan (a new program), keeping the memory.
    mutating func removeAll() {
        plans.removeAll(); fits.removeAll(); fractions.removeAll(); columns.removeAll(); items.removeAll(); stated.removeAll(); special.removeAll()
        keptIndex.removeAll(); kept.removeAll()
        indexes.update(repeating: -1, count: Self.tableSize)
    }
}

/// What `runPlan` reads of a row: its values' bytes (`RowValues`), or what a text batch
/// kept for it (`CellMeasurer.KeptRow`), which gives nil for an item it cannot answer
/// (the row is then measured from its bytes).
protocol PlanRow {
    /// A planned item's natural width (`CellMeasurer.itemNatural`).
    func natural(_ m: CellMeasurer, _ item: RowPlans.Item, _ slots: UnsafePointer<SlotProgram>, _ p: CellProgram) -> Int64?
    /// A planned item's height at its column's width (`CellMeasurer.itemHeight`).
    func height(_ m: CellMeasurer, _ item: RowPlans.Item, _ slots: UnsafePointer<SlotProgram>, _ p: CellProgram, columnWidth: Int64) -> Int64?
    /// Writes slot `s`'s state for items measured over it (`CellMeasurer.readSlot`).
    func readSlot(_ m: CellMeasurer, _ s: Int, _ slots: UnsafePointer<SlotProgram>) -> Bool
}

extension RowValues: PlanRow {
    @inline(__always)
    func natural(_ m: CellMeasurer, _ item: RowPlans.Item, _ slots: UnsafePointer<SlotProgram>, _ p: CellProgram) -> Int64? {
        m.itemNatural(item, slots, p, self)
    }

    @inline(__always)
    func height(_ m: CellMeasurer, _ item: RowPlans.Item, _ slots: UnsafePointer<SlotProgram>, _ p: CellProgram, columnWidth: Int64) -> Int64? {
        m.itemHeight(item, slots, p, self, columnWidth: columnWidth)
    }

    @inline(__always)
    func readSlot(_ m: CellMeasurer, _ s: Int, _ slots: UnsafePointer<SlotProgram>) -> Bool {
        m.readSlot(s, slots, self)
        return true
    }
}

extension CellMeasurer {
    /// Plans compiled for the current program.
    var compiledPlanCount: Int { scratch.pointee.plans.pointee.plans.count }

    /// Which values of a row are present as its kind reads them (bit `v` for value `v`):
    /// not empty; for a text list, with a non-empty item; for a box stack, a count above
    /// zero. nil for a kind with more than 32 values.
    @inline(__always)
    func presentValues(_ k: Int, _ kp: UnsafePointer<KindProgram>, _ p: CellProgram, _ row: RowValues) -> UInt32? {
        let count = Swift.min(Int(kp.pointee.valueCount), row.offsets.count - 1)
        guard kp.pointee.valueCount <= 32 else { return nil }
        var mask: UInt32 = 0
        if scratch.pointee.trustsRows {
            // Checked offsets: in bounds and non-decreasing.
            let o = row.offsets.baseAddress.unsafelyUnwrapped
            var v = 0
            while v < count {
                if o[v + 1] > o[v] { mask |= 1 << UInt32(v) }
                v &+= 1
            }
        } else {
            for v in 0..<Swift.max(count, 0) where !row.range(v).isEmpty { mask |= 1 << UInt32(v) }
        }
        // Text lists and box stacks need more than a value to be present.
        var special = mask & scratch.pointee.plans.pointee.specialValues(k, p)
        if special == 0 { return mask }
        let slots = p.slots.baseAddress.unsafelyUnwrapped + Int(kp.pointee.slotStart)
        let valueSlots = p.valueSlots.baseAddress.unsafelyUnwrapped + Int(kp.pointee.valueStart)
        while special != 0 {
            let v = special.trailingZeroBitCount
            special &= special - 1
            let sp = slots + Int(valueSlots[v])
            let bytes = row.bytes(row.range(v))
            let present = sp.pointee.type == .textList ? Self.itemCount(bytes) > 0 : Self.boxCount(bytes, sp) > 0
            if !present { mask &= ~(1 << UInt32(v)) }
        }
        return mask
    }

    /// The row's height through its plan (compiled on first use), or nil when it has none.
    @inline(__always)
    func plannedHeight(_ k: Int, _ kp: UnsafePointer<KindProgram>, _ p: CellProgram, _ row: RowValues) -> Int64? {
        guard scratch.pointee.textLog == nil else { return nil }
        let wantsRange = scratch.pointee.batchEpoch != 0 && kp.pointee.gridMode == 0
        var stored: UnsafeMutablePointer<CellTextBatch.WidthRange>? = nil
        if scratch.pointee.batchEpoch != 0, let batch = scratch.pointee.batch, scratch.pointee.batchRow < batch.pointee.widthRanges.count {
            stored = batch.pointee.widthRanges.baseAddress.unsafelyUnwrapped + scratch.pointee.batchRow
        }
        // A row measured before with the batch has its present values in its width range
        // (they follow from its kind and values alone, and the batch's rows keep theirs).
        let kept = stored.flatMap { $0.pointee.epoch != 0 ? $0.pointee.present : nil }
        guard let mask = kept ?? presentValues(k, kp, p, row) else { return nil }
        #if TESSERA_INVARIANTS
        precondition(mask == presentValues(k, kp, p, row), "a row's kept present values differ from its values")
        #endif
        let valid = scratch.pointee.rowsAreValid
        let key = RowPlans.key(kind: k, present: mask, valid: valid)
        let plans = scratch.pointee.plans
        var index = plans.pointee.find(key)
        if index < 0 {
            guard plans.pointee.plans.count < RowPlans.capacity else { return nil }
            index = compilePlan(kp.pointee, p, mask, valid: valid)
            plans.pointee.insert(key, index)
        }
        // A "content"-wide grid item's width is its columns' natural widths: only a plan
        // that reads no width measures it.
        if kp.pointee.gridMode == 2 && plans.pointee.plans[index].needsWidths { return nil }
        rowIsValidUTF8 = scratch.pointee.trustsRows || row.isValidUTF8
        let width = plans.pointee.plans[index].width
        var range = (low: width, high: width + 1)
        guard let height = runPlan(Int(index), p, row, wantsRange: wantsRange, range: &range) else { return nil }
        #if TESSERA_INVARIANTS
        // Two other widths (no array: measuring allocates nothing).
        if plans.pointee.plans[index].widthFree {
            precondition(layoutRow(kp.pointee, p, row, cellWidth: width / 3 + 1) == height && layoutRow(kp.pointee, p, row, cellWidth: 2 * width + 64) == height,
                         "a width-free plan's height differs at another width")
        }
        #endif
        if let stored {
            // Without a range (a fixed-width grid item's, or none found) the present values
            // are kept. A content-wide grid item's plan reads no width (above): every width.
            let epoch = scratch.pointee.batchEpoch
            stored.pointee = kp.pointee.gridMode == 2 ? CellTextBatch.WidthRange(low: 1, high: Int32.max, epoch: epoch, present: mask)
                : wantsRange ? CellTextBatch.WidthRange(range: range, width: width, epoch: epoch, present: mask)
                : CellTextBatch.WidthRange(epoch: epoch, present: mask)
        }
        return height
    }

    /// Compiles the plan of kind `kp` for rows with present values `mask`; returns its index.
    /// With `valid`, bounds may count on the rows having passed `validate` (text list items
    /// and image sizes within the slot's limits).
    func compilePlan(_ kp: KindProgram, _ p: CellProgram, _ mask: UInt32, valid: Bool) -> Int32 {
        // Reads the program in place: compiling allocates nothing but the plans' growth.
        let store = scratch.pointee.plans
        let width = Self.planWidth(kp, p)
        let slots = p.slots.baseAddress.unsafelyUnwrapped + Int(kp.slotStart)
        let columns = p.columns.baseAddress.unsafelyUnwrapped + Int(kp.columnStart)
        let programItems = p.items.baseAddress.unsafelyUnwrapped
        func present(_ s: Int32) -> Bool { slots[Int(s)].isPresent(in: mask) }
        // Widths: present columns (in the column state), fixed widths, fit and fraction
        // columns, the gaps between them.
        let widths = columnState
        var used: Int64 = 0, fill: Int32 = 0
        var previous: UnsafePointer<ColumnProgram>? = nil
        let fitStart = Int32(store.pointee.fits.count), fractionStart = Int32(store.pointee.fractions.count)
        for ci in 0..<Int(kp.columnCount) {
            let c = columns + ci
            let items = programItems + Int(c.pointee.itemStart)
            widths[ci].present = c.pointee.mode == .fill || (0..<Int(c.pointee.itemCount)).contains { present(items[$0].slot) }
            widths[ci].width = -1
            guard widths[ci].present else { continue }
            if let prev = previous { used += Self.gap(prev.pointee.spaceAfter, c.pointee.spaceBefore, kp.columnGap) }
            previous = UnsafePointer(c)
            switch c.pointee.mode {
            case .fixed:
                widths[ci].width = c.pointee.fixed
                used += c.pointee.fixed
            case .fit:
                // The widest natural width of the present items (a fill button asks for none).
                var fit = RowPlans.Fit(column: Int32(ci), constant: 0, items: 0..<0, maxMode: c.pointee.maxMode, maxLength: c.pointee.maxLength,
                                       maxFraction: c.pointee.maxFraction, cap: Self.fractionCap(c.pointee.maxFraction, width - kp.padLeading - kp.padTrailing))
                let itemStart = Int32(store.pointee.items.count)
                for i in 0..<Int(c.pointee.itemCount) {
                    let sp = slots + Int(items[i].slot)
                    // A fill button asks for no width, an image sized by its column for none.
                    guard present(items[i].slot), !(sp.pointee.type == .button && sp.pointee.flag), !(sp.pointee.type == .image && sp.pointee.flag) else { continue }
                    if let w = Self.constantNatural(sp, valid: valid) {
                        fit.constant = Swift.max(fit.constant, w)
                    } else {
                        store.pointee.items.append(RowPlans.Item(slot: Int(items[i].slot), sp.pointee))
                    }
                }
                fit.items = itemStart..<Int32(store.pointee.items.count)
                if fit.items.isEmpty && fit.maxMode != 2 {
                    // Items of one width alone, capped by a length at most: the same width for
                    // every row.
                    widths[ci].width = fit.maxMode == 1 ? Swift.min(fit.constant, fit.maxLength) : fit.constant
                    used += widths[ci].width
                } else {
                    store.pointee.fits.append(fit)
                }
            case .fraction: store.pointee.fractions.append(RowPlans.Fraction(column: Int32(ci), fraction: c.pointee.fraction))
            case .fill: fill = Int32(ci)
            }
        }
        // A grid item of its own width whose fit columns are all of boxes: every column has
        // the same width in every row (and heights follow the item's width).
        let gridWidths = kp.gridMode == 1 && fitStart == Int32(store.pointee.fits.count)
        if gridWidths {
            let inner = width - kp.padLeading - kp.padTrailing
            let flexible = Swift.max(inner - used, 0)
            var fractions: Int64 = 0
            for f in fractionStart..<Int32(store.pointee.fractions.count) {
                let fraction = store.pointee.fractions[f]
                widths[Int(fraction.column)].width = LayoutUnit.nearest(fraction.fraction * Double(flexible))
                fractions += widths[Int(fraction.column)].width
            }
            widths[Int(fill)].width = Swift.max(flexible - fractions, 0)
        }

        // Heights: gaps, boxes, one-line texts, buttons of a set height and images sized by a
        // known column width are constants; the other items are measured per row, and the
        // columns that hold some with bounds on their heights over every row and width.
        var constantHeight: Int64 = 0
        let columnStart = Int32(store.pointee.columns.count)
        store.pointee.measured.removeAll()
        for ci in 0..<Int(kp.columnCount) where widths[ci].present {
            let c = columns + ci
            let items = programItems + Int(c.pointee.itemStart)
            let known = widths[ci].width
            var column = RowPlans.Column(column: Int32(ci), fixed: known, constant: 0, items: 0..<0)
            let itemStart = Int32(store.pointee.items.count)
            var previousItem: UnsafePointer<ItemProgram>? = nil
            var least: Int64 = 0, greatest: Int64 = 0, readsWidth = false
            for i in 0..<Int(c.pointee.itemCount) {
                let item = items + i, s = Int(item.pointee.slot), sp = slots + s
                guard present(item.pointee.slot) else { continue }
                if let prev = previousItem { column.constant += Self.gap(prev.pointee.spaceAfter, item.pointee.spaceBefore, c.pointee.gap) }
                previousItem = item
                switch sp.pointee.type {
                case .box: column.constant += sp.pointee.height
                case .text where sp.pointee.maxLines == 1: column.constant += p.lineHeights[Int(sp.pointee.style)]
                case .button where sp.pointee.buttonHeight >= 0: column.constant += sp.pointee.buttonHeight
                case .image where sp.pointee.flag && (known >= 0 || sp.pointee.imageMin >= sp.pointee.imageMax):
                    column.constant += Swift.min(Swift.max(known, sp.pointee.imageMin), sp.pointee.imageMax)
                case .image where !sp.pointee.flag && valid && sp.pointee.imageMin == sp.pointee.imageMax:
                    column.constant += sp.pointee.imageMin
                default:
                    var planned = RowPlans.Item(slot: s, sp.pointee)
                    // An image read for its natural width keeps its height.
                    if c.pointee.mode == .fit && planned.kind == .image && Self.constantNatural(sp, valid: valid) == nil { planned.kind = .imageMeasured }
                    store.pointee.items.append(planned)
                    let bounds = Self.heightBounds(planned.kind, sp, p, valid: valid)
                    least += bounds.least
                    greatest += bounds.greatest
                    readsWidth = readsWidth || bounds.readsWidth
                }
            }
            column.items = itemStart..<Int32(store.pointee.items.count)
            if column.items.isEmpty {
                constantHeight = Swift.max(constantHeight, column.constant)
            } else {
                // A column of a known width reads none; of the others only a fit column
                // without a fraction cap keeps its width whatever the cell width.
                readsWidth = readsWidth && known < 0
                let followsWidth = readsWidth && !(c.pointee.mode == .fit && c.pointee.maxMode != 2)
                store.pointee.measured.append(RowPlans.Measured(column: column, least: least + column.constant, greatest: greatest + column.constant,
                                                                followsWidth: followsWidth, readsWidth: readsWidth))
            }
        }
        // A measured column never taller than the kind's least height (without paddings),
        // a constant column or the measured column of the greatest least height (when it is
        // kept) never sets the row's height: it is left out.
        let measured = store.pointee.measured
        let floor = Swift.max(constantHeight, kp.minHeight - kp.padTop - kp.padBottom)
        var witness: Int32 = -1
        for i in 0..<Int32(measured.count) where witness < 0 || measured[i].least > measured[witness].least { witness = i }
        var needsWidths = false, widthFree = !gridWidths, needsState = false
        for i in 0..<Int32(measured.count) {
            let m = measured[i]
            guard m.greatest > (i == witness ? floor : Swift.max(floor, measured[witness].least)) else { continue }
            store.pointee.columns.append(m.column)
            needsWidths = needsWidths || m.readsWidth
            widthFree = widthFree && !m.followsWidth
        }
        let columnEnd = Int32(store.pointee.columns.count)
        if !needsWidths {
            // No kept item reads a width: the rows' column widths are not worked out, and an
            // image in a fit column is read for its height alone.
            store.pointee.fits.removeLast(from: fitStart)
            store.pointee.fractions.removeLast(from: fractionStart)
        }
        for c in columnStart..<columnEnd {
            for i in store.pointee.columns[c].items {
                let item = store.pointee.items.base + Int(i)
                if !needsWidths && item.pointee.kind == .imageMeasured { item.pointee.kind = .image }
                needsState = needsState || item.pointee.kind == .stated
            }
        }
        let fitEnd = Int32(store.pointee.fits.count)
        for f in fitStart..<fitEnd {
            for i in store.pointee.fits[f].items where store.pointee.items[i].kind == .stated { needsState = true }
        }
        // Buttons are measured over their state.
        let statedStart = Int32(store.pointee.stated.count)
        for s in 0..<Int(kp.slotCount) where needsState && slots[s].type == .button && present(Int32(s)) {
            store.pointee.stated.append(Int32(s))
        }
        var plan = RowPlans.Plan(
            width: width, padTop: kp.padTop, padBottom: kp.padBottom, minHeight: kp.minHeight, padHorizontal: kp.padLeading + kp.padTrailing,
            slotStart: kp.slotStart, usedConstant: used, fill: fill,
            fits: fitStart..<fitEnd, fractions: fractionStart..<Int32(store.pointee.fractions.count),
            columns: columnStart..<columnEnd, constantHeight: constantHeight, stated: statedStart..<Int32(store.pointee.stated.count),
            fillFollowsWidth: fractionStart == Int32(store.pointee.fractions.count), needsWidths: needsWidths, widthFree: widthFree)
        if !needsWidths, plan.stated.isEmpty, columnEnd - columnStart == 1, case let column = store.pointee.columns[columnStart],
           column.fixed >= 0, column.items.count == 1, store.pointee.items[column.items.lowerBound].kind == .text {
            plan.soleText = column.items.lowerBound
            plan.soleWidth = column.fixed
            plan.soleConstant = column.constant
        }
        store.pointee.plans.append(plan)
        store.pointee.keptIndex.append(-2)
        return Int32(store.pointee.plans.count - 1)
    }

    /// A fit item's natural width when it is the same in every row that has it (a box, a
    /// vertical box stack, a validated image of one size), else nil: measured per row.
    static func constantNatural(_ sp: UnsafePointer<SlotProgram>, valid: Bool) -> Int64? {
        switch sp.pointee.type {
        // Any box; a box stack only when vertical (a row's stack is as wide as one box).
        case .box,
             .boxStack where sp.pointee.flag: sp.pointee.width
        case .image where valid && sp.pointee.imageMin == sp.pointee.imageMax: sp.pointee.imageMin
        default: nil
        }
    }

    /// Past any height a row can have: an item's greatest height when it has no bound.
    static let unboundedHeight: Int64 = 1 << 48

    /// The least and greatest height of a planned item over every row that has it and every
    /// column width, and whether its height depends on the column's width. A present text
    /// takes at least one line and at most its line limit; a text list at least one item.
    /// With `valid` (rows passed `validate`), a text list has at most its maximum of items
    /// and an image a side within the slot's range.
    static func heightBounds(_ kind: RowPlans.Item.Kind, _ slot: UnsafePointer<SlotProgram>, _ p: CellProgram, valid: Bool)
        -> (least: Int64, greatest: Int64, readsWidth: Bool)
    {
        let sp = slot.pointee, unbounded = unboundedHeight
        func lines(_ maxLines: Int32, _ lineHeight: Int64) -> Int64 { maxLines > 0 ? Int64(maxLines) * lineHeight : unbounded }
        switch kind {
        case .text:
            let lh = p.lineHeights[Int(sp.style)]
            return (lh, lines(sp.maxLines, lh), sp.maxLines != 1)
        case .textList:
            // `n` items of one line up to the limit each, with the gap between them.
            let lh = p.lineHeights[Int(sp.style)], most = lines(sp.maxLines, lh)
            let count: Int64 = valid ? Int64(Swift.max(sp.max, 1)) : unbounded
            guard sp.gap >= 0 else { return (-unbounded, unbounded, sp.maxLines != 1) }
            let greatest = most >= unbounded || count >= unbounded ? unbounded : count * most + (count - 1) * sp.gap
            return (lh, greatest, sp.maxLines != 1)
        case .image, .imageMeasured:
            return valid ? (sp.imageMin, sp.imageMax, false) : (0, unbounded, false)
        case .imageFromColumn:
            return (Swift.min(sp.imageMin, sp.imageMax), sp.imageMax, sp.imageMin < sp.imageMax)
        case .boxStack:
            // From one box to the slot's maximum (`boxCount` caps it).
            let one = boxStackSize(slot, count: 1).height, most = boxStackSize(slot, count: Swift.max(sp.max, 1)).height
            return (Swift.min(one, most), Swift.max(one, most), false)
        case .stated:
            // A button: its height, or its label's lines and padding.
            if sp.buttonHeight >= 0 { return (sp.buttonHeight, sp.buttonHeight, false) }
            let lh = p.lineHeights[Int(sp.style)]
            let most = lines(sp.maxLines, lh)
            return (lh + 2 * sp.paddingVertical, most >= unbounded ? unbounded : most + 2 * sp.paddingVertical, sp.maxLines != 1)
        }
    }

    /// `layoutRow`'s height at the plan's cell width `width` through plan `index`; narrows
    /// `range` (which holds `width`) to cell widths the height holds for (see
    /// `CellTextBatch.WidthRange`): every width for a width-free plan; else where the fill
    /// column follows the width, each text in it keeps its line count while its width stays
    /// inside the range its count holds for (`lineRange`), and nothing else in the row
    /// depends on the width.
    /// Returns nil only when `row` cannot give an item from what it has (`PlanRow`).
    func runPlan<Row: PlanRow>(_ index: Int, _ p: CellProgram, _ row: Row, wantsRange: Bool, range: inout (low: Int64, high: Int64)) -> Int64? {
        // The plan and its lists are read in place, through pointers taken once (a call
        // does not make them load again), with plain loops (no range checks).
        let store = scratch.pointee.plans
        let plan = UnsafePointer(store.pointee.plans.base + index)
        let slots = p.slots.baseAddress.unsafelyUnwrapped + Int(plan.pointee.slotStart)
        // Two shapes common enough to skip the walk (its loads and calls cost more than
        // their work): nothing measured per row; one text in a column of a known width.
        if plan.pointee.columns.isEmpty && !plan.pointee.needsWidths && plan.pointee.stated.isEmpty {
            if plan.pointee.widthFree { range = (Int64.min, Int64.max) }
            return Swift.max(plan.pointee.padTop + plan.pointee.constantHeight + plan.pointee.padBottom, plan.pointee.minHeight)
        }
        if plan.pointee.soleText >= 0 && !wantsRange {
            guard let h = row.height(self, store.pointee.items[plan.pointee.soleText], slots, p, columnWidth: plan.pointee.soleWidth) else { return nil }
            let text = plan.pointee.soleConstant + h
            return Swift.max(plan.pointee.padTop + Swift.max(plan.pointee.constantHeight, text) + plan.pointee.padBottom, plan.pointee.minHeight)
        }
        let items = store.pointee.items.base, fits = store.pointee.fits.base, columns = store.pointee.columns.base
        let width = plan.pointee.width
        var s = Int(plan.pointee.stated.lowerBound)
        while s < Int(plan.pointee.stated.upperBound) {
            guard row.readSlot(self, Int(store.pointee.stated.base[s]), slots) else { return nil }
            s &+= 1
        }
        let widths = columnState
        var follows = false, constant: Int64 = 0
        if plan.pointee.needsWidths {
            let inner = width - plan.pointee.padHorizontal
            var used = plan.pointee.usedConstant
            var capped = false
            var f = Int(plan.pointee.fits.lowerBound)
            while f < Int(plan.pointee.fits.upperBound) {
                let fit = fits + f
                var w = fit.pointee.constant
                var i = Int(fit.pointee.items.lowerBound)
                while i < Int(fit.pointee.items.upperBound) {
                    guard let natural = row.natural(self, items[i], slots, p) else { return nil }
                    w = Swift.max(w, natural)
                    i &+= 1
                }
                if fit.pointee.maxMode == 1 { w = Swift.min(w, fit.pointee.maxLength) }
                if fit.pointee.maxMode == 2 && w > fit.pointee.cap {
                    w = fit.pointee.cap
                    capped = true
                }
                widths[Int(fit.pointee.column)].width = w
                used += w
                f &+= 1
            }
            let flexible = Swift.max(inner - used, 0)
            var fractions: Int64 = 0
            f = Int(plan.pointee.fractions.lowerBound)
            while f < Int(plan.pointee.fractions.upperBound) {
                let fraction = store.pointee.fractions.base + f
                let w = LayoutUnit.nearest(fraction.pointee.fraction * Double(flexible))
                widths[Int(fraction.pointee.column)].width = w
                fractions += w
                f &+= 1
            }
            widths[Int(plan.pointee.fill)].width = Swift.max(flexible - fractions, 0)
            // The fill column is `width - constant` for cell widths from `constant` on.
            constant = width - widths[Int(plan.pointee.fill)].width
            follows = wantsRange && !plan.pointee.widthFree && plan.pointee.fillFollowsWidth && inner - used >= 0 && !capped
        }
        var fillLow = Int64.min, fillHigh = Int64.max

        var tallest = plan.pointee.constantHeight
        var c = Int(plan.pointee.columns.lowerBound)
        while c < Int(plan.pointee.columns.upperBound) {
            let column = columns + c
            let columnWidth = column.pointee.fixed >= 0 ? column.pointee.fixed : widths[Int(column.pointee.column)].width
            // The fill column's texts bound the range.
            var tracks = follows && column.pointee.column == plan.pointee.fill
            var h = column.pointee.constant
            var i = Int(column.pointee.items.lowerBound)
            while i < Int(column.pointee.items.upperBound) {
                if tracks { scratch.pointee.lineRange = nil }
                guard let item = row.height(self, items[i], slots, p, columnWidth: columnWidth) else { return nil }
                h += item
                if tracks {
                    if items[i].kind == .text, let lines = scratch.pointee.lineRange {
                        let (low, high) = CellTextBatch.WidthRange.fillWidths(lines)
                        fillLow = Swift.max(fillLow, Swift.max(low ?? 1, 1))
                        if let high { fillHigh = Swift.min(fillHigh, high) }
                    } else {
                        follows = false
                        tracks = false
                    }
                }
                i &+= 1
            }
            tallest = Swift.max(tallest, h)
            c &+= 1
        }
        if plan.pointee.widthFree {
            range = (Int64.min, Int64.max)
        } else if follows {
            // The least inner width at which no fit column capped by a fraction reaches its
            // cap (none has: `capped` is false).
            var uncapped: Int64 = 0
            var f = Int(plan.pointee.fits.lowerBound)
            while f < Int(plan.pointee.fits.upperBound) {
                let fit = fits + f
                if fit.pointee.maxMode == 2 {
                    uncapped = Swift.max(uncapped, Self.leastInner(reaching: widths[Int(fit.pointee.column)].width, fit.pointee.maxFraction,
                                                                   below: width - plan.pointee.padHorizontal))
                }
                f &+= 1
            }
            // Two-argument maxima: the variadic one passes an array (a call and a release per row).
            range.low = Swift.max(Swift.max(constant, uncapped + plan.pointee.padHorizontal), fillLow == .min ? constant : fillLow &+ constant)
            range.high = fillHigh == .max ? .max : fillHigh &+ constant
        }
        return Swift.max(plan.pointee.padTop + tallest + plan.pointee.padBottom, plan.pointee.minHeight)
    }

    /// The cell width rows of kind `kp` are laid out at: the content width, or a grid item's
    /// own width (a "content"-wide item's plan reads no width: 0).
    static func planWidth(_ kp: KindProgram, _ p: CellProgram) -> Int64 { kp.gridMode == 0 ? p.width : kp.gridMode == 1 ? kp.gridWidth : 0 }

    /// A fit column's cap at `fraction` of the inner width, as `layoutRow` computes it.
    @inline(__always)
    static func fractionCap(_ fraction: Double, _ inner: Int64) -> Int64 { Swift.max(LayoutUnit.nearest(fraction * Double(inner)), 0) }

    /// The least inner width whose cap at `fraction` is at least `w`, given that `inner`'s
    /// is (the cap does not decrease as the inner width grows).
    static func leastInner(reaching w: Int64, _ fraction: Double, below inner: Int64) -> Int64 {
        guard w > 0 else { return Int64.min / 4 }
        guard fraction > 0 else { return inner }
        var c = Swift.min(inner, Swift.max(0, Int64(((Double(w) - 0.5) / fraction).rounded(.up))))
        while c > 0 && fractionCap(fraction, c - 1) >= w { c -= 1 }
        while fractionCap(fraction, c) < w { c += 1 }
        return c
    }

    /// A planned item's natural width, as `natural` gives it.
    @inline(__always)
    func itemNatural(_ item: RowPlans.Item, _ slots: UnsafePointer<SlotProgram>, _ p: CellProgram, _ row: RowValues) -> Int64 {
        let s = Int(item.slot), sp = slots + s
        // As in `itemHeight`: the common kinds by plain branches.
        if item.kind == .text {
            return textNatural(row.bytes(row.range(Int(sp.pointee.valueIndex))), p, style: sp.pointee.style, slot: s, value: sp.pointee.valueIndex)
        }
        if item.kind == .textList { return textListNatural(row.range(Int(sp.pointee.valueIndex)), s, sp, p, row) }
        switch item.kind {
        case .text, .textList: return 0
        case .image, .imageMeasured:
            let size = imageSize(sp, row)
            slotState[s].height = size.height
            return size.width
        case .boxStack: return boxStackSize(sp, row).width
        case .imageFromColumn: return 0
        case .stated: return natural(s, sp, p, row)
        }
    }

    /// A planned item's height at its column's width, as `itemHeight` gives it.
    @inline(__always)
    func itemHeight(_ item: RowPlans.Item, _ slots: UnsafePointer<SlotProgram>, _ p: CellProgram, _ row: RowValues, columnWidth: Int64) -> Int64 {
        let s = Int(item.slot), sp = slots + s
        // Texts first, by a plain branch: a jump table's indirect jump mispredicts across
        // rows of varied plans.
        if item.kind == .text {
            return textHeight(row.bytes(row.range(Int(sp.pointee.valueIndex))), p, style: sp.pointee.style, width: columnWidth,
                              maxLines: sp.pointee.maxLines, slot: s, value: sp.pointee.valueIndex)
        }
        switch item.kind {
        case .text: return 0
        case .textList: return textListHeight(row.range(Int(sp.pointee.valueIndex)), s, sp, p, row, columnWidth: columnWidth)
        case .image: return imageSize(sp, row).height
        case .imageMeasured: return slotState[s].height
        case .imageFromColumn: return Swift.min(Swift.max(columnWidth, sp.pointee.imageMin), sp.pointee.imageMax)
        case .boxStack: return boxStackSize(sp, row).height
        case .stated: return itemHeight(s, sp, p, row, columnWidth: columnWidth)
        }
    }

    /// A present image's size from its value (`readSlot`).
    @inline(__always)
    func imageSize(_ sp: UnsafePointer<SlotProgram>, _ row: RowValues) -> (width: Int64, height: Int64) {
        Self.imageSize(row.bytes(sp.pointee.valueIndex >= 0 ? row.range(Int(sp.pointee.valueIndex)) : 0..<0), sp)
    }

    /// A present box stack's size from its count (`readSlot`).
    @inline(__always)
    func boxStackSize(_ sp: UnsafePointer<SlotProgram>, _ row: RowValues) -> (width: Int64, height: Int64) {
        Self.boxStackSize(sp, count: Self.boxCount(row.bytes(row.range(Int(sp.pointee.valueIndex))), sp))
    }
}

/// Fill-column shifts (`CellProgram.fillShift`) by kind << 32 | present values, each found
/// once per environment change (`CellMeasurer.layoutWidthShift`): open addressing over a
/// fixed table, full at half its slots (2,048 sets of present values).
struct FillShifts {
    private static let bits = 12, size = 1 << bits, empty = UInt64.max
    private var keys: [UInt64] = []
    private var shifts: [FillShift?] = []
    private var count = 0

    private static func slot(_ key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - bits)) }

    /// The shift of `key` (`.some(nil)`: none), or nil when not found yet.
    func find(_ key: UInt64) -> FillShift?? {
        guard count > 0 else { return nil }
        var i = Self.slot(key)
        while keys[i] != Self.empty {
            if keys[i] == key { return .some(shifts[i]) }
            i = (i + 1) & (Self.size - 1)
        }
        return nil
    }

    var isFull: Bool { count >= Self.size / 2 }

    mutating func insert(_ key: UInt64, _ shift: FillShift?) {
        precondition(!isFull)
        if keys.isEmpty {
            keys = [UInt64](repeating: Self.empty, count: Self.size)
            shifts = [FillShift?](repeating: nil, count: Self.size)
        }
        var i = Self.slot(key)
        while keys[i] != Self.empty { i = (i + 1) & (Self.size - 1) }
        keys[i] = key
        shifts[i] = shift
        count += 1
    }

    mutating func removeAll() {
        guard count > 0 else { return }
        keys.withUnsafeMutableBufferPointer { $0.update(repeating: Self.empty) }
        count = 0
    }
}
