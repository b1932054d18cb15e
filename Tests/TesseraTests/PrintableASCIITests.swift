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
}
