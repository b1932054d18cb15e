import Testing
import Tessera

/// Small hand-made stores where the answer is known by heart (and checked against the
/// model as well).
@Suite struct EdgeCaseTests {
    @Test func invariantChecksAreCompiledIn() {
        // The suite relies on `_checkInvariants()`; without TESSERA_INVARIANTS it is a no-op.
        #expect(RowStore.checksInvariants == true)
    }

    @Test func emptyStore() throws {
        var store = makeStore()
        store._checkInvariants()
        #expect(store.count == 0)
        #expect(store.totalHeight == 0)
        #expect(try store.row(atOffset: 0) == nil)
        #expect(try store.row(atOffset: 123.5) == nil)
        #expect(try store.anchor(atOffset: 0) == nil)
        #expect(store.index(of: 1) == nil)
        withBuffer(4) { buffer in
            for (y, v, b, a) in [(0.0, 0.0, 0.0, 0.0), (0, 500, 0, 0), (10, 500, 100, 100)] {
                let range = try? store.window(offset: y, viewport: v, overscanBefore: b, overscanAfter: a, into: buffer)
                #expect(range?.count == 0)
            }
            // An empty window fits an empty buffer.
            let none = UnsafeMutableBufferPointer(rebasing: buffer[0..<0])
            #expect((try? store.window(offset: 0, viewport: 800, into: none))?.count == 0)
        }
        #expect(thrownError { _ = try store.scrollOffset(toRow: 0, anchor: .top, viewport: 100) } == .rowOutOfBounds(index: 0, count: 0))
        // No-op mutations.
        try store.removeRows(0..<0)
        try store.insert(ids: [], kinds: [], at: 0)
        try store.append(ids: [], kinds: [], heights: [], text: RowText(slotsPerRow: 2))
        store.removeAll()
        store._checkInvariants()
        #expect(store.count == 0)
        // Emptied after holding rows, then reused.
        fillAndEmpty(&store)
        fillAndEmpty(&store)
    }

    private func fillAndEmpty(_ store: inout RowStore) {
        try! makeBatch(300, firstID: 1_000, kindCount: store.kindCount, heights: [5, 0]).append(to: &store)
        store._checkInvariants()
        #expect(store.count == 300)
        store.removeAll()
        store._checkInvariants()
        #expect(store.count == 0 && store.totalHeight == 0)
        #expect(store.index(of: 1_000) == nil)
        #expect(try! store.row(atOffset: 0) == nil)
    }

    @Test func oneRow() throws {
        let f = makeFilled(1, heights: [30])
        let store = f.store
        #expect(store.count == 1)
        #expect(store.totalHeight == 30)
        #expect(try store.offset(ofRow: 0) == 0)
        #expect(try store.row(atOffset: 0)?.row == 0)
        #expect(try store.row(atOffset: 29.99)?.row == 0)
        #expect(try store.row(atOffset: 29.99)?.offsetInRow == 29.99)
        #expect(try store.row(atOffset: 30 - 1.0 / 64)?.row == 0)
        #expect(try store.row(atOffset: 30) == nil)
        #expect(try store.row(atOffset: 1e9) == nil)
        // A fraction of a unit below the end is floored into the last unit: still row 0.
        #expect(try store.row(atOffset: 30 - 0.25 / 64)?.row == 0)
        withBuffer(1) { buffer in
            let r = try? store.window(offset: 0, viewport: 1_000, into: buffer)
            #expect(r?.rows == 0..<1)
            #expect(buffer[0] == VisibleRow(row: 0, id: 1, y: 0, height: 30, kind: 0, flags: .measured))
            #expect((try? store.window(offset: 30, viewport: 10, into: buffer))?.count == 0)
            #expect((try? store.window(offset: 30, viewport: 10, overscanBefore: 0.5, into: buffer))?.rows == 0..<1)
            #expect((try? store.window(offset: 500, viewport: 10, into: buffer))?.count == 0)
        }
    }

    @Test func offsetsOnRowBoundariesBelongToTheNextRow() throws {
        let f = makeFilled(3, heights: [10, 20, 30])
        let store = f.store
        #expect(try store.offset(ofRow: 1) == 10)
        #expect(try store.offset(ofRow: 2) == 30)
        #expect(try store.row(atOffset: 10)! == (1, 0))
        #expect(try store.row(atOffset: 30)! == (2, 0))
        #expect(try store.row(atOffset: 9.999)!.row == 0)
        #expect(try store.row(atOffset: 10 - 1.0 / 128)!.row == 0)  // floors into row 0's last unit
        #expect(try store.row(atOffset: 59.5)! == (2, 29.5))
        #expect(try store.row(atOffset: 60) == nil)
        withBuffer(3) { buffer in
            // A window ending exactly on a boundary excludes the row starting there, one
            // starting exactly on it excludes the row ending there.
            #expect((try? store.window(offset: 0, viewport: 10, into: buffer))?.rows == 0..<1)
            #expect((try? store.window(offset: 10, viewport: 20, into: buffer))?.rows == 1..<2)
            #expect((try? store.window(offset: 10, viewport: 20.01, into: buffer))?.rows == 1..<3)
            #expect((try? store.window(offset: 9.99, viewport: 0.02, into: buffer))?.rows == 0..<2)
        }
    }

    @Test func zeroHeightRowsNeverCoverAnOffset() throws {
        // Rows: 0:[0,10) 1:zero at 10 2:zero at 10 3:[10,20) 4:zero at 20
        let f = makeFilled(5, heights: [10, 0, 0, 10, 0])
        let ref = f.ref
        let store = f.store
        #expect(store.totalHeight == 20)
        #expect(try store.offset(ofRow: 1) == 10)
        #expect(try store.offset(ofRow: 4) == 20)
        #expect(try store.row(atOffset: 10)! == (3, 0))
        #expect(try store.row(atOffset: 9.5)!.row == 0)
        #expect(try store.row(atOffset: 20) == nil)
        #expect(try store.anchor(atOffset: 10)?.id == 4)  // row 3 has id 4
        withBuffer(5) { buffer in
            func rows(_ y: Double, _ v: Double, before: Double = 0, after: Double = 0) -> Range<Int>? {
                windowRows(store, ref, y, v, before: before, after: after, buffer)
            }
            // Zero-height rows at the window's bottom edge are outside (top not above it).
            #expect(rows(0, 10) == 0..<1)
            // Strictly inside the window they are in (bottom below its top, top above its bottom).
            #expect(rows(0, 10.5) == 0..<4)
            // At the window's top edge they are outside (bottom not below the top).
            #expect(rows(10, 5) == 3..<4)
            // A trailing zero-height row at the end of the content, inside the window.
            #expect(rows(15, 100) == 3..<5)
            #expect(rows(20, 100)?.isEmpty == true)
            #expect(rows(20, 100, before: 1) == 3..<5)
        }
        // Leading zero-height rows, and a store whose rows are all zero height.
        let g = makeFilled(3, heights: [0, 0, 10])
        #expect(try g.store.row(atOffset: 0)! == (2, 0))
        withBuffer(3) { buffer in
            #expect((try? g.store.window(offset: 0, viewport: 5, into: buffer))?.rows == 2..<3)
        }
        let z = makeFilled(4, heights: [0])
        #expect(z.store.totalHeight == 0)
        #expect(try z.store.row(atOffset: 0) == nil)
        withBuffer(4) { buffer in
            #expect((try? z.store.window(offset: 0, viewport: 100, overscanAfter: 10, into: buffer))?.count == 0)
        }
    }

    @Test func viewportTallerThanContentAndOverscanClampedAtZero() {
        let f = makeFilled(6, heights: [25])
        withBuffer(6) { buffer in
            #expect((try? f.store.window(offset: 0, viewport: 10_000, into: buffer))?.rows == 0..<6)
            #expect((try? f.store.window(offset: 60, viewport: 10_000, overscanBefore: 10_000, into: buffer))?.rows == 0..<6)
            // Overscan before clamps at 0: the window starts at row 0, not before it.
            #expect((try? f.store.window(offset: 5, viewport: 10, overscanBefore: 1_000, into: buffer))?.rows == 0..<1)
            #expect(buffer[0].y == 0)
            // Overscan after past the end stops at the last row.
            #expect((try? f.store.window(offset: 130, viewport: 10, overscanAfter: 1_000, into: buffer))?.rows == 5..<6)
            // Viewport zero with no overscan is an empty window; with overscan it is not.
            #expect((try? f.store.window(offset: 30, viewport: 0, into: buffer))?.count == 0)
            #expect((try? f.store.window(offset: 30, viewport: 0, overscanBefore: 10, into: buffer))?.rows == 0..<2)
            #expect((try? f.store.window(offset: 30, viewport: 0, overscanAfter: 0.5, into: buffer))?.rows == 1..<2)
        }
    }

    @Test func windowNeedingExactlyTheBufferCapacity() {
        let f = makeFilled(20, heights: [10])
        withBuffer(5) { buffer in
            // [20, 70) holds rows 2...6: exactly five.
            let r = try? f.store.window(offset: 20, viewport: 50, into: buffer)
            #expect(r?.rows == 2..<7)
            #expect(Array(buffer) == f.ref.window(offset: 20, viewport: 50, before: 0, after: 0))
            // One unit more needs a sixth entry.
            let e = thrownError { _ = try f.store.window(offset: 20, viewport: 50 + 1.0 / 64, into: buffer) }
            #expect(e == .bufferTooSmall(needed: 6, capacity: 5))
        }
    }

    @Test func scrollOffsetToRowAtTopCenterAndBottomIsClamped() throws {
        let f = makeFilled(10, heights: [50])  // 500 pt of content
        let ref = f.ref
        let store = f.store
        let cases: [(row: Int, ScrollPosition, viewport: Double, expected: Double)] = [
            (5, .top, 120, 250), (5, .center, 120, 215), (5, .bottom, 120, 180),
            (0, .top, 120, 0), (0, .center, 120, 0), (0, .bottom, 120, 0),  // clamped at 0
            (9, .top, 120, 380), (9, .center, 120, 380), (9, .bottom, 120, 380),  // clamped at the end
            (8, .top, 120, 380), (8, .center, 120, 365), (8, .bottom, 120, 330),
            (1, .center, 120, 15), (1, .bottom, 120, 0),
            (4, .center, 1_000, 0), (9, .bottom, 1_000, 0),  // viewport taller than the content
            (3, .center, 0, 175), (9, .top, 0, 450), (9, .bottom, 0, 500),
        ]
        for (row, position, viewport, expected) in cases {
            let got = try store.scrollOffset(toRow: row, anchor: position, viewport: viewport)
            #expect(got == expected, "row \(row) \(position) viewport \(viewport)")
            #expect(got == ref.scrollOffset(toRow: row, anchor: position, viewport: viewport))
        }
        // Rows of odd heights: centre is exact in points.
        let g = makeFilled(4, heights: [10.015625, 0, 33.5, 7])
        for row in 0..<4 {
            for position in [ScrollPosition.top, .center, .bottom] {
                #expect(try g.store.scrollOffset(toRow: row, anchor: position, viewport: 20)
                    == g.ref.scrollOffset(toRow: row, anchor: position, viewport: 20))
            }
        }
    }

    @Test func heightsRoundToTheNearestUnitAndTheMaximumIsAccepted() throws {
        var store = makeStore()
        let heights: [Double] = [
            0.1 / 64, 0.49 / 64, 0.51 / 64, 1.5 / 64, 10.0078125, 1.0 / 3, RowStore.maximumRowHeight, 0, -0.0,
            0.49999999999999994 / 64, 2.5 / 64, 3.5 / 64, 1e-300,
        ]
        try store.append(ids: Array(1...UInt64(heights.count)), kinds: Array(repeating: 0, count: heights.count), heights: heights)
        store._checkInvariants()
        var expectedTotal: Int64 = 0
        for (r, h) in heights.enumerated() {
            let units = Units.height(h)!
            #expect(try store.row(r).height == Units.points(units), "height \(h)")
            expectedTotal += units
        }
        #expect(store.totalHeight == Units.points(expectedTotal))
        #expect(try store.row(0).height == 0)
        #expect(try store.row(2).height == 1.0 / 64)
        #expect(try store.row(6).height == RowStore.maximumRowHeight)
        // A whole number of units.
        #expect((RowStore.maximumRowHeight * 64).rounded() == RowStore.maximumRowHeight * 64)
        try store.setHeight(RowStore.maximumRowHeight, ofRow: 0)
        #expect(try store.row(0).flags.contains(.measured))
        store._checkInvariants()
    }

    @Test func invalidateReturnsToTheEstimateAndFlagsAreKept() throws {
        var store = makeStore([44, 12.5])
        try store.append(ids: [7, 8], kinds: [0, 1])
        #expect(try store.row(1).height == 12.5)
        #expect(try store.row(1).flags == [])
        try store.setHeight(99, ofRow: 1)
        try store.updateFlags(ofRow: 1, setting: [.selected, .unread])
        #expect(try store.row(1).flags == [.measured, .selected, .unread])
        #expect(store.totalHeight == 143)
        try store.invalidateHeight(ofRow: 1)
        #expect(try store.row(1).flags == [.selected, .unread])
        #expect(try store.row(1).height == 12.5)
        try store.updateFlags(ofRow: 1, setting: .swipeOpen, clearing: [.selected, .unread])
        #expect(try store.row(1).flags == [.swipeOpen])
        // Setting and clearing the same flag: it ends up set.
        try store.updateFlags(ofRow: 0, setting: .unread, clearing: .unread)
        #expect(try store.row(0).flags == [.unread])
        #expect(try store.estimatedHeight(ofKind: 1) == 12.5)
        #expect(store.kindCount == 2)
        store._checkInvariants()
    }

    @Test func idsOfRemovedRowsCanBeReused() throws {
        var store = makeStore([10], pageCapacity: 3, treeFanout: 4)
        try store.append(ids: Array(1...60), kinds: Array(repeating: 0, count: 60))
        try store.removeRows(10..<50)
        store._checkInvariants()
        for id in UInt64(11)...50 { #expect(store.index(of: id) == nil) }
        #expect(store.index(of: 51) == 10)
        // The same ids again, elsewhere and in another order.
        try store.insert(ids: Array((11...50).reversed()), kinds: Array(repeating: 0, count: 40), at: 0)
        store._checkInvariants()
        #expect(store.count == 60)
        for id in UInt64(11)...50 { #expect(store.index(of: id) == 50 - Int(id)) }
        for id in UInt64(1)...10 { #expect(store.index(of: id) == 39 + Int(id)) }
        #expect(thrownError { try store.append(ids: [30], kinds: [0]) } == .duplicateID(30))
        // Bulk heights over the whole store, and none at its end.
        try store.setHeights(Array(repeating: 2.5, count: 60), startingAt: 0)
        try store.setHeights([], startingAt: 60)
        #expect(store.totalHeight == 150)
        store._checkInvariants()
    }

    /// The rows of a window, after checking the written entries against the model.
    private func windowRows(
        _ store: borrowing RowStore, _ ref: ReferenceModel, _ y: Double, _ v: Double, before: Double, after: Double,
        _ buffer: UnsafeMutableBufferPointer<VisibleRow>
    ) -> Range<Int>? {
        let r = try? store.window(offset: y, viewport: v, overscanBefore: before, overscanAfter: after, into: buffer)
        let want = ref.window(offset: y, viewport: v, before: before, after: after)
        #expect(r?.count == want.count && Array(buffer[0..<(r?.count ?? 0)]) == want, "window at \(y), viewport \(v)")
        return r?.rows
    }
}
