/// Heights and offsets are stored as integers in 1/64 pt (FreeType's 26.6), so every
/// prefix sum is exact and identical on every platform. The public API speaks points.
enum LayoutUnit {
    static let perPoint: Double = 64

    /// The largest height one row may have, in units: a row height is stored in 24 bits,
    /// so a row may be 262,143.98 pt tall (some 300 phone screens).
    static let maximumRowUnits: Int64 = 1 << 24 - 1
    static let maximumRowPoints = Double(maximumRowUnits) / perPoint

    @inline(__always)
    static func points(_ units: Int64) -> Double { Double(units) / perPoint }

    /// A row height in units, rounded to the nearest 1/64 pt (halves away from zero).
    static func rowHeight(_ points: Double) throws(TesseraError) -> UInt32 {
        guard isValidRowHeight(points) else { throw .invalidHeight(points) }
        return roundedUnits(points)
    }

    @inline(__always)
    static func isValidRowHeight(_ points: Double) -> Bool {
        // NaN fails both comparisons; the maximum is exact in a Double.
        points >= 0 && points <= maximumRowPoints
    }

    /// The index of the first invalid row height, or nil; four lanes at a time, since a
    /// bulk height update checks every row before it changes any.
    static func firstInvalidRowHeight(_ heights: UnsafeBufferPointer<Double>) -> Int? {
        let limit = SIMD4<Double>(repeating: maximumRowPoints)
        var bad = SIMDMask<SIMD4<Int64>>(repeating: false)
        var i = 0
        if let base = heights.baseAddress {
            while i + 4 <= heights.count {
                let v = UnsafeRawPointer(base + i).loadUnaligned(as: SIMD4<Double>.self)
                // NaN fails both comparisons.
                bad .|= .!((v .>= SIMD4<Double>()) .& (v .<= limit))
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
        return split(points).units
    }

    /// A length in points as whole units and the fraction of a unit left over (exact:
    /// multiplying by 64 never rounds). Lengths beyond 2^60 units, far past any content,
    /// clamp there, so sums of a few of them cannot overflow.
    @inline(__always)
    static func split(_ points: Double) -> (units: Int64, fraction: Double) {
        let exact = points * perPoint
        guard exact < 0x1p60 else { return (1 << 60, 0) }
        let units = Int64(exact)
        return (units, exact - Double(units))
    }

    /// The window `[offset - before, offset + length + after)` in units, exactly: the first
    /// unit `start` such that a row whose bottom is past `start` reaches into the window,
    /// and `end`, such that a row whose top is before `end` does. Nil when the window is
    /// empty (no length at all).
    static func window(offset: Double, length: Double, before: Double, after: Double)
        throws(TesseraError) -> (start: Int64, end: Int64)?
    {
        guard offset.isFinite, offset >= 0 else { throw .invalidOffset(offset) }
        guard length.isFinite, length >= 0 else { throw .invalidViewport(length) }
        guard before.isFinite, before >= 0 else { throw .invalidViewport(before) }
        guard after.isFinite, after >= 0 else { throw .invalidViewport(after) }
        guard length > 0 || before > 0 || after > 0 else { return nil }
        let o = split(offset), l = split(length), b = split(before), a = split(after)
        // floor(o - b): the fractions decide whether one more unit is borrowed.
        let start = max(o.units - b.units - (o.fraction < b.fraction ? 1 : 0), 0)
        // ceil(o + l + a): the whole units plus the fractions rounded up.
        let fractions = o.fraction + l.fraction + a.fraction, whole = Int64(fractions)
        let end = o.units + l.units + a.units + whole + (Double(whole) < fractions ? 1 : 0)
        return (start, end)
    }
}
