#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Where and how a result was produced, recorded in every suite's JSON (`"run"`): the
/// machine (cores, memory, CPU model, load), the toolchain, the git revision, the command
/// line and the time. Read once per process.
struct RunInfo {
    var cores: Int
    var memoryBytes: UInt64
    var cpuModel: String?
    var toolchain: String
    var gitRevision: String?
    var gitDirty: Bool?
    var arguments: [String]
    var date: String
    var loadAverage: [Double]

    static let current = RunInfo.read()

    static func read() -> RunInfo {
        let info = ProcessInfo.processInfo
        let load = loadAverage()
        let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmingCharacters(in: .whitespaces) }
        let revision = run("git", ["rev-parse", "HEAD"])
        let dirty = revision == nil ? nil : run("git", ["status", "--porcelain", "--untracked-files=no"]).map { !$0.isEmpty }
        let formatter = ISO8601DateFormatter()
        return RunInfo(
            cores: info.activeProcessorCount, memoryBytes: info.physicalMemory, cpuModel: cpu,
            toolchain: run("swift", ["--version"])?.split(separator: "\n").first.map(String.init) ?? compilerVersion,
            gitRevision: revision, gitDirty: dirty, arguments: CommandLine.arguments, date: formatter.string(from: Date()),
            loadAverage: load)
    }

    /// The 1, 5 and 15 minute load averages (empty if unknown).
    static func loadAverage() -> [Double] {
        var load = [0.0, 0.0, 0.0]
        return getloadavg(&load, 3) == 3 ? load : []
    }

    /// The compiler that built cellbench, when `swift --version` cannot be run.
    static var compilerVersion: String {
        #if compiler(>=6.3)
        "Swift compiler >= 6.3 (built with)"
        #elseif compiler(>=6.2)
        "Swift compiler 6.2 (built with)"
        #else
        "Swift compiler < 6.2 (built with)"
        #endif
    }

    /// A tool's trimmed standard output, or nil when it cannot run or fails.
    static func run(_ tool: String, _ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The `"run"` object, with the suite's seed.
    func json(seed: UInt64?) -> String {
        var o = "{\"machine\": {\"cores\": \(cores), \"memory_bytes\": \(memoryBytes)"
        o += ", \"cpu\": \(cpuModel.map(Report.string) ?? "null")"
        o += ", \"load_average\": [\(loadAverage.map { String(format: "%.2f", $0) }.joined(separator: ", "))]}"
        o += ", \"toolchain\": \(Report.string(toolchain))"
        o += ", \"git_revision\": \(gitRevision.map(Report.string) ?? "null")"
        o += ", \"git_dirty\": \(gitDirty.map { $0 ? "true" : "false" } ?? "null")"
        o += ", \"seed\": \(seed.map { String($0) } ?? "null")"
        o += ", \"arguments\": [\(arguments.map(Report.string).joined(separator: ", "))]"
        o += ", \"date\": \(Report.string(date))}"
        return o
    }

    /// A suite's JSON object with `"run"` as its first member (the suites write their own
    /// members; this adds the provenance without touching them).
    static func stamp(_ object: String, seed: UInt64?) -> String {
        guard let brace = object.firstIndex(of: "{") else { return object }
        let rest = object[object.index(after: brace)...]
        let separator = rest.trimmingCharacters(in: .whitespaces).hasPrefix("}") ? "" : ", "
        return "{\"run\": \(current.json(seed: seed))" + separator + rest
    }
}
