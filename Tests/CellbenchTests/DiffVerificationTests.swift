import Testing
@testable import Tessera
@testable import cellbench

/// The suite's re-application of both forms accepts the differ's output and rejects
/// output that does not turn old into new: its verdict is what makes a run exit 1.
@Suite struct DiffVerificationTests {
    static func output(_ i: DiffInstance) throws -> (DiffBatch, [DiffOperation]) {
        let differ = KeyedDiffer()
        let b = try differ.diff(oldIDs: i.oldIDs, oldVersions: i.oldVersions, newIDs: i.newIDs, newVersions: i.newVersions)
        return (b, differ.operations(for: b))
    }

    @Test(arguments: DiffCase.allCases)
    func acceptsTheDiffersOutput(diffCase: DiffCase) throws {
        let i = diffCase.instance(rows: 3_000, seed: 9)
        let (b, ops) = try Self.output(i)
        let v = DiffVerifier(i)
        try v.verify(batch: b)
        try v.verify(operations: ops)
    }

    /// Operations shaped by hand on a list longer than one chunk, checked against a plain
    /// array applying the same operations.
    @Test func chunkedListMatchesAnArray() {
        var rng = Xoshiro256(seed: 1)
        var list = ChunkedList(oldCount: 5_000)
        var array = (0..<5_000).map(Int32.init)
        for step in 0..<3_000 {
            switch rng.below(3) {
            case 0 where array.count > 10:
                let at = rng.below(array.count - 5), k = 1 + rng.below(5)
                list.remove(at: at, count: k)
                array.removeSubrange(at..<at + k)
            case 1:
                let at = rng.below(array.count + 1), k = 1 + rng.below(3_000)
                list.insert(Int32(-step), count: k, at: at)
                array.insert(contentsOf: repeatElement(Int32(-step), count: k), at: at)
            default:
                let from = rng.below(array.count), to = rng.below(array.count)
                let row = list[from]
                #expect(row == array[from])
                list.remove(at: from, count: 1)
                list.insert(row, count: 1, at: to)
                array.insert(array.remove(at: from), at: to)
            }
            #expect(list.count == array.count)
        }
        #expect(list.elements() == array)
        var seen: [Int32] = []
        list.forEach(in: 100..<2_100) { seen.append($0) }
        #expect(seen == Array(array[100..<2_100]))
    }

    static func rejects(_ i: DiffInstance, batch b: DiffBatch) -> Bool {
        do { try DiffVerifier(i).verify(batch: b); return false } catch { return true }
    }

    static func rejects(_ i: DiffInstance, operations ops: [DiffOperation]) -> Bool {
        do { try DiffVerifier(i).verify(operations: ops); return false } catch { return true }
    }

    @Test func rejectsATamperedBatch() throws {
        let i = DiffCase.sparse.instance(rows: 2_000, seed: 4)
        let (b, _) = try Self.output(i)
        var noMove = b
        noMove.moves.removeLast()
        #expect(Self.rejects(i, batch: noMove))
        var noUpdate = b
        noUpdate.updates.removeLast()
        #expect(Self.rejects(i, batch: noUpdate))
        var noDelete = b
        noDelete.deletes.removeFirst()
        #expect(Self.rejects(i, batch: noDelete))
        var shifted = b
        shifted.inserts[0] += shifted.inserts[0] + 1 == shifted.inserts[1] ? -1 : 1
        #expect(Self.rejects(i, batch: shifted))
    }

    @Test func rejectsABatchForOtherSnapshots() throws {
        let i = DiffCase.sparse.instance(rows: 2_000, seed: 4)
        let (b, _) = try Self.output(i)
        // Another old snapshot: the batch no longer fits (ids differ at some place).
        var swapped = i
        swapped.oldIDs.swapAt(0, 1)
        swapped.oldVersions.swapAt(0, 1)
        #expect(Self.rejects(swapped, batch: b))
        // A version changed that the batch does not update.
        var changed = i
        let survivor = (0..<i.newCount).first { j in i.oldIDs.contains(i.newIDs[j]) && !b.updatedNewIndexes.contains(j) }!
        changed.newVersions[survivor] &+= 1
        #expect(Self.rejects(changed, batch: b))
        // A version the batch updates that did not change.
        var unchanged = i
        let updated = b.updatedNewIndexes[0]
        let old = i.oldIDs.firstIndex(of: i.newIDs[updated])!
        unchanged.newVersions[updated] = i.oldVersions[old]
        #expect(Self.rejects(unchanged, batch: b))
    }

    @Test func rejectsTamperedOperations() throws {
        let i = DiffCase.sparse.instance(rows: 2_000, seed: 4)
        let (_, ops) = try Self.output(i)
        let moveAt = ops.firstIndex { if case .move = $0 { true } else { false } }!
        var dropped = ops
        dropped.remove(at: moveAt)
        #expect(Self.rejects(i, operations: dropped))
        let changeAt = ops.firstIndex { if case .change = $0 { true } else { false } }!
        var twice = ops
        twice.append(ops[changeAt])
        #expect(Self.rejects(i, operations: twice))
        var outOfRange = ops
        outOfRange.append(.remove(at: i.newCount, count: 1))
        #expect(Self.rejects(i, operations: outOfRange))
        var reordered = ops
        reordered.swapAt(0, ops.count - 1)
        #expect(Self.rejects(i, operations: reordered))
    }
}
