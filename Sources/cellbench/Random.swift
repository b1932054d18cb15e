/// splitmix64 (Steele, Lea, Flood 2014): seeds xoshiro and, as a bijection of `UInt64`,
/// turns a counter into distinct, well-scrambled row ids.
struct SplitMix64 {
    var state: UInt64

    @inline(__always)
    static func mix(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }
}

/// xoshiro256** (Blackman, Vigna): the workload's deterministic random numbers.
struct Xoshiro256 {
    private var s: (UInt64, UInt64, UInt64, UInt64)

    init(seed: UInt64) {
        var sm = SplitMix64(state: seed)
        s = (sm.next(), sm.next(), sm.next(), sm.next())
    }

    @inline(__always)
    mutating func next() -> UInt64 {
        let result = ((s.1 &* 5) << 7 | (s.1 &* 5) >> 57) &* 9
        let t = s.1 << 17
        s.2 ^= s.0
        s.3 ^= s.1
        s.1 ^= s.2
        s.0 ^= s.3
        s.2 ^= t
        s.3 = s.3 << 45 | s.3 >> 19
        return result
    }

    /// Uniform in `0..<n` (Lemire's multiply-shift; the bias is below 2^-40 for our n).
    @inline(__always)
    mutating func below(_ n: Int) -> Int {
        Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(n)).high)
    }

    /// Uniform in `[0, 1)`.
    @inline(__always)
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
}
