/// The peer of the diff suite: the Swift standard library's
/// `new.difference(from: old).inferringMoves()` — Myers' O(ND) diff, then pairing equal
/// removed and inserted elements as moves — over elements that carry id and version, as a
/// UIKit diffable data source over `Hashable` items holding their content would see them.
/// A row whose version changed is therefore a different element: the peer reports it as a
/// removal plus an insertion of the same id, which is counted (untimed, afterwards) as one
/// update, not as a delete and an insert.
struct PeerRow: Hashable {
    var id: UInt64
    var version: UInt64
}

/// What the peer reported, in the suite's terms.
struct PeerCounts: Equatable {
    var deletes = 0
    var inserts = 0
    var moves = 0
    var updates = 0
}

enum DiffPeer {
    static let name = "Swift difference(from:).inferringMoves()"

    /// The element columns of both sides (built outside the timed region).
    static func rows(_ ids: [UInt64], _ versions: [UInt64]) -> [PeerRow] {
        zip(ids, versions).map { PeerRow(id: $0, version: $1) }
    }

    /// The timed call.
    @inline(never)
    static func difference(old: [PeerRow], new: [PeerRow]) -> CollectionDifference<PeerRow> {
        new.difference(from: old).inferringMoves()
    }

    /// Deletes, inserts, moves (removals the peer associated with an insertion) and updates
    /// (an unassociated removal and insertion of the same id) of a peer difference.
    static func counts(_ d: CollectionDifference<PeerRow>) -> PeerCounts {
        var c = PeerCounts()
        var removedIDs = Set<UInt64>()
        for r in d.removals {
            guard case .remove(_, let row, let associated) = r else { continue }
            if associated != nil { c.moves += 1 } else { removedIDs.insert(row.id) }
        }
        c.deletes = removedIDs.count
        for i in d.insertions {
            guard case .insert(_, let row, let associated) = i, associated == nil else { continue }
            if removedIDs.contains(row.id) {
                c.updates += 1
                c.deletes -= 1
            } else {
                c.inserts += 1
            }
        }
        return c
    }

    /// The largest row count at or below `rows` (a multiple of 1,000 when reduced, and at
    /// least the case's minimum) at which the peer's edit distance D, estimated from the
    /// case's plan (an upper bound), is at most `budget.maximumEdits`. The standard
    /// library's Myers descent (`_descent` in Diffing.swift) visits d + 1 diagonals and
    /// allocates a vector of d + 1 offsets at every edit step d, so its time grows with D²
    /// (about D²/2 diagonal visits) whatever the rows: on this machine D ≈ 24,000 took
    /// 4–10 s (with the load) for DifferenceKit's case at 100,000 rows, a reversal and a
    /// shuffle of 12,000.
    static func rows(for diffCase: DiffCase, atMost rows: Int, budget: PeerBudget) -> Int {
        func fits(_ n: Int) -> Bool { diffCase.plan(rows: n).peerEdits <= budget.maximumEdits }
        if fits(rows) { return rows }
        var lo = DiffCase.minimumRows, hi = rows  // fits(hi) is false
        guard fits(lo) else { return lo }
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if fits(mid) { lo = mid } else { hi = mid }
        }
        return lo >= 10_000 ? lo / 1_000 * 1_000 : lo
    }
}

/// How far the peer may be taken: at most `maximumEdits` edits D (its time grows with D²).
struct PeerBudget: Equatable {
    var maximumEdits: Int

    /// DifferenceKit's case at 100,000 rows (D ≤ 24,000) just fits; every larger instance
    /// runs the peer on fewer rows, each in 4–10 s on this machine (with its load).
    static let standard = PeerBudget(maximumEdits: 25_000)
}
