import CJemalloc

/// Sorted, non-overlapping glyph ranges with a value: an OpenType Coverage table (`indexed`:
/// the value is the coverage index of the range's first glyph) or ClassDef table (the value
/// is the class; glyphs outside every range are class 0).
struct GlyphRanges: Sendable {
    private(set) var starts: [UInt16] = []
    private(set) var ends: [UInt16] = []
    private(set) var values: [UInt16] = []

    var rangeCount: Int { starts.count }

    /// Index of the range holding `g`, nil when none does.
    @inline(__always)
    func range(of g: UInt16) -> Int? {
        var lo = 0
        var hi = starts.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if starts[mid] <= g { lo = mid + 1 } else { hi = mid }
        }
        let i = lo - 1
        return i >= 0 && g <= ends[i] ? i : nil
    }

    /// ClassDef: the class of `g` (0 when unlisted).
    @inline(__always)
    func value(_ g: UInt16) -> UInt16 {
        guard let i = range(of: g) else { return 0 }
        return values[i]
    }

    /// Coverage: the coverage index of `g`, nil when not covered.
    @inline(__always)
    func coverageIndex(_ g: UInt16) -> Int? {
        guard let i = range(of: g) else { return nil }
        return Int(values[i]) + Int(g - starts[i])
    }

    /// Builds from raw ranges: sorts them (stably) when out of order, drops empty ranges
    /// and the parts of a range that overlap an earlier one, merges adjacent ranges that
    /// continue each other. `indexed` ranges advance their value across a range.
    init(_ raw: [(start: UInt16, end: UInt16, value: UInt16)], indexed: Bool) {
        var raw = raw
        if zip(raw, raw.dropFirst()).contains(where: { $0.start > $1.start }) {
            raw.sort { $0.start < $1.start }
        }
        for var r in raw {
            guard r.start <= r.end else { continue }
            if let lastEnd = ends.last, r.start <= lastEnd {
                guard r.end > lastEnd else { continue }
                if indexed { r.value &+= lastEnd &+ 1 &- r.start }
                r.start = lastEnd + 1
            }
            if let lastEnd = ends.last, Int(lastEnd) + 1 == Int(r.start) {
                let i = ends.count - 1
                let continues = indexed
                    ? Int(values[i]) + Int(lastEnd - starts[i]) + 1 == Int(r.value)
                    : values[i] == r.value
                if continues {
                    ends[i] = r.end
                    continue
                }
            }
            starts.append(r.start)
            ends.append(r.end)
            values.append(r.value)
        }
    }

    init() {}

    /// Parses a Coverage table (formats 1 and 2).
    static func coverage(_ t: FontData) throws(TesseraError) -> GlyphRanges {
        let t = t.named("\(t.table) Coverage")
        let format = try t.u16(0)
        let count = Int(try t.u16(2))
        var raw: [(start: UInt16, end: UInt16, value: UInt16)] = []
        raw.reserveCapacity(count)
        switch format {
        case 1:
            try t.checkArray(4, count: count, size: 2, what: "glyphs")
            for i in 0..<count {
                let g = try t.u16(4 + 2 * i)
                raw.append((g, g, UInt16(i)))
            }
        case 2:
            try t.checkArray(4, count: count, size: 6, what: "range records")
            for i in 0..<count {
                let p = 4 + 6 * i
                raw.append((try t.u16(p), try t.u16(p + 2), try t.u16(p + 4)))
            }
        default:
            throw t.error("unknown format \(format)")
        }
        return GlyphRanges(raw, indexed: true)
    }

    /// Parses a ClassDef table (formats 1 and 2); class 0 entries are left out.
    static func classDef(_ t: FontData) throws(TesseraError) -> GlyphRanges {
        let t = t.named("\(t.table) ClassDef")
        let format = try t.u16(0)
        var raw: [(start: UInt16, end: UInt16, value: UInt16)] = []
        switch format {
        case 1:
            let first = Int(try t.u16(2))
            let count = Int(try t.u16(4))
            try t.checkArray(6, count: count, size: 2, what: "class values")
            for i in 0..<count where first + i <= 0xFFFF {
                let c = try t.u16(6 + 2 * i)
                if c != 0 { raw.append((UInt16(first + i), UInt16(first + i), c)) }
            }
        case 2:
            let count = Int(try t.u16(2))
            try t.checkArray(4, count: count, size: 6, what: "class range records")
            for i in 0..<count {
                let p = 4 + 6 * i
                let c = try t.u16(p + 4)
                if c != 0 { raw.append((try t.u16(p), try t.u16(p + 2), c)) }
            }
        default:
            throw t.error("unknown format \(format)")
        }
        return GlyphRanges(raw, indexed: false)
    }

    /// The GDEF glyph class definition (1 base, 2 ligature, 3 mark, 4 component), nil when
    /// GDEF has none.
    static func glyphClasses(_ gdef: FontData) throws(TesseraError) -> GlyphRanges? {
        let major = try gdef.u16(0)
        guard major == 1 else { throw gdef.error("unknown version \(major)") }
        let offset = try gdef.offset16(4)
        guard offset != 0 else { return nil }
        return try classDef(try gdef.slice(offset, table: "GDEF GlyphClassDef"))
    }
}

/// Pair kerning: GPOS PairPos subtables of the `kern` feature's lookups, or the `kern`
/// table's format 0 pairs, flattened at load. Memory is bounded by the font's own data:
/// subtables and pair sets referenced twice are parsed once, and the totals are capped.
struct PairKerning: Sendable {
    /// Most PairPos subtable references over all kern lookups.
    static let maximumSubtableReferences = 8192
    /// Most pairs, class-matrix cells and Coverage/ClassDef ranges parsed, over all
    /// subtables (real fonts stay far below; overlapping hostile subtables hit it).
    static let maximumEntries = 4 << 20

    /// One PairPos subtable: format 1 (explicit pairs) or 2 (class pairs). Values are the
    /// sum of the first and second glyph's XAdvance.
    struct Subtable: Sendable {
        var coverage = GlyphRanges()
        // Format 1: for coverage index i, pairs setLower[i]..<setUpper[i] of seconds/values,
        // sorted by second glyph.
        var setLower: [Int32] = []
        var setUpper: [Int32] = []
        var seconds: [UInt16] = []
        var pairValues: [Int32] = []
        // Format 2.
        var isClassPair = false
        var class1 = GlyphRanges()
        var class2 = GlyphRanges()
        var class1Count = 0
        var class2Count = 0
        /// class1Count × class2Count values, empty when no record has an XAdvance.
        var matrix: [Int32] = []

        /// The adjustment when this subtable applies to the pair, nil when it does not (so
        /// the lookup tries its next subtable, as HarfBuzz does).
        @inline(__always)
        func value(_ left: UInt16, _ right: UInt16) -> Int? {
            guard let ci = coverage.coverageIndex(left) else { return nil }
            if isClassPair {
                let c1 = Int(class1.value(left))
                let c2 = Int(class2.value(right))
                guard c1 < class1Count, c2 < class2Count else { return nil }
                return matrix.isEmpty ? 0 : Int(matrix[c1 * class2Count + c2])
            }
            guard ci < setLower.count else { return nil }
            var lo = Int(setLower[ci])
            var hi = Int(setUpper[ci])
            while lo < hi {
                let mid = (lo + hi) >> 1
                let s = seconds[mid]
                if s == right { return Int(pairValues[mid]) }
                if s < right { lo = mid + 1 } else { hi = mid }
            }
            return nil
        }
    }

    private(set) var subtables: [Subtable] = []
    /// Per lookup, in lookup order: indices into `subtables`.
    private(set) var lookups: [[Int]] = []
    /// Glyphs that start some pair (coverage of any subtable, or a `kern` left glyph).
    private var firstGlyphs = [UInt64](repeating: 0, count: 1024)
    /// `kern` table pairs: key `left << 16 | right`, sorted.
    private var kernKeys: [UInt32] = []
    private var kernValues: [Int32] = []
    private var storedEntries = 0

    /// Whether any format 1 or 2 subtable adjusts the second glyph's advance (HarfBuzz then
    /// skips that glyph as the first of the next pair in that lookup; Tessera does not).
    private(set) var adjustsSecondGlyph = false

    init() {}

    /// Whether some pair starts with `left` (most glyphs start none).
    @inline(__always)
    func mayKern(_ left: UInt16) -> Bool { firstGlyphs[Int(left >> 6)] & (1 << UInt64(left & 63)) != 0 }

    @inline(__always)
    func value(_ left: UInt16, _ right: UInt16) -> Int {
        guard mayKern(left) else { return 0 }
        if !kernKeys.isEmpty {
            let key = UInt32(left) << 16 | UInt32(right)
            var lo = 0
            var hi = kernKeys.count
            while lo < hi {
                let mid = (lo + hi) >> 1
                if kernKeys[mid] < key { lo = mid + 1 } else { hi = mid }
            }
            return lo < kernKeys.count && kernKeys[lo] == key ? Int(kernValues[lo]) : 0
        }
        var total = 0
        for lookup in lookups {
            for s in lookup {
                if let v = subtables[s].value(left, right) {
                    total += v
                    break
                }
            }
        }
        return total
    }

    /// Sets the `firstGlyphs` bits of every glyph in `ranges`, a 64-bit word at a time.
    private mutating func markFirst(_ ranges: GlyphRanges) {
        for i in 0..<ranges.rangeCount {
            var g = Int(ranges.starts[i])
            let end = Int(ranges.ends[i])
            while g <= end {
                let bit = g & 63
                let n = min(64 - bit, end - g + 1)
                let mask: UInt64 = n == 64 ? ~0 : ((1 << UInt64(n)) - 1) << UInt64(bit)
                firstGlyphs[g >> 6] |= mask
                g += n
            }
        }
    }

    private mutating func store(_ n: Int, _ t: FontData) throws(TesseraError) {
        storedEntries += n
        guard storedEntries <= Self.maximumEntries else {
            throw t.error("more than \(Self.maximumEntries) kerning pairs and class cells")
        }
    }

    // MARK: GPOS

    /// Parses the PairPos lookups of GPOS's `kern` feature (all scripts and language
    /// systems: the union of the lookups any `kern` feature record references, each applied
    /// once, in lookup-list order). Returns nil when GPOS has no `kern` feature.
    init?(gpos: FontData, glyphCount: Int) throws(TesseraError) {
        let major = try gpos.u16(0)
        guard major == 1 else { throw gpos.error("unknown version \(major)") }
        let featureListOffset = try gpos.offset16(6)
        let lookupListOffset = try gpos.offset16(8)
        guard featureListOffset != 0 else { return nil }
        let features = try gpos.slice(featureListOffset, table: "GPOS FeatureList")
        let featureCount = Int(try features.u16(0))
        try features.checkArray(2, count: featureCount, size: 6, what: "feature records")
        var lookupIndices = Set<Int>()
        var hasKern = false
        for i in 0..<featureCount where try features.u32(2 + 6 * i) == FontData.tag("kern") {
            hasKern = true
            let feature = try features.slice(try features.offset16(6 + 6 * i), table: "GPOS kern Feature")
            let count = Int(try feature.u16(2))
            try feature.checkArray(4, count: count, size: 2, what: "lookup indices")
            for j in 0..<count { lookupIndices.insert(Int(try feature.u16(4 + 2 * j))) }
        }
        guard hasKern else { return nil }
        guard !lookupIndices.isEmpty else { return }
        guard lookupListOffset != 0 else { throw gpos.error("kern feature without a LookupList") }
        let lookupList = try gpos.slice(lookupListOffset, table: "GPOS LookupList")
        let lookupCount = Int(try lookupList.u16(0))
        try lookupList.checkArray(2, count: lookupCount, size: 2, what: "lookup offsets")
        var parsed: [Int: Int] = [:]  // absolute subtable position → index in subtables
        var references = 0
        for index in lookupIndices.sorted() {
            guard index < lookupCount else {
                throw lookupList.error("kern feature references lookup \(index) of \(lookupCount)")
            }
            let lookup = try lookupList.slice(try lookupList.offset16(2 + 2 * index), table: "GPOS Lookup \(index)")
            let type = try lookup.u16(0)
            guard type == 2 || type == 9 else { continue }
            let subCount = Int(try lookup.u16(4))
            try lookup.checkArray(6, count: subCount, size: 2, what: "subtable offsets")
            var indices: [Int] = []
            for s in 0..<subCount {
                var sub = try lookup.slice(try lookup.offset16(6 + 2 * s), table: "GPOS Lookup \(index) subtable \(s)")
                if type == 9 {
                    let format = try sub.u16(0)
                    guard format == 1 else { throw sub.error("unknown Extension format \(format)") }
                    let extensionType = try sub.u16(2)
                    if extensionType == 9 { throw sub.error("Extension points to another Extension") }
                    guard extensionType == 2 else { continue }
                    sub = try sub.slice(try sub.offset32(4))
                }
                references += 1
                guard references <= Self.maximumSubtableReferences else {
                    throw gpos.error("more than \(Self.maximumSubtableReferences) kerning subtable references")
                }
                if let known = parsed[sub.start] {
                    indices.append(known)
                    continue
                }
                let subtable = try parsePairPos(sub.named("\(sub.table) PairPos"))
                parsed[sub.start] = subtables.count
                indices.append(subtables.count)
                subtables.append(subtable)
                markFirst(subtable.coverage)
            }
            if !indices.isEmpty { lookups.append(indices) }
        }
    }

    /// Size in bytes of a ValueRecord of `format`, and the offset of its XAdvance (nil when
    /// the format has none). Placement, advance and the four device-table offsets are
    /// 2 bytes each.
    private static func valueLayout(_ format: UInt16) -> (size: Int, xAdvance: Int?) {
        let size = 2 * (format & 0xFF).nonzeroBitCount
        let xAdvance = format & 0x4 != 0 ? 2 * (format & 0x3).nonzeroBitCount : nil
        return (size, xAdvance)
    }

    private mutating func parsePairPos(_ t: FontData) throws(TesseraError) -> Subtable {
        let format = try t.u16(0)
        var sub = Subtable()
        sub.coverage = try GlyphRanges.coverage(try t.slice(try t.offset16(2)))
        let format1 = try t.u16(4)
        let format2 = try t.u16(6)
        let (size1, x1) = Self.valueLayout(format1)
        let (size2, x2) = Self.valueLayout(format2)
        if x2 != nil { adjustsSecondGlyph = true }
        try store(sub.coverage.rangeCount, t)
        switch format {
        case 1:
            let setCount = Int(try t.u16(8))
            try t.checkArray(10, count: setCount, size: 2, what: "PairSet offsets")
            try store(setCount, t)
            let recordSize = 2 + size1 + size2
            var known: [Int: (Int32, Int32)] = [:]
            sub.setLower.reserveCapacity(setCount)
            sub.setUpper.reserveCapacity(setCount)
            for i in 0..<setCount {
                let offset = try t.offset16(10 + 2 * i)
                if let (lo, hi) = known[offset] {
                    sub.setLower.append(lo)
                    sub.setUpper.append(hi)
                    continue
                }
                let set = try t.slice(offset, table: "\(t.table) PairSet")
                let count = Int(try set.u16(0))
                try set.checkArray(2, count: count, size: recordSize, what: "PairValueRecords")
                try store(count, set)
                var pairs: [(second: UInt16, value: Int32)] = []
                pairs.reserveCapacity(count)
                for j in 0..<count {
                    let p = 2 + recordSize * j
                    var v: Int32 = 0
                    if let x1 { v += Int32(try set.i16(p + 2 + x1)) }
                    if let x2 { v += Int32(try set.i16(p + 2 + size1 + x2)) }
                    pairs.append((try set.u16(p), v))
                }
                if zip(pairs, pairs.dropFirst()).contains(where: { $0.second > $1.second }) {
                    pairs.sort { $0.second < $1.second }
                }
                let lo = Int32(sub.seconds.count)
                for p in pairs where p.second != sub.seconds.last || sub.seconds.count == Int(lo) {
                    sub.seconds.append(p.second)
                    sub.pairValues.append(p.value)
                }
                let hi = Int32(sub.seconds.count)
                known[offset] = (lo, hi)
                sub.setLower.append(lo)
                sub.setUpper.append(hi)
            }
        case 2:
            sub.isClassPair = true
            sub.class1 = try GlyphRanges.classDef(try t.slice(try t.offset16(8), table: "\(t.table) ClassDef1"))
            sub.class2 = try GlyphRanges.classDef(try t.slice(try t.offset16(10), table: "\(t.table) ClassDef2"))
            try store(sub.class1.rangeCount + sub.class2.rangeCount, t)
            sub.class1Count = Int(try t.u16(12))
            sub.class2Count = Int(try t.u16(14))
            let recordSize = size1 + size2
            let cells = sub.class1Count * sub.class2Count
            try t.checkArray(16, count: cells, size: recordSize, what: "Class2Records")
            if x1 != nil || x2 != nil {
                try store(cells, t)
                sub.matrix = [Int32](repeating: 0, count: cells)
                for c in 0..<cells {
                    let p = 16 + recordSize * c
                    var v: Int32 = 0
                    if let x1 { v += Int32(try t.i16(p + x1)) }
                    if let x2 { v += Int32(try t.i16(p + size1 + x2)) }
                    sub.matrix[c] = v
                }
            }
        default:
            throw t.error("unknown PairPos format \(format)")
        }
        return sub
    }

    // MARK: kern

    /// Parses the `kern` table's horizontal format 0 subtables (Microsoft version 0 and
    /// Apple version 1 headers) into one sorted pair map: values of several subtables add
    /// up, an override subtable's value replaces the sum so far. Minimum and cross-stream subtables and other
    /// formats are skipped. Returns nil when no subtable applies.
    init?(kern: FontData, glyphCount: Int) throws(TesseraError) {
        let apple = try kern.u16(0) == 1
        let tableCount = apple ? Int(try kern.u32(4)) : Int(try kern.u16(2))
        var offset = apple ? 8 : 4
        var merged: [UInt32: Int32] = [:]
        var any = false
        for i in 0..<tableCount {
            guard offset < kern.count else { break }
            let header = try kern.slice(offset, table: "kern subtable \(i)")
            let length: Int
            let format: UInt8
            let usable: Bool
            let override: Bool
            let dataStart: Int
            if apple {
                length = Int(try header.u32(0))
                let coverage = try header.u16(4)
                format = UInt8(coverage & 0xFF)
                usable = coverage & 0x8000 == 0 && coverage & 0x4000 == 0 && coverage & 0x2000 == 0
                override = false
                dataStart = 8
            } else {
                length = Int(try header.u16(2))
                let coverage = try header.u16(4)
                format = UInt8(coverage >> 8)
                usable = coverage & 0x1 != 0 && coverage & 0x2 == 0 && coverage & 0x4 == 0
                override = coverage & 0x8 != 0
                dataStart = 6
            }
            if usable && format == 0 {
                let body = try header.slice(dataStart)
                let count = Int(try body.u16(0))
                // The pairs are sized from nPairs: the 16-bit length of a large subtable
                // overflows in real fonts, so it is not trusted for this.
                try body.checkArray(8, count: count, size: 6, what: "kerning pairs")
                try store(count, body)
                any = true
                for j in 0..<count {
                    let p = 8 + 6 * j
                    let key = UInt32(try body.u16(p)) << 16 | UInt32(try body.u16(p + 2))
                    let v = Int32(try body.i16(p + 4))
                    if override { merged[key] = v } else { merged[key, default: 0] += v }
                }
            }
            // The next subtable follows this one (a last subtable's length is not needed).
            if i + 1 < tableCount, length < dataStart + 8 {
                throw header.error("length \(length) is too short for a subtable")
            }
            offset += length
        }
        guard any else { return nil }
        let sorted = merged.sorted { $0.key < $1.key }
        kernKeys = sorted.map(\.key)
        kernValues = sorted.map(\.value)
        for key in kernKeys {
            let g = Int(key >> 16)
            firstGlyphs[g >> 6] |= 1 << UInt64(g & 63)
        }
    }
}

/// Pair adjustments already looked up, shared by every thread measuring with the font: a
/// direct-mapped table of 4,096 words `pair << 32 | value`, read and written with relaxed
/// atomics (a racing writer can only replace one correct entry with another). A class
/// lookup walks every kern lookup's subtables (Coverage, ClassDef binary searches); a
/// text's pairs repeat, so most pairs after the first few thousand hit here.
final class KerningMemo: @unchecked Sendable {
    private static let count = 4096
    private let slots: UnsafeMutablePointer<UInt64>
    /// The pair (0xFFFF, 0xFFFF) with value −1 matches an empty slot; it is never memoised.
    private static let empty = UInt64.max

    init() {
        slots = .allocate(capacity: Self.count)
        slots.initialize(repeating: Self.empty, count: Self.count)
    }

    deinit { slots.deallocate() }

    @inline(__always)
    func value(_ left: UInt16, _ right: UInt16, _ kerning: PairKerning) -> Int {
        let pair = UInt32(left) << 16 | UInt32(right)
        guard pair != 0xFFFF_FFFF else { return kerning.value(left, right) }
        let slot = slots + Int((pair &* 0x9E37_79B1) >> 20)
        let entry = tess_load_relaxed(slot)
        if UInt32(truncatingIfNeeded: entry >> 32) == pair { return Int(Int32(bitPattern: UInt32(truncatingIfNeeded: entry))) }
        let v = kerning.value(left, right)
        tess_store_relaxed(slot, UInt64(pair) << 32 | UInt64(UInt32(bitPattern: Int32(truncatingIfNeeded: v))))
        return v
    }
}
