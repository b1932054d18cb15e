import Tessera

/// `count` list texts in one UTF-8 buffer with `count + 1` offsets, as the bulk text calls
/// take them: merchants, people, references, amounts with dates, and descriptions of one
/// to four sentences (a quarter of the texts, most of them wrapping at list widths), mixed
/// scripts included. Deterministic for a seed; strings may repeat, as in real lists.
public struct TextCorpus {
    public var utf8: [UInt8] = []
    public var offsets: [Int] = [0]
    public var count: Int { offsets.count - 1 }

    public init(count: Int, seed: UInt64 = 0x7E47) {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<count {
            let s: String
            switch rng.below(8) {
            case 0, 1: s = rng.pick(Words.merchants)
            case 2: s = rng.pick(Words.people)
            case 3: s = "Verwendungszweck: \(rng.pick(Words.purposes))"
            case 4: s = "\(1 + rng.below(28)).\(1 + rng.below(12)).2025 \(Words.money(-(100 + rng.below(90_000))))"
            default:
                var d = rng.pick(Words.sentences)
                for _ in 0..<rng.below(4) { d += " " + rng.pick(Words.sentences) }
                s = d
            }
            utf8.append(contentsOf: s.utf8)
            offsets.append(utf8.count)
        }
    }

    /// The buffers for the duration of `body`.
    public func withBuffers<R>(_ body: (UnsafeRawBufferPointer, UnsafeBufferPointer<Int>) throws -> R) rethrows -> R {
        try utf8.withUnsafeBytes { bytes in try offsets.withUnsafeBufferPointer { try body(bytes, $0) } }
    }
}
