/// A position where a line may (or must) end, in UTF-8 bytes.
public struct LineBreakOpportunity: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The UTF-8 byte offset where the next line would start: the text before it is the
    /// line. Always in `1...count`; the start of text (offset 0) is never an opportunity.
    public var offset: Int
    /// A mandatory break (after BK — including LS, PS, VT, FF —, CR, LF, CR LF as one, NEL),
    /// or the end of text.
    public var isMandatory: Bool

    public init(offset: Int, isMandatory: Bool) {
        self.offset = offset
        self.isMandatory = isMandatory
    }

    public var description: String { "\(offset)\(isMandatory ? "!" : "")" }
}

/// Line breaking per UAX #14 for Unicode 15.0 (`unicodeVersion`), rules LB1–LB31 with the
/// default behaviour and the numeric tailoring that Unicode's own `LineBreakTest.txt` uses:
///
/// - LB1: AI, SG, XX → AL; SA → CM (Mn, Mc) or AL, i.e. no dictionary for Thai, Lao,
///   Khmer, Myanmar; CJ → NS.
/// - LB25 is the regular-expression form of UAX #14 section 8.2 example 7 (with LB13 as
///   `[^NU] × CL|CP|IS|SY`), which `LineBreakTest-15.0.0.txt` says it is written for, e.g.
///   "$(" may break but "$(1" may not, and "1.5%" and "(12)%" hold together.
/// - LB8a, LB9/LB10 (combining marks and ZWJ attach to the preceding character except
///   after spaces and breaks), LB15 in its 15.0 form `QU SP* × OP`, LB21a, LB21b, LB30 with
///   East_Asian_Width F/W/H excluded, LB30a regional indicator pairs, LB30b (EB × EM and
///   unassigned Extended_Pictographic × EM). No LB28a (that rule arrived in 15.1).
///
/// The end of text is always a mandatory opportunity (LB3), so a non-empty text's result
/// ends with `LineBreakOpportunity(offset: count, isMandatory: true)`; empty text has no
/// opportunities. Text that ends in a line break gives one opportunity at the end, not two.
public enum LineBreaking {
    /// The Unicode version of the tables and rules.
    public static let unicodeVersion = UnicodeTableData.unicodeVersion

    /// All line break opportunities in `utf8`, in increasing offset order.
    /// - Throws: `TesseraError.invalidUTF8Text(byteOffset:)` with the offset of the first
    ///   byte of the first ill-formed sequence.
    public static func opportunities(in utf8: UnsafeRawBufferPointer) throws(TesseraError) -> [LineBreakOpportunity] {
        try validateUTF8Text(utf8)
        var iterator = LineBreakIterator(validUTF8: utf8)
        var result: [LineBreakOpportunity] = []
        while let next = iterator.next() { result.append(next) }
        return result
    }

    /// All line break opportunities in `bytes` (UTF-8), in increasing offset order.
    public static func opportunities(in bytes: [UInt8]) throws(TesseraError) -> [LineBreakOpportunity] {
        try bytes.withUnsafeBufferPointer { (buffer) throws(TesseraError) in try opportunities(in: UnsafeRawBufferPointer(buffer)) }
    }

    /// All line break opportunities in `text`, as UTF-8 byte offsets into `text.utf8`.
    public static func opportunities(in text: String) -> [LineBreakOpportunity] {
        if let result = text.utf8.withContiguousStorageIfAvailable({ collect(UnsafeRawBufferPointer($0)) }) {
            return result
        }
        return Array(text.utf8).withUnsafeBytes { collect($0) }
    }

    private static func collect(_ validUTF8: UnsafeRawBufferPointer) -> [LineBreakOpportunity] {
        var iterator = LineBreakIterator(validUTF8: validUTF8)
        var result: [LineBreakOpportunity] = []
        while let next = iterator.next() { result.append(next) }
        return result
    }
}

/// Walks valid UTF-8 and yields each line break opportunity in order, without allocating.
/// The bytes must stay valid and unchanged while it is used and must already be validated
/// (`firstInvalidUTF8Byte` returned nil). Linear time: each scalar is decoded once, plus
/// a short look-ahead past combining marks for LB25's `(PR|PO) × (OP|HY) NU`.
struct LineBreakIterator: IteratorProtocol {
    typealias Element = LineBreakOpportunity

    private let bytes: UnsafePointer<UInt8>?
    private let count: Int
    private let table: UnicodePropertyTable
    /// Offset of the next scalar to read.
    private(set) var position = 0
    private var finished = false

    // Context before `position`.
    /// The class of the last scalar itself (LB1 applied, LB9/LB10 not): LB4, LB5, LB8a.
    private var lastScalar: LineBreakClass = .AL
    /// The class of the last unit: a scalar with its attached CM/ZWJ (LB9), CM/ZWJ that
    /// did not attach becoming AL (LB10).
    private var last: LineBreakClass = .AL
    /// When `last` is SP: the unit before the run of spaces (LB8, LB14–LB17).
    private var beforeSpaces: LineBreakClass = .AL
    /// `last` is HY or BA and the unit before it is HL (LB21a).
    private var hyphenAfterHL = false
    /// The run of RI units ending at `last` has odd length (LB30a).
    private var oddRegionalIndicators = false
    /// LB25: 1 after `NU (NU|SY|IS)*`, 2 after `NU (NU|SY|IS)* (CL|CP)`, else 0.
    private var numeric: UInt8 = 0
    /// `last` has East_Asian_Width F/W/H (LB30).
    private var lastEastAsian = false
    /// `last` is unassigned Extended_Pictographic (LB30b).
    private var lastUnassignedPictographic = false

    /// The ASCII decision table, read once per iterator rather than through the global
    /// (whose lazy initialisation check would run per byte).
    private let ascii: ASCIILineBreakTable

    init(validUTF8 buffer: UnsafeRawBufferPointer) {
        self.init(buffer, ascii: asciiLineBreakTable)
    }

    private init(_ buffer: UnsafeRawBufferPointer, ascii: ASCIILineBreakTable) {
        bytes = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
        count = buffer.count
        table = lineBreakPropertyTable
        self.ascii = ascii
    }

    @inline(__always) private static var mandatoryAfter: UInt64 { LineBreakClass.BK.bit | LineBreakClass.CR.bit | LineBreakClass.LF.bit | LineBreakClass.NL.bit }
    @inline(__always) private static var noAttach: UInt64 { LineBreakClass.BK.bit | LineBreakClass.CR.bit | LineBreakClass.LF.bit | LineBreakClass.NL.bit | LineBreakClass.SP.bit | LineBreakClass.ZW.bit }
    @inline(__always) private static var closing: UInt64 { LineBreakClass.CL.bit | LineBreakClass.CP.bit | LineBreakClass.EX.bit | LineBreakClass.IS.bit | LineBreakClass.SY.bit }
    @inline(__always) private static var alphabetic: UInt64 { LineBreakClass.AL.bit | LineBreakClass.HL.bit }
    @inline(__always) private static var prefixPostfix: UInt64 { LineBreakClass.PR.bit | LineBreakClass.PO.bit }
    @inline(__always) private static var ideographic: UInt64 { LineBreakClass.ID.bit | LineBreakClass.EB.bit | LineBreakClass.EM.bit }
    @inline(__always) private static var hangul: UInt64 { LineBreakClass.JL.bit | LineBreakClass.JV.bit | LineBreakClass.JT.bit | LineBreakClass.H2.bit | LineBreakClass.H3.bit }
    @inline(__always) private static var numericContinue: UInt64 { LineBreakClass.NU.bit | LineBreakClass.SY.bit | LineBreakClass.IS.bit }
    @inline(__always) private static var numericClose: UInt64 { LineBreakClass.CL.bit | LineBreakClass.CP.bit }

    mutating func next() -> LineBreakOpportunity? {
        guard let p = bytes, !finished else { return nil }
        while position < count {
            let start = position
            // A run of ASCII letters after a letter, or of ASCII digits after a digit:
            // LB28 and LB25 prohibit every break in it (as decide's fast paths do), and it
            // leaves the context one such scalar leaves.
            if start > 0 && lastScalar == last {
                if last.isIn(Self.alphabetic) {
                    let end = alphabeticRunEnd(p, from: start)
                    if end > start {
                        position = end
                        lastScalar = .AL
                        startUnit(.AL, Self.plain(.AL))
                        continue
                    }
                }
                if last == .NU && isASCIIDigit(p[start]) {
                    position = skip(p, from: start + 1, while: isASCIIDigit)
                    lastScalar = .NU
                    startUnit(.NU, Self.plain(.NU))
                    continue
                }
                // Any other ASCII scalar after a plain unit: the decision from a table
                // `decide` filled (see `makeASCIITable`).
                let b = p[start]
                if b < 0x80 && !hyphenAfterHL && !lastEastAsian && !last.isIn(Self.tableExcludedBefore) {
                    let decision = ascii.decisions[(Int(numeric) &* LineBreakIterator.classCount &+ Int(last.rawValue)) &<< 7 | Int(b)]
                    if decision != 0 {
                        let cls = ascii.classes[Int(b)]
                        position = start + 1
                        lastScalar = cls
                        startUnit(cls, Self.plain(cls))
                        if decision == 2 { return LineBreakOpportunity(offset: start, isMandatory: false) }
                        if decision == 3 { return LineBreakOpportunity(offset: start, isMandatory: true) }
                        continue
                    }
                }
            }
            let (scalar, length) = decodeValidUTF8(p, at: start)
            position += length
            let props = LineBreakProperties(table.value(scalar))
            if start == 0 {
                begin(props)  // LB2: never break at the start of text.
                continue
            }
            // Fast paths for the common pairs (letters, digits, spaces) after a unit that is
            // a scalar of its own; each gives the answer and context the rule chain in
            // `decide` gives.
            let cls = props.lineBreakClass
            if lastScalar == last {
                if (cls.isIn(Self.alphabetic) && last.isIn(Self.alphabetic))  // LB28 (no earlier rule allows)
                    || (cls == .NU && last == .NU)                            // LB25 (NU × NU)
                    || (cls == .SP && !last.isIn(Self.mandatoryAfter)) {      // LB7 (after LB4–LB6)
                    lastScalar = cls
                    startUnit(cls, props)
                    continue
                }
                if last == .SP && beforeSpaces != .OP && (cls.isIn(Self.alphabetic) || cls == .NU) {
                    // LB18 (LB8 allows too; LB11–LB17 prohibit only after OP SP* here).
                    lastScalar = cls
                    startUnit(cls, props)
                    return LineBreakOpportunity(offset: start, isMandatory: false)
                }
            }
            switch decide(props) {
            case .prohibited: continue
            case .allowed: return LineBreakOpportunity(offset: start, isMandatory: false)
            case .mandatory: return LineBreakOpportunity(offset: start, isMandatory: true)
            }
        }
        finished = true
        return count > 0 ? LineBreakOpportunity(offset: count, isMandatory: true) : nil  // LB3
    }

    private enum Decision { case prohibited, allowed, mandatory }

    static let classCount = 38
    /// Units before which `decide` reads more context than the unit's class and LB25's
    /// numeric state (spaces, LB25's look-ahead after PR/PO, regional indicator parity).
    static let tableExcludedBefore: UInt64 = LineBreakClass.SP.bit | LineBreakClass.PR.bit | LineBreakClass.PO.bit | LineBreakClass.RI.bit


    /// `decide`'s answer for an ASCII scalar after a unit that is a scalar of its own, by
    /// (numeric state, class of the unit, byte): 1 prohibited, 2 allowed, 3 mandatory, 0 not
    /// in the table (the unit's class is excluded, or the byte is a combining mark that
    /// would attach). Filled by running `decide` itself in each context, so the two cannot
    /// disagree; the context a table entry leaves is the one `startUnit` makes for the
    /// byte's class, as in `decide` for a scalar that does not attach.
    static func makeASCIITable() -> ASCIILineBreakTable {
        let classes = UnsafeMutablePointer<LineBreakClass>.allocate(capacity: 128)
        for b in 0..<128 { classes[b] = LineBreakProperties(lineBreakPropertyTable.value(UInt32(b))).lineBreakClass }
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 3 * classCount * 128)
        table.initialize(repeating: 0, count: 3 * classCount * 128)
        for numeric in 0..<3 {
            for raw in 0..<classCount {
                let before = LineBreakClass(rawValue: UInt8(raw))!
                guard !before.isIn(tableExcludedBefore) else { continue }
                for b in 0..<128 {
                    let cls = classes[b]
                    guard cls != .CM && cls != .ZWJ else { continue }
                    var it = LineBreakIterator(UnsafeRawBufferPointer(start: nil, count: 0), ascii: ASCIILineBreakTable(decisions: table, classes: classes))
                    it.lastScalar = before
                    it.last = before
                    it.numeric = UInt8(numeric)
                    let entry: UInt8
                    switch it.decide(plain(cls)) {
                    case .prohibited: entry = 1
                    case .allowed: entry = 2
                    case .mandatory: entry = 3
                    }
                    table[(numeric * classCount + raw) << 7 | b] = entry
                }
            }
        }
        return ASCIILineBreakTable(decisions: table, classes: classes)
    }

    @inline(__always) private static func plain(_ cls: LineBreakClass) -> LineBreakProperties { LineBreakProperties(cls.rawValue) }

    /// The end of the run from `i` of ASCII letters and two-byte scalars of class AL with
    /// no East Asian width or pictographic flag (Latin-1, Latin Extended, Greek, Cyrillic
    /// letters): the scalars LB28 keeps together after a letter.
    @inline(__always)
    private func alphabeticRunEnd(_ p: UnsafePointer<UInt8>, from i: Int) -> Int {
        var i = i
        while i < count {
            let b = p[i]
            if b < 0x80 {
                guard isASCIILetter(b) else { break }
                i += 1
            } else if b < 0xE0 && i + 1 < count {
                // A lead byte below 0xE0 in valid UTF-8 starts a two-byte sequence.
                let v = UInt32(b & 0x1F) << 6 | UInt32(p[i + 1] & 0x3F)
                guard table.value(v) == LineBreakClass.AL.rawValue else { break }
                i += 2
            } else {
                break
            }
        }
        return i
    }

    @inline(__always)
    private func skip(_ p: UnsafePointer<UInt8>, from i: Int, while test: (UInt8) -> Bool) -> Int {
        var i = i
        while i < count && test(p[i]) { i += 1 }
        return i
    }

    private mutating func begin(_ props: LineBreakProperties) {
        lastScalar = props.lineBreakClass
        let cls: LineBreakClass = (props.lineBreakClass == .CM || props.lineBreakClass == .ZWJ) ? .AL : props.lineBreakClass
        startUnit(cls, props)
    }

    /// Records a new unit of class `cls` (after LB10) as `last`.
    @inline(__always)
    private mutating func startUnit(_ cls: LineBreakClass, _ props: LineBreakProperties) {
        if cls == .SP {
            if last != .SP { beforeSpaces = last }
        }
        hyphenAfterHL = (cls == .HY || cls == .BA) && last == .HL
        oddRegionalIndicators = cls == .RI ? !(last == .RI && oddRegionalIndicators) : false
        if cls == .NU {
            numeric = 1
        } else if numeric == 1 && cls.isIn(Self.numericContinue) {
            numeric = 1
        } else if numeric == 1 && cls.isIn(Self.numericClose) {
            numeric = 2
        } else {
            numeric = 0
        }
        lastEastAsian = props.isEastAsianWide
        lastUnassignedPictographic = props.isUnassignedPictographic
        last = cls
    }

    /// Decides the position before a scalar with `props` (not at the start of text) and
    /// moves the context past it.
    private mutating func decide(_ props: LineBreakProperties) -> Decision {
        let scalarClass = props.lineBreakClass
        let previousScalar = lastScalar
        lastScalar = scalarClass

        // LB9: CM and ZWJ attach to the unit before, unless it is BK CR LF NL SP ZW; the
        // unit keeps its class and context. Otherwise LB10 makes them AL.
        let isMark = scalarClass == .CM || scalarClass == .ZWJ
        let attaches = isMark && !last.isIn(Self.noAttach)
        let before = last
        let cls: LineBreakClass = isMark ? .AL : scalarClass
        let beforeSpacesNow = beforeSpaces
        let odd = oddRegionalIndicators
        let afterHL = hyphenAfterHL
        let numericState = numeric
        let eastAsianBefore = lastEastAsian
        let pictographicBefore = lastUnassignedPictographic
        if !attaches { startUnit(cls, props) }

        // LB4, LB5
        if previousScalar == .BK || previousScalar == .LF || previousScalar == .NL { return .mandatory }
        if previousScalar == .CR { return scalarClass == .LF ? .prohibited : .mandatory }
        // LB6
        if scalarClass.isIn(Self.mandatoryAfter) { return .prohibited }
        // LB7
        if scalarClass == .SP || scalarClass == .ZW { return .prohibited }
        // LB8: ZW SP* ÷
        if before == .ZW || (before == .SP && beforeSpacesNow == .ZW) { return .allowed }
        // LB8a: ZWJ ×
        if previousScalar == .ZWJ { return .prohibited }
        // LB9
        if attaches { return .prohibited }

        let after = cls
        let spaceBase = before == .SP ? beforeSpacesNow : before  // X in "X SP*"
        // LB11
        if after == .WJ || before == .WJ { return .prohibited }
        // LB12
        if before == .GL { return .prohibited }
        // LB12a
        if after == .GL && before != .SP && before != .BA && before != .HY { return .prohibited }
        // LB13 (as tailored, `[^NU] ×`; after NU, LB25 gives the same answer)
        if after.isIn(Self.closing) { return .prohibited }
        // LB14: OP SP* ×
        if spaceBase == .OP { return .prohibited }
        // LB15: QU SP* × OP
        if after == .OP && spaceBase == .QU { return .prohibited }
        // LB16: (CL | CP) SP* × NS
        if after == .NS && (spaceBase == .CL || spaceBase == .CP) { return .prohibited }
        // LB17: B2 SP* × B2
        if after == .B2 && spaceBase == .B2 { return .prohibited }
        // LB18
        if before == .SP { return .allowed }
        // LB19
        if after == .QU || before == .QU { return .prohibited }
        // LB20
        if after == .CB || before == .CB { return .allowed }
        // LB21
        if after == .BA || after == .HY || after == .NS || before == .BB { return .prohibited }
        // LB21a: HL (HY | BA) ×
        if afterHL { return .prohibited }
        // LB21b
        if before == .SY && after == .HL { return .prohibited }
        // LB22
        if after == .IN { return .prohibited }
        // LB23
        if before.isIn(Self.alphabetic) && after == .NU { return .prohibited }
        if before == .NU && after.isIn(Self.alphabetic) { return .prohibited }
        // LB23a
        if before == .PR && after.isIn(Self.ideographic) { return .prohibited }
        if before.isIn(Self.ideographic) && after == .PO { return .prohibited }
        // LB24
        if before.isIn(Self.prefixPostfix) && after.isIn(Self.alphabetic) { return .prohibited }
        if before.isIn(Self.alphabetic) && after.isIn(Self.prefixPostfix) { return .prohibited }
        // LB25 (example 7 of UAX #14 section 8.2)
        if before.isIn(Self.prefixPostfix) {
            if after == .NU { return .prohibited }
            if (after == .OP || after == .HY) && nextUnitIsNumber() { return .prohibited }
        }
        if (before == .OP || before == .HY) && after == .NU { return .prohibited }
        if numericState == 1 && (after.isIn(Self.numericContinue) || after.isIn(Self.numericClose)) { return .prohibited }
        if numericState != 0 && after.isIn(Self.prefixPostfix) { return .prohibited }
        // LB26
        if before == .JL && (after == .JL || after == .JV || after == .H2 || after == .H3) { return .prohibited }
        if (before == .JV || before == .H2) && (after == .JV || after == .JT) { return .prohibited }
        if (before == .JT || before == .H3) && after == .JT { return .prohibited }
        // LB27
        if before.isIn(Self.hangul) && after == .PO { return .prohibited }
        if before == .PR && after.isIn(Self.hangul) { return .prohibited }
        // LB28
        if before.isIn(Self.alphabetic) && after.isIn(Self.alphabetic) { return .prohibited }
        // LB29
        if before == .IS && after.isIn(Self.alphabetic) { return .prohibited }
        // LB30
        if (before.isIn(Self.alphabetic) || before == .NU) && after == .OP && !props.isEastAsianWide { return .prohibited }
        if before == .CP && !eastAsianBefore && (after.isIn(Self.alphabetic) || after == .NU) { return .prohibited }
        // LB30a
        if before == .RI && after == .RI && odd { return .prohibited }
        // LB30b
        if after == .EM && (before == .EB || pictographicBefore) { return .prohibited }
        // LB31
        return .allowed
    }

    /// Whether the unit starting at `position` (skipping the CM/ZWJ that attach to the
    /// current scalar) is NU, for `(PR | PO) × (OP | HY) NU`.
    private func nextUnitIsNumber() -> Bool {
        guard let p = bytes else { return false }
        var i = position
        while i < count {
            let (scalar, length) = decodeValidUTF8(p, at: i)
            let cls = LineBreakProperties(table.value(scalar)).lineBreakClass
            if cls == .CM || cls == .ZWJ { i += length; continue }
            return cls == .NU
        }
        return false
    }
}

@inline(__always) func isASCIILetter(_ b: UInt8) -> Bool { (b | 0x20) &- 0x61 < 26 }
@inline(__always) func isASCIIDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }

/// `decide`'s answers for ASCII scalars and the ASCII classes, built once and kept for
/// the life of the process (immutable after that, so shared by all threads).
struct ASCIILineBreakTable: @unchecked Sendable {
    let decisions: UnsafePointer<UInt8>
    let classes: UnsafePointer<LineBreakClass>

    init(decisions: UnsafeMutablePointer<UInt8>, classes: UnsafeMutablePointer<LineBreakClass>) {
        self.decisions = UnsafePointer(decisions)
        self.classes = UnsafePointer(classes)
    }
}

let asciiLineBreakTable = LineBreakIterator.makeASCIITable()
