import Foundation
import ArgumentParser
import Tessera

/// `cellbench`: Tessera's throughput benchmarks, each suite measured against a peer in the
/// same run. Prints results; never fails because something was slow.
@main
struct Cellbench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cellbench",
        abstract: "Throughput and memory of Tessera against the approaches it replaces, measured in one run.",
        subcommands: [All.self, Geometry.self, Text.self, Measure.self, Diff.self, Scroll.self, Render.self, Corpus.self, Plot.self],
        defaultSubcommand: All.self
    )

    /// Bad input is one line on stderr naming the problem and a non-zero exit (not the
    /// usage text ArgumentParser adds to some errors); help and `--version` print as usual.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .success { exit(withError: error) }
            let message = message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
            FileHandle.standardError.write(Data("cellbench: \(message)\n".utf8))
            Foundation.exit(code.rawValue)
        }
    }
}

struct Geometry: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Row geometry: build, window queries, inserts, removals and height updates, "
            + "against a flat prefix array (TanStack Virtual, react-window, FlashList)."
    )

    @Option(help: "Number of rows.")
    var rows = 10_000_000

    @Option(help: "Seed of the deterministic workload.")
    var seed: UInt64 = 0x7E55_E7A

    @Option(help: "Window queries per kind (scroll, random).")
    var queries = 200_000

    @Option(help: "Tessera's operations per mutation kind (default: 100000, at most rows/4).")
    var operations: Int?

    @Option(help: "The peer's operations per mutation kind, O(n) each (default: 2e9/rows, at least 50).")
    var peerOperations: Int?

    @Flag(help: "Print one JSON object instead of the table.")
    var json = false

    func validate() throws {
        guard rows >= 8 else { throw ValidationError("--rows must be at least 8") }
        guard queries >= 1 else { throw ValidationError("--queries must be at least 1") }
        if let operations, operations < 1 || operations > rows / 4 {
            throw ValidationError("--operations must be in 1...\(rows / 4) (rows/4)")
        }
        if let peerOperations, peerOperations < 1 { throw ValidationError("--peer-operations must be at least 1") }
    }

    func run() throws {
        let m = operations ?? min(100_000, max(1, rows / 4))
        let p = min(m, peerOperations ?? max(50, 2_000_000_000 / rows))
        let suite = GeometrySuite(
            configuration: .init(rows: rows, seed: seed, queries: queries, operations: m, peerOperations: p),
            progress: Progress())
        let report = try suite.run()
        if json { print(RunInfo.stamp(report.json(), seed: seed)) } else { report.printTable() }
    }
}

struct Text: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Text layout: cold, warm and at a new width, against Pango laying out the same strings "
            + "with the same fonts (the harness in Benchmarks/pango)."
    )

    @Option(help: "Number of strings.")
    var strings = 1_000_000

    @Option(help: "Seed of the deterministic corpus.")
    var seed: UInt64 = 0x7E55_E7A

    @Option(help: "Font size, points.")
    var size = 15.0

    @Option(help: "Layout width, points.")
    var width = 300.0

    @Option(help: "The new width of the re-layout, points.")
    var width2 = 200.0

    @Option(help: "Threads measuring Tessera's texts.")
    var threads = 1

    @Option(help: "Segment cache budget, MiB (default: the library's).")
    var segmentCacheMb = TextLayoutEngine.Configuration().segmentCacheBytes >> 20

    @Option(help: "Prepared-text cache budget, MiB (default: the library's; re-layout through the caches is arithmetic only for the texts it holds).")
    var preparedCacheMb = TextLayoutEngine.Configuration().preparedTextCacheBytes >> 20

    @Option(help: "Line-break cache budget, MiB (default: the library's).")
    var lineCacheMb = TextLayoutEngine.Configuration().lineBreakCacheBytes >> 20

    @Option(help: "The Pango harness (default: built from Benchmarks/pango into .build-pango).")
    var pango: String?

    @Option(help: "Strings the Pango peer lays out: the first N of the corpus (default: all).")
    var peerStrings: Int?

    @Flag(help: "Print one JSON object instead of the table.")
    var json = false

    func validate() throws {
        guard strings >= 1 else { throw ValidationError("--strings must be at least 1") }
        guard size > 0, width > 0, width2 > 0 else { throw ValidationError("--size, --width and --width2 must be positive") }
        guard threads >= 1 else { throw ValidationError("--threads must be at least 1") }
        guard (peerStrings ?? 1) >= 1 else { throw ValidationError("--peer-strings must be at least 1") }
        guard [segmentCacheMb, preparedCacheMb, lineCacheMb].allSatisfy({ $0 >= 0 && $0 <= 1 << 20 }) else {
            throw ValidationError("cache budgets must be between 0 and 1048576 MiB")
        }
    }

    func run() throws {
        let harness = try pango ?? Self.buildHarness()
        let suite = TextSuite(
            configuration: .init(strings: strings, seed: seed, size: size, width: width, width2: width2,
                                 threads: threads, pangoHarness: harness,
                                 caches: .init(segmentCacheBytes: segmentCacheMb << 20, preparedTextCacheBytes: preparedCacheMb << 20,
                                               lineBreakCacheBytes: lineCacheMb << 20),
                                 peerStrings: peerStrings ?? strings),
            progress: Progress())
        let report = try suite.run()
        if json { print(RunInfo.stamp(report.json(), seed: seed)) } else { report.printTable() }
    }

    /// Builds the harness with `Benchmarks/pango/build.sh` (run from the repository root).
    static func buildHarness() throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "Benchmarks/pango/build.sh")
        process.arguments = [".build-pango"]
        let output = Pipe()
        process.standardOutput = output
        do { try process.run() } catch {
            throw SuiteFailure("cannot run Benchmarks/pango/build.sh (run cellbench from the repository root, or pass --pango): \(error)")
        }
        let path = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        process.waitUntilExit()
        guard process.terminationStatus == 0, !path.isEmpty else { throw SuiteFailure("Benchmarks/pango/build.sh failed") }
        return path
    }
}

struct Measure: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Cell heights of a profile's rows: cold, after a width-class change, an edit-mode toggle and a font-scale "
            + "change, on one and two threads, against Pango laying out every text slot of the same cells (per-cell peer)."
    )

    @Option(help: "Profile: george, fiori-android, fiori-ios, fiori-ios-collection, a path to a profile, or all.")
    var profile: String

    @Option(help: "Rows per profile.")
    var rows = 1_000_000

    @Option(help: "Threads of the measurements (one measurer and text engine per thread). 1 and 2 are always compared.")
    var threads = 1

    @Option(help: "Seed of the deterministic rows.")
    var seed: UInt64 = 0x7E55_E7A

    @Option(help: "Platform (ios or android; default: the profile's first).")
    var platform: String?

    @Option(help: "The font scale of font_scale_change (from 1).")
    var fontScale = 1.3

    @Option(help: "Segment cache budget per engine, MiB.")
    var segmentCacheMb = 128

    @Option(help: "Prepared-text cache budget per engine, MiB.")
    var preparedCacheMb = 512

    @Option(help: "Line-break cache budget per engine, MiB.")
    var lineCacheMb = 256

    @Option(help: "Rows the per-cell Pango peer lays out (the first N; 0: no peer).")
    var peerRows = 20_000

    @Option(help: "The Pango harness (default: built from Benchmarks/pango into .build-pango).")
    var pango: String?

    @Flag(help: "Print JSON instead of the table (one object; with --profile all, an object holding one per profile).")
    var json = false

    @Option(help: .hidden)
    var callgrindPass: String?

    @Flag(help: "Let the reference measurers' threads share one loaded profile (fonts) instead of one copy each.")
    var shareProfile = false

    @Flag(inversion: .prefixedNo, help: "Fault the caches' memory in with a first, untimed pass before the timed cold passes.")
    var warmUp = true

    @Flag(inversion: .prefixedNo, help: "Let the engine keep prepared texts (CellTextBatch) between passes (ListEngine.keepsPreparedTexts).")
    var textBatches = true

    @Flag(help: "Diagnostic: order the rows by kind and by which values they have, so rows that share a layout plan come together (what the rows' variety costs).")
    var groupedRows = false

    @Option(help: "Times each Tessera pass runs (cold on 1 and 2 threads, each change); the median is reported, every sample printed.")
    var samples = 3

    func validate() throws {
        guard rows >= 1 else { throw ValidationError("--rows must be at least 1") }
        guard threads >= 1 else { throw ValidationError("--threads must be at least 1") }
        guard peerRows >= 0 else { throw ValidationError("--peer-rows must not be negative") }
        guard samples >= 1, samples <= 99 else { throw ValidationError("--samples must be between 1 and 99") }
        guard fontScale > 0, fontScale <= 10, fontScale != 1 else { throw ValidationError("--font-scale must be in (0, 10] and not 1") }
        if let platform, LayoutEnvironment.Platform(rawValue: platform) == nil { throw ValidationError("--platform must be ios or android") }
        guard [segmentCacheMb, preparedCacheMb, lineCacheMb].allSatisfy({ $0 >= 0 && $0 <= 1 << 20 }) else {
            throw ValidationError("cache budgets must be between 0 and 1048576 MiB")
        }
    }

    func run() throws {
        if let callgrindPass {
            try MeasureSuite.callgrind(profile: profile, rows: rows, seed: seed, pass: callgrindPass,
                                       caches: .init(segmentCacheBytes: segmentCacheMb << 20, preparedTextCacheBytes: preparedCacheMb << 20,
                                                     lineBreakCacheBytes: lineCacheMb << 20),
                                       threads: threads, groupedRows: groupedRows)
            return
        }
        let harness = peerRows == 0 ? nil : try pango ?? Text.buildHarness()
        let names = profile == "all" ? CellRowGenerator.profiles : [profile]
        var reports: [MeasureReport] = []
        let progress = Progress()
        for (i, name) in names.enumerated() {
            let suite = MeasureSuite(
                configuration: .init(profile: name, rows: rows, seed: seed, threads: threads,
                                     platform: platform.flatMap(LayoutEnvironment.Platform.init(rawValue:)), fontScale: fontScale,
                                     caches: .init(segmentCacheBytes: segmentCacheMb << 20, preparedTextCacheBytes: preparedCacheMb << 20,
                                                   lineBreakCacheBytes: lineCacheMb << 20),
                                     peerRows: peerRows, pangoHarness: harness, shareProfile: shareProfile, warmUp: warmUp,
                                     textBatches: textBatches, groupedRows: groupedRows, samples: samples),
                progress: progress)
            let report = try suite.run()
            if !json {
                if i > 0 { print() }
                report.printTable()
            }
            reports.append(report)
        }
        if json {
            print(RunInfo.stamp(reports.count == 1 ? reports[0].json() : "{\"suite\": \"measure\", \"profiles\": [" + reports.map { $0.json() }.joined(separator: ", ") + "]}", seed: seed))
        }
    }
}
