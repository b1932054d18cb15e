/// Grapheme_Cluster_Break property values (UAX #29, Unicode 15.0). The raw values are the
/// order of `GCB_VALUES` in `scripts/gen_unicode_tables.py`.
enum GraphemeBreakProperty: UInt8, Sendable {
    case other, cr, lf, control, extend, zwj, regionalIndicator, prepend, spacingMark
    case l, v, t, lv, lvt
}

/// Extended grapheme cluster boundaries per UAX #29 for Unicode 15.0 (`unicodeVersion`):
/// rules GB1–GB999 as of 15.0, i.e. GB3–GB9b, GB11 (emoji ZWJ sequences), GB12/GB13
/// (regional indicator pairs) and no GB9c (Indic conjuncts arrived in 15.1).
///
/// A result lists the end offset of each cluster: every boundary after the start of text,
/// so the last element is `count` and `result.count` is the number of clusters. Offset 0
/// (GB1) is not listed; empty text has no clusters and gives `[]`.
public enum GraphemeBreaking {
    /// The Unicode version of the tables and rules.
    public static let unicodeVersion = UnicodeTableData.unicodeVersion

    /// The UTF-8 byte offsets that end a grapheme cluster, in increasing order.
    /// - Throws: `TesseraError.invalidUTF8Text(byteOffset:)` with the offset of the first
    ///   byte of the first ill-formed sequence.
    public static func boundaries(in utf8: UnsafeRawBufferPointer) throws(TesseraError) -> [Int] {
        try validateUTF8Text(utf8)
        return collect(utf8)
    }

    /// The UTF-8 byte offsets that end a grapheme cluster of `bytes`, in increasing order.
    public static func boundaries(in bytes: [UInt8]) throws(TesseraError) -> [Int] {
        try bytes.withUnsafeBufferPointer { (buffer) throws(TesseraError) in try boundaries(in: UnsafeRawBufferPointer(buffer)) }
    }

    /// The offsets into `text.utf8` that end a grapheme cluster, in increasing order.
    public static func boundaries(in text: String) -> [Int] {
        if let result = text.utf8.withContiguousStorageIfAvailable({ collect(UnsafeRawBufferPointer($0)) }) {
            return result
        }
        return Array(text.utf8).withUnsafeBytes { collect($0) }
    }

    private static func collect(_ validUTF8: UnsafeRawBufferPointer) -> [Int] {
        var iterator = GraphemeBreakIterator(validUTF8: validUTF8)
        var result: [Int] = []
        while let next = iterator.next() { result.append(next) }
        return result
    }
}

/// Walks valid UTF-8 and yields the end offset of each grapheme cluster, without
/// allocating. The bytes must already be validated and stay unchanged while it is used.
struct GraphemeBreakIterator: IteratorProtocol {
    typealias Element = Int

    private let bytes: UnsafePointer<UInt8>?
    private let count: Int
    private let table: UnicodePropertyTable
    /// Offset of the next scalar to read.
    private(set) var position = 0
    private var finished = false

    private var last: GraphemeBreakProperty = .other
    /// The run of regional indicators ending at `last` has odd length (GB12, GB13).
    private var oddRegionalIndicators = false
    /// GB11: 1 after `ExtPict Extend*`, 2 after `ExtPict Extend* ZWJ`, else 0.
    private var emoji: UInt8 = 0

    init(validUTF8 buffer: UnsafeRawBufferPointer) {
        bytes = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
        count = buffer.count
        table = graphemePropertyTable
    }

    mutating func next() -> Int? {
        guard let p = bytes, !finished else { return nil }
        // Fast path: after an Other scalar (not in an emoji sequence), a printable ASCII
        // scalar (Other, not pictographic) starts a new cluster (GB999).
        if last == .other && emoji == 0 && position > 0 && position < count {
            let b = p[position]
            if b >= 0x20 && b < 0x7F {
                let start = position
                position += 1
                oddRegionalIndicators = false
                return start
            }
        }
        while position < count {
            let start = position
            let (scalar, length) = decodeValidUTF8(p, at: start)
            position += length
            let byte = table.value(scalar)
            let property = GraphemeBreakProperty(rawValue: byte & 0x0F).unsafelyUnwrapped
            let pictographic = byte & 0x80 != 0
            let breaks = start != 0 && isBoundary(before: property, pictographic: pictographic)  // GB1
            // Move the context past this scalar.
            oddRegionalIndicators = property == .regionalIndicator && !(last == .regionalIndicator && oddRegionalIndicators)
            if pictographic {
                emoji = 1
            } else if emoji == 1 && property == .extend {
                emoji = 1
            } else if emoji == 1 && property == .zwj {
                emoji = 2
            } else {
                emoji = 0
            }
            last = property
            if breaks { return start }
        }
        finished = true
        return count > 0 ? count : nil  // GB2
    }

    /// The rules between `last` (and its context) and the next scalar.
    private func isBoundary(before property: GraphemeBreakProperty, pictographic: Bool) -> Bool {
        let before = last
        let after = property
        switch (before, after) {
        case (.cr, .lf): return false                                   // GB3
        case (.control, _), (.cr, _), (.lf, _): return true             // GB4
        case (_, .control), (_, .cr), (_, .lf): return true             // GB5
        case (.l, .l), (.l, .v), (.l, .lv), (.l, .lvt): return false    // GB6
        case (.lv, .v), (.lv, .t), (.v, .v), (.v, .t): return false     // GB7
        case (.lvt, .t), (.t, .t): return false                         // GB8
        case (_, .extend), (_, .zwj): return false                      // GB9
        case (_, .spacingMark): return false                            // GB9a
        case (.prepend, _): return false                                // GB9b
        case (.zwj, _) where pictographic && emoji == 2: return false   // GB11
        case (.regionalIndicator, .regionalIndicator): return !oddRegionalIndicators  // GB12, GB13
        default: return true                                            // GB999
        }
    }
}
