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

    /// The index of the first invalid row height, or nil; four lanes at a time, since a
    /// bulk height update checks every row before it changes any.
    static func firstInvalidRowHeight(_ heights: UnsafeBufferPointer<Double>) -> Int? {
        let limit = SIMD4<Double>(repeating: (Double(maximumRowUnits) + 0.5) / perPoint)
        var bad = SIMDMask<SIMD4<Int64>>(repeating: false)
        var i = 0
        if let base = heights.baseAddress {
            while i + 4 <= heights.count {
                let v = UnsafeRawPointer(base + i).loadUnaligned(as: SIMD4<Double>.self)
                // NaN fails both comparisons.
                bad .|= .!((v .>= SIMD4<Double>()) .& (v .< limit))
                i += 4
            }
        }
        let start = any(bad) ? 0 : i
        for k in start..<heights.count where !isValidRowHeight(heights[k]) { return k }
        return nil
    }

    /// `(points * 64).rounded()` for a valid row height, with no libm call and no trap
    /// check: adding 2^52 leaves the nearest integer (ties to even) in the mantissa's low
    /// bits, and a tie that went down is moved up, so halves round away from zero.
    @inline(__always)
    static func roundedUnits(_ points: Double) -> UInt32 {
        let exact = points * perPoint
        let magic: Double = 0x1p52
        let nearest = (exact + magic).bitPattern &- magic.bitPattern
        let tieDown: UInt64 = Double(nearest) - exact == -0.5 ? 1 : 0
        return UInt32(truncatingIfNeeded: nearest &+ tieDown)
    }

    /// A scroll offset in units, rounded down so the row under a fractional offset is the
    /// one that covers it.
    static func offset(_ points: Double) throws(TesseraError) -> Int64 {
        guard points.isFinite, points >= 0 else { throw .invalidOffset(points) }
        return floorUnits(points)
    }

    /// A viewport or overscan extent in units, rounded up.
    static func extent(_ points: Double) throws(TesseraError) -> Int64 {
        guard points.isFinite, points >= 0 else { throw .invalidViewport(points) }
        let units = floorUnits(points)
        return Double(units) < points * perPoint ? units + 1 : units
    }

    /// Floor of `points * 64` for finite `points >= 0` by truncation (no libm call);
    /// offsets beyond 2^62 units are far past any content and clamp there.
    @inline(__always)
    static func floorUnits(_ points: Double) -> Int64 {
        let units = points * perPoint
        return units >= 0x1p62 ? 1 << 62 : Int64(units)
    }
}
