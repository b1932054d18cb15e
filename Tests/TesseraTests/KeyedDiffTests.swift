import Testing
@testable import Tessera

/// Parallel id and version columns of one side of a diff.
struct DiffRows: Equatable, CustomStringConvertible {
    var ids: [UInt64] = []
    var versions: [UInt64] = []

    init() {}
    init(ids: [UInt64], versions: [UInt64]) {
        self.ids = ids
        self.versions = versions
    }
    init(_ rows: [(id: UInt64, version: UInt64)]) {
        ids = rows.map(\.id)
        versions = rows.map(\.version)
    }

    var count: Int { ids.count }
    var rows: [(id: UInt64, version: UInt64)] { (0..<count).map { (ids[$0], versions[$0]) } }
    var description: String { "\(count) rows" }
}

/// Re-application models of both output forms and the independent checks, as the
/// platforms define them; nothing here trusts the differ's own bookkeeping.
enum DiffModel {
    /// UIKit `performBatchUpdates`: deletes and move sources leave the old list, highest
    /// old index first; inserts and move destinations enter it, lowest new index first
    /// (inserted rows with their new content, moved rows with their old one); updated rows
    /// then take their new version. Returns nil (after recording why) when the batch breaks
    /// a rule UIKit enforces.
    static func applyBatch(_ b: DiffBatch, old: DiffRows, new: DiffRows) -> DiffRows? {
        guard b.oldCount == old.count, b.newCount == new.count else {
            Issue.record("batch counts \(b.oldCount)/\(b.newCount) for \(old.count)/\(new.count) rows")
            return nil
        }
        var sources = Set<Int>()
        for i in b.deletes + b.moves.map(\.from) {
            guard i >= 0, i < old.count, sources.insert(i).inserted else {
                Issue.record("old index \(i) deleted or moved twice, or out of range")
                return nil
            }
        }
        let oldRows = old.rows
        var list = oldRows
        for i in sources.sorted(by: >) { list.remove(at: i) }
        var incoming: [Int: (id: UInt64, version: UInt64)] = [:]
        for j in b.inserts { incoming[j] = (new.ids[j], new.versions[j]) }
        for mv in b.moves {
            guard incoming[mv.to] == nil else {
                Issue.record("new index \(mv.to) is the target of an insert and a move, or of two moves")
                return nil
            }
            incoming[mv.to] = oldRows[mv.from]
        }
        for j in incoming.keys.sorted() {
            guard j <= list.count else {
                Issue.record("insert at \(j) past the end (\(list.count) rows)")
                return nil
            }
            list.insert(incoming[j]!, at: j)
        }
        let newVersion = Dictionary(uniqueKeysWithValues: zip(new.ids, new.versions))
        var position: [UInt64: Int] = [:]
        for (p, r) in list.enumerated() { position[r.id] = p }
        var updatedAt: [Int] = []
        let deleted = Set(b.deletes)
        for i in b.updates {
            let id = old.ids[i]
            guard !deleted.contains(i), let p = position[id],
                let v = newVersion[id], v != old.versions[i]
            else {
                Issue.record("update of old row \(i) that is deleted or did not change")
                return nil
            }
            list[p].version = v
            updatedAt.append(p)
        }
        #expect(updatedAt.sorted() == b.updatedNewIndexes, "updatedNewIndexes are not the updated rows' new indexes")
        return DiffRows(list)
    }

    /// RecyclerView: operations applied one by one to a list, each index checked against
    /// the list as it is then. Inserted rows are placeholders, filled from `new` at the end
    /// (and only where `new` holds a row the old list did not have); a change rebinds a row
    /// to its new version.
    static func applyOperations(_ ops: [DiffOperation], old: DiffRows, new: DiffRows) -> DiffRows? {
        var list: [(id: UInt64, version: UInt64)?] = old.rows
        let newVersion = Dictionary(uniqueKeysWithValues: zip(new.ids, new.versions))
        var changed = Set<UInt64>()
        for op in ops {
            switch op {
            case .remove(let at, let count):
                guard count > 0, at >= 0, at + count <= list.count else { return fail(op, list.count) }
                list.removeSubrange(at..<at + count)
            case .insert(let at, let count):
                guard count > 0, at >= 0, at <= list.count else { return fail(op, list.count) }
                list.insert(contentsOf: repeatElement(nil, count: count), at: at)
            case .move(let from, let to):
                guard from >= 0, from < list.count, to >= 0, to < list.count, from != to else { return fail(op, list.count) }
                let row = list.remove(at: from)
                list.insert(row, at: to)
            case .change(let at, let count):
                guard count > 0, at >= 0, at + count <= list.count else { return fail(op, list.count) }
                for p in at..<at + count {
                    guard let row = list[p], let v = newVersion[row.id], v != row.version, changed.insert(row.id).inserted else {
                        return fail(op, list.count)
                    }
                    list[p]!.version = v
                }
            }
        }
        guard list.count == new.count else {
            Issue.record("operations leave \(list.count) rows, \(new.count) expected")
            return nil
        }
        let oldIDs = Set(old.ids)
        var result: [(id: UInt64, version: UInt64)] = []
        for (j, row) in list.enumerated() {
            if let row {
                result.append(row)
            } else {
                guard !oldIDs.contains(new.ids[j]) else {
                    Issue.record("inserted placeholder at \(j) where new holds old row \(new.ids[j])")
                    return nil
                }
                result.append((new.ids[j], new.versions[j]))
            }
        }
        return DiffRows(result)
    }

    static func fail(_ op: DiffOperation, _ count: Int) -> DiffRows? {
        Issue.record("operation \(op) invalid on a list of \(count) rows")
        return nil
    }

    /// The old indexes the differ should report as moved, by O(s²) dynamic programming:
    /// the rows outside the longest increasing run of new indexes (in old order) chosen
    /// from the back, each time at the smallest new index (the documented tie rule).
    static func expectedMoved(old: DiffRows, new: DiffRows) -> (moved: Set<Int>, lisLength: Int) {
        let newIndex = Dictionary(uniqueKeysWithValues: new.ids.enumerated().map { ($1, $0) })
        let survivors = old.ids.indices.compactMap { i in newIndex[old.ids[i]].map { (old: i, value: $0) } }
        let s = survivors.count
        guard s > 0 else { return ([], 0) }
        let value = survivors.map(\.value)
        var ending = [Int](repeating: 1, count: s)
        for k in 0..<s {
            for p in 0..<k where value[p] < value[k] && ending[p] >= ending[k] { ending[k] = ending[p] + 1 }
        }
        let length = ending.max()!
        /// The position with the smallest value among `0..<end` whose `ending` is `e`.
        func smallest(before end: Int, ending e: Int) -> Int {
            var best = -1
            for p in 0..<end where ending[p] == e && (best < 0 || value[p] < value[best]) { best = p }
            return best
        }
        var kept = Set<Int>()
        var current = smallest(before: s, ending: length)
        kept.insert(survivors[current].old)
        while ending[current] > 1 {
            current = smallest(before: current, ending: ending[current] - 1)
            kept.insert(survivors[current].old)
        }
        return (Set(survivors.map(\.old)).subtracting(kept), length)
    }

    /// Everything the tests assert about one diff. Returns the batch for further checks.
    @discardableResult
    static func check(_ differ: KeyedDiffer, old: DiffRows, new: DiffRows, dynamicProgramming: Bool = true) throws -> DiffBatch {
        let batch = try differ.diff(oldIDs: old.ids, oldVersions: old.versions, newIDs: new.ids, newVersions: new.versions)
        batch._checkInvariants()
        #expect(batch.deletes == batch.deletes.sorted() && batch.inserts == batch.inserts.sorted())
        #expect(batch.updates == batch.updates.sorted() && batch.moves.map(\.to) == batch.moves.map(\.to).sorted())
        #expect(applyBatch(batch, old: old, new: new) == new, "batch form does not re-apply")

        let ops = differ.operations(for: batch)
        #expect(applyOperations(ops, old: old, new: new) == new, "sequential form does not re-apply")
        #expect(ops.filter { if case .move = $0 { true } else { false } }.count == batch.moves.count)
        // Consecutive operations of one kind that could have been one range were merged.
        for (a, b) in zip(ops, ops.dropFirst()) {
            switch (a, b) {
            case (.remove(let p, _), .remove(let q, let c)): #expect(q + c < p, "unmerged removes \(a), \(b)")
            case (.insert(let p, let c), .insert(let q, _)): #expect(q > p + c, "unmerged inserts \(a), \(b)")
            case (.change(let p, let c), .change(let q, _)): #expect(q > p + c, "unmerged changes \(a), \(b)")
            default: break
            }
        }

        let oldSet = Set(old.ids), newSet = Set(new.ids)
        #expect(batch.deletes.count == old.ids.filter { !newSet.contains($0) }.count)
        #expect(batch.inserts.count == new.ids.filter { !oldSet.contains($0) }.count)
        if dynamicProgramming {
            let expected = expectedMoved(old: old, new: new)
            let survivors = old.count - batch.deletes.count
            #expect(batch.moves.count == survivors - expected.lisLength, "moves are not minimal")
            #expect(Set(batch.moves.map(\.from)) == expected.moved, "moved rows differ from the tie rule's")
        }
        return batch
    }
}

/// Random old/new pairs: plain rows or groups (header, rows…, footer), edited by group
/// moves, shuffles, deletes and inserts of whole groups, then row deletes, version
/// updates, single moves, shuffled blocks, reversal and inserts.
struct DiffPairGenerator {
    var rng: SplitMix64
    var ids: IDSource

    init(seed: UInt64) {
        rng = SplitMix64(seed: seed)
        ids = IDSource(seed: seed)
    }

    mutating func row() -> (id: UInt64, version: UInt64) { (ids.next(), UInt64(rng.below(3))) }

    mutating func group(grouped: Bool) -> [(id: UInt64, version: UInt64)] {
        guard grouped else { return [row()] }
        var g = [row()]
        for _ in 0..<rng.int(0...8) { g.append(row()) }
        g.append(row())
        return g
    }

    mutating func shuffle<T>(_ a: inout [T]) {
        guard a.count > 1 else { return }
        for k in stride(from: a.count - 1, to: 0, by: -1) { a.swapAt(k, rng.below(k + 1)) }
    }

    mutating func pair() -> (old: DiffRows, new: DiffRows) {
        let size = rng.chance(0.1) ? rng.pick([0, 1, 2, 3]) : rng.int(0...300)
        let grouped = rng.chance(0.5)
        var groups: [[(id: UInt64, version: UInt64)]] = []
        var total = 0
        while total < size {
            let g = group(grouped: grouped)
            total += g.count
            groups.append(g)
        }
        let old = DiffRows(groups.flatMap { $0 })

        if rng.chance(0.3) {
            for _ in 0..<rng.int(1...3) where groups.count > 1 {
                let g = groups.remove(at: rng.below(groups.count))
                groups.insert(g, at: rng.below(groups.count + 1))
            }
        }
        if rng.chance(0.05) { shuffle(&groups) }
        if rng.chance(0.1), !groups.isEmpty { groups.remove(at: rng.below(groups.count)) }
        if rng.chance(0.1) { groups.insert(group(grouped: true), at: rng.below(groups.count + 1)) }
        var rows = groups.flatMap { $0 }

        let pDelete = rng.pick([0, 0, 0.02, 0.1, 0.5, 1.0])
        var kept: [(id: UInt64, version: UInt64)] = []
        for r in rows where !rng.chance(pDelete) { kept.append(r) }
        rows = kept
        let pUpdate = rng.pick([0, 0, 0.05, 0.3, 1.0])
        for k in rows.indices where rng.chance(pUpdate) { rows[k].version &+= UInt64(1 + rng.below(3)) }
        if !rows.isEmpty {
            for _ in 0..<rng.pick([0, 0, 1, 2, 5]) {
                let r = rows.remove(at: rng.below(rows.count))
                rows.insert(r, at: rng.below(rows.count + 1))
            }
        }
        if rng.chance(0.15), rows.count > 2 {
            var blocks: [[(id: UInt64, version: UInt64)]] = []
            var start = 0
            while start < rows.count {
                let end = min(rows.count, start + rng.int(1...max(1, rows.count / 3)))
                blocks.append(Array(rows[start..<end]))
                start = end
            }
            shuffle(&blocks)
            rows = blocks.flatMap { $0 }
        }
        if rng.chance(0.05) { rows.reverse() }
        for _ in 0..<rng.pick([0, 0, 1, 3, 20]) { rows.insert(row(), at: rng.below(rows.count + 1)) }
        return (old, DiffRows(rows))
    }
}

@Suite struct KeyedDiffTests {
    /// Thousands of random pairs through one reused differ; every tenth also through a
    /// fresh one, which must agree (scratch from earlier diffs must not leak into results).
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func randomPairsReapply(seed: UInt64) throws {
        var gen = DiffPairGenerator(seed: seed)
        let differ = KeyedDiffer()
        for round in 0..<500 {
            let (old, new) = gen.pair()
            let batch = try DiffModel.check(differ, old: old, new: new)
            if round % 10 == 0 {
                let fresh = KeyedDiffer()
                #expect(try fresh.diff(oldIDs: old.ids, oldVersions: old.versions, newIDs: new.ids, newVersions: new.versions) == batch)
                #expect(batch.operations() == differ.operations(for: batch))
            }
        }
    }

    @Test func insertionAtTopMovesNothing() throws {
        var ids = IDSource(seed: 10)
        let old = DiffRows((0..<10_000).map { _ in (ids.next(), 0) })
        var rows = old.rows
        rows.insert((ids.next(), 0), at: 0)
        let batch = try DiffModel.check(KeyedDiffer(), old: old, new: DiffRows(rows), dynamicProgramming: false)
        #expect(batch.inserts == [0] && batch.deletes.isEmpty && batch.moves.isEmpty && batch.updates.isEmpty)
        #expect(batch.operations() == [.insert(at: 0, count: 1)])
    }

    @Test func reversalMovesAllButOne() throws {
        var ids = IDSource(seed: 11)
        let differ = KeyedDiffer()
        for n in [1, 2, 3, 10, 2_000] {
            let old = DiffRows((0..<n).map { _ in (ids.next(), 0) })
            let new = DiffRows(old.rows.reversed())
            let batch = try DiffModel.check(differ, old: old, new: new, dynamicProgramming: n <= 10)
            #expect(batch.moves.count == n - 1)
            // The tie rule keeps the row that ends up first: the old last row.
            #expect(!batch.moves.contains { $0.from == n - 1 })
        }
    }

    @Test func swappedPairKeepsTheRowThatEndsUpFirst() throws {
        let batch = try KeyedDiffer().diff(oldIDs: [1, 2], oldVersions: [0, 0], newIDs: [2, 1], newVersions: [0, 0])
        #expect(batch.moves == [DiffBatch.Move(from: 0, to: 1)])
        #expect(batch.operations() == [.move(from: 0, to: 1)])
    }

    @Test func emptySides() throws {
        let differ = KeyedDiffer()
        let rows = DiffRows(ids: [5, 6, 7], versions: [1, 2, 3])
        let none = DiffRows()
        let deleted = try DiffModel.check(differ, old: rows, new: none)
        #expect(deleted.deletes == [0, 1, 2] && differ.operations(for: deleted) == [.remove(at: 0, count: 3)])
        let inserted = try DiffModel.check(differ, old: none, new: rows)
        #expect(inserted.inserts == [0, 1, 2] && differ.operations(for: inserted) == [.insert(at: 0, count: 3)])
        let nothing = try DiffModel.check(differ, old: none, new: none)
        #expect(nothing.isEmpty && differ.operations(for: nothing).isEmpty)
        #expect(try DiffModel.check(differ, old: rows, new: rows).isEmpty)
    }

    @Test func versionChangesMergeIntoRanges() throws {
        let ids: [UInt64] = Array(1...10)
        let old = DiffRows(ids: ids, versions: Array(repeating: 0, count: 10))
        var versions = old.versions
        for k in [0, 1, 2, 5, 8, 9] { versions[k] = 7 }
        let batch = try DiffModel.check(KeyedDiffer(), old: old, new: DiffRows(ids: ids, versions: versions))
        #expect(batch.updates == [0, 1, 2, 5, 8, 9] && batch.updatedNewIndexes == [0, 1, 2, 5, 8, 9])
        #expect(batch.operations() == [.change(at: 0, count: 3), .change(at: 5, count: 1), .change(at: 8, count: 2)])
    }

    @Test func movedAndChangedRowIsInMovesAndUpdates() throws {
        // Row 1 goes to the end and changes.
        let batch = try DiffModel.check(
            KeyedDiffer(), old: DiffRows(ids: [1, 2, 3, 4], versions: [0, 0, 0, 0]),
            new: DiffRows(ids: [2, 3, 4, 1], versions: [0, 0, 0, 9]))
        #expect(batch.moves == [DiffBatch.Move(from: 0, to: 3)])
        #expect(batch.updates == [0] && batch.updatedNewIndexes == [3])
        #expect(batch.operations() == [.move(from: 0, to: 3), .change(at: 3, count: 1)])
    }

    @Test func removesFromTheBackAndInsertsInRuns() throws {
        let old = DiffRows(ids: Array(1...10), versions: Array(repeating: 0, count: 10))
        // Deletes 2,3 and 7; inserts 100,101 after 1 and 102 at the end.
        let new = DiffRows(ids: [1, 100, 101, 4, 5, 6, 8, 9, 10, 102], versions: Array(repeating: 0, count: 10))
        let batch = try DiffModel.check(KeyedDiffer(), old: old, new: new)
        #expect(batch.deletes == [1, 2, 6] && batch.inserts == [1, 2, 9])
        #expect(batch.operations() == [
            .remove(at: 6, count: 1), .remove(at: 1, count: 2), .insert(at: 1, count: 2), .insert(at: 9, count: 1),
        ])
    }

    /// [header, rows…, footer] groups: a group of k rows moved as a whole costs k moves when
    /// it is the smaller side, and the rest otherwise; the sequential form has as many.
    @Test(arguments: [(0, 5), (0, 9), (3, 0), (9, 2), (4, 7)] as [(Int, Int)])
    func groupMovedAsAWhole(from: Int, to: Int) throws {
        var ids = IDSource(seed: 12)
        let sizes = [4, 7, 3, 12, 5, 6, 4, 9, 2, 8]
        var groups = sizes.map { k in (0..<k).map { _ in (id: ids.next(), version: UInt64(0)) } }
        let old = DiffRows(groups.flatMap { $0 })
        let g = groups.remove(at: from)
        groups.insert(g, at: to)
        let new = DiffRows(groups.flatMap { $0 })
        let batch = try DiffModel.check(KeyedDiffer(), old: old, new: new)
        let k = sizes[from]
        #expect(k < old.count - k)
        #expect(batch.moves.count == k)
        let start = sizes[..<from].reduce(0, +)
        #expect(Set(batch.moves.map(\.from)) == Set(start..<start + k))
    }

    @Test func largeGroupMovedKeepsItAndMovesTheRest() throws {
        let old = DiffRows(ids: Array(1...20), versions: Array(repeating: 0, count: 20))
        // The block 1...15 moves behind 16...20: the five rows move instead.
        let new = DiffRows(ids: Array(16...20) + Array(1...15), versions: Array(repeating: 0, count: 20))
        let batch = try DiffModel.check(KeyedDiffer(), old: old, new: new)
        #expect(batch.moves.count == 5 && Set(batch.moves.map(\.from)) == Set(15..<20))
    }

    @Test func duplicateIDsAreTypedErrors() {
        let differ = KeyedDiffer()
        func error(_ o: [UInt64], _ n: [UInt64]) -> TesseraError? {
            thrownError {
                _ = try differ.diff(
                    oldIDs: o, oldVersions: o.map { _ in 0 }, newIDs: n, newVersions: n.map { _ in 0 })
            }
        }
        #expect(error([1, 2, 1], [1, 2]) == .duplicateIDInDiff(1, side: "old", firstIndex: 0, secondIndex: 2))
        #expect(error([1, 2, 3], [1, 3, 3]) == .duplicateIDInDiff(3, side: "new", firstIndex: 1, secondIndex: 2))  // repeats the suffix
        #expect(error([1, 2, 3], [1, 2, 1, 3]) == .duplicateIDInDiff(1, side: "new", firstIndex: 0, secondIndex: 2))  // repeats the prefix
        #expect(error([1, 2, 3], [9, 4, 9]) == .duplicateIDInDiff(9, side: "new", firstIndex: 0, secondIndex: 2))  // new-only twice
        #expect(error([5, 5], [6, 6]) == .duplicateIDInDiff(5, side: "old", firstIndex: 0, secondIndex: 1))  // old side first
        #expect(error([], [0, 0]) == .duplicateIDInDiff(0, side: "new", firstIndex: 0, secondIndex: 1))
        // A repeat of a row paired in the common suffix, found before it: both indexes named.
        #expect(error([1, 2, 3], [3, 4, 3]) == .duplicateIDInDiff(3, side: "new", firstIndex: 0, secondIndex: 2))
        #expect(error([7, 8, 9, 7], [7]) == .duplicateIDInDiff(7, side: "old", firstIndex: 0, secondIndex: 3))
        #expect(error([1], [2, 3, 4, 5, 3]).map(\.description) == "row id 3 appears more than once in the new rows of a diff, at indexes 1 and 4")
        // The differ is still sound after failures.
        #expect((try? DiffModel.check(differ, old: DiffRows(ids: [1, 2], versions: [0, 0]), new: DiffRows(ids: [2, 1], versions: [0, 0]))) != nil)
    }

    @Test func lengthMismatchIsTypedError() {
        let differ = KeyedDiffer()
        #expect(throws: TesseraError.columnLengthMismatch(column: "old versions", expected: 2, actual: 1)) {
            _ = try differ.diff(oldIDs: [1, 2], oldVersions: [0], newIDs: [1], newVersions: [0])
        }
        #expect(throws: TesseraError.columnLengthMismatch(column: "new versions", expected: 1, actual: 3)) {
            _ = try differ.diff(oldIDs: [1, 2], oldVersions: [0, 0], newIDs: [1], newVersions: [0, 0, 0])
        }
        // Length is checked before duplicates.
        #expect(throws: TesseraError.columnLengthMismatch(column: "old versions", expected: 2, actual: 0)) {
            _ = try differ.diff(oldIDs: [1, 1], oldVersions: [], newIDs: [1], newVersions: [0])
        }
    }

    /// All rows replaced: new-only rows fill the table past its load limit, so it grows
    /// in the middle of the new side; duplicates must still be found across the growth.
    @Test func completeReplacementGrowsTheTable() throws {
        var ids = IDSource(seed: 13)
        let differ = KeyedDiffer()
        let old = DiffRows((0..<1_000).map { _ in (ids.next(), 0) })
        let new = DiffRows((0..<1_000).map { _ in (ids.next(), 0) })
        let batch = try DiffModel.check(differ, old: old, new: new, dynamicProgramming: false)
        #expect(batch.deletes.count == 1_000 && batch.inserts.count == 1_000 && batch.moves.isEmpty)
        #expect(batch.operations() == [.remove(at: 0, count: 1_000), .insert(at: 0, count: 1_000)])
        var repeated = new.ids
        repeated.append(new.ids[3])
        #expect(throws: TesseraError.duplicateIDInDiff(new.ids[3], side: "new", firstIndex: 3, secondIndex: 1_000)) {
            _ = try differ.diff(
                oldIDs: old.ids, oldVersions: old.versions, newIDs: repeated,
                newVersions: Array(repeating: 0, count: repeated.count))
        }
    }

    /// A bigger list with scattered edits: the batch stays small, both forms re-apply, and
    /// a second diff of the same size needs no more scratch.
    @Test func largeListWithFewChanges() throws {
        var gen = DiffPairGenerator(seed: 14)
        let n = 100_000
        let old = DiffRows((0..<n).map { _ in gen.row() })
        var rows = old.rows
        for _ in 0..<50 { rows.remove(at: gen.rng.below(rows.count)) }
        for _ in 0..<50 { rows.insert(gen.row(), at: gen.rng.below(rows.count + 1)) }
        for _ in 0..<50 {
            let r = rows.remove(at: gen.rng.below(rows.count))
            rows.insert(r, at: gen.rng.below(rows.count + 1))
        }
        for _ in 0..<50 { rows[gen.rng.below(rows.count)].version &+= 1 }
        let new = DiffRows(rows)
        let differ = KeyedDiffer()
        let batch = try DiffModel.check(differ, old: old, new: new, dynamicProgramming: false)
        #expect(batch.deletes.count == 50 && batch.inserts.count == 50)
        #expect(batch.moves.count <= 50 && batch.updates.count <= 50)
        let bytes = differ.allocatedBytes
        _ = try differ.diff(oldIDs: new.ids, oldVersions: new.versions, newIDs: old.ids, newVersions: old.versions)
        _ = differ.operations(for: batch)
        #expect(differ.allocatedBytes == bytes)
        differ.releaseScratch()
        #expect(differ.allocatedBytes == 0)
        #expect(try differ.diff(oldIDs: old.ids, oldVersions: old.versions, newIDs: new.ids, newVersions: new.versions) == batch)
    }

    /// Below `runsMinimumRows` the one-table path marks the inserts for `makeBatch`, which
    /// then looks only at marked rows (the changes are few): the model's batch all the same.
    @Test func smallListWithFewChangesVisitsMarkedRows() throws {
        var gen = DiffPairGenerator(seed: 25)
        let n = 5_000
        let old = DiffRows((0..<n).map { _ in gen.row() })
        var rows = old.rows
        rows.remove(at: 4_321)
        rows.insert(gen.row(), at: 17)
        let moved = rows.remove(at: 2_000)
        rows.insert(moved, at: 3_500)
        rows[64].version &+= 1
        rows[n - 1].version &+= 1
        let batch = try DiffModel.check(KeyedDiffer(), old: old, new: DiffRows(rows), dynamicProgramming: false)
        #expect(batch.deletes == [4_321] && batch.inserts == [17] && batch.moves.count == 1)
        #expect(batch.updates == [63, n - 1] && batch.updatedNewIndexes == [64, n - 1])
    }

    /// Lists of at least `KeyedDiffer.runsMinimumRows` rows go through `matchRuns`: rows it
    /// cannot resynchronise on (a block of inserts longer than its window, with no common
    /// suffix) become leftovers and still pair by id.
    @Test func runsPathPairsLeftoversPastTheWindow() throws {
        var gen = DiffPairGenerator(seed: 21)
        let n = KeyedDiffer.runsMinimumRows + 3_000
        let old = DiffRows((0..<n).map { _ in gen.row() })
        var rows = old.rows
        rows.removeLast()
        rows.insert(contentsOf: (0..<10).map { _ in gen.row() }, at: n - 200)
        rows.remove(at: 500)
        let moved = rows.remove(at: 9_000)
        rows.insert(moved, at: 40)
        rows[7].version &+= 1
        let batch = try DiffModel.check(KeyedDiffer(), old: old, new: DiffRows(rows), dynamicProgramming: false)
        #expect(batch.deletes == [500, n - 1] && batch.inserts == Array(n - 201..<n - 191))
        #expect(batch.moves.map(\.from) == [9_001] && batch.updates == [7])
    }

    /// Too many leftovers (a long deleted block, a shuffle) hand over to the one-table path,
    /// which gives the same pairing.
    @Test func runsPathGivesUpOnLargeChanges() throws {
        var gen = DiffPairGenerator(seed: 22)
        let n = KeyedDiffer.runsMinimumRows + 1_000
        let old = DiffRows((0..<n).map { _ in gen.row() })
        var rows = old.rows
        rows.removeSubrange(1_000..<4_000)
        var block = Array(rows[10_000..<12_000])
        gen.shuffle(&block)
        rows.replaceSubrange(10_000..<12_000, with: block)
        let batch = try DiffModel.check(KeyedDiffer(), old: old, new: DiffRows(rows), dynamicProgramming: false)
        #expect(batch.deletes == Array(1_000..<4_000) && batch.inserts.isEmpty)
    }

    /// The runs path gives up after it marked new leftovers (inserts and move targets near
    /// the top), and the change is small enough for the batch to list inserts from their
    /// marks: the one-table path starts from clear marks, so only its inserts are listed.
    @Test func runsPathGivingUpLeavesOnlyInsertsMarked() throws {
        var gen = DiffPairGenerator(seed: 25)
        let n = KeyedDiffer.runsMinimumRows + 1_000
        let old = DiffRows((0..<n).map { _ in gen.row() })
        var rows = old.rows
        for k in stride(from: 15_000, to: 500, by: -5) { rows.remove(at: k) }
        for k in 0..<6 { rows.insert(gen.row(), at: 100 + 7 * k) }
        let moved = rows.remove(at: 300)
        rows.insert(moved, at: 40)
        rows[200].version &+= 1
        let batch = try DiffModel.check(KeyedDiffer(), old: old, new: DiffRows(rows), dynamicProgramming: false)
        #expect(batch.deletes.count == 2_900 && batch.inserts.count == 6 && batch.moves.count == 1 && batch.updates.count == 1)
    }

    /// A repeated id where one copy pairs inside a run and the other is a leftover is
    /// reported as the one-table path reports it, on either side.
    @Test func runsPathFindsRepeatsBetweenRunsAndLeftovers() {
        var gen = DiffPairGenerator(seed: 23)
        let n = KeyedDiffer.runsMinimumRows + 1_000
        let old = DiffRows((0..<n).map { _ in gen.row() })
        func error(_ o: [UInt64], _ nw: [UInt64]) -> TesseraError? {
            do {
                _ = try KeyedDiffer().diff(
                    oldIDs: o, oldVersions: Array(repeating: 0, count: o.count),
                    newIDs: nw, newVersions: Array(repeating: 0, count: nw.count))
                return nil
            } catch { return error }
        }
        // Old: row 15,000 repeats row 100 and is gone from the new list (a leftover).
        var oldIDs = old.ids
        oldIDs[15_000] = oldIDs[100]
        var newIDs = oldIDs
        newIDs.remove(at: 15_000)
        #expect(error(oldIDs, newIDs) == .duplicateIDInDiff(oldIDs[100], side: "old", firstIndex: 100, secondIndex: 15_000))
        // Old: a repeat inside two runs (both sides have it).
        #expect(error(oldIDs, oldIDs) == .duplicateIDInDiff(oldIDs[100], side: "old", firstIndex: 100, secondIndex: 15_000))
        // New: an inserted row repeats row 100, paired in a run.
        newIDs = old.ids
        newIDs.insert(old.ids[100], at: 15_000)
        newIDs.removeLast()
        #expect(error(old.ids, newIDs) == .duplicateIDInDiff(old.ids[100], side: "new", firstIndex: 100, secondIndex: 15_000))
        // New: an old leftover's id twice among the new leftovers.
        newIDs = old.ids
        let id = newIDs.remove(at: 12_000)
        newIDs.insert(id, at: 5_000)
        newIDs.insert(id, at: 9_000)
        #expect(error(old.ids, newIDs) == .duplicateIDInDiff(id, side: "new", firstIndex: 5_000, secondIndex: 9_000))
    }

    /// The inverse of `uniquenessKey` but for the seed, to make ids whose keys
    /// (`uniquenessKey(id)`, of `id ^ seed`) are chosen.
    static func unkey(_ value: UInt64) -> UInt64 {
        value &* inverse(0x9E37_79B9_7F4A_7C15)
    }

    /// The inverse of an odd number modulo 2^64 (Newton's iteration doubles the bits).
    static func inverse(_ a: UInt64) -> UInt64 {
        var x = a
        for _ in 0..<5 { x = x &* (2 &- a &* x) }
        return x
    }

    /// The runs path checks old ids through a bit filter: keys on a bit already set are
    /// candidates, most of them other keys on the same bit. Here one row in 16 has a key that
    /// differs from the one before only in the lowest bit, so shares its bit in both
    /// filters (and key 0, the empty slot of the exact table, is one of them, row 6's): no
    /// repeat, so the diff is the one-table path's.
    @Test func runsPathTellsFilterCollisionsFromRepeats() throws {
        let differ = KeyedDiffer()
        let n = KeyedDiffer.runsMinimumRows + 1_000
        var rng = SplitMix64(seed: 24)
        var keys = [UInt64](repeating: 0, count: n)
        for k in 0..<n { keys[k] = k & 15 == 1 || k == 7 ? keys[k - 1] | 1 : k == 6 ? 0 : rng.next() & ~1 }
        let ids = keys.map { Self.unkey($0) ^ differ.seed }
        #expect(Set(ids).count == n && ids[6] == differ.seed && differ.uniquenessKey(ids[7]) == 1)
        let old = DiffRows(ids: ids, versions: Array(repeating: 0, count: n))
        var rows = old.rows
        rows.remove(at: 3_000)
        rows.insert((id: 1 << 63, version: 0), at: 5_000)
        let moved = rows.remove(at: 9_000)
        rows.insert(moved, at: 12_000)
        rows[100].version = 1
        let batch = try DiffModel.check(differ, old: old, new: DiffRows(rows), dynamicProgramming: false)
        #expect(batch.deletes == [3_000] && batch.inserts == [5_000] && batch.moves.count == 1 && batch.updates == [100])
        // Repeats among those collisions are still found, on each side: key 0 twice in
        // the old rows, and a new row repeating a paired one.
        func error(_ o: [UInt64], _ nw: [UInt64]) -> TesseraError? {
            do {
                _ = try differ.diff(
                    oldIDs: o, oldVersions: Array(repeating: 0, count: o.count),
                    newIDs: nw, newVersions: Array(repeating: 0, count: nw.count))
                return nil
            } catch { return error }
        }
        var repeated = ids
        repeated[14_000] = ids[6]
        #expect(error(repeated, repeated) == .duplicateIDInDiff(ids[6], side: "old", firstIndex: 6, secondIndex: 14_000))
        repeated = ids
        repeated[14_001] = ids[14_000]
        #expect(error(repeated, repeated) == .duplicateIDInDiff(ids[14_000], side: "old", firstIndex: 14_000, secondIndex: 14_001))
        var newIDs = ids
        newIDs.insert(ids[6], at: 15_000)
        #expect(error(ids, newIDs) == .duplicateIDInDiff(ids[6], side: "new", firstIndex: 6, secondIndex: 15_000))
        newIDs = ids
        newIDs.insert(ids[7], at: 15_000)
        #expect(error(ids, newIDs) == .duplicateIDInDiff(ids[7], side: "new", firstIndex: 7, secondIndex: 15_000))
        #expect(try differ.diff(oldIDs: old.ids, oldVersions: old.versions, newIDs: rows.map(\.id), newVersions: rows.map(\.version)) == batch)

        // Every key on one filter bit (so many candidates that the second filter is
        // skipped): still no repeat, and a repeat among them still found.
        let crowded = (0..<n).map { _ in Self.unkey(rng.next() >> 18) ^ differ.seed }
        #expect(Set(crowded).count == n)
        let crowdedOld = DiffRows(ids: crowded, versions: Array(repeating: 0, count: n))
        var crowdedRows = crowdedOld.rows
        crowdedRows.remove(at: 2_000)
        crowdedRows.insert((id: 1 << 62, version: 0), at: 9_000)
        let crowdedBatch = try DiffModel.check(differ, old: crowdedOld, new: DiffRows(crowdedRows), dynamicProgramming: false)
        #expect(crowdedBatch.deletes == [2_000] && crowdedBatch.inserts == [9_000] && crowdedBatch.moves.isEmpty)
        repeated = crowded
        repeated[16_000] = crowded[3]
        #expect(error(repeated, repeated) == .duplicateIDInDiff(crowded[3], side: "old", firstIndex: 3, secondIndex: 16_000))
        newIDs = crowded
        newIDs.insert(crowded[3], at: 16_000)
        #expect(error(crowded, newIDs) == .duplicateIDInDiff(crowded[3], side: "new", firstIndex: 3, secondIndex: 16_000))
    }

    /// Rows kept in long runs with rows moved back and forth across many blocks of tails
    /// (the subsequence search starts from every 64th tail), new rows between them (blocks
    /// of eight increasing but not consecutive new indexes): the moved rows are the tie
    /// rule's, as the quadratic model picks them.
    @Test(arguments: [31, 32, 33] as [UInt64])
    func longestSubsequenceOverManyBlocks(seed: UInt64) throws {
        var gen = DiffPairGenerator(seed: seed)
        let n = 2_500
        let old = DiffRows((0..<n).map { _ in gen.row() })
        var rows = old.rows
        for _ in 0..<40 {
            let r = rows.remove(at: gen.rng.below(rows.count))
            rows.insert(r, at: gen.rng.below(rows.count + 1))
        }
        // A block moved back and one moved forward, and a swapped pair.
        let block = Array(rows[2_000..<2_100])
        rows.removeSubrange(2_000..<2_100)
        rows.insert(contentsOf: block, at: 300)
        let forward = Array(rows[100..<130])
        rows.removeSubrange(100..<130)
        rows.insert(contentsOf: forward, at: 1_500)
        rows.swapAt(700, 701)
        for _ in 0..<20 { rows.remove(at: gen.rng.below(rows.count)) }
        for _ in 0..<60 { rows.insert(gen.row(), at: gen.rng.below(rows.count + 1)) }
        try DiffModel.check(KeyedDiffer(), old: old, new: DiffRows(rows))
    }
}

