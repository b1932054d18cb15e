#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Foundation

/// The suites `cellbench all` runs, in order.
enum SuiteName: String, CaseIterable {
    case geometry, text, measure, diff, scroll, memory
}

struct All: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Every suite (geometry, text, measure, diff, scroll, engine memory) at sizes that finish in about two minutes "
            + "here: one summary table, and each suite's JSON in a results folder."
    )

    @Option(help: "The main size: rows of geometry, diff, scroll and the engine memory report; text and measure take a tenth. 10000...20000000 (default 1000000, with --quick 100000).")
    var rows: String?

    @Flag(help: "A tenth of the default sizes and fewer peer runs (about 20 s).")
    var quick = false

    @Option(help: "Folder for the suites' JSON (created if missing; its files of the same names are replaced).")
    var out = ".build/cellbench-results"

    @Option(help: "Seed of every suite's deterministic input.")
    var seed = "132472442"

    @Option(help: "Comma-separated suites to run (default: all): \(SuiteName.allCases.map(\.rawValue).joined(separator: ", ")).")
    var suites = "all"

    struct Plan: Equatable {
        var rows: Int
        var quick: Bool
        var seed: UInt64
        var suites: [SuiteName]
        var out: String
    }

    func validate() throws {
        _ = try plan()
    }

    func plan() throws(OptionError) -> Plan {
        let rows = try self.rows.map { (r) throws(OptionError) in try OptionError.integer(r, "--rows", in: 10_000...20_000_000) }
            ?? (quick ? 100_000 : 1_000_000)
        let seed = try OptionError.unsigned(self.seed, "--seed")
        var selected: [SuiteName] = []
        if suites == "all" {
            selected = SuiteName.allCases
        } else {
            for name in suites.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
                guard let s = SuiteName(rawValue: name) else {
                    throw OptionError("--suites: unknown suite '\(name)' (suites: \(SuiteName.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                guard !selected.contains(s) else { throw OptionError("--suites: '\(name)' given twice") }
                selected.append(s)
            }
        }
        guard !out.isEmpty else { throw OptionError("--out: an empty path") }
        return Plan(rows: rows, quick: quick, seed: seed, suites: selected, out: out)
    }

    func run() throws {
        let plan = try plan()
        let folder = try ResultsFolder(path: plan.out)
        do {
            let summary = try AllSuites(plan: plan, folder: folder, progress: Progress()).run()
            try folder.commit()
            summary.print()
            print("results: \(plan.out)/ (\(plan.suites.map { "\($0.rawValue).json" }.joined(separator: ", ")), summary.json); "
                + "rows \(plan.rows), seed \(plan.seed)\(plan.quick ? ", quick" : "")")
        } catch {
            folder.discard()
            throw error
        }
    }
}

/// Runs the planned suites, writes each one's JSON into the folder's staging area, and
/// gathers the summary.
struct AllSuites {
    let plan: All.Plan
    let folder: ResultsFolder
    let progress: Progress

    /// Sizes derived from the main size.
    var tenth: Int { max(1_000, plan.rows / 10) }

    func run() throws -> SummaryTable {
        var summary = SummaryTable()
        let n = plan.suites.count
        let r = plan.rows, quick = plan.quick, seed = plan.seed
        for (i, suite) in plan.suites.enumerated() {
            if progress.enabled { FileHandle.standardError.write(Data("cellbench all: [\(i + 1)/\(n)] \(suite.rawValue)\n".utf8)) }
            let json: String
            switch suite {
            case .geometry:
                let operations = min(quick ? 10_000 : 100_000, r / 4)
                let peer = min(operations, max(quick ? 20 : 50, (quick ? 200_000_000 : 2_000_000_000) / r))
                let report = try GeometrySuite(
                    configuration: .init(rows: r, seed: seed, queries: quick ? 20_000 : 200_000, operations: operations, peerOperations: peer),
                    progress: progress).run()
                summary.add(report.results, suite: "geometry")
                summary.add(memory: SuiteMemory(rows: r, allocated: report.memory.allocatedBytes, resident: report.memory.residentBytes),
                            suite: "geometry", note: "store build")
                json = RunInfo.stamp(report.json(), seed: seed)
            case .text:
                let harness = try Text.buildHarness()
                let report = try TextSuite(
                    configuration: .init(strings: tenth, seed: seed, size: 15, width: 300, width2: 200, threads: 1, pangoHarness: harness,
                                         caches: .init(), peerStrings: min(tenth, quick ? 2_000 : 20_000)),
                    progress: progress).run()
                summary.add(report.results, suite: "text")
                if let m = report.jemalloc { summary.add(memory: m, suite: "text", note: "caches, prepared texts") }
                json = RunInfo.stamp(report.json(), seed: seed)
            case .measure:
                let harness = try Text.buildHarness()
                var reports: [MeasureReport] = []
                for profile in CellRowGenerator.profiles {
                    let report = try MeasureSuite(
                        configuration: .init(profile: profile, rows: tenth, seed: seed, threads: 1, platform: nil, fontScale: 1.3,
                                             caches: .init(segmentCacheBytes: 128 << 20, preparedTextCacheBytes: 512 << 20, lineBreakCacheBytes: 256 << 20),
                                             peerRows: min(tenth, quick ? 500 : 2_000), pangoHarness: harness),
                        progress: progress).run()
                    summary.add(report.results + [report.threadResult], suite: report.suiteName)
                    summary.add(row: report.machineRow)
                    summary.add(memory: SuiteMemory(rows: tenth, allocated: report.memory.allocated, resident: report.memory.resident),
                                suite: report.suiteName, note: "cold pass")
                    reports.append(report)
                }
                json = RunInfo.stamp("{\"suite\": \"measure\", \"profiles\": [" + reports.map { $0.json() }.joined(separator: ", ") + "]}", seed: seed)
            case .diff:
                let report = try DiffSuite(
                    configuration: .init(rows: r, seed: seed, repetitions: quick ? 3 : 5, cases: DiffCase.allCases,
                                         peerBudget: PeerBudget(maximumEdits: quick ? 3_000 : 10_000)),
                    progress: progress).run()
                summary.add(report.results, suite: "diff")
                if let m = report.jemalloc { summary.add(memory: m, suite: "diff", note: "snapshots, differ") }
                json = RunInfo.stamp(report.json(), seed: seed)
            case .scroll:
                var reports: [ScrollReport] = []
                for profile in CellRowGenerator.profiles {
                    let report = try ScrollSuite(configuration: .init(profile: profile, rows: r, seed: seed), progress: progress).run()
                    summary.add(report.results(phase: nil).filter { Self.scrollSummary.contains($0.name) }, suite: "scroll \(profile)")
                    summary.add(memory: SuiteMemory(rows: r, allocated: report.memory.tesseraLoad.allocated, resident: report.memory.tesseraLoad.resident),
                                suite: "scroll \(profile)", note: "engine, rows loaded")
                    reports.append(report)
                }
                json = ScrollReport.json(reports)
            case .memory:
                let result = try EngineMemorySuite(rows: r, seed: seed, progress: progress).run()
                summary.add(memory: result.memory, suite: "memory george", note: "whole engine, all measured")
                result.printLine()
                json = result.json(seed: seed)
            }
            try folder.write(json, name: "\(suite.rawValue).json")
        }
        try folder.write(RunInfo.stamp("{\"suite\": \"summary\", \"rows\": \(plan.rows), \"summary\": \(summary.json())}", seed: seed),
                         name: "summary.json")
        return summary
    }

    /// The scroll results the summary shows (the JSON holds them all, per phase too).
    static let scrollSummary: Set = ["frame_p50", "frame_p99", "frame_cpu_p99", "frames_over_1ms", "blank_rows", "jump"]
}

/// A results folder written all or nothing: files go to a staging folder inside it and
/// move into place only when every suite has finished; on failure the staging folder is
/// removed, so no partial file is left behind.
final class ResultsFolder {
    let path: String
    let staging: String
    private(set) var written: [String] = []
    /// Whether the folder itself was made by this run (removed again if the run fails).
    private var created = false

    init(path: String) throws {
        self.path = path
        staging = (path as NSString).appendingPathComponent(".cellbench-partial-\(getpid())")
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        let exists = fm.fileExists(atPath: path, isDirectory: &isDirectory)
        if exists, !isDirectory.boolValue {
            throw OptionError("--out: '\(path)' exists and is not a folder")
        }
        created = !exists
        if let failure = Self.makeDirectories(staging) {
            if created { try? fm.removeItem(atPath: path) }
            throw OptionError("--out: cannot write to '\(path)': \(failure)")
        }
        guard access(staging, W_OK) == 0 else {
            discard()
            throw OptionError("--out: cannot write to '\(path)': permission denied")
        }
    }

    /// `mkdir -p`: nil, or why a folder could not be made (strerror).
    static func makeDirectories(_ path: String) -> String? {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            prefix += part
            if mkdir(prefix, 0o755) != 0, errno != EEXIST { return "\(prefix): \(String(cString: strerror(errno)))" }
            prefix += "/"
        }
        return nil
    }

    static func reason(_ error: Error) -> String {
        let e = error as NSError
        if let underlying = e.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return e.localizedDescription
    }

    func write(_ text: String, name: String) throws {
        let file = (staging as NSString).appendingPathComponent(name)
        do { try Data(text.utf8).write(to: URL(fileURLWithPath: file)) } catch {
            throw SuiteFailure("cannot write \(file): \(Self.reason(error))")
        }
        written.append(name)
    }

    /// Moves the staged files into the folder (replacing those of the same names) and
    /// removes the staging folder.
    func commit() throws {
        let fm = FileManager.default
        for name in written {
            let target = (path as NSString).appendingPathComponent(name)
            guard rename((staging as NSString).appendingPathComponent(name), target) == 0 else {
                throw SuiteFailure("cannot move \(name) into \(path): \(String(cString: strerror(errno)))")
            }
        }
        try? fm.removeItem(atPath: staging)
    }

    func discard() {
        let fm = FileManager.default
        try? fm.removeItem(atPath: staging)
        if created, (try? fm.contentsOfDirectory(atPath: path))?.isEmpty == true { try? fm.removeItem(atPath: path) }
    }
}
