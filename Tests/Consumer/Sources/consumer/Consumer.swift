// An app's view of Tessera: a package that depends on it and uses only its public API.
// Builds a store of rows with text, measures some, queries windows, keeps a scroll anchor
// through inserts above the viewport with ListEngine, and checks that failures are typed
// errors that leave the store as it was. Prints "consumer: N passed, M failed"; exits 1 on
// any failure.

import Tessera

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Checks {
    var passed = 0
    var failures: [String] = []

    mutating func expect(_ condition: Bool, _ what: @autoclosure () -> String, line: Int = #line) {
        if condition {
            passed += 1
        } else {
            failures.append("line \(line): \(what())")
        }
    }

    /// Runs `body`, which must throw a `TesseraError` that `matches`.
    mutating func expectError(
        _ what: String, line: Int = #line, _ matches: (TesseraError) -> Bool, _ body: () throws(TesseraError) -> Void
    ) {
        do throws(TesseraError) {
            try body()
            failures.append("line \(line): \(what): no error thrown")
        } catch {
            expect(matches(error) && !error.description.isEmpty, "\(what): unexpected error \(error)", line: line)
        }
    }
}

/// What a host would compare to see that a failed call changed nothing.
struct Snapshot: Equatable {
    var count: Int
    var totalHeight: Double
    var rows: [VisibleRow]

    init(_ store: borrowing RowStore, buffer: UnsafeMutableBufferPointer<VisibleRow>) throws(TesseraError) {
        count = store.count
        totalHeight = store.totalHeight
        let w = try store.window(offset: 0, viewport: 2000, into: buffer)
        rows = Array(buffer[0..<w.count])
    }
}

@main
enum Consumer {
    static let estimates: [Double] = [44, 56, 72, 88]

    static func main() {
        var checks = Checks()
        do throws(TesseraError) {
            try run(&checks)
        } catch {
            checks.failures.append("unexpected error: \(error)")
        }
        for failure in checks.failures { print("FAIL \(failure)") }
        print("consumer: \(checks.passed) passed, \(checks.failures.count) failed")
        exit(checks.failures.isEmpty ? 0 : 1)
    }

    static func run(_ checks: inout Checks) throws(TesseraError) {
        let buffer = UnsafeMutableBufferPointer<VisibleRow>.allocate(capacity: 256)
        defer { buffer.deallocate() }

        // MARK: A store of rows with text

        var store = try RowStore(estimatedHeights: estimates)
        var text = RowText(slotsPerRow: 2)
        var ids = [UInt64](), kinds = [UInt16]()
        for i in 0..<1000 {
            ids.append(0xC0FF_EE00_0000 &+ UInt64(i) &* 7919)
            kinds.append(UInt16(i % 4))
            text.append(["Payment \(i)", i % 3 == 0 ? "Café Müller · €\(i).50" : ""])
        }
        try store.append(ids: ids, kinds: kinds, text: text)
        let estimatedTotal = (0..<1000).reduce(0.0) { $0 + estimates[$1 % 4] }
        checks.expect(store.count == 1000, "count \(store.count)")
        checks.expect(store.totalHeight == estimatedTotal, "total \(store.totalHeight), expected \(estimatedTotal)")
        checks.expect(try store.text(ofRow: 3, slot: 0) == "Payment 3", "text of row 3 slot 0")
        checks.expect(try store.text(ofRow: 3, slot: 1) == "Café Müller · €3.50", "text of row 3 slot 1")
        checks.expect(try store.text(ofRow: 4, slot: 1) == "", "empty slot")
        checks.expect(try store.text(ofRow: 4, slot: 7) == "", "slot past the row's slots")
        checks.expect(try store.textSlotCount(ofRow: 0) == 2, "slot count")
        checks.expect(store.index(of: ids[500]) == 500, "index of an id")
        checks.expect(store.index(of: 42) == nil, "index of an unknown id")
        let row7 = try store.row(7)
        checks.expect(row7.id == ids[7] && row7.kind == 3 && row7.height == 88, "row 7 is \(row7)")
        checks.expect(!row7.flags.contains(.measured), "an unmeasured row is not flagged measured")
        checks.expect(store.memory.total > 0 && MemoryStatistics.current().allocated > 0, "memory figures")

        // MARK: Heights

        let before = store.totalHeight
        try store.setHeight(61.25, ofRow: 10)
        let row10 = try store.row(10)
        checks.expect(row10.height == 61.25 && row10.flags.contains(.measured), "measured row 10 is \(row10)")
        checks.expect(store.totalHeight == before - 72 + 61.25, "total after a measurement \(store.totalHeight)")
        checks.expect(try store.offset(ofRow: 11) == store.offset(ofRow: 10) + 61.25, "offset after a measured row")
        try store.invalidateHeight(ofRow: 10)
        let reset = try store.row(10)
        checks.expect(reset.height == 72 && !reset.flags.contains(.measured), "invalidated row 10 is \(reset)")
        checks.expect(store.totalHeight == before, "total back to the estimates")
        var topOf100 = 0.0
        for r in 0..<100 { topOf100 += try store.row(r).height }
        checks.expect(try store.offset(ofRow: 100) == topOf100, "offset of row 100 is the sum of the rows above")
        for r in 0..<1000 where r % 5 == 0 { try store.setHeight(44 + Double(r % 37) * 1.5, ofRow: r) }

        // MARK: Window queries

        let (offset, viewport, overscan) = (5000.0, 844.0, 100.0)
        let w = try store.window(
            offset: offset, viewport: viewport, overscanBefore: overscan, overscanAfter: overscan, into: buffer)
        checks.expect(w.count > 0 && w.count == w.rows.count, "window holds rows \(w.rows)")
        let window = Array(buffer[0..<w.count])
        if let first = window.first, let last = window.last {
            checks.expect(first.y <= offset - overscan && offset - overscan < first.y + first.height, "first row covers the top")
            checks.expect(last.y < offset + viewport + overscan, "last row starts inside the window")
            checks.expect(last.y + last.height >= offset + viewport + overscan, "last row reaches the bottom")
            checks.expect(first.row == w.rows.lowerBound, "rows are numbered from the range")
        }
        var consistent = true
        for (k, v) in window.enumerated() {
            let info = try store.row(v.row)
            let top = try store.offset(ofRow: v.row)
            if v.row != w.rows.lowerBound + k || v.id != info.id || v.height != info.height || v.kind != info.kind
                || v.y != top
            {
                consistent = false
            }
            if k > 0 && v.y != window[k - 1].y + window[k - 1].height { consistent = false }
        }
        checks.expect(consistent, "window rows agree with row(_:) and offset(ofRow:)")
        if let (row, inRow) = try store.row(atOffset: offset) {
            checks.expect(try store.offset(ofRow: row) + inRow == offset, "row(atOffset:) and its offset in the row")
        } else {
            checks.expect(false, "row(atOffset:) found no row")
        }
        checks.expect(try store.row(atOffset: store.totalHeight) == nil, "no row at the end of the content")
        let small = UnsafeMutableBufferPointer<VisibleRow>.allocate(capacity: 2)
        defer { small.deallocate() }
        checks.expectError("a buffer too small", {
            if case .bufferTooSmall(let needed, 2) = $0 { needed == w.count } else { false }
        }) { () throws(TesseraError) in
            _ = try store.window(
                offset: offset, viewport: viewport, overscanBefore: overscan, overscanAfter: overscan, into: small)
        }

        // MARK: Typed errors leave the store as it was

        let snapshot = try Snapshot(store, buffer: buffer)
        func unchanged(
            _ store: borrowing RowStore, _ what: String, _ checks: inout Checks, line: Int = #line
        ) throws(TesseraError) {
            checks.expect(try Snapshot(store, buffer: buffer) == snapshot, "store changed by \(what)", line: line)
        }
        checks.expectError("a duplicate id", { $0 == .duplicateID(ids[0]) }) { () throws(TesseraError) in
            try store.append(ids: [ids[0]], kinds: [0])
        }
        try unchanged(store, "a duplicate id", &checks)
        let fresh: [UInt64] = [1, 2, 1]
        checks.expectError("an id twice in one batch", { $0 == .duplicateID(1) }) { () throws(TesseraError) in
            try store.insert(ids: fresh, kinds: [0, 1, 2], heights: [50, 60, 70], at: 10)
        }
        checks.expect(store.index(of: 2) == nil, "a failed batch adds none of its rows")
        try unchanged(store, "a batch with a repeated id", &checks)
        checks.expectError("an unknown kind", { $0 == .unknownKind(9, kindCount: 4) }) { () throws(TesseraError) in
            try store.append(ids: [7], kinds: [9])
        }
        checks.expectError("a negative height", { $0 == .invalidHeight(-1) }) { () throws(TesseraError) in
            try store.setHeight(-1, ofRow: 0)
        }
        checks.expectError("a NaN height", { if case .invalidHeight(let h) = $0 { h.isNaN } else { false } }) { () throws(TesseraError) in
            try store.setHeight(.nan, ofRow: 0)
        }
        checks.expectError("a row out of bounds", { $0 == .rowOutOfBounds(index: 1000, count: 1000) }) { () throws(TesseraError) in
            try store.setHeight(50, ofRow: 1000)
        }
        checks.expectError("a range out of bounds", {
            $0 == .rangeOutOfBounds(lowerBound: 990, upperBound: 1001, count: 1000)
        }) { () throws(TesseraError) in
            try store.removeRows(990..<1001)
        }
        checks.expectError("columns of different lengths", {
            if case .columnLengthMismatch(_, 2, 1) = $0 { true } else { false }
        }) { () throws(TesseraError) in
            try store.append(ids: [7, 8], kinds: [0])
        }
        checks.expectError("invalid UTF-8", { $0 == .invalidUTF8(row: 0, slot: 1, byteOffset: 1) }) { () throws(TesseraError) in
            try store.append(
                ids: [7], kinds: [0], text: RowText(utf8: Array("ok".utf8) + [0x41, 0xC3, 0x28], slotsPerRow: 2, offsets: [0, 2, 5]))
        }
        checks.expectError("a negative offset", { $0 == .invalidOffset(-5) }) { () throws(TesseraError) in
            _ = try store.window(offset: -5, viewport: 100, into: buffer)
        }
        try unchanged(store, "rejected calls", &checks)

        // MARK: ListEngine keeps the row under the user's eye still

        var engine = try ListEngine(store: store, viewport: viewport)
        try engine.scroll(to: 20_000)
        guard let anchor = engine.anchor, let anchorRow = engine.store.index(of: anchor.id) else {
            checks.expect(false, "no anchor after scrolling")
            return
        }
        let screenY = try engine.store.offset(ofRow: anchorRow) - engine.scrollOffset
        let anchorHeight = try engine.store.row(anchorRow).height
        checks.expect(screenY <= 0 && -screenY < anchorHeight, "the anchor row covers the top edge")

        func screenYOfAnchor(_ engine: borrowing ListEngine) throws(TesseraError) -> Double? {
            let w = try engine.window(overscan: 0, into: buffer)
            for v in buffer[0..<w.count] where v.id == anchor.id { return v.y - engine.scrollOffset }
            return nil
        }
        checks.expect(try screenYOfAnchor(engine) == screenY, "the anchor row is in the window")

        let inserted = (0..<25).map { UInt64(0xABC0_0000) + UInt64($0) }
        let insertedHeights = (0..<25).map { 50 + Double($0) * 2.25 }
        let returned = try engine.insert(ids: inserted, kinds: Array(repeating: 1, count: 25), heights: insertedHeights, at: 5)
        checks.expect(returned == engine.scrollOffset, "insert returns the corrected offset")
        checks.expect(engine.scrollOffset == 20_000 + insertedHeights.reduce(0, +), "offset moved by the inserted height")
        checks.expect(engine.store.index(of: anchor.id) == anchorRow + 25, "the anchor row moved down 25 rows")
        checks.expect(try screenYOfAnchor(engine) == screenY, "anchor row still at \(screenY) pt after an insert above")

        try engine.setHeight(180, ofRow: 2)
        checks.expect(try screenYOfAnchor(engine) == screenY, "anchor row still after a height change above")
        try engine.removeRows(0..<4)
        checks.expect(try screenYOfAnchor(engine) == screenY, "anchor row still after removing rows above")
        let belowRow = engine.store.index(of: anchor.id)! + 40
        try engine.insert(ids: [0xDEAD], kinds: [3], heights: [120], at: belowRow)
        checks.expect(try screenYOfAnchor(engine) == screenY, "anchor row still after an insert below")
        checks.expect(engine.store.count == 1000 + 25 - 4 + 1, "engine store count \(engine.store.count)")
        checks.expectError("a duplicate id through the engine", { $0 == .duplicateID(0xDEAD) }) { () throws(TesseraError) in
            try engine.append(ids: [0xDEAD], kinds: [0])
        }
        checks.expect(try screenYOfAnchor(engine) == screenY, "a failed insert moves nothing")
    }
}
