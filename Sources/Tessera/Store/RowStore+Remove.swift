extension RowStore {
    /// Removes rows `range`. All or nothing.
    public mutating func removeRows(_ range: Range<Int>) throws(TesseraError) {
        guard range.lowerBound >= 0, range.upperBound <= count else {
            throw .rangeOutOfBounds(lowerBound: range.lowerBound, upperBound: range.upperBound, count: count)
        }
        guard !range.isEmpty else { return }
        version &+= 1
        contentMutations &+= 1
        var remaining = range.count
        while remaining > 0 {
            let (leaf, slot, _, _) = tree.leaf(containingRow: range.lowerBound)
            let page = Page(tree.leaves[Int(leaf)].page!, layout)
            let old = Int(tree.leaves[Int(leaf)].count)
            let n = min(remaining, old - slot)
            for t in slot..<(slot + n) {
                index.remove(page.ids[t], page: leaf)
                text.release(page.text[t])
            }
            remaining -= n
            if n == old {
                tree.removeLeaf(leaf)
                Jemalloc.free(page.base)
            } else {
                // The shorter side moves: the rows before the removed ones towards the end,
                // or the rows after them towards the front.
                var kept = page
                if slot < old - slot - n {
                    kept = Page(page.base, layout, start: page.start + n)
                    kept.copyRows(from: page, at: 0, to: 0, count: slot)
                    kept.setStart(kept.start)
                } else {
                    page.copyRows(from: page, at: slot + n, to: slot, count: old - slot - n)
                }
                let height = kept.refreshGroups(from: slot, count: old - n)
                tree.adjust(leaf: leaf, rows: -n, height: height - tree.leaves[Int(leaf)].height)
            }
        }
        if count > 0 { mergeIfSparse(tree.leaf(containingRow: min(range.lowerBound, count - 1)).leaf) }
        if text.deadBytes > max(text.liveBytes, 1 << 20) { compactText() }
    }

    /// Merges `leaf` with its neighbours where two fit in one page, so after a removal
    /// adjacent pages hold more than a page of rows between them (pages stay half full on
    /// average).
    mutating func mergeIfSparse(_ leaf: UInt32) {
        var leaf = leaf
        let prev = tree.leaves[Int(leaf)].prev
        if prev != HeightTree.none, Int(tree.leaves[Int(leaf)].count + tree.leaves[Int(prev)].count) <= pageCapacity {
            absorb(leaf, into: prev)
            leaf = prev
        }
        let next = tree.leaves[Int(leaf)].next
        if next != HeightTree.none, Int(tree.leaves[Int(leaf)].count + tree.leaves[Int(next)].count) <= pageCapacity {
            absorb(next, into: leaf)
        }
    }

    /// Moves every row of page `source` to the end of the page before it, `target`.
    mutating func absorb(_ source: UInt32, into target: UInt32) {
        let from = Page(tree.leaves[Int(source)].page!, layout)
        var to = Page(tree.leaves[Int(target)].page!, layout)
        let n = Int(tree.leaves[Int(source)].count), at = Int(tree.leaves[Int(target)].count)
        if to.start + at + n > pageCapacity { to = to.moved(toStart: (pageCapacity - at - n) / 2, count: at) }
        let height = tree.leaves[Int(source)].height
        to.copyRows(from: from, at: 0, to: at, count: n)
        to.refreshGroups(from: at, count: at + n)
        for t in 0..<n { index.move(from.ids[t], from: source, to: target) }
        tree.removeLeaf(source)
        Jemalloc.free(from.base)
        tree.adjust(leaf: target, rows: n, height: height)
    }

    /// Rewrites the text arena with live records only.
    mutating func compactText() {
        var fresh = TextArena(capacity: text.liveBytes + 64)
        var l = tree.firstLeaf
        while l != HeightTree.none {
            let page = Page(tree.leaves[Int(l)].page!, layout)
            for s in 0..<Int(tree.leaves[Int(l)].count) {
                page.text[s] = fresh.append(record: page.text[s], from: text)
            }
            l = tree.leaves[Int(l)].next
        }
        text = fresh
    }

    /// Removes every row, keeping the kinds' estimates.
    public mutating func removeAll() {
        guard count > 0 else { return }
        try! removeRows(0..<count)
    }
}
