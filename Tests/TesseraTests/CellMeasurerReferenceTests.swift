import Testing
@testable import Tessera

/// A straightforward measurer written from Profiles/README.md ("Slots and row values",
/// "Layout", "Variants", "How height and frames follow", "Grid mode", and the rounding
/// rules there) over the decoded profile: variants re-applied for every row, values
/// decoded into strings, lengths as Doubles, texts measured by a fresh uncached engine. No
/// compiled program, no scratch state, no caches.
struct ReferenceMeasurer {
    typealias Platform = LayoutEnvironment.Platform

    let model: ProfileModel
    let profile: Profile
    let env: LayoutEnvironment
    let engine = TextLayoutEngine(configuration: .uncached)
    var styles: [String: (style: TextStyle, lineHeight: Double)] = [:]

    /// 1/64 pt rounding: to nearest (halves away from zero), up, down.
    static func q(_ x: Double) -> Double { (x * 64).rounded() / 64 }
    static func up(_ x: Double) -> Double { (x * 64).rounded(.up) / 64 }
    static func down(_ x: Double) -> Double { (x * 64).rounded(.down) / 64 }

    init(profile: Profile, environment: LayoutEnvironment) {
        self.profile = profile
        model = profile.model
        env = environment
        for s in model.textStyles {
            let o = env.platform == .ios ? s.ios : s.android
            let font = o?.font ?? s.base.font!
            let size = (o?.size ?? s.base.size!) * env.fontScale
            let lineHeight = (o?.lineHeight ?? s.base.lineHeight!) * env.fontScale
            let spacing = (o?.letterSpacing ?? s.base.letterSpacing ?? 0) * env.fontScale
            let chain = profile.fontChains[model.fonts.firstIndex { $0.name == font }!]
            styles[s.name] = (try! TextStyle(fontChain: chain, size: size, lineHeight: lineHeight, letterSpacing: spacing), Self.q(lineHeight))
        }
    }

    var widthClass: String { model.widthClasses.last { $0.minWidth <= env.width }!.name }

    func parameter(_ name: String) -> Double { Double(env.parameters[name] ?? model.parameters.first { $0.name == name }!.defaultValue) }
    func length(_ ref: LengthRef) -> Double {
        switch ref {
        case .value(let v): Self.q(v)
        case .parameter(let p): Self.q(parameter(p))
        }
    }
    func lines(_ ref: LineLimitRef) -> Int {
        switch ref {
        case .value(let v): v
        case .parameter(let p): Int(parameter(p))
        }
    }

    /// README "Variants": every variant whose conditions all hold, in order.
    func effective(_ k: KindModel) -> (layout: LayoutModel, hidden: Set<String>, padding: PaddingModel) {
        var layout = k.layout, hidden = Set<String>(), padding = k.padding
        let wc = widthClass
        for v in k.variants {
            let w = v.when
            guard w.widthClasses.map({ $0.contains(wc) }) ?? true, w.editMode.map({ $0 == env.editMode }) ?? true,
                  w.platform.map({ $0 == env.platform }) ?? true, w.fontScaleAtLeast.map({ env.fontScale >= $0 }) ?? true,
                  w.fontScaleBelow.map({ env.fontScale < $0 }) ?? true else { continue }
            if let l = v.layout { layout = l }
            layout.columns = v.prependColumns + layout.columns + v.appendColumns
            hidden.formUnion(v.hide)
            if let p = v.padding { padding = p }
        }
        return (layout, hidden, padding)
    }

    /// One slot of one row.
    struct Item {
        var slot: SlotModel
        var value: [UInt8] = []
        var present = false
        /// Text list items as byte ranges of the value.
        var items: [Range<Int>] = []
        var count = 0
        var width = 0.0, height = 0.0, x = 0.0, y = 0.0
        var natural: Double? = nil
    }

    func measure(_ text: ArraySlice<UInt8>, _ style: String, width: Double, maxLines: Int, lines: Bool = false) -> TextMeasurement {
        try! engine.measure(String(decoding: text, as: UTF8.self), style: styles[style]!.style, width: max(width, 1.0 / 64), maxLines: maxLines, includeLines: lines)
    }

    func textNatural(_ text: ArraySlice<UInt8>, _ style: String) -> Double {
        max(Self.up(try! engine.measure(String(decoding: text, as: UTF8.self), style: styles[style]!.style, width: Double(1 << 24)).width), 0)
    }

    func textHeight(_ text: ArraySlice<UInt8>, _ style: String, width: Double, maxLines: Int) -> Double {
        Double(measure(text, style, width: width, maxLines: maxLines).lineCount) * styles[style]!.lineHeight
    }

    /// README "Slots and row values" natural widths.
    func natural(_ item: Item) -> Double {
        switch item.slot.spec {
        case .text(let style, _): return textNatural(item.value[...], style)
        case .textList(let style, _, _, _): return item.items.map { textNatural(item.value[$0], style) }.max() ?? 0
        case .button(let style, _, _, _, let ph, let fill): return fill ? 0 : textNatural(item.value[...], style) + 2 * Self.q(ph)
        case .box(let w, _): return Self.q(w.value(env.platform))
        case .image(_, _, _, let fromColumn, _, _): return fromColumn ? 0 : item.width
        case .boxStack(_, let w, _, let gap, let vertical): return vertical ? Self.q(w) : Double(item.count) * Self.q(w) + Double(item.count - 1) * Self.q(gap)
        }
    }

    /// The row's items, present or not, by slot name.
    func read(_ k: KindModel, _ row: [String], hidden: Set<String>, placed: Set<String>) -> [String: Item] {
        var result: [String: Item] = [:]
        for s in k.slots {
            var item = Item(slot: s)
            if let i = s.index, i < row.count { item.value = Array(row[i].utf8) }
            let given = !item.value.isEmpty
            let inLayout = placed.contains(s.name) && !hidden.contains(s.name)
            switch s.spec {
            case .text, .button:
                item.present = inLayout && given
            case .textList:
                var start = 0
                for i in 0...item.value.count where i == item.value.count || item.value[i] == 0x1E {
                    if i > start { item.items.append(start..<i) }
                    start = i + 1
                }
                item.count = item.items.count
                item.present = inLayout && item.count > 0
            case .box(let w, let h):
                item.present = inLayout && (s.always || given)
                item.width = Self.q(w.value(env.platform))
                item.height = Self.q(h.value(env.platform))
            case .image(_, _, let def, let fromColumn, _, _):
                item.present = inLayout && (s.always || given)
                if !fromColumn {
                    let text = String(decoding: item.value, as: UTF8.self)
                    if text.isEmpty || text == "*" {
                        item.width = length(def!)
                        item.height = item.width
                    } else if let x = text.firstIndex(of: "x") {
                        item.width = Self.q(Double(text[..<x])!)
                        item.height = Self.q(Double(text[text.index(after: x)...])!)
                    } else {
                        item.width = Self.q(Double(text)!)
                        item.height = item.width
                    }
                }
            case .boxStack(_, let w, let h, let gap, let vertical):
                item.count = given ? Int(String(decoding: item.value, as: UTF8.self))! : 0
                item.present = inLayout && item.count > 0
                let n = Double(item.count)
                item.width = vertical ? Self.q(w) : n * Self.q(w) + (n - 1) * Self.q(gap)
                item.height = vertical ? n * Self.q(h) + (n - 1) * Self.q(gap) : Self.q(h)
            }
            result[s.name] = item
        }
        return result
    }

    static func gap(_ after: Double?, _ before: Double?, _ standard: Double) -> Double {
        let given = [after, before].compactMap { $0 }.map(q)
        return given.isEmpty ? q(standard) : given.max()!
    }

    /// README "Grid mode" step 3: a grid item's width.
    func cellWidth(_ k: KindModel, _ row: [String]) -> Double {
        guard let grid = model.grid, let entry = grid.kinds.first(where: { $0.kind == k.name }) else { return Self.q(env.width) }
        let n: Int
        switch grid.columns.first(where: { $0.widthClass == widthClass })!.count {
        case .fixed(let c): n = c
        case .range(let lo, let hi):
            let c = length(grid.countItemWidth)
            n = min(max(Int(((env.width - 2 * grid.padding + grid.columnGap) / (c + grid.columnGap)).rounded(.down)), lo), hi)
        }
        let slot = max(Self.down((env.width - 2 * grid.padding - Double(n - 1) * grid.columnGap) / Double(n)), 1.0 / 64)
        switch entry.itemWidth {
        case .length(let ref): return min(length(ref), slot)
        case .content:
            let e = effective(k)
            let items = read(k, row, hidden: e.hidden, placed: Set(e.layout.columns.flatMap { $0.items.map(\.slot) }))
            var total = Self.q(e.padding.leading) + Self.q(e.padding.trailing)
            var previous: ColumnModel? = nil
            for c in e.layout.columns {
                let present = c.items.filter { items[$0.slot]!.present }
                guard c.width == .fill || !present.isEmpty else { continue }
                if let p = previous { total += Self.gap(p.spaceAfter, c.spaceBefore, e.layout.columnGap) }
                var w: Double
                if case .fixed(let f) = c.width { w = Self.q(f) } else { w = present.map { natural(items[$0.slot]!) }.max() ?? 0 }
                if c.width == .fit, case .length(let l)? = c.maxWidth { w = min(w, Self.q(l)) }
                total += w
                previous = c
            }
            return max(min(total, slot), 1.0 / 64)
        }
    }

    /// README "How height and frames follow", steps 1–9.
    func frames(_ kindName: String, _ row: [String]) -> CellFrames {
        let k = model.kind(named: kindName)!
        let W = cellWidth(k, row)
        let e = effective(k)                                                        // 1
        let placed = Set(e.layout.columns.flatMap { $0.items.map(\.slot) } + e.layout.overlays.map(\.slot))
        var items = read(k, row, hidden: e.hidden, placed: placed)                  // 2
        let columns = e.layout.columns.filter { c in c.width == .fill || c.items.contains { items[$0.slot]!.present } }
        let pad = (top: Self.q(e.padding.top), bottom: Self.q(e.padding.bottom), leading: Self.q(e.padding.leading), trailing: Self.q(e.padding.trailing))
        let inner = W - pad.leading - pad.trailing                                  // 3
        var widths = [Double](repeating: 0, count: columns.count)                   // 4
        var used = 0.0
        for (i, c) in columns.enumerated() {
            if i > 0 { used += Self.gap(columns[i - 1].spaceAfter, c.spaceBefore, e.layout.columnGap) }
            switch c.width {
            case .fixed(let f): widths[i] = Self.q(f)
            case .fit:
                var w = c.items.filter { items[$0.slot]!.present }.map { natural(items[$0.slot]!) }.max() ?? 0
                switch c.maxWidth {
                case .length(let l)?: w = min(w, Self.q(l))
                case .fraction(let f)?: w = min(w, max(Self.q(f * inner), 0))
                case nil: break
                }
                widths[i] = w
            default: continue
            }
            used += widths[i]
        }
        let F = max(inner - used, 0)
        var fractions = 0.0
        for (i, c) in columns.enumerated() {
            if case .fraction(let f) = c.width {
                widths[i] = Self.q(f * F)
                fractions += widths[i]
            }
        }
        widths[columns.firstIndex { $0.width == .fill }!] = max(F - fractions, 0)
        var heights = [Double](repeating: 0, count: columns.count)                  // 5, 6
        for (i, c) in columns.enumerated() {
            var h = 0.0
            var previous: ColumnItemModel? = nil
            for ci in c.items where items[ci.slot]!.present {
                if let p = previous { h += Self.gap(p.spaceAfter, ci.spaceBefore, c.gap) }
                var item = items[ci.slot]!
                switch item.slot.spec {
                case .text(let style, let limit):
                    item.width = widths[i]
                    item.height = textHeight(item.value[...], style, width: widths[i], maxLines: lines(limit))
                case .textList(let style, _, let limit, let gap):
                    item.width = widths[i]
                    item.height = item.items.map { textHeight(item.value[$0], style, width: widths[i], maxLines: lines(limit)) }.reduce(0, +)
                        + Double(item.items.count - 1) * Self.q(gap)
                case .button(let style, let limit, let fixed, let pv, let ph, let fill):
                    item.width = fill ? widths[i] : min(natural(item), widths[i])
                    item.height = fixed.map(Self.q) ?? (textHeight(item.value[...], style, width: item.width - 2 * Self.q(ph), maxLines: lines(limit)) + 2 * Self.q(pv))
                case .image(let lo, let hi, _, true, _, _):
                    item.width = min(max(widths[i], length(lo)), length(hi))
                    item.height = item.width
                default: break
                }
                items[ci.slot] = item
                h += item.height
                previous = ci
            }
            heights[i] = h
        }
        let H = max(pad.top + (heights.max() ?? 0) + pad.bottom, Self.q(k.minHeight.value(env.platform)))  // 7
        var result = CellFrames(width: W, height: H, slots: [], divider: nil)      // 8
        let box = H - pad.top - pad.bottom
        var x = pad.leading
        var columnX: [String: Double] = [:]
        for (i, c) in columns.enumerated() {
            if i > 0 { x += Self.gap(columns[i - 1].spaceAfter, c.spaceBefore, e.layout.columnGap) }
            for ci in c.items { columnX[ci.slot] = x }
            var y = pad.top
            switch c.align {
            case .top: break
            case .center: y += Self.down((box - heights[i]) / 2)
            case .bottom: y += box - heights[i]
            }
            var previous: ColumnItemModel? = nil
            for ci in c.items where items[ci.slot]!.present {
                if let p = previous { y += Self.gap(p.spaceAfter, ci.spaceBefore, c.gap) }
                var item = items[ci.slot]!
                switch c.hAlign {
                case .leading: item.x = x
                case .center: item.x = x + Self.down((widths[i] - item.width) / 2)
                case .trailing: item.x = x + widths[i] - item.width
                }
                item.y = y
                y += item.height
                items[ci.slot] = item
                result.slots.append(slotFrame(item))
                previous = ci
            }
            x += widths[i]
        }
        for o in e.layout.overlays where items[o.slot]!.present {
            var item = items[o.slot]!
            var anchor = CellRect(x: 0, y: 0, width: W, height: H)
            if let a = o.anchor, let i = items[a], i.present { anchor = CellRect(x: i.x, y: i.y, width: i.width, height: i.height) }
            let inset = Self.q(o.inset)
            item.x = o.corner == .topLeading || o.corner == .bottomLeading ? anchor.x + inset : anchor.x + anchor.width - inset - item.width
            item.y = o.corner == .topLeading || o.corner == .topTrailing ? anchor.y + inset : anchor.y + anchor.height - inset - item.height
            result.slots.append(slotFrame(item))
        }
        if let d = k.divider(env.platform) {                                        // 9
            var dx: Double
            switch d.leadingInset {
            case .length(let l): dx = Self.q(l)
            case .slot(let s): dx = columnX[s] ?? pad.leading
            }
            result.divider = CellRect(x: dx, y: H, width: W - Self.q(d.trailingInset) - dx, height: 0)
        }
        return result
    }

    func textFrame(_ value: [UInt8], _ range: Range<Int>, _ style: String, _ limit: LineLimitRef, x: Double, y: Double, width: Double) -> TextFrame {
        let m = measure(value[range], style, width: width, maxLines: lines(limit), lines: true)
        let shifted = m.lines.map { TextLine(range: ($0.range.lowerBound + range.lowerBound)..<($0.range.upperBound + range.lowerBound), width: $0.width, isEllipsized: $0.isEllipsized) }
        return TextFrame(byteRange: range, frame: CellRect(x: x, y: y, width: width, height: Double(m.lineCount) * styles[style]!.lineHeight),
                         lines: shifted, isTruncated: m.isTruncated)
    }

    func slotFrame(_ item: Item) -> SlotFrame {
        var f = SlotFrame(name: item.slot.name, valueIndex: item.slot.index, frame: CellRect(x: item.x, y: item.y, width: item.width, height: item.height), texts: [], boxes: [])
        switch item.slot.spec {
        case .text(let style, let limit):
            f.texts = [textFrame(item.value, 0..<item.value.count, style, limit, x: item.x, y: item.y, width: item.width)]
        case .textList(let style, _, let limit, let gap):
            var y = item.y
            for r in item.items {
                let t = textFrame(item.value, r, style, limit, x: item.x, y: y, width: item.width)
                f.texts.append(t)
                y += t.frame.height + Self.q(gap)
            }
        case .button(let style, let limit, _, _, let ph, _):
            var t = textFrame(item.value, 0..<item.value.count, style, limit, x: item.x + Self.q(ph), y: 0, width: item.width - 2 * Self.q(ph))
            t.frame.y = item.y + Self.down((item.height - t.frame.height) / 2)
            f.texts = [t]
        case .boxStack(_, let w, let h, let gap, let vertical):
            for i in 0..<item.count {
                let step = Double(i) * ((vertical ? Self.q(h) : Self.q(w)) + Self.q(gap))
                f.boxes.append(CellRect(x: item.x + (vertical ? 0 : step), y: item.y + (vertical ? step : 0), width: Self.q(w), height: Self.q(h)))
            }
        default: break
        }
        return f
    }
}

/// Random valid rows of a kind, following the slot definitions and rules.
struct RowGenerator {
    let model: ProfileModel
    let env: LayoutEnvironment

    static let words = ["Invoice", "Zahlung", "Überweisung", "SAP", "Fiori", "order", "42", "—", "日本語", "中文のテキスト", "مرحبا", "नमस्ते", "😀",
                        "👨‍👩‍👧", "e\u{301}", "supercalifragilisticexpialidocious", "Mo.", "1,234.56 EUR", "a", "(draft)", "#PO-4711"]

    static func text(_ rng: inout SplitMix64) -> String {
        switch rng.below(10) {
        case 0: return rng.pick(sampleTexts.filter { !$0.isEmpty })
        case 1: return (0..<rng.int(1...3)).map { _ in rng.pick(words) }.joined(separator: "\n")
        case 2: return (0..<rng.int(20...60)).map { _ in rng.pick(words) }.joined(separator: " ")
        default: return (0..<rng.int(1...8)).map { _ in rng.pick(words) }.joined(separator: " ")
        }
    }

    func parameter(_ name: String) -> Double { Double(env.parameters[name] ?? model.parameter(named: name)!.defaultValue) }

    func value(_ ref: LengthRef) -> Double {
        switch ref {
        case .value(let v): v
        case .parameter(let p): parameter(p)
        }
    }

    func row(_ k: KindModel, _ rng: inout SplitMix64) -> [String] {
        var slots = [String](repeating: "", count: k.valueCount + (rng.chance(0.1) ? 2 : 0))
        for s in k.slots {
            guard let i = s.index, s.required || rng.chance(0.5) else { continue }
            switch s.spec {
            case .text: slots[i] = Self.text(&rng)
            case .button: slots[i] = rng.pick(["Follow", "Download", "Open the document", "Übernehmen", "添加"])
            case .textList(_, let max, _, _):
                var items = (0..<rng.int(1...max)).map { _ in Self.text(&rng) }
                if rng.chance(0.2) { items.insert("", at: rng.int(0...items.count)) }  // empty items are skipped
                slots[i] = items.joined(separator: "\u{1E}")
            case .box: slots[i] = "1"
            case .image(let lo, let hi, _, let fromColumn, let aspect, _):
                if fromColumn { slots[i] = "1"; break }
                let a = value(lo), b = value(hi)
                switch rng.below(4) {
                case 0: slots[i] = ""
                case 1: slots[i] = "*"
                default:
                    let w = a + Double(rng.int(0...Int((b - a) * 2))) / 2
                    if aspect == .widthAtLeastHeight && rng.chance(0.5) {
                        let h = a + Double(rng.int(0...Int((w - a) * 2))) / 2
                        slots[i] = "\(Self.format(w))x\(Self.format(h))"
                    } else {
                        slots[i] = Self.format(w)
                    }
                }
            case .boxStack(let max, _, _, _, _): slots[i] = String(rng.int(0...max))
            }
        }
        for r in k.rules {
            guard case .exclusive(let names) = r else { continue }
            let given = names.filter { n in k.slot(named: n)!.index.map { !slots[$0].isEmpty && slots[$0] != "0" } ?? false }
            guard given.count > 1 else { continue }
            let keep = rng.pick(given)
            for n in given where n != keep { slots[k.slot(named: n)!.index!] = "" }
        }
        return slots
    }

    static func format(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
}

@Suite struct CellMeasurerReferenceTests {
    static func environment(_ profile: Profile, _ rng: inout SplitMix64) -> LayoutEnvironment {
        var parameters: [String: Int] = [:]
        for p in profile.parameters where rng.chance(0.5) {
            if let allowed = p.allowed { parameters[p.name] = rng.pick(allowed) } else { parameters[p.name] = rng.int((p.minimum ?? 0)...((p.minimum ?? 0) + 5)) }
        }
        let widths: [Double] = [rng.unit() * 1000 + 200, Double(rng.int(200...1200)), Double(rng.int(800...2400)) / 2, 375, 390, 600, 768, 1024]
        let scales: [Double] = [0.8 + rng.unit() * 1.2, 1, 1.1, 1.6, 2, Double(rng.int(16...40)) / 20]
        return LayoutEnvironment(
            width: rng.pick(widths), platform: rng.pick(profile.platforms), editMode: rng.chance(0.4), fontScale: rng.pick(scales), parameters: parameters)
    }

    /// Random rows in random environments: heights and frames equal the reference's.
    @Test(arguments: ["george", "fiori-android", "fiori-ios", "fiori-ios-collection"])
    func agreesWithReference(_ name: String) throws {
        let profile = ProfileFixtures.all.first { $0.name == name }!
        var rng = SplitMix64(seed: 0xCE11 ^ UInt64(name.utf8.count) << 20 ^ UInt64(name.utf8.first!))
        let measurer = try CellMeasurer(profile: profile, environment: LayoutEnvironment(width: 375, platform: profile.platforms[0]))
        var rows = 0
        for _ in 0..<14 {
            let env = Self.environment(profile, &rng)
            try measurer.setEnvironment(env)
            measurer._checkInvariants()
            let reference = ReferenceMeasurer(profile: profile, environment: env)
            let generator = RowGenerator(model: profile.model, env: env)
            #expect(measurer.widthClass == reference.widthClass)
            for _ in 0..<220 {
                let k = rng.pick(profile.model.kinds)
                let row = generator.row(k, &rng)
                try measurer.validate(kind: k.code, slots: row, row: rows)
                let expected = reference.frames(k.name, row)
                let height = measurer.height(kind: k.code, slots: row)
                #expect(height == expected.height, "\(k.name) \(row) in \(env)")
                #expect(height * 64 == (height * 64).rounded())
                let frames = measurer.frames(kind: k.code, slots: row)
                if frames != expected {
                    Issue.record("\(k.name) \(row) in \(env):\n\(frames)\n≠\n\(expected)")
                    return
                }
                rows += 1
            }
        }
        measurer._checkInvariants()
        #expect(rows == 14 * 220)
    }

    /// The bulk form and the RowText layout give the per-row answers.
    @Test func bulkHeightsMatchSingleRows() throws {
        let profile = ProfileFixtures.george
        let m = makeMeasurer(profile, width: 390, engine: TextLayoutEngine())
        var rng = SplitMix64(seed: 99)
        let generator = RowGenerator(model: profile.model, env: m.environment)
        var text = RowText(slotsPerRow: 10)
        var kinds: [UInt16] = []
        var expected: [Double] = []
        for _ in 0..<200 {
            let k = rng.pick(profile.model.kinds)
            let row = Array(generator.row(k, &rng).prefix(10))
            kinds.append(k.code)
            text.append(row)
            expected.append(m.height(kind: k.code, slots: row))
        }
        var results = [Double](repeating: -1, count: kinds.count)
        try kinds.withUnsafeBufferPointer { k in
            try text.utf8.withUnsafeBytes { u in
                try text.offsets.withUnsafeBufferPointer { o in
                    try results.withUnsafeMutableBufferPointer { r in
                        try m.heights(kinds: k, utf8: u, offsets: o, slotsPerRow: 10, into: r)
                    }
                }
            }
        }
        #expect(results == expected)
    }
}

#if canImport(CJemalloc)
import CJemalloc

/// Bytes this thread has allocated so far (jemalloc's monotonic `thread.allocated`); the
/// name is a static C string so reading it allocates nothing.
func threadAllocatedBytes() -> UInt64 {
    var value: UInt64 = 0
    var size = MemoryLayout<UInt64>.size
    let name: StaticString = "thread.allocated"
    let ok = name.utf8Start.withMemoryRebound(to: CChar.self, capacity: name.utf8CodeUnitCount + 1) { mallctl($0, &value, &size, nil, 0) }
    return ok == 0 ? value : 0
}

@Suite struct CellMeasurerAllocationTests {
    /// Measuring allocates nothing of its own: the image-only collection cell measures no
    /// text, so its rows allocate nothing at all. (Rows with texts allocate whatever the
    /// text engine's `measure` does per call; that is the text engine's business.)
    @Test func measuringAllocatesNothing() throws {
        // The counter sees Swift's allocations (jemalloc is the process's malloc).
        let probe = threadAllocatedBytes()
        let array = [Int](repeating: 1, count: 1000)
        #expect(threadAllocatedBytes() > probe)
        withExtendedLifetime(array) {}

        let profile = ProfileFixtures.collection
        let m = try CellMeasurer(profile: profile, environment: LayoutEnvironment(width: 768, platform: .ios))
        var text = RowText(slotsPerRow: 2)
        for size in ["60", "110x80", "", "*", "90"] {
            for actions in ["", "1", "2"] { text.append([actions, size]) }
        }
        let kinds = [UInt16](repeating: 2, count: 15)
        var results = [Double](repeating: 0, count: kinds.count)
        try kinds.withUnsafeBufferPointer { k in
            try text.utf8.withUnsafeBytes { u in
                try text.offsets.withUnsafeBufferPointer { o in
                    try results.withUnsafeMutableBufferPointer { r in
                        try m.heights(kinds: k, utf8: u, offsets: o, slotsPerRow: 2, into: r)
                        let before = threadAllocatedBytes()
                        for _ in 0..<100 { try m.heights(kinds: k, utf8: u, offsets: o, slotsPerRow: 2, into: r) }
                        #expect(threadAllocatedBytes() == before)
                    }
                }
            }
        }
        #expect(results == [60, 60, 60, 80, 80, 80, 60, 60, 60, 60, 60, 60, 90, 90, 90])
    }
}
#endif
