import Testing
@testable import Tessera

/// `SegmentCache.hash` reads the key's bytes and nothing after them: a key hashes the same
/// whatever follows it in memory (it once read up to 8 bytes past keys of 17–24, 33–40, …
/// bytes).
@Suite struct SegmentHashTests {
    @Test func aKeyHashesTheSameWhateverFollowsIt() {
        let key = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for n in 1...SegmentCache.keyCapacity {
            let followedByZeros = key.prefix(n) + [UInt8](repeating: 0, count: 16)
            let followedByOnes = key.prefix(n) + [UInt8](repeating: 0xFF, count: 16)
            let h0 = followedByZeros.withUnsafeBytes { SegmentCache.hash($0.baseAddress!, n, style: 7) }
            let h1 = followedByOnes.withUnsafeBytes { SegmentCache.hash($0.baseAddress!, n, style: 7) }
            #expect(h0 == h1, "key of \(n) bytes")
        }
    }

    @Test func everyByteOfTheKeyCounts() {
        let key = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for n in 1...SegmentCache.keyCapacity {
            let h = key.withUnsafeBytes { SegmentCache.hash($0.baseAddress!, n, style: 7) }
            for i in 0..<n {
                var changed = key
                changed[i] ^= 0x01
                let g = changed.withUnsafeBytes { SegmentCache.hash($0.baseAddress!, n, style: 7) }
                #expect(g != h, "byte \(i) of a key of \(n) bytes")
            }
        }
    }
}
