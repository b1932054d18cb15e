import Testing
import Tessera

/// Opportunities written compactly: offset, with "!" for a mandatory one.
private func lineBreaks(_ text: String) -> [String] {
    LineBreaking.opportunities(in: text).map(\.description)
}

@Suite("Line breaking and grapheme clusters: edge cases and bad input")
struct TextSegmentationEdgeCaseTests {
    @Test("empty text has no opportunities and no clusters")
    func emptyText() throws {
        #expect(LineBreaking.opportunities(in: "").isEmpty)
        #expect(try LineBreaking.opportunities(in: [UInt8]()).isEmpty)
        #expect(try LineBreaking.opportunities(in: UnsafeRawBufferPointer(start: nil, count: 0)).isEmpty)
        #expect(GraphemeBreaking.boundaries(in: "").isEmpty)
        #expect(try GraphemeBreaking.boundaries(in: UnsafeRawBufferPointer(start: nil, count: 0)).isEmpty)
    }

    @Test("spaces, newlines and mandatory breaks")
    func mandatoryBreaks() {
        #expect(lineBreaks("   ") == ["3!"])
        #expect(lineBreaks("\n") == ["1!"])
        #expect(lineBreaks("\r\n") == ["2!"])                    // CR LF is one break
        #expect(lineBreaks("a\r\nb") == ["3!", "4!"])
        #expect(lineBreaks("a\rb") == ["2!", "3!"])
        #expect(lineBreaks("a\n\nb") == ["2!", "3!", "4!"])     // an empty line between
        #expect(lineBreaks("a\u{85}b") == ["3!", "4!"])          // NEL
        #expect(lineBreaks("a\u{2028}b\u{2029}c") == ["4!", "8!", "9!"])  // LS, PS
        #expect(lineBreaks("a\u{0B}b\u{0C}c") == ["2!", "4!", "5!"])     // VT, FF
        #expect(lineBreaks("Hello world") == ["6", "11!"])
        #expect(lineBreaks("Hello  world \n") == ["7", "14!"])  // spaces stay on the line
        #expect(lineBreaks("a\u{A0}b") == ["4!"])                // NBSP glues
        #expect(GraphemeBreaking.boundaries(in: "a\r\nb") == [1, 3, 4])
        #expect(GraphemeBreaking.boundaries(in: "   ") == [1, 2, 3])
    }

    @Test("the numeric tailoring of LB25 that LineBreakTest.txt expects")
    func numbers() {
        #expect(lineBreaks("$(") == ["1", "2!"])
        #expect(lineBreaks("$(1") == ["3!"])
        #expect(lineBreaks("$-1") == ["3!"])
        #expect(lineBreaks("(12.5)%") == ["7!"])
        #expect(lineBreaks("€ 1,234.50") == ["4", "12!"])
    }

    @Test("combining marks attach to their base")
    func combiningMarks() {
        let text = "e\u{301}\u{323} a\u{301}"
        #expect(GraphemeBreaking.boundaries(in: text) == [5, 6, 9])
        #expect(lineBreaks(text) == ["6", "9!"])
        // A mark after a space starts its own unit (LB10: treated as AL).
        #expect(lineBreaks(" \u{301}a") == ["1", "4!"])
        // Hangul syllables from jamo are one cluster.
        #expect(GraphemeBreaking.boundaries(in: "\u{1100}\u{1161}\u{11A8}") == [9])
        // Thai has no dictionary here: it falls back to AL/CM (LB1), no break inside.
        #expect(lineBreaks("ภาษาไทย") == ["21!"])
    }

    @Test("emoji ZWJ sequences, modifiers and flags")
    func emoji() {
        let family = "👨‍👩‍👧‍👦"
        let count = family.utf8.count
        #expect(GraphemeBreaking.boundaries(in: family) == [count])
        #expect(lineBreaks(family) == ["\(count)!"])
        let thumbs = "👍🏽"
        #expect(GraphemeBreaking.boundaries(in: thumbs) == [8])
        #expect(lineBreaks(thumbs) == ["8!"])                   // LB30b EB × EM
        let flags = "🇦🇹🇩🇪🇫"
        #expect(GraphemeBreaking.boundaries(in: flags) == [8, 16, 20])
        #expect(lineBreaks(flags) == ["8", "16", "20!"])        // LB30a pairs
        #expect(GraphemeBreaking.boundaries(in: "a\u{200D}😀") == [4, 8])  // GB11 needs ExtPict first
        #expect(GraphemeBreaking.boundaries(in: "😀\u{FE0F}\u{200D}😀") == [14])
    }

    @Test("a 1 MB text of mixed scripts completes and repeats exactly")
    func megabyte() throws {
        let unit = sampleTexts.joined(separator: " ") + " (12.5%) “quoted” 日本語、テキスト。\r\n"
        let unitBytes = unit.utf8.count
        let repeats = (1 << 20) / unitBytes + 1
        let text = String(repeating: unit, count: repeats)
        #expect(text.utf8.count >= 1 << 20)

        let one = LineBreaking.opportunities(in: unit)
        let all = LineBreaking.opportunities(in: text)
        #expect(all.count == one.count * repeats)
        #expect(all.last == LineBreakOpportunity(offset: text.utf8.count, isMandatory: true))
        #expect(all.filter(\.isMandatory).count == repeats)
        // Each unit ends in CR LF, so the opportunities repeat with the unit.
        for k in [0, repeats / 2, repeats - 1] {
            let slice = all[(k * one.count)..<((k + 1) * one.count)].map {
                LineBreakOpportunity(offset: $0.offset - k * unitBytes, isMandatory: $0.isMandatory)
            }
            #expect(slice == one)
        }

        let clusters = GraphemeBreaking.boundaries(in: text)
        #expect(clusters.count == GraphemeBreaking.boundaries(in: unit).count * repeats)
        #expect(clusters.last == text.utf8.count)
        #expect(zip(clusters, clusters.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test("grapheme clusters agree with Swift's Character segmentation except for GB9c")
    func agreesWithSwift() {
        // Swift's standard library follows a newer Unicode with GB9c (15.1: no break inside
        // an Indic conjunct, consonant + virama + consonant); 15.0 breaks after the virama.
        #expect(GraphemeBreaking.boundaries(in: "स्त") == [6, 9])
        for text in sampleTexts where !text.unicodeScalars.contains(where: { (0x0900...0x0DFF).contains($0.value) }) {
            var ends: [Int] = []
            var offset = 0
            for character in text {
                offset += character.utf8.count
                ends.append(offset)
            }
            #expect(GraphemeBreaking.boundaries(in: text) == ends, "\(text)")
        }
    }

    @Test("the byte, buffer and String forms agree")
    func formsAgree() throws {
        for text in sampleTexts {
            let bytes = Array(text.utf8)
            let fromBytes = try LineBreaking.opportunities(in: bytes)
            let fromBuffer = try bytes.withUnsafeBytes { try LineBreaking.opportunities(in: $0) }
            #expect(fromBytes == LineBreaking.opportunities(in: text))
            #expect(fromBuffer == fromBytes)
            #expect(try GraphemeBreaking.boundaries(in: bytes) == GraphemeBreaking.boundaries(in: text))
        }
    }

    @Test("invalid UTF-8 reports the offset of the first bad byte", arguments: [
        ([0xC0, 0x80], 0),                                      // overlong 2-byte
        ([0x61, 0x62, 0xE0, 0x80, 0xAF], 2),                    // overlong 3-byte
        ([0x61, 0xED, 0xA0, 0x80], 1),                          // surrogate U+D800
        ([0x61, 0x62, 0x63, 0xE2, 0x82], 3),                    // truncated at the end
        ([0xE2, 0x82, 0x61], 0),                                // truncated before ASCII
        ([0x61, 0x80], 1),                                      // lone continuation
        ([0x20, 0x20, 0xF4, 0x90, 0x80, 0x80], 2),              // past U+10FFFF
        ([0x61, 0xFF], 1),                                      // never valid
    ] as [([UInt8], Int)])
    func invalidUTF8(bytes: [UInt8], offset: Int) {
        let expected = TesseraError.invalidUTF8Text(byteOffset: offset)
        #expect(thrownError { _ = try LineBreaking.opportunities(in: bytes) } == expected)
        #expect(thrownError { _ = try GraphemeBreaking.boundaries(in: bytes) } == expected)
        #expect(thrownError {
            _ = try bytes.withUnsafeBytes { try LineBreaking.opportunities(in: $0) }
        } == expected)
    }
}
