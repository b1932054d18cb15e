/// A deterministic PRNG (splitmix64, Steele et al.), so every randomised test replays
/// exactly from its seed on every platform and Swift version (no stdlib sampling).
struct SplitMix64 {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// The splitmix64 finaliser: a bijection on UInt64 (used to make unique row ids).
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in `0..<n` (n > 0), by multiply-high; the bias is below 2^-40 for our n.
    mutating func below(_ n: Int) -> Int {
        precondition(n > 0)
        return Int(next().multipliedFullWidth(by: UInt64(n)).high)
    }

    /// Uniform in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { unit() < p }

    mutating func pick<T>(_ values: [T]) -> T { values[below(values.count)] }

    mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
}
