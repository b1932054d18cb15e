/// The Unicode → glyph mapping of one `cmap` subtable, flattened at load into sorted,
/// non-overlapping runs (`starts[i]...ends[i]` maps to `glyphs[i] + (c - starts[i])`), plus a
/// direct table for scalars below U+0800 (Latin, Greek, Cyrillic, Armenian, Hebrew, Arabic).
///
/// Subtable choice, as HarfBuzz's: format 12 from (3,10), (0,6) or (0,4); then format 4
/// from (3,1), (0,3), (0,2), (0,1) or (0,0). Mappings to glyph 0 or to ids at or past
/// `maxp.numGlyphs` are dropped (treated as unmapped).
struct CharacterMap: Sendable {
    static let directLimit: UInt32 = 0x800

    private(set) var starts: [UInt32] = []
    private(set) var ends: [UInt32] = []
    private(set) var glyphs: [UInt16] = []
    private var direct: [UInt16] = []

    /// The glyph of `c`, 0 when unmapped.
    @inline(__always)
    func glyph(_ c: UInt32) -> UInt16 {
        if c < Self.directLimit { return direct[Int(c)] }
        // Last run with start <= c.
        var lo = 0
        var hi = starts.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if starts[mid] <= c { lo = mid + 1 } else { hi = mid }
        }
        let i = lo - 1
        guard i >= 0, c <= ends[i] else { return 0 }
        return glyphs[i] &+ UInt16(truncatingIfNeeded: c - starts[i])
    }

    /// Bit `k` set where `base + k` (k < 64) has a glyph, for a `base` that is a multiple
    /// of 64: one search, then the runs in order (what 64 calls of `glyph` give).
    func mappedBits(from base: UInt32) -> UInt64 {
        var bits: UInt64 = 0
        if base < Self.directLimit {
            for k in 0..<UInt32(64) where direct[Int(base + k)] != 0 { bits |= 1 << UInt64(k) }
            return bits
        }
        // The first run ending at or after `base`.
        var lo = 0, hi = ends.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if ends[mid] < base { lo = mid + 1 } else { hi = mid }
        }
        let end = base + 63
        while lo < starts.count && starts[lo] <= end {
            var c = Swift.max(starts[lo], base)
            while c <= Swift.min(ends[lo], end) {
                if glyphs[lo] &+ UInt16(truncatingIfNeeded: c - starts[lo]) != 0 { bits |= 1 << UInt64(c - base) }
                c += 1
            }
            lo += 1
        }
        return bits
    }

    var runCount: Int { starts.count }

    init(_ cmap: FontData, glyphCount: Int) throws(TesseraError) {
        let version = try cmap.u16(0)
        guard version == 0 else { throw cmap.error("unknown version \(version)") }
        let numTables = Int(try cmap.u16(2))
        try cmap.checkArray(4, count: numTables, size: 8, what: "encoding records")
        // (platform, encoding, format) in order of preference.
        let preferences: [(UInt16, UInt16, UInt16)] = [
            (3, 10, 12), (0, 6, 12), (0, 4, 12),
            (3, 1, 4), (0, 3, 4), (0, 2, 4), (0, 1, 4), (0, 0, 4),
        ]
        var records: [(platform: UInt16, encoding: UInt16, offset: Int)] = []
        for i in 0..<numTables {
            records.append((try cmap.u16(4 + 8 * i), try cmap.u16(6 + 8 * i), try cmap.offset32(8 + 8 * i)))
        }
        var raw: [(start: UInt32, end: UInt32, glyph: UInt32)] = []
        var found = false
        search: for (platform, encoding, format) in preferences {
            for r in records where r.platform == platform && r.encoding == encoding {
                let sub = try cmap.slice(r.offset, table: "cmap format \(format) (\(platform),\(encoding))")
                guard try sub.u16(0) == format else { continue }
                raw = format == 12 ? try Self.format12(sub) : try Self.format4(sub)
                found = true
                break search
            }
        }
        guard found else { throw cmap.error("no Unicode subtable of format 4 or 12") }
        self.init(runs: raw, glyphCount: glyphCount)
    }

    /// Builds the runs from raw (start, end, first glyph) ranges: clips glyph ids to
    /// `glyphCount`, drops glyph 0, sorts, removes overlaps (the earlier range wins) and
    /// merges runs that continue each other.
    init(runs raw: [(start: UInt32, end: UInt32, glyph: UInt32)], glyphCount: Int) {
        var runs = raw
        if zip(runs, runs.dropFirst()).contains(where: { $0.start > $1.start }) {
            runs.sort { $0.start < $1.start }  // stable: among equal starts the first stays first
        }
        let limit = UInt32(glyphCount)
        for var run in runs {
            guard run.start <= run.end, run.end <= 0x10FFFF else { continue }
            if run.glyph == 0 {  // glyph 0 means unmapped: start at the next character
                if run.start == run.end { continue }
                run.start += 1
                run.glyph = 1
            }
            guard run.glyph < limit else { continue }
            let span = run.end - run.start
            if span > limit - 1 - run.glyph { run.end = run.start + (limit - 1 - run.glyph) }
            if let lastEnd = ends.last, run.start <= lastEnd {
                guard run.end > lastEnd else { continue }
                run.glyph += lastEnd + 1 - run.start
                run.start = lastEnd + 1
            }
            if let lastEnd = ends.last, lastEnd + 1 == run.start,
                UInt32(glyphs[glyphs.count - 1]) + (lastEnd - starts[starts.count - 1]) + 1 == run.glyph
            {
                ends[ends.count - 1] = run.end
                continue
            }
            starts.append(run.start)
            ends.append(run.end)
            glyphs.append(UInt16(run.glyph))
        }
        direct = [UInt16](repeating: 0, count: Int(Self.directLimit))
        for i in starts.indices where starts[i] < Self.directLimit {
            for c in starts[i]...min(ends[i], Self.directLimit - 1) {
                direct[Int(c)] = glyphs[i] + UInt16(c - starts[i])
            }
        }
    }

    /// Format 12: sequential map groups.
    static func format12(_ sub: FontData) throws(TesseraError) -> [(start: UInt32, end: UInt32, glyph: UInt32)] {
        let numGroups = Int(try sub.u32(12))
        try sub.checkArray(16, count: numGroups, size: 12, what: "groups")
        var runs: [(start: UInt32, end: UInt32, glyph: UInt32)] = []
        runs.reserveCapacity(numGroups)
        for i in 0..<numGroups {
            let p = 16 + 12 * i
            let start = try sub.u32(p)
            let end = try sub.u32(p + 4)
            let glyph = try sub.u32(p + 8)
            guard start <= end, start <= 0x10FFFF else { continue }
            runs.append((start, min(end, 0x10FFFF), glyph))
        }
        return runs
    }

    /// Format 4: segment mapping to delta values. Segments with idRangeOffset 0 become one
    /// run (two when the delta wraps past 0xFFFF); the others are read character by
    /// character from glyphIdArray, where an entry outside the table counts as unmapped (as
    /// HarfBuzz and FreeType treat it).
    static func format4(_ sub: FontData) throws(TesseraError) -> [(start: UInt32, end: UInt32, glyph: UInt32)] {
        let segCountX2 = Int(try sub.u16(6))
        guard segCountX2 % 2 == 0 else { throw sub.error("odd segCountX2 \(segCountX2)") }
        let segCount = segCountX2 / 2
        let endsAt = 14
        let startsAt = endsAt + segCountX2 + 2
        let deltasAt = startsAt + segCountX2
        let rangeOffsetsAt = deltasAt + segCountX2
        try sub.checkArray(endsAt, count: 4 * segCount + 1, size: 2, what: "segment fields")
        var runs: [(start: UInt32, end: UInt32, glyph: UInt32)] = []
        // Segments must be sorted; one that overlaps the ones before it keeps only its part
        // above them, so at most 65,536 characters are ever expanded.
        var next: UInt32 = 0
        for i in 0..<segCount {
            let end = UInt32(try sub.u16(endsAt + 2 * i))
            let segmentStart = UInt32(try sub.u16(startsAt + 2 * i))
            let delta = UInt32(try sub.u16(deltasAt + 2 * i))
            let rangeOffset = Int(try sub.u16(rangeOffsetsAt + 2 * i))
            let start = max(segmentStart, next)
            guard start <= end else { continue }
            next = end + 1
            if rangeOffset == 0 {
                let first = (start + delta) & 0xFFFF
                let span = end - start
                if first + span <= 0xFFFF {
                    runs.append((start, end, first))
                } else {
                    let split = start + (0xFFFF - first)  // maps to 0xFFFF
                    runs.append((start, split, first))
                    runs.append((split + 1, end, 0))  // wraps to glyph 0 onwards
                }
            } else {
                let base = rangeOffsetsAt + 2 * i + rangeOffset
                for c in start...end {
                    let at = base + 2 * Int(c - segmentStart)
                    guard sub.contains(at, 2) else { continue }
                    let g = UInt32(try sub.u16(at))
                    if g == 0 { continue }
                    runs.append((c, c, (g + delta) & 0xFFFF))
                }
            }
        }
        return runs
    }
}
