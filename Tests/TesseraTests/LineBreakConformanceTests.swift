import Testing
import Tessera

@Suite("UAX #14 line breaking: LineBreakTest.txt")
struct LineBreakConformanceTests {
    /// Lines of LineBreakTest-15.0.0.txt that are expected to fail, by line number, with
    /// the reason. Empty: every line passes.
    static let knownExceptions: [Int: String] = [:]

    @Test("every line of LineBreakTest.txt")
    func everyLine() throws {
        let cases = try UnicodeBreakTestFile.load("LineBreakTest.txt")
        #expect(cases.count == 7654, "LineBreakTest-15.0.0.txt has 7654 test lines")
        #expect(LineBreaking.unicodeVersion == "15.0.0")
        var passed = 0
        var failures: [String] = []
        for testCase in cases {
            let found = try LineBreaking.opportunities(in: testCase.utf8)
            let offsets = found.map(\.offset)
            if offsets == testCase.breaks {
                passed += 1
                #expect(Self.knownExceptions[testCase.lineNumber] == nil, "line \(testCase.lineNumber) passes now")
            } else if Self.knownExceptions[testCase.lineNumber] == nil {
                failures.append("line \(testCase.lineNumber): got \(offsets), want \(testCase.breaks): \(testCase.source)")
            }
            // The end of text is a mandatory opportunity; mandatory ones follow BK CR LF NL.
            #expect(found.last == LineBreakOpportunity(offset: testCase.utf8.count, isMandatory: true))
        }
        #expect(failures.isEmpty, "\(failures.count) of \(cases.count) lines fail:\n\(failures.prefix(40).joined(separator: "\n"))")
        #expect(passed + Self.knownExceptions.count == cases.count)
        print("LineBreakTest.txt: \(passed) of \(cases.count) lines pass")
    }
}
