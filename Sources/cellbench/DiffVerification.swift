import Tessera

/// Why a diff's output did not turn the old snapshot into the new one.
struct DiffVerificationError: Error, CustomStringConvertible {
    var caseName: String
    var rows: Int
    var form: String
    var reason: String

    var description: String { "\(caseName) at \(rows) rows: the \(form) form does not turn old into new: \(reason)" }
}

/// Re-applies both output forms of a diff to the old snapshot, as UIKit and RecyclerView
/// would, and checks that the result is exactly the new snapshot (ids in order, every
/// version). Nothing here trusts the differ's bookkeeping: each form is applied on its own,
/// in time linear in the rows (the sequential form on a chunked list, so 10^5 moves on 10^6
/// rows do not cost 10^11 element shifts).
///
/// A result row is represented by its origin: the old index it came from, or `inserted`
/// for a row the form inserted (a placeholder the host fills from the new snapshot, which
/// must then be a row the old snapshot did not have).
struct DiffVerifier {
    let instance: DiffInstance
    let oldIDSet: Set<UInt64>

    static let inserted: Int32 = -1
    static let unset: Int32 = -2

    init(_ instance: DiffInstance) {
        self.instance = instance
        oldIDSet = Set(instance.oldIDs)
    }

    func failure(_ form: String, _ reason: String) -> DiffVerificationError {
        DiffVerificationError(caseName: instance.diffCase.name, rows: instance.oldCount, form: form, reason: reason)
    }

    // MARK: Batch form

    /// UIKit `performBatchUpdates`: deletes and move sources leave the old list; inserts and
    /// move destinations take their new indexes; every other old row keeps its relative
    /// order and fills the remaining places; updated rows (old indexes) then take their new
    /// version, and must sit at `updatedNewIndexes`.
    func verify(batch b: DiffBatch) throws(DiffVerificationError) {
        let n = instance.oldCount, m = instance.newCount
        let form = "batch"
        guard b.oldCount == n, b.newCount == m else {
            throw failure(form, "counts \(b.oldCount)/\(b.newCount) for \(n)/\(m) rows")
        }
        var gone = [Bool](repeating: false, count: n)
        for i in b.deletes + b.moves.map(\.from) {
            guard i >= 0, i < n, !gone[i] else { throw failure(form, "old index \(i) out of range, or deleted or moved twice") }
            gone[i] = true
        }
        var origin = [Int32](repeating: Self.unset, count: m)
        for j in b.inserts {
            guard j >= 0, j < m, origin[j] == Self.unset else { throw failure(form, "insert at \(j) out of range or twice") }
            origin[j] = Self.inserted
        }
        for mv in b.moves {
            guard mv.to >= 0, mv.to < m, origin[mv.to] == Self.unset else {
                throw failure(form, "move to \(mv.to) out of range or onto another insert or move")
            }
            origin[mv.to] = Int32(mv.from)
        }
        var next = 0
        for j in 0..<m where origin[j] == Self.unset {
            while next < n, gone[next] { next += 1 }
            guard next < n else { throw failure(form, "more places left than old rows staying") }
            origin[j] = Int32(next)
            next += 1
        }
        while next < n, gone[next] { next += 1 }
        guard next == n else { throw failure(form, "old row \(next) stays but has no place in the new list") }

        var changed = [Bool](repeating: false, count: n)
        for i in b.updates {
            guard i >= 0, i < n, !changed[i], b.deletes.binarySearchContains(i) == false else {
                throw failure(form, "update of old index \(i): out of range, deleted, or twice")
            }
            changed[i] = true
        }
        var previous = -1
        for j in b.updatedNewIndexes {
            guard j > previous, j < m, origin[j] >= 0, changed[Int(origin[j])] else {
                throw failure(form, "updatedNewIndexes has \(j), which is not an updated row's new index")
            }
            previous = j
        }
        guard b.updatedNewIndexes.count == b.updates.count else {
            throw failure(form, "\(b.updates.count) updates but \(b.updatedNewIndexes.count) updated new indexes")
        }
        try check(origin: origin, changed: changed, form: form)
    }

    // MARK: Sequential form

    /// RecyclerView `notifyItemRange…`: each operation applied in turn, each index checked
    /// against the list as it is at that moment; a change rebinds each row of its range to
    /// its new version (once per row, and only a surviving old row).
    func verify(operations ops: [DiffOperation]) throws(DiffVerificationError) {
        let n = instance.oldCount
        let form = "sequential"
        var list = ChunkedList(oldCount: n)
        var changed = [Bool](repeating: false, count: n)
        for (k, op) in ops.enumerated() {
            let length = list.count
            switch op {
            case .remove(let at, let count):
                guard count > 0, at >= 0, at + count <= length else { throw failure(form, "operation \(k) \(op) on \(length) rows") }
                list.remove(at: at, count: count)
            case .insert(let at, let count):
                guard count > 0, at >= 0, at <= length else { throw failure(form, "operation \(k) \(op) on \(length) rows") }
                list.insert(Self.inserted, count: count, at: at)
            case .move(let from, let to):
                guard from >= 0, from < length, to >= 0, to < length, from != to else {
                    throw failure(form, "operation \(k) \(op) on \(length) rows")
                }
                let row = list[from]
                list.remove(at: from, count: 1)
                list.insert(row, count: 1, at: to)
            case .change(let at, let count):
                guard count > 0, at >= 0, at + count <= length else { throw failure(form, "operation \(k) \(op) on \(length) rows") }
                var bad: Int32? = nil
                list.forEach(in: at..<at + count) { row in
                    if row < 0 || changed[Int(row)] { bad = row } else { changed[Int(row)] = true }
                }
                if let bad {
                    throw failure(form, "operation \(k) \(op) changes \(bad < 0 ? "an inserted row" : "old row \(bad) a second time")")
                }
            }
        }
        try check(origin: list.elements(), changed: changed, form: form)
    }

    // MARK: The result

    /// Every place of the result holds the new snapshot's row: an old row with the new id
    /// at that place and, after its change if it had one, the new version (a change of a
    /// row whose version did not change is an error, and so is a missing one); an inserted
    /// row where the new snapshot has an id the old one did not.
    func check(origin: [Int32], changed: [Bool], form: String) throws(DiffVerificationError) {
        let i = instance
        guard origin.count == i.newCount else { throw failure(form, "\(origin.count) rows result, \(i.newCount) expected") }
        var used = [Bool](repeating: false, count: i.oldCount)
        for j in 0..<i.newCount {
            let o = Int(origin[j])
            if o == Int(Self.inserted) {
                guard !oldIDSet.contains(i.newIDs[j]) else {
                    throw failure(form, "new index \(j) is inserted, but its id \(i.newIDs[j]) was in the old snapshot")
                }
                continue
            }
            guard o >= 0, o < i.oldCount, !used[o] else { throw failure(form, "old row \(o) placed twice or out of range") }
            used[o] = true
            guard i.oldIDs[o] == i.newIDs[j] else {
                throw failure(form, "new index \(j) holds old row \(o) (id \(i.oldIDs[o])), not id \(i.newIDs[j])")
            }
            let versionChanged = i.oldVersions[o] != i.newVersions[j]
            guard changed[o] == versionChanged else {
                throw failure(form, versionChanged ? "row \(i.newIDs[j]) changed version but was not updated"
                                                   : "row \(i.newIDs[j]) was updated but its version did not change")
            }
        }
    }
}

extension Array where Element == Int {
    /// Whether the ascending array holds `x`.
    func binarySearchContains(_ x: Int) -> Bool {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if self[mid] < x { lo = mid + 1 } else { hi = mid }
        }
        return lo < count && self[lo] == x
    }
}

/// A list of `Int32` in chunks of at most `2 * chunkSize`, for applying sequential
/// operations to a long list: a position is found by walking the chunk counts (about
/// n / chunkSize of them), and an insert or removal shifts one chunk, not the whole list.
struct ChunkedList {
    private(set) var chunks: [[Int32]]
    private(set) var count: Int
    let chunkSize: Int

    /// The list 0, 1, ..., oldCount - 1.
    init(oldCount n: Int) {
        var size = 1024
        while size * size < 4 * n { size <<= 1 }  // about 2·sqrt(n), at least 1024
        chunkSize = size
        chunks = stride(from: 0, to: n, by: size).map { Array(Int32($0)..<Int32(Swift.min(n, $0 + size))) }
        if chunks.isEmpty { chunks = [[]] }
        count = n
    }

    /// The chunk holding `position` and the offset in it; `position == count` gives the
    /// end of the last chunk.
    private func locate(_ position: Int) -> (chunk: Int, offset: Int) {
        var p = position
        for c in chunks.indices {
            let size = chunks[c].count
            if p < size { return (c, p) }
            p -= size
        }
        return (chunks.count - 1, chunks[chunks.count - 1].count)
    }

    subscript(position: Int) -> Int32 {
        let (c, o) = locate(position)
        return chunks[c][o]
    }

    mutating func remove(at position: Int, count k: Int) {
        var (c, o) = locate(position)
        var left = k
        while left > 0 {
            let take = Swift.min(left, chunks[c].count - o)
            chunks[c].removeSubrange(o..<o + take)
            left -= take
            if chunks[c].isEmpty && chunks.count > 1 {
                chunks.remove(at: c)
            } else {
                c += 1
            }
            o = 0
        }
        count -= k
    }

    mutating func insert(_ value: Int32, count k: Int, at position: Int) {
        let (c, o) = locate(position)
        chunks[c].insert(contentsOf: repeatElement(value, count: k), at: o)
        count += k
        if chunks[c].count > 2 * chunkSize {
            let whole = chunks[c]
            let pieces = stride(from: 0, to: whole.count, by: chunkSize).map { Array(whole[$0..<Swift.min(whole.count, $0 + chunkSize)]) }
            chunks.replaceSubrange(c...c, with: pieces)
        }
    }

    /// Calls `body` with each element of `range`, in order.
    func forEach(in range: Range<Int>, _ body: (Int32) -> Void) {
        var (c, o) = locate(range.lowerBound)
        var left = range.count
        while left > 0 {
            let take = Swift.min(left, chunks[c].count - o)
            for k in o..<o + take { body(chunks[c][k]) }
            left -= take
            c += 1
            o = 0
        }
    }

    func elements() -> [Int32] { Array(chunks.joined()) }
}
