/// splitmix64's finalizer: a bijection of `UInt64` that scrambles every input bit into
/// every output bit. The id index and the text caches hash with it.
@inline(__always)
func mix64(_ value: UInt64) -> UInt64 {
    var z = value
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
}
