import Tessera

/// `apply_1m`: a 1 % change (a quarter each of deletes, inserts, moves and updates, spread
/// over the whole list) applied to an engine whose rows are measured (heights known, one
/// text slot each), against building the store and height tree of the new rows from
/// scratch, which is what a host without incremental apply does.
struct ApplyCase {
    let rows: Int
    let seed: UInt64

    struct Instance {
        var ids: [UInt64], versions: [UInt64], heights: [Double], text: RowText
        var snapshot: RowSnapshot
    }

    struct Measurement {
        var rows: Int
        var prepareNanos: UInt64, applyNanos: UInt64, rebuildNanos: UInt64
        var repetitions: Int
        var deletes: Int, inserts: Int, moves: Int, updates: Int, operations: Int
    }

    static let name = "apply_1m"
    static let speedupTarget = 20.0

    /// The old rows and the snapshot a quarter percent of them each deleted, moved and
    /// updated, plus a quarter percent new. Built in one merge (no per-change array shifts).
    func instance() -> Instance {
        var random = Xoshiro256(seed: seed ^ 0xA991_7C0D)
        var ids = [UInt64](), heights = [Double](), versions = [UInt64](repeating: 1, count: rows)
        var text = RowText(slotsPerRow: 1), labels: [String] = []
        ids.reserveCapacity(rows)
        labels.reserveCapacity(rows)
        heights.reserveCapacity(rows)
        for i in 0..<rows {
            ids.append(random.next() | 1)
            heights.append(Double(44 + random.below(48)) + Double(random.below(64)) / 64)
            labels.append("Payment \(i) · card \(random.below(10_000))")
            text.append([labels[i]])
        }
        let k = max(1, rows / 400)
        // 0 stays, 1 deleted, 2 moved, 3 updated (each old row at most one).
        var fate = [UInt8](repeating: 0, count: rows)
        for f in [UInt8(1), 2, 3] {
            var marked = 0
            while marked < k {
                let i = random.below(rows)
                if fate[i] == 0 { fate[i] = f; marked += 1 }
            }
        }
        var newIDs: [UInt64] = [], newVersions: [UInt64] = [], newHeights: [Double] = [], newText = RowText(slotsPerRow: 1)
        var survivors: [Int] = []
        survivors.reserveCapacity(rows)
        for i in 0..<rows where fate[i] == 0 || fate[i] == 3 { survivors.append(i) }
        // Moved rows and new rows land at random places among the survivors.
        var arrivals: [(at: Int, old: Int)] = []  // old -1: a new row
        for i in 0..<rows where fate[i] == 2 { arrivals.append((random.below(survivors.count + 1), i)) }
        for _ in 0..<k { arrivals.append((random.below(survivors.count + 1), -1)) }
        arrivals.sort { $0.at < $1.at }
        var next = 0
        func emit(_ old: Int) {
            if old < 0 {
                newIDs.append(random.next() & ~1)  // even: never an old id
                newVersions.append(1)
                newHeights.append(60)
                newText.append(["New payment \(newIDs.count)"])
            } else {
                newIDs.append(ids[old])
                newVersions.append(fate[old] == 3 ? 2 : 1)
                newHeights.append(heights[old])
                newText.append([fate[old] == 3 ? "Updated payment \(old)" : labels[old]])
            }
        }
        for (s, old) in survivors.enumerated() {
            while next < arrivals.count && arrivals[next].at == s { emit(arrivals[next].old); next += 1 }
            emit(old)
        }
        while next < arrivals.count { emit(arrivals[next].old); next += 1 }
        let snapshot = RowSnapshot(
            ids: newIDs, kinds: [UInt16](repeating: 0, count: newIDs.count), versions: newVersions, text: newText, heights: newHeights)
        return Instance(ids: ids, versions: versions, heights: heights, text: text, snapshot: snapshot)
    }

    static func engine(_ ids: [UInt64], _ heights: [Double], _ text: RowText, _ versions: [UInt64]) throws(TesseraError) -> ListEngine {
        var engine = try ListEngine(store: try RowStore(estimatedHeights: [60]), viewport: 800)
        try engine.append(ids: ids, kinds: [UInt16](repeating: 0, count: ids.count), heights: heights, text: text, versions: versions)
        return engine
    }

    /// Applies the snapshot once and checks the engine against the rebuilt one (ids,
    /// heights, versions, text of every row), then times prepare, apply and rebuild, each
    /// the median of `repetitions` (a fresh measured engine per apply, not timed).
    func measure(repetitions: Int, progress: Progress) throws -> Measurement {
        progress.begin("\(Self.name): generating \(rows) rows and a 1 % snapshot")
        let instance = instance()
        let s = instance.snapshot
        progress.end()

        progress.begin("\(Self.name): verifying apply against a rebuild")
        var engine = try Self.engine(instance.ids, instance.heights, instance.text, instance.versions)
        try engine.scroll(to: engine.maximumScrollOffset / 2)
        let applied = try engine.apply(s)
        let rebuilt = try Self.engine(s.ids, s.heights!, s.text!, s.versions)
        guard engine.store.count == rebuilt.store.count else {
            throw SuiteFailure("\(Self.name): \(engine.store.count) rows after apply, \(rebuilt.store.count) rebuilt")
        }
        for r in 0..<rebuilt.store.count {
            let a = try engine.store.row(r), b = try rebuilt.store.row(r)
            guard a.id == b.id, a.height == b.height, a.contentVersion == b.contentVersion,
                  try engine.store.text(ofRow: r, slot: 0) == rebuilt.store.text(ofRow: r, slot: 0) else {
                throw SuiteFailure("\(Self.name): row \(r) differs between apply and rebuild")
            }
        }
        progress.end()

        progress.begin("\(Self.name): timing prepare, apply and rebuild (\(repetitions) repetitions)")
        defer { progress.end() }
        var prepare: [UInt64] = [], apply: [UInt64] = [], rebuild: [UInt64] = []
        for _ in 0..<repetitions {
            var e = try Self.engine(instance.ids, instance.heights, instance.text, instance.versions)
            try e.scroll(to: e.maximumScrollOffset / 2)
            var prepared: PreparedBatch? = nil
            prepare.append(try TimedCall.measure { () throws(TesseraError) in prepared = try e.prepare(s) }.wall)
            apply.append(try TimedCall.measure { () throws(TesseraError) in blackHole(try e.apply(prepared!).batch.moves.count) }.wall)
            rebuild.append(try TimedCall.measure { () throws(TesseraError) in
                blackHole(try Self.engine(s.ids, s.heights!, s.text!, s.versions).store.count)
            }.wall)
        }
        let b = applied.batch
        return Measurement(
            rows: rows, prepareNanos: DiffSuite.median(prepare), applyNanos: DiffSuite.median(apply),
            rebuildNanos: DiffSuite.median(rebuild), repetitions: repetitions, deletes: b.deletes.count,
            inserts: b.inserts.count, moves: b.moves.count, updates: b.updates.count, operations: applied.operations().count)
    }
}

extension ApplyCase.Measurement {
    var result: TimedResult {
        TimedResult(
            name: ApplyCase.name, unit: "ns/row", value: Double(applyNanos) / Double(rows),
            peerValue: Double(rebuildNanos) / Double(rows), target: .speedupAtLeast(ApplyCase.speedupTarget),
            operations: rows, peerOperations: rows)
    }

    var notes: [String] {
        let ms = { (n: UInt64) in Report.number(Double(n) / 1e6) + " ms" }
        return [
            "\(ApplyCase.name): \(rows) measured rows, batch of \(deletes) deletes, \(inserts) inserts, \(moves) moves, \(updates) updates (\(operations) sequential operations); median of \(repetitions)",
            "\(ApplyCase.name): apply \(ms(applyNanos)), prepare (diff against the engine's rows, checks of the rows it brings, apply plan) \(ms(prepareNanos)), rebuild of store and tree \(ms(rebuildNanos)); rebuild / (prepare + apply) = \(Report.number(Double(rebuildNanos) / Double(prepareNanos + applyNanos)))x",
        ]
    }
}
