/// The row the user is looking at, by id, and how far into it the viewport's top edge is.
/// Ids survive inserts, removals and height changes, so the anchor does too.
public struct ScrollAnchor: Equatable, Sendable {
    public var id: UInt64
    /// Points from the row's top edge to the viewport's top edge.
    public var offsetInRow: Double

    public init(id: UInt64, offsetInRow: Double) {
        self.id = id
        self.offsetInRow = offsetInRow
    }
}

extension RowStore {
    /// The anchor for a scroll offset: the row covering it. Nil past the end of the content.
    public func anchor(atOffset offset: Double) throws(TesseraError) -> ScrollAnchor? {
        guard let (row, inside) = try row(atOffset: offset) else { return nil }
        return ScrollAnchor(id: try self.row(row).id, offsetInRow: inside)
    }

    /// The scroll offset that puts `anchor` where it was seen: its row's current top plus
    /// the same distance into the row (at most the row's height, if it shrank). Nil when
    /// the row is gone.
    public func offset(keeping anchor: ScrollAnchor) -> Double? {
        guard let row = index(of: anchor.id), let info = try? self.row(row) else { return nil }
        return LayoutUnit.points(top(ofRow: row)) + min(anchor.offsetInRow, info.height)
    }
}
