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

    /// The automaton, read once per iterator rather than through the global (whose lazy
    /// initialisation check would run per scalar).
    private let automaton: LineBreakAutomaton
    /// False only in tests, to check the automaton against `decide` alone.
    private let usesAutomaton: Bool
    /// The automaton's state while it holds the context (the fields above are stale
    /// then), -1 while the fields do.
    private var state: Int16 = -1

    init(validUTF8 buffer: UnsafeRawBufferPointer, usesAutomaton: Bool = true) {
        self.init(buffer, automaton: lineBreakAutomaton, usesAutomaton: usesAutomaton)
    }

    private init(_ buffer: UnsafeRawBufferPointer, automaton: LineBreakAutomaton, usesAutomaton: Bool) {
        bytes = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
        count = buffer.count
        table = lineBreakPropertyTable
        self.automaton = automaton
        self.usesAutomaton = usesAutomaton
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
        var found: LineBreakOpportunity? = nil
        scan { opportunity in
            found = opportunity
            return false
        }
        return found
    }

    /// Calls `body` with each remaining opportunity in order (one call for a whole text,
    /// so a caller's loop keeps its state in registers).
    @inline(__always)
    mutating func forEach(_ body: (LineBreakOpportunity) -> Void) {
        scan { opportunity in
            body(opportunity)
            return true
        }
    }

    /// Walks the text, handing each opportunity to `emit` until it returns false (the walk
    /// then stops right after that opportunity) or the text ends.
    @inline(__always)
    private mutating func scan(_ emit: (LineBreakOpportunity) -> Bool) {
        guard let p = bytes, !finished else { return }
        while position < count {
            if state >= 0 {
                // Scalars whose decision the automaton knows, in a tight loop; it stops at
                // an opportunity or before a scalar it leaves to `decide`.
                let transitions = automaton.transitions, properties = automaton.properties
                var s = Int(state), i = position
                while i < count {
                    // Letters after a letter (LB28), most of every Latin, Greek or Cyrillic
                    // text: ASCII eight at a time, two-byte letters one by one.
                    if s == LineBreakAutomaton.letterState {
                        while i < count {
                            if i + 8 <= count {
                                let letters = asciiLetterBytes(UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self))
                                i += letters
                                if letters == 8 { continue }
                            }
                            let b = p[i]
                            if b < 0x80 {
                                guard (b | 0x20) &- 0x61 < 26 else { break }
                                i += 1
                            } else if b < 0xE0 && properties[Int(b & 0x1F) &<< 6 | Int(p[i + 1] & 0x3F)] == LineBreakAutomaton.letter {
                                i += 2
                            } else {
                                break
                            }
                        }
                        guard i < count else { break }
                    }
                    let b = p[i]
                    var symbol: Int, length = 1
                    if b < 0x80 {
                        symbol = Int(properties[Int(b)])
                    } else if b < 0xE0 {
                        symbol = Int(properties[Int(b & 0x1F) &<< 6 | Int(p[i + 1] & 0x3F)])
                        length = 2
                    } else {
                        let (scalar, n) = decodeValidUTF8(p, at: i)
                        symbol = Int(table.value(scalar))
                        length = n
                    }
                    let entry = symbol < LineBreakAutomaton.symbolCount ? transitions[s &* LineBreakAutomaton.symbolCount &+ symbol] : 0
                    if entry == 0 { break }
                    s = Int(entry &>> 2)
                    i += length
                    if entry & 2 != 0 && !emit(LineBreakOpportunity(offset: i - length, isMandatory: entry & 3 == 3)) {
                        position = i
                        state = Int16(truncatingIfNeeded: s)
                        return
                    }
                }
                position = i
                guard i < count else {
                    state = Int16(truncatingIfNeeded: s)
                    break
                }
                leaveAutomaton(s)
            }
            let start = position
            let (scalar, length) = decodeValidUTF8(p, at: start)
            position += length
            let props = LineBreakProperties(table.value(scalar))
            let decision: Decision
            if start == 0 {
                begin(props)  // LB2: never break at the start of text.
                decision = .prohibited
            } else {
                decision = decide(props)
            }
            if usesAutomaton { state = automatonState().map { Int16($0) } ?? -1 }
            if decision != .prohibited && !emit(LineBreakOpportunity(offset: start, isMandatory: decision == .mandatory)) { return }
        }
        finished = true
        if count > 0 { _ = emit(LineBreakOpportunity(offset: count, isMandatory: true)) }  // LB3
    }

    /// The automaton state of the context, or nil when the context holds more than it
    /// records (see `LineBreakAutomaton`).
    @inline(__always)
    private func automatonState() -> Int? {
        guard lastScalar == last, !hyphenAfterHL, !lastUnassignedPictographic,
              !last.isIn(LineBreakAutomaton.excluded) else { return nil }
        let eastAsian = lastEastAsian ? 1 : 0
        if last == .SP {
            guard !beforeSpaces.isIn(LineBreakAutomaton.excluded) else { return nil }
            return LineBreakAutomaton.spaceStates + Int(beforeSpaces.rawValue) &* 2 + eastAsian
        }
        return (Int(numeric) &* LineBreakClass.count + Int(last.rawValue)) &* 2 + eastAsian
    }

    /// Writes automaton state `s` back into the context fields, for `decide`.
    @inline(__always)
    private mutating func leaveAutomaton(_ s: Int) {
        state = -1
        let last = automaton.lastClass[s]
        self.last = last
        lastScalar = last
        numeric = automaton.numeric[s]
        lastEastAsian = s & 1 != 0
        if last == .SP { beforeSpaces = automaton.beforeSpaces[s] }
        oddRegionalIndicators = false
    }

    private enum Decision { case prohibited, allowed, mandatory }

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

/// `decide` as a table, for the scalars whose decision depends on no more context than
/// the class of the unit before (a scalar of its own), LB25's numeric state, the unit
/// before a run of spaces, and whether the unit before is East Asian wide. A state
/// encodes that context; a symbol is a scalar's property byte (class and East Asian flag;
/// unassigned pictographs have bit 7 set and stay out). Classes that need more — CM and
/// ZWJ attach (LB9), RI counts pairs (LB30a), HL feeds LB21a, PR and PO look ahead (LB25)
/// — are `excluded`: as a symbol, as the unit before, and before spaces. Filled by running
/// `decide` itself from every state on every symbol, so the two cannot disagree; built
/// once and kept for the life of the process (immutable, shared by all threads).
struct LineBreakAutomaton: @unchecked Sendable {
    static let excluded: UInt64 = LineBreakClass.CM.bit | LineBreakClass.ZWJ.bit | LineBreakClass.RI.bit
        | LineBreakClass.HL.bit | LineBreakClass.PR.bit | LineBreakClass.PO.bit
    static let symbolCount = 128
    /// States `(numeric * classes + last) * 2 + eastAsian` for a unit other than SP, then
    /// `spaceStates + beforeSpaces * 2 + eastAsian` after spaces (numeric is 0 there).
    static let spaceStates = 3 * LineBreakClass.count * 2
    static let stateCount = spaceStates + LineBreakClass.count * 2
    /// After a letter (AL, numeric state 0, not East Asian wide).
    static let letterState = Int(LineBreakClass.AL.rawValue) * 2
    /// The property byte of a letter that is not East Asian wide.
    static let letter = LineBreakClass.AL.rawValue

    /// `transitions[state * symbolCount + symbol]`: next state << 2 | decision (1
    /// prohibited, 2 allowed, 3 mandatory); 0 leaves the scalar to `decide`.
    let transitions: UnsafePointer<UInt16>
    /// The property byte of each scalar below U+0800 (one and two UTF-8 bytes).
    let properties: UnsafePointer<UInt8>
    /// Context of each state.
    let lastClass: UnsafePointer<LineBreakClass>
    let numeric: UnsafePointer<UInt8>
    let beforeSpaces: UnsafePointer<LineBreakClass>
}

extension LineBreakIterator {
    static func makeAutomaton() -> LineBreakAutomaton {
        typealias A = LineBreakAutomaton
        let properties = UnsafeMutablePointer<UInt8>.allocate(capacity: 0x800)
        for v in 0..<0x800 { properties[v] = lineBreakPropertyTable.value(UInt32(v)) }
        let lastClass = UnsafeMutablePointer<LineBreakClass>.allocate(capacity: A.stateCount)
        let numeric = UnsafeMutablePointer<UInt8>.allocate(capacity: A.stateCount)
        let beforeSpaces = UnsafeMutablePointer<LineBreakClass>.allocate(capacity: A.stateCount)
        lastClass.initialize(repeating: .AL, count: A.stateCount)
        numeric.initialize(repeating: 0, count: A.stateCount)
        beforeSpaces.initialize(repeating: .AL, count: A.stateCount)
        let transitions = UnsafeMutablePointer<UInt16>.allocate(capacity: A.stateCount * A.symbolCount)
        transitions.initialize(repeating: 0, count: A.stateCount * A.symbolCount)
        let automaton = A(
            transitions: transitions, properties: properties, lastClass: lastClass, numeric: numeric, beforeSpaces: beforeSpaces)

        // Every context the automaton records, as an iterator in that context.
        var contexts: [(state: Int, iterator: LineBreakIterator)] = []
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        for raw in 0..<LineBreakClass.count {
            let cls = LineBreakClass(rawValue: UInt8(raw))!
            guard !cls.isIn(A.excluded) else { continue }
            for eastAsian in [false, true] {
                var it = LineBreakIterator(empty, automaton: automaton, usesAutomaton: false)
                it.lastEastAsian = eastAsian
                if cls == .SP {
                    // Spaces after each unit: the run keeps the unit before it, so that
                    // unit is never SP itself, and the numeric state is 0.
                    for rawBefore in 0..<LineBreakClass.count where rawBefore != Int(LineBreakClass.SP.rawValue) {
                        it.last = .SP
                        it.lastScalar = .SP
                        it.beforeSpaces = LineBreakClass(rawValue: UInt8(rawBefore))!
                        if let s = it.automatonState() { contexts.append((s, it)) }
                    }
                    continue
                }
                it.last = cls
                it.lastScalar = cls
                for n in 0..<3 {
                    it.numeric = UInt8(n)
                    if let s = it.automatonState() { contexts.append((s, it)) }
                }
            }
        }
        for (state, it) in contexts {
            lastClass[state] = it.last
            numeric[state] = it.numeric
            beforeSpaces[state] = it.beforeSpaces
        }
        for (state, context) in contexts {
            for symbol in 0..<A.symbolCount {
                // Bits 0-5 are the class; values past the last class are not symbols.
                guard symbol & 0x3F < LineBreakClass.count else { continue }
                let props = LineBreakProperties(UInt8(symbol))
                guard !props.lineBreakClass.isIn(A.excluded) else { continue }
                var it = context
                let entry: UInt16
                switch it.decide(props) {
                case .prohibited: entry = 1
                case .allowed: entry = 2
                case .mandatory: entry = 3
                }
                guard let next = it.automatonState() else { continue }
                transitions[state * A.symbolCount + symbol] = UInt16(next) << 2 | entry
            }
        }
        return automaton
    }
}

let lineBreakAutomaton = LineBreakIterator.makeAutomaton()

/// How many of the eight bytes of `word` (in memory order) are ASCII letters before the
/// first that is not.
@inline(__always)
func asciiLetterBytes(_ word: UInt64) -> Int {
    let high: UInt64 = 0x8080_8080_8080_8080
    let lower = word | 0x2020_2020_2020_2020
    // Per byte, with bit 7 clear (so no carry crosses bytes): x + 0x1F sets bit 7 when
    // x >= 0x61 ('a'), x + 0x05 when x >= 0x7B (past 'z').
    let letters = (lower &+ 0x1F1F_1F1F_1F1F_1F1F) & ~(lower &+ 0x0505_0505_0505_0505) & ~word & high
    return (~letters & high).trailingZeroBitCount >> 3
}
