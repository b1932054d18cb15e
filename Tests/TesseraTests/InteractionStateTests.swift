import Testing
@testable import Tessera

/// Swipe, selection and unread state restated naively: per-id values over an array of
/// rows, the rules of ListEngine+Interaction.swift spelled out case by case.
final class InteractionModel {
    let profile: Profile
    var ids: [UInt64] = []
    var kinds: [UInt16] = []
    var unread: [UInt64: Bool] = [:]
    var swipe: SwipeState?
    var selected: Set<UInt64> = []
    var editMode = false
    let width: Double

    init(profile: Profile, width: Double) {
        self.profile = profile
        self.width = width
    }

    func kind(_ id: UInt64) -> CellKind { profile.kind(code: kinds[ids.firstIndex(of: id)!])! }
    func row(_ id: UInt64) -> Int? { ids.firstIndex(of: id) }

    /// No header or footer between the two rows.
    func sameGroup(_ a: Int, _ b: Int) -> Bool {
        ((min(a, b) + 1)..<max(a, b)).allSatisfy { profile.kind(code: kinds[$0])!.role == .cell }
    }

    func references(_ ids: Set<UInt64>) -> [RowReference] {
        ids.compactMap { id in row(id).map { RowReference(id: id, row: $0) } }.sorted { $0.row < $1.row }
    }

    func swipeError(_ id: UInt64) -> TesseraError? {
        guard row(id) != nil else { return .unknownID(id) }
        let k = kind(id)
        if k.role != .cell { return .interactionNotAllowed(id: id, reason: "\(k.name) is a header or footer and has no swipe actions") }
        if editMode { return .interactionNotAllowed(id: id, reason: "rows do not swipe in edit mode") }
        return nil
    }

    func selectError(_ id: UInt64) -> TesseraError? {
        guard row(id) != nil else { return .unknownID(id) }
        let k = kind(id)
        if k.selection == nil { return .interactionNotAllowed(id: id, reason: "\(k.name) is not selectable") }
        if !editMode { return .interactionNotAllowed(id: id, reason: "selection outside edit mode") }
        return nil
    }

    /// Expected reported ids of a swipe (nil: the expected error is `swipeError` or width).
    func swipe(_ id: UInt64, _ edge: SwipeEdge, _ w: Double) -> Set<UInt64> {
        var changed: Set<UInt64> = [id]
        if let open = swipe, open.id != id { changed.insert(open.id) }
        swipe = SwipeState(id: id, edge: edge, revealedWidth: w)
        unread[id] = false
        return changed
    }

    func select(_ id: UInt64) -> Set<UInt64> {
        var changed: Set<UInt64> = []
        let r = row(id)!
        if kind(id).selection == .single {
            for other in selected where other != id {
                let o = row(other)!
                if kind(other).selection == .single && sameGroup(o, r) {
                    selected.remove(other)
                    changed.insert(other)
                }
            }
        }
        if !selected.contains(id) || unread[id] == true { changed.insert(id) }
        selected.insert(id)
        unread[id] = false
        return changed
    }

    /// The state after rows changed (a snapshot, a committed swipe): the state of deleted
    /// rows goes; an open row that moved closes; rows whose kind is not selectable any more
    /// and all but the first selected single-selection row of a group are deselected.
    /// Returns the surviving rows whose state changed (the caller adds the viewport rule).
    func rowsChanged(newIDs: [UInt64], newKinds: [UInt16], moved: Set<UInt64>) -> Set<UInt64> {
        ids = newIDs
        kinds = newKinds
        var changed: Set<UInt64> = []
        if let open = swipe {
            if row(open.id) == nil {
                swipe = nil
            } else if moved.contains(open.id) {
                swipe = nil
                changed.insert(open.id)
            }
        }
        selected = selected.filter { row($0) != nil }
        for id in selected where kind(id).selection == nil {
            selected.remove(id)
            changed.insert(id)
        }
        var kept: Int? = nil
        for r in ids.indices where selected.contains(ids[r]) && profile.kind(code: kinds[r])!.selection == .single {
            if let k = kept, sameGroup(k, r) {
                selected.remove(ids[r])
                changed.insert(ids[r])
            } else {
                kept = r
            }
        }
        unread = unread.filter { row($0.key) != nil }
        return changed
    }
}

/// Flags, open row and selection of the engine against the model.
func verifyInteraction(_ e: borrowing ListEngine, _ m: InteractionModel, _ c: Checker) {
    e._checkInvariants()
    c.equal(e.store.count, m.ids.count, "count")
    guard e.store.count == m.ids.count else { return }
    for r in 0..<m.ids.count {
        let info = try! e.store.row(r)
        c.equal(info.id, m.ids[r], "id of row \(r)")
        c.equal(info.flags.contains(.selected), m.selected.contains(info.id), "selected flag of row \(r)")
        c.equal(e.isSelected(id: info.id), m.selected.contains(info.id), "isSelected of row \(r)")
        c.equal(info.flags.contains(.swipeOpen), m.swipe?.id == info.id, "swipe-open flag of row \(r)")
        c.equal(info.flags.contains(.unread), m.unread[info.id] ?? false, "unread flag of row \(r)")
    }
    c.equal(e.openSwipe, m.swipe, "open swipe")
    c.equal(e.selectedIDs, m.ids.filter { m.selected.contains($0) }, "selected ids")
}

/// Whether a row intersects the viewport, from its offset and height.
func isVisible(_ e: borrowing ListEngine, _ id: UInt64) -> Bool {
    guard let r = e.store.index(of: id) else { return false }
    let top = try! e.store.offset(ofRow: r), h = try! e.store.row(r).height
    return top < e.scrollOffset + e.viewport && top + h > e.scrollOffset
}

@Suite struct InteractionStateTests {
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func randomSequencesMatchTheModel(_ seed: UInt64) throws {
        let profile = ProfileFixtures.george
        var rng = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15)
        let factory = EngineRowFactory(profile)
        var ids = IDSource(seed: seed + 40)
        var env = LayoutEnvironment(width: 375, platform: seed % 2 == 0 ? .ios : .android)
        var e = try ListEngine(
            profile: profile, environment: env, viewport: Double(rng.int(150...600)), overscan: 0, textEngine: StubText.engine(),
            pageCapacity: rng.int(3...9), treeFanout: 4)
        let m = InteractionModel(profile: profile, width: env.width)
        let first = factory.batch(rows: 50, &rng, ids: &ids)
        try e.append(ids: first.ids, kinds: first.kinds, text: first.text)
        m.ids = first.ids
        m.kinds = first.kinds
        for (r, id) in first.ids.enumerated() where rng.chance(0.4) {
            try e.updateFlags(ofRow: r, setting: .unread)
            m.unread[id] = true
        }
        try e.measureAll(threads: 1)
        var versions: [UInt64: UInt64] = Dictionary(uniqueKeysWithValues: first.ids.map { ($0, 0) })
        var slots: [UInt64: [String]] = Dictionary(uniqueKeysWithValues: zip(first.ids, first.slots))
        let c = Checker("interaction seed \(seed)")
        var counts: [String: Int] = [:]
        func someID() -> UInt64 { m.ids.isEmpty || rng.chance(0.05) ? 0xDEAD_BEEF : rng.pick(m.ids) }

        for step in 0..<300 where c.ok {
            c.context = "interaction seed \(seed), step \(step)"
            switch rng.below(13) {
            case 0, 1:
                let id = someID(), edge: SwipeEdge = rng.chance(0.5) ? .leading : .trailing
                let w = rng.chance(0.05) ? rng.pick([-1, 0, .nan, 1000]) : Double(rng.int(40...240))
                var expected = m.swipeError(id)
                if expected == nil, !(w.isFinite && w > 0 && w <= m.width) { expected = .invalidSwipeWidth(w) }
                if let expected {
                    let before = EngineState(e)
                    let got = thrownError { _ = try e.swipe(id: id, edge: edge, revealedWidth: w) }
                    if case .invalidSwipeWidth = expected {
                        c.check(got.map { if case .invalidSwipeWidth = $0 { true } else { false } } == true, "swipe width \(w): \(String(describing: got))")
                    } else {
                        c.equal(got, expected, "swipe error")
                    }
                    c.check(EngineState(e) == before, "a rejected swipe changed the list")
                    counts["swipe rejected", default: 0] += 1
                } else {
                    let change = try e.swipe(id: id, edge: edge, revealedWidth: w)
                    c.equal(change.rows, m.references(m.swipe(id, edge, w)), "rows reported by swipe")
                    counts["swipe", default: 0] += 1
                }
            case 2:
                let open = m.swipe?.id
                m.swipe = nil
                c.equal(e.closeSwipe().rows, m.references(Set(open.map { [$0] } ?? [])), "rows reported by closeSwipe")
            case 3:
                let id = someID()
                if let expected = m.swipeError(id) {
                    expectRejected(&e, expected) { _ = try $0.commitSwipe(id: id) }
                    continue
                }
                do {
                    let result = try e.commitSwipe(id: id)
                    let r = m.row(id)!
                    var changed: Set<UInt64> = []
                    if let open = m.swipe, open.id != id { changed.insert(open.id); m.swipe = nil }
                    var newIDs = m.ids, newKinds = m.kinds
                    newIDs.remove(at: r)
                    newKinds.remove(at: r)
                    changed.formUnion(m.rowsChanged(newIDs: newIDs, newKinds: newKinds, moved: []))
                    if let open = m.swipe, !isVisible(e, open.id) { changed.insert(open.id); m.swipe = nil }
                    c.equal(result.batch.deletes, [r], "a full swipe deletes its row")
                    c.equal(result.operations(), [.remove(at: r, count: 1)], "sequential form of a full swipe")
                    c.equal(result.interaction.rows, m.references(changed), "rows reported by commitSwipe")
                    counts["commit", default: 0] += 1
                } catch {
                    // The last rows of a selection group.
                    guard case .ruleViolation(_, _, .groupMinimum) = error else { throw error }
                    counts["commit rejected", default: 0] += 1
                }
            case 4, 5:
                let id = someID()
                if let expected = m.selectError(id) {
                    expectRejected(&e, expected) { _ = try $0.select(id: id) }
                    counts["select rejected", default: 0] += 1
                } else {
                    c.equal(try e.select(id: id).rows, m.references(m.select(id)), "rows reported by select")
                    counts["select", default: 0] += 1
                }
            case 6:
                let id = someID()
                if let expected = m.selectError(id) {
                    expectRejected(&e, expected) { _ = try $0.deselect(id: id) }
                } else {
                    let was = m.selected.remove(id) != nil
                    c.equal(try e.deselect(id: id).rows, m.references(was ? [id] : []), "rows reported by deselect")
                }
            case 7:
                var wanted = (0..<rng.int(0...4)).map { _ in someID() }
                if rng.chance(0.5) { wanted = wanted.filter { m.selectError($0) == nil } }
                var expected: TesseraError? = wanted.lazy.compactMap { m.selectError($0) }.first
                if expected == nil {
                    let singles = Set(wanted).filter { m.kind($0).selection == .single }.map { (m.row($0)!, $0) }.sorted { $0.0 < $1.0 }
                    for k in singles.indices.dropFirst() where expected == nil && m.sameGroup(singles[k - 1].0, singles[k].0) {
                        expected = .selectionRuleViolation(id: singles[k].1, otherID: singles[k - 1].1)
                    }
                }
                if let expected {
                    expectRejected(&e, expected) { _ = try $0.setSelection(wanted) }
                    counts["setSelection rejected", default: 0] += 1
                } else {
                    var changed = m.selected.subtracting(wanted)
                    for id in wanted where !m.selected.contains(id) || m.unread[id] == true { changed.insert(id) }
                    m.selected = Set(wanted)
                    for id in wanted { m.unread[id] = false }
                    c.equal(try e.setSelection(wanted).rows, m.references(changed), "rows reported by setSelection")
                    counts["setSelection", default: 0] += 1
                }
            case 8:
                guard !m.ids.isEmpty else { continue }
                let lo = rng.below(m.ids.count), hi = min(m.ids.count, lo + rng.int(0...12))
                let seen = m.ids[lo..<hi].filter { m.unread[$0] == true }
                for id in seen { m.unread[id] = false }
                c.equal(try e.markViewed(rows: lo..<hi).rows, m.references(Set(seen)), "rows reported by markViewed")
            case 9:
                env.editMode.toggle()
                m.editMode = env.editMode
                try e.setEnvironment(env)
                try e.measureAll(threads: 1)
            case 10:
                let y = Double(rng.below(Int(e.maximumScrollOffset) + 1))
                try e.scroll(to: y)
                // Scrolled out of the viewport: closed, nothing to report.
                if let open = m.swipe, !isVisible(e, open.id) { m.swipe = nil }
            default:
                // A new snapshot: groups moved, deleted and inserted whole, rows updated.
                let pm = ProfileListModel(profile: profile, env: env, viewport: 100, overscan: 0) { StubText.engine() }
                pm.ids = m.ids
                pm.kinds = m.kinds
                pm.slots = m.ids.map { slots[$0]! }
                var (snapshot, newSlots) = EngineApplyTests.nextProfileSnapshot(pm, versions, factory, &rng, &ids)
                snapshot.unread = snapshot.ids.map { _ in rng.chance(0.2) }
                let oldIDs = m.ids
                do {
                    let result = try e.apply(snapshot)
                    let moved = Set(result.batch.moves.map { oldIDs[$0.from] })
                    for (j, id) in snapshot.ids.enumerated() {
                        let isNew = versions[id] == nil
                        let updated = !isNew && (versions[id] != snapshot.versions[j] || m.kinds[m.row(id)!] != snapshot.kinds[j])
                        if isNew { m.unread[id] = snapshot.unread![j] } else if updated, snapshot.unread![j] { m.unread[id] = true }
                    }
                    var changed = m.rowsChanged(newIDs: snapshot.ids, newKinds: snapshot.kinds, moved: moved)
                    if let open = m.swipe, !isVisible(e, open.id) { changed.insert(open.id); m.swipe = nil }
                    c.equal(result.interaction.rows, m.references(changed), "rows reported by apply")
                    versions = Dictionary(uniqueKeysWithValues: zip(snapshot.ids, snapshot.versions))
                    slots = Dictionary(uniqueKeysWithValues: zip(snapshot.ids, newSlots))
                    counts["apply", default: 0] += 1
                    if !changed.isEmpty { counts["apply changed state", default: 0] += 1 }
                } catch {
                    guard case .ruleViolation(_, _, .groupMinimum) = error else { throw error }
                }
                try e.measureAll(threads: 1)
            }
            verifyInteraction(e, m, c)
        }
        for key in ["swipe", "select", "setSelection", "apply", "commit", "swipe rejected", "select rejected"] {
            #expect(counts[key, default: 0] > 0, "no \(key) in \(counts)")
        }
    }

    /// Two selected rows of single-selection groups brought into one group by a batch:
    /// the first stays selected, the other is deselected and reported at its new index.
    @Test func aBatchKeepsOneSelectedRowPerSingleSelectionGroup() throws {
        var e = try EngineApplyBadInputTests.georgeEngine(editMode: true)
        // 101 header, 102/103 single selection, 104 footer, 105 header, 106-108 basic.
        try e.apply(EngineApplyBadInputTests.georgeSnapshot(
            [101, 102, 103, 104, 105, 201, 202, 106, 107, 108], [13, 2, 2, 15, 13, 2, 2, 1, 1, 1]))
        _ = try e.select(id: 103)
        let change = try e.select(id: 201)
        #expect(change.rows == [RowReference(id: 201, row: 5)])
        // 201 and 202 move into the first group, after 103.
        let r = try e.apply(EngineApplyBadInputTests.georgeSnapshot(
            [101, 102, 103, 201, 202, 104, 105, 106, 107, 108], [13, 2, 2, 2, 2, 15, 13, 1, 1, 1]))
        #expect(r.interaction.rows == [RowReference(id: 201, row: 3)])
        #expect(e.selectedIDs == [103])
        // Selecting 202 now deselects 103 (same group).
        #expect(try e.select(id: 202).rows == [RowReference(id: 103, row: 2), RowReference(id: 202, row: 4)])
        e._checkInvariants()
    }

    @Test func selectionRulesAndErrors() throws {
        var e = try EngineApplyBadInputTests.georgeEngine(editMode: false)
        expectRejected(&e, .interactionNotAllowed(id: 102, reason: "selection outside edit mode")) { _ = try $0.select(id: 102) }
        try e.setEnvironment(LayoutEnvironment(width: 375, platform: .ios, editMode: true))
        expectRejected(&e, .unknownID(999)) { _ = try $0.select(id: 999) }
        expectRejected(&e, .interactionNotAllowed(id: 106, reason: "basicCell is not selectable")) { _ = try $0.select(id: 106) }
        expectRejected(&e, .interactionNotAllowed(id: 101, reason: "sectionHeader is not selectable")) { _ = try $0.select(id: 101) }
        expectRejected(&e, .selectionRuleViolation(id: 103, otherID: 102)) { _ = try $0.setSelection([102, 103]) }
        #expect(try e.setSelection([103]).rows == [RowReference(id: 103, row: 2)])
        #expect(try e.select(id: 102).rows == [RowReference(id: 102, row: 1), RowReference(id: 103, row: 2)])
        #expect(e.selectedIDs == [102])
        // Rows of the group cannot swipe in edit mode; a deleted selected row drops its state.
        expectRejected(&e, .interactionNotAllowed(id: 102, reason: "rows do not swipe in edit mode")) { _ = try $0.swipe(id: 102, edge: .trailing, revealedWidth: 80) }
        try e.apply(EngineApplyBadInputTests.georgeSnapshot([101, 103, 500, 104, 105, 106, 107, 108], [13, 2, 2, 15, 13, 1, 1, 1]))
        #expect(e.selectedIDs.isEmpty)
        e._checkInvariants()
        // A list without a profile has no selection.
        var plain = try ListEngine(store: try RowStore(estimatedHeights: [44]), viewport: 100)
        try plain.append(ids: [1, 2], kinds: [0, 0])
        #expect(thrownError { _ = try plain.select(id: 1) } == .unsupported("selection on a list without a profile: edit mode and selectable kinds come from the profile"))
    }

    /// Swiping on a store-driven list: one open row, a move or a scroll closes it, a full
    /// swipe deletes through the batch pipeline, deleting drops the state.
    @Test func swipeOnAStoreDrivenList() throws {
        var e = try ListEngine(store: try RowStore(estimatedHeights: [50], pageCapacity: 3, treeFanout: 4), viewport: 200)
        let ids: [UInt64] = Array(1...30)
        try e.append(ids: ids, kinds: Array(repeating: 0, count: 30))
        try e.updateFlags(ofRow: 2, setting: .unread)
        #expect(try e.swipe(id: 3, edge: .trailing, revealedWidth: 120).rows == [RowReference(id: 3, row: 2)])
        #expect(try e.row(2).flags == [.swipeOpen])
        #expect(try e.swipe(id: 2, edge: .leading, revealedWidth: 60).rows == [RowReference(id: 2, row: 1), RowReference(id: 3, row: 2)])
        #expect(e.openSwipe == SwipeState(id: 2, edge: .leading, revealedWidth: 60))
        expectRejected(&e, .unknownID(77)) { _ = try $0.swipe(id: 77, edge: .leading, revealedWidth: 60) }
        expectRejected(&e, .invalidSwipeWidth(-3)) { _ = try $0.swipe(id: 4, edge: .leading, revealedWidth: -3) }
        // Moving the open row closes it and reports it at its new index.
        var moved = ids
        moved.swapAt(0, 1)
        moved.append(moved.remove(at: 0))
        let r = try e.apply(EngineApplyBadInputTests.snapshot(moved, version: 0))
        #expect(r.batch.moves.map(\.from) == [1])
        #expect(r.interaction.rows == [RowReference(id: 2, row: 29)])
        #expect(e.openSwipe == nil)
        // Scrolled out of the viewport: closed.
        _ = try e.swipe(id: 4, edge: .trailing, revealedWidth: 80)
        try e.scroll(to: 600)
        let row4 = try e.row(e.store.index(of: 4)!)
        #expect(e.openSwipe == nil && !row4.flags.contains(.swipeOpen))
        // A full swipe deletes its row through the batch pipeline, anchoring included; the
        // other open row closes.
        _ = try e.swipe(id: 15, edge: .trailing, revealedWidth: 80)
        let anchorBefore = e.anchor!
        let deleted = try e.commitSwipe(id: 16)
        #expect(deleted.batch.deletes == [14] && deleted.batch.newCount == 29)
        #expect(deleted.interaction.rows == [RowReference(id: 15, row: 13)])
        #expect(e.store.index(of: 16) == nil && e.openSwipe == nil)
        #expect(e.anchor == anchorBefore)
        // Deleting the open row drops its state.
        _ = try e.swipe(id: 17, edge: .trailing, revealedWidth: 80)
        _ = try e.commitSwipe(id: 17)
        #expect(e.openSwipe == nil)
        e._checkInvariants()
    }
}

extension ListEngine {
    /// Test shorthand for a row's columns.
    func row(_ r: Int) throws -> RowInfo { try store.row(r) }
}

@Suite struct InteractionAdoptionTests {
    /// A store handed to an engine with selection and swipe bits already set: the engine
    /// takes them as its id-keyed state (one open row), and raw flag changes stay mirrored.
    @Test func flagsSetBeforeTheEngineAreAdopted() throws {
        var store = try RowStore(estimatedHeights: [44], pageCapacity: 3, treeFanout: 4)
        try store.append(ids: Array(1...8), kinds: Array(repeating: 0, count: 8))
        try store.updateFlags(ofRow: 2, setting: [.selected, .swipeOpen])
        try store.updateFlags(ofRow: 5, setting: [.selected, .swipeOpen])
        var e = try ListEngine(store: store, viewport: 500)
        e._checkInvariants()
        #expect(e.selectedIDs == [3, 6])
        #expect(e.openSwipe == SwipeState(id: 3, edge: .trailing, revealedWidth: 0))
        #expect(try !e.row(5).flags.contains(.swipeOpen))
        try e.updateFlags(ofRow: 7, setting: .swipeOpen, clearing: .unread)
        #expect(e.openSwipe?.id == 8)
        try e.updateFlags(ofRow: 2, clearing: .selected)
        #expect(e.selectedIDs == [6])
        e._checkInvariants()
        #expect(e.clearSelection().rows == [RowReference(id: 6, row: 5)])
        e._checkInvariants()
    }
}
