import Testing
@testable import Tessera

/// The automaton is `decide` turned into a table; these tests walk the same texts with and
/// without it (the iterator then runs `decide` on every scalar) and require the same
/// opportunities.
@Suite("Line break automaton against decide alone")
struct LineBreakAutomatonTests {
    static func opportunities(_ bytes: [UInt8], automaton: Bool) -> [LineBreakOpportunity] {
        bytes.withUnsafeBytes { buffer in
            var iterator = LineBreakIterator(validUTF8: buffer, usesAutomaton: automaton)
            var result: [LineBreakOpportunity] = []
            while let next = iterator.next() { result.append(next) }
            return result
        }
    }

    /// One scalar of every line break class, plus East Asian wide OP/CP/ID, unassigned
    /// pictographs, Latin-1 and Greek letters, CR LF, and ASCII runs long enough for the
    /// eight-byte letter skip.
    static let alphabet: [String] = [
        "a", "Z", "é", "ß", "λ", "Ж", "0", "7", " ", "\u{3000}", "\n", "\r", "\u{85}", "\u{2028}", "\u{0B}",
        "\u{200B}", "\u{200D}", "\u{0301}", "\u{2060}", "\u{A0}", "-", "\u{2010}", "\u{B4}", "\u{2014}", "\u{FFFC}",
        ")", "]", "}", "\u{FF09}", "!", "?", "\u{2024}", ",", ".", ":", ";", "/", "\u{3001}", "(", "[", "\u{FF08}",
        "%", "\u{2030}", "$", "+", "\u{20AC}", "\"", "'", "\u{AB}", "\u{5D0}", "\u{4E00}", "\u{1F600}", "\u{1F466}",
        "\u{1F3FB}", "\u{1F1E6}", "\u{1F1FA}", "\u{1100}", "\u{1161}", "\u{11A8}", "\u{AC00}", "\u{AC01}", "\u{1FFFD}",
        "\u{E01}", "\u{2E80}", "\u{3041}", "\u{30FC}", "#", "&", "*", "@", "\u{9}", "\u{7F}",
        "Payment", "words", "2019", "14:54",
    ]

    @Test("LineBreakTest.txt lines give the same opportunities")
    func conformanceFile() throws {
        for testCase in try UnicodeBreakTestFile.load("LineBreakTest.txt") {
            let bytes = Array(testCase.utf8)
            #expect(Self.opportunities(bytes, automaton: true) == Self.opportunities(bytes, automaton: false), "line \(testCase.lineNumber)")
        }
    }

    @Test("random texts over every class give the same opportunities")
    func randomTexts() {
        var random = SplitMix64(seed: 0x1B_0A7)
        for round in 0..<20_000 {
            var text = ""
            for _ in 0..<Int(random.next() % 24) {
                text += Self.alphabet[Int(random.next() % UInt64(Self.alphabet.count))]
            }
            let bytes = Array(text.utf8)
            let fast = Self.opportunities(bytes, automaton: true)
            let reference = Self.opportunities(bytes, automaton: false)
            #expect(fast == reference, "round \(round): \(text.unicodeScalars.map { String($0.value, radix: 16) })")
            if fast != reference { return }
        }
    }

    @Test("the eight-byte letter count matches a byte walk")
    func letterBytes() {
        var random = SplitMix64(seed: 8)
        let bytes: [UInt8] = Array(0...255)
        for _ in 0..<100_000 {
            var word: UInt64 = 0
            var expected = 8
            for k in 0..<8 {
                // Mostly letters, so long runs occur.
                let b = random.next() % 4 == 0 ? bytes[Int(random.next() % 256)] : UInt8(0x61 + random.next() % 26) & (random.next() % 2 == 0 ? 0xFF : 0xDF)
                word |= UInt64(b) << UInt64(8 * k)
                if expected == 8 && !((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A && b < 0x80) { expected = k }
            }
            #expect(asciiLetterBytes(word) == expected, "word \(String(word, radix: 16))")
        }
    }
}
