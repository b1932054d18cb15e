/// Decodes the scalar starting at `i` in bytes already checked by `firstInvalidUTF8Byte`.
/// Returns the scalar value and the length of its encoding (1...4).
@inline(__always)
func decodeValidUTF8(_ p: UnsafePointer<UInt8>, at i: Int) -> (scalar: UInt32, length: Int) {
    let b0 = UInt32(p[i])
    if b0 < 0x80 { return (b0, 1) }
    let b1 = UInt32(p[i + 1]) & 0x3F
    if b0 < 0xE0 { return ((b0 & 0x1F) << 6 | b1, 2) }
    let b2 = UInt32(p[i + 2]) & 0x3F
    if b0 < 0xF0 { return ((b0 & 0x0F) << 12 | b1 << 6 | b2, 3) }
    let b3 = UInt32(p[i + 3]) & 0x3F
    return ((b0 & 0x07) << 18 | b1 << 12 | b2 << 6 | b3, 4)
}

/// Throws `invalidUTF8Text` with the offset of the first byte that does not start or
/// continue a valid sequence (the lead byte of a truncated or malformed sequence).
@inline(__always)
func validateUTF8Text(_ bytes: UnsafeRawBufferPointer) throws(TesseraError) {
    if let bad = firstInvalidUTF8Byte(bytes) { throw .invalidUTF8Text(byteOffset: bad) }
}
