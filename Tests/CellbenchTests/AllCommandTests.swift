import Foundation
import Testing
@testable import cellbench

/// `cellbench all`: its plan from the options, the summary's met column, and a results
/// folder that is written all or nothing.
@Suite struct AllCommandTests {
    @Test func thePlanFollowsTheOptions() throws {
        let standard = try All.parse([]).plan()
        #expect(standard.rows == 1_000_000 && standard.suites == SuiteName.allCases && !standard.quick)
        #expect(try All.parse(["--quick"]).plan().rows == 100_000)
        let some = try All.parse(["--rows", "10_000_000", "--suites", "scroll,memory", "--out", "/tmp/x"]).plan()
        #expect(some.rows == 10_000_000 && some.suites == [.scroll, .memory] && some.out == "/tmp/x")
        for arguments in [["--rows", "abc"], ["--rows", "9999"], ["--rows", "20000001"], ["--rows", "1e6"], ["--suites", "geometry,nope"],
                          ["--suites", "diff,diff"], ["--seed", "-1"], ["--out", ""], ["--unknown"]] {
            #expect(throws: (any Error).self, "\(arguments)") { try All.parse(arguments) }
        }
    }

    @Test func theSummaryMarksTargetsMetAndNotMet() {
        func result(_ name: String, _ value: Double, _ peer: Double, _ target: Target?) -> TimedResult {
            TimedResult(name: name, unit: "ns", value: value, peerValue: peer, target: target, operations: 1, peerOperations: 1)
        }
        var table = SummaryTable()
        table.add([
            result("p99_fast", 500_000, 2_000_000, .below(1_000_000)),
            result("p99_slow", 2_000_000, 500_000, .below(1_000_000)),
            result("blank_none", 0, 96, .atMost(0)),
            result("jump_some", 16, 6_616, .atMost(0)),
            result("speedup_met", 10, 20_000, .speedupAtLeast(1_000)),
            result("speedup_missed", 10, 9_000, .speedupAtLeast(1_000)),
            result("no_target", 10, 20, nil),
        ], suite: "s")
        table.add(memory: SuiteMemory(rows: 1_000, allocated: 32_000, resident: 40_000), suite: "s", note: "build")
        #expect(table.rows.map { $0[7] } == ["yes", "NO", "yes", "NO", "yes", "NO", "-", "-", "-"])
        #expect(table.rows.map { $0[1] }.suffix(2) == ["allocated_bytes_per_row", "resident_bytes_per_row"])
        #expect(table.rows[7][3] == "32.00" && table.rows[8][3] == "40.00")
        #expect(table.rows[4][5] == "2000x")
        #expect(table.verdicts == (met: 3, missed: 3))
        #expect(table.rows.allSatisfy { $0.count == SummaryTable.header.count })
        // The JSON holds the same rows.
        let rows = try? JSONSerialization.jsonObject(with: Data(table.json().utf8)) as? [[String: String]]
        #expect(rows?.count == 9 && rows?[1]["met"] == "NO" && rows?[1]["metric"] == "p99_slow")
    }

    static func temporaryPath(_ name: String) -> String {
        (NSTemporaryDirectory() as NSString).appendingPathComponent("cellbench-tests-\(getpid())-\(name)")
    }

    @Test func aResultsFolderIsWrittenAllOrNothing() throws {
        let fm = FileManager.default
        let path = Self.temporaryPath("results/nested")
        defer { try? fm.removeItem(atPath: Self.temporaryPath("results")) }
        let folder = try ResultsFolder(path: path)
        try folder.write("{}", name: "a.json")
        #expect(try fm.contentsOfDirectory(atPath: path) == [(folder.staging as NSString).lastPathComponent])
        try folder.commit()
        #expect(try fm.contentsOfDirectory(atPath: path) == ["a.json"])

        // A failed run leaves nothing: not its files, not a folder it made.
        let other = Self.temporaryPath("results/failed")
        let failed = try ResultsFolder(path: other)
        try failed.write("{}", name: "b.json")
        failed.discard()
        #expect(!fm.fileExists(atPath: other))
        // An existing folder keeps what it held.
        let again = try ResultsFolder(path: path)
        try again.write("{}", name: "c.json")
        again.discard()
        #expect(try fm.contentsOfDirectory(atPath: path) == ["a.json"])
    }

    @Test func anUnwritableFolderIsOneLine() throws {
        let file = Self.temporaryPath("plain-file")
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        for path in [file, file + "/below"] {
            do {
                _ = try ResultsFolder(path: path)
                Issue.record("\(path) was accepted")
            } catch let error as OptionError {
                #expect(error.description.hasPrefix("--out: ") && !error.description.contains("\n"), "\(error)")
            }
        }
    }
}
