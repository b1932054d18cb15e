import Tessera

/// The peer: the flat prefix-array geometry of web and React Native virtualizers
/// (TanStack Virtual's `measurementsCache`, react-window's `VariableSizeList` offsets,
/// FlashList's layout array), written as well as that approach allows.
///
/// Columns are contiguous arrays: ids, kinds, heights (1/64 pt, as Tessera stores them) and
/// `offsets`, the exact prefix sums of the heights (`offsets[i]` is the top of row `i`,
/// `offsets[count]` the total height; `count + 1` entries). Offset → row is a branch-free
/// binary search over `offsets`; row → offset is one load. Every change (insert, remove,
/// height) moves the columns' tails with `memmove` and rewrites the offsets from the
/// changed row to the end: O(n) per change, which is what those libraries do when a row is
/// measured or the data changes.
///
/// Each change rewrites the offsets in the fastest exact form measured here (10^6 and 10^7
/// rows, against the other two): insert shifts the tail down one slot and adds the new
/// height in one backward pass; remove re-sums the prefix from the removed row (one pass
/// over the heights); a height change adds the delta to every later offset (vectorized).
/// All three give exactly the offsets a full rebuild gives (`_checkOffsets()`).
struct FlatPrefixArray {
    static let unitsPerPoint: Double = 64

    private(set) var ids: [UInt64]
    private(set) var kinds: [UInt16]
    private(set) var heights: [UInt32]
    private(set) var offsets: [Int64]

    var count: Int { heights.count }
    var totalUnits: Int64 { offsets.withUnsafeBufferPointer { $0[$0.count - 1] } }
    var totalHeight: Double { Double(totalUnits) / Self.unitsPerPoint }

    init() {
        ids = []
        kinds = []
        heights = []
        offsets = [0]
    }

    /// Copies the columns and computes the offsets in one pass (heights converted to
    /// 1/64 pt with the same rounding as Tessera).
    init(ids sourceIDs: [UInt64], kinds sourceKinds: [UInt16], heights points: [Double]) {
        let n = sourceIDs.count
        precondition(sourceKinds.count == n && points.count == n, "column lengths differ")
        ids = Array(unsafeUninitializedCapacity: n) { buffer, initialized in
            sourceIDs.withUnsafeBufferPointer { buffer.baseAddress!.initialize(from: $0.baseAddress!, count: n) }
            initialized = n
        }
        kinds = Array(unsafeUninitializedCapacity: n) { buffer, initialized in
            sourceKinds.withUnsafeBufferPointer { buffer.baseAddress!.initialize(from: $0.baseAddress!, count: n) }
            initialized = n
        }
        var units = [UInt32](repeating: 0, count: 0)
        var prefix = [Int64](repeating: 0, count: 0)
        units = Array(unsafeUninitializedCapacity: n) { h, hCount in
            prefix = Array(unsafeUninitializedCapacity: n + 1) { o, oCount in
                points.withUnsafeBufferPointer { Self.fill(heights: h, offsets: o, from: $0) }
                oCount = n + 1
            }
            hCount = n
        }
        heights = units
        offsets = prefix
    }

    /// A height in units, rounded to the nearest 1/64 pt, halves away from zero, exactly as
    /// Tessera rounds and just as fast (no libm call, no trap check): adding 2^52 leaves
    /// the nearest integer (ties to even) in the mantissa, and a tie that went down moves up.
    @inline(__always)
    static func units(_ points: Double) -> UInt32 {
        let exact = points * unitsPerPoint
        let magic: Double = 0x1p52
        let nearest = (exact + magic).bitPattern &- magic.bitPattern
        let tieDown: UInt64 = Double(nearest) - exact == -0.5 ? 1 : 0
        return UInt32(truncatingIfNeeded: nearest &+ tieDown)
    }

    /// The window `[offset - before, offset + viewport + after)` in units, exactly as
    /// Tessera bounds it: rows whose bottom is past `start` and whose top is before `end`.
    /// Multiplying by 64 is exact, so whole units and fractions are summed apart.
    @inline(__always)
    static func bounds(offset: Double, viewport: Double, before: Double, after: Double) -> (start: Int64, end: Int64) {
        func split(_ x: Double) -> (Int64, Double) {
            let u = x * unitsPerPoint, whole = Int64(u)
            return (whole, u - Double(whole))
        }
        let (o, fo) = split(offset), (v, fv) = split(viewport), (b, fb) = split(before), (a, fa) = split(after)
        let start = max(o - b - (fo < fb ? 1 : 0), 0)
        guard viewport > 0 || before > 0 || after > 0 else { return (start, start) }  // an empty window
        let fractions = fo + fv + fa, whole = Int64(fractions)
        return (start, o + v + a + whole + (Double(whole) < fractions ? 1 : 0))
    }

    // MARK: Queries

    /// The top of a row, in points.
    func offset(ofRow row: Int) -> Double { Double(offsets[row]) / Self.unitsPerPoint }

    /// The row covering `y` (`0 <= y < total`): the last row whose top is at or
    /// above `y`. A branch-free lower-bound search: the step is masked arithmetically, as
    /// LLVM's x86 cmov converter turns a select fed by a load back into a branch, which
    /// mispredicts half the time on random queries.
    @inline(__always)
    static func row(covering y: Int64, in offsets: UnsafeBufferPointer<Int64>, count n: Int) -> Int {
        let o = offsets.baseAddress!
        var base = 0, length = n
        while length > 1 {
            let half = length >> 1
            // All ones when the probe is past y (keep base), zero when it is not (advance).
            let past = (y &- o[base &+ half]) >> 63
            base &+= half & ~Int(truncatingIfNeeded: past)
            length &-= half
        }
        return base
    }

    /// The rows that intersect `[offset - overscanBefore, offset + viewport + overscanAfter)`,
    /// written to `buffer` (same rounding and the same rows as `RowStore.window`). Returns
    /// the rows found; when the buffer is too small, only what fits is written.
    func window(
        offset: Double, viewport: Double, overscanBefore: Double, overscanAfter: Double,
        into buffer: UnsafeMutableBufferPointer<VisibleRow>
    ) -> Range<Int> {
        let (start, end) = Self.bounds(offset: offset, viewport: viewport, before: overscanBefore, after: overscanAfter)
        let n = count
        return offsets.withUnsafeBufferPointer { o in
            guard start < o[n], start < end else {
                let first = start < o[n] ? Self.row(covering: start, in: o, count: n) : n
                return first..<first
            }
            return ids.withUnsafeBufferPointer { ids in
                heights.withUnsafeBufferPointer { h in
                    kinds.withUnsafeBufferPointer { k in
                        let first = Self.row(covering: start, in: o, count: n)
                        var row = first, written = 0
                        let capacity = buffer.count
                        let measured = RowFlags.measured  // a global's accessor: once, not per row
                        while row < n && o[row] < end {
                            if written < capacity {
                                buffer[written] = VisibleRow(
                                    row: row, id: ids[row], y: Double(o[row]) / Self.unitsPerPoint,
                                    height: Double(h[row]) / Self.unitsPerPoint, kind: k[row], flags: measured)
                            }
                            written &+= 1
                            row &+= 1
                        }
                        return first..<row
                    }
                }
            }
        }
    }

    // MARK: Changes, O(n) each

    /// Inserts one row before `row` (`count` appends).
    mutating func insert(id: UInt64, kind: UInt16, height points: Double, at row: Int) {
        let h = Self.units(points)
        ids.insert(id, at: row)
        kinds.insert(kind, at: row)
        heights.insert(h, at: row)
        // offsets[row] (the new row's top) stays; every later offset moves down one slot
        // and by the new row's height: one backward pass, shift and add fused.
        offsets.append(0)
        let n = count
        offsets.withUnsafeMutableBufferPointer { o in
            let base = o.baseAddress!, delta = Int64(h)
            var i = n
            while i > row {
                base[i] = base[i &- 1] &+ delta
                i &-= 1
            }
        }
    }

    /// Replaces every row's height from a column of points and recomputes every offset in
    /// the same pass: the flat layout's "build from a height column".
    mutating func setHeights(_ points: [Double]) {
        let n = count
        precondition(points.count == n, "column lengths differ")
        points.withUnsafeBufferPointer { p in
            heights.withUnsafeMutableBufferPointer { h in
                offsets.withUnsafeMutableBufferPointer { Self.fill(heights: h, offsets: $0, from: p) }
            }
        }
    }

    /// Heights in units and their prefix sums from points, in one pass.
    @inline(__always)
    static func fill(
        heights h: UnsafeMutableBufferPointer<UInt32>, offsets o: UnsafeMutableBufferPointer<Int64>,
        from p: UnsafeBufferPointer<Double>
    ) {
        var y: Int64 = 0
        for i in 0..<p.count {
            let u = units(p[i])
            h[i] = u
            o[i] = y
            y &+= Int64(u)
        }
        o[p.count] = y
    }

    /// Removes one row.
    mutating func remove(at row: Int) {
        ids.remove(at: row)
        kinds.remove(at: row)
        heights.remove(at: row)
        offsets.removeLast()
        rebuildOffsets(from: row)
    }

    /// Changes one row's height (points).
    mutating func setHeight(_ points: Double, ofRow row: Int) {
        let h = Self.units(points)
        let delta = heights.withUnsafeMutableBufferPointer { heights in
            let old = heights[row]
            heights[row] = h
            return Int64(h) - Int64(old)
        }
        guard delta != 0 else { return }
        let n = count
        offsets.withUnsafeMutableBufferPointer { o in
            Self.add(delta, to: o.baseAddress! + row + 1, count: n - row)
        }
    }

    /// Inserts rows before `row` with heights already in units, then rebuilds the offsets
    /// from `row` once: what a virtualizer does when its data source gains a batch.
    mutating func insert(ids newIDs: [UInt64], kinds newKinds: [UInt16], heightUnits newHeights: [UInt32], at row: Int) {
        precondition(newKinds.count == newIDs.count && newHeights.count == newIDs.count, "column lengths differ")
        ids.insert(contentsOf: newIDs, at: row)
        kinds.insert(contentsOf: newKinds, at: row)
        heights.insert(contentsOf: newHeights, at: row)
        offsets.append(contentsOf: repeatElement(0, count: newIDs.count))
        rebuildOffsets(from: row)
    }

    /// Sets a row's height in units without touching the offsets: a batch of corrections
    /// ends with one `rebuildOffsets(from:)` at the first changed row.
    @inline(__always)
    mutating func setHeightUnits(_ units: UInt32, ofRow row: Int) {
        heights.withUnsafeMutableBufferPointer { $0[row] = units }
    }

    /// The top of a row in units.
    @inline(__always)
    func topUnits(ofRow row: Int) -> Int64 { offsets.withUnsafeBufferPointer { $0[row] } }

    /// The row covering `y` units (`0 <= y < totalUnits`).
    @inline(__always)
    func row(coveringUnits y: Int64) -> Int {
        offsets.withUnsafeBufferPointer { Self.row(covering: y, in: $0, count: count) }
    }

    /// Recomputes `offsets[row + 1 ... count]` from `offsets[row]` and the heights.
    mutating func rebuildOffsets(from row: Int) {
        let n = count
        heights.withUnsafeBufferPointer { h in
            offsets.withUnsafeMutableBufferPointer { o in
                var y = o[row]
                for i in row..<n {
                    y &+= Int64(h[i])
                    o[i &+ 1] = y
                }
            }
        }
    }

    /// `p[0..<n] += delta`: a loop the compiler vectorizes.
    @inline(__always)
    static func add(_ delta: Int64, to p: UnsafeMutablePointer<Int64>, count n: Int) {
        for i in 0..<n { p[i] &+= delta }
    }

    /// Recomputes the offsets from the heights; true when they match.
    func _checkOffsets() -> Bool {
        var y: Int64 = 0
        for i in 0..<count {
            if offsets[i] != y { return false }
            y += Int64(heights[i])
        }
        return offsets[count] == y
    }
}
