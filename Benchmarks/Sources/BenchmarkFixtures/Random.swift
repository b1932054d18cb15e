/// Deterministic pseudo-random numbers (splitmix64): every fixture is the same in every run.
public struct SplitMix64: Sendable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// splitmix64's finaliser, a bijection of UInt64.
    public static func mix(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in 0..<n (n > 0; the modulo bias is irrelevant here).
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }

    /// Uniform in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    public mutating func chance(_ p: Double) -> Bool { unit() < p }

    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// Fisher–Yates over `range` of `a`.
    public mutating func shuffle<T>(_ a: inout [T], _ range: Range<Int>) {
        var i = range.upperBound - 1
        while i > range.lowerBound {
            a.swapAt(i, range.lowerBound + below(i - range.lowerBound + 1))
            i -= 1
        }
    }
}
