/// Line_Break property values (UAX #14, Unicode 15.0) after LB1 resolution, which the
/// generator applies: AI, SG and XX become AL; SA becomes CM when its General_Category is
/// Mn or Mc and AL otherwise (no dictionary); CJ becomes NS (the default, "strict" choice).
/// The raw values are the order of `LB_CLASSES` in `scripts/gen_unicode_tables.py`.
enum LineBreakClass: UInt8, Sendable {
    case BK, CR, LF, NL, SP, ZW, ZWJ, CM, WJ, GL
    case BA, BB, B2, CB, CL, CP, EX, HY, IN, IS
    case NS, OP, PO, PR, QU, SY, AL, HL, ID, NU
    case JL, JV, JT, H2, H3, RI, EB, EM

    /// This class as a bit for set tests (`mask & bit != 0`).
    static let count = 38

    @inline(__always) var bit: UInt64 { 1 << UInt64(rawValue) }

    @inline(__always) func isIn(_ set: UInt64) -> Bool { set & bit != 0 }
}

/// The line break properties of one scalar, unpacked from its table byte.
struct LineBreakProperties {
    var lineBreakClass: LineBreakClass
    /// East_Asian_Width is F, W or H (LB30 excludes these OP and CP).
    var isEastAsianWide: Bool
    /// Extended_Pictographic and unassigned (General_Category Cn), for LB30b.
    var isUnassignedPictographic: Bool

    @inline(__always)
    init(_ byte: UInt8) {
        // The generated table holds only valid classes (0...37) in bits 0-5.
        lineBreakClass = unsafeBitCast(byte & 0x3F, to: LineBreakClass.self)
        isEastAsianWide = byte & 0x40 != 0
        isUnassignedPictographic = byte & 0x80 != 0
    }

    @inline(__always)
    init(scalar: UInt32) { self.init(lineBreakPropertyTable.value(scalar)) }
}
