/// The checks the schema cannot make (README "Consistency the engine checks on load"):
/// references between fields resolve, indexes are unique and dense, and every effective
/// layout, in every combination of environment conditions, is one the measurer can run.
extension ProfileModel {
    typealias Platform = LayoutEnvironment.Platform

    private static func fail(_ path: String, _ problem: String) -> TesseraError { .invalidProfile(path: path, problem: problem) }

    /// The value of a length or parameter reference with the given parameter values.
    func resolve(_ ref: LengthRef, _ values: [String: Int]) -> Double {
        switch ref {
        case .value(let v): v
        case .parameter(let p): Double(values[p] ?? parameter(named: p)?.defaultValue ?? 0)
        }
    }

    func resolve(_ ref: LineLimitRef, _ values: [String: Int]) -> Int {
        switch ref {
        case .value(let v): v
        case .parameter(let p): values[p] ?? parameter(named: p)?.defaultValue ?? 0
        }
    }

    /// Why the parameter values break a constraint of the profile (a line limit below 0,
    /// an image range that is empty or misses its default, a grid width of 0), with the
    /// path of the constrained field; nil when they break none.
    func parameterProblem(_ values: [String: Int]) -> (path: String, problem: String)? {
        for k in kinds {
            for s in k.slots {
                // Built only for a problem: this runs on every environment change.
                var path: String { "kinds.\(k.name).slots.\(s.name)" }
                switch s.spec {
                case .text(_, let lines), .textList(_, _, let lines, _), .button(_, let lines, _, _, _, _):
                    let n = resolve(lines, values)
                    if n < 0 || n > 1_000_000 { return (path + ".maxLines", "expected a line limit in 0...1000000, found \(n)") }
                case .image(let lo, let hi, let def, _, _, _):
                    let a = resolve(lo, values), b = resolve(hi, values)
                    if a > b { return (path + ".size", "expected min <= max, found \(ProfileFormat.number(a)) > \(ProfileFormat.number(b))") }
                    if b > ProfileFormat.maximumLength || a < 0 { return (path + ".size", "expected sizes in 0...\(ProfileFormat.number(ProfileFormat.maximumLength))") }
                    if let def {
                        let d = resolve(def, values)
                        if d < a || d > b {
                            return (path + ".size.default", "expected a default within \(ProfileFormat.number(a))...\(ProfileFormat.number(b)), found \(ProfileFormat.number(d))")
                        }
                    }
                default: break
                }
            }
        }
        if let grid {
            let c = resolve(grid.countItemWidth, values)
            if !(c > 0 && c <= ProfileFormat.maximumLength) { return ("grid.countItemWidth", "expected a width > 0, found \(ProfileFormat.number(c))") }
            for (i, g) in grid.kinds.enumerated() {
                if case .length(let ref) = g.itemWidth {
                    let w = resolve(ref, values)
                    if !(w > 0 && w <= ProfileFormat.maximumLength) { return ("grid.kinds.\(i).itemWidth", "expected a width > 0, found \(ProfileFormat.number(w))") }
                }
            }
        }
        return nil
    }

    func checkConsistency() throws(TesseraError) {
        for s in textStyles {
            let base = "textStyles.\(s.name)"
            if fonts.first(where: { $0.name == s.base.font! }) == nil {
                throw Self.fail(base + ".font", "unknown font family \"\(s.base.font!)\"; expected one of \(fonts.map(\.name).joined(separator: ", "))")
            }
            for (p, o) in [("ios", s.ios), ("android", s.android)] {
                if let f = o?.font, fonts.first(where: { $0.name == f }) == nil {
                    throw Self.fail(base + ".onPlatform.\(p).font", "unknown font family \"\(f)\"; expected one of \(fonts.map(\.name).joined(separator: ", "))")
                }
            }
        }
        var codes: [UInt16: String] = [:]
        for k in kinds {
            if let other = codes[k.code] { throw Self.fail("kinds.\(k.name).code", "expected a code unique in the profile, found \(k.code), the code of \(other)") }
            codes[k.code] = k.name
            try checkKind(k)
        }
        if let grid { try checkGrid(grid) }
        if let problem = parameterProblem([:]) { throw Self.fail(problem.path, problem.problem + " (with the parameters' defaults)") }
    }

    private func checkParameter(_ ref: LengthRef, _ path: String) throws(TesseraError) {
        if case .parameter(let p) = ref { try checkParameter(p, path) }
    }

    private func checkParameter(_ ref: LineLimitRef, _ path: String) throws(TesseraError) {
        if case .parameter(let p) = ref { try checkParameter(p, path) }
    }

    private func checkParameter(_ name: String, _ path: String) throws(TesseraError) {
        guard parameter(named: name) == nil else { return }
        let known = parameters.isEmpty ? "the profile has no parameters" : "expected one of \(parameters.map { "$" + $0.name }.joined(separator: ", "))"
        throw Self.fail(path, "unknown parameter \"$\(name)\"; \(known)")
    }

    private func checkSlotName(_ name: String, _ kind: KindModel, _ path: String) throws(TesseraError) {
        guard kind.slot(named: name) == nil else { return }
        throw Self.fail(path, "unknown slot \"\(name)\"; the slots of \(kind.name) are \(kind.slots.map(\.name).joined(separator: ", "))")
    }

    private func checkWidthClass(_ name: String, _ path: String) throws(TesseraError) {
        guard !widthClasses.contains(where: { $0.name == name }) else { return }
        throw Self.fail(path, "unknown width class \"\(name)\"; expected one of \(widthClasses.map(\.name).joined(separator: ", "))")
    }

    private func checkColumns(_ columns: [ColumnModel], _ kind: KindModel, _ path: String, placed: inout Set<String>) throws(TesseraError) {
        for (c, column) in columns.enumerated() {
            for (i, item) in column.items.enumerated() {
                try checkSlotName(item.slot, kind, "\(path).\(c).items.\(i)")
                placed.insert(item.slot)
            }
        }
    }

    private func checkLayout(_ layout: LayoutModel, _ kind: KindModel, _ path: String, placed: inout Set<String>) throws(TesseraError) {
        try checkColumns(layout.columns, kind, path + ".columns", placed: &placed)
        for (i, o) in layout.overlays.enumerated() {
            let p = "\(path).overlays.\(i)"
            try checkSlotName(o.slot, kind, p + ".slot")
            if let a = o.anchor { try checkSlotName(a, kind, p + ".anchorTo") }
            placed.insert(o.slot)
            switch kind.slot(named: o.slot)!.spec {
            case .box, .boxStack, .image(_, _, _, false, _, _): break
            default: throw Self.fail(p + ".slot", "expected a box, boxStack or image sized by the row (overlays take no space, so they need a size of their own)")
            }
        }
    }

    private func checkKind(_ k: KindModel) throws(TesseraError) {
        let base = "kinds.\(k.name)"
        // Indexes: unique and dense.
        var byIndex: [Int: String] = [:]
        for s in k.slots {
            let path = "\(base).slots.\(s.name)"
            if let i = s.index {
                if let other = byIndex[i] { throw Self.fail(path + ".index", "expected an index unique in the kind, found \(i), the index of \(other)") }
                byIndex[i] = s.name
            }
            if let style = s.spec.style, self.style(named: style) == nil {
                throw Self.fail(path + ".style", "unknown text style \"\(style)\"; expected one of \(textStyles.map(\.name).joined(separator: ", "))")
            }
            switch s.spec {
            case .text(_, let l), .textList(_, _, let l, _), .button(_, let l, _, _, _, _):
                try checkParameter(l, path + ".maxLines")
            case .image(let lo, let hi, let def, _, _, _):
                try checkParameter(lo, path + ".size.min")
                try checkParameter(hi, path + ".size.max")
                if let def { try checkParameter(def, path + ".size.default") }
            default: break
            }
        }
        for i in 0..<byIndex.count where byIndex[i] == nil {
            throw Self.fail("\(base).slots", "expected dense value indexes 0...\(byIndex.count - 1), index \(i) is missing")
        }
        for (p, d) in [("ios", k.dividerIOS), ("android", k.dividerAndroid)] {
            if case .slot(let s)? = d?.leadingInset { try checkSlotName(s, k, "\(base).divider.\(p).leadingInset") }
        }
        // Every name a layout, variant, rule or lint uses exists; every slot is placed.
        var placed = Set<String>()
        try checkLayout(k.layout, k, base + ".layout", placed: &placed)
        var thresholds: [Double] = []
        for (i, v) in k.variants.enumerated() {
            let p = "\(base).variants.\(i)"
            if let l = v.layout { try checkLayout(l, k, p + ".layout", placed: &placed) }
            try checkColumns(v.prependColumns, k, p + ".prependColumns", placed: &placed)
            try checkColumns(v.appendColumns, k, p + ".appendColumns", placed: &placed)
            for (j, h) in v.hide.enumerated() { try checkSlotName(h, k, "\(p).hide.\(j)") }
            for (j, w) in (v.when.widthClasses ?? []).enumerated() {
                try checkWidthClass(w, v.when.widthClasses!.count == 1 && j == 0 ? "\(p).when.widthClass" : "\(p).when.widthClass.\(j)")
            }
            if let pl = v.when.platform, !platforms.contains(pl) {
                throw Self.fail(p + ".when.platform", "expected a platform of the profile (\(platforms.map(\.rawValue).joined(separator: ", "))), found \"\(pl.rawValue)\"")
            }
            if let a = v.when.fontScaleAtLeast { thresholds.append(a) }
            if let b = v.when.fontScaleBelow { thresholds.append(b) }
        }
        for s in k.slots where !placed.contains(s.name) {
            throw Self.fail("\(base).slots.\(s.name)", "expected the slot to be placed by the layout or a variant; none places it")
        }
        for (i, r) in k.rules.enumerated() {
            switch r {
            case .exclusive(let names):
                for (j, n) in names.enumerated() { try checkSlotName(n, k, "\(base).rules.\(i).slots.\(j)") }
            case .groupMinimum:
                if k.role != .cell { throw Self.fail("\(base).rules.\(i)", "expected groupMinimum only on cell kinds (groups are made of cells), this kind is a \(k.role.rawValue)") }
            }
        }
        for (i, l) in k.lints.enumerated() {
            let p = "\(base).lint.\(i).slot"
            switch l.lint {
            case .groupConsistent(let s): try checkSlotName(s, k, p)
            case .consistentCount(let s):
                try checkSlotName(s, k, p)
                switch k.slot(named: s)!.spec {
                case .textList, .boxStack: break
                default: throw Self.fail(p, "expected a textList or boxStack slot for consistentCount, \"\(s)\" is a \(k.slot(named: s)!.spec.type.name)")
                }
            case .consistentSize(let s):
                try checkSlotName(s, k, p)
                guard case .image = k.slot(named: s)!.spec else {
                    throw Self.fail(p, "expected an image slot for consistentSize, \"\(s)\" is a \(k.slot(named: s)!.spec.type.name)")
                }
            case .consistentHeight: break
            }
        }
        // Every combination of conditions: the font scale matters only relative to the
        // thresholds, so each threshold and one scale below them all stand for every scale.
        let scales = thresholds.isEmpty ? [1.0] : [thresholds.min()! / 2] + thresholds
        for platform in platforms {
            for wc in widthClasses {
                for edit in [false, true] {
                    for scale in scales {
                        try checkEffectiveLayout(k, widthClass: wc.name, editMode: edit, platform: platform, fontScale: scale)
                    }
                }
            }
        }
    }

    private func checkEffectiveLayout(_ k: KindModel, widthClass: String, editMode: Bool, platform: Platform, fontScale: Double) throws(TesseraError) {
        let e = k.effectiveLayout(widthClass: widthClass, editMode: editMode, platform: platform, fontScale: fontScale)
        var source = "kinds.\(k.name).layout"
        for (i, v) in k.variants.enumerated() where v.layout != nil && v.when.holds(widthClass: widthClass, editMode: editMode, platform: platform, fontScale: fontScale) {
            source = "kinds.\(k.name).variants.\(i).layout"
        }
        let env = "on \(platform.rawValue), width class \(widthClass), edit mode \(editMode ? "on" : "off"), font scale \(ProfileFormat.number(fontScale))"
        let fills = e.layout.columns.filter { $0.width == .fill }
        guard fills.count == 1 else { throw Self.fail(source, "expected exactly one fill column \(env), found \(fills.count)") }
        let anchorable = { (name: String) -> Bool in
            guard !e.hidden.contains(name), let s = k.slot(named: name) else { return false }
            return s.required || s.always
        }
        guard fills[0].items.contains(where: { anchorable($0.slot) }) else {
            throw Self.fail(source, "expected the fill column to hold a required or always-present slot that is not hidden \(env)")
        }
        var seen = Set<String>()
        let names = e.layout.columns.flatMap { $0.items.map(\.slot) } + e.layout.overlays.map(\.slot)
        for n in names {
            guard seen.insert(n).inserted else { throw Self.fail(source, "expected each slot at most once in a layout, \"\(n)\" is placed twice \(env)") }
        }
        var fractions = 0.0
        for c in e.layout.columns { if case .fraction(let f) = c.width { fractions += f } }
        guard fractions < 1 else { throw Self.fail(source, "expected fraction columns to sum below 1, found \(fractions) \(env)") }
        let columnSlots = Set(e.layout.columns.flatMap { $0.items.map(\.slot) })
        for o in e.layout.overlays {
            if let a = o.anchor, !(columnSlots.contains(a) && anchorable(a)) {
                throw Self.fail(source, "expected overlay \"\(o.slot)\" to anchor to \"cell\" or to a required or always-present slot placed in a column, \"\(a)\" is not \(env)")
            }
        }
    }

    private func checkGrid(_ grid: GridModel) throws(TesseraError) {
        var seen = Set<String>()
        for (i, g) in grid.kinds.enumerated() {
            let p = "grid.kinds.\(i)"
            guard let k = kind(named: g.kind) else {
                throw Self.fail(p + ".kind", "unknown kind \"\(g.kind)\"; expected one of \(kinds.map(\.name).joined(separator: ", "))")
            }
            guard k.role == .cell else { throw Self.fail(p + ".kind", "expected a cell kind in the grid, \(g.kind) is a \(k.role.rawValue)") }
            guard seen.insert(g.kind).inserted else { throw Self.fail(p + ".kind", "expected each kind once, found \"\(g.kind)\" twice") }
            if case .length(let ref) = g.itemWidth { try checkParameter(ref, p + ".itemWidth") }
        }
        try checkParameter(grid.countItemWidth, "grid.countItemWidth")
        var covered = Set<String>()
        for (i, c) in grid.columns.enumerated() {
            try checkWidthClass(c.widthClass, "grid.columns.\(i).widthClass")
            guard covered.insert(c.widthClass).inserted else {
                throw Self.fail("grid.columns.\(i).widthClass", "expected one column count per width class, found \"\(c.widthClass)\" twice")
            }
        }
        for w in widthClasses where !covered.contains(w.name) {
            throw Self.fail("grid.columns", "expected a column count for every width class, \"\(w.name)\" has none")
        }
    }

    /// Every `source` key the document uses names an entry of `sources`.
    static func checkSourceKeys(_ value: JSONValue, _ path: String, sources: [String]) throws(TesseraError) {
        switch value {
        case .object(let members):
            for m in members {
                let p = ProfileFormat.join(path, m.key)
                var keys: [String]? = nil
                if m.key == "source" {
                    switch m.value {
                    case .string(let s): keys = [s]
                    case .array(let a): keys = a.compactMap { if case .string(let s) = $0 { s } else { nil } }
                    default: keys = nil
                    }
                }
                if let keys {
                    for k in keys where !sources.contains(k) {
                        throw fail(p, "unknown source \"\(k)\"; expected a key of sources (\(sources.joined(separator: ", ")))")
                    }
                } else if m.key != "sources" {
                    try checkSourceKeys(m.value, p, sources: sources)
                }
            }
        case .array(let a):
            for (i, e) in a.enumerated() { try checkSourceKeys(e, ProfileFormat.join(path, String(i)), sources: sources) }
        default: break
        }
    }
}
