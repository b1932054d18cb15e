import Foundation
import Testing

/// Bad input through the built `cellbench` executable: one line on stderr naming the
/// problem, a non-zero exit, nothing written.
@Suite struct CommandLineErrorTests {
    /// The executable beside the test bundle (SwiftPM builds both into one folder).
    static let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("cellbench").path

    static func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    static func scratch(_ name: String) -> String {
        (NSTemporaryDirectory() as NSString).appendingPathComponent("cellbench-cli-\(getpid())-\(name)")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable)))
    func badInputIsOneLineAndANonZeroExit() throws {
        let fm = FileManager.default
        let out = Self.scratch("out"), file = Self.scratch("file"), bad = Self.scratch("bad")
        defer { for p in [out, file, bad] { try? fm.removeItem(atPath: p) } }
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        try fm.createDirectory(atPath: bad, withIntermediateDirectories: true)
        try Data("{\"suite\": \"scroll\", ".utf8).write(to: URL(fileURLWithPath: bad + "/scroll.json"))
        let cases: [([String], String)] = [
            (["scroll", "--profile", "nope"], "unknown profile 'nope'"),
            (["scroll", "--profile", "george", "--rows", "abc"], "--rows: 'abc' is not a whole number"),
            (["scroll", "--profile", "george", "--rows", "50"], "--rows: 50 is out of range"),
            (["scroll", "--profile", "george", "--bogus"], "Unknown option '--bogus'"),
            (["all", "--suites", "geometry,nope", "--out", out], "unknown suite 'nope'"),
            (["all", "--rows", "1e6", "--out", out], "--rows: '1e6' is not a whole number"),
            (["all", "--quick", "--suites", "memory", "--out", file + "/below"], "--out: cannot write"),
            (["plot", bad, "--out", out], "scroll.json: malformed JSON"),
            (["plot", Self.scratch("missing"), "--out", out], "not a results folder"),
            (["nosuch"], "Unexpected argument 'nosuch'"),
            (["measure", "--profile", "george", "--samples", "0"], "--samples must be between 1 and 99"),
        ]
        for (arguments, expected) in cases {
            let r = try Self.run(arguments)
            #expect(r.status != 0, "\(arguments)")
            #expect(r.stderr.hasPrefix("cellbench: ") && r.stderr.contains(expected), "\(arguments): \(r.stderr)")
            #expect(r.stderr.filter { $0 == "\n" }.count == 1, "\(arguments): \(r.stderr)")
            #expect(r.stdout.isEmpty, "\(arguments)")
            #expect(!fm.fileExists(atPath: out), "\(arguments) left \(out)")
        }
    }
}
