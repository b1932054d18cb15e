/// Heights and offsets are stored as integers in 1/64 pt (FreeType's 26.6), so every
/// prefix sum is exact and identical on every platform. The public API speaks points.
enum LayoutUnit {
    static let perPoint: Double = 64

    /// The largest height one row may have, in units: a row height is stored in 24 bits,
    /// so a row may be 262,143.98 pt tall (some 300 phone screens).
    static let maximumRowUnits: Int64 = 1 << 24 - 1

    @inline(__always)
    static func points(_ units: Int64) -> Double { Double(units) / perPoint }

    /// A row height in units, rounded to the nearest 1/64 pt (halves away from zero).
    static func rowHeight(_ points: Double) throws(TesseraError) -> UInt32 {
        guard isValidRowHeight(points) else { throw .invalidHeight(points) }
        return roundedUnits(points)
    }

    @inline(__always)
    static func isValidRowHeight(_ points: Double) -> Bool {
        // NaN fails both comparisons.
        points >= 0 && points * perPoint < Double(maximumRowUnits) + 0.5
    }

    /// `(points * 64).rounded()` for a valid row height, without a libm call: truncate
    /// after adding a half, then undo the one case where that addition itself rounded up.
    @inline(__always)
    static func roundedUnits(_ points: Double) -> UInt32 {
        let exact = points * perPoint
        var units = UInt32(exact + 0.5)
        if Double(units) - 0.5 > exact { units -= 1 }
        return units
    }

    /// A scroll offset in units, rounded down so the row under a fractional offset is the
    /// one that covers it.
    static func offset(_ points: Double) throws(TesseraError) -> Int64 {
        guard points.isFinite, points >= 0 else { throw .invalidOffset(points) }
        // Offsets beyond Int64 units are far past any content; clamp instead of trapping.
        let units = (points * perPoint).rounded(.down)
        return units >= 0x1p62 ? Int64(1) << 62 : Int64(units)
    }

    static func extent(_ points: Double) throws(TesseraError) -> Int64 {
        guard points.isFinite, points >= 0 else { throw .invalidViewport(points) }
        let units = (points * perPoint).rounded(.up)
        return units >= 0x1p62 ? Int64(1) << 62 : Int64(units)
    }
}
