import Testing
import Tessera

/// The typed error a call throws, or nil when it succeeds.
func thrownError(_ body: () throws -> Void) -> TesseraError? {
    do {
        try body()
    } catch let error as TesseraError {
        return error
    } catch {
        Issue.record("not a TesseraError: \(error)")
    }
    return nil
}

/// Strings covering ASCII, Latin, CJK, RTL, Indic, combining marks, emoji (with ZWJ and
/// modifiers), NUL and the largest scalars.
let sampleTexts: [String] = [
    "", "a", "Zahlung", "Überweisung an Müller", "日本語のテキスト", "中文", "한국어",
    "مرحبا بالعالم", "שלום", "नमस्ते दुनिया", "Ελληνικά", "Ωμέγα", "e\u{301}", "\u{0}",
    "😀", "👍🏽", "👨‍👩‍👧‍👦", "🇦🇹🇩🇪", "\u{10FFFF}\u{E000}\u{FFFD}", "\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}",
    "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor",
    String(repeating: "Text in a row. ", count: 12),
]

/// Unique ids for a run: splitmix64's finaliser is a bijection, so distinct counters give
/// distinct ids; `absentID` values use counters no run reaches.
struct IDSource {
    let base: UInt64
    var counter: UInt64 = 0

    init(seed: UInt64) { base = seed << 40 }

    mutating func next() -> UInt64 {
        counter += 1
        return SplitMix64.mix(base &+ counter)
    }

    func absentID(_ k: UInt64) -> UInt64 { SplitMix64.mix(~(base &+ k)) }
}

/// Text for `rows` rows: usually built with `RowText.append` (fewer slots than
/// `slotsPerRow` are padded, more dropped), sometimes raw with junk bytes outside every
/// slot (even invalid UTF-8), which the store must ignore.
func randomText(_ rng: inout SplitMix64, rows: Int, slotsPerRow: Int) -> RowText {
    if slotsPerRow > 0, rng.chance(0.2) {
        var utf8: [UInt8] = [0xFF, 0xC0]  // junk before the first slot
        var offsets = [utf8.count]
        for _ in 0..<rows {
            for _ in 0..<slotsPerRow {
                utf8.append(contentsOf: rng.pick(sampleTexts).utf8)
                offsets.append(utf8.count)
            }
        }
        utf8.append(contentsOf: [0xED, 0xA0, 0x80])  // junk after the last slot
        return RowText(utf8: utf8, slotsPerRow: slotsPerRow, offsets: offsets)
    }
    var text = RowText(slotsPerRow: slotsPerRow)
    for _ in 0..<rows {
        let given = rng.int(0...(slotsPerRow + 1))
        text.append((0..<given).map { _ in rng.chance(0.25) ? "" : rng.pick(sampleTexts) })
    }
    return text
}

/// A height in points: usually whole 1/64 pt, sometimes zero, arbitrary, a tie between
/// two units, or very tall.
func randomHeight(_ rng: inout SplitMix64) -> Double {
    switch rng.below(20) {
    case 0: return 0
    case 1, 2: return rng.unit() * 200
    case 3: return (Double(rng.below(6400)) + 0.5) / 64
    case 4: return Double(rng.int(1...100_000))
    default: return Double(rng.int(1...6400)) / 64
    }
}

/// Everything observable about a store, for "a failed call changed nothing".
struct StoreSnapshot: Equatable, CustomStringConvertible {
    var count: Int
    var totalHeight: Double
    var kindCount: Int
    var rows: [RowInfo] = []
    var offsets: [Double] = []
    var indexes: [Int?] = []
    var slotCounts: [Int] = []
    var texts: [[[UInt8]]] = []
    var windows: [[VisibleRow]] = []

    init(_ store: borrowing RowStore) {
        count = store.count
        totalHeight = store.totalHeight
        kindCount = store.kindCount
        for r in 0..<store.count {
            let info = try! store.row(r)
            rows.append(info)
            offsets.append(try! store.offset(ofRow: r))
            indexes.append(store.index(of: info.id))
            let slots = try! store.textSlotCount(ofRow: r)
            slotCounts.append(slots)
            texts.append((0...slots).map { Array(try! store.text(ofRow: r, slot: $0).utf8) })
        }
        let capacity = store.count + 1
        let buffer = UnsafeMutableBufferPointer<VisibleRow>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        let total = store.totalHeight
        for y in [0, total / 3, total / 2, max(total - 1, 0), total] {
            let range = try! store.window(offset: y, viewport: 100, overscanBefore: 20, overscanAfter: 20, into: buffer)
            windows.append(Array(buffer[0..<range.count]))
        }
    }

    var description: String { "\(count) rows, \(totalHeight) pt" }
}

func makeStore(_ estimates: [Double] = [44, 60.5, 0, 17.015625], pageCapacity: Int = 4, treeFanout: Int = 4)
    -> RowStore
{
    try! RowStore(estimatedHeights: estimates, pageCapacity: pageCapacity, treeFanout: treeFanout)
}

/// `n` rows with ids `firstID...`, kinds cycling through `kindCount` kinds, the given
/// heights (cycled) or estimates when nil, and two text slots when `text`.
func makeBatch(_ n: Int, firstID: UInt64 = 1, kindCount: Int, heights: [Double]? = nil, text: Bool = false) -> Batch {
    let ids = (0..<n).map { firstID + UInt64($0) }
    let kinds = (0..<n).map { UInt16($0 % kindCount) }
    let h = heights.map { hs in (0..<n).map { hs[$0 % hs.count] } }
    var t: RowText? = nil
    if text {
        var rt = RowText(slotsPerRow: 2)
        for i in 0..<n { rt.append(["row \(firstID + UInt64(i))", sampleTexts[i % sampleTexts.count]]) }
        t = rt
    }
    return Batch(ids: ids, kinds: kinds, heights: h, text: t)
}

extension Batch {
    func insert(into store: inout RowStore, at index: Int) throws(TesseraError) {
        try store.insert(ids: ids, kinds: kinds, heights: heights, text: text, at: index)
    }

    func append(to store: inout RowStore) throws(TesseraError) {
        try store.append(ids: ids, kinds: kinds, heights: heights, text: text)
    }
}

/// A store and its model holding the same rows.
struct Fixture: ~Copyable {
    var store: RowStore
    let ref: ReferenceModel
}

/// A store and its model holding the same `n` rows (see `makeBatch`).
func makeFilled(
    _ n: Int, estimates: [Double] = [44, 60.5, 0, 17.015625], pageCapacity: Int = 4, treeFanout: Int = 4,
    heights: [Double]? = nil, text: Bool = false
) -> Fixture {
    var store = makeStore(estimates, pageCapacity: pageCapacity, treeFanout: treeFanout)
    let ref = ReferenceModel(estimatedHeights: estimates)
    let batch = makeBatch(n, kindCount: estimates.count, heights: heights, text: text)
    try! batch.append(to: &store)
    ref.insert(batch.refRows(estimates: ref.estimates), at: 0)
    return Fixture(store: store, ref: ref)
}

func withBuffer<R>(_ capacity: Int, _ body: (UnsafeMutableBufferPointer<VisibleRow>) throws -> R) rethrows -> R {
    let buffer = UnsafeMutableBufferPointer<VisibleRow>.allocate(capacity: capacity)
    defer { buffer.deallocate() }
    return try body(buffer)
}
