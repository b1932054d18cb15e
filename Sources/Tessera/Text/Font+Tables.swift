/// The table directory of one face: an sfnt offset table, reached directly or through a
/// `ttcf` collection header.
struct TableDirectory {
    let file: FontData
    /// tag → (offset, length), first record wins for duplicated tags.
    private var records: [UInt32: (offset: Int, length: Int)] = [:]

    init(_ file: FontData, faceIndex: Int) throws(TesseraError) {
        self.file = file
        guard file.count >= 12 else {
            throw .malformedFont("table directory: \(file.count) bytes is too short for a font")
        }
        var base = 0
        let first = try file.u32(0)
        if first == FontData.tag("ttcf") {
            let header = file.named("ttcf header")
            let major = try header.u16(4)
            guard major == 1 || major == 2 else { throw header.error("unknown version \(major)") }
            let numFonts = Int(try header.u32(8))
            try header.checkArray(12, count: numFonts, size: 4, what: "face offsets")
            guard faceIndex >= 0, faceIndex < numFonts else {
                throw header.error("face index \(faceIndex) outside 0..<\(numFonts)")
            }
            base = try header.offset32(12 + 4 * faceIndex)
        } else if faceIndex != 0 {
            throw .malformedFont("table directory: face index \(faceIndex) requested from a single-face font")
        }
        let dir = try file.slice(base, table: "table directory")
        let version = try dir.u32(0)
        guard version == 0x0001_0000 || version == FontData.tag("OTTO") || version == FontData.tag("true") else {
            throw dir.error("sfnt version 0x\(String(version, radix: 16)) is not TrueType or OpenType")
        }
        let numTables = Int(try dir.u16(4))
        guard numTables > 0 else { throw dir.error("no tables") }
        try dir.checkArray(12, count: numTables, size: 16, what: "table records")
        for i in 0..<numTables {
            let r = 12 + 16 * i
            let tag = try dir.u32(r)
            if records[tag] != nil { continue }
            records[tag] = (try dir.offset32(r + 8), try dir.offset32(r + 12))
        }
    }

    /// The window of table `tag`, nil when the font has no such table; throws when the
    /// record points outside the file.
    func table(_ tag: StaticString) throws(TesseraError) -> FontData? {
        let t = FontData.tag(tag)
        guard let (offset, length) = records[t] else { return nil }
        let name = "\(tag)"
        guard file.contains(offset, length) else {
            throw .malformedFont("\(name): table at offset \(offset) of \(length) bytes runs past the end of the file (\(file.count) bytes)")
        }
        return try file.slice(offset, length: length, table: name)
    }

    func required(_ tag: StaticString) throws(TesseraError) -> FontData {
        guard let t = try table(tag) else { throw .malformedFont("\(tag): table missing") }
        return t
    }
}

/// `head`, `hhea`, `maxp`, `OS/2` and `hmtx`.
struct BasicTables {
    var unitsPerEm = 0
    var glyphCount = 0
    var hhea = FontMetrics(ascender: 0, descender: 0, lineGap: 0)
    var typo: FontMetrics?
    var winAscent: Int?
    var winDescent: Int?
    var useTypoMetrics = false
    var advances: [UInt16] = []

    init(_ directory: TableDirectory) throws(TesseraError) {
        let head = try directory.required("head")
        let headMajor = try head.u16(0)
        guard headMajor == 1 else { throw head.error("unknown version \(headMajor)") }
        let magic = try head.u32(12)
        guard magic == 0x5F0F_3CF5 else { throw head.error("bad magic number 0x\(String(magic, radix: 16))") }
        unitsPerEm = Int(try head.u16(18))
        guard (16...16384).contains(unitsPerEm) else { throw head.error("unitsPerEm \(unitsPerEm) outside 16...16384") }

        let maxp = try directory.required("maxp")
        glyphCount = Int(try maxp.u16(4))
        guard glyphCount > 0 else { throw maxp.error("numGlyphs is 0") }

        let hheaTable = try directory.required("hhea")
        let hheaMajor = try hheaTable.u16(0)
        guard hheaMajor == 1 else { throw hheaTable.error("unknown version \(hheaMajor)") }
        hhea = FontMetrics(
            ascender: Int(try hheaTable.i16(4)),
            descender: Int(try hheaTable.i16(6)),
            lineGap: Int(try hheaTable.i16(8)))
        let longMetrics = Int(try hheaTable.u16(34))
        guard longMetrics > 0 else { throw hheaTable.error("numberOfHMetrics is 0") }
        guard longMetrics <= glyphCount else {
            throw hheaTable.error("numberOfHMetrics \(longMetrics) exceeds maxp numGlyphs \(glyphCount)")
        }

        if let os2 = try directory.table("OS/2"), os2.count >= 78 {
            let fsSelection = try os2.u16(62)
            useTypoMetrics = fsSelection & 0x80 != 0
            typo = FontMetrics(
                ascender: Int(try os2.i16(68)),
                descender: Int(try os2.i16(70)),
                lineGap: Int(try os2.i16(72)))
            winAscent = Int(try os2.u16(74))
            winDescent = Int(try os2.u16(76))
        }

        // hmtx: numberOfHMetrics (advance, lsb) pairs, then one lsb per remaining glyph; the
        // last advance repeats for those.
        let hmtx = try directory.required("hmtx")
        try hmtx.checkArray(0, count: longMetrics, size: 4, what: "long horizontal metrics")
        advances = [UInt16](repeating: 0, count: glyphCount)
        for g in 0..<longMetrics { advances[g] = try hmtx.u16(4 * g) }
        let last = advances[longMetrics - 1]
        for g in longMetrics..<glyphCount { advances[g] = last }
    }

    /// See `Font.metrics`.
    var chosenMetrics: FontMetrics {
        if useTypoMetrics, let typo { return typo }
        if hhea.ascender != 0 || hhea.descender != 0 { return hhea }
        if let typo, typo.ascender != 0 || typo.descender != 0 { return typo }
        if let winAscent, let winDescent { return FontMetrics(ascender: winAscent, descender: -winDescent, lineGap: 0) }
        return hhea
    }
}
