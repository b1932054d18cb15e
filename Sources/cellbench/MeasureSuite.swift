#if canImport(Glibc)
import Glibc
#endif
import Foundation
@_spi(Benchmarks) import Tessera

/// The measure suite: a profile's rows (a million by default, from `CellRowGenerator`)
/// appended to a `ListEngine` and measured by `measureAll(threads:)` (`EngineMeasurer`),
/// and by a per-cell Pango peer in the same run.
///
/// Tessera: `measure_all_cold` (a fresh engine, every row measured, its texts prepared and
/// kept), then on the same engine `relayout_width_class` (compact → regular width),
/// `edit_mode_toggle` (compact, edit mode on) and `font_scale_change` (compact, font scale
/// 1 → 1.3), each measuring the rows the change marked; `frame_budget_rows` = rows
/// measured per millisecond of cold measurement; `measure_all_threads_2`, cold on two
/// threads against one. Each of those passes runs `samples` times, each time on fresh
/// measurers, and reports its median. The cold heights and those after every environment change are
/// checked against fresh `CellMeasurer`s without prepared texts (`ParallelMeasurer`), and
/// the heights of one and two threads against each other; a difference ends the run with
/// status 1.
///
/// The peer: for the first `peerRows` rows, the template's text measurements (each text
/// slot at the width and line limit the template gives, each natural width a `fit` column
/// needs; `CellTextLog` records them) are laid out by Pango with the same font files
/// (`Benchmarks/pango/pango_layout.c --records`): first the natural widths, then every
/// text at the width the template gives with Pango's natural widths; then the same
/// template arithmetic runs over Pango's answers (`CellTextLog` replay). Peer time per
/// row = Pango's time for both + that arithmetic.
struct MeasureSuite {
    struct Configuration {
        var profile: String
        var rows: Int
        var seed: UInt64
        var threads: Int
        var platform: LayoutEnvironment.Platform?
        var fontScale: Double
        var caches: TextLayoutEngine.Configuration
        var peerRows: Int
        var pangoHarness: String?
        var shareProfile = false
        var warmUp = true
        var textBatches = true
        /// Rows grouped by kind and present values (`CellRows.groupedByPresentValues`).
        var groupedRows = false
        /// Times each timed Tessera pass runs; the sample of median wall time is reported.
        var samples = 3
    }

    let configuration: Configuration
    let progress: Progress

    /// A profile by name (`Profiles/<name>.json`, from the repository root) or path.
    static func loadProfile(_ nameOrPath: String) throws -> Profile {
        let path = nameOrPath.hasSuffix(".json") || nameOrPath.contains("/") ? nameOrPath : "Profiles/\(nameOrPath).json"
        do { return try Profile.load(path: path) } catch {
            throw SuiteFailure("cannot load profile \(path): \(error) (run cellbench from the repository root, or give a path)")
        }
    }

    /// The compact and regular content widths of a profile: a phone in portrait and a
    /// tablet (Fiori for Android: an expanded window, where its description column appears).
    static func widths(_ profile: Profile, _ platform: LayoutEnvironment.Platform) -> (compact: Double, regular: Double) {
        switch profile.name {
        case "george": platform == .ios ? (375, 768) : (360, 800)
        case "fiori-android": (360, 1000)
        case "fiori-ios": (390, 1024)
        case "fiori-ios-collection": (375, 768)
        default: platform == .ios ? (375, 1024) : (360, 1000)
        }
    }

    /// One timed cold pass: wall time, the busiest thread's and all threads' CPU time
    /// (ns/row), and the process's times across it.
    struct ColdSample {
        var wall: Double, busiestCPU: Double, totalCPU: Double
        var process: ProcessTimes
    }

    /// One timed environment change: wall and CPU time (ns/row, the marking included), the
    /// rows it measured again and how many of those came from kept results.
    struct ChangeSample {
        var wall: Double, cpu: Double
        var remeasured: Int, fromKept: Int
    }

    /// The index of the median of `values` (the lower of the middle two for an even count).
    static func medianIndex(_ values: [Double]) -> Int {
        let order = values.indices.sorted { values[$0] < values[$1] }
        return order[(order.count - 1) / 2]
    }

    static func fail(_ message: String) -> Never {
        var bytes = Array("cellbench: measure: \(message)\n".utf8)
        _ = write(2, &bytes, bytes.count)
        exit(1)
    }

    func run() throws -> MeasureReport {
        let c = configuration
        let profile = try Self.loadProfile(c.profile)
        // Each thread's measurer gets its own copy of the profile (fonts, font chains), so no
        // reference count is updated from two threads; --share-profile shares one.
        let copies: (() throws -> Profile)? = c.shareProfile ? nil : { try Self.loadProfile(c.profile) }
        let platform = c.platform ?? profile.platforms[0]
        guard profile.platforms.contains(platform) else {
            throw SuiteFailure("profile \(profile.name) has no platform \(platform.rawValue) (it has \(profile.platforms.map(\.rawValue).joined(separator: ", ")))")
        }
        let (compact, regular) = Self.widths(profile, platform)
        let cold = LayoutEnvironment(width: compact, platform: platform)
        var wide = cold
        wide.width = regular
        var edit = cold
        edit.editMode = true
        var scaled = cold
        scaled.fontScale = c.fontScale
        let n = c.rows

        progress.begin("\(profile.name): generating \(n) rows")
        let start = MonotonicClock.now()
        var rows = try CellRowGenerator.rows(profile: profile, count: n, seed: c.seed)
        if c.groupedRows { rows = rows.groupedByPresentValues() }
        let generation = Double(MonotonicClock.now() &- start) / Double(n)
        progress.end()

        progress.begin("\(profile.name): validating \(n) rows")
        try Self.validate(rows, profile, cold)
        progress.end()

        // A first pass with fresh measurers on two threads, untimed for the results and then
        // dropped: it faults in the memory the caches will use. On this VM the first touch of
        // fresh memory is slow (page faults, and on a virtual machine the host's too) and
        // serialises threads, which would otherwise dominate whichever pass comes first.
        var heights = [Double](repeating: 0, count: n)
        var firstTouch = 0.0
        if c.warmUp {
            progress.begin("\(profile.name): warming up the memory (a first pass, 2 threads)")
            let w = try EngineMeasurer(profile: profile, environment: cold, rows: rows, threads: 2, caches: c.caches, textBatches: c.textBatches)
            firstTouch = Double(heights.withUnsafeMutableBufferPointer { w.measureAll(into: $0) }) / Double(n)
            progress.end()
        }

        progress.begin("\(profile.name): the machine's own two-thread speedup before the cold passes (ParallelismProbe)")
        let machineBefore = ParallelismProbe.run()
        progress.end()

        // Cold on one and on two threads, fresh each; heights must not depend on the split.
        // The pass on the thread count asked for (--threads) is kept for the environment
        // changes, each checked from scratch (in the first sample; later ones against it).
        // All of it runs `samples` times, each on fresh measurers (so each sample's changes
        // start from the same state), and the sample of median wall time of each pass is
        // reported: this machine has bursts of other load a single pass may fall into.
        let changes = [("relayout_width_class", wide), ("edit_mode_toggle", edit), ("font_scale_change", scaled)]
        var coldSamples: [Int: [ColdSample]] = [:]
        var changeSamples = [[ChangeSample]](repeating: [], count: changes.count)
        var scratchPerRow = [Double](repeating: 0, count: changes.count)
        var heightsByEnvironment: [[Double]] = []
        var kept: EngineMeasurer? = nil
        var reference: [Double]? = c.warmUp ? heights : nil
        var memory = MeasureReport.Memory(allocated: 0, resident: 0, allocatedAfterRelayouts: 0)
        var coldStatistics = ParallelMeasurer.Statistics()
        var machineAfter: ParallelismProbe? = nil
        let before = MemoryStatistics.current()
        for sample in 0..<c.samples {
            // The last sample's measurers are dropped before the next are made, as the warm-up's were.
            kept = nil
            for t in Array(Set([1, 2, c.threads])).sorted(by: { ($0 == c.threads ? 1 : 0, $0) < ($1 == c.threads ? 1 : 0, $1) }) {
                progress.begin("\(profile.name): Tessera cold, \(t) thread(s), sample \(sample + 1) of \(c.samples)")
                var other = [Double](repeating: 0, count: n)
                let start = MemoryStatistics.current()
                let m = try EngineMeasurer(profile: profile, environment: cold, rows: rows, threads: t, caches: c.caches, textBatches: c.textBatches)
                let times = ProcessTimes.now()
                let wall = Double(other.withUnsafeMutableBufferPointer { m.measureAll(into: $0) }) / Double(n)
                coldSamples[t, default: []].append(ColdSample(wall: wall, busiestCPU: Double(m.lastThreadCPU.max() ?? 0) / Double(n),
                                                              totalCPU: Double(m.lastThreadCPU.reduce(0, +)) / Double(n),
                                                              process: ProcessTimes.now() - times))
                progress.end()
                if let reference { Self.compare(other, reference, "cold heights on \(t) thread(s) and on 2") }
                reference = other
                heights = other
                if t == c.threads {
                    if sample == 0 {
                        let end = MemoryStatistics.current()
                        memory.allocated = end.allocated - start.allocated
                        memory.resident = end.resident - start.resident
                        coldStatistics = m.statistics
                    }
                    kept = m
                }
            }
            if sample == 0 {
                progress.begin("\(profile.name): the machine's own two-thread speedup after the cold passes (ParallelismProbe)")
                machineAfter = ParallelismProbe.run()
                progress.end()
                heightsByEnvironment = [heights]
            }
            let main = kept!
            for (i, (name, environment)) in changes.enumerated() {
                // Each change starts from the cold environment, measured (untimed), whose
                // heights the store holds.
                if main.environment != cold {
                    try main.setEnvironment(cold)
                    var back = [Double](repeating: 0, count: n)
                    _ = back.withUnsafeMutableBufferPointer { main.measureAll(into: $0) }
                    Self.compare(back, heightsByEnvironment[0], "heights back in the cold environment")
                }
                // The engine marks the rows of kinds whose layout changed, and after a width
                // change only rows whose width range the new width leaves; the others keep their
                // heights. That marking is part of the pass: its time (wall and this thread's
                // CPU) is added to the measurement's.
                progress.begin("\(profile.name): Tessera \(name) (\(Self.describe(environment))), sample \(sample + 1) of \(c.samples)")
                let markCPU0 = ThreadCPUClock.now(), markWall0 = MonotonicClock.now()
                let remeasured = try main.setEnvironment(environment)
                let markWall = MonotonicClock.now() &- markWall0, markCPU = ThreadCPUClock.now() &- markCPU0
                var again = [Double](repeating: 0, count: n)
                let ns = again.withUnsafeMutableBufferPointer { main.measureAll(into: $0) } &+ markWall
                progress.end()
                changeSamples[i].append(ChangeSample(wall: Double(ns) / Double(n), cpu: Double(main.lastThreadCPU.reduce(0, +) &+ markCPU) / Double(n),
                                                     remeasured: remeasured, fromKept: main.lastKeptRows))
                if sample > 0 {
                    Self.compare(again, heightsByEnvironment[i + 1], "\(name): heights in sample \(sample + 1) and in the first")
                    continue
                }
                progress.begin("\(profile.name): checking \(name) against a from-scratch measurement")
                var scratch = [Double](repeating: 0, count: n)
                let fresh = try ParallelMeasurer(profile: profile, environment: environment, threads: 2, caches: c.caches, copies: copies)
                scratchPerRow[i] = Double(scratch.withUnsafeMutableBufferPointer { fresh.measureAll(rows, into: $0) }) / Double(n)
                progress.end()
                Self.compare(again, scratch, "\(name): heights after the change and from scratch")
                heightsByEnvironment.append(again)
            }
        }
        let coldMedian = coldSamples.mapValues { $0[Self.medianIndex($0.map(\.wall))] }
        let coldPerRow = coldMedian[c.threads]!.wall
        let main = kept!
        let machine = (before: machineBefore, after: machineAfter!)
        let relayouts = changes.enumerated().map { i, change in
            let r = changeSamples[i][Self.medianIndex(changeSamples[i].map(\.wall))]
            return (name: change.0, perRow: r.wall, scratchPerRow: scratchPerRow[i], remeasured: r.remeasured, fromKept: r.fromKept, cpuPerRow: r.cpu)
        }
        // The cold heights against a from-scratch measurement through the text engine's
        // caches alone (no text batch, no engine), as the changed environments above.
        do {
            progress.begin("\(profile.name): checking the cold heights against fresh measurers without text batches")
            var scratch = [Double](repeating: 0, count: n)
            let fresh = try ParallelMeasurer(profile: profile, environment: cold, threads: 2, caches: c.caches, copies: copies)
            _ = scratch.withUnsafeMutableBufferPointer { fresh.measureAll(rows, into: $0) }
            progress.end()
            Self.compare(heightsByEnvironment[0], scratch, "cold heights with and without text batches")
        }
        let finalStatistics = main.statistics
        memory.allocatedAfterRelayouts = MemoryStatistics.current().allocated - before.allocated

        // The per-cell Pango peer in each environment.
        var peers: [PangoCells.Result] = []
        let peerCount = min(c.peerRows, n)
        if let harness = c.pangoHarness, peerCount > 0 {
            for (i, environment) in [cold, wide, edit, scaled].enumerated() {
                progress.begin("\(profile.name): Pango per cell, \(peerCount) rows (\(Self.describe(environment)))")
                let r = try PangoCells.run(harness: harness, profile: profile, environment: environment, rows: rows, count: peerCount,
                                           caches: c.caches)
                progress.end()
                Self.compare(r.tesseraHeights, Array(heightsByEnvironment[i].prefix(peerCount)),
                             "the peer's recording pass and the suite (\(Self.describe(environment)))")
                peers.append(r)
            }
        }

        var results: [TimedResult] = []
        let peerName = peers.first.map { "Pango \($0.version) per cell" } ?? "none"
        func peerValue(_ i: Int) -> Double { i < peers.count ? peers[i].nsPerRow : .nan }
        results.append(TimedResult(name: "measure_all_cold", unit: "ns/row", value: coldPerRow, peerValue: peerValue(0),
                                   target: .speedupAtLeast(50), operations: n, peerOperations: peerCount))
        for (i, r) in relayouts.enumerated() {
            results.append(TimedResult(name: r.name, unit: "ns/row", value: r.perRow, peerValue: peerValue(i + 1),
                                       target: .fasterThan(reference: "measure_all_cold", factor: 10, referenceValue: coldPerRow),
                                       operations: n, peerOperations: peerCount))
        }
        results.append(TimedResult(name: "frame_budget_rows", unit: "rows/ms", value: 1e6 / coldPerRow,
                                   peerValue: peers.isEmpty ? .nan : 1e6 / peers[0].nsPerRow, target: nil,
                                   operations: n, peerOperations: peerCount, higherIsBetter: true))
        let threadResult = TimedResult(name: "measure_all_threads_2", unit: "ns/row", value: coldMedian[2]!.wall, peerValue: coldMedian[1]!.wall,
                                       target: .speedupAtLeast(1.7), operations: n, peerOperations: n)
        return MeasureReport(
            configuration: c, profile: profile.name, platform: platform, environments: [cold, wide, edit, scaled],
            generationPerRow: generation, results: results, threadResult: threadResult, relayoutScratch: relayouts.map { ($0.name, $0.scratchPerRow) },
            relayoutCPU: relayouts.map { ($0.name, $0.cpuPerRow) }, coldCPU: coldMedian[c.threads]!.totalCPU,
            remeasured: relayouts.map { ($0.name, $0.remeasured) }, fromKept: relayouts.map { ($0.name, $0.fromKept) }, textBatchBytes: main.textBatchBytes,
            peers: peers, peerName: peerName, peerRows: peerCount,
            memory: memory, firstTouchPerRow: firstTouch, threadCPU: (coldMedian[1]!.busiestCPU, coldMedian[2]!.busiestCPU, coldMedian[2]!.totalCPU), machine: machine,
            coldProcessTimes: (coldMedian[1]!.process, coldMedian[2]!.process),
            coldStatistics: coldStatistics, finalStatistics: finalStatistics, bytesPerRowText: Double(rows.utf8.count) / Double(n),
            slotsPerRow: rows.slotsPerRow, kindCounts: Self.kindCounts(rows, profile),
            samples: [("measure_all_cold", coldSamples[c.threads]!.map(\.wall)), ("measure_all_threads_2", coldSamples[2]!.map(\.wall))]
                + changes.enumerated().map { ($1.0, changeSamples[$0].map(\.wall)) },
            sampleWork: changes.enumerated().map { i, change in (change.0, Set(changeSamples[i].map { [$0.remeasured, $0.fromKept] }).count == 1) })
    }

    /// For instruction counts: rows, a cold pass on one thread, and then (unless `pass` is
    /// `cold`) one of `width`, `edit`, `scale`; only `callgrindPass` is meant to be
    /// collected (`valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*callgrindPass*'`).
    static func callgrind(profile name: String, rows n: Int, seed: UInt64, pass: String, caches: TextLayoutEngine.Configuration,
                          threads: Int = 1, groupedRows: Bool = false) throws {
        let profile = try loadProfile(name)
        let platform = profile.platforms[0]
        let (compact, regular) = widths(profile, platform)
        let cold = LayoutEnvironment(width: compact, platform: platform)
        var next = cold
        switch pass {
        case "cold", "cold2": break
        case "width": next.width = regular
        case "edit": next.editMode = true
        case "scale": next.fontScale = 1.3
        default: throw SuiteFailure("--callgrind-pass: cold, width, edit or scale")
        }
        var rows = try CellRowGenerator.rows(profile: profile, count: n, seed: seed)
        if groupedRows { rows = rows.groupedByPresentValues() }
        var heights = [Double](repeating: 0, count: n)
        if pass == "cold2" {
            // A first cold pass in fresh memory, dropped: the timed one reuses the memory.
            let w = try EngineMeasurer(profile: profile, environment: cold, rows: rows, threads: threads, caches: caches)
            print("first: \(Double(heights.withUnsafeMutableBufferPointer { w.measureAll(into: $0) }) / Double(n)) ns/row")
        }
        let m = try EngineMeasurer(profile: profile, environment: cold, rows: rows, threads: threads, caches: caches)
        if pass != "cold" && pass != "cold2" {
            _ = heights.withUnsafeMutableBufferPointer { m.measureAll(into: $0) }
            try m.setEnvironment(next)
        }
        let start = MonotonicClock.now()
        let sampling = PerfControl()
        sampling.send("enable")
        callgrindPass(m)
        sampling.send("disable")
        let ns = MonotonicClock.now() &- start
        heights.withUnsafeMutableBufferPointer { m.heights(into: $0) }
        print("\(pass): \(Double(ns) / Double(n)) ns/row, checksum \(heights.reduce(0, +))")
    }

    /// `perf record`'s control FIFO named by `PERF_CTL_FIFO`, if any: with
    /// `perf record -e cpu-clock -D -1 --control fifo:PATH` only the pass is sampled
    /// (`cpu-clock` is a software event: it works where the CPU's counters are not exposed).
    struct PerfControl {
        let fd: Int32

        init() { fd = getenv("PERF_CTL_FIFO").map { open($0, O_WRONLY) } ?? -1 }

        func send(_ command: String) {
            guard fd >= 0 else { return }
            var bytes = Array("\(command)\n".utf8)
            _ = write(fd, &bytes, bytes.count)
        }
    }

    /// `measureAll` alone: what the instruction counts cover.
    @inline(never)
    static func callgrindPass(_ m: EngineMeasurer) {
        m.measureOnly()
    }

    static func describe(_ e: LayoutEnvironment) -> String {
        "\(Report.number(e.width)) pt \(e.platform.rawValue)\(e.editMode ? ", edit mode" : "")\(e.fontScale != 1 ? ", font scale \(e.fontScale)" : "")"
    }

    static func validate(_ rows: CellRows, _ profile: Profile, _ environment: LayoutEnvironment) throws {
        let m = try CellMeasurer(profile: profile, environment: environment)
        try rows.withColumns { kinds, utf8, offsets in
            do throws(TesseraError) {
                for r in 0..<kinds.count {
                    try m.validate(kind: kinds[r], utf8: utf8, slotOffsets: CellRows.slotOffsets(offsets, row: r, slotsPerRow: rows.slotsPerRow), row: r)
                }
                try m.validateGroup(rowKinds: kinds)
            } catch {
                throw SuiteFailure("generated rows of \(profile.name) do not validate: \(error)")
            }
        }
    }

    static func compare(_ a: [Double], _ b: [Double], _ what: String) {
        guard a.count == b.count else { fail("\(what): \(a.count) heights against \(b.count)") }
        var differing = 0, first = -1
        for i in 0..<a.count where a[i] != b[i] {
            if first < 0 { first = i }
            differing += 1
        }
        if differing > 0 { fail("\(what) differ in \(differing) rows (first: row \(first), \(a[first]) pt against \(b[first]) pt)") }
    }

    static func kindCounts(_ rows: CellRows, _ profile: Profile) -> [(String, Int)] {
        var counts: [UInt16: Int] = [:]
        for k in rows.kinds { counts[k, default: 0] += 1 }
        return profile.kinds.compactMap { k in counts[k.code].map { (k.name, $0) } }
    }
}

/// The per-cell Pango peer: records the template's text measurements of the first rows,
/// has the harness lay them out, replays the template over its answers.
enum PangoCells {
    struct Result {
        var environment: LayoutEnvironment
        var records: Int
        var pangoSeconds: Double
        var replayNs: Double
        var rows: Int
        var version: String
        var textsAtOtherWidths: Int
        /// Line counts of wrapped texts equal to Tessera's, overall and per kind.slot.
        var linesSame: Int, linesTotal: Int
        var bySlot: [(slot: String, same: Int, total: Int)]
        /// Natural widths within 0.5 pt of Tessera's.
        var naturalSame: Int, naturalTotal: Int
        /// Row heights equal to Tessera's.
        var heightsSame: Int
        var tesseraHeights: [Double]

        var nsPerRow: Double { (pangoSeconds * 1e9 + replayNs) / Double(rows) }
        var pangoNsPerRow: Double { pangoSeconds * 1e9 / Double(rows) }
        var replayNsPerRow: Double { replayNs / Double(rows) }
    }

    static func run(harness: String, profile: Profile, environment: LayoutEnvironment, rows: CellRows, count: Int,
                    caches: TextLayoutEngine.Configuration) throws -> Result {
        let m = try CellMeasurer(profile: profile, environment: environment, textEngine: TextLayoutEngine(configuration: caches))
        let log = CellTextLog(mode: .record)
        m.textLog = log
        var rowStart: [Int] = []
        var tessera: [Double] = []
        let spr = rows.slotsPerRow
        rows.withColumns { kinds, utf8, offsets in
            for r in 0..<count {
                rowStart.append(log.requests.count)
                tessera.append(m.loggedHeight(kind: kinds[r], utf8: utf8, slotOffsets: CellRows.slotOffsets(offsets, row: r, slotsPerRow: spr)))
            }
        }
        rowStart.append(log.requests.count)

        // Faces: each style's primary file; the fallbacks must be the same for every style.
        let styles = m.textStyles
        var faces: [String] = []
        var faceOf: [Int] = []
        let fallbacks = Array(styles.first?.fontFiles.dropFirst() ?? [])
        for s in styles {
            guard Array(s.fontFiles.dropFirst()) == fallbacks else {
                throw SuiteFailure("text style \(s.name) has other fallback fonts than \(styles[0].name); the harness takes one list")
            }
            if let i = faces.firstIndex(of: s.fontFiles[0]) { faceOf.append(i) } else {
                faceOf.append(faces.count)
                faces.append(s.fontFiles[0])
            }
        }

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cellbench-measure-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var version = "?"
        /// Pango lays out the given requests; returns its seconds and (lines, width) per request.
        func pango(_ requests: [CellTextLog.Request]) throws -> (Double, [(Int, Double)]) {
            guard !requests.isEmpty else { return (0, []) }
            var text: [UInt8] = []
            for q in requests {
                let s = styles[q.style]
                text += "\(faceOf[q.style]) \(s.size) \(s.lineHeight) \(s.letterSpacing) \(q.isNatural ? 0 : q.width) \(q.maxLines)\t".utf8
                let bytes = rows.utf8[q.bytes]
                guard !bytes.contains(0x0A), !bytes.contains(0x09) else { throw SuiteFailure("a text holds a tab or a line feed") }
                text += bytes
                text.append(0x0A)
            }
            let recordsFile = directory.appendingPathComponent("records.txt"), outFile = directory.appendingPathComponent("out.txt")
            try Data(text).write(to: recordsFile)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: harness)
            process.arguments = ["--records", recordsFile.path] + faces.flatMap { ["--face", $0] } + fallbacks.flatMap { ["--fallback", $0] }
                + ["--json", "--out", outFile.path]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw SuiteFailure("the Pango harness \(harness) exited with status \(process.terminationStatus)") }
            guard let summary = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let seconds = summary["seconds"] as? Double, let records = summary["records"] as? Int
            else { throw SuiteFailure("the Pango harness printed no usable summary") }
            version = summary["pango"] as? String ?? "?"
            let answers = try String(contentsOf: outFile, encoding: .utf8).split(separator: "\n").map { line -> (Int, Double) in
                let parts = line.split(separator: " ")
                guard parts.count == 2, let lines = Int(parts[0]), let width = Double(parts[1]) else {
                    throw SuiteFailure("the Pango harness wrote an unreadable result: \(line)")
                }
                return (lines, width)
            }
            guard records == requests.count, answers.count == records else {
                throw SuiteFailure("the Pango harness answered \(answers.count) of \(requests.count) records")
            }
            return (seconds, answers)
        }
        func replay(_ requests: [CellTextLog.Request], updatesWidths: Bool) -> (CellTextLog, [Double], UInt64) {
            let log = CellTextLog(mode: .replay)
            log.requests = requests
            log.updatesWidths = updatesWidths
            m.textLog = log
            var heights = [Double](repeating: 0, count: count)
            let start = MonotonicClock.now()
            rows.withColumns { kinds, utf8, offsets in
                for r in 0..<count {
                    heights[r] = m.loggedHeight(kind: kinds[r], utf8: utf8, slotOffsets: CellRows.slotOffsets(offsets, row: r, slotsPerRow: spr))
                }
            }
            return (log, heights, MonotonicClock.now() &- start)
        }

        // Pango's natural widths first: they decide the fit columns, and with them the
        // widths the template gives the other texts; then those texts at those widths.
        let naturalIndexes = log.requests.indices.filter { log.requests[$0].isNatural }
        let (naturalSeconds, naturalAnswers) = try pango(naturalIndexes.map { log.requests[$0] })
        var requests = log.requests
        for (k, i) in naturalIndexes.enumerated() { requests[i].lineWidth = naturalAnswers[k].1; requests[i].lines = naturalAnswers[k].0 }
        let (widened, _, _) = replay(requests, updatesWidths: true)
        guard widened.cursor == requests.count else { throw SuiteFailure("the replay used \(widened.cursor) of \(requests.count) answers") }
        requests = widened.requests
        let textIndexes = requests.indices.filter { !requests[$0].isNatural }
        let (textSeconds, textAnswers) = try pango(textIndexes.map { requests[$0] })
        for (k, i) in textIndexes.enumerated() { requests[i].lines = textAnswers[k].0 }
        let seconds = naturalSeconds + textSeconds
        let records = requests.count
        var otherWidths = 0
        for i in textIndexes where requests[i].width != log.requests[i].width { otherWidths += 1 }

        // The same template arithmetic over Pango's answers, timed.
        let (final, peerHeights, replayTime) = replay(requests, updatesWidths: false)
        let replayNs = Double(replayTime)
        guard final.cursor == records else { throw SuiteFailure("the replay used \(final.cursor) of \(records) answers") }
        let answers = requests.map { ($0.lines, $0.lineWidth) }

        var linesSame = 0, linesTotal = 0, naturalSame = 0, naturalTotal = 0
        var bySlot: [String: (same: Int, total: Int)] = [:]
        var order: [String] = []
        for r in 0..<count {
            let kind = profile.kind(code: rows.kinds[r])!
            for i in rowStart[r]..<rowStart[r + 1] {
                let q = log.requests[i], a = answers[i]
                if q.isNatural {
                    naturalTotal += 1
                    if abs(q.lineWidth - a.1) <= 0.5 { naturalSame += 1 }
                    continue
                }
                let name = "\(kind.name).\(kind.slots[q.slot].name)"
                if bySlot[name] == nil { order.append(name) }
                linesTotal += 1
                bySlot[name, default: (0, 0)].total += 1
                if q.lines == a.0 {
                    linesSame += 1
                    bySlot[name, default: (0, 0)].same += 1
                }
            }
        }
        let heightsSame = zip(peerHeights, tessera).filter { $0 == $1 }.count
        return Result(environment: environment, records: records, pangoSeconds: seconds, replayNs: replayNs, rows: count,
                      version: version, textsAtOtherWidths: otherWidths, linesSame: linesSame, linesTotal: linesTotal,
                      bySlot: order.sorted().map { ($0, bySlot[$0]!.same, bySlot[$0]!.total) },
                      naturalSame: naturalSame, naturalTotal: naturalTotal, heightsSame: heightsSame, tesseraHeights: tessera)
    }
}

struct MeasureReport {
    struct Memory {
        var allocated: Int
        var resident: Int
        var allocatedAfterRelayouts: Int
    }

    var configuration: MeasureSuite.Configuration
    var profile: String
    var platform: LayoutEnvironment.Platform
    var environments: [LayoutEnvironment]
    var generationPerRow: Double
    var results: [TimedResult]
    var threadResult: TimedResult
    var relayoutScratch: [(String, Double)]
    /// The measuring threads' CPU time of each change's pass, ns/row (all threads).
    var relayoutCPU: [(String, Double)]
    /// The same for the kept cold pass.
    var coldCPU: Double
    /// Rows measured again by each relayout (the others' kinds kept their layout).
    var remeasured: [(String, Int)]
    /// Of those, the rows whose heights came from kept results alone.
    var fromKept: [(String, Int)]
    var textBatchBytes: Int
    var peers: [PangoCells.Result]
    var peerName: String
    var peerRows: Int
    var memory: Memory
    var firstTouchPerRow: Double
    /// The longest thread's CPU time per row of the cold passes on one and on two threads.
    var threadCPU: (one: Double, two: Double, twoTotal: Double)
    /// A trivially parallel workload's two-thread speedup, right before and right after
    /// the cold passes on one and two threads.
    var machine: (before: ParallelismProbe, after: ParallelismProbe)
    /// The process's user and system time and minor faults across the cold pass on one and on two threads.
    var coldProcessTimes: (one: ProcessTimes, two: ProcessTimes)
    var coldStatistics: ParallelMeasurer.Statistics
    var finalStatistics: ParallelMeasurer.Statistics
    var bytesPerRowText: Double
    var slotsPerRow: Int
    var kindCounts: [(String, Int)]
    /// Every sample's wall time (ns/row) of each timed pass, in the order they ran.
    var samples: [(String, [Double])]
    /// Per change: whether every sample measured the same rows again, as many from kept results.
    var sampleWork: [(String, Bool)]

    static let suite = "measure"
    var suiteName: String { "\(Self.suite)/\(profile)" }

    /// The summary's row for `machine` (no target: it is what the engine's figure is read against).
    var machineRow: [String] {
        func text(_ p: ParallelismProbe) -> String { "compute \(Report.number(p.compute.speedup))x, memory \(Report.number(p.memory.speedup))x" }
        return [suiteName, "machine_threads_2", "x", "\(text(machine.before)); after: \(text(machine.after))", "-", "-", "ParallelismProbe", "-"]
    }
    var bytesPerRow: Double { Double(memory.allocated) / Double(configuration.rows) }
    /// Bytes the text engines' cache entries hold after the cold pass (as the caches
    /// account them) per row.
    var cacheBytesPerRow: Double {
        let s = coldStatistics
        return Double(s.segments.bytes + s.preparedTexts.bytes + s.lineBreaks.bytes) / Double(configuration.rows)
    }

    var agreement: (lines: Double, natural: Double, heights: Double)? {
        guard let p = peers.first else { return nil }
        return (100 * Double(p.linesSame) / Double(max(p.linesTotal, 1)), 100 * Double(p.naturalSame) / Double(max(p.naturalTotal, 1)),
                100 * Double(p.heightsSame) / Double(max(p.rows, 1)))
    }

    func printTable() {
        var table: [[String]] = [["suite", "metric", "unit", "tessera", "peer", "speedup", "target", "met"]]
        table += results.map { $0.tableRow(suite: suiteName) }
        if configuration.groupedRows { table.append([suiteName, "rows", "-", "grouped by kind and present values", "-", "-", "-", "diagnostic"]) }
        var threads = threadResult.tableRow(suite: suiteName)
        threads[4] += " (1 thread)"
        table.append(threads)
        table.append(machineRow)
        table.append([suiteName, "bytes_per_row", "B/row", Report.number(bytesPerRow), "-", "-", "-", "jemalloc, cold"])
        table.append([suiteName, "cache_bytes_per_row", "B/row", Report.number(cacheBytesPerRow), "-", "-", "-", "cache entries, cold"])
        if configuration.textBatches {
            table.append([suiteName, "text_batch_bytes_per_row", "B/row", Report.number(Double(textBatchBytes) / Double(configuration.rows)), "-", "-", "-", "CellTextBatch"])
        }
        if let a = agreement {
            table.append([suiteName, "agreement_lines", "%", Report.number(a.lines), "-", "-", "-", "\(peers[0].linesTotal) texts"])
            if peers[0].naturalTotal > 0 {
                table.append([suiteName, "agreement_natural_width", "%", Report.number(a.natural), "-", "-", "-", "\(peers[0].naturalTotal) texts, ±0.5 pt"])
            }
            table.append([suiteName, "agreement_heights", "%", Report.number(a.heights), "-", "-", "-", "\(peers[0].rows) rows"])
            for s in peers[0].bySlot {
                table.append([suiteName, "agreement_lines_\(s.slot)", "%", Report.number(100 * Double(s.same) / Double(s.total)), "-", "-", "-", "\(s.total) texts"])
            }
        }
        Report.printTable(table)
        let c = configuration
        print()
        print("profile: \(profile), rows: \(c.rows), seed: \(c.seed), platform: \(platform.rawValue), threads: \(c.threads), slots per row: \(slotsPerRow), text: \(Report.number(bytesPerRowText)) B/row, generated in \(Report.number(generationPerRow)) ns/row")
        print("kinds: " + kindCounts.map { "\($0.0) \($0.1)" }.joined(separator: ", "))
        print("environments: cold \(MeasureSuite.describe(environments[0])); width class \(MeasureSuite.describe(environments[1])); edit mode \(MeasureSuite.describe(environments[2])); font scale \(MeasureSuite.describe(environments[3]))")
        print("threads: cold wall time 1 thread \(Report.number(threadResult.peerValue)) ns/row, 2 threads \(Report.number(threadResult.value)) ns/row; CPU time of the busiest thread 1 thread \(Report.number(threadCPU.one)) ns/row, 2 threads \(Report.number(threadCPU.two)) ns/row (\(Report.number(threadCPU.one / threadCPU.two))x: the speedup if each thread had a core to itself), both threads together \(Report.number(threadCPU.twoTotal)) ns/row (\(Report.number(threadCPU.twoTotal / threadCPU.one))x the one thread's: above 1 is work the split adds)")
        func probe(_ p: ParallelismProbe) -> String {
            "compute \(Report.number(p.compute.speedup))x (threads' CPU together \(Report.number(p.compute.cpuRatio))x the one's), memory \(Report.number(p.memory.speedup))x (\(Report.number(p.memory.cpuRatio))x)"
        }
        func split(_ p: ProcessTimes) -> String {
            "user \(Report.number(Double(p.user) / Double(c.rows))), system \(Report.number(Double(p.system) / Double(c.rows))) ns/row, \(p.minorFaults) minor faults"
        }
        print("cold passes, the process's time (getrusage): 1 thread \(split(coldProcessTimes.one)); 2 threads \(split(coldProcessTimes.two)) (system time is the kernel's, mostly the first touch of the text batches' and caches' memory)")
        print("the machine's own two-thread speedup (ParallelismProbe: a trivially parallel workload on one thread and on two): before the cold passes \(probe(machine.before)); after \(probe(machine.after))")
        if configuration.warmUp {
            print("first pass (fresh measurers, 2 threads, in memory not yet touched by the process; untimed for the results): \(Report.number(firstTouchPerRow)) ns/row")
        }
        print("samples (wall ns/row, in the order they ran; the median is reported): " + samples.map { "\($0.0) " + $0.1.map { Report.number($0) }.joined(separator: ", ") }.joined(separator: "; ")
              + (sampleWork.allSatisfy(\.1) ? " (every change's samples measured the same rows again)" : "; samples that measured other rows again: " + sampleWork.filter { !$0.1 }.map(\.0).joined(separator: ", ")))
        print("rows measured again: " + remeasured.map { "\($0.0) \($0.1)" }.joined(separator: ", ") + " (the engine marks rows of kinds whose layout the change leaves as it was clean: they keep their heights)")
        print("of those, from kept results (rows not decoded): " + fromKept.map { "\($0.0) \($0.1)" }.joined(separator: ", "))
        print("measuring: ListEngine.measureAll(threads:) over \(configuration.rows) appended rows, " + (configuration.textBatches ? "keeping prepared texts (CellTextBatch per thread: texts prepared in the cold pass, laid out again from their segments; \(textBatchBytes) B, \(Report.number(Double(textBatchBytes) / Double(configuration.rows))) B/row)" : "through the text engines' caches (keepsPreparedTexts off)"))
        print("CPU time of the passes (setEnvironment marking the rows on this thread, then the measuring threads; ns/row; ratio to the cold pass's \(Report.number(coldCPU))): " + relayoutCPU.map { "\($0.0) \(Report.number($0.1)) (\(Report.number(coldCPU / $0.1))x)" }.joined(separator: ", "))
        print("from scratch (fresh measurers without text batches, through the caches, 2 threads) in the changed environments: " + relayoutScratch.map { "\($0.0) \(Report.number($0.1)) ns/row" }.joined(separator: ", "))
        if peers.isEmpty {
            print("peer: none (no Pango harness or --peer-rows 0)")
        } else {
            print("peer: \(peerName), one thread, on the first \(peerRows) rows: per environment Pango + replayed template arithmetic (ns/row):")
            for p in peers {
                print("  \(MeasureSuite.describe(p.environment)): \(p.records) texts (\(p.textsAtOtherWidths) at another width than Tessera's), Pango \(Report.number(p.pangoNsPerRow)) + arithmetic \(Report.number(p.replayNsPerRow)) = \(Report.number(p.nsPerRow)); lines equal \(Report.number(100 * Double(p.linesSame) / Double(max(p.linesTotal, 1)))) %, heights equal \(Report.number(100 * Double(p.heightsSame) / Double(max(p.rows, 1)))) %")
            }
        }
        let b = c.caches
        print("caches per engine (one per thread): segments \(b.segmentCacheBytes >> 20) MiB, prepared texts \(b.preparedTextCacheBytes >> 20) MiB, line breaks \(b.lineBreakCacheBytes >> 20) MiB")
        print("after cold (all engines): segments \(coldStatistics.segments)")
        print("  prepared texts \(coldStatistics.preparedTexts)")
        print("  line breaks \(coldStatistics.lineBreaks)")
        print("after the relayouts: segments \(finalStatistics.segments)")
        print("  prepared texts \(finalStatistics.preparedTexts)")
        print("  line breaks \(finalStatistics.lineBreaks)")
        print("memory: jemalloc stats.allocated growth across creating the measurers and the cold pass: \(memory.allocated) B (\(Report.number(bytesPerRow)) B/row: text batches, the segment cache's arena at its budget, measurers), resident \(memory.resident) B; after the relayouts \(memory.allocatedAfterRelayouts) B; cache entries after cold \(Report.number(cacheBytesPerRow)) B/row")
    }

    func json() -> String {
        let c = configuration
        var out = "{\"suite\": \(Report.string(Self.suite)), \"profile\": \(Report.string(profile)), \"rows\": \(c.rows), \"seed\": \(c.seed), "
        if c.groupedRows { out += "\"grouped_rows\": true, " }
        out += "\"platform\": \(Report.string(platform.rawValue)), \"threads\": \(c.threads), \"peer\": \(Report.string(peerName)), \"peer_rows\": \(peerRows), "
        out += "\"environments\": [" + environments.map {
            "{\"width\": \(Report.json($0.width)), \"edit_mode\": \($0.editMode), \"font_scale\": \(Report.json($0.fontScale))}"
        }.joined(separator: ", ") + "], "
        out += "\"results\": ["
        var items = results.map { $0.json(peer: peerName) }
        items.append(threadResult.json(peer: "1 thread"))
        if let a = agreement {
            items.append("{\"name\": \"agreement_lines\", \"unit\": \"%\", \"value\": \(Report.json(a.lines)), \"peer\": \(Report.string(peerName)), \"peer_value\": null, \"speedup\": null, \"texts\": \(peers[0].linesTotal)}")
            items.append("{\"name\": \"agreement_natural_width\", \"unit\": \"%\", \"value\": \(peers[0].naturalTotal > 0 ? Report.json(a.natural) : "null"), \"peer\": \(Report.string(peerName)), \"peer_value\": null, \"speedup\": null, \"texts\": \(peers[0].naturalTotal)}")
            items.append("{\"name\": \"agreement_heights\", \"unit\": \"%\", \"value\": \(Report.json(a.heights)), \"peer\": \(Report.string(peerName)), \"peer_value\": null, \"speedup\": null, \"rows\": \(peers[0].rows)}")
            for s in peers[0].bySlot {
                items.append("{\"name\": \(Report.string("agreement_lines_" + s.slot)), \"unit\": \"%\", \"value\": \(Report.json(100 * Double(s.same) / Double(s.total))), \"peer\": \(Report.string(peerName)), \"peer_value\": null, \"speedup\": null, \"texts\": \(s.total)}")
            }
        }
        out += items.joined(separator: ", ") + "], "
        out += "\"peer_environments\": [" + peers.map {
            "{\"width\": \(Report.json($0.environment.width)), \"edit_mode\": \($0.environment.editMode), \"font_scale\": \(Report.json($0.environment.fontScale)), \"texts\": \($0.records), \"pango_ns_per_row\": \(Report.json($0.pangoNsPerRow)), \"arithmetic_ns_per_row\": \(Report.json($0.replayNsPerRow)), \"lines_equal_percent\": \(Report.json(100 * Double($0.linesSame) / Double(max($0.linesTotal, 1)))), \"heights_equal_percent\": \(Report.json(100 * Double($0.heightsSame) / Double(max($0.rows, 1))))}"
        }.joined(separator: ", ") + "], "
        out += "\"thread_cpu_ns_per_row\": {\"one_thread\": \(Report.json(threadCPU.one)), \"two_threads_busiest\": \(Report.json(threadCPU.two)), \"two_threads_total\": \(Report.json(threadCPU.twoTotal))}, "
        func probe(_ p: ParallelismProbe) -> String {
            "{\"compute_speedup\": \(Report.json(p.compute.speedup)), \"compute_cpu_ratio\": \(Report.json(p.compute.cpuRatio)), \"memory_speedup\": \(Report.json(p.memory.speedup)), \"memory_cpu_ratio\": \(Report.json(p.memory.cpuRatio))}"
        }
        func split(_ p: ProcessTimes) -> String {
            "{\"user_ns_per_row\": \(Report.json(Double(p.user) / Double(c.rows))), \"system_ns_per_row\": \(Report.json(Double(p.system) / Double(c.rows))), \"minor_faults\": \(p.minorFaults)}"
        }
        out += "\"cold_process_times\": {\"one_thread\": \(split(coldProcessTimes.one)), \"two_threads\": \(split(coldProcessTimes.two))}, "
        out += "\"machine_two_threads\": {\"before\": \(probe(machine.before)), \"after\": \(probe(machine.after))}, "
        out += "\"first_touch_pass_ns_per_row\": \(configuration.warmUp ? Report.json(firstTouchPerRow) : "null"), "
        out += "\"samples_ns_per_row\": {" + samples.map { "\(Report.string($0.0)): [" + $0.1.map { Report.json($0) }.joined(separator: ", ") + "]" }.joined(separator: ", ") + "}, "
        out += "\"samples_same_work\": {" + sampleWork.map { "\(Report.string($0.0)): \($0.1)" }.joined(separator: ", ") + "}, "
        out += "\"rows_measured_again\": {" + remeasured.map { "\(Report.string($0.0)): \($0.1)" }.joined(separator: ", ") + "}, "
        out += "\"rows_from_kept_results\": {" + fromKept.map { "\(Report.string($0.0)): \($0.1)" }.joined(separator: ", ") + "}, "
        out += "\"text_batches\": \(configuration.textBatches), \"text_batch_bytes\": \(textBatchBytes), "
        out += "\"thread_cpu_ns_per_row_passes\": {\"measure_all_cold\": \(Report.json(coldCPU)), " + relayoutCPU.map { "\(Report.string($0.0)): \(Report.json($0.1))" }.joined(separator: ", ") + "}, "
        out += "\"from_scratch_ns_per_row\": {" + relayoutScratch.map { "\(Report.string($0.0)): \(Report.json($0.1))" }.joined(separator: ", ") + "}, "
        func cache(_ x: CacheStatistics) -> String {
            "{\"hits\": \(x.hits), \"misses\": \(x.misses), \"evictions\": \(x.evictions), \"entries\": \(x.entries), \"bytes\": \(x.bytes), \"budget\": \(x.budget), \"bypasses\": \(x.bypasses)}"
        }
        func caches(_ s: ParallelMeasurer.Statistics) -> String {
            "{\"segments\": \(cache(s.segments)), \"prepared_texts\": \(cache(s.preparedTexts)), \"line_breaks\": \(cache(s.lineBreaks))}"
        }
        let b = c.caches
        out += "\"memory\": {\"bytes_per_row\": \(Report.json(bytesPerRow)), \"cache_bytes_per_row\": \(Report.json(cacheBytesPerRow)), \"allocated_bytes\": \(memory.allocated), \"resident_bytes\": \(memory.resident), "
        out += "\"allocated_bytes_after_relayouts\": \(memory.allocatedAfterRelayouts), \"text_bytes_per_row\": \(Report.json(bytesPerRowText)), "
        out += "\"cache_budgets_per_engine\": {\"segments\": \(b.segmentCacheBytes), \"prepared_texts\": \(b.preparedTextCacheBytes), \"line_breaks\": \(b.lineBreakCacheBytes)}, "
        out += "\"caches_after_cold\": \(caches(coldStatistics)), \"caches_after_relayouts\": \(caches(finalStatistics))}, "
        out += "\"kinds\": {" + kindCounts.map { "\(Report.string($0.0)): \($0.1)" }.joined(separator: ", ") + "}, "
        out += "\"generation_ns_per_row\": \(Report.json(generationPerRow))}"
        return out
    }
}
