/// A rectangle in points, relative to the cell's top-leading corner (x grows toward the
/// trailing edge; a right-to-left host mirrors it).
public struct CellRect: Sendable, Equatable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    init(units x: Int64, _ y: Int64, _ width: Int64, _ height: Int64) {
        self.init(x: LayoutUnit.points(x), y: LayoutUnit.points(y), width: LayoutUnit.points(width), height: LayoutUnit.points(height))
    }

    public var description: String { "(\(x), \(y), \(width), \(height))" }
}

/// One laid-out text inside a slot: a text slot's text, a list item, a button's label.
public struct TextFrame: Sendable, Equatable {
    /// Where the text is in the slot's UTF-8 value.
    public var byteRange: Range<Int>
    public var frame: CellRect
    /// The lines from `TextLayoutEngine` (ranges are offsets into the slot's value).
    public var lines: [TextLine]
    public var isTruncated: Bool
}

/// Where one present slot goes.
public struct SlotFrame: Sendable, Equatable {
    public var name: String
    /// The slot's value index in the row, or nil for an always-present slot that reads none.
    public var valueIndex: Int?
    public var frame: CellRect
    /// Its texts: one for a text, one per item for a text list, the label of a button.
    public var texts: [TextFrame]
    /// The boxes of a box stack, in order.
    public var boxes: [CellRect]
}

/// Everything a host needs to place a cell's views without measuring again.
public struct CellFrames: Sendable, Equatable {
    /// The cell's width (the content width, or a grid item's width) and height.
    public var width: Double
    public var height: Double
    /// Present slots: columns from the leading edge, each top to bottom, then overlays.
    public var slots: [SlotFrame]
    /// The divider at the cell's bottom edge (height 0), when the kind has one on this
    /// platform. The list draws it between consecutive cells of a group, not after the last.
    public var divider: CellRect?

    /// The frame of the slot with this name, when present.
    public subscript(slot: String) -> SlotFrame? { slots.first { $0.name == slot } }
}

/// A rule a row or a group breaks (`TesseraError.ruleViolation`).
public enum CellRuleViolation: Sendable, Equatable, CustomStringConvertible {
    /// A required slot has no value (the mandatory title or label).
    case missingRequired(slot: String)
    /// More than one slot of an `exclusive` rule is present.
    case exclusive(present: [String])
    /// A text list or box stack with more items than its `max`.
    case tooManyItems(slot: String, count: Int, max: Int)
    /// An image side outside `[min, max]` points.
    case imageSizeOutOfRange(slot: String, width: Double, height: Double, min: Double, max: Double)
    /// An image whose sides break its aspect (`square` or `widthAtLeastHeight`).
    case imageAspect(slot: String, width: Double, height: Double, aspect: String)
    /// A non-empty value at an index the kind does not have.
    case unknownSlot(index: Int, valueCount: Int)
    /// A group holding fewer rows of the kind than its `groupMinimum`.
    case groupMinimum(rows: Int, minimum: Int)

    public var description: String {
        switch self {
        case .missingRequired(let s): "required slot \(s) has no value"
        case .exclusive(let p): "at most one of these may be present, found \(p.joined(separator: ", "))"
        case .tooManyItems(let s, let n, let m): "\(s) has \(n) items, at most \(m) allowed"
        case .imageSizeOutOfRange(let s, let w, let h, let lo, let hi): "image \(s) is \(w) x \(h), sides must lie in \(lo)...\(hi)"
        case .imageAspect(let s, let w, let h, let a): "image \(s) is \(w) x \(h), which is not \(a == "square" ? "square" : "at least as wide as tall")"
        case .unknownSlot(let i, let n): "value \(i) given, the kind has \(n) values (indexes 0..<\(n))"
        case .groupMinimum(let r, let m): "a group holds \(r) rows of the kind, at least \(m) required"
        }
    }
}

/// A consistency warning from `CellMeasurer.lint` (never an error: the list still
/// measures and renders).
public struct LintWarning: Sendable, Equatable, CustomStringConvertible {
    public enum Check: String, Sendable {
        case groupConsistent, consistentCount, consistentSize, consistentHeight
    }

    public var check: Check
    public var kind: String
    /// The slot checked (nil for consistentHeight).
    public var slot: String?
    /// The rows the check covered: the group, or the whole list for list scope.
    public var scope: Range<Int>
    /// The rows of the kind in scope that differ from the first one (groupConsistent: the
    /// rows without the slot).
    public var rows: [Int]

    public var description: String {
        "\(check.rawValue) \(kind)\(slot.map { "." + $0 } ?? "") in rows \(scope.lowerBound)..<\(scope.upperBound): rows \(rows.map(String.init).joined(separator: ", ")) differ"
    }
}
