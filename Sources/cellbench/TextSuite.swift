import Foundation
import Tessera

/// The text suite: Tessera's `TextLayoutEngine` and Pango (through the harness in
/// `Benchmarks/pango`) lay out the same corpus with the same font files, size and widths in
/// one run. Tessera: cold (empty caches), warm (the same width again), at a new width through
/// the caches, and the prepare/layout split (texts prepared once, then laid out at the new
/// width by arithmetic: `relayout_new_width`); Pango: a first pass and a pass at the new width (it has no
/// cache, so a warm pass would cost it the first pass again). Agreement is the share of
/// strings whose line count equals Pango's at the first width.
struct TextSuite {
    struct Configuration {
        var strings: Int
        var seed: UInt64
        var size: Double
        var width: Double
        var width2: Double
        var threads: Int
        var pangoHarness: String
        var caches: TextLayoutEngine.Configuration
        /// Strings Pango lays out: the first `peerStrings` of the corpus (per-string times
        /// and agreement are over those).
        var peerStrings: Int
    }

    static let font = "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf"
    static let fallbacks = [
        "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
        "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
    ]

    let configuration: Configuration
    let progress: Progress

    func run() throws -> TextReport {
        let c = configuration
        progress.begin("generating \(c.strings) strings")
        let corpus = TextCorpus(count: c.strings, seed: c.seed)
        var rows = RowText(slotsPerRow: 1)
        for s in corpus.strings { rows.append([s]) }
        progress.end()

        let style = try TextStyle(fonts: ([Self.font] + Self.fallbacks).map { try Font(path: $0) }, size: c.size)
        let memoryBefore = MemoryStatistics.current()
        let engine = TextLayoutEngine(configuration: c.caches)
        // Each pass writes a result column of its own, allocated and touched here: a copy of
        // a shared one (copy on write) would be timed with the pass.
        func results() -> [TextMetrics] { [TextMetrics](repeating: TextMetrics(), count: c.strings) }
        var first = results(), again = results(), second = results()
        func timed(_ what: String, _ width: Double, _ out: inout [TextMetrics]) throws -> Double {
            progress.begin("Tessera: \(what)")
            defer { progress.end() }
            let start = MonotonicClock.now()
            try out.withUnsafeMutableBufferPointer { (buffer) throws(TesseraError) in
                try engine.measure(rows, style: style, width: width, into: buffer, threads: c.threads)
            }
            return Double(MonotonicClock.now() &- start) / Double(c.strings)
        }
        let cold = try timed("cold at \(c.width) pt", c.width, &first)
        let warm = try timed("warm at \(c.width) pt", c.width, &again)
        let relayoutCached = try timed("through the caches at \(c.width2) pt", c.width2, &second)
        guard first == again else { throw SuiteFailure("a warm pass gave other results than the cold one") }
        let statistics = engine.statistics

        // The prepare/layout split: segment widths kept per text, a new width is arithmetic.
        progress.begin("Tessera: preparing \(c.strings) texts")
        var start = MonotonicClock.now()
        let prepared = try rows.utf8.withUnsafeBytes { bytes in
            try rows.offsets.withUnsafeBufferPointer { try engine.prepare(texts: bytes, offsets: $0, style: style, threads: c.threads) }
        }
        let prepare = Double(MonotonicClock.now() &- start) / Double(c.strings)
        progress.end()
        // The engine's caches, the prepared texts and the result columns, all alive here.
        let jemalloc = SuiteMemory(rows: c.strings, from: memoryBefore, to: MemoryStatistics.current())
        var preparedFirst = results(), preparedSecond = results()
        func layout(_ width: Double, _ out: inout [TextMetrics]) throws -> Double {
            progress.begin("Tessera: prepared texts at \(width) pt")
            defer { progress.end() }
            start = MonotonicClock.now()
            try out.withUnsafeMutableBufferPointer { (buffer) throws(TesseraError) in
                try engine.layout(prepared, width: width, into: buffer, threads: c.threads)
            }
            return Double(MonotonicClock.now() &- start) / Double(c.strings)
        }
        _ = try layout(c.width, &preparedFirst)
        let relayout = try layout(c.width2, &preparedSecond)
        guard preparedFirst == first, preparedSecond == second else {
            throw SuiteFailure("prepared texts gave other results than measure")
        }

        let peerCount = min(c.peerStrings, c.strings)
        progress.begin("Pango: two passes over \(peerCount) strings")
        let peerCorpus = peerCount == c.strings ? corpus : TextCorpus(count: peerCount, seed: c.seed)
        guard peerCorpus.strings[...] == corpus.strings.prefix(peerCount) else {
            throw SuiteFailure("the corpus of \(peerCount) strings is not a prefix of the corpus of \(c.strings)")
        }
        let pango = try Pango.run(harness: c.pangoHarness, corpus: peerCorpus, configuration: c)
        progress.end()

        var agree = (all: 0, latin: 0, latinTotal: 0)
        var byGroup = [ScriptGroup: (same: Int, total: Int)]()
        for i in 0..<peerCount {
            let same = first[i].lineCount == pango.lines[i], group = corpus.groups[i]
            if same { agree.all += 1 }
            byGroup[group, default: (0, 0)].total += 1
            if same { byGroup[group, default: (0, 0)].same += 1 }
            if [.latin, .greek, .cyrillic].contains(group) {
                agree.latinTotal += 1
                if same { agree.latin += 1 }
            }
        }
        let n = c.strings, pn = peerCount
        let results = [
            TimedResult(name: "measure_cold", unit: "ns/string", value: cold, peerValue: pango.firstNanos,
                        target: .speedupAtLeast(50), operations: n, peerOperations: pn),
            TimedResult(name: "measure_warm", unit: "ns/string", value: warm, peerValue: pango.firstNanos,
                        target: nil, operations: n, peerOperations: pn),
            TimedResult(name: "relayout_new_width", unit: "ns/string", value: relayout, peerValue: pango.secondNanos,
                        target: .speedupAtLeast(1000), operations: n, peerOperations: pn),
            TimedResult(name: "relayout_new_width_cached", unit: "ns/string", value: relayoutCached, peerValue: pango.secondNanos,
                        target: nil, operations: n, peerOperations: pn),
            TimedResult(name: "prepare_texts", unit: "ns/string", value: prepare, peerValue: pango.firstNanos,
                        target: nil, operations: n, peerOperations: pn),
        ]
        return TextReport(
            configuration: c, results: results,
            agreementAll: 100 * Double(agree.all) / Double(pn),
            agreementLatin: agree.latinTotal == 0 ? 100 : 100 * Double(agree.latin) / Double(agree.latinTotal),
            agreementByGroup: ScriptGroup.allCases.compactMap { g in
                byGroup[g].map { (g.rawValue, 100 * Double($0.same) / Double($0.total), $0.total) }
            },
            statistics: statistics, preparedBytes: prepared.bytes, pangoVersion: pango.version, jemalloc: jemalloc)
    }
}

struct SuiteFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Runs the Pango harness on a corpus file and reads its timings and line counts.
enum Pango {
    struct Result {
        var firstNanos: Double
        var secondNanos: Double
        var lines: [Int]
        var version: String
    }

    static func run(harness: String, corpus: TextCorpus, configuration c: TextSuite.Configuration) throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cellbench-text-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let corpusFile = directory.appendingPathComponent("corpus.txt"), linesFile = directory.appendingPathComponent("lines.txt")
        try corpus.write(to: corpusFile.path)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: harness)
        process.arguments = ["--font", TextSuite.font] + TextSuite.fallbacks.flatMap { ["--fallback", $0] } + [
            "--size", "\(c.size)", "--width", "\(c.width)", "--width2", "\(c.width2)", "--json",
            "--out", linesFile.path, corpusFile.path,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw SuiteFailure("the Pango harness \(harness) exited with status \(process.terminationStatus)")
        }
        guard let summary = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let pass1 = summary["pass1"] as? [String: Any], let pass2 = summary["pass2"] as? [String: Any],
              let us1 = pass1["us_per_string"] as? Double, let us2 = pass2["us_per_string"] as? Double
        else { throw SuiteFailure("the Pango harness printed no usable summary") }
        let lines = try String(contentsOf: linesFile, encoding: .utf8).split(separator: "\n").map { line in
            guard let first = line.split(separator: " ").first, let n = Int(first) else {
                throw SuiteFailure("the Pango harness wrote an unreadable line count: \(line)")
            }
            return n
        }
        guard lines.count == corpus.strings.count else {
            throw SuiteFailure("the Pango harness reported \(lines.count) line counts for \(corpus.strings.count) strings")
        }
        return Result(firstNanos: us1 * 1000, secondNanos: us2 * 1000, lines: lines,
                      version: summary["pango"] as? String ?? "?")
    }
}

struct TextReport {
    var configuration: TextSuite.Configuration
    var results: [TimedResult]
    var agreementAll: Double
    var agreementLatin: Double
    /// Per script group: name, percent agreeing, strings.
    var agreementByGroup: [(group: String, percent: Double, strings: Int)]
    var statistics: TextLayoutStatistics
    var preparedBytes: Int
    var pangoVersion: String
    /// Growth across the Tessera passes: caches, prepared texts, result columns.
    var jemalloc: SuiteMemory? = nil

    static let suite = "text"
    var peerName: String { "Pango \(pangoVersion)" }

    func printTable() {
        var table: [[String]] = [["suite", "metric", "unit", "tessera", "peer", "speedup", "target", "met"]]
        table += results.map { $0.tableRow(suite: Self.suite) }
        table.append([Self.suite, "agreement_latin", "%", Report.number(agreementLatin), "-", "-", ">= 99.5 %", agreementLatin >= 99.5 ? "yes" : "NO"])
        table.append([Self.suite, "agreement_all", "%", Report.number(agreementAll), "-", "-", "-", "-"])
        for a in agreementByGroup {
            table.append([Self.suite, "agreement_group_\(a.group)", "%", Report.number(a.percent), "-", "-", "-", "\(a.strings) strings"])
        }
        Report.printTable(table)
        let c = configuration
        print()
        print("strings: \(c.strings), seed: \(c.seed), Roboto \(Report.number(c.size)) pt with Droid Sans Fallback and Noto Color Emoji, widths \(Report.number(c.width)) then \(Report.number(c.width2)) pt, threads: \(c.threads), peer: \(peerName) (the same fonts, same run, on the first \(c.peerStrings < c.strings ? "\(c.peerStrings)" : "\(c.strings)") strings)")
        print(statistics)
        print("prepared texts: \(preparedBytes) bytes (\(Report.number(Double(preparedBytes) / Double(c.strings))) per string, text copy included)")
    }

    func json() -> String {
        let c = configuration
        var out = "{\"suite\": \(Report.string(Self.suite)), \"rows\": \(c.strings), \"seed\": \(c.seed), "
        out += "\"peer\": \(Report.string(peerName)), \"results\": ["
        out += results.map { $0.json(peer: peerName, extra: ", \"strings_per_second\": \(Report.json(1e9 / $0.value))") }
            .joined(separator: ", ")
        out += ", {\"name\": \"agreement_latin\", \"unit\": \"%\", \"value\": \(Report.json(agreementLatin)), \"peer\": \(Report.string(peerName)), \"peer_value\": null, \"speedup\": null, \"target\": \">= 99.5\", \"met\": \(agreementLatin >= 99.5)}"
        out += ", {\"name\": \"agreement_all\", \"unit\": \"%\", \"value\": \(Report.json(agreementAll)), \"peer\": \(Report.string(peerName)), \"peer_value\": null, \"speedup\": null}"
        for a in agreementByGroup {
            out += ", {\"name\": \"agreement_group_\(a.group)\", \"unit\": \"%\", \"value\": \(Report.json(a.percent)), \"peer\": \(Report.string(peerName)), \"peer_value\": null, \"speedup\": null, \"strings\": \(a.strings)}"
        }
        let s = statistics
        func cache(_ x: CacheStatistics) -> String {
            "{\"hits\": \(x.hits), \"misses\": \(x.misses), \"evictions\": \(x.evictions), \"entries\": \(x.entries), \"bytes\": \(x.bytes), \"budget\": \(x.budget)}"
        }
        out += "], \"memory\": {\"bytes_per_row\": \(Report.json(Double(s.segments.bytes + s.preparedTexts.bytes + s.lineBreaks.bytes) / Double(c.strings))), "
        out += "\"caches\": {\"segments\": \(cache(s.segments)), \"prepared_texts\": \(cache(s.preparedTexts)), \"line_breaks\": \(cache(s.lineBreaks))}, \"prepared_texts_bytes\": \(preparedBytes)}, "
        if let jemalloc {
            out += "\"jemalloc\": \(jemalloc.json(what: "growth across Tessera's passes: text engine caches, prepared texts, result columns")), "
        }
        out += "\"size_pt\": \(Report.json(c.size)), \"width_pt\": \(Report.json(c.width)), \"width2_pt\": \(Report.json(c.width2)), \"threads\": \(c.threads)}"
        return out
    }
}
