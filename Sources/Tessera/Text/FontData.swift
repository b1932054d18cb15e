/// A bounds-checked big-endian reader over a window of font bytes.
///
/// Every read of font data in Tessera goes through this type. A window is `start..<end` of
/// the shared byte array; offsets passed to the readers are relative to `start`, and a read
/// that would leave the window throws `TesseraError.malformedFont` naming `table` (the
/// OpenType table or subtable being read) instead of trapping. Offsets and lengths are `Int`
/// computed from at most 32-bit fields, so the arithmetic here cannot overflow on 64-bit
/// platforms; negative values are rejected like out-of-range ones.
struct FontData: Sendable {
    let bytes: [UInt8]
    /// Absolute position of offset 0 of this window within `bytes`.
    let start: Int
    /// Absolute end (exclusive) of the window.
    let end: Int
    /// What this window holds, for error messages ("GPOS PairPos", "cmap format 4", ...).
    let table: String

    init(bytes: [UInt8], table: String = "font") {
        self.bytes = bytes
        start = 0
        end = bytes.count
        self.table = table
    }

    private init(bytes: [UInt8], start: Int, end: Int, table: String) {
        self.bytes = bytes
        self.start = start
        self.end = end
        self.table = table
    }

    /// Bytes in the window.
    var count: Int { end - start }

    /// The error for a problem with this window's table.
    func error(_ problem: String) -> TesseraError {
        .malformedFont("\(table): \(problem)")
    }

    /// Throws unless `offset..<offset + length` lies inside the window.
    @inline(__always)
    func check(_ offset: Int, _ length: Int) throws(TesseraError) {
        guard offset >= 0, length >= 0, offset <= count, length <= count - offset else {
            throw error("\(length) bytes at offset \(offset) run past the end (\(count) bytes)")
        }
    }

    /// True when `offset..<offset + length` lies inside the window.
    @inline(__always)
    func contains(_ offset: Int, _ length: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= count && length <= count - offset
    }

    /// The sub-window `offset..<offset + length` (to the end of this window when `length`
    /// is nil), renamed `table` when given.
    func slice(_ offset: Int, length: Int? = nil, table: String? = nil) throws(TesseraError) -> FontData {
        let length = length ?? (count - max(offset, 0))
        try check(offset, length)
        return FontData(bytes: bytes, start: start + offset, end: start + offset + length, table: table ?? self.table)
    }

    /// The same window under another name.
    func named(_ table: String) -> FontData {
        FontData(bytes: bytes, start: start, end: end, table: table)
    }

    func u16(_ offset: Int) throws(TesseraError) -> UInt16 {
        try check(offset, 2)
        let p = start + offset
        return UInt16(bytes[p]) << 8 | UInt16(bytes[p + 1])
    }

    func i16(_ offset: Int) throws(TesseraError) -> Int16 {
        Int16(bitPattern: try u16(offset))
    }

    func u32(_ offset: Int) throws(TesseraError) -> UInt32 {
        try check(offset, 4)
        let p = start + offset
        return UInt32(bytes[p]) << 24 | UInt32(bytes[p + 1]) << 16 | UInt32(bytes[p + 2]) << 8 | UInt32(bytes[p + 3])
    }

    /// A 16-bit offset field at `offset`, as an Int.
    func offset16(_ offset: Int) throws(TesseraError) -> Int { Int(try u16(offset)) }

    /// A 32-bit offset field at `offset`, as an Int.
    func offset32(_ offset: Int) throws(TesseraError) -> Int { Int(try u32(offset)) }

    /// A 4-byte tag as text ("cmap").
    func tag(_ offset: Int) throws(TesseraError) -> String {
        let t = try u32(offset)
        return Self.tagString(t)
    }

    static func tagString(_ t: UInt32) -> String {
        var s = ""
        for shift in [24, 16, 8, 0] {
            let b = UInt8(truncatingIfNeeded: t >> UInt32(shift))
            s.unicodeScalars.append(Unicode.Scalar((32...126).contains(b) ? b : UInt8(ascii: "?")))
        }
        return s
    }

    static func tag(_ s: StaticString) -> UInt32 {
        var t: UInt32 = 0
        s.withUTF8Buffer { for b in $0 { t = t << 8 | UInt32(b) } }
        return t
    }

    /// Throws unless an array of `count` records of `size` bytes fits at `offset`.
    func checkArray(_ offset: Int, count: Int, size: Int, what: String) throws(TesseraError) {
        guard count >= 0, size >= 0, contains(offset, count * size) else {
            throw error("\(count) \(what) of \(size) bytes at offset \(offset) run past the end (\(self.count) bytes)")
        }
    }
}
