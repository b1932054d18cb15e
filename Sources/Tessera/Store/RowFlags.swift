/// Per-row state bits, one `UInt16` column.
public struct RowFlags: OptionSet, Sendable, Hashable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The height is a measurement, not the kind's estimate. Owned by the store.
    public static let measured = RowFlags(rawValue: 1 << 0)
    /// Selected in edit mode.
    public static let selected = RowFlags(rawValue: 1 << 1)
    /// Shows the unread indicator.
    public static let unread = RowFlags(rawValue: 1 << 2)
    /// Swiped open, revealing its actions.
    public static let swipeOpen = RowFlags(rawValue: 1 << 3)
    /// Waiting to be measured: appended and not measured yet, or measured before an
    /// environment change that can change its height. Its height is then its last
    /// measurement, or its kind's estimate if it never had one. Owned by a profile-driven
    /// `ListEngine`.
    public static let dirty = RowFlags(rawValue: 1 << 4)
    /// Only in `ListEngine.window` results, never stored: the row draws a divider at its
    /// bottom edge (its kind has one on the platform and the next row is a cell of the
    /// same group).
    public static let divider = RowFlags(rawValue: 1 << 5)

    /// The bits a host may set or clear directly.
    public static let hostSettable: RowFlags = [.selected, .unread, .swipeOpen]
}
