#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import Tessera

/// Every kind of bad input: the exact typed error (naming the offending value) and a
/// store exactly as it was before the call.
@Suite struct BadInputTests {
    static let estimates: [Double] = [44, 60.5, 0, 17.015625]

    /// 40 rows over tiny pages: text in two slots, some measured, some flagged.
    static func store() -> RowStore {
        var store = makeStore(estimates, pageCapacity: 3, treeFanout: 4)
        try! makeBatch(20, firstID: 1, kindCount: 4, text: true).append(to: &store)
        try! makeBatch(20, firstID: 101, kindCount: 4, heights: [12.5, 0, 99.015625]).append(to: &store)
        try! store.setHeight(7.25, ofRow: 3)
        try! store.updateFlags(ofRow: 5, setting: [.selected, .swipeOpen])
        try! store.updateFlags(ofRow: 30, setting: .unread)
        store._checkInvariants()
        return store
    }

    func rejects(
        _ store: inout RowStore, _ expected: TesseraError, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: (inout RowStore) throws -> Void
    ) {
        rejects(&store, "\(expected)", sourceLocation: sourceLocation, where: { $0 == expected }, body)
    }

    /// For errors that carry NaN (never equal to itself) or a message.
    func rejects(
        _ store: inout RowStore, _ what: String, sourceLocation: SourceLocation = #_sourceLocation,
        where matches: (TesseraError) -> Bool, _ body: (inout RowStore) throws -> Void
    ) {
        let before = StoreSnapshot(store)
        let error = thrownError { try body(&store) }
        #expect(error.map(matches) == true, "got \(String(describing: error)), expected \(what)", sourceLocation: sourceLocation)
        store._checkInvariants()
        let after = StoreSnapshot(store)
        #expect(after == before, "the store changed", sourceLocation: sourceLocation)
    }

    static func isInvalidHeightNaN(_ e: TesseraError) -> Bool {
        if case .invalidHeight(let h) = e { h.isNaN } else { false }
    }

    static let badHeights: [Double] = [
        -1, -0.001, -.ulpOfOne, -.infinity, .infinity, RowStore.maximumRowHeight + 1.0 / 64,
        RowStore.maximumRowHeight + 0.5 / 64, 1e300, .greatestFiniteMagnitude,
    ]

    // MARK: Heights

    @Test func invalidHeightsInSetHeightAndSetHeights() {
        var store = Self.store()
        for h in Self.badHeights {
            rejects(&store, .invalidHeight(h)) { try $0.setHeight(h, ofRow: 4) }
            rejects(&store, .invalidHeight(h)) { try $0.setHeights([1, 2, h, 3], startingAt: 10) }
            rejects(&store, .invalidHeight(h)) { try $0.setHeights([1, 2, 3, h], startingAt: 36) }
        }
        // The bad value at every position of batches of 1...11 heights (vector lanes and tail).
        for k in 1...11 {
            for at in 0..<k {
                let bad = Self.badHeights[(k + at) % Self.badHeights.count]
                let heights = (0..<k).map { $0 == at ? bad : Double($0) + 0.5 }
                rejects(&store, .invalidHeight(bad)) { try $0.setHeights(heights, startingAt: 2) }
                let ids = (0..<k).map { 600 + UInt64($0) }
                rejects(&store, .invalidHeight(bad)) {
                    try $0.insert(ids: ids, kinds: Array(repeating: 1, count: k), heights: heights, at: 9)
                }
                var withNaN = heights
                withNaN[at] = .nan
                rejects(&store, "invalidHeight(nan)", where: Self.isInvalidHeightNaN) { try $0.setHeights(withNaN, startingAt: 0) }
                rejects(&store, "invalidHeight(nan)", where: Self.isInvalidHeightNaN) {
                    try $0.append(ids: ids, kinds: Array(repeating: 0, count: k), heights: withNaN)
                }
            }
        }
        for nan in [Double.nan, -.nan, .signalingNaN] {
            rejects(&store, "invalidHeight(nan)", where: Self.isInvalidHeightNaN) { try $0.setHeight(nan, ofRow: 0) }
            rejects(&store, "invalidHeight(nan)", where: Self.isInvalidHeightNaN) { try $0.setHeights([5, nan], startingAt: 0) }
        }
    }

    @Test func invalidHeightsInAppendAndInsert() {
        var store = Self.store()
        for h in Self.badHeights {
            rejects(&store, .invalidHeight(h)) { try $0.append(ids: [500, 501], kinds: [0, 1], heights: [10, h]) }
            rejects(&store, .invalidHeight(h)) { try $0.insert(ids: [500], kinds: [0], heights: [h], at: 7) }
            // The bad height is the last of a batch bigger than a page.
            let n = 50
            rejects(&store, .invalidHeight(h)) {
                try $0.insert(
                    ids: (0..<n).map { 1_000 + UInt64($0) }, kinds: Array(repeating: 2, count: n),
                    heights: (0..<n).map { $0 == n - 1 ? h : 5 }, at: 20)
            }
        }
        rejects(&store, "invalidHeight(nan)", where: Self.isInvalidHeightNaN) {
            try $0.append(ids: [500], kinds: [0], heights: [.nan])
        }
    }

    @Test func invalidEstimatedHeightsInInit() {
        for h in Self.badHeights {
            #expect(thrownError { _ = try RowStore(estimatedHeights: [44, h]) } == .invalidHeight(h))
            #expect(thrownError { _ = try RowStore(estimatedHeights: [h], pageCapacity: 4, treeFanout: 4) } == .invalidHeight(h))
        }
        let e = thrownError { _ = try RowStore(estimatedHeights: [1, .nan, 2]) }
        #expect(e.map(Self.isInvalidHeightNaN) == true)
        // The largest valid estimate and an empty list of kinds are fine.
        #expect(thrownError { _ = try RowStore(estimatedHeights: [RowStore.maximumRowHeight, 0]) } == nil)
        #expect(thrownError { _ = try RowStore(estimatedHeights: []) } == nil)
    }

    // MARK: Rows and ranges

    @Test func rowIndexesOutOfBounds() {
        var store = Self.store()
        let n = store.count
        for r in [-1, -1_000, n, n + 1, Int.max, Int.min] {
            let e = TesseraError.rowOutOfBounds(index: r, count: n)
            rejects(&store, e) { try $0.setHeight(10, ofRow: r) }
            rejects(&store, e) { try $0.invalidateHeight(ofRow: r) }
            rejects(&store, e) { try $0.updateFlags(ofRow: r, setting: .selected) }
            rejects(&store, e) { _ = try $0.row(r) }
            rejects(&store, e) { _ = try $0.text(ofRow: r, slot: 0) }
            rejects(&store, e) { _ = try $0.textSlotCount(ofRow: r) }
            rejects(&store, e) { _ = try $0.offset(ofRow: r) }
            rejects(&store, e) { _ = try $0.scrollOffset(toRow: r, anchor: .center, viewport: 100) }
        }
        var empty = makeStore()
        rejects(&empty, .rowOutOfBounds(index: 0, count: 0)) { _ = try $0.row(0) }
        rejects(&empty, .rowOutOfBounds(index: 0, count: 0)) { try $0.setHeight(1, ofRow: 0) }
    }

    @Test func rangesOutOfBounds() {
        var store = Self.store()
        let n = store.count
        for (lo, hi) in [(-1, 2), (-5, -1), (0, n + 1), (n - 1, n + 1), (n, n + 1), (n + 1, n + 1), (n + 5, n + 9), (Int.min, 0)] {
            rejects(&store, .rangeOutOfBounds(lowerBound: lo, upperBound: hi, count: n)) { try $0.removeRows(lo..<hi) }
        }
        // Bulk heights: the range they would cover.
        rejects(&store, .rangeOutOfBounds(lowerBound: -1, upperBound: 1, count: n)) { try $0.setHeights([1, 2], startingAt: -1) }
        rejects(&store, .rangeOutOfBounds(lowerBound: n - 1, upperBound: n + 1, count: n)) {
            try $0.setHeights([1, 2], startingAt: n - 1)
        }
        rejects(&store, .rangeOutOfBounds(lowerBound: n + 1, upperBound: n + 1, count: n)) { try $0.setHeights([], startingAt: n + 1) }
        // Insertion positions.
        for at in [-1, n + 1, n + 100, Int.min] {
            let e = TesseraError.rangeOutOfBounds(lowerBound: at, upperBound: at, count: n)
            rejects(&store, e) { try $0.insert(ids: [900], kinds: [0], at: at) }
            rejects(&store, e) { try $0.insert(ids: [], kinds: [], at: at) }
            rejects(&store, e) { try $0.insert(ids: (900..<960).map { $0 }, kinds: Array(repeating: 1, count: 60), at: at) }
        }
    }

    /// A start index far out of range must be reported like any other, not trap on the
    /// arithmetic that builds the error (`start + heights.count` overflows). Run in a
    /// child process so a trap fails this test instead of ending the whole run (exit codes
    /// 3...5 mean a wrong outcome without a trap).
    @Test func setHeightsWithAHugeStartThrowsInsteadOfTrapping() async {
        await #expect(processExitsWith: .success) {
            var store = try! RowStore(estimatedHeights: [44], pageCapacity: 4, treeFanout: 4)
            try! store.append(ids: [1, 2, 3], kinds: [0, 0, 0])
            for start in [Int.max, Int.max - 1] {
                do {
                    try store.setHeights([1, 2], startingAt: start)
                    exit(3)  // succeeded
                } catch let error as TesseraError {
                    guard case .rangeOutOfBounds(let lower, _, 3) = error, lower == start else {
                        exit(4)  // another error
                    }
                } catch {
                    exit(5)
                }
            }
        }
    }

    // MARK: Offsets, viewports, overscans

    @Test func invalidOffsetsViewportsAndOverscans() {
        var store = Self.store()
        for bad in [-1, -0.5 / 64, -.ulpOfOne, -.infinity, .infinity, -.greatestFiniteMagnitude] as [Double] {
            rejects(&store, .invalidOffset(bad)) { _ = try $0.row(atOffset: bad) }
            rejects(&store, .invalidOffset(bad)) { _ = try $0.anchor(atOffset: bad) }
            withBuffer(64) { buffer in
                rejects(&store, .invalidOffset(bad)) { _ = try $0.window(offset: bad, viewport: 100, into: buffer) }
                rejects(&store, .invalidViewport(bad)) { _ = try $0.window(offset: 10, viewport: bad, into: buffer) }
                rejects(&store, .invalidViewport(bad)) {
                    _ = try $0.window(offset: 10, viewport: 100, overscanBefore: bad, into: buffer)
                }
                rejects(&store, .invalidViewport(bad)) {
                    _ = try $0.window(offset: 10, viewport: 100, overscanAfter: bad, into: buffer)
                }
            }
            rejects(&store, .invalidViewport(bad)) { _ = try $0.scrollOffset(toRow: 3, anchor: .bottom, viewport: bad) }
        }
        func isNaN(_ e: TesseraError) -> Bool {
            switch e {
            case .invalidOffset(let v), .invalidViewport(let v): v.isNaN
            default: false
            }
        }
        withBuffer(64) { buffer in
            rejects(&store, "invalidOffset(nan)", where: { if case .invalidOffset = $0 { isNaN($0) } else { false } }) {
                _ = try $0.window(offset: .nan, viewport: 100, into: buffer)
            }
            for k in 0..<3 {
                rejects(&store, "invalidViewport(nan)", where: { if case .invalidViewport = $0 { isNaN($0) } else { false } }) {
                    _ = try $0.window(
                        offset: 5, viewport: k == 0 ? .nan : 1, overscanBefore: k == 1 ? .nan : 0,
                        overscanAfter: k == 2 ? .nan : 0, into: buffer)
                }
            }
        }
        rejects(&store, "invalidOffset(nan)", where: { if case .invalidOffset = $0 { isNaN($0) } else { false } }) {
            _ = try $0.row(atOffset: .nan)
        }
        // A too-small buffer leaves the store as it was too.
        withBuffer(2) { buffer in
            let needed = Self.store().count
            rejects(&store, .bufferTooSmall(needed: needed, capacity: 2)) {
                _ = try $0.window(offset: 0, viewport: 1e6, into: buffer)
            }
        }
    }

    @Test func listEngineRejectsBadInputAndKeepsItsState() throws {
        #expect(thrownError { _ = try ListEngine(store: Self.store(), viewport: -1) } == .invalidViewport(-1))
        #expect(thrownError { _ = try ListEngine(store: Self.store(), viewport: .infinity) } == .invalidViewport(.infinity))
        var engine = try ListEngine(store: Self.store(), viewport: 200)
        try engine.scroll(to: 333.5)
        let offset = engine.scrollOffset, anchor = engine.anchor, count = engine.store.count
        let snapshot = StoreSnapshot(engine.store)
        let errors: [TesseraError?] = [
            thrownError { try engine.scroll(to: -1) },
            thrownError { try engine.scroll(to: .infinity) },
            thrownError { try engine.setViewport(-3) },
            thrownError { try engine.insert(ids: [1], kinds: [0], at: 0) },
            thrownError { try engine.append(ids: [900, 901], kinds: [0, 9]) },
            thrownError { try engine.removeRows(0..<(count + 1)) },
            thrownError { try engine.setHeight(-2, ofRow: 0) },
            thrownError { try engine.invalidateHeight(ofRow: count) },
            thrownError { try engine.updateFlags(ofRow: 0, setting: .measured) },
        ]
        #expect(errors == [
            .invalidOffset(-1), .invalidOffset(.infinity), .invalidViewport(-3), .duplicateID(1),
            .unknownKind(9, kindCount: 4), .rangeOutOfBounds(lowerBound: 0, upperBound: count + 1, count: count),
            .invalidHeight(-2), .rowOutOfBounds(index: count, count: count), .invalidFlags(1),
        ])
        let nan = thrownError { try engine.scroll(to: .nan) }
        if case .invalidOffset(let v)? = nan { #expect(v.isNaN) } else { Issue.record("scroll(to: .nan) gave \(String(describing: nan))") }
        #expect(engine.scrollOffset == offset)
        #expect(engine.anchor == anchor)
        #expect(engine.viewport == 200)
        #expect(StoreSnapshot(engine.store) == snapshot)
        engine.store._checkInvariants()
    }

    // MARK: Batches

    @Test func duplicateIDsRejectTheWholeBatch() {
        var store = Self.store()
        // Twice within one batch: first and last of a small one, and the last row of a big one.
        rejects(&store, .duplicateID(777)) { try $0.append(ids: [777, 778, 777], kinds: [0, 0, 0]) }
        rejects(&store, .duplicateID(777)) { try $0.insert(ids: [777, 777], kinds: [0, 0], at: 3) }
        let big = (0..<5_000).map { 10_000 + UInt64($0) }
        rejects(&store, .duplicateID(10_000)) {
            try $0.append(ids: big + [10_000], kinds: Array(repeating: 1, count: 5_001))
        }
        rejects(&store, .duplicateID(14_999)) {
            try $0.insert(ids: big + [14_999], kinds: Array(repeating: 1, count: 5_001), at: 17)
        }
        // Against stored rows (ids 1...20 and 101...120): first, middle and last of a batch.
        rejects(&store, .duplicateID(1)) { try $0.append(ids: [1, 900], kinds: [0, 0]) }
        rejects(&store, .duplicateID(105)) { try $0.insert(ids: [900, 105, 901], kinds: [0, 0, 0], at: 0) }
        rejects(&store, .duplicateID(120)) { try $0.append(ids: big + [120], kinds: Array(repeating: 1, count: 5_001)) }
        rejects(&store, .duplicateID(20)) {
            try $0.insert(ids: big + [20], kinds: Array(repeating: 1, count: 5_001), heights: Array(repeating: 3, count: 5_001), at: 40)
        }
        // Id 0 and UInt64.max are ordinary ids.
        try! store.append(ids: [0, .max], kinds: [0, 0])
        rejects(&store, .duplicateID(.max)) { try $0.append(ids: [.max], kinds: [0]) }
        rejects(&store, .duplicateID(0)) { try $0.insert(ids: [0], kinds: [0], at: 0) }
        #expect(store.index(of: 0) == 40 && store.index(of: .max) == 41)
    }

    /// An append finds duplicates while indexing rows it has already written into pages;
    /// a rejected one must take back its entries, pages and text, also on an empty store
    /// (where it created the first page) and across many full pages.
    @Test func duplicateIDsInAnAppendUnwindEverything() {
        for capacity in [3, RowStore.defaultPageCapacity] {
            var empty = makeStore(Self.estimates, pageCapacity: capacity)
            var batch = makeBatch(3_000, firstID: 50, kindCount: 4, text: true)
            batch.ids[2_999] = 1_234
            rejects(&empty, .duplicateID(1_234)) { try batch.append(to: &$0) }
            #expect(empty.count == 0 && empty.index(of: 50) == nil && empty.index(of: 1_234) == nil)
            // Capacity reserved by the first try stays; pages written by later tries must not.
            // This thread's own balance: tests running in parallel do not move it.
            let settled = MemoryStatistics.threadBalance()
            for _ in 0..<5 { rejects(&empty, .duplicateID(1_234)) { try batch.append(to: &$0) } }
            #expect(MemoryStatistics.threadBalance() - settled < 3_000 * 19, "rejected appends leak their pages")
            batch.ids[2_999] = 99_999
            try! batch.append(to: &empty)
            empty._checkInvariants()
            #expect(empty.count == 3_000 && empty.index(of: 1_234) == 1_184 && empty.index(of: 99_999) == 2_999)
            #expect(try! empty.text(ofRow: 2_999, slot: 0) == String(decoding: batch.text!.utf8[batch.text!.offsets[2 * 2_999]..<batch.text!.offsets[2 * 2_999 + 1]], as: UTF8.self))
        }
    }

    @Test func unknownKinds() {
        var store = Self.store()
        rejects(&store, .unknownKind(4, kindCount: 4)) { try $0.append(ids: [900], kinds: [4]) }
        rejects(&store, .unknownKind(.max, kindCount: 4)) { try $0.insert(ids: [900, 901], kinds: [0, .max], at: 5) }
        let n = 3_000
        rejects(&store, .unknownKind(7, kindCount: 4)) {
            try $0.append(ids: (0..<n).map { 5_000 + UInt64($0) }, kinds: (0..<n).map { $0 == n - 1 ? 7 : 3 })
        }
        rejects(&store, .unknownKind(4, kindCount: 4)) { _ = try $0.estimatedHeight(ofKind: 4) }
        var none = makeStore([])
        rejects(&none, .unknownKind(0, kindCount: 0)) { try $0.append(ids: [1], kinds: [0]) }
    }

    @Test func mismatchedColumnLengths() {
        var store = Self.store()
        rejects(&store, .columnLengthMismatch(column: "kinds", expected: 3, actual: 2)) {
            try $0.append(ids: [900, 901, 902], kinds: [0, 0])
        }
        rejects(&store, .columnLengthMismatch(column: "kinds", expected: 1, actual: 2)) {
            try $0.insert(ids: [900], kinds: [0, 0], at: 0)
        }
        rejects(&store, .columnLengthMismatch(column: "heights", expected: 2, actual: 1)) {
            try $0.append(ids: [900, 901], kinds: [0, 0], heights: [4])
        }
        rejects(&store, .columnLengthMismatch(column: "heights", expected: 2, actual: 3)) {
            try $0.insert(ids: [900, 901], kinds: [0, 0], heights: [4, 5, 6], at: 1)
        }
        // Text offsets: rows × slots + 1 of them.
        rejects(&store, .columnLengthMismatch(column: "text offsets", expected: 5, actual: 4)) {
            try $0.append(ids: [900, 901], kinds: [0, 0], text: RowText(utf8: Array("abcd".utf8), slotsPerRow: 2, offsets: [0, 1, 2, 3]))
        }
        rejects(&store, .columnLengthMismatch(column: "text offsets", expected: 2, actual: 3)) {
            try $0.append(ids: [900], kinds: [0], text: RowText(utf8: Array("ab".utf8), slotsPerRow: 1, offsets: [0, 1, 2]))
        }
        rejects(&store, .columnLengthMismatch(column: "text offsets", expected: 1, actual: 0)) {
            try $0.append(ids: [], kinds: [], text: RowText(utf8: [], slotsPerRow: 1, offsets: []))
        }
    }

    @Test func malformedTextOffsets() {
        var store = Self.store()
        let utf8 = Array("abcdefghij".utf8)
        func text(_ offsets: [Int], slots: Int = 2) -> RowText { RowText(utf8: utf8, slotsPerRow: slots, offsets: offsets) }
        // Decreasing: row 1's slot 1 ends before it starts.
        rejects(&store, .invalidTextOffsets(row: 1, slot: 1)) {
            try $0.append(ids: [900, 901, 902], kinds: [0, 0, 0], text: text([0, 1, 2, 6, 5, 7, 8]))
        }
        rejects(&store, .invalidTextOffsets(row: 0, slot: 0)) {
            try $0.append(ids: [900], kinds: [0], text: text([3, 2, 4]))
        }
        // Past the buffer: the last offset of row 2.
        rejects(&store, .invalidTextOffsets(row: 2, slot: 1)) {
            try $0.insert(ids: [900, 901, 902], kinds: [0, 0, 0], text: text([0, 1, 2, 3, 4, 5, 11]), at: 10)
        }
        rejects(&store, .invalidTextOffsets(row: 0, slot: 0)) {
            try $0.append(ids: [900], kinds: [0], text: text([11, 12], slots: 1))
        }
        // Negative.
        rejects(&store, .invalidTextOffsets(row: 0, slot: 0)) {
            try $0.append(ids: [900], kinds: [0], text: text([-1, 2, 3]))
        }
        rejects(&store, .invalidTextOffsets(row: 1, slot: 0)) {
            try $0.append(ids: [900, 901], kinds: [0, 0], text: text([0, 1, -4], slots: 1))
        }
        // Slots per row outside 0...255.
        rejects(&store, "capacityExceeded(256 slots)", where: {
            if case .capacityExceeded(let m) = $0 { m.contains("256") } else { false }
        }) {
            try $0.append(ids: [900], kinds: [0], text: RowText(utf8: [], slotsPerRow: 256, offsets: Array(repeating: 0, count: 257)))
        }
        rejects(&store, "capacityExceeded(-1 slots)", where: {
            if case .capacityExceeded(let m) = $0 { m.contains("-1") } else { false }
        }) {
            try $0.append(ids: [900], kinds: [0], text: RowText(utf8: [], slotsPerRow: -1, offsets: [0]))
        }
    }

    @Test func invalidUTF8InATextSlot() {
        var store = Self.store()
        // Row 1, slot 1 holds "ok" + a surrogate: the bad sequence starts at byte 2 of the slot.
        var t = RowText(slotsPerRow: 2)
        t.append(["first", "row"])
        t.append(["second", "ok"])
        t.utf8 += [0xED, 0xA0, 0x80]
        t.offsets[t.offsets.count - 1] = t.utf8.count
        t.append(["third", "row"])
        rejects(&store, .invalidUTF8(row: 1, slot: 1, byteOffset: 2)) {
            try $0.insert(ids: [900, 901, 902], kinds: [0, 1, 2], text: t, at: 12)
        }
        // Each kind of malformation, after "ab€" (5 bytes), in slot 0 of the last row.
        let cases: [(String, [UInt8])] = [
            ("overlong", [0xC0, 0xAF]), ("overlong 3-byte", [0xE0, 0x80, 0xAF]), ("surrogate", [0xED, 0xB2, 0x80]),
            ("truncated", [0xE2, 0x82]), ("truncated 4-byte", [0xF0, 0x9F, 0x98]), ("past U+10FFFF", [0xF4, 0x90, 0x80, 0x80]),
            ("lone continuation", [0x80]), ("invalid byte", [0xFF]),
        ]
        for (name, bad) in cases {
            let prefix = Array("ab€".utf8)
            let utf8 = Array("row zero".utf8) + prefix + bad + Array("tail".utf8)
            let text = RowText(utf8: utf8, slotsPerRow: 1, offsets: [0, 8, utf8.count])
            let before = StoreSnapshot(store)
            let e = thrownError { try store.append(ids: [900, 901], kinds: [0, 0], text: text) }
            #expect(e == .invalidUTF8(row: 1, slot: 0, byteOffset: prefix.count), "\(name)")
            store._checkInvariants()
            #expect(StoreSnapshot(store) == before, "\(name)")
        }
    }

    // MARK: Flags and configuration

    @Test func flagsThatAreNotHostSettable() {
        var store = Self.store()
        rejects(&store, .invalidFlags(RowFlags.measured.rawValue)) { try $0.updateFlags(ofRow: 0, setting: .measured) }
        rejects(&store, .invalidFlags(RowFlags.measured.rawValue)) { try $0.updateFlags(ofRow: 3, clearing: .measured) }
        rejects(&store, .invalidFlags(0x10)) { try $0.updateFlags(ofRow: 0, setting: RowFlags(rawValue: 0x10)) }
        rejects(&store, .invalidFlags(0x8001)) {
            try $0.updateFlags(ofRow: 5, setting: [.selected, .measured], clearing: [.unread, RowFlags(rawValue: 0x8000)])
        }
        rejects(&store, .invalidFlags(0xFFF0)) { try $0.updateFlags(ofRow: 5, clearing: RowFlags(rawValue: 0xFFFE)) }
        // All host-settable flags at once are fine.
        #expect(thrownError { try store.updateFlags(ofRow: 0, setting: .hostSettable) } == nil)
        #expect(try! store.row(0).flags == .hostSettable)
    }

    @Test func invalidPageCapacityAndTreeFanout() {
        func message(_ e: TesseraError?) -> String? {
            if case .capacityExceeded(let m)? = e { m } else { nil }
        }
        for capacity in [-5, 0, 1, 4_097, Int.max] {
            let e = thrownError { _ = try RowStore(estimatedHeights: [44], pageCapacity: capacity, treeFanout: 8) }
            #expect(message(e)?.contains("page capacity \(capacity)") == true, "\(String(describing: e))")
        }
        for fanout in [-1, 0, 3, 65, 1_000] {
            let e = thrownError { _ = try RowStore(estimatedHeights: [44], pageCapacity: 8, treeFanout: fanout) }
            #expect(message(e)?.contains("tree fanout \(fanout)") == true, "\(String(describing: e))")
        }
        let kinds = thrownError { _ = try RowStore(estimatedHeights: Array(repeating: 1, count: 65_537)) }
        #expect(message(kinds)?.contains("65537") == true, "\(String(describing: kinds))")
        // The bounds themselves are valid.
        for (capacity, fanout) in [(2, 4), (4_096, 64), (RowStore.defaultPageCapacity, 64)] {
            #expect(thrownError { _ = try RowStore(estimatedHeights: [44], pageCapacity: capacity, treeFanout: fanout) } == nil)
        }
        #expect(thrownError { _ = try RowStore(estimatedHeights: Array(repeating: 1, count: 65_536)) } == nil)
    }
}
