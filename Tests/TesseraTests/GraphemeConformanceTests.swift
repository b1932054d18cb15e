import Testing
import Tessera

@Suite("UAX #29 grapheme clusters: GraphemeBreakTest.txt")
struct GraphemeConformanceTests {
    @Test("every line of GraphemeBreakTest.txt")
    func everyLine() throws {
        let cases = try UnicodeBreakTestFile.load("GraphemeBreakTest.txt")
        #expect(cases.count == 602, "GraphemeBreakTest-15.0.0.txt has 602 test lines")
        #expect(GraphemeBreaking.unicodeVersion == "15.0.0")
        var passed = 0
        var failures: [String] = []
        for testCase in cases {
            let found = try GraphemeBreaking.boundaries(in: testCase.utf8)
            if found == testCase.breaks {
                passed += 1
            } else {
                failures.append("line \(testCase.lineNumber): got \(found), want \(testCase.breaks): \(testCase.source)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(cases.count) lines fail:\n\(failures.prefix(40).joined(separator: "\n"))")
        print("GraphemeBreakTest.txt: \(passed) of \(cases.count) lines pass")
    }
}
