import Foundation
import Tessera

/// The diff suite: Tessera's `KeyedDiffer` (both output forms) and the standard library's
/// `difference(from:).inferringMoves()` on the same old/new snapshots, in one run.
///
/// For each case, in order: generate the snapshots; diff them once and re-apply both forms
/// to the old snapshot (a mismatch throws: exit status 1); time the batch form (`diff`) and
/// the sequential form (`diff` then `operations(for:)`) as the median of `repetitions`
/// calls after a warm-up, with one differ for the whole run so its scratch is reused as a
/// host's would be; count the allocations of one steady-state call of each with jemalloc's
/// statistics, at the case's size and at a tenth of it; then run the peer on the same
/// snapshots, or, when its O(ND) cost would not fit `peerBudget`, on a smaller instance of
/// the same shape (`peer_rows`), on which Tessera is timed again so every speedup compares
/// equal inputs.
///
/// Cases that are not a diff of two snapshots (applying a batch to a measured engine
/// against rebuilding it) run after the keyed cases in `run()`, append their `TimedResult`s
/// to `DiffReport.results` (the table and JSON take any result) and their details to
/// `DiffReport.extraNotes`; the keyed cases are `DiffCase`s.
struct DiffSuite {
    struct Configuration {
        /// Rows of the 1M cases; the 100k cases take a tenth.
        var rows: Int
        var seed: UInt64
        var repetitions: Int
        var cases: [DiffCase]
        /// Run `apply_1m` (see `ApplyCase`) after the keyed cases.
        var includesApply = true
        var peerBudget: PeerBudget
    }

    /// A first peer run shorter than this is taken as a warm-up and followed by
    /// `repetitions` timed runs; a longer one is the peer's only (timed) run.
    static let peerRepeatBelowNanos: UInt64 = 500_000_000

    let configuration: Configuration
    let progress: Progress

    func run() throws -> DiffReport {
        let c = configuration
        let load = LoadAverage.current()
        guard AllocationCounter.calibrate() else {
            throw SuiteFailure("jemalloc's statistics do not count allocations here (config.stats off, or malloc is not jemalloc's)")
        }
        let differ = KeyedDiffer()
        // Tessera's cases back to back first, so that the machine's load drifts as little
        // as possible between the cases a target compares; then the peers.
        var tessera: [(DiffInstance, TesseraDiffMeasurement, Int, DiffAllocations)] = []
        var jemalloc: SuiteMemory? = nil
        for diffCase in c.cases {
            let rows = diffCase.rows(suiteRows: c.rows)
            let memoryBefore = MemoryStatistics.current()
            progress.begin("\(diffCase.name): generating \(rows) rows")
            let instance = diffCase.instance(rows: rows, seed: c.seed)
            progress.end()
            let full = try measure(instance, differ: differ)
            // Both snapshots and the differ's scratch, grown to this case (the largest case counts).
            let grown = SuiteMemory(rows: rows, from: memoryBefore, to: MemoryStatistics.current())
            jemalloc = jemalloc.map { $0.max(grown) } ?? grown
            // Allocations at a tenth of the rows, the same shape: a constant count is the same.
            let tenthRows = max(DiffCase.minimumRows, rows / 10)
            let tenth = try allocations(diffCase.instance(rows: tenthRows, seed: c.seed), differ: differ)
            tessera.append((instance, full, tenthRows, tenth))
        }
        var cases: [DiffCaseReport] = []
        for (instance, full, tenthRows, tenth) in tessera {
            cases.append(try peerCase(instance, full, tenthRows: tenthRows, tenthAllocations: tenth, differ: differ))
        }
        var results = DiffReport.results(cases)
        var notes: [String] = []
        if c.includesApply {
            let apply = try ApplyCase(rows: c.rows, seed: c.seed).measure(repetitions: c.repetitions, progress: progress)
            results.append(apply.result)
            notes += apply.notes
        }
        var report = DiffReport(
            configuration: c, cases: cases, results: results,
            loadBefore: load, loadAfter: LoadAverage.current(), checksum: checksum, jemalloc: jemalloc)
        report.extraNotes = notes
        return report
    }

    /// The peer's side of a case: on the case's snapshots, or on a smaller instance of the
    /// same shape (on which Tessera is measured again) when the case exceeds the budget.
    func peerCase(
        _ instance: DiffInstance, _ full: TesseraDiffMeasurement, tenthRows: Int, tenthAllocations: DiffAllocations,
        differ: KeyedDiffer
    ) throws -> DiffCaseReport {
        let c = configuration, diffCase = instance.diffCase, rows = instance.oldCount
        let peerRows = DiffPeer.rows(for: diffCase, atMost: rows, budget: c.peerBudget)
        let peerInstance = peerRows == rows ? instance : diffCase.instance(rows: peerRows, seed: c.seed)
        let atPeerRows = peerRows == rows ? nil : try measure(peerInstance, differ: differ)
        let peer = try runPeer(peerInstance)
        return DiffCaseReport(
            diffCase: diffCase, rows: rows, newRows: instance.newCount, plan: instance.plan, tessera: full,
            tenthRows: tenthRows, tenthAllocations: tenthAllocations,
            peerRows: peerRows, tesseraAtPeerRows: atPeerRows, peer: peer)
    }

    /// Verifies both forms on `instance`, then times them and counts their allocations.
    func measure(_ instance: DiffInstance, differ: KeyedDiffer) throws -> TesseraDiffMeasurement {
        let name = "\(instance.diffCase.name) at \(instance.oldCount) rows"
        progress.begin("\(name): verifying both forms")
        let verifier = DiffVerifier(instance)
        let batch = try differ.diff(
            oldIDs: instance.oldIDs, oldVersions: instance.oldVersions, newIDs: instance.newIDs, newVersions: instance.newVersions)
        let operations = differ.operations(for: batch)
        try verifier.verify(batch: batch)
        try verifier.verify(operations: operations)
        progress.end()

        let r = configuration.repetitions
        progress.begin("\(name): timing Tessera (\(r) repetitions of each form)")
        defer { progress.end() }
        let (batchTimes, sequentialTimes) = try instance.withBuffers { (oi, ov, ni, nv) throws(TesseraError) in
            func batchOnce() throws(TesseraError) -> DiffBatch {
                try differ.diff(oldIDs: oi, oldVersions: ov, newIDs: ni, newVersions: nv)
            }
            blackHole(try batchOnce().moves.count)  // warm-up
            var batchTimes: [TimedCall] = [], sequentialTimes: [TimedCall] = []
            for _ in 0..<r {
                var b: DiffBatch? = nil
                batchTimes.append(try TimedCall.measure { () throws(TesseraError) in b = try batchOnce() })
                blackHole(b!.moves.count)
            }
            blackHole(differ.operations(for: try batchOnce()).count)  // warm-up
            for _ in 0..<r {
                var ops: [DiffOperation] = []
                sequentialTimes.append(try TimedCall.measure { () throws(TesseraError) in
                    ops = differ.operations(for: try batchOnce())
                })
                blackHole(ops.count)
            }
            return (batchTimes, sequentialTimes)
        }
        progress.end()
        let counts = try allocations(instance, differ: differ)
        return TesseraDiffMeasurement(
            rows: instance.oldCount, batchNanos: Self.median(batchTimes.map(\.wall)),
            sequentialNanos: Self.median(sequentialTimes.map(\.wall)),
            batchCPUNanos: Self.median(batchTimes.map(\.cpu)), sequentialCPUNanos: Self.median(sequentialTimes.map(\.cpu)),
            repetitions: r, batch: .init(batch), sequential: .init(operations), allocations: counts)
    }

    /// Allocations of one `diff` and of one `operations(for:)` after it, with the
    /// differ's scratch already sized (a warm-up call first).
    func allocations(_ instance: DiffInstance, differ: KeyedDiffer) throws -> DiffAllocations {
        try instance.withBuffers { (oi, ov, ni, nv) throws(TesseraError) in
            let warm = try differ.diff(oldIDs: oi, oldVersions: ov, newIDs: ni, newVersions: nv)
            blackHole(differ.operations(for: warm).count)
            var batch: DiffBatch? = nil
            let diffCount = try AllocationCounter.count { () throws(TesseraError) in
                batch = try differ.diff(oldIDs: oi, oldVersions: ov, newIDs: ni, newVersions: nv)
            }
            var ops: [DiffOperation] = []
            let operationsCount = AllocationCounter.count { ops = differ.operations(for: batch!) }
            blackHole(ops.count)
            return DiffAllocations(diff: diffCount, operations: operationsCount)
        }
    }

    func runPeer(_ instance: DiffInstance) throws -> PeerMeasurement {
        let name = "\(instance.diffCase.name) at \(instance.oldCount) rows"
        let old = DiffPeer.rows(instance.oldIDs, instance.oldVersions)
        let new = DiffPeer.rows(instance.newIDs, instance.newVersions)
        progress.begin("\(name): \(DiffPeer.name) (O(ND), D ≤ \(instance.plan.peerEdits))")
        var difference: CollectionDifference<PeerRow>? = nil
        let first = TimedCall.measure { difference = DiffPeer.difference(old: old, new: new) }
        var times = [first]
        if first.wall < Self.peerRepeatBelowNanos {
            times = (0..<configuration.repetitions).map { _ in
                TimedCall.measure { difference = DiffPeer.difference(old: old, new: new) }
            }
        }
        progress.end()
        progress.begin("\(name): checking the peer's difference")
        defer { progress.end() }
        guard let d = difference, old.applying(d) == new else {
            throw SuiteFailure("\(name): the peer's difference does not turn old into new")
        }
        return PeerMeasurement(
            rows: instance.oldCount, nanos: Self.median(times.map(\.wall)), cpuNanos: Self.median(times.map(\.cpu)),
            repetitions: times.count, counts: DiffPeer.counts(d))
    }

    static func median(_ values: [UInt64]) -> UInt64 {
        let s = values.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] &+ s[s.count / 2]) / 2
    }
}

extension DiffInstance {
    /// The four columns as buffers for the differ's allocation-free entry point.
    func withBuffers<R, E: Error>(
        _ body: (UnsafeBufferPointer<UInt64>, UnsafeBufferPointer<UInt64>, UnsafeBufferPointer<UInt64>, UnsafeBufferPointer<UInt64>) throws(E) -> R
    ) throws(E) -> R {
        let result: Result<R, E> = oldIDs.withUnsafeBufferPointer { oi in
            oldVersions.withUnsafeBufferPointer { ov in
                newIDs.withUnsafeBufferPointer { ni in
                    newVersions.withUnsafeBufferPointer { nv in
                        do throws(E) { return .success(try body(oi, ov, ni, nv)) } catch { return .failure(error) }
                    }
                }
            }
        }
        return try result.get()
    }
}

/// Counts of a batch, in the suite's terms.
struct BatchCounts: Equatable {
    var deletes: Int
    var inserts: Int
    var moves: Int
    var updates: Int

    init(deletes: Int, inserts: Int, moves: Int, updates: Int) {
        self.deletes = deletes
        self.inserts = inserts
        self.moves = moves
        self.updates = updates
    }

    init(_ b: DiffBatch) {
        self.init(deletes: b.deletes.count, inserts: b.inserts.count, moves: b.moves.count, updates: b.updates.count)
    }
}

/// Counts of a sequential form: operations of each kind (a range is one operation) and the
/// rows they cover.
struct OperationCounts: Equatable {
    var removes = 0
    var inserts = 0
    var moves = 0
    var changes = 0
    var total: Int { removes + inserts + moves + changes }

    init(removes: Int, inserts: Int, moves: Int, changes: Int) {
        self.removes = removes
        self.inserts = inserts
        self.moves = moves
        self.changes = changes
    }

    init(_ ops: [DiffOperation]) {
        for op in ops {
            switch op {
            case .remove: removes += 1
            case .insert: inserts += 1
            case .move: moves += 1
            case .change: changes += 1
            }
        }
    }
}

/// Allocations of one `diff` call and of one `operations(for:)` call (nil: not counted).
struct DiffAllocations: Equatable {
    var diff: Int?
    var operations: Int?
    /// The sequential form costs both calls.
    var sequential: Int? { diff.flatMap { d in operations.map { d + $0 } } }
}

struct TesseraDiffMeasurement {
    var rows: Int
    /// Median nanoseconds of one `diff` call.
    var batchNanos: UInt64
    /// Median nanoseconds of `diff` then `operations(for:)`.
    var sequentialNanos: UInt64
    /// The same on the thread's CPU clock (the time it waited for a core left out).
    var batchCPUNanos: UInt64
    var sequentialCPUNanos: UInt64
    var repetitions: Int
    var batch: BatchCounts
    var sequential: OperationCounts
    var allocations: DiffAllocations
}

struct PeerMeasurement {
    var rows: Int
    var nanos: UInt64
    var cpuNanos: UInt64
    var repetitions: Int
    var counts: PeerCounts
}

struct DiffCaseReport {
    var diffCase: DiffCase
    var rows: Int
    var newRows: Int
    var plan: DiffPlan
    var tessera: TesseraDiffMeasurement
    var tenthRows: Int
    var tenthAllocations: DiffAllocations
    var peerRows: Int
    /// Tessera on the peer's smaller instance (nil when the peer ran on `rows`).
    var tesseraAtPeerRows: TesseraDiffMeasurement?
    var peer: PeerMeasurement

    /// Tessera's measurement on the peer's input.
    var tesseraOnPeerInput: TesseraDiffMeasurement { tesseraAtPeerRows ?? tessera }

    /// The batch form's speedup on the thread's CPU clock, on the peer's input.
    var cpuSpeedup: Double? {
        let own = tesseraOnPeerInput.batchCPUNanos
        return own > 0 && peer.cpuNanos > 0 ? Double(peer.cpuNanos) / Double(own) : nil
    }
}

/// The 1-, 5- and 15-minute load averages of the machine (`/proc/loadavg`), recorded
/// around the run: a loaded machine slows both sides.
struct LoadAverage {
    var one: Double, five: Double, fifteen: Double

    static func current() -> LoadAverage? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
        let f = text.split(separator: " ").prefix(3).compactMap { Double($0) }
        return f.count == 3 ? LoadAverage(one: f[0], five: f[1], fifteen: f[2]) : nil
    }

    var text: String { "\(one) \(five) \(fifteen)" }
}
