/// Formatting and limits shared by the profile decoder and its error messages.
enum ProfileFormat {
    /// Lengths above this are rejected (an engine limit, not the schema's): every length is
    /// converted to 1/64 pt in 64-bit integers, and sums of many must not overflow.
    static let maximumLength: Double = 1_000_000

    static func number(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    static func isIdentifier(_ s: String) -> Bool {
        let u = Array(s.utf8)
        guard let first = u.first, first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z") else { return false }
        return u.dropFirst().allSatisfy(isAlphanumeric)
    }

    static func isAlphanumeric(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
            || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
    }
}

/// Reads the JSON tree into a `ProfileModel`, checking what `schema.json` checks (types,
/// ranges, required and unknown fields, patterns). Every error names the dotted path of the
/// offending value and what was expected there. Cross-references are checked afterwards
/// (`ProfileModel.checkConsistency`).
struct ProfileDecoder {
    typealias Platform = LayoutEnvironment.Platform

    /// The profile's platforms, once read (per-platform values must name each).
    var platforms: [Platform] = []

    static func fail(_ path: String, _ problem: String) -> TesseraError { .invalidProfile(path: path, problem: problem) }

    // MARK: Objects

    /// An object's members, with unknown names rejected up front.
    struct Members {
        let path: String
        let members: [(key: String, value: JSONValue)]

        func at(_ key: String) -> String { ProfileFormat.join(path, key) }

        subscript(key: String) -> JSONValue? {
            for m in members where m.key == key { return m.value }
            return nil
        }

        func required(_ key: String, _ what: String) throws(TesseraError) -> JSONValue {
            guard let v = self[key] else { throw fail(at(key), "required field missing (expected \(what))") }
            return v
        }

        var keys: [String] { members.map(\.key) }
    }

    static func object(_ v: JSONValue, _ path: String, allowed: [String]?, what: String = "an object") throws(TesseraError) -> Members {
        guard case .object(let members) = v else { throw fail(path, "expected \(what), found \(v.found)") }
        if let allowed {
            for m in members where !allowed.contains(m.key) {
                throw fail(ProfileFormat.join(path, m.key), "unknown field; expected one of \(allowed.joined(separator: ", "))")
            }
        }
        return Members(path: path, members: members)
    }

    // MARK: Scalars

    static func number(_ v: JSONValue, _ path: String) throws(TesseraError) -> Double {
        guard case .number(let n) = v else { throw fail(path, "expected a number, found \(v.found)") }
        return n
    }

    static func length(_ v: JSONValue, _ path: String) throws(TesseraError) -> Double {
        guard case .number(let n) = v, n >= 0 else { throw fail(path, "expected a length (a number >= 0), found \(v.found)") }
        guard n <= ProfileFormat.maximumLength else {
            throw fail(path, "expected a length <= \(ProfileFormat.number(ProfileFormat.maximumLength)), found \(v.found)")
        }
        return n
    }

    static func positive(_ v: JSONValue, _ path: String) throws(TesseraError) -> Double {
        guard case .number(let n) = v, n > 0, n <= ProfileFormat.maximumLength else {
            throw fail(path, "expected a number > 0 and <= \(ProfileFormat.number(ProfileFormat.maximumLength)), found \(v.found)")
        }
        return n
    }

    static func integer(_ v: JSONValue, _ path: String, min: Int? = nil, max: Int? = nil) throws(TesseraError) -> Int {
        let bounds: String
        // Engine limits far beyond any sensible value are not worth naming.
        switch (min, max.flatMap { $0 < 1 << 30 ? $0 : nil }) {
        case (let lo?, let hi?): bounds = " in \(lo)...\(hi)"
        case (let lo?, nil): bounds = " >= \(lo)"
        case (nil, let hi?): bounds = " <= \(hi)"
        case (nil, nil): bounds = ""
        }
        guard case .number(let n) = v, n == n.rounded(), abs(n) < 1e15 else { throw fail(path, "expected an integer\(bounds), found \(v.found)") }
        let i = Int(n)
        if let min, i < min { throw fail(path, "expected an integer\(bounds), found \(i)") }
        if let max, i > max { throw fail(path, "expected an integer\(bounds), found \(i)") }
        return i
    }

    static func bool(_ v: JSONValue, _ path: String) throws(TesseraError) -> Bool {
        guard case .bool(let b) = v else { throw fail(path, "expected true or false, found \(v.found)") }
        return b
    }

    static func string(_ v: JSONValue, _ path: String, nonEmpty: Bool = false) throws(TesseraError) -> String {
        guard case .string(let s) = v, !nonEmpty || !s.isEmpty else {
            throw fail(path, "expected a\(nonEmpty ? " non-empty" : "") string, found \(v.found)")
        }
        return s
    }

    static func identifier(_ v: JSONValue, _ path: String) throws(TesseraError) -> String {
        guard case .string(let s) = v, ProfileFormat.isIdentifier(s) else {
            throw fail(path, "expected a lowerCamelCase name ([a-z][A-Za-z0-9]*), found \(v.found)")
        }
        return s
    }

    static func oneOf(_ v: JSONValue, _ path: String, _ allowed: [String]) throws(TesseraError) -> String {
        guard case .string(let s) = v, allowed.contains(s) else {
            throw fail(path, "expected one of \(allowed.map { "\"\($0)\"" }.joined(separator: ", ")), found \(v.found)")
        }
        return s
    }

    static func doc(_ m: Members) throws(TesseraError) {
        if let d = m["doc"] { _ = try string(d, m.at("doc")) }
    }

    static func array(_ v: JSONValue, _ path: String, minCount: Int = 0, what: String = "an array") throws(TesseraError) -> [JSONValue] {
        guard case .array(let a) = v else { throw fail(path, "expected \(what), found \(v.found)") }
        guard a.count >= minCount else { throw fail(path, "expected \(what) with at least \(minCount) element\(minCount == 1 ? "" : "s"), found \(a.count)") }
        return a
    }

    static func uniqueIdentifiers(_ v: JSONValue, _ path: String, minCount: Int) throws(TesseraError) -> [String] {
        var result: [String] = []
        for (i, e) in try array(v, path, minCount: minCount, what: "an array of names").enumerated() {
            let s = try identifier(e, ProfileFormat.join(path, String(i)))
            guard !result.contains(s) else { throw fail(ProfileFormat.join(path, String(i)), "expected unique names, found \"\(s)\" twice") }
            result.append(s)
        }
        return result
    }

    static func parameterName(_ s: String) -> String? {
        guard s.hasPrefix("$") else { return nil }
        let name = String(s.dropFirst())
        return ProfileFormat.isIdentifier(name) ? name : nil
    }

    static func lengthOrParameter(_ v: JSONValue, _ path: String) throws(TesseraError) -> LengthRef {
        if case .string(let s) = v {
            guard let name = parameterName(s) else { throw fail(path, "expected a length or a parameter reference (\"$name\"), found \(v.found)") }
            return .parameter(name)
        }
        guard case .number = v else { throw fail(path, "expected a length or a parameter reference (\"$name\"), found \(v.found)") }
        return .value(try length(v, path))
    }

    static func lineLimit(_ v: JSONValue, _ path: String) throws(TesseraError) -> LineLimitRef {
        if case .string(let s) = v {
            guard let name = parameterName(s) else { throw fail(path, "expected an integer >= 0 or a parameter reference (\"$name\"), found \(v.found)") }
            return .parameter(name)
        }
        guard case .number(let n) = v, n == n.rounded(), n >= 0 else {
            throw fail(path, "expected an integer >= 0 or a parameter reference (\"$name\"), found \(v.found)")
        }
        guard n <= 1_000_000 else { throw fail(path, "expected a line limit <= 1000000, found \(v.found)") }
        return .value(Int(n))
    }

    static func sourceRef(_ v: JSONValue, _ path: String) throws(TesseraError) -> [String] {
        if case .string = v { return [try identifier(v, path)] }
        guard case .array = v else { throw fail(path, "expected a source key or a list of source keys, found \(v.found)") }
        return try uniqueIdentifiers(v, path, minCount: 1)
    }

    func platformLength(_ v: JSONValue, _ path: String) throws(TesseraError) -> PlatformLength {
        if case .number = v { return PlatformLength(try Self.length(v, path)) }
        guard case .object = v else { throw Self.fail(path, "expected a length or {\"ios\": length, \"android\": length}, found \(v.found)") }
        let m = try Self.object(v, path, allowed: ["ios", "android"])
        guard !m.members.isEmpty else { throw Self.fail(path, "expected at least one platform") }
        var result = PlatformLength(ios: nil, android: nil)
        if let x = m["ios"] { result.ios = try Self.length(x, m.at("ios")) }
        if let x = m["android"] { result.android = try Self.length(x, m.at("android")) }
        for p in platforms where (p == .ios ? result.ios : result.android) == nil {
            throw Self.fail(path, "expected a value for every platform of the profile (\(platforms.map(\.rawValue).joined(separator: ", "))), missing \(p.rawValue)")
        }
        return result
    }

    // MARK: Top level

    mutating func decode(_ root: JSONValue) throws(TesseraError) -> ProfileModel {
        let m = try Self.object(root, "", allowed: [
            "$schema", "schemaVersion", "name", "title", "doc", "unit", "sources", "platforms", "fonts", "textStyles",
            "widthClasses", "parameters", "kinds", "grid", "provenance",
        ], what: "a profile object")
        if let s = m["$schema"] { _ = try Self.string(s, "$schema") }
        let version = try m.required("schemaVersion", "1")
        guard case .number(1) = version else { throw Self.fail("schemaVersion", "expected 1 (the only version this engine knows), found \(version.found)") }
        let nameValue = try m.required("name", "the file stem")
        guard case .string(let name) = nameValue, let first = name.utf8.first, first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z"),
              name.utf8.allSatisfy({ ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "-") })
        else { throw Self.fail("name", "expected a file stem ([a-z][a-z0-9-]*), found \(nameValue.found)") }
        let title = try Self.string(try m.required("title", "a non-empty string"), "title", nonEmpty: true)
        try Self.doc(m)
        let unit = try Self.oneOf(try m.required("unit", "\"pt\" or \"dp\""), "unit", ["pt", "dp"])

        let sourcesObject = try Self.object(try m.required("sources", "an object of named references"), "sources", allowed: nil)
        var sources: [String] = []
        for s in sourcesObject.members {
            guard ProfileFormat.isIdentifier(s.key) else { throw Self.fail(sourcesObject.at(s.key), "expected a lowerCamelCase source key") }
            _ = try Self.string(s.value, sourcesObject.at(s.key), nonEmpty: true)
            sources.append(s.key)
        }
        guard sources.contains("seed") else { throw Self.fail("sources.seed", "required field missing (expected the seed file)") }

        var platformList: [Platform] = []
        for (i, p) in try Self.array(try m.required("platforms", "[\"ios\"], [\"android\"] or both"), "platforms", minCount: 1).enumerated() {
            let path = "platforms.\(i)"
            let platform = Platform(rawValue: try Self.oneOf(p, path, ["ios", "android"]))!
            guard !platformList.contains(platform) else { throw Self.fail(path, "expected unique platforms, found \"\(platform.rawValue)\" twice") }
            platformList.append(platform)
        }
        platforms = platformList

        let fonts = try decodeFonts(try m.required("fonts", "an object of font families"))
        let styles = try decodeTextStyles(try m.required("textStyles", "an object of text styles"))
        let widthClasses = try decodeWidthClasses(try m.required("widthClasses", "an array of width classes"))
        let parameters = try m["parameters"].map { v throws(TesseraError) in try decodeParameters(v) } ?? []
        let kindsObject = try Self.object(try m.required("kinds", "an object of cell kinds"), "kinds", allowed: nil)
        guard !kindsObject.members.isEmpty else { throw Self.fail("kinds", "expected at least one kind") }
        var kinds: [KindModel] = []
        for k in kindsObject.members {
            guard ProfileFormat.isIdentifier(k.key) else { throw Self.fail(kindsObject.at(k.key), "expected a lowerCamelCase kind name") }
            kinds.append(try decodeKind(k.key, k.value, kindsObject.at(k.key)))
        }
        let grid = try m["grid"].map { v throws(TesseraError) in try decodeGrid(v) }
        if let p = m["provenance"] { try Self.decodeProvenance(p, "provenance", root: root) }
        return ProfileModel(
            name: name, title: title, unit: unit, platforms: platformList, sources: sources, fonts: fonts, textStyles: styles,
            widthClasses: widthClasses, parameters: parameters, kinds: kinds, grid: grid)
    }

    func decodeFonts(_ v: JSONValue) throws(TesseraError) -> [FontFamilyModel] {
        let m = try Self.object(v, "fonts", allowed: nil)
        guard !m.members.isEmpty else { throw Self.fail("fonts", "expected at least one font family") }
        var result: [FontFamilyModel] = []
        for f in m.members {
            let path = m.at(f.key)
            guard ProfileFormat.isIdentifier(f.key) else { throw Self.fail(path, "expected a lowerCamelCase family name") }
            let family = try Self.object(f.value, path, allowed: ["files", "substituteFor", "doc"])
            try Self.doc(family)
            if let s = family["substituteFor"] { _ = try Self.string(s, family.at("substituteFor")) }
            var files: [String] = []
            for (i, file) in try Self.array(try family.required("files", "an array of font file names"), family.at("files"), minCount: 1).enumerated() {
                let filePath = family.at("files") + ".\(i)"
                guard case .string(let name) = file, !name.contains("/"), !name.contains("\\"),
                      name.hasSuffix(".ttf") || name.hasSuffix(".otf") || name.hasSuffix(".ttc"), name.utf8.count > 4
                else { throw Self.fail(filePath, "expected a font file name without a directory, ending in .ttf, .otf or .ttc, found \(file.found)") }
                files.append(name)
            }
            result.append(FontFamilyModel(name: f.key, files: files))
        }
        return result
    }

    func styleFields(_ m: Members, requireAll: Bool) throws(TesseraError) -> TextStyleFields {
        var f = TextStyleFields()
        if requireAll {
            f.font = try Self.identifier(try m.required("font", "a key of fonts"), m.at("font"))
            f.size = try Self.positive(try m.required("size", "a font size > 0"), m.at("size"))
            f.lineHeight = try Self.positive(try m.required("lineHeight", "a line height > 0"), m.at("lineHeight"))
            _ = try Self.sourceRef(try m.required("source", "a source key"), m.at("source"))
            _ = try Self.bool(try m.required("assumed", "true or false"), m.at("assumed"))
        } else {
            if let x = m["font"] { f.font = try Self.identifier(x, m.at("font")) }
            if let x = m["size"] { f.size = try Self.positive(x, m.at("size")) }
            if let x = m["lineHeight"] { f.lineHeight = try Self.positive(x, m.at("lineHeight")) }
            if let x = m["source"] { _ = try Self.sourceRef(x, m.at("source")) }
            if let x = m["assumed"] { _ = try Self.bool(x, m.at("assumed")) }
        }
        if let x = m["letterSpacing"] {
            let ls = try Self.number(x, m.at("letterSpacing"))
            guard abs(ls) <= 1000 else { throw Self.fail(m.at("letterSpacing"), "expected a letter spacing within ±1000, found \(x.found)") }
            f.letterSpacing = ls
        }
        try Self.doc(m)
        return f
    }

    func decodeTextStyles(_ v: JSONValue) throws(TesseraError) -> [TextStyleModel] {
        let m = try Self.object(v, "textStyles", allowed: nil)
        guard !m.members.isEmpty else { throw Self.fail("textStyles", "expected at least one text style") }
        let fieldNames = ["font", "size", "lineHeight", "letterSpacing", "source", "assumed", "doc"]
        var result: [TextStyleModel] = []
        for s in m.members {
            let path = m.at(s.key)
            guard ProfileFormat.isIdentifier(s.key) else { throw Self.fail(path, "expected a lowerCamelCase style name") }
            let style = try Self.object(s.value, path, allowed: fieldNames + ["onPlatform"])
            var model = TextStyleModel(name: s.key, base: try styleFields(style, requireAll: true))
            if let o = style["onPlatform"] {
                let overrides = try Self.object(o, style.at("onPlatform"), allowed: ["ios", "android"])
                guard !overrides.members.isEmpty else { throw Self.fail(style.at("onPlatform"), "expected at least one platform") }
                for p in overrides.members {
                    let fields = try Self.object(p.value, overrides.at(p.key), allowed: fieldNames)
                    guard !fields.members.isEmpty else { throw Self.fail(overrides.at(p.key), "expected at least one field to override") }
                    let f = try styleFields(fields, requireAll: false)
                    if p.key == "ios" { model.ios = f } else { model.android = f }
                }
            }
            result.append(model)
        }
        return result
    }

    func decodeWidthClasses(_ v: JSONValue) throws(TesseraError) -> [WidthClassModel] {
        var result: [WidthClassModel] = []
        for (i, c) in try Self.array(v, "widthClasses", minCount: 1).enumerated() {
            let m = try Self.object(c, "widthClasses.\(i)", allowed: ["name", "minWidth", "doc"])
            try Self.doc(m)
            let name = try Self.identifier(try m.required("name", "a lowerCamelCase name"), m.at("name"))
            let minWidth = try Self.length(try m.required("minWidth", "a length"), m.at("minWidth"))
            if result.contains(where: { $0.name == name }) { throw Self.fail(m.at("name"), "expected unique width class names, found \"\(name)\" twice") }
            if let last = result.last {
                guard minWidth > last.minWidth else {
                    throw Self.fail(m.at("minWidth"), "expected a minWidth above \(ProfileFormat.number(last.minWidth)) (width classes ascend and must not overlap), found \(ProfileFormat.number(minWidth))")
                }
            } else if minWidth != 0 {
                throw Self.fail(m.at("minWidth"), "expected 0 (the first width class starts at 0), found \(ProfileFormat.number(minWidth))")
            }
            result.append(WidthClassModel(name: name, minWidth: minWidth))
        }
        return result
    }

    func decodeParameters(_ v: JSONValue) throws(TesseraError) -> [ParameterModel] {
        let m = try Self.object(v, "parameters", allowed: nil)
        var result: [ParameterModel] = []
        for p in m.members {
            let path = m.at(p.key)
            guard ProfileFormat.isIdentifier(p.key) else { throw Self.fail(path, "expected a lowerCamelCase parameter name") }
            let o = try Self.object(p.value, path, allowed: ["default", "minimum", "maximum", "allowed", "description"])
            let limit = 1 << 40
            var model = ParameterModel(name: p.key, defaultValue: try Self.integer(try o.required("default", "an integer"), o.at("default"), min: -limit, max: limit))
            if let x = o["minimum"] { model.minimum = try Self.integer(x, o.at("minimum"), min: -limit, max: limit) }
            if let x = o["maximum"] { model.maximum = try Self.integer(x, o.at("maximum"), min: -limit, max: limit) }
            if let x = o["allowed"] {
                var values: [Int] = []
                for (i, e) in try Self.array(x, o.at("allowed"), minCount: 1, what: "an array of integers").enumerated() {
                    let n = try Self.integer(e, o.at("allowed") + ".\(i)", min: -limit, max: limit)
                    guard !values.contains(n) else { throw Self.fail(o.at("allowed") + ".\(i)", "expected unique values, found \(n) twice") }
                    values.append(n)
                }
                model.allowed = values
            }
            _ = try Self.string(try o.required("description", "a non-empty string"), o.at("description"), nonEmpty: true)
            if let lo = model.minimum, let hi = model.maximum, lo > hi {
                throw Self.fail(o.at("maximum"), "expected a maximum >= the minimum \(lo), found \(hi)")
            }
            if let allowed = model.allowed {
                for (i, a) in allowed.enumerated() where (model.minimum.map { a < $0 } ?? false) || (model.maximum.map { a > $0 } ?? false) {
                    throw Self.fail(o.at("allowed") + ".\(i)", "expected a value within minimum/maximum, found \(a)")
                }
            }
            if let problem = model.problem(with: model.defaultValue) { throw Self.fail(o.at("default"), problem) }
            result.append(model)
        }
        return result
    }

    // MARK: Kinds

    func decodePadding(_ v: JSONValue, _ path: String) throws(TesseraError) -> PaddingModel {
        let m = try Self.object(v, path, allowed: ["top", "bottom", "leading", "trailing"])
        return PaddingModel(
            top: try Self.length(try m.required("top", "a length"), m.at("top")),
            bottom: try Self.length(try m.required("bottom", "a length"), m.at("bottom")),
            leading: try Self.length(try m.required("leading", "a length"), m.at("leading")),
            trailing: try Self.length(try m.required("trailing", "a length"), m.at("trailing")))
    }

    func decodeDividerSpec(_ v: JSONValue, _ path: String) throws(TesseraError) -> DividerModel? {
        if case .null = v { return nil }
        let m = try Self.object(v, path, allowed: ["leadingInset", "trailingInset", "doc"], what: "null or a divider object")
        try Self.doc(m)
        let inset = try m.required("leadingInset", "a slot name or a length")
        let leading: DividerInset
        switch inset {
        case .string: leading = .slot(try Self.identifier(inset, m.at("leadingInset")))
        case .number: leading = .length(try Self.length(inset, m.at("leadingInset")))
        default: throw Self.fail(m.at("leadingInset"), "expected a slot name or a length, found \(inset.found)")
        }
        let trailing = try m["trailingInset"].map { x throws(TesseraError) in try Self.length(x, m.at("trailingInset")) } ?? 0
        return DividerModel(leadingInset: leading, trailingInset: trailing)
    }

    func decodeKind(_ name: String, _ v: JSONValue, _ path: String) throws(TesseraError) -> KindModel {
        let m = try Self.object(v, path, allowed: [
            "code", "role", "sticky", "selection", "doc", "estimatedHeight", "minHeight", "padding", "divider", "slots", "layout", "variants",
            "rules", "lint", "provenance",
        ])
        try Self.doc(m)
        let code = try Self.integer(try m.required("code", "an integer in 1...65535"), m.at("code"), min: 1, max: 65535)
        let role = CellKind.Role(rawValue: try Self.oneOf(try m.required("role", "cell, header or footer"), m.at("role"), ["cell", "header", "footer"]))!
        let sticky = try m["sticky"].map { x throws(TesseraError) in try Self.bool(x, m.at("sticky")) } ?? false
        if sticky && role != .header { throw Self.fail(m.at("sticky"), "expected false or no sticky field: only headers stick, this kind's role is \(role.rawValue)") }
        let selection = try m["selection"].map { x throws(TesseraError) in
            CellKind.Selection(rawValue: try Self.oneOf(x, m.at("selection"), ["single", "multiple"]))!
        }
        if selection != nil && role != .cell {
            throw Self.fail(m.at("selection"), "expected no selection field: only cells are selected, this kind's role is \(role.rawValue)")
        }
        let estimated = try platformLength(try m.required("estimatedHeight", "a length"), m.at("estimatedHeight"))
        let minHeight = try m["minHeight"].map { x throws(TesseraError) in try platformLength(x, m.at("minHeight")) } ?? PlatformLength(0)
        let padding = try decodePadding(try m.required("padding", "a padding object"), m.at("padding"))

        var dividerIOS: DividerModel? = nil, dividerAndroid: DividerModel? = nil
        let dividerValue = try m.required("divider", "null or dividers per platform")
        if case .null = dividerValue {
        } else {
            let d = try Self.object(dividerValue, m.at("divider"), allowed: ["ios", "android"], what: "null or an object of dividers per platform")
            guard !d.members.isEmpty else { throw Self.fail(m.at("divider"), "expected at least one platform (or null for no divider)") }
            if let x = d["ios"] { dividerIOS = try decodeDividerSpec(x, d.at("ios")) }
            if let x = d["android"] { dividerAndroid = try decodeDividerSpec(x, d.at("android")) }
        }

        let slotsObject = try Self.object(try m.required("slots", "an object of slots"), m.at("slots"), allowed: nil)
        guard !slotsObject.members.isEmpty else { throw Self.fail(m.at("slots"), "expected at least one slot") }
        var slots: [SlotModel] = []
        for s in slotsObject.members {
            guard ProfileFormat.isIdentifier(s.key) else { throw Self.fail(slotsObject.at(s.key), "expected a lowerCamelCase slot name") }
            slots.append(try decodeSlot(s.key, s.value, slotsObject.at(s.key)))
        }

        let layout = try decodeLayout(try m.required("layout", "a layout object"), m.at("layout"))
        var variants: [VariantModel] = []
        if let x = m["variants"] {
            for (i, e) in try Self.array(x, m.at("variants")).enumerated() {
                variants.append(try decodeVariant(e, m.at("variants") + ".\(i)"))
            }
        }
        var rules: [RuleModel] = []
        if let x = m["rules"] {
            for (i, e) in try Self.array(x, m.at("rules")).enumerated() {
                let p = m.at("rules") + ".\(i)"
                let r = try Self.object(e, p, allowed: nil)
                let kind = try Self.oneOf(try r.required("rule", "\"exclusive\" or \"groupMinimum\""), r.at("rule"), ["exclusive", "groupMinimum"])
                if kind == "exclusive" {
                    _ = try Self.object(e, p, allowed: ["rule", "slots", "doc"])
                    rules.append(.exclusive(try Self.uniqueIdentifiers(try r.required("slots", "an array of slot names"), r.at("slots"), minCount: 2)))
                } else {
                    _ = try Self.object(e, p, allowed: ["rule", "rows", "doc"])
                    rules.append(.groupMinimum(try Self.integer(try r.required("rows", "an integer >= 2"), r.at("rows"), min: 2, max: 1 << 30)))
                }
                try Self.doc(r)
            }
        }
        var lints: [(lint: LintModel, scopeIsList: Bool)] = []
        if let x = m["lint"] {
            for (i, e) in try Self.array(x, m.at("lint")).enumerated() {
                let p = m.at("lint") + ".\(i)"
                let l = try Self.object(e, p, allowed: nil)
                let kind = try Self.oneOf(try l.required("lint", "a lint name"), l.at("lint"), ["groupConsistent", "consistentCount", "consistentSize", "consistentHeight"])
                _ = try Self.object(e, p, allowed: kind == "consistentHeight" ? ["lint", "scope", "doc"] : ["lint", "slot", "scope", "doc"])
                try Self.doc(l)
                let scope = try l["scope"].map { x throws(TesseraError) in try Self.oneOf(x, l.at("scope"), ["group", "list"]) } ?? "group"
                let lint: LintModel
                switch kind {
                case "consistentHeight": lint = .consistentHeight
                default:
                    let slot = try Self.identifier(try l.required("slot", "a slot name"), l.at("slot"))
                    lint = kind == "groupConsistent" ? .groupConsistent(slot) : kind == "consistentCount" ? .consistentCount(slot) : .consistentSize(slot)
                }
                lints.append((lint, scope == "list"))
            }
        }
        if let x = m["provenance"] { try Self.decodeProvenance(x, m.at("provenance"), root: nil) }
        return KindModel(
            name: name, code: UInt16(code), role: role, sticky: sticky, selection: selection, estimatedHeight: estimated, minHeight: minHeight, padding: padding,
            dividerIOS: dividerIOS, dividerAndroid: dividerAndroid, slots: slots, layout: layout, variants: variants, rules: rules, lints: lints)
    }

    func decodeSlot(_ name: String, _ v: JSONValue, _ path: String) throws(TesseraError) -> SlotModel {
        let probe = try Self.object(v, path, allowed: nil)
        let type = try Self.oneOf(try probe.required("type", "one of text, textList, button, box, image, boxStack"), probe.at("type"), SlotType.allCases.map(\.name))
        let common = ["type", "index", "required", "doc"]
        let allowed: [String]
        switch type {
        case "text": allowed = common + ["style", "maxLines"]
        case "textList": allowed = common + ["style", "max", "maxLines", "gap"]
        case "button": allowed = common + ["style", "maxLines", "height", "paddingVertical", "paddingHorizontal", "width"]
        case "box": allowed = common + ["width", "height", "present"]
        case "image": allowed = common + ["size", "sizeFrom", "shape", "aspect", "present"]
        default: allowed = common + ["max", "itemWidth", "itemHeight", "gap", "axis"]
        }
        let m = try Self.object(v, path, allowed: allowed)
        try Self.doc(m)
        let always = try m["present"].map { x throws(TesseraError) in try Self.oneOf(x, m.at("present"), ["row", "always"]) == "always" } ?? false
        var index: Int? = nil
        if let x = m["index"] { index = try Self.integer(x, m.at("index"), min: 0, max: 254) }
        if index == nil && !always {
            throw Self.fail(m.at("index"), "required field missing (expected the slot's value index, 0...254; only an always-present slot may have none)")
        }
        let required = try m["required"].map { x throws(TesseraError) in try Self.bool(x, m.at("required")) } ?? false
        func style() throws(TesseraError) -> String { try Self.identifier(try m.required("style", "a key of textStyles"), m.at("style")) }
        func maxLines(_ requiredField: Bool) throws(TesseraError) -> LineLimitRef {
            if let x = m["maxLines"] { return try Self.lineLimit(x, m.at("maxLines")) }
            if requiredField { throw Self.fail(m.at("maxLines"), "required field missing (expected an integer >= 0 or a parameter reference)") }
            return .value(1)
        }
        func len(_ key: String) throws(TesseraError) -> Double { try Self.length(try m.required(key, "a length"), m.at(key)) }
        let spec: SlotSpec
        switch type {
        case "text":
            spec = .text(style: try style(), maxLines: try maxLines(true))
        case "textList":
            spec = .textList(style: try style(), max: try Self.integer(try m.required("max", "an integer >= 1"), m.at("max"), min: 1, max: 1000),
                             maxLines: try maxLines(true), gap: try len("gap"))
        case "button":
            let h = m["height"], pv = m["paddingVertical"]
            if h != nil && pv != nil { throw Self.fail(m.at("paddingVertical"), "expected exactly one of height and paddingVertical, found both") }
            if h == nil && pv == nil { throw Self.fail(m.at("height"), "required field missing (expected height or paddingVertical)") }
            let fill = try Self.oneOf(try m.required("width", "\"fit\" or \"fill\""), m.at("width"), ["fit", "fill"]) == "fill"
            spec = .button(style: try style(), maxLines: try maxLines(false), height: try h.map { x throws(TesseraError) in try Self.length(x, m.at("height")) },
                           paddingVertical: try pv.map { x throws(TesseraError) in try Self.length(x, m.at("paddingVertical")) } ?? 0,
                           paddingHorizontal: try len("paddingHorizontal"), fill: fill)
        case "box":
            spec = .box(width: try platformLength(try m.required("width", "a length"), m.at("width")),
                        height: try platformLength(try m.required("height", "a length"), m.at("height")))
        case "image":
            let fromColumn = try m["sizeFrom"].map { x throws(TesseraError) in try Self.oneOf(x, m.at("sizeFrom"), ["row", "column"]) == "column" } ?? false
            let size = try Self.object(try m.required("size", "{min, max, default}"), m.at("size"), allowed: ["min", "max", "default"])
            let lo = try Self.lengthOrParameter(try size.required("min", "a length or a parameter reference"), size.at("min"))
            let hi = try Self.lengthOrParameter(try size.required("max", "a length or a parameter reference"), size.at("max"))
            var def: LengthRef? = nil
            if let x = size["default"] { def = try Self.lengthOrParameter(x, size.at("default")) }
            if def == nil && !fromColumn { throw Self.fail(size.at("default"), "required field missing (expected the size used when a row gives none; only sizeFrom \"column\" needs none)") }
            let shape = try Self.oneOf(try m.required("shape", "square, circle or either"), m.at("shape"), ["square", "circle", "either"])
            let aspect = ImageAspect(rawValue: try Self.oneOf(try m.required("aspect", "square or widthAtLeastHeight"), m.at("aspect"), ["square", "widthAtLeastHeight"]))!
            spec = .image(min: lo, max: hi, defaultSize: def, fromColumn: fromColumn, aspect: aspect, shape: shape)
        default:
            spec = .boxStack(max: try Self.integer(try m.required("max", "an integer >= 1"), m.at("max"), min: 1, max: 1000),
                             itemWidth: try len("itemWidth"), itemHeight: try len("itemHeight"), gap: try len("gap"),
                             vertical: try Self.oneOf(try m.required("axis", "vertical or horizontal"), m.at("axis"), ["vertical", "horizontal"]) == "vertical")
        }
        return SlotModel(name: name, index: index, required: required, always: always, spec: spec)
    }

    func decodeColumn(_ v: JSONValue, _ path: String) throws(TesseraError) -> ColumnModel {
        let m = try Self.object(v, path, allowed: ["items", "width", "maxWidth", "gap", "align", "hAlign", "spaceBefore", "spaceAfter", "doc"])
        try Self.doc(m)
        var items: [ColumnItemModel] = []
        for (i, e) in try Self.array(try m.required("items", "an array of slot names"), m.at("items"), minCount: 1).enumerated() {
            let p = m.at("items") + ".\(i)"
            if case .string = e {
                items.append(ColumnItemModel(slot: try Self.identifier(e, p)))
            } else {
                let o = try Self.object(e, p, allowed: ["slot", "spaceBefore", "spaceAfter", "doc"], what: "a slot name or {slot, spaceBefore, spaceAfter}")
                try Self.doc(o)
                items.append(ColumnItemModel(
                    slot: try Self.identifier(try o.required("slot", "a slot name"), o.at("slot")),
                    spaceBefore: try o["spaceBefore"].map { x throws(TesseraError) in try Self.length(x, o.at("spaceBefore")) },
                    spaceAfter: try o["spaceAfter"].map { x throws(TesseraError) in try Self.length(x, o.at("spaceAfter")) }))
            }
        }
        let w = try m.required("width", "\"fit\", \"fill\", {fixed} or {fraction}")
        let width: ColumnWidthModel
        switch w {
        case .string: width = try Self.oneOf(w, m.at("width"), ["fit", "fill"]) == "fit" ? .fit : .fill
        case .object:
            let o = try Self.object(w, m.at("width"), allowed: ["fixed", "fraction"])
            if let f = o["fixed"], o.members.count == 1 {
                width = .fixed(try Self.length(f, o.at("fixed")))
            } else if let f = o["fraction"], o.members.count == 1 {
                guard case .number(let x) = f, x > 0, x < 1 else { throw Self.fail(o.at("fraction"), "expected a fraction > 0 and < 1, found \(f.found)") }
                width = .fraction(x)
            } else {
                throw Self.fail(m.at("width"), "expected exactly one of {\"fixed\": length} or {\"fraction\": f}")
            }
        default: throw Self.fail(m.at("width"), "expected \"fit\", \"fill\", {\"fixed\": length} or {\"fraction\": f}, found \(w.found)")
        }
        var maxWidth: MaxWidthModel? = nil
        if let x = m["maxWidth"] {
            if case .object = x {
                let o = try Self.object(x, m.at("maxWidth"), allowed: ["fraction"])
                let f = try o.required("fraction", "a fraction > 0 and <= 1")
                guard case .number(let n) = f, n > 0, n <= 1 else { throw Self.fail(o.at("fraction"), "expected a fraction > 0 and <= 1, found \(f.found)") }
                maxWidth = .fraction(n)
            } else {
                maxWidth = .length(try Self.length(x, m.at("maxWidth")))
            }
        }
        let align = try m["align"].map { x throws(TesseraError) in try Self.oneOf(x, m.at("align"), ["top", "center", "bottom"]) } ?? "top"
        let hAlign = try m["hAlign"].map { x throws(TesseraError) in try Self.oneOf(x, m.at("hAlign"), ["leading", "center", "trailing"]) } ?? "leading"
        return ColumnModel(
            items: items, width: width, maxWidth: maxWidth,
            gap: try m["gap"].map { x throws(TesseraError) in try Self.length(x, m.at("gap")) } ?? 0,
            align: align == "top" ? .top : align == "center" ? .center : .bottom,
            hAlign: hAlign == "leading" ? .leading : hAlign == "center" ? .center : .trailing,
            spaceBefore: try m["spaceBefore"].map { x throws(TesseraError) in try Self.length(x, m.at("spaceBefore")) },
            spaceAfter: try m["spaceAfter"].map { x throws(TesseraError) in try Self.length(x, m.at("spaceAfter")) })
    }

    func decodeColumns(_ v: JSONValue, _ path: String) throws(TesseraError) -> [ColumnModel] {
        var result: [ColumnModel] = []
        for (i, c) in try Self.array(v, path, minCount: 1, what: "an array of columns").enumerated() {
            result.append(try decodeColumn(c, path + ".\(i)"))
        }
        return result
    }

    func decodeLayout(_ v: JSONValue, _ path: String) throws(TesseraError) -> LayoutModel {
        let m = try Self.object(v, path, allowed: ["columnGap", "columns", "overlays", "doc"])
        try Self.doc(m)
        var overlays: [OverlayModel] = []
        if let x = m["overlays"] {
            for (i, e) in try Self.array(x, m.at("overlays")).enumerated() {
                let o = try Self.object(e, m.at("overlays") + ".\(i)", allowed: ["slot", "anchorTo", "corner", "inset", "doc"])
                try Self.doc(o)
                let anchor = try Self.identifier(try o.required("anchorTo", "a slot name or \"cell\""), o.at("anchorTo"))
                let corner = try Self.oneOf(try o.required("corner", "a corner"), o.at("corner"), ["topLeading", "topTrailing", "bottomLeading", "bottomTrailing"])
                overlays.append(OverlayModel(
                    slot: try Self.identifier(try o.required("slot", "a slot name"), o.at("slot")),
                    anchor: anchor == "cell" ? nil : anchor,
                    corner: corner == "topLeading" ? .topLeading : corner == "topTrailing" ? .topTrailing : corner == "bottomLeading" ? .bottomLeading : .bottomTrailing,
                    inset: try Self.length(try o.required("inset", "a length"), o.at("inset"))))
            }
        }
        return LayoutModel(
            columnGap: try Self.length(try m.required("columnGap", "a length"), m.at("columnGap")),
            columns: try decodeColumns(try m.required("columns", "an array of columns"), m.at("columns")),
            overlays: overlays)
    }

    func decodeVariant(_ v: JSONValue, _ path: String) throws(TesseraError) -> VariantModel {
        let m = try Self.object(v, path, allowed: ["when", "layout", "prependColumns", "appendColumns", "hide", "padding", "doc"])
        try Self.doc(m)
        let w = try Self.object(try m.required("when", "a condition object"), m.at("when"), allowed: ["widthClass", "editMode", "platform", "fontScaleAtLeast", "fontScaleBelow"])
        guard !w.members.isEmpty else { throw Self.fail(m.at("when"), "expected at least one condition") }
        var when = ConditionModel()
        if let x = w["widthClass"] {
            if case .string = x { when.widthClasses = [try Self.identifier(x, w.at("widthClass"))] } else { when.widthClasses = try Self.uniqueIdentifiers(x, w.at("widthClass"), minCount: 1) }
        }
        if let x = w["editMode"] { when.editMode = try Self.bool(x, w.at("editMode")) }
        if let x = w["platform"] { when.platform = LayoutEnvironment.Platform(rawValue: try Self.oneOf(x, w.at("platform"), ["ios", "android"])) }
        if let x = w["fontScaleAtLeast"] { when.fontScaleAtLeast = try Self.positive(x, w.at("fontScaleAtLeast")) }
        if let x = w["fontScaleBelow"] { when.fontScaleBelow = try Self.positive(x, w.at("fontScaleBelow")) }
        guard m["layout"] != nil || m["prependColumns"] != nil || m["appendColumns"] != nil || m["hide"] != nil || m["padding"] != nil else {
            throw Self.fail(path, "expected at least one of layout, prependColumns, appendColumns, hide, padding")
        }
        return VariantModel(
            when: when,
            layout: try m["layout"].map { x throws(TesseraError) in try decodeLayout(x, m.at("layout")) },
            prependColumns: try m["prependColumns"].map { x throws(TesseraError) in try decodeColumns(x, m.at("prependColumns")) } ?? [],
            appendColumns: try m["appendColumns"].map { x throws(TesseraError) in try decodeColumns(x, m.at("appendColumns")) } ?? [],
            hide: try m["hide"].map { x throws(TesseraError) in try Self.uniqueIdentifiers(x, m.at("hide"), minCount: 1) } ?? [],
            padding: try m["padding"].map { x throws(TesseraError) in try decodePadding(x, m.at("padding")) })
    }

    func decodeGrid(_ v: JSONValue) throws(TesseraError) -> GridModel {
        let m = try Self.object(v, "grid", allowed: ["kinds", "columns", "countItemWidth", "columnGap", "rowGap", "padding", "source", "doc"])
        try Self.doc(m)
        var kinds: [(kind: String, itemWidth: GridItemWidthModel)] = []
        for (i, e) in try Self.array(try m.required("kinds", "an array of grid kinds"), m.at("kinds"), minCount: 1).enumerated() {
            let o = try Self.object(e, m.at("kinds") + ".\(i)", allowed: ["kind", "itemWidth"])
            let kind = try Self.identifier(try o.required("kind", "a kind name"), o.at("kind"))
            let w = try o.required("itemWidth", "a length, a parameter reference or \"content\"")
            let width: GridItemWidthModel
            if case .string("content") = w { width = .content } else { width = .length(try Self.lengthOrParameter(w, o.at("itemWidth"))) }
            kinds.append((kind, width))
        }
        var columns: [(widthClass: String, count: GridCountModel)] = []
        for (i, e) in try Self.array(try m.required("columns", "an array of column counts per width class"), m.at("columns"), minCount: 1).enumerated() {
            let o = try Self.object(e, m.at("columns") + ".\(i)", allowed: ["widthClass", "count"])
            let wc = try Self.identifier(try o.required("widthClass", "a width class name"), o.at("widthClass"))
            let c = try o.required("count", "an integer >= 1 or {min, max}")
            let count: GridCountModel
            if case .object = c {
                let r = try Self.object(c, o.at("count"), allowed: ["min", "max"])
                let lo = try Self.integer(try r.required("min", "an integer >= 1"), r.at("min"), min: 1, max: 10_000)
                let hi = try Self.integer(try r.required("max", "an integer >= 1"), r.at("max"), min: 1, max: 10_000)
                guard lo <= hi else { throw Self.fail(r.at("max"), "expected a max >= min \(lo), found \(hi)") }
                count = .range(min: lo, max: hi)
            } else {
                count = .fixed(try Self.integer(c, o.at("count"), min: 1, max: 10_000))
            }
            columns.append((wc, count))
        }
        _ = try Self.sourceRef(try m.required("source", "a source key"), m.at("source"))
        return GridModel(
            kinds: kinds, columns: columns,
            countItemWidth: try Self.lengthOrParameter(try m.required("countItemWidth", "a length or a parameter reference"), m.at("countItemWidth")),
            columnGap: try Self.length(try m.required("columnGap", "a length"), m.at("columnGap")),
            rowGap: try Self.length(try m.required("rowGap", "a length"), m.at("rowGap")),
            padding: try Self.length(try m.required("padding", "a length"), m.at("padding")))
    }

    /// Provenance is for people; the engine checks its shape, and (for the profile-level
    /// list) that every path names a value of the document.
    static func decodeProvenance(_ v: JSONValue, _ path: String, root: JSONValue?) throws(TesseraError) {
        for (i, e) in try array(v, path).enumerated() {
            let p = path + ".\(i)"
            let m = try object(e, p, allowed: ["paths", "source", "assumed", "note"])
            for (k, q) in try array(try m.required("paths", "an array of dotted paths"), m.at("paths"), minCount: 1).enumerated() {
                let qp = m.at("paths") + ".\(k)"
                let s = try string(q, qp)
                let parts = s.split(separator: ".", omittingEmptySubsequences: false)
                guard !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { ProfileFormat.isAlphanumeric($0) || $0 == UInt8(ascii: "$") } }) else {
                    throw fail(qp, "expected a dotted path (name.name.0), found \(q.found)")
                }
                if let root {
                    var node: JSONValue? = root
                    for part in parts {
                        switch node {
                        case .object?: node = node?[String(part)]
                        case .array(let a)?: node = Int(part).flatMap { $0 >= 0 && $0 < a.count ? a[$0] : nil }
                        default: node = nil
                        }
                    }
                    if node == nil { throw fail(qp, "expected a path to a value of this profile, found \"\(s)\", which names none") }
                }
            }
            _ = try sourceRef(try m.required("source", "a source key"), m.at("source"))
            _ = try bool(try m.required("assumed", "true or false"), m.at("assumed"))
            if let n = m["note"] { _ = try string(n, m.at("note")) }
        }
    }
}
