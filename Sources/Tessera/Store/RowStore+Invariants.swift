extension RowStore {
    /// True when this build checks invariants (`TESSERA_INVARIANTS`, debug builds).
    public static var checksInvariants: Bool {
        #if TESSERA_INVARIANTS
        true
        #else
        false
        #endif
    }

    /// Recomputes every cached sum and cross-reference from the pages up and traps on the
    /// first disagreement. Compiled in only with `TESSERA_INVARIANTS`; tests call it after
    /// every mutation.
    public func _checkInvariants() {
        #if TESSERA_INVARIANTS
        tree._checkInvariants()
        var l = tree.firstLeaf, rows = 0, previous = HeightTree.none
        while l != HeightTree.none {
            let info = tree.leaves[Int(l)]
            let page = Page(info.page!, layout)
            let n = Int(info.count)
            precondition(n > 0 && n <= pageCapacity, "page \(l) holds \(n) rows")
            precondition(page.start + n <= pageCapacity, "page \(l) holds \(n) rows from slot \(page.start)")
            precondition(info.prev == previous, "page \(l) links back to \(info.prev), not \(previous)")
            precondition(page.heightSum(0, n) == info.height, "page \(l) height differs from its rows'")
            for g in 0..<layout.groups {
                let from = min(g * Page.groupRows, n), to = min(from + Page.groupRows, n)
                precondition(Int64(page.groupHeights[g]) == page.heightSum(from, to), "page \(l) group \(g) sum is stale")
            }
            for s in 0..<n {
                let id = page.ids[s]
                guard let found = find(id) else { preconditionFailure("id \(id) of row \(rows + s) is not indexed") }
                precondition(found.leaf == l && found.slot == s, "id \(id) indexed at page \(found.leaf), slot \(found.slot)")
                precondition(Int(page.kinds[s]) < estimates.count, "row \(rows + s) has unknown kind \(page.kinds[s])")
                if page.flags[s] & RowFlags.measured.rawValue == 0 {
                    precondition(page.height(s) == Int64(estimates[Int(page.kinds[s])]), "unmeasured row \(rows + s) is not at its estimate")
                }
                let ref = page.text[s]
                precondition(ref == 0 || (Int(ref) * 4 >= 4 && Int(ref) * 4 + text.recordSize(ref) <= text.used),
                              "row \(rows + s) text reference \(ref) outside the arena")
            }
            let start = tree.start(ofLeaf: l)
            precondition(start.row == rows, "page \(l) starts at row \(start.row), not \(rows)")
            rows += n
            previous = l
            l = info.next
        }
        precondition(previous == tree.lastLeaf, "last page is \(tree.lastLeaf), list ends at \(previous)")
        precondition(rows == count, "pages hold \(rows) rows, tree says \(count)")
        precondition(index.count == rows, "index holds \(index.count) ids for \(rows) rows")
        index._checkInvariants()
        #endif
    }
}

extension HeightTree {
    func _checkInvariants() {
        #if TESSERA_INVARIANTS
        precondition(!deferring && dirtyCount == 0, "summaries left deferred: \(dirtyCount) nodes marked")
        precondition(parent(ofNode: root) == Self.none, "root has a parent")
        if childCount(root) == 0 {
            precondition(level(root) == 1 && firstLeaf == Self.none && lastLeaf == Self.none, "empty tree with leaves")
            precondition(rowCount == 0 && totalHeight == 0, "empty tree totals \(rowCount) rows")
            return
        }
        var leafOrder: [UInt32] = []
        let sums = check(root, leaves: &leafOrder)
        precondition(sums.count == Int64(rowCount) && sums.height == totalHeight,
                     "tree totals \(rowCount) rows, \(totalHeight) units; its nodes sum to \(sums)")
        var l = firstLeaf
        for expected in leafOrder {
            precondition(l == expected, "leaf list has \(l) where the tree has \(expected)")
            l = leaves[Int(l)].next
        }
        precondition(l == Self.none, "leaf list is longer than the tree")
        #endif
    }

    #if TESSERA_INVARIANTS
    /// Checks a subtree's entries against its children's own sums; returns its sums.
    @discardableResult
    func check(_ n: UInt32, leaves order: inout [UInt32]) -> (count: Int64, height: Int64) {
        let k = childCount(n), lvl = level(n)
        precondition(k > 0 && k <= fanout, "node \(n) has \(k) children")
        precondition(n == root || k > 0, "empty inner node \(n)")
        var total: (count: Int64, height: Int64) = (0, 0)
        for i in 0..<k {
            let child = children(n)[i]
            let sums: (count: Int64, height: Int64)
            if lvl == 1 {
                let leaf = leaves[Int(child)]
                precondition(leaf.parent == n, "leaf \(child) names parent \(leaf.parent), not \(n)")
                sums = (Int64(leaf.count), leaf.height)
                order.append(child)
            } else {
                precondition(parent(ofNode: child) == n, "node \(child) names parent \(parent(ofNode: child)), not \(n)")
                precondition(level(child) == lvl - 1, "node \(child) at level \(level(child)) under level \(lvl)")
                sums = check(child, leaves: &order)
            }
            precondition(counts(n)[i] == sums.count, "node \(n) entry \(i) counts \(counts(n)[i]), subtree has \(sums.count)")
            precondition(heights(n)[i] == sums.height, "node \(n) entry \(i) height \(heights(n)[i]), subtree has \(sums.height)")
            total.count += sums.count
            total.height += sums.height
        }
        return total
    }
    #endif
}

extension IDIndex {
    func _checkInvariants() {
        #if TESSERA_INVARIANTS
        var entries = 0
        for i in 0..<capacity where slots[i] != 0 {
            entries += 1
            // No empty slot may lie between an entry and its home.
            var j = home(slots[i] >> 32)
            while j != i {
                precondition(slots[j] != 0, "index entry at \(i) is cut off from its home by an empty slot at \(j)")
                j = next(j)
            }
        }
        precondition(entries == count, "index counts \(count) entries, holds \(entries)")
        #endif
    }
}
