/// The decoded profile, as the JSON says it (names, not indexes; lengths in points). It is
/// what the consistency checks, the template compiler and the tests' reference measurer
/// read; nothing here is on the measuring path.
struct ProfileModel: Sendable {
    var name: String
    var title: String
    var unit: String
    var platforms: [LayoutEnvironment.Platform]
    var sources: [String]
    var fonts: [FontFamilyModel]
    var textStyles: [TextStyleModel]
    var widthClasses: [WidthClassModel]
    var parameters: [ParameterModel]
    var kinds: [KindModel]
    var grid: GridModel?

    func kind(named name: String) -> KindModel? { kinds.first { $0.name == name } }
    func style(named name: String) -> TextStyleModel? { textStyles.first { $0.name == name } }
    func parameter(named name: String) -> ParameterModel? { parameters.first { $0.name == name } }

    /// The width class of content width `width`: the last class whose minWidth ≤ width.
    func widthClass(forWidth width: Double) -> String {
        var name = widthClasses[0].name
        for c in widthClasses where c.minWidth <= width { name = c.name }
        return name
    }

    /// The width class an environment lays cells out in: the host's, else its width's.
    func widthClass(of environment: LayoutEnvironment) -> String {
        environment.widthClass ?? widthClass(forWidth: environment.width)
    }
}

struct FontFamilyModel: Sendable {
    var name: String
    var files: [String]
}

/// Text style fields; nil where an `onPlatform` override leaves the base value.
struct TextStyleFields: Sendable {
    var font: String?
    var size: Double?
    var lineHeight: Double?
    var letterSpacing: Double?
}

struct TextStyleModel: Sendable {
    var name: String
    var base: TextStyleFields
    var ios: TextStyleFields?
    var android: TextStyleFields?

    /// The style on `platform`: the override's fields where it has them.
    func resolved(_ platform: LayoutEnvironment.Platform) -> (font: String, size: Double, lineHeight: Double, letterSpacing: Double) {
        let o = platform == .ios ? ios : android
        return (o?.font ?? base.font!, o?.size ?? base.size!, o?.lineHeight ?? base.lineHeight!,
                o?.letterSpacing ?? base.letterSpacing ?? 0)
    }
}

struct WidthClassModel: Sendable {
    var name: String
    var minWidth: Double
}

struct ParameterModel: Sendable {
    var name: String
    var defaultValue: Int
    var minimum: Int?
    var maximum: Int?
    var allowed: [Int]?

    /// Why `value` is not allowed, or nil.
    func problem(with value: Int) -> String? {
        if let minimum, value < minimum { return "expected an integer >= \(minimum), found \(value)" }
        if let maximum, value > maximum { return "expected an integer <= \(maximum), found \(value)" }
        if let allowed, !allowed.contains(value) {
            return "expected one of \(allowed.map(String.init).joined(separator: ", ")), found \(value)"
        }
        return nil
    }
}

/// A length or a `$parameter` reference.
enum LengthRef: Sendable, Equatable {
    case value(Double)
    case parameter(String)
}

/// A line limit or a `$parameter` reference.
enum LineLimitRef: Sendable, Equatable {
    case value(Int)
    case parameter(String)
}

/// A length that may differ per platform (both entries set when it does not).
struct PlatformLength: Sendable, Equatable {
    var ios: Double?
    var android: Double?

    init(_ both: Double) { ios = both; android = both }
    init(ios: Double?, android: Double?) { self.ios = ios; self.android = android }

    func value(_ platform: LayoutEnvironment.Platform) -> Double { (platform == .ios ? ios : android) ?? 0 }
}

enum ImageAspect: String, Sendable { case square, widthAtLeastHeight }

enum SlotType: UInt8, Sendable, CaseIterable {
    case text, textList, button, box, image, boxStack

    var name: String {
        switch self {
        case .text: "text"
        case .textList: "textList"
        case .button: "button"
        case .box: "box"
        case .image: "image"
        case .boxStack: "boxStack"
        }
    }
}

enum SlotSpec: Sendable {
    case text(style: String, maxLines: LineLimitRef)
    case textList(style: String, max: Int, maxLines: LineLimitRef, gap: Double)
    /// `height` nil: label height + 2 × paddingVertical.
    case button(style: String, maxLines: LineLimitRef, height: Double?, paddingVertical: Double, paddingHorizontal: Double, fill: Bool)
    case box(width: PlatformLength, height: PlatformLength)
    /// `defaultSize` is nil only with `fromColumn`.
    case image(min: LengthRef, max: LengthRef, defaultSize: LengthRef?, fromColumn: Bool, aspect: ImageAspect, shape: String)
    case boxStack(max: Int, itemWidth: Double, itemHeight: Double, gap: Double, vertical: Bool)

    var type: SlotType {
        switch self {
        case .text: .text
        case .textList: .textList
        case .button: .button
        case .box: .box
        case .image: .image
        case .boxStack: .boxStack
        }
    }

    var style: String? {
        switch self {
        case .text(let s, _), .textList(let s, _, _, _), .button(let s, _, _, _, _, _): s
        default: nil
        }
    }
}

struct SlotModel: Sendable {
    var name: String
    var index: Int?
    var required: Bool
    var always: Bool
    var spec: SlotSpec
}

struct ColumnItemModel: Sendable, Equatable {
    var slot: String
    var spaceBefore: Double?
    var spaceAfter: Double?
}

enum ColumnWidthModel: Sendable, Equatable {
    case fit, fill
    case fixed(Double)
    case fraction(Double)
}

enum MaxWidthModel: Sendable, Equatable {
    case length(Double)
    case fraction(Double)
}

enum VerticalAlignment: UInt8, Sendable { case top, center, bottom }
enum HorizontalAlignment: UInt8, Sendable { case leading, center, trailing }
enum Corner: UInt8, Sendable { case topLeading, topTrailing, bottomLeading, bottomTrailing }

struct ColumnModel: Sendable, Equatable {
    var items: [ColumnItemModel]
    var width: ColumnWidthModel
    var maxWidth: MaxWidthModel?
    var gap: Double
    var align: VerticalAlignment
    var hAlign: HorizontalAlignment
    var spaceBefore: Double?
    var spaceAfter: Double?
}

struct OverlayModel: Sendable, Equatable {
    var slot: String
    /// nil: the cell.
    var anchor: String?
    var corner: Corner
    var inset: Double
}

struct LayoutModel: Sendable, Equatable {
    var columnGap: Double
    var columns: [ColumnModel]
    var overlays: [OverlayModel]
}

struct PaddingModel: Sendable, Equatable {
    var top: Double, bottom: Double, leading: Double, trailing: Double
}

struct ConditionModel: Sendable {
    var widthClasses: [String]?
    var editMode: Bool?
    var platform: LayoutEnvironment.Platform?
    var fontScaleAtLeast: Double?
    var fontScaleBelow: Double?

    func holds(widthClass: String, editMode: Bool, platform: LayoutEnvironment.Platform, fontScale: Double) -> Bool {
        if let widthClasses, !widthClasses.contains(widthClass) { return false }
        if let e = self.editMode, e != editMode { return false }
        if let p = self.platform, p != platform { return false }
        if let a = fontScaleAtLeast, !(fontScale >= a) { return false }
        if let b = fontScaleBelow, !(fontScale < b) { return false }
        return true
    }
}

struct VariantModel: Sendable {
    var when: ConditionModel
    var layout: LayoutModel?
    var prependColumns: [ColumnModel]
    var appendColumns: [ColumnModel]
    var hide: [String]
    var padding: PaddingModel?
}

enum RuleModel: Sendable {
    case exclusive([String])
    case groupMinimum(Int)
}

enum LintModel: Sendable {
    case groupConsistent(String)
    case consistentCount(String)
    case consistentSize(String)
    case consistentHeight
}

enum DividerInset: Sendable, Equatable {
    case slot(String)
    case length(Double)
}

struct DividerModel: Sendable, Equatable {
    var leadingInset: DividerInset
    var trailingInset: Double
}

struct KindModel: Sendable {
    var name: String
    var code: UInt16
    var role: CellKind.Role
    var sticky: Bool
    var selection: CellKind.Selection?
    var estimatedHeight: PlatformLength
    var minHeight: PlatformLength
    var padding: PaddingModel
    var dividerIOS: DividerModel?
    var dividerAndroid: DividerModel?
    var slots: [SlotModel]
    var layout: LayoutModel
    var variants: [VariantModel]
    var rules: [RuleModel]
    var lints: [(lint: LintModel, scopeIsList: Bool)]

    func slot(named name: String) -> SlotModel? { slots.first { $0.name == name } }
    func slotIndex(named name: String) -> Int? { slots.firstIndex { $0.name == name } }
    /// Values a row of this kind carries: one per `index`.
    var valueCount: Int { slots.reduce(0) { max($0, ($1.index ?? -1) + 1) } }

    func divider(_ platform: LayoutEnvironment.Platform) -> DividerModel? { platform == .ios ? dividerIOS : dividerAndroid }

    /// The layout after the variants whose conditions hold, in list order (README
    /// "Variants"): layout, then prepended / appended columns, then hidden slots, then padding.
    func effectiveLayout(widthClass: String, editMode: Bool, platform: LayoutEnvironment.Platform, fontScale: Double) -> EffectiveLayoutModel {
        var result = EffectiveLayoutModel(layout: layout, hidden: [], padding: padding)
        for v in variants where v.when.holds(widthClass: widthClass, editMode: editMode, platform: platform, fontScale: fontScale) {
            if let l = v.layout { result.layout = l }
            result.layout.columns = v.prependColumns + result.layout.columns + v.appendColumns
            for h in v.hide where !result.hidden.contains(h) { result.hidden.append(h) }
            if let p = v.padding { result.padding = p }
        }
        return result
    }
}

struct EffectiveLayoutModel: Sendable {
    var layout: LayoutModel
    var hidden: [String]
    var padding: PaddingModel
}

enum GridItemWidthModel: Sendable, Equatable {
    case length(LengthRef)
    case content
}

enum GridCountModel: Sendable, Equatable {
    case fixed(Int)
    case range(min: Int, max: Int)
}

struct GridModel: Sendable {
    var kinds: [(kind: String, itemWidth: GridItemWidthModel)]
    var columns: [(widthClass: String, count: GridCountModel)]
    var countItemWidth: LengthRef
    var columnGap: Double
    var rowGap: Double
    var padding: Double
}
