import Foundation

/// The diff suite's results: the shared table and JSON shape (`results`), per-case detail
/// (operation counts of both forms and of the peer, allocations, the peer's size), notes.
struct DiffReport {
    var configuration: DiffSuite.Configuration
    var cases: [DiffCaseReport]
    var results: [TimedResult]
    var loadBefore: LoadAverage?
    var loadAfter: LoadAverage?
    var checksum: UInt64
    /// Growth across generating a case's snapshots and diffing them (the largest case).
    var jemalloc: SuiteMemory? = nil
    /// Notes of cases that are not keyed diffs (appended after the suite's own).
    var extraNotes: [String] = []

    static let suite = "diff"

    // MARK: Targets

    /// issue 5: `diffkit_100k` at least 1000x faster than the peer.
    static let diffkitSpeedupTarget = 1000.0
    /// issue 5: `sparse_1m` under 10x the time of the 100k case.
    static let sparseTimeFactor = 10.0
    /// The allocations of one diff must not grow with the rows. Beyond that, the differ
    /// keeps its scratch, so a steady-state diff allocates only its result: the batch's
    /// five arrays (deletes, inserts, moves, updates, updated new indexes; none for an empty
    /// one), and the sequential form one array more.
    static let batchAllocationBound = 5.0
    static let sequentialAllocationBound = 6.0

    /// The table's results from the cases' measurements, targets included:
    ///
    /// - per case, `<case>_batch` and `<case>_sequential` (ns per old row at the case's
    ///   size; the peer's ns per old row at `peer_rows`; the speedup on equal inputs), and
    ///   `<case>_allocations` and `<case>_allocations_sequential` (allocations per diff);
    /// - `diffkit_100k_batch` holds the 1000x speedup target;
    /// - `sparse_1m_allocations` and `sparse_1m_allocations_sequential` hold the
    ///   constant-allocations target: the same count at a tenth of the rows, and no more
    ///   than the result's arrays (`batchAllocationBound`, `sequentialAllocationBound`);
    /// - `sparse_1m_time` (ms per diff) holds "under 10x the time of `diffkit_100k`", when
    ///   both ran.
    static func results(_ cases: [DiffCaseReport]) -> [TimedResult] {
        var results: [TimedResult] = []
        for c in cases {
            let name = c.diffCase.name, peerOnInput = c.tesseraOnPeerInput
            let peerPerRow = Double(c.peer.nanos) / Double(c.peerRows)
            let reduced = c.peerRows != c.rows
            results.append(TimedResult(
                name: "\(name)_batch", unit: "ns/row", value: Double(c.tessera.batchNanos) / Double(c.rows),
                peerValue: peerPerRow, target: c.diffCase == .diffkit ? .speedupAtLeast(diffkitSpeedupTarget) : nil,
                operations: c.rows, peerOperations: c.peerRows,
                valueAtPeerSize: reduced ? Double(peerOnInput.batchNanos) / Double(c.peerRows) : nil))
            results.append(TimedResult(
                name: "\(name)_sequential", unit: "ns/row", value: Double(c.tessera.sequentialNanos) / Double(c.rows),
                peerValue: peerPerRow, target: nil, operations: c.rows, peerOperations: c.peerRows,
                valueAtPeerSize: reduced ? Double(peerOnInput.sequentialNanos) / Double(c.peerRows) : nil))
            for (suffix, value, tenth, bound) in [
                ("allocations", c.tessera.allocations.diff, c.tenthAllocations.diff, batchAllocationBound),
                ("allocations_sequential", c.tessera.allocations.sequential, c.tenthAllocations.sequential, sequentialAllocationBound),
            ] {
                let target: Target? = c.diffCase == .sparse
                    ? .constant(reference: "at \(c.tenthRows) rows", referenceValue: tenth.map(Double.init) ?? .nan, bound: bound)
                    : nil
                results.append(TimedResult(
                    name: "\(name)_\(suffix)", unit: "allocs/diff", value: value.map(Double.init) ?? .nan, peerValue: .nan,
                    target: target, operations: c.rows, peerOperations: 0))
            }
        }
        if let sparse = cases.first(where: { $0.diffCase == .sparse }),
           let diffkit = cases.first(where: { $0.diffCase == .diffkit }) {
            results.append(TimedResult(
                name: "\(DiffCase.sparse.name)_time", unit: "ms/diff", value: Double(sparse.tessera.batchNanos) / 1e6, peerValue: .nan,
                target: .withinFactor(reference: DiffCase.diffkit.name, factor: sparseTimeFactor,
                                      referenceValue: Double(diffkit.tessera.batchNanos) / 1e6),
                operations: sparse.rows, peerOperations: 0))
        }
        return results
    }

    // MARK: Table

    func printTable() {
        var table: [[String]] = [["suite", "metric", "unit", "tessera", "peer", "speedup", "target", "met"]]
        table += results.map { $0.tableRow(suite: Self.suite) }
        Report.printTable(table)
        print()
        var details: [[String]] = [[
            "case", "rows", "new rows", "batch del/ins/mov/upd", "sequential ops rem+ins+mov+chg",
            "peer rows", "tessera at peer rows", "peer del/ins/mov/upd", "allocs diff/seq (at 1/10)",
            "cpu ns/row batch/seq", "peer cpu ns/row", "cpu speedup batch",
        ]]
        for c in cases {
            let t = c.tessera, s = t.sequential, p = c.peer.counts
            func alloc(_ a: DiffAllocations) -> String { "\(a.diff.map(String.init) ?? "?")/\(a.sequential.map(String.init) ?? "?")" }
            details.append([
                c.diffCase.name, "\(c.rows)", "\(c.newRows)", Self.counts(t.batch),
                "\(s.removes)+\(s.inserts)+\(s.moves)+\(s.changes) = \(s.total)",
                "\(c.peerRows)", c.tesseraAtPeerRows.map { Self.counts($0.batch) } ?? "(same)",
                "\(p.deletes)/\(p.inserts)/\(p.moves)/\(p.updates)",
                "\(alloc(t.allocations)) (\(alloc(c.tenthAllocations)))",
                "\(Report.number(Double(t.batchCPUNanos) / Double(c.rows)))/\(Report.number(Double(t.sequentialCPUNanos) / Double(c.rows)))",
                Report.number(Double(c.peer.cpuNanos) / Double(c.peerRows)),
                c.cpuSpeedup.map { Report.number($0) + "x" } ?? "-",
            ])
        }
        Report.printTable(details)
        print()
        let cfg = configuration
        print("rows: \(cfg.rows) (the 1M cases; the 100k cases a tenth), seed: \(cfg.seed), repetitions: \(cfg.repetitions), peer: \(DiffPeer.name) (same run)")
        for note in notes { print("note: \(note)") }
        print("checksum: \(String(checksum, radix: 16))")
    }

    /// sparse_1m's batch CPU time over diffkit_100k's, when both ran.
    var sparseToDiffkitCPURatio: Double? {
        guard let sparse = cases.first(where: { $0.diffCase == .sparse }),
              let diffkit = cases.first(where: { $0.diffCase == .diffkit }), diffkit.tessera.batchCPUNanos > 0
        else { return nil }
        return Double(sparse.tessera.batchCPUNanos) / Double(diffkit.tessera.batchCPUNanos)
    }

    static func counts(_ b: BatchCounts) -> String { "\(b.deletes)/\(b.inserts)/\(b.moves)/\(b.updates)" }

    var notes: [String] {
        var notes = [
            "ns/row = median time of one diff / old rows, over \(configuration.repetitions) calls after one warm-up, one KeyedDiffer (scratch reused) for the whole run; batch = diff(); sequential = diff() then operations(for:).",
            "both forms of every diff were re-applied to the old snapshot (UIKit batch rules, RecyclerView operation by operation) and gave the new snapshot, before timing; the peer's difference was applied with applying(_:).",
            "peer elements carry id and version (Hashable), so a changed row is a removal plus an insertion of the same id: counted (after the timing) as one update. Its moves are the removals inferringMoves() associated.",
            "the peer's time grows with the square of its edit distance D (Myers: d+1 diagonals and a new vector of d+1 offsets at every edit step d); a case whose D (estimated from its shape, an upper bound) exceeds \(configuration.peerBudget.maximumEdits) runs the peer on a smaller instance of the same shape (peer rows), and its speedup compares Tessera timed on that same instance; nothing is extrapolated.",
            "the peer is timed once when its first run takes over \(Report.number(Double(DiffSuite.peerRepeatBelowNanos) / 1e9)) s, otherwise that run is a warm-up and the median of \(configuration.repetitions) runs is taken.",
            "allocations: jemalloc's small.nmalloc + large.nmalloc of an arena only the counting thread uses, across one steady-state call with that thread's cache off (every allocation reaches the arena); diff = one diff(), seq = diff() + operations(for:); the same counted at a tenth of the rows (in brackets).",
        ]
        for c in cases where c.peerRows != c.rows {
            notes.append("\(c.diffCase.name): the peer ran on \(c.peerRows) rows (D ≤ \(c.diffCase.plan(rows: c.peerRows).peerEdits)); at \(c.rows) rows (D ≤ \(c.plan.peerEdits)) it would exceed the budget. Its speedup is at \(c.peerRows) rows.")
        }
        if let r = sparseToDiffkitCPURatio {
            notes.append("on the thread's CPU clock (time waiting for a core left out), sparse_1m takes \(Report.number(r))x the time of diffkit_100k (target < \(Report.number(Self.sparseTimeFactor))x; the table's verdict is on the wall clock).")
        }
        notes += extraNotes
        if let l = loadBefore, let a = loadAfter {
            notes.append("load average (1/5/15 min) before: \(l.text), after: \(a.text) on \(ProcessInfo.processInfo.activeProcessorCount) cores.")
        }
        return notes
    }

    // MARK: JSON

    /// Exactly one JSON object, keys in a fixed order.
    func json() -> String {
        let cfg = configuration
        var out = "{\"suite\": \(Report.string(Self.suite)), \"rows\": \(cfg.rows), \"seed\": \(cfg.seed), "
        out += "\"repetitions\": \(cfg.repetitions), \"peer\": \(Report.string(DiffPeer.name)), \"results\": ["
        out += results.map { r in
            var extra = ", \"rows\": \(r.operations)"
            if r.peerOperations > 0 { extra += ", \"peer_rows\": \(r.peerOperations)" }
            if let v = r.valueAtPeerSize { extra += ", \"value_at_peer_rows\": \(Report.json(v))" }
            return r.json(peer: DiffPeer.name, extra: extra)
        }.joined(separator: ", ")
        out += "], \"cases\": ["
        out += cases.map { c in
            var o = "{\"name\": \(Report.string(c.diffCase.name)), \"rows\": \(c.rows), \"new_rows\": \(c.newRows), "
            o += "\"plan\": {\"deletes\": \(c.plan.deletes), \"inserts\": \(c.plan.inserts), \"moved\": \(c.plan.moved), \"updates\": \(c.plan.updates)}, "
            o += "\"tessera\": \(Self.json(c.tessera)), "
            o += "\"tenth_rows\": \(c.tenthRows), \"tenth_allocations\": \(Self.json(c.tenthAllocations)), "
            o += "\"peer_rows\": \(c.peerRows), "
            o += "\"tessera_at_peer_rows\": \(c.tesseraAtPeerRows.map(Self.json) ?? "null"), "
            let p = c.peer
            o += "\"peer_result\": {\"rows\": \(p.rows), \"ns\": \(p.nanos), \"ns_per_row\": \(Report.json(Double(p.nanos) / Double(p.rows))), "
            o += "\"cpu_ns\": \(p.cpuNanos), \"cpu_speedup_batch\": \(Report.json(c.cpuSpeedup)), "
            o += "\"repetitions\": \(p.repetitions), \"deletes\": \(p.counts.deletes), \"inserts\": \(p.counts.inserts), "
            o += "\"moves\": \(p.counts.moves), \"updates\": \(p.counts.updates)}}"
            return o
        }.joined(separator: ", ")
        out += "], \"sparse_to_diffkit_cpu_ratio\": \(Report.json(sparseToDiffkitCPURatio))"
        if let l = loadBefore, let a = loadAfter {
            out += ", \"load_average\": {\"before\": [\(l.one), \(l.five), \(l.fifteen)], \"after\": [\(a.one), \(a.five), \(a.fifteen)]}, "
        } else {
            out += ", "
        }
        out += "\"cores\": \(ProcessInfo.processInfo.activeProcessorCount), "
        if let jemalloc {
            out += "\"jemalloc\": \(jemalloc.json(what: "growth across generating a case's old and new snapshots and diffing them (the case that grew most); rows = its old rows")), "
        }
        out += "\"notes\": [\(notes.map(Report.string).joined(separator: ", "))], "
        out += "\"checksum\": \(Report.string(String(checksum, radix: 16)))}"
        return out
    }

    static func json(_ m: TesseraDiffMeasurement) -> String {
        var o = "{\"rows\": \(m.rows), \"batch_ns\": \(m.batchNanos), \"batch_ns_per_row\": \(Report.json(Double(m.batchNanos) / Double(m.rows))), "
        o += "\"sequential_ns\": \(m.sequentialNanos), \"sequential_ns_per_row\": \(Report.json(Double(m.sequentialNanos) / Double(m.rows))), "
        o += "\"batch_cpu_ns\": \(m.batchCPUNanos), \"sequential_cpu_ns\": \(m.sequentialCPUNanos), "
        o += "\"repetitions\": \(m.repetitions), "
        o += "\"batch\": {\"deletes\": \(m.batch.deletes), \"inserts\": \(m.batch.inserts), \"moves\": \(m.batch.moves), \"updates\": \(m.batch.updates)}, "
        let s = m.sequential
        o += "\"sequential\": {\"removes\": \(s.removes), \"inserts\": \(s.inserts), \"moves\": \(s.moves), \"changes\": \(s.changes), \"operations\": \(s.total)}, "
        o += "\"allocations\": \(json(m.allocations))}"
        return o
    }

    static func json(_ a: DiffAllocations) -> String {
        "{\"diff\": \(a.diff.map(String.init) ?? "null"), \"sequential\": \(a.sequential.map(String.init) ?? "null")}"
    }
}
