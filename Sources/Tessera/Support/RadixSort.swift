/// Digits of `radixSortByHighHalf`: at most 11 bits a pass (two passes below 2^22).
let radixSortBuckets = 1 << 11

/// Sorts `count` keys by their high 32 bits, which are distinct and below `limit`: a radix
/// sort through `spare` (room for `count` keys) and `counts` (room for `radixSortBuckets`),
/// so it allocates nothing. Used where thousands of indexes are put in order inside a diff
/// or an apply, where a comparison sort took about a tenth of the whole.
func radixSortByHighHalf(
    _ keys: UnsafeMutablePointer<UInt64>, count: Int, below limit: Int, spare: UnsafeMutablePointer<UInt64>, counts: UnsafeMutablePointer<Int32>
) {
    guard count > 1 else { return }
    let bits = max(Int.bitWidth - (limit - 1).leadingZeroBitCount, 1)
    let passes = (bits + 10) / 11, digit = (bits + passes - 1) / passes, mask = (1 << digit) - 1
    var from = keys, to = spare
    var shift = UInt64(32)
    for _ in 0..<passes {
        counts.update(repeating: 0, count: mask + 1)
        for k in 0..<count { counts[Int(truncatingIfNeeded: from[k] &>> shift) & mask] &+= 1 }
        var sum: Int32 = 0
        for d in 0...mask {
            let c = counts[d]
            counts[d] = sum
            sum &+= c
        }
        for k in 0..<count {
            let d = Int(truncatingIfNeeded: from[k] &>> shift) & mask
            to[Int(counts[d])] = from[k]
            counts[d] &+= 1
        }
        swap(&from, &to)
        shift += UInt64(digit)
    }
    if from != keys { keys.update(from: from, count: count) }
}
