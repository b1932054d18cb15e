import Testing
@testable import Tessera

@Suite struct PrintableASCIITests {
    /// The ASCII tables give exactly the sum `Font.unscaledWidth` computes (advances and
    /// pair kerning), for random printable strings in Roboto and DejaVu Sans.
    @Test func tablesAgreeWithTheFontWalk() throws {
        var rng = SplitMix64(seed: 0xA5C11)
        for font in [LayoutFonts.chain[0], try Font(path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")] {
            let ascii = try #require(font.printableASCII)
            for _ in 0..<2000 {
                let bytes = (0..<rng.int(0...24)).map { _ in UInt8(rng.int(0x20...0x7E)) }
                let walked = bytes.withUnsafeBytes { font.unscaledWidth(validUTF8: $0) }
                let table = bytes.withUnsafeBufferPointer { ascii.unscaledWidth($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, $0.count) }
                #expect(table == walked, "\(String(decoding: bytes, as: UTF8.self))")
            }
            #expect([UInt8(0x19), 0x7F, 0xC3].allSatisfy { b in [b].withUnsafeBufferPointer { ascii.unscaledWidth($0.baseAddress!, 1) == nil } })
        }
    }

    /// With letter spacing, a segment's widths from the tables are the font walk's sum at
    /// the size plus the spacing once per byte (a printable ASCII byte is a cluster), for
    /// the content and for the trailing spaces apart, each rounded to Float once: what a
    /// letter-spaced run measures through the fallback itemizer.
    @Test(arguments: [0.0, 0.15, -0.4, 1.25])
    func letterSpacedSegmentsAddTheSpacingPerByte(letterSpacing: Double) throws {
        var rng = SplitMix64(seed: 0x5E9A)
        let font = LayoutFonts.chain[0]
        let ascii = try #require(font.printableASCII)
        let size = 15.0, em = Double(font.unitsPerEm)
        let tables = PrintableASCIITables(pairAdvances: ascii.pairAdvances, size: size, unitsPerEm: em, letterSpacing: letterSpacing)
        for _ in 0..<2000 {
            let content = (0..<rng.int(0...12)).map { _ in UInt8(rng.int(0x21...0x7E)) }
            let spaces = [UInt8](repeating: 0x20, count: rng.int(0...3))
            let bytes = content + spaces
            guard !bytes.isEmpty else { continue }
            func expected(_ run: [UInt8]) -> Float {
                guard !run.isEmpty else { return 0 }
                let units = run.withUnsafeBytes { font.unscaledWidth(validUTF8: $0) }
                let width = Double(units) * size / em
                return Float(letterSpacing == 0 ? width : width + letterSpacing * Double(run.count))
            }
            let m = try #require(bytes.withUnsafeBufferPointer { tables.measure($0.baseAddress!, $0.count) })
            #expect(m.width == expected(content) && m.whitespaceWidth == expected(spaces) && m.contentLength == content.count,
                    "\(String(decoding: bytes, as: UTF8.self))")
        }
    }
}
