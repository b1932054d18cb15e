extension LayoutUnit {
    /// A length in points as whole units, to the nearest (halves away from zero). Every
    /// length of a compiled program goes through this once.
    @inline(__always)
    static func units(_ points: Double) -> Int64 { Int64((points * perPoint).rounded()) }

    /// `Int64(x.rounded())` (halves away from zero) without a call into libm for `0 <= x
    /// < 2^52`, where truncation is the floor and `x - floor` is exact.
    @inline(__always)
    static func nearest(_ x: Double) -> Int64 {
        guard x >= 0, x < 0x1p52 else { return Int64(x.rounded()) }
        let t = Int64(x)
        return x - Double(t) >= 0.5 ? t + 1 : t
    }

    /// `Int64(x.rounded(.up))` without a call into libm for `-2^52 < x < 2^52`, where
    /// truncation (towards zero) is exact and lands on the ceiling or one below it.
    @inline(__always)
    static func ceiling(_ x: Double) -> Int64 {
        guard x > -0x1p52, x < 0x1p52 else { return Int64(x.rounded(.up)) }
        let t = Int64(x)
        return Double(t) < x ? t + 1 : t
    }

    /// A measured text width as whole units, rounded up so the text fits a column that wide.
    @inline(__always)
    static func unitsUp(_ points: Double) -> Int64 { ceiling(points * perPoint) }
}

/// "Not given" for optional spacings in a program.
let undefinedSpace: Int64 = -1

/// One kind compiled for one environment. Ranges index the program's flat arrays; all
/// lengths are in 1/64 pt.
struct KindProgram: Equatable {
    var slotStart: Int32 = 0, slotCount: Int32 = 0
    var columnStart: Int32 = 0, columnCount: Int32 = 0
    var overlayStart: Int32 = 0, overlayCount: Int32 = 0
    var ruleStart: Int32 = 0, ruleCount: Int32 = 0
    var valueCount: Int32 = 0
    /// Local slot index by value index (`valueStart` into `valueSlots`).
    var valueStart: Int32 = 0
    var padTop: Int64 = 0, padBottom: Int64 = 0, padLeading: Int64 = 0, padTrailing: Int64 = 0
    var minHeight: Int64 = 0
    var columnGap: Int64 = 0
    /// 0 none, 1 at `dividerLength`, 2 at the x of the column holding local slot `dividerSlot`.
    var dividerMode: UInt8 = 0
    var dividerLength: Int64 = 0
    var dividerSlot: Int32 = 0
    var dividerTrailing: Int64 = 0
    /// 0: not a grid kind (cell width = content width); 1: `gridWidth` (own width, already
    /// capped by the slot width); 2: "content", capped by the slot width.
    var gridMode: UInt8 = 0
    var gridWidth: Int64 = 0
    /// Smallest number of rows of this kind in a group (0: no rule).
    var groupMinimum: Int32 = 0
}

struct SlotProgram: Equatable {
    var type: SlotType = .text
    /// -1: the slot reads no value.
    var valueIndex: Int32 = -1
    /// In a column of the effective layout and not hidden.
    var placed = false
    /// An overlay of the effective layout and not hidden.
    var overlay = false
    var always = false
    var required = false
    var style: Int32 = -1
    var maxLines: Int32 = 0
    /// textList / boxStack maximum.
    var max: Int32 = 0
    /// box size; boxStack item size.
    var width: Int64 = 0, height: Int64 = 0
    /// textList / boxStack gap.
    var gap: Int64 = 0
    var imageMin: Int64 = 0, imageMax: Int64 = 0, imageDefault: Int64 = 0
    /// button: fill; image: size from column; boxStack: vertical.
    var flag = false
    /// image: width ≥ height rather than square.
    var wideAspect = false
    /// button: fixed height, or -1 for label + 2 × paddingVertical.
    var buttonHeight: Int64 = -1
    var paddingVertical: Int64 = 0, paddingHorizontal: Int64 = 0

    /// Whether every row that passes validation has the slot present (`isPresent`): a box
    /// or image always shown, or a required value (its bit in every valid row's present
    /// values, which need what `hasValue` needs of it).
    var isInEveryValidRow: Bool {
        guard placed || overlay else { return false }
        if always { return type == .box || type == .image }
        return required && valueIndex >= 0 && valueIndex < 32
    }

    /// Whether the slot is present in a row with present values `mask`
    /// (`CellMeasurer.presentValues`), as `readSlots` finds it.
    func isPresent(in mask: UInt32) -> Bool {
        guard placed || overlay else { return false }
        let has = valueIndex >= 0 && valueIndex < 32 && mask & (1 << UInt32(valueIndex)) != 0
        switch type {
        case .box, .image: return always || has
        default: return has
        }
    }
}

enum ColumnWidthMode: UInt8 { case fit, fill, fixed, fraction }

struct ColumnProgram: Equatable {
    var itemStart: Int32 = 0, itemCount: Int32 = 0
    var mode: ColumnWidthMode = .fit
    var fixed: Int64 = 0
    var fraction: Double = 0
    /// 0 none, 1 `maxLength`, 2 `maxFraction` of the inner width.
    var maxMode: UInt8 = 0
    var maxLength: Int64 = 0
    var maxFraction: Double = 0
    var gap: Int64 = 0
    var align: VerticalAlignment = .top
    var hAlign: HorizontalAlignment = .leading
    var spaceBefore: Int64 = undefinedSpace, spaceAfter: Int64 = undefinedSpace
}

struct ItemProgram: Equatable {
    var slot: Int32
    var spaceBefore: Int64, spaceAfter: Int64
}

struct OverlayProgram: Equatable {
    var slot: Int32
    /// -1: the cell.
    var anchor: Int32
    var corner: Corner
    var inset: Int64
}

/// How a layout change moves the fill column of rows that keep their parts
/// (`CellProgram.fillShift`): their cell widths here hold the height the rows had at
/// `fill` units less, where the fill column was as wide.
struct FillShift: Equatable {
    /// Units the fill column is narrower here at every cell width (negative: wider).
    var fill: Int64
    /// Of `fill`, units the horizontal padding is wider here.
    var padding: Int64

    static let none = FillShift(fill: 0, padding: 0)

    /// Whether a row whose width range before the change is `range` keeps its height at
    /// cell width `width` here: the range holds `width - fill`, where its fill column was as
    /// wide, and `width - padding`, where its inner width was, when that is narrower (a fit
    /// column capped by a fraction of the inner width reaches its cap no sooner here). A
    /// range of one unit is a row whose fill column does not follow the width (`runPlan`):
    /// it holds only for the same layout at the same width.
    func keeps(_ range: CellTextBatch.WidthRange, at width: Int64) -> Bool { window(at: width).keeps(range) }

    func window(at width: Int64) -> Window {
        Window(atMost: width - Swift.max(fill, padding), below: width - fill, span: self == .none ? 0 : 1, fill: fill)
    }

    /// `keeps` at one width, for many rows: a range holding both widths reaches down to the
    /// lower (`atMost`) and above the higher (`below`).
    struct Window {
        var atMost: Int64, below: Int64, span: Int64
        var fill: Int64

        /// No range: a row without a shift.
        static let never = Window(atMost: .min, below: .max, span: .max, fill: 0)

        @inline(__always)
        func keeps(_ range: CellTextBatch.WidthRange) -> Bool {
            let low = Int64(range.low), high = Int64(range.high)
            return low <= atMost && below < high && high &- low > span
        }
    }
}

/// The grid for the environment (README "Grid mode").
struct GridProgram {
    var columnCount: Int
    var slotWidth: Double
    /// ⌊slot width⌋ in units: the widest an item may be.
    var slotUnits: Int64
    var padding: Double, columnGap: Double, rowGap: Double
}

/// Every kind of a profile compiled for one environment: flat arrays of plain values, no
/// strings, dictionaries or closures, so measuring a row only walks them. Immutable once
/// built (a new environment builds a new program). The arrays are buffers the program
/// owns: reading them retains nothing, and their indexes come from the program itself
/// (`_checkInvariants` checks them).
final class CellProgram {
    let kinds: UnsafeBufferPointer<KindProgram>
    let slots: UnsafeBufferPointer<SlotProgram>
    let valueSlots: UnsafeBufferPointer<Int32>
    let columns: UnsafeBufferPointer<ColumnProgram>
    let items: UnsafeBufferPointer<ItemProgram>
    let overlays: UnsafeBufferPointer<OverlayProgram>
    /// Exclusive rules: `ruleRanges[i]` is a range of `ruleSlots` (local slot indexes).
    let ruleRanges: UnsafeBufferPointer<Range<Int32>>
    let ruleSlots: UnsafeBufferPointer<Int32>
    let styles: UnsafeBufferPointer<TextStyle>
    /// `styles[i].identity`, read without copying the style.
    let styleIdentities: UnsafeBufferPointer<UInt64>
    let lineHeights: UnsafeBufferPointer<Int64>
    let width: Int64
    let widthClass: String
    let grid: GridProgram?
    let maxSlots: Int
    let maxColumns: Int

    typealias Platform = LayoutEnvironment.Platform

    /// Checks the environment against the profile and compiles every kind for it.
    /// `styles` are the profile's text styles at the environment's platform and scale.
    init(profile: Profile, environment env: LayoutEnvironment, styles: [TextStyle]) throws(TesseraError) {
        let model = profile.model
        try CellProgram.check(env, model)
        let platform = env.platform
        let widthClass = model.widthClass(of: env)
        let values = env.parameters
        self.styles = Self.buffer(styles)
        styleIdentities = Self.buffer(styles.map(\.identity))
        lineHeights = Self.buffer(model.textStyles.map { LayoutUnit.units($0.resolved(platform).lineHeight * env.fontScale) })
        width = LayoutUnit.units(env.width)
        self.widthClass = widthClass

        var grid: GridProgram? = nil
        if let g = model.grid {
            let count: Int
            switch g.columns.first(where: { $0.widthClass == widthClass })!.count {
            case .fixed(let n): count = n
            case .range(let lo, let hi):
                let c = model.resolve(g.countItemWidth, values)
                let fit = ((env.width - 2 * g.padding + g.columnGap) / (c + g.columnGap)).rounded(.down)
                count = Int(Swift.max(Double(lo), Swift.min(Double(hi), fit)))
            }
            let s = (env.width - 2 * g.padding - Double(count - 1) * g.columnGap) / Double(count)
            grid = GridProgram(
                columnCount: count, slotWidth: s, slotUnits: Swift.max(1, Int64((s * LayoutUnit.perPoint).rounded(.down))),
                padding: g.padding, columnGap: g.columnGap, rowGap: g.rowGap)
        }
        self.grid = grid

        var kinds: [KindProgram] = [], slots: [SlotProgram] = [], valueSlots: [Int32] = []
        var columns: [ColumnProgram] = [], items: [ItemProgram] = [], overlays: [OverlayProgram] = []
        var ruleRanges: [Range<Int32>] = [], ruleSlots: [Int32] = []
        var maxSlots = 0, maxColumns = 0
        let styleIndex = { (name: String) -> Int32 in Int32(model.textStyles.firstIndex { $0.name == name }!) }
        func u(_ points: Double) -> Int64 { LayoutUnit.units(points) }
        func space(_ points: Double?) -> Int64 { points.map(u) ?? undefinedSpace }

        for k in model.kinds {
            let e = k.effectiveLayout(widthClass: widthClass, editMode: env.editMode, platform: platform, fontScale: env.fontScale)
            let local = { (name: String) -> Int32 in Int32(k.slotIndex(named: name)!) }
            var kp = KindProgram()
            kp.slotStart = Int32(slots.count)
            kp.slotCount = Int32(k.slots.count)
            kp.valueCount = Int32(k.valueCount)
            kp.valueStart = Int32(valueSlots.count)
            valueSlots += [Int32](repeating: -1, count: k.valueCount)
            let placed = Set(e.layout.columns.flatMap { $0.items.map(\.slot) }).subtracting(e.hidden)
            let overlaid = Set(e.layout.overlays.map(\.slot)).subtracting(e.hidden)
            for (i, s) in k.slots.enumerated() {
                var sp = SlotProgram()
                sp.type = s.spec.type
                sp.valueIndex = Int32(s.index ?? -1)
                if let v = s.index { valueSlots[Int(kp.valueStart) + v] = Int32(i) }
                sp.placed = placed.contains(s.name)
                sp.overlay = overlaid.contains(s.name)
                sp.always = s.always
                sp.required = s.required
                switch s.spec {
                case .text(let style, let lines):
                    sp.style = styleIndex(style)
                    sp.maxLines = Int32(model.resolve(lines, values))
                case .textList(let style, let max, let lines, let gap):
                    sp.style = styleIndex(style)
                    sp.max = Int32(max)
                    sp.maxLines = Int32(model.resolve(lines, values))
                    sp.gap = u(gap)
                case .button(let style, let lines, let height, let pv, let ph, let fill):
                    sp.style = styleIndex(style)
                    sp.maxLines = Int32(model.resolve(lines, values))
                    sp.buttonHeight = height.map(u) ?? -1
                    sp.paddingVertical = u(pv)
                    sp.paddingHorizontal = u(ph)
                    sp.flag = fill
                case .box(let w, let h):
                    sp.width = u(w.value(platform))
                    sp.height = u(h.value(platform))
                case .image(let lo, let hi, let def, let fromColumn, let aspect, _):
                    sp.imageMin = u(model.resolve(lo, values))
                    sp.imageMax = u(model.resolve(hi, values))
                    sp.imageDefault = def.map { u(model.resolve($0, values)) } ?? 0
                    sp.flag = fromColumn
                    sp.wideAspect = aspect == .widthAtLeastHeight
                case .boxStack(let max, let w, let h, let gap, let vertical):
                    sp.max = Int32(max)
                    sp.width = u(w)
                    sp.height = u(h)
                    sp.gap = u(gap)
                    sp.flag = vertical
                }
                slots.append(sp)
            }
            kp.columnStart = Int32(columns.count)
            for c in e.layout.columns {
                var cp = ColumnProgram()
                cp.itemStart = Int32(items.count)
                cp.itemCount = Int32(c.items.count)
                switch c.width {
                case .fit: cp.mode = .fit
                case .fill: cp.mode = .fill
                case .fixed(let w): cp.mode = .fixed; cp.fixed = u(w)
                case .fraction(let f): cp.mode = .fraction; cp.fraction = f
                }
                switch c.maxWidth {
                case nil: cp.maxMode = 0
                case .length(let l)?: cp.maxMode = 1; cp.maxLength = u(l)
                case .fraction(let f)?: cp.maxMode = 2; cp.maxFraction = f
                }
                cp.gap = u(c.gap)
                cp.align = c.align
                cp.hAlign = c.hAlign
                cp.spaceBefore = space(c.spaceBefore)
                cp.spaceAfter = space(c.spaceAfter)
                for item in c.items {
                    items.append(ItemProgram(slot: local(item.slot), spaceBefore: space(item.spaceBefore), spaceAfter: space(item.spaceAfter)))
                }
                columns.append(cp)
            }
            kp.columnCount = Int32(e.layout.columns.count)
            kp.overlayStart = Int32(overlays.count)
            for o in e.layout.overlays {
                overlays.append(OverlayProgram(slot: local(o.slot), anchor: o.anchor.map(local) ?? -1, corner: o.corner, inset: u(o.inset)))
            }
            kp.overlayCount = Int32(e.layout.overlays.count)
            kp.ruleStart = Int32(ruleRanges.count)
            for r in k.rules {
                switch r {
                case .exclusive(let names):
                    let start = Int32(ruleSlots.count)
                    ruleSlots += names.map(local)
                    ruleRanges.append(start..<Int32(ruleSlots.count))
                case .groupMinimum(let n):
                    kp.groupMinimum = Int32(n)
                }
            }
            kp.ruleCount = Int32(ruleRanges.count) - kp.ruleStart
            kp.padTop = u(e.padding.top)
            kp.padBottom = u(e.padding.bottom)
            kp.padLeading = u(e.padding.leading)
            kp.padTrailing = u(e.padding.trailing)
            kp.minHeight = u(k.minHeight.value(platform))
            kp.columnGap = u(e.layout.columnGap)
            if let d = k.divider(platform) {
                switch d.leadingInset {
                case .length(let l): kp.dividerMode = 1; kp.dividerLength = u(l)
                case .slot(let s): kp.dividerMode = 2; kp.dividerSlot = local(s)
                }
                kp.dividerTrailing = u(d.trailingInset)
            }
            if let g = model.grid, let grid, let entry = g.kinds.first(where: { $0.kind == k.name }) {
                switch entry.itemWidth {
                case .length(let ref):
                    kp.gridMode = 1
                    kp.gridWidth = Swift.min(u(model.resolve(ref, values)), grid.slotUnits)
                case .content:
                    kp.gridMode = 2
                    kp.gridWidth = grid.slotUnits
                }
            }
            kinds.append(kp)
            maxSlots = Swift.max(maxSlots, k.slots.count)
            maxColumns = Swift.max(maxColumns, e.layout.columns.count)
        }
        self.kinds = Self.buffer(kinds)
        self.slots = Self.buffer(slots)
        self.valueSlots = Self.buffer(valueSlots)
        self.columns = Self.buffer(columns)
        self.items = Self.buffer(items)
        self.overlays = Self.buffer(overlays)
        self.ruleRanges = Self.buffer(ruleRanges)
        self.ruleSlots = Self.buffer(ruleSlots)
        self.maxSlots = maxSlots
        self.maxColumns = maxColumns
    }

    deinit {
        Self.free(kinds)
        Self.free(slots)
        Self.free(valueSlots)
        Self.free(columns)
        Self.free(items)
        Self.free(overlays)
        Self.free(ruleRanges)
        Self.free(ruleSlots)
        Self.free(styles)
        Self.free(styleIdentities)
        Self.free(lineHeights)
    }

    /// A buffer holding a copy of `elements` (never a nil base address).
    private static func buffer<T>(_ elements: [T]) -> UnsafeBufferPointer<T> {
        let p = UnsafeMutablePointer<T>.allocate(capacity: Swift.max(elements.count, 1))
        elements.withUnsafeBufferPointer { if let b = $0.baseAddress { p.initialize(from: b, count: $0.count) } }
        return UnsafeBufferPointer(start: p, count: elements.count)
    }

    private static func free<T>(_ buffer: UnsafeBufferPointer<T>) {
        let p = UnsafeMutablePointer(mutating: buffer.baseAddress!)
        p.deinitialize(count: buffer.count)
        p.deallocate()
    }

    /// Whether every row of kind `k` measures the same here as in `other` (a program of the
    /// same profile): the same compiled kind (padding, columns, items, overlays, slot
    /// programs), cell width, and text styles and line heights for its texts. With
    /// `ignoringWidth`, whether it would if the content widths were the same.
    func sameLayout(kind k: Int, as other: CellProgram, ignoringWidth: Bool = false) -> Bool {
        var a = kinds[k], b = other.kinds[k]
        guard a.gridMode == b.gridMode, a.gridMode != 0 || ignoringWidth || width == other.width else { return false }
        // A content-wide grid item's width is its slot's at most: not its layout.
        if ignoringWidth && a.gridMode == 2 { (a.gridWidth, b.gridWidth) = (0, 0) }
        let (slotsA, slotsB) = (Int(a.slotStart), Int(b.slotStart))
        let (columnsA, columnsB) = (Int(a.columnStart), Int(b.columnStart))
        let (overlaysA, overlaysB) = (Int(a.overlayStart), Int(b.overlayStart))
        // Positions in the flat arrays may differ; what they hold must not.
        a.slotStart = 0; b.slotStart = 0; a.columnStart = 0; b.columnStart = 0
        a.overlayStart = 0; b.overlayStart = 0; a.ruleStart = 0; b.ruleStart = 0; a.valueStart = 0; b.valueStart = 0
        guard a == b else { return false }
        for s in 0..<Int(a.slotCount) {
            let x = slots[slotsA + s], y = other.slots[slotsB + s]
            guard x == y else { return false }
            if x.style >= 0 {
                let i = Int(x.style)
                guard styleIdentities[i] == other.styleIdentities[i], lineHeights[i] == other.lineHeights[i] else { return false }
            }
        }
        for c in 0..<Int(a.columnCount) {
            var x = columns[columnsA + c], y = other.columns[columnsB + c]
            let (itemsX, itemsY) = (Int(x.itemStart), Int(y.itemStart))
            x.itemStart = 0
            y.itemStart = 0
            guard x == y else { return false }
            for i in 0..<Int(x.itemCount) where items[itemsX + i] != other.items[itemsY + i] { return false }
        }
        for o in 0..<Int(a.overlayCount) where overlays[overlaysA + o] != other.overlays[overlaysB + o] { return false }
        return true
    }

    /// For rows of kind `k` with present values `mask` (`CellMeasurer.presentValues`) that
    /// this program lays out as `other` does apart from the width, the horizontal padding,
    /// the gaps between columns and columns of boxes alone that never set the height: how
    /// the fill column moves (`FillShift`); nil otherwise. fiori-ios's edit mode adds a
    /// selection control's column and hides the chevron: a row with a chevron shifts by the
    /// control's column less the chevron's. Its regular width class widens the padding and
    /// the gap before the attributes: a row without a description (which gets a column of
    /// its own there) shifts by both.
    func fillShift(kind k: Int, from other: CellProgram, present mask: UInt32) -> FillShift? {
        guard let (slotsA, slotsB, slotCount) = shiftableSlots(kind: k, from: other) else { return nil }
        // A slot present in both measures the same in both; one present in only one must
        // turn out to sit in a column of boxes (below).
        for s in 0..<slotCount where slots[slotsA + s].isPresent(in: mask) && other.slots[slotsB + s].isPresent(in: mask) {
            guard measuresAlike(slotsA + s, other, slotsB + s) else { return nil }
        }
        // The columns that set the height, in order, the same here and there; the width the
        // others and the gaps take moves the fill column.
        guard let floorHere = contentFloor(kind: k, present: mask), let floorThere = other.contentFloor(kind: k, present: mask) else { return nil }
        var here = ColumnWalk(self, kind: k, present: mask, floor: floorHere), there = ColumnWalk(other, kind: k, present: mask, floor: floorThere)
        while true {
            let x = here.nextContent(), y = there.nextContent()
            guard let x, let y else {
                guard x == nil && y == nil else { return nil }
                break
            }
            guard sameContent(kind: k, column: x, other, column: y, present: mask) else { return nil }
        }
        let padding = (kinds[k].padLeading + kinds[k].padTrailing) - (other.kinds[k].padLeading + other.kinds[k].padTrailing)
        return FillShift(fill: here.used - there.used + padding, padding: padding)
    }

    /// Whether `fillShift(kind: k, from: other, present:)` is nil for the present values of
    /// every valid row: the kinds differ in more than where their parts sit, or a slot every
    /// valid row has is measured differently (a font scale restyles every text).
    func fillShiftIsNil(kind k: Int, from other: CellProgram) -> Bool {
        guard let (slotsA, slotsB, slotCount) = shiftableSlots(kind: k, from: other) else { return true }
        for s in 0..<slotCount where slots[slotsA + s].isInEveryValidRow && other.slots[slotsB + s].isInEveryValidRow {
            if !measuresAlike(slotsA + s, other, slotsB + s) { return true }
        }
        return false
    }

    /// Where kind `k`'s slots start here and in `other`, and how many it has, when the two
    /// can differ by a fill shift at all: neither is a grid item, and they agree apart from
    /// their columns, where their parts sit and the width their padding and gaps take; nil
    /// otherwise.
    func shiftableSlots(kind k: Int, from other: CellProgram) -> (here: Int, there: Int, count: Int)? {
        var a = kinds[k], b = other.kinds[k]
        guard a.gridMode == 0, b.gridMode == 0 else { return nil }
        let (slotsA, slotsB) = (Int(a.slotStart), Int(b.slotStart))
        let (overlaysA, overlaysB) = (Int(a.overlayStart), Int(b.overlayStart))
        a.slotStart = 0; b.slotStart = 0; a.columnStart = 0; b.columnStart = 0; a.columnCount = 0; b.columnCount = 0
        a.overlayStart = 0; b.overlayStart = 0; a.ruleStart = 0; b.ruleStart = 0; a.valueStart = 0; b.valueStart = 0
        // The horizontal padding and the gap between columns take their width from the
        // fill column (`FillShift`).
        (a.padLeading, a.padTrailing, a.columnGap, b.padLeading, b.padTrailing, b.columnGap) = (0, 0, 0, 0, 0, 0)
        guard a == b else { return nil }
        for o in 0..<Int(a.overlayCount) where overlays[overlaysA + o] != other.overlays[overlaysB + o] { return nil }
        return (slotsA, slotsB, Int(a.slotCount))
    }

    /// Whether slot `i` here and slot `j` of `other` are the same and, for a text, in the
    /// same style and line height.
    func measuresAlike(_ i: Int, _ other: CellProgram, _ j: Int) -> Bool {
        let x = slots[i], y = other.slots[j]
        guard x == y else { return false }
        guard x.style >= 0 else { return true }
        let style = Int(x.style)
        return styleIdentities[style] == other.styleIdentities[style] && lineHeights[style] == other.lineHeights[style]
    }

    /// Column `c` of kind `kp` for rows with present values `mask`, for `fillShift`: whether
    /// it takes part (the fill column, or one with a present item), the least height its
    /// present items take (each text on one line: at least what it takes), and its width
    /// when it holds boxes alone (fit and uncapped, or fixed), else nil.
    private func columnPart(_ kp: KindProgram, _ c: Int, present mask: UInt32) -> (present: Bool, least: Int64, boxes: Int64?) {
        let column = columns[c], slotStart = Int(kp.slotStart)
        var least: Int64 = 0, widest: Int64 = 0, boxesAlone = column.mode != .fill, any = false, previous: ItemProgram? = nil
        for i in Int(column.itemStart)..<Int(column.itemStart + column.itemCount) {
            let item = items[i], sp = slots[slotStart + Int(item.slot)]
            guard sp.isPresent(in: mask) else { continue }
            if let p = previous { least += CellMeasurer.gap(p.spaceAfter, item.spaceBefore, column.gap) }
            previous = item
            any = true
            switch sp.type {
            case .box: least += sp.height; widest = Swift.max(widest, sp.width)
            case .text: least += lineHeights[Int(sp.style)]; boxesAlone = false
            default: boxesAlone = false
            }
        }
        let width: Int64? = !boxesAlone ? nil : column.mode == .fixed ? column.fixed : column.maxMode == 0 ? widest : nil
        return (column.mode == .fill || any, least, width)
    }

    /// The least height kind `k`'s columns other than boxes alone guarantee rows with
    /// present values `mask` (and the kind's minimum): a column of boxes alone no taller
    /// never sets the height. nil when a fraction column takes part (the fill column does
    /// not follow the width).
    private func contentFloor(kind k: Int, present mask: UInt32) -> Int64? {
        let kp = kinds[k]
        var floor = kp.minHeight - kp.padTop - kp.padBottom
        for c in Int(kp.columnStart)..<Int(kp.columnStart + kp.columnCount) {
            let part = columnPart(kp, c, present: mask)
            guard part.present else { continue }
            guard columns[c].mode != .fraction else { return nil }
            if part.boxes == nil { floor = Swift.max(floor, part.least) }
        }
        return floor
    }

    /// Kind `k`'s present columns for rows with present values `mask`, in order
    /// (`fillShift`): `used` sums the gaps between them and the widths of the columns of
    /// boxes alone no taller than `floor`; `nextContent` gives the others.
    private struct ColumnWalk {
        let program: CellProgram, kind: KindProgram, mask: UInt32, floor: Int64
        var c: Int
        var previous: ColumnProgram? = nil
        var used: Int64 = 0

        init(_ program: CellProgram, kind k: Int, present mask: UInt32, floor: Int64) {
            self.program = program
            kind = program.kinds[k]
            self.mask = mask
            self.floor = floor
            c = Int(kind.columnStart)
        }

        mutating func nextContent() -> Int? {
            while c < Int(kind.columnStart + kind.columnCount) {
                let index = c, column = program.columns[c]
                c += 1
                let part = program.columnPart(kind, index, present: mask)
                guard part.present else { continue }
                if let p = previous { used += CellMeasurer.gap(p.spaceAfter, column.spaceBefore, kind.columnGap) }
                previous = column
                if let width = part.boxes, part.least <= floor {
                    used += width
                    continue
                }
                return index
            }
            return nil
        }
    }

    /// Whether column `x` here and column `y` of `other` (of kind `k`) hold the same present
    /// items the same way; their gaps are compared through `used`.
    private func sameContent(kind k: Int, column x: Int, _ other: CellProgram, column y: Int, present mask: UInt32) -> Bool {
        var a = columns[x], b = other.columns[y]
        let (itemsA, itemsB) = (Int(a.itemStart)..<Int(a.itemStart + a.itemCount), Int(b.itemStart)..<Int(b.itemStart + b.itemCount))
        (a.itemStart, a.itemCount, a.spaceBefore, a.spaceAfter) = (0, 0, 0, 0)
        (b.itemStart, b.itemCount, b.spaceBefore, b.spaceAfter) = (0, 0, 0, 0)
        guard a == b else { return false }
        let slotsA = Int(kinds[k].slotStart), slotsB = Int(other.kinds[k].slotStart)
        var i = itemsA.lowerBound, j = itemsB.lowerBound
        while true {
            while i < itemsA.upperBound && !slots[slotsA + Int(items[i].slot)].isPresent(in: mask) { i += 1 }
            while j < itemsB.upperBound && !other.slots[slotsB + Int(other.items[j].slot)].isPresent(in: mask) { j += 1 }
            guard i < itemsA.upperBound, j < itemsB.upperBound else { return i == itemsA.upperBound && j == itemsB.upperBound }
            guard items[i] == other.items[j] else { return false }
            i += 1
            j += 1
        }
    }

    /// The environment errors, before anything is built.
    static func check(_ env: LayoutEnvironment, _ model: ProfileModel) throws(TesseraError) {
        guard env.width.isFinite, env.width > 0, env.width <= LayoutEnvironment.maximumWidth else {
            throw .invalidEnvironment(field: "width", problem: "expected a finite width > 0 and <= \(ProfileFormat.number(LayoutEnvironment.maximumWidth)) points, found \(env.width)")
        }
        guard env.fontScale.isFinite, env.fontScale > 0, env.fontScale <= LayoutEnvironment.maximumFontScale else {
            throw .invalidEnvironment(field: "fontScale", problem: "expected a finite font scale > 0 and <= \(ProfileFormat.number(LayoutEnvironment.maximumFontScale)), found \(env.fontScale)")
        }
        if let name = env.widthClass, !model.widthClasses.contains(where: { $0.name == name }) {
            throw .invalidEnvironment(field: "widthClass", problem: "expected one of the profile's width classes (\(model.widthClasses.map(\.name).joined(separator: ", "))), found \"\(name)\"")
        }
        guard model.platforms.contains(env.platform) else {
            throw .invalidEnvironment(field: "platform", problem: "expected one of the profile's platforms (\(model.platforms.map(\.rawValue).joined(separator: ", "))), found \(env.platform.rawValue)")
        }
        for (name, value) in env.parameters.sorted(by: { $0.key < $1.key }) {
            guard let p = model.parameter(named: name) else {
                let known = model.parameters.isEmpty ? "the profile has none" : "expected one of \(model.parameters.map(\.name).joined(separator: ", "))"
                throw .invalidEnvironment(field: "parameters.\(name)", problem: "unknown parameter; \(known)")
            }
            if let problem = p.problem(with: value) { throw .invalidEnvironment(field: "parameters.\(name)", problem: problem) }
        }
        if let (path, problem) = model.parameterProblem(env.parameters) {
            throw .invalidEnvironment(field: "parameters", problem: "\(path): \(problem)")
        }
    }

    /// The profile's text styles on `platform` at `fontScale`, in `textStyles` order.
    static func makeStyles(_ profile: Profile, platform: Platform, fontScale: Double) throws(TesseraError) -> [TextStyle] {
        var result: [TextStyle] = []
        for s in profile.model.textStyles {
            let r = s.resolved(platform)
            let chain = profile.fontChains[profile.model.fonts.firstIndex { $0.name == r.font }!]
            do throws(TesseraError) {
                result.append(try TextStyle(fontChain: chain, size: r.size * fontScale, lineHeight: r.lineHeight * fontScale, letterSpacing: r.letterSpacing * fontScale))
            } catch {
                throw .invalidEnvironment(field: "fontScale", problem: "text style \(s.name) at font scale \(fontScale): \(error)")
            }
        }
        return result
    }

    #if TESSERA_INVARIANTS
    func _checkInvariants() {
        precondition(lineHeights.count == styles.count)
        for k in kinds {
            precondition(Int(k.slotStart + k.slotCount) <= slots.count && Int(k.slotCount) <= maxSlots)
            precondition(Int(k.columnStart + k.columnCount) <= columns.count && Int(k.columnCount) <= maxColumns)
            precondition(Int(k.overlayStart + k.overlayCount) <= overlays.count)
            precondition(Int(k.ruleStart + k.ruleCount) <= ruleRanges.count)
            precondition(Int(k.valueStart + k.valueCount) <= valueSlots.count)
            var fills = 0
            for c in columns[Int(k.columnStart)..<Int(k.columnStart + k.columnCount)] {
                if c.mode == .fill { fills += 1 }
                precondition(Int(c.itemStart + c.itemCount) <= items.count)
                for item in items[Int(c.itemStart)..<Int(c.itemStart + c.itemCount)] { precondition(item.slot >= 0 && item.slot < k.slotCount) }
            }
            precondition(fills == 1, "exactly one fill column per kind")
            for v in 0..<Int(k.valueCount) {
                let s = valueSlots[Int(k.valueStart) + v]
                precondition(s >= 0 && s < k.slotCount && slots[Int(k.slotStart + s)].valueIndex == Int32(v))
            }
            for s in slots[Int(k.slotStart)..<Int(k.slotStart + k.slotCount)] where s.style >= 0 { precondition(Int(s.style) < styles.count) }
        }
    }
    #endif
}
