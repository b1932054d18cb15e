/// What a cell's layout depends on besides its row: the content width, the platform, edit
/// mode, the accessibility font scale and the host's parameter values. The width class
/// follows from the width and the profile's breakpoints unless the host sets it (iOS's
/// horizontal size class can be compact at any width, in Slide Over or Split View).
public struct LayoutEnvironment: Sendable, Equatable {
    public enum Platform: String, Sendable, CaseIterable {
        case ios, android
    }

    /// Content width in points: a cell's width, or in grid mode the grid's width. Finite,
    /// > 0 and at most `maximumWidth`.
    public var width: Double
    /// Selects per-platform values, `onPlatform` text styles, `platform` variants and
    /// dividers; must be one of the profile's platforms.
    public var platform: Platform
    /// Selects `editMode` variants (selection control on the leading side).
    public var editMode: Bool
    /// iOS Dynamic Type / Android font scale: multiplies text sizes, line heights and letter
    /// spacing, and selects font-scale variants. 1 is iOS Large / Android 100 %. Finite,
    /// > 0 and at most `maximumFontScale`.
    public var fontScale: Double
    /// Host values of the profile's parameters by name; the others keep their defaults.
    public var parameters: [String: Int]
    /// The width class cells are laid out in, one of the profile's; nil: the class the
    /// width falls in by the profile's breakpoints.
    public var widthClass: String?

    /// Widths beyond this are rejected (geometry is integer 1/64 pt).
    public static let maximumWidth: Double = 1_000_000
    /// Font scales beyond this are rejected (Android's largest is 2, iOS AX5 about 3.5).
    public static let maximumFontScale: Double = 10

    public init(width: Double, platform: Platform, editMode: Bool = false, fontScale: Double = 1, parameters: [String: Int] = [:], widthClass: String? = nil) {
        self.width = width
        self.platform = platform
        self.editMode = editMode
        self.fontScale = fontScale
        self.parameters = parameters
        self.widthClass = widthClass
    }
}
