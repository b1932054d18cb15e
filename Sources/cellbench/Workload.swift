/// The rows of the geometry suite: what a long list screen (a transaction history, an
/// object list report) looks like to the virtualizer.
///
/// - Four cell kinds with estimated heights 44, 56, 72 and 88 pt (a one-line basic cell, a
///   two-line cell, an object cell with an image, an expanded object cell), in proportions
///   40/30/20/10 %.
/// - A measured height per row, a multiple of 0.25 pt in a per-kind range within 44...200
///   pt, skewed towards the short end (most rows are close to their minimum, few wrap to
///   many lines).
/// - Ids: distinct pseudo-random 64-bit values (splitmix64's bijective mixer over a
///   counter), so anything keyed by id hashes realistic keys, not `0..<n`.
struct Workload {
    static let estimatedHeights: [Double] = [44, 56, 72, 88]
    static let minimumHeight: [Double] = [44, 48, 60, 72]
    static let maximumHeight: [Double] = [64, 96, 140, 200]

    let rows: Int
    let seed: UInt64
    var ids: [UInt64] = []
    var kinds: [UInt16] = []
    var heights: [Double] = []

    init(rows: Int, seed: UInt64) {
        self.rows = rows
        self.seed = seed
        var rng = Xoshiro256(seed: seed)
        ids.reserveCapacity(rows)
        kinds.reserveCapacity(rows)
        heights.reserveCapacity(rows)
        for i in 0..<rows {
            let kind = Self.randomKind(&rng)
            ids.append(id(i))
            kinds.append(kind)
            heights.append(Self.measuredHeight(kind: kind, &rng))
        }
    }

    /// The id of the `i`th row ever created (rows inserted later continue the counter):
    /// distinct for distinct `i`, since the mixer is a bijection.
    func id(_ i: Int) -> UInt64 { SplitMix64.mix(UInt64(i) &+ seed &* 0x9E37_79B9_7F4A_7C15) }

    static func randomKind(_ rng: inout Xoshiro256) -> UInt16 {
        let r = rng.below(10)
        return r < 4 ? 0 : r < 7 ? 1 : r < 9 ? 2 : 3
    }

    static func measuredHeight(kind: UInt16, _ rng: inout Xoshiro256) -> Double {
        let lo = minimumHeight[Int(kind)], hi = maximumHeight[Int(kind)]
        let u = rng.unit()
        return ((lo + (hi - lo) * u * u) * 4).rounded() / 4
    }
}
