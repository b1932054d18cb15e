import Tessera

/// The scroll suite's results for one profile: frame times, blank rows and jump, overall
/// and per phase, for Tessera and the peer of the same run; the frames themselves (for the
/// plots); memory.
struct ScrollReport {
    struct MemoryDelta {
        var allocated = 0
        var resident = 0
        init() {}
        init(_ a: MemoryStatistics, _ b: MemoryStatistics) {
            allocated = b.allocated - a.allocated
            resident = b.resident - a.resident
        }
    }

    struct Memory {
        /// jemalloc growth across loading the rows into each side, and across each side's run
        /// (Tessera's text caches and measured state; the peer's measurer).
        var tesseraLoad = MemoryDelta(), tesseraRun = MemoryDelta()
        var peerLoad = MemoryDelta(), peerRun = MemoryDelta()
        var store: StoreMemory? = nil
    }

    var profile: String
    var rows: Int
    var seed: UInt64
    var configuration: ScrollSuite.Configuration
    var frames: Int
    var tessera: [FrameRecord]
    var peer: [FrameRecord]
    var memory: Memory
    var loadNanosPerRow: (tessera: Double, peer: Double)
    var measuredRows: (tessera: Int, peer: Int)
    var finalRows: Int
    var windowQueries: Int
    var peerRebuiltOffsets: Int
    var heightsChecked: Int
    var loadAverage: [Double]

    static let suite = "scroll"
    static let peerName = "estimate-and-correct (flat prefix array)"

    static let notes = [
        "frame_*: nanoseconds of one frame's engine work, 120 Hz script. Tessera: scroll, measure the window's unmeasured rows "
            + "before drawing (and background rows), keep the anchor, window query. Peer: scroll, window query by binary search, "
            + "draw, then measure the drawn rows that were unmeasured and rebuild the offsets from the first changed row, no anchor.",
        "blank_rows: rows inside the viewport drawn before they were measured (at their estimated size), summed over frames.",
        "jump: points the row under the middle of the viewport moved on screen between frames beyond the user's own scroll, "
            + "summed over frames (1 pt = 1 px at 1x: an iOS point, an Android dp, a CSS pixel); "
            + "differences below 0.001 pt are rounding. Programmatic scrolls (to a row, the end, the top) are not compared across.",
        "Both sides measure with a CellMeasurer over TextLayoutEngine() (default caches), the same profile and environment; "
            + "the heights of every row both measured are checked equal after the run (lists; not grids).",
    ]

    func statistics(_ records: [FrameRecord], phase: ScrollPhase?) -> FrameStatistics {
        guard let phase else { return FrameStatistics(records) }
        return FrameStatistics(records.lazy.filter { $0.phase == phase })
    }

    /// The results of a phase (nil: the whole run), shaped as every suite's.
    func results(phase: ScrollPhase?) -> [TimedResult] {
        let t = statistics(tessera, phase: phase), p = statistics(peer, phase: phase)
        let prefix = phase.map { "\($0.name)." } ?? ""
        func result(_ name: String, _ unit: String, _ value: Double, _ peerValue: Double, _ target: Target?) -> TimedResult {
            TimedResult(name: prefix + name, unit: unit, value: value, peerValue: peerValue, target: target,
                        operations: t.frames, peerOperations: p.frames)
        }
        return [
            result("frame_p50", "ns", t.p50, p.p50, nil),
            result("frame_p99", "ns", t.p99, p.p99, .below(Double(FrameStatistics.budgetNanoseconds))),
            result("frame_max", "ns", t.max, p.max, nil),
            result("frames_over_1ms", "frames", Double(t.overBudget), Double(p.overBudget), nil),
            result("frame_cpu_p50", "ns", t.cpuP50, p.cpuP50, nil),
            result("frame_cpu_p99", "ns", t.cpuP99, p.cpuP99, .below(Double(FrameStatistics.budgetNanoseconds))),
            result("frame_cpu_max", "ns", t.cpuMax, p.cpuMax, nil),
            result("frames_over_1ms_cpu", "frames", Double(t.cpuOverBudget), Double(p.cpuOverBudget), nil),
            result("blank_rows", "rows", Double(t.blankRows), Double(p.blankRows), .atMost(0)),
            result("jump", "px", t.jump, p.jump, .atMost(0)),
        ]
    }

    var allResults: [TimedResult] {
        results(phase: nil) + ScrollPhase.allCases.flatMap { results(phase: $0) }
    }

    // MARK: Table

    func printTable() {
        var table: [[String]] = [["suite", "metric", "unit", "tessera", "peer", "speedup", "target", "met"]]
        table += allResults.map { $0.tableRow(suite: "\(Self.suite) \(profile)") }
        Report.printTable(table)
        print()
        print("rows: \(rows) (\(finalRows) after the inserts), seed: \(seed), profile: \(profile), frames: \(frames) at 120 Hz, "
            + "viewport \(Report.number(configuration.viewport)) pt, overscan \(Report.number(configuration.overscan)) pt, "
            + "Tessera's background rows per frame: \(configuration.backgroundRows)")
        print("peer: \(Self.peerName), same run; load average \(loadAverage.map { Report.number($0) }.joined(separator: " "))")
        print("rows measured: Tessera \(measuredRows.tessera), peer \(measuredRows.peer); heights compared equal: \(heightsChecked) rows")
        print("load (append every row unmeasured): Tessera \(Report.number(loadNanosPerRow.tessera)) ns/row, peer \(Report.number(loadNanosPerRow.peer)) ns/row")
        let m = memory
        print("memory (jemalloc, B/row): Tessera load allocated \(Report.number(perRow(m.tesseraLoad.allocated))), resident \(Report.number(perRow(m.tesseraLoad.resident))); "
            + "after its run +\(Report.number(perRow(m.tesseraRun.allocated))) allocated; peer load allocated \(Report.number(perRow(m.peerLoad.allocated))), "
            + "resident \(Report.number(perRow(m.peerLoad.resident)))")
        for note in Self.notes { print("note: \(note)") }
    }

    func perRow(_ bytes: Int) -> Double { Double(bytes) / Double(rows) }

    // MARK: JSON

    func json() -> String {
        var out = "{\"suite\": \(Report.string(Self.suite)), \"profile\": \(Report.string(profile)), \"rows\": \(rows), \"seed\": \(seed), "
        out += "\"peer\": \(Report.string(Self.peerName)), "
        out += "\"frames\": \(frames), \"frame_rate_hz\": 120, \"viewport\": \(Report.json(configuration.viewport)), "
        out += "\"overscan\": \(Report.json(configuration.overscan)), \"background_rows\": \(configuration.backgroundRows), "
        out += "\"results\": [" + results(phase: nil).map { $0.json(peer: Self.peerName) }.joined(separator: ", ") + "], "
        out += "\"phases\": [" + ScrollPhase.allCases.map { phase in
            let t = statistics(tessera, phase: phase), p = statistics(peer, phase: phase)
            return "{\"name\": \(Report.string(phase.name)), \"frames\": \(t.frames), \"results\": ["
                + results(phase: phase).map { $0.json(peer: Self.peerName) }.joined(separator: ", ")
                + "], \"jump_frames\": \(t.jumpFrames), \"peer_jump_frames\": \(p.jumpFrames), "
                + "\"largest_jump\": \(Report.json(t.largestJump)), \"peer_largest_jump\": \(Report.json(p.largestJump))}"
        }.joined(separator: ", ") + "], "
        out += "\"series\": {\"phase\": [" + tessera.map { String($0.phase.rawValue) }.joined(separator: ",") + "], "
        out += "\"phase_names\": [" + ScrollPhase.allCases.map { Report.string($0.name) }.joined(separator: ", ") + "], "
        out += "\"tessera_ns\": [" + tessera.map { String($0.nanoseconds) }.joined(separator: ",") + "], "
        out += "\"peer_ns\": [" + peer.map { String($0.nanoseconds) }.joined(separator: ",") + "], "
        out += "\"tessera_cpu_ns\": [" + tessera.map { String($0.cpuNanoseconds) }.joined(separator: ",") + "], "
        out += "\"peer_cpu_ns\": [" + peer.map { String($0.cpuNanoseconds) }.joined(separator: ",") + "], "
        out += "\"tessera_jump\": [" + tessera.map { Report.json($0.jump) }.joined(separator: ",") + "], "
        out += "\"peer_jump\": [" + peer.map { Report.json($0.jump) }.joined(separator: ",") + "], "
        out += "\"tessera_blank\": [" + tessera.map { String($0.blankRows) }.joined(separator: ",") + "], "
        out += "\"peer_blank\": [" + peer.map { String($0.blankRows) }.joined(separator: ",") + "]}, "
        let m = memory
        out += "\"memory\": {\"rows\": \(rows), "
        out += "\"bytes_per_row\": \(Report.json(perRow(m.tesseraLoad.allocated))), "
        out += "\"resident_bytes_per_row\": \(Report.json(perRow(m.tesseraLoad.resident))), "
        out += "\"allocated_bytes\": \(m.tesseraLoad.allocated), \"resident_bytes\": \(m.tesseraLoad.resident), "
        out += "\"run_allocated_bytes\": \(m.tesseraRun.allocated), \"run_resident_bytes\": \(m.tesseraRun.resident), "
        if let s = m.store {
            out += "\"store\": {\"pages\": \(s.pages), \"tree\": \(s.tree), \"id_index\": \(s.idIndex), "
            out += "\"text_arena\": \(s.textArena), \"scratch\": \(s.scratch)}, "
        }
        out += "\"peer_bytes_per_row\": \(Report.json(perRow(m.peerLoad.allocated))), "
        out += "\"peer_resident_bytes_per_row\": \(Report.json(perRow(m.peerLoad.resident))), "
        out += "\"peer_run_allocated_bytes\": \(m.peerRun.allocated), "
        out += "\"note\": \"growth of jemalloc stats.allocated / stats.resident across appending every row (Tessera: store, tree, "
        out += "id index, text arena; the peer: its columns, without the text it reads from the generated rows), and across each run\"}, "
        out += "\"load_ns_per_row\": \(Report.json(loadNanosPerRow.tessera)), \"peer_load_ns_per_row\": \(Report.json(loadNanosPerRow.peer)), "
        out += "\"measured_rows\": \(measuredRows.tessera), \"peer_measured_rows\": \(measuredRows.peer), "
        out += "\"final_rows\": \(finalRows), \"window_queries\": \(windowQueries), \"peer_rebuilt_offsets\": \(peerRebuiltOffsets), "
        out += "\"heights_checked\": \(heightsChecked), "
        out += "\"load_average\": [\(loadAverage.map { String(format: "%.2f", $0) }.joined(separator: ", "))], "
        out += "\"notes\": [\(Self.notes.map(Report.string).joined(separator: ", "))]}"
        return RunInfo.stamp(out, seed: seed)
    }
}
