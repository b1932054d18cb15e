/// Strict UTF-8 validation (Unicode Table 3-7: no overlongs, no surrogates, nothing past
/// U+10FFFF). Returns the offset of the first byte that does not start or continue a valid
/// sequence, or nil when all bytes are valid.
func firstInvalidUTF8Byte(_ bytes: UnsafeRawBufferPointer) -> Int? {
    let n = bytes.count
    guard n > 0, let base = bytes.baseAddress else { return nil }
    let p = base.assumingMemoryBound(to: UInt8.self)
    var i = 0
    while i < n {
        // Eight bytes at a time: past them when all are ASCII, else to the first that is not.
        if i + 8 <= n {
            let high = base.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080
            if high == 0 {
                i += 8
                continue
            }
            i += high.trailingZeroBitCount >> 3
        }
        let b0 = p[i]
        if b0 < 0x80 { i += 1; continue }
        // Two-byte sequences (Latin, Greek, Cyrillic letters) first, a run of them at once:
        // a lead C2–DF and one continuation byte each.
        if b0 &- 0xC2 < 0x1E && i + 1 < n && p[i + 1] & 0xC0 == 0x80 {
            i += 2
            while i + 1 < n && p[i] &- 0xC2 < 0x1E && p[i + 1] & 0xC0 == 0x80 { i += 2 }
            continue
        }
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch b0 {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xED: length = 3; high = 0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0: length = 4; low = 0x90
        case 0xF4: length = 4; high = 0x8F
        case 0xF1...0xF3: length = 4
        default: return i
        }
        guard i + length <= n else { return i }
        let b1 = p[i + 1]
        guard b1 >= low, b1 <= high else { return i }
        for k in 2..<length where p[i + k] & 0xC0 != 0x80 { return i }
        i += length
    }
    return nil
}
