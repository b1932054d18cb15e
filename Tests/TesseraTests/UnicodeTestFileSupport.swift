import Foundation
import Testing

/// One case of a UCD break test file (`LineBreakTest.txt`, `GraphemeBreakTest.txt`): the
/// code points as UTF-8 and the byte offsets the file marks with ÷, excluding the start of
/// text (offset 0, which both algorithms never report) and including the end of text.
struct UnicodeBreakTestCase {
    var lineNumber: Int
    var source: String
    var utf8: [UInt8]
    var breaks: [Int]
}

enum UnicodeBreakTestFile {
    static let directory = "/usr/share/unicode/auxiliary"

    /// Reads and parses a test file; fails the test (does not skip) when it is missing.
    static func load(_ name: String) throws -> [UnicodeBreakTestCase] {
        let path = "\(directory)/\(name)"
        try #require(FileManager.default.fileExists(atPath: path), "\(path) is missing (Debian package unicode-data)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var cases: [UnicodeBreakTestCase] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let data = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let tokens = data.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if tokens.isEmpty { continue }
            var utf8: [UInt8] = []
            var breaks: [Int] = []
            for token in tokens {
                switch token {
                case "÷": if !utf8.isEmpty { breaks.append(utf8.count) }
                case "×": break
                default:
                    let value = try #require(UInt32(token, radix: 16), "line \(index + 1): bad token \(token)")
                    let scalar = try #require(Unicode.Scalar(value), "line \(index + 1): not a scalar \(token)")
                    utf8.append(contentsOf: String(Character(scalar)).utf8)
                }
            }
            cases.append(UnicodeBreakTestCase(lineNumber: index + 1, source: String(rawLine), utf8: utf8, breaks: breaks))
        }
        return cases
    }
}
