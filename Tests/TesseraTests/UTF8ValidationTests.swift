import Testing
import Tessera

/// Where the standard library's UTF-8 decoder first fails on `bytes`: the bytes of the
/// scalars it decoded before its first error. Nil when it decodes everything.
func referenceFirstInvalidByte(_ bytes: [UInt8]) -> Int? {
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    var offset = 0
    while true {
        switch decoder.decode(&iterator) {
        case .scalarValue(let scalar): offset += UTF8.width(scalar)
        case .emptyInput: return nil
        case .error: return offset
        }
    }
}

/// Strict UTF-8 validation (Unicode Table 3-7) through the public API, against the
/// standard library: `String(validating:as:)` says valid or not, its decoder says where
/// the first bad sequence starts.
@Suite struct UTF8ValidationTests {
    /// Invalid: overlong forms, surrogates, scalars past U+10FFFF, truncated sequences,
    /// lone continuation bytes, bytes that never appear. Valid: every boundary scalar.
    static let crafted: [[UInt8]] = [
        [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF], [0xF0, 0x80, 0x80, 0x80],
        [0xF0, 0x8F, 0xBF, 0xBF], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xED, 0xB0, 0x80],
        [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xF7, 0xBF, 0xBF, 0xBF], [0xF8, 0x88, 0x80, 0x80, 0x80],
        [0xFC, 0x84, 0x80, 0x80, 0x80, 0x80], [0xFE], [0xFF], [0x80], [0xBF], [0x80, 0x80],
        [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xC3, 0x41], [0xE2, 0x41, 0xAC], [0xE2, 0x82, 0x41],
        [0xF0, 0x9F, 0x41, 0x80], [0xF0, 0x9F, 0x98, 0x41], [0xC3, 0xA9, 0xA9], [0xE2, 0x82, 0xAC, 0x80],
        [0x7F], [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xEF, 0xBF, 0xBF], [0xED, 0x9F, 0xBF],
        [0xEE, 0x80, 0x80], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0xF1, 0x80, 0x80, 0x80],
        [0xEF, 0xBB, 0xBF], [0x00], [],
    ]

    /// Through the store: the bytes go into slot `slot` of row `row` of a three-row
    /// batch whose other slots are valid; an invalid slot must reject the batch with its
    /// row, slot and the offset of the first bad byte within the slot, a valid one must
    /// round-trip.
    static func check(_ bytes: [UInt8], _ store: inout RowStore, row: Int, slot: Int, _ c: Checker) {
        let expected = referenceFirstInvalidByte(bytes)
        c.check((expected == nil) == (String(validating: bytes, as: UTF8.self) != nil), "the two references disagree on \(bytes)")
        var utf8: [UInt8] = [], offsets = [0]
        for r in 0..<3 {
            for s in 0..<2 {
                utf8 += r == row && s == slot ? bytes : Array(sampleTexts[(r * 2 + s) % sampleTexts.count].utf8)
                offsets.append(utf8.count)
            }
        }
        let countBefore = store.count
        let base = UInt64(countBefore) * 3 + 1
        let error = thrownError {
            try store.append(ids: [base, base + 1, base + 2], kinds: [0, 0, 0], text: RowText(utf8: utf8, slotsPerRow: 2, offsets: offsets))
        }
        let hex = bytes.map { String($0, radix: 16) }.joined(separator: " ")
        if let bad = expected {
            c.equal(error, .invalidUTF8(row: row, slot: slot, byteOffset: bad), "[\(hex)] in row \(row) slot \(slot)")
            c.equal(store.count, countBefore, "rows after a rejected batch")
        } else {
            c.equal(error, nil, "valid [\(hex)]")
            let stored = (try? store.text(ofRow: countBefore + row, slot: slot)).map { Array($0.utf8) }
            c.equal(stored, bytes, "round trip of [\(hex)]")
        }
    }

    @Test func craftedSequencesAtEveryAlignment() {
        var store = makeStore([10], pageCapacity: 8, treeFanout: 4)
        let c = Checker("crafted")
        var rng = SplitMix64(seed: 8)
        // ASCII before the sequence (0...17 bytes, across the 8-byte fast path) and
        // nothing, ASCII or a valid multi-byte scalar after it.
        for sequence in Self.crafted {
            for prefix in 0...17 {
                for suffix in [[], Array("xyz0123456789".utf8), Array("é€😀".utf8)] {
                    let bytes = Array(repeating: UInt8(ascii: "a"), count: prefix) + sequence + suffix
                    Self.check(bytes, &store, row: rng.below(3), slot: rng.below(2), c)
                    if store.count > 3_000 { store.removeAll() }
                }
            }
        }
        // Every pair of crafted sequences, in both orders.
        for a in Self.crafted {
            for b in Self.crafted {
                Self.check(a + b, &store, row: rng.below(3), slot: rng.below(2), c)
                if store.count > 3_000 { store.removeAll() }
            }
        }
        store._checkInvariants()
    }

    @Test(arguments: 1...4)
    func randomSequences(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &* 0xC0FFEE)
        var store = makeStore([10], pageCapacity: 8, treeFanout: 4)
        let c = Checker("seed \(seed)")
        var invalid = 0
        for i in 0..<6_000 {
            c.context = "seed \(seed), sequence \(i)"
            var bytes: [UInt8]
            switch rng.below(4) {
            case 0:
                // Random bytes, biased to the interesting high range.
                bytes = (0..<rng.int(0...24)).map { _ in rng.chance(0.5) ? rng.byte() | 0x80 : rng.byte() }
            case 1:
                // Random scalars (valid), encoded by the standard library.
                var s = String.UnicodeScalarView()
                for _ in 0..<rng.int(0...12) {
                    let v = UInt32(rng.pick([0x80, 0x800, 0x10000, 0x110000]))
                    if let scalar = Unicode.Scalar(UInt32(rng.below(Int(v)))) { s.append(scalar) }
                }
                bytes = Array(String(s).utf8)
            default:
                // A valid text with one mutation: a byte replaced, removed or inserted, or cut short.
                bytes = Array((rng.pick(sampleTexts) + rng.pick(sampleTexts)).utf8)
                if !bytes.isEmpty {
                    let at = rng.below(bytes.count)
                    switch rng.below(4) {
                    case 0: bytes[at] = rng.byte()
                    case 1: bytes.remove(at: at)
                    case 2: bytes.insert(rng.byte() | 0x80, at: at)
                    default: bytes.removeSubrange(at...)
                    }
                }
            }
            if referenceFirstInvalidByte(bytes) != nil { invalid += 1 }
            Self.check(bytes, &store, row: rng.below(3), slot: rng.below(2), c)
            guard c.ok else { return }
            if store.count > 3_000 { store.removeAll() }
        }
        store._checkInvariants()
        // Both outcomes were exercised plenty.
        #expect(invalid > 1_500 && invalid < 4_500, "\(invalid) invalid of 6000")
    }
}
