// cabi-bench: the C ABI against the Swift API in one run. The same workload as the C host's
// `--bench` mode (Tests/CHost/host.c): 1M rows appended in one call (ids, kinds, measured
// heights), then 200,000 window queries scrolling and 200,000 at random offsets (844 pt
// viewport, 250 pt overscan each side), best of 6 rounds each, alternating between the
// Swift API (ListEngine) and the C functions (the same code libtessera.so exports, called
// here without the dynamic-library hop). Prints one JSON object; asserts nothing.
//
// Usage: cabi-bench [rows]

import CTessera
import Tessera
import TesseraC

#if canImport(Glibc)
import Glibc
#endif

func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
}

let rows = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 1_000_000 : 1_000_000
let estimates: [Double] = [56, 72, 44]
let ids = (0..<rows).map { UInt64($0) &* 2_654_435_761 &+ 1 }
let kinds = (0..<rows).map { UInt16($0 % 3) }
let heights = (0..<rows).map { 40 + Double($0 % 50) }
let queries = 200_000
var state: UInt64 = 0x9E37_79B9_7F4A_7C15
@MainActor func random(below n: Int) -> Int {
    state ^= state << 13
    state ^= state >> 7
    state ^= state << 17
    return Int(state % UInt64(n))
}

var best = (swiftAppend: Double.infinity, cAppend: Double.infinity, swiftScroll: Double.infinity, cScroll: Double.infinity,
            swiftRandom: Double.infinity, cRandom: Double.infinity)
var checksum = 0
let buffer = UnsafeMutableBufferPointer<VisibleRow>.allocate(capacity: 256)
let cBuffer = UnsafeMutablePointer<tess_visible_row>.allocate(capacity: 256)
var randomOffsets: [Double] = []

/// The Swift API: ListEngine, its store's window.
@MainActor func runSwift() {
    var engine = try! ListEngine(store: RowStore(estimatedHeights: estimates), viewport: 844)
    var t0 = now()
    try! engine.append(ids: ids, kinds: kinds, heights: heights)
    best.swiftAppend = min(best.swiftAppend, now() - t0)
    let total = engine.store.totalHeight
    if randomOffsets.isEmpty { randomOffsets = (0..<queries).map { _ in Double(random(below: Int(total - 844))) } }
    t0 = now()
    for q in 0..<queries {
        let offset = (Double(q) * 37.5).truncatingRemainder(dividingBy: total - 844)
        checksum &+= try! engine.store.window(offset: offset, viewport: 844, overscanBefore: 250, overscanAfter: 250, into: buffer).count
    }
    best.swiftScroll = min(best.swiftScroll, (now() - t0) / Double(queries))
    t0 = now()
    for offset in randomOffsets {
        checksum &+= try! engine.store.window(offset: offset, viewport: 844, overscanBefore: 250, overscanAfter: 250, into: buffer).count
    }
    best.swiftRandom = min(best.swiftRandom, (now() - t0) / Double(queries))
}

/// The C functions, on the same rows and offsets.
@MainActor func runC() {
    let total = heights.reduce(0, +)
    var handle: OpaquePointer?
    precondition(estimates.withUnsafeBufferPointer { tess_engine_create($0.baseAddress, 3, 844, &handle) } == TESS_OK)
    var t0 = now()
    let status = ids.withUnsafeBufferPointer { i in
        kinds.withUnsafeBufferPointer { k in
            heights.withUnsafeBufferPointer { h in
                tess_engine_append(handle, i.baseAddress, k.baseAddress, h.baseAddress, Int64(rows), nil, nil)
            }
        }
    }
    best.cAppend = min(best.cAppend, now() - t0)
    precondition(status == TESS_OK)
    var n: Int64 = 0
    t0 = now()
    for q in 0..<queries {
        let offset = (Double(q) * 37.5).truncatingRemainder(dividingBy: total - 844)
        _ = tess_engine_window_at(handle, offset, 844, 250, 250, cBuffer, 256, &n)
        checksum &+= Int(n)
    }
    best.cScroll = min(best.cScroll, (now() - t0) / Double(queries))
    t0 = now()
    for offset in randomOffsets {
        _ = tess_engine_window_at(handle, offset, 844, 250, 250, cBuffer, 256, &n)
        checksum &+= Int(n)
    }
    best.cRandom = min(best.cRandom, (now() - t0) / Double(queries))
    tess_engine_destroy(handle)
}

if let mode = getenv("CABI_BENCH_PROFILE").map({ String(cString: $0) }) {
    // One append of one side, for an instruction count (valgrind --tool=callgrind).
    if mode == "swift" {
        var engine = try! ListEngine(store: RowStore(estimatedHeights: estimates), viewport: 844)
        try! engine.append(ids: ids, kinds: kinds, heights: heights)
    } else {
        var handle: OpaquePointer?
        _ = estimates.withUnsafeBufferPointer { tess_engine_create($0.baseAddress, 3, 844, &handle) }
        _ = ids.withUnsafeBufferPointer { i in
            kinds.withUnsafeBufferPointer { k in
                heights.withUnsafeBufferPointer { h in
                    tess_engine_append(handle, i.baseAddress, k.baseAddress, h.baseAddress, Int64(rows), nil, nil)
                }
            }
        }
    }
    exit(0)
}

// Rounds alternate which side goes first, so neither always meets a warmer allocator.
for round in 0..<6 {
    if round % 2 == 0 { runSwift(); runC() } else { runC(); runSwift() }
}

func f(_ x: Double, _ digits: Int = 2) -> String {
    var s = String(Double(Int((x * pow(10, Double(digits))).rounded())) / pow(10, Double(digits)))
    if s.hasSuffix(".0") { s.removeLast(2) }
    return s
}
let n = Double(rows)
print("""
{"suite": "cabi", "rows": \(rows), \
"append_ns_per_row": {"swift": \(f(best.swiftAppend * 1e9 / n)), "c": \(f(best.cAppend * 1e9 / n)), "ratio": \(f(best.cAppend / best.swiftAppend, 3))}, \
"window_scroll_ns": {"swift": \(f(best.swiftScroll * 1e9, 1)), "c": \(f(best.cScroll * 1e9, 1)), "ratio": \(f(best.cScroll / best.swiftScroll, 3))}, \
"window_random_ns": {"swift": \(f(best.swiftRandom * 1e9, 1)), "c": \(f(best.cRandom * 1e9, 1)), "ratio": \(f(best.cRandom / best.swiftRandom, 3))}, \
"checksum": \(checksum)}
""")
