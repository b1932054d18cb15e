import Testing
import Tessera
@testable import cellbench

/// The diff suite's generators build the shapes they promise, deterministically.
@Suite struct DiffCasesTests {
    /// Deleted, inserted and updated rows counted from the ids and versions alone.
    static func shape(_ i: DiffInstance) -> (deletes: Int, inserts: Int, updates: Int) {
        let oldIndex = Dictionary(uniqueKeysWithValues: i.oldIDs.enumerated().map { ($1, $0) })
        let newIDs = Set(i.newIDs)
        #expect(newIDs.count == i.newCount, "new ids are not distinct")
        let deletes = i.oldIDs.filter { !newIDs.contains($0) }.count
        var inserts = 0, updates = 0
        for (j, id) in i.newIDs.enumerated() {
            if let o = oldIndex[id] {
                if i.oldVersions[o] != i.newVersions[j] { updates += 1 }
            } else {
                inserts += 1
            }
        }
        return (deletes, inserts, updates)
    }

    static func batch(_ i: DiffInstance) throws -> DiffBatch {
        try KeyedDiffer().diff(oldIDs: i.oldIDs, oldVersions: i.oldVersions, newIDs: i.newIDs, newVersions: i.newVersions)
    }

    @Test(arguments: DiffCase.allCases, [1_000, 4_321])
    func countsMatchThePlan(diffCase: DiffCase, rows: Int) throws {
        let i = diffCase.instance(rows: rows, seed: 42)
        let plan = diffCase.plan(rows: rows)
        #expect(i.plan == plan)
        #expect(i.oldCount == rows)
        #expect(i.newCount == rows - plan.deletes + plan.inserts)
        let s = Self.shape(i)
        #expect(s.deletes == plan.deletes)
        #expect(s.inserts == plan.inserts)
        #expect(s.updates == plan.updates)
        let b = try Self.batch(i)
        #expect(b.deletes.count == plan.deletes && b.inserts.count == plan.inserts && b.updates.count == plan.updates)
        // Displaced rows are at most the planned ones; a few may keep their relative order.
        #expect(b.moves.count <= plan.moved)
    }

    @Test func planCountsAtTheSuiteSizes() {
        #expect(DiffCase.diffkit.plan(rows: 100_000) == DiffPlan(deletes: 10_000, inserts: 10_000, moved: 2_000, updates: 0))
        #expect(DiffCase.prepend.plan(rows: 1_000_000) == DiffPlan(deletes: 0, inserts: 100, moved: 0, updates: 0))
        #expect(DiffCase.sparse.plan(rows: 1_000_000) == DiffPlan(deletes: 10_000, inserts: 10_000, moved: 10_000, updates: 10_000))
        #expect(DiffCase.reverse.plan(rows: 100_000).moved == 99_999)
        #expect(DiffCase.diffkit.rows(suiteRows: 1_000_000) == 100_000)
        #expect(DiffCase.sparse.rows(suiteRows: 1_000_000) == 1_000_000)
    }

    /// DifferenceKit's BenchmarkData: old[n/5 ..< 3n/10] removed, n/10 new rows at 3n/10,
    /// the first n/50 rows of the result shuffled, the rest in place.
    @Test func diffkitFollowsDifferenceKitsConstruction() throws {
        let n = 5_000
        let i = DiffCase.diffkit.instance(rows: n, seed: 7)
        var expected = i.oldIDs
        expected.removeSubrange(n / 5..<3 * n / 10)
        let newRows = i.newIDs[3 * n / 10..<4 * n / 10]
        #expect(Set(newRows).isDisjoint(with: Set(i.oldIDs)))
        expected.insert(contentsOf: newRows, at: 3 * n / 10)
        #expect(i.newIDs[(n / 50)...] == expected[(n / 50)...])
        #expect(Set(i.newIDs[..<(n / 50)]) == Set(expected[..<(n / 50)]))
        #expect(i.newIDs[..<(n / 50)] != expected[..<(n / 50)], "the shuffled rows are in their old order")
        let moves = try Self.batch(i).moves.count
        // A random permutation of k rows keeps a longest increasing run of about 2·sqrt(k).
        #expect(moves > n / 50 - 4 * 10 && moves < n / 50)
    }

    @Test func prependPutsNewRowsOnTopAndMovesNothing() throws {
        let i = DiffCase.prepend.instance(rows: 30_000, seed: 7)
        #expect(Array(i.newIDs[3...]) == i.oldIDs)
        let b = try Self.batch(i)
        #expect(b.inserts == [0, 1, 2] && b.moves.isEmpty && b.deletes.isEmpty)
    }

    @Test func reverseAndShuffleArePermutations() throws {
        let r = DiffCase.reverse.instance(rows: 1_000, seed: 7)
        #expect(r.newIDs == r.oldIDs.reversed())
        #expect(try Self.batch(r).moves.count == 999)
        let s = DiffCase.shuffle.instance(rows: 1_000, seed: 7)
        #expect(s.newIDs.sorted() == s.oldIDs.sorted() && s.newIDs != s.oldIDs)
        let moves = try Self.batch(s).moves.count
        #expect(moves > 1_000 - 4 * 32 && moves < 1_000)
    }

    /// 1 % of each kind; a moved row lands at a random place, so nearly all are reported.
    @Test func sparseMovesNearlyAllPlannedRows() throws {
        let i = DiffCase.sparse.instance(rows: 20_000, seed: 3)
        let moves = try Self.batch(i).moves.count
        #expect(moves <= 200 && moves >= 190)
    }

    @Test func instancesAreDeterministic() {
        for c in DiffCase.allCases {
            let a = c.instance(rows: 2_000, seed: 11), b = c.instance(rows: 2_000, seed: 11), d = c.instance(rows: 2_000, seed: 12)
            #expect(a.oldIDs == b.oldIDs && a.newIDs == b.newIDs && a.newVersions == b.newVersions)
            #expect(a.oldIDs != d.oldIDs)
        }
    }

    /// The peer's counts, from its own difference: updates are a removal and an insertion
    /// of one id, so they match the plan exactly, as deletes and inserts do.
    @Test func peerCountsMatchThePlan() {
        let i = DiffCase.sparse.instance(rows: 1_000, seed: 5)
        let old = DiffPeer.rows(i.oldIDs, i.oldVersions), new = DiffPeer.rows(i.newIDs, i.newVersions)
        let d = DiffPeer.difference(old: old, new: new)
        #expect(old.applying(d) == new)
        let c = DiffPeer.counts(d)
        #expect(c.deletes == 10 && c.inserts == 10 && c.updates == 10)
        #expect(c.moves <= 10)
    }

    @Test func peerRowsFitTheBudget() {
        let b = PeerBudget.standard
        #expect(DiffPeer.rows(for: .diffkit, atMost: 100_000, budget: b) == 100_000)
        #expect(DiffPeer.rows(for: .prepend, atMost: 1_000_000, budget: b) == 1_000_000)
        #expect(DiffPeer.rows(for: .reverse, atMost: 100_000, budget: b) == 12_000)
        #expect(DiffPeer.rows(for: .shuffle, atMost: 100_000, budget: b) == 12_000)
        let sparse = DiffPeer.rows(for: .sparse, atMost: 1_000_000, budget: b)
        #expect(sparse == 416_000)
        #expect(DiffCase.sparse.plan(rows: sparse).peerEdits <= b.maximumEdits)
        #expect(DiffCase.sparse.plan(rows: sparse + 1_000).peerEdits > b.maximumEdits)
        #expect(DiffPeer.rows(for: .sparse, atMost: 2_000, budget: PeerBudget(maximumEdits: 1)) == DiffCase.minimumRows)
    }
}

/// `apply_1m`'s snapshot: a quarter percent each deleted, inserted, moved and updated, the
/// same for the same seed, and applying it to the engine gives the rebuilt rows.
@Suite struct ApplyCaseTests {
    @Test func snapshotShapeAndApply() throws {
        let c = ApplyCase(rows: 4_000, seed: 7)
        let i = c.instance(), again = c.instance()
        #expect(i.snapshot == again.snapshot)
        let s = i.snapshot
        let old = Dictionary(uniqueKeysWithValues: i.ids.enumerated().map { ($1, $0) })
        let new = Set(s.ids)
        #expect(new.count == s.ids.count)
        #expect(i.ids.filter { !new.contains($0) }.count == 10)
        #expect(s.ids.filter { old[$0] == nil }.count == 10)
        #expect(s.ids.indices.filter { old[s.ids[$0]] != nil && s.versions[$0] != i.versions[old[s.ids[$0]]!] }.count == 10)
        var engine = try ApplyCase.engine(i.ids, i.heights, i.text, i.versions)
        let applied = try engine.apply(s)
        #expect(applied.batch.deletes.count == 10 && applied.batch.inserts.count == 10 && applied.batch.updates.count == 10)
        #expect(applied.batch.moves.count <= 10)
        for r in 0..<s.ids.count {
            let row = try engine.store.row(r)
            #expect(row.id == s.ids[r] && row.height == s.heights![r] && row.contentVersion == s.versions[r])
        }
    }
}
