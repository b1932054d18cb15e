/// Text for a batch of rows: one UTF-8 buffer and, per row, `slotsPerRow` slots given by
/// byte offsets, so slot `s` of row `r` is `utf8[offsets[r * slotsPerRow + s] ..<
/// offsets[r * slotsPerRow + s + 1]]`. Unused slots are empty.
public struct RowText: Sendable, Equatable {
    public var utf8: [UInt8]
    public var slotsPerRow: Int
    public var offsets: [Int]

    public init(utf8: [UInt8], slotsPerRow: Int, offsets: [Int]) {
        self.utf8 = utf8
        self.slotsPerRow = slotsPerRow
        self.offsets = offsets
    }

    /// An empty batch to fill with `append(_:)`.
    public init(slotsPerRow: Int) {
        self.init(utf8: [], slotsPerRow: slotsPerRow, offsets: [0])
    }

    /// Adds one row's slots (missing ones are empty, extra ones are dropped).
    public mutating func append(_ slots: [String]) {
        for s in 0..<slotsPerRow {
            if s < slots.count { utf8.append(contentsOf: slots[s].utf8) }
            offsets.append(utf8.count)
        }
    }
}

/// The columns of a batch of rows as the store reads them, borrowed from the caller (the
/// C ABI hands a host's arrays over in this form, without copying them).
package struct RowColumns {
    package var ids: UnsafeBufferPointer<UInt64>
    package var kinds: UnsafeBufferPointer<UInt16>
    /// Measured heights in points (validated before use), or nil for "start at the
    /// kind's estimate".
    package var heights: UnsafeBufferPointer<Double>?
    package var text: TextColumns?
    /// Content versions, or nil for 0.
    var versions: UnsafeBufferPointer<UInt64>? = nil
    /// Flag bits every new row starts with besides `measured` (the engine's `dirty`).
    var flags: UInt16 = 0
    /// Further bits per row (a snapshot's `unread`), or nil.
    var rowFlags: UnsafeBufferPointer<UInt16>? = nil

    var count: Int { ids.count }

    package init(ids: UnsafeBufferPointer<UInt64>, kinds: UnsafeBufferPointer<UInt16>, heights: UnsafeBufferPointer<Double>?, text: TextColumns?) {
        self.ids = ids
        self.kinds = kinds
        self.heights = heights
        self.text = text
    }

    init(ids: UnsafeBufferPointer<UInt64>, kinds: UnsafeBufferPointer<UInt16>, heights: UnsafeBufferPointer<Double>?, text: TextColumns?,
         versions: UnsafeBufferPointer<UInt64>?, flags: UInt16 = 0, rowFlags: UnsafeBufferPointer<UInt16>? = nil) {
        self.init(ids: ids, kinds: kinds, heights: heights, text: text)
        self.versions = versions
        self.flags = flags
        self.rowFlags = rowFlags
    }
}

package struct TextColumns {
    package var utf8: UnsafeRawBufferPointer
    package var offsets: UnsafeBufferPointer<Int>
    package var slotsPerRow: Int

    package init(utf8: UnsafeRawBufferPointer, offsets: UnsafeBufferPointer<Int>, slotsPerRow: Int) {
        self.utf8 = utf8
        self.offsets = offsets
        self.slotsPerRow = slotsPerRow
    }
}
