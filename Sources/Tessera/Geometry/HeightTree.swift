/// The summary tree over row pages: a B+tree whose leaves are the store's pages of rows and
/// whose inner nodes hold, per child, the `{count, height}` of its subtree (the design of
/// Zed's SumTree and swift-collections' Rope). Any row is reached by index or by offset in
/// O(log n) and a height change costs O(log n), with no flat prefix array to rebuild.
///
/// Leaves are numbered and described by a `Leaf` record (its page, count, height, parent
/// and list links); inner nodes are fixed-size records in one buffer. Both are addressed
/// by `UInt32` numbers, so growing a buffer never invalidates a reference.
struct HeightTree: ~Copyable {
    static let none: UInt32 = .max

    struct Leaf {
        var page: UnsafeMutableRawPointer?
        var height: Int64
        var count: Int32
        var parent: UInt32
        var next: UInt32
        var prev: UInt32
    }

    /// Children per inner node.
    let fanout: Int
    // An inner node: header (count, level, parent), then children, counts and heights.
    static let childrenOffset = 16
    let countsOffset: Int
    let heightsOffset: Int
    let nodeStride: Int

    var leaves: UnsafeMutablePointer<Leaf>
    var leafCapacity: Int
    var leafCount = 0
    var freeLeaf: UInt32 = none
    var nodes: UnsafeMutableRawPointer
    var nodeCapacity: Int
    var nodeCount = 0
    var freeNode: UInt32 = none
    var root: UInt32 = none
    var firstLeaf: UInt32 = none
    var lastLeaf: UInt32 = none
    /// While true (an apply is under way), `adjust` updates the leaf and the totals and
    /// only marks the leaf's parent; `flushSummaries()` then refreshes each marked node
    /// once, instead of every page change walking its ancestors.
    var deferring = false
    /// Nodes marked while deferring (a node's mark is header word 3), unordered.
    var dirty: UnsafeMutablePointer<UInt32>
    var dirtyCapacity = 64
    var dirtyCount = 0

    init(fanout: Int) {
        self.fanout = fanout
        countsOffset = Self.childrenOffset + 4 * fanout
        heightsOffset = countsOffset + 8 * fanout
        nodeStride = (heightsOffset + 8 * fanout + 63) & ~63
        leafCapacity = 16
        leaves = Jemalloc.allocate(bytes: leafCapacity * MemoryLayout<Leaf>.stride)
            .bindMemory(to: Leaf.self, capacity: leafCapacity)
        nodeCapacity = 4
        nodes = Jemalloc.allocate(bytes: nodeCapacity * nodeStride)
        dirty = Jemalloc.allocate(bytes: dirtyCapacity * 4).bindMemory(to: UInt32.self, capacity: dirtyCapacity)
        root = allocateNode(level: 1)
    }

    deinit {
        Jemalloc.free(leaves)
        Jemalloc.free(nodes)
        Jemalloc.free(dirty)
    }

    var allocatedBytes: Int { Jemalloc.usableSize(leaves) + Jemalloc.usableSize(nodes) + Jemalloc.usableSize(dirty) }

    // MARK: Node fields

    @inline(__always) func node(_ n: UInt32) -> UnsafeMutableRawPointer { nodes + Int(n) * nodeStride }
    @inline(__always) func childCount(_ n: UInt32) -> Int { Int(node(n).load(as: Int32.self)) }
    @inline(__always) func setChildCount(_ n: UInt32, _ c: Int) { node(n).storeBytes(of: Int32(c), as: Int32.self) }
    @inline(__always) func level(_ n: UInt32) -> Int { Int(node(n).load(fromByteOffset: 4, as: Int32.self)) }
    @inline(__always) func parent(ofNode n: UInt32) -> UInt32 { node(n).load(fromByteOffset: 8, as: UInt32.self) }
    @inline(__always) func setParent(ofNode n: UInt32, _ p: UInt32) { node(n).storeBytes(of: p, toByteOffset: 8, as: UInt32.self) }
    @inline(__always) func isMarked(_ n: UInt32) -> Bool { node(n).load(fromByteOffset: 12, as: UInt32.self) != 0 }
    @inline(__always) func setMarked(_ n: UInt32, _ on: Bool) { node(n).storeBytes(of: on ? 1 : 0, toByteOffset: 12, as: UInt32.self) }
    @inline(__always) func children(_ n: UInt32) -> UnsafeMutablePointer<UInt32> {
        (node(n) + Self.childrenOffset).assumingMemoryBound(to: UInt32.self)
    }
    @inline(__always) func counts(_ n: UInt32) -> UnsafeMutablePointer<Int64> {
        (node(n) + countsOffset).assumingMemoryBound(to: Int64.self)
    }
    @inline(__always) func heights(_ n: UInt32) -> UnsafeMutablePointer<Int64> {
        (node(n) + heightsOffset).assumingMemoryBound(to: Int64.self)
    }

    /// Rows and height of the whole tree, kept current by every change.
    var rowCount = 0
    var totalHeight: Int64 = 0

    // MARK: Allocation

    mutating func allocateNode(level: Int) -> UInt32 {
        let n: UInt32
        if freeNode != Self.none {
            n = freeNode
            freeNode = parent(ofNode: n)
        } else {
            if nodeCount == nodeCapacity {
                nodeCapacity *= 2
                nodes = Jemalloc.reallocate(nodes, bytes: nodeCapacity * nodeStride)
            }
            n = UInt32(nodeCount)
            nodeCount += 1
        }
        setChildCount(n, 0)
        node(n).storeBytes(of: Int32(level), toByteOffset: 4, as: Int32.self)
        setParent(ofNode: n, Self.none)
        setMarked(n, false)
        return n
    }

    mutating func freeNode(_ n: UInt32) {
        setChildCount(n, -1)
        setParent(ofNode: n, freeNode)
        freeNode = n
    }

    /// A new, unlinked leaf record for `page`, empty.
    mutating func allocateLeaf(page: UnsafeMutableRawPointer) -> UInt32 {
        let l: UInt32
        if freeLeaf != Self.none {
            l = freeLeaf
            freeLeaf = leaves[Int(l)].next
        } else {
            if leafCount == leafCapacity {
                leafCapacity *= 2
                leaves = Jemalloc.reallocate(leaves, bytes: leafCapacity * MemoryLayout<Leaf>.stride)
                    .bindMemory(to: Leaf.self, capacity: leafCapacity)
            }
            l = UInt32(leafCount)
            leafCount += 1
        }
        leaves[Int(l)] = Leaf(page: page, height: 0, count: 0, parent: Self.none, next: Self.none, prev: Self.none)
        return l
    }

    // MARK: Descent

    /// The leaf holding row `row` (which must exist), the row's slot in it, and the row
    /// index and offset where that leaf starts.
    func leaf(containingRow row: Int) -> (leaf: UInt32, slot: Int, leafRow: Int, leafY: Int64) {
        var n = root, r = Int64(row), start: Int64 = 0, y: Int64 = 0
        while true {
            let c = counts(n), h = heights(n), k = childCount(n)
            var i = 0
            while i &+ 8 <= k {
                let sum = UnsafeRawPointer(c + i).loadUnaligned(as: SIMD8<Int64>.self).wrappedSum()
                if r < sum { break }
                r &-= sum
                i &+= 8
            }
            while r >= c[i] {
                r &-= c[i]
                i &+= 1
            }
            for k in 0..<i {
                start &+= c[k]
                y &+= h[k]
            }
            let child = children(n)[i]
            if level(n) == 1 { return (child, Int(r), Int(start), y) }
            n = child
        }
    }

    /// The leaf whose rows cover offset `y` (which must be below `totalHeight`), with the
    /// row index and offset where it starts.
    func leaf(containingOffset y: Int64) -> (leaf: UInt32, leafRow: Int, leafY: Int64) {
        var n = root, rest = y, start: Int64 = 0
        while true {
            let h = heights(n), k = childCount(n)
            var i = 0
            // Eight children at a time by their summed heights, then one by one.
            while i &+ 8 <= k {
                let sum = UnsafeRawPointer(h + i).loadUnaligned(as: SIMD8<Int64>.self).wrappedSum()
                if rest < sum { break }
                rest &-= sum
                i &+= 8
            }
            while rest >= h[i] {
                rest &-= h[i]
                i &+= 1
            }
            // Rows before the child are summed apart from the search's dependency chain.
            let c = counts(n)
            for k in 0..<i { start &+= c[k] }
            let child = children(n)[i]
            if level(n) == 1 { return (child, Int(start), y - rest) }
            n = child
        }
    }

    @inline(__always)
    func index(of child: UInt32, in n: UInt32) -> Int {
        let c = children(n)
        var i = 0
        while c[i] != child { i += 1 }
        return i
    }

    /// Row index and offset of the first row of `leaf`, walking up the parents.
    func start(ofLeaf leaf: UInt32) -> (row: Int, y: Int64) {
        var row: Int64 = 0, y: Int64 = 0
        var child = leaf, n = leaves[Int(leaf)].parent
        while n != Self.none {
            let i = index(of: child, in: n), c = counts(n), h = heights(n)
            for k in 0..<i { row += c[k]; y += h[k] }
            child = n
            n = parent(ofNode: n)
        }
        return (Int(row), y)
    }

    // MARK: Summaries

    /// Adds `rows` and `height` to `leaf` and to every ancestor's entry for it: O(log n).
    mutating func adjust(leaf: UInt32, rows: Int, height: Int64) {
        leaves[Int(leaf)].count += Int32(rows)
        leaves[Int(leaf)].height += height
        rowCount += rows
        totalHeight += height
        var child = leaf, n = leaves[Int(leaf)].parent
        if deferring {
            mark(n)
            return
        }
        while n != Self.none {
            let i = index(of: child, in: n)
            counts(n)[i] += Int64(rows)
            heights(n)[i] += height
            child = n
            n = parent(ofNode: n)
        }
    }

    /// Marks node `n` for `flushSummaries()`: its entries, or its own entry in its parent,
    /// may be stale until then.
    @inline(__always)
    mutating func mark(_ n: UInt32) {
        guard !isMarked(n) else { return }
        setMarked(n, true)
        if dirtyCount == dirtyCapacity {
            dirtyCapacity *= 2
            dirty = Jemalloc.reallocate(dirty, bytes: dirtyCapacity * 4).bindMemory(to: UInt32.self, capacity: dirtyCapacity)
        }
        dirty[dirtyCount] = n
        dirtyCount += 1
    }

    /// Ends deferring: every marked node's entries are rewritten from its children (leaf
    /// records at level 1), level by level from the bottom, each marking its parent, so
    /// each touched node is refreshed once. A node marked then freed is skipped; one freed
    /// and reused is refreshed from its current children, which is still right.
    mutating func flushSummaries() {
        deferring = false
        var lvl = 1
        while dirtyCount > 0 {
            // Parents marked here are one level up and wait for the next round.
            var i = 0
            while i < dirtyCount {
                let n = dirty[i]
                i += 1
                guard childCount(n) >= 0, level(n) == lvl else { continue }
                let k = childCount(n), c = children(n), counts = counts(n), heights = heights(n)
                if lvl == 1 {
                    for j in 0..<k {
                        let leaf = leaves[Int(c[j])]
                        counts[j] = Int64(leaf.count)
                        heights[j] = leaf.height
                    }
                } else {
                    for j in 0..<k { (counts[j], heights[j]) = sums(c[j]) }
                }
                setMarked(n, false)
                let p = parent(ofNode: n)
                if p != Self.none { mark(p) }
            }
            var kept = 0
            for r in 0..<dirtyCount {
                let n = dirty[r]
                if childCount(n) >= 0, level(n) > lvl {
                    dirty[kept] = n
                    kept += 1
                } else if childCount(n) < 0 {
                    setMarked(n, false)
                }
            }
            dirtyCount = kept
            lvl += 1
        }
    }

    func sums(_ n: UInt32) -> (count: Int64, height: Int64) {
        let k = childCount(n), c = counts(n), h = heights(n)
        var count: Int64 = 0, height: Int64 = 0
        for i in 0..<k { count += c[i]; height += h[i] }
        return (count, height)
    }

    /// Rewrites the entries on the path from `n` to the root from the nodes' own sums.
    mutating func refreshUpward(from n: UInt32) {
        var child = n, p = parent(ofNode: n)
        while p != Self.none {
            let i = index(of: child, in: p), s = sums(child)
            counts(p)[i] = s.count
            heights(p)[i] = s.height
            child = p
            p = parent(ofNode: p)
        }
    }

    /// Recomputes every entry and the totals from the leaf records, bottom up: O(nodes),
    /// cheaper than one `adjust` per leaf when most leaves changed.
    mutating func refreshAll() {
        let sums = refreshSubtree(root)
        rowCount = Int(sums.count)
        totalHeight = sums.height
    }

    private mutating func refreshSubtree(_ n: UInt32) -> (count: Int64, height: Int64) {
        let k = childCount(n), c = children(n)
        for i in 0..<k {
            if level(n) == 1 {
                counts(n)[i] = Int64(leaves[Int(c[i])].count)
                heights(n)[i] = leaves[Int(c[i])].height
            } else {
                (counts(n)[i], heights(n)[i]) = refreshSubtree(c[i])
            }
        }
        return sums(n)
    }

    @inline(__always)
    mutating func setParent(ofChild child: UInt32, level: Int, _ p: UInt32) {
        if level == 1 { leaves[Int(child)].parent = p } else { setParent(ofNode: child, p) }
    }

    // MARK: Structure

    /// Links `leaf` (its count and height already set) into the tree right after `after`,
    /// or first when `after` is `none`.
    mutating func insertLeaf(_ leaf: UInt32, after: UInt32) {
        let next = after == Self.none ? firstLeaf : leaves[Int(after)].next
        leaves[Int(leaf)].prev = after
        leaves[Int(leaf)].next = next
        if after == Self.none { firstLeaf = leaf } else { leaves[Int(after)].next = leaf }
        if next == Self.none { lastLeaf = leaf } else { leaves[Int(next)].prev = leaf }

        let info = leaves[Int(leaf)]
        rowCount += Int(info.count)
        totalHeight += info.height
        if after == Self.none {
            var n = root
            while level(n) > 1 { n = children(n)[0] }
            insertChild(leaf, count: Int64(info.count), height: info.height, into: n, at: 0)
        } else {
            let p = leaves[Int(after)].parent
            insertChild(leaf, count: Int64(info.count), height: info.height, into: p, at: index(of: after, in: p) + 1)
        }
    }

    mutating func insertChild(_ child: UInt32, count: Int64, height: Int64, into n: UInt32, at position: Int) {
        let k = childCount(n), lvl = level(n)
        if k < fanout {
            place(child, count: count, height: height, into: n, at: position)
            refreshUpward(from: n)
            return
        }
        // Split. Appending at the end starts an empty sibling so sequential appends keep
        // nodes full; otherwise the upper half moves.
        let sibling = allocateNode(level: lvl)
        // Entries moved from a node marked while deferring may be stale.
        if deferring { mark(sibling) }
        let keep = position == fanout ? fanout : fanout / 2
        let moved = k - keep
        if moved > 0 {
            children(sibling).update(from: children(n) + keep, count: moved)
            counts(sibling).update(from: counts(n) + keep, count: moved)
            heights(sibling).update(from: heights(n) + keep, count: moved)
            for i in 0..<moved { setParent(ofChild: children(sibling)[i], level: lvl, sibling) }
            setChildCount(sibling, moved)
            setChildCount(n, keep)
        }
        if position <= keep && position < fanout {
            place(child, count: count, height: height, into: n, at: position)
        } else {
            place(child, count: count, height: height, into: sibling, at: position - keep)
        }
        let s = sums(sibling)
        if n == root {
            let newRoot = allocateNode(level: lvl + 1)
            let mine = sums(n)
            place(n, count: mine.count, height: mine.height, into: newRoot, at: 0)
            place(sibling, count: s.count, height: s.height, into: newRoot, at: 1)
            root = newRoot
        } else {
            let p = parent(ofNode: n), i = index(of: n, in: p), mine = sums(n)
            counts(p)[i] = mine.count
            heights(p)[i] = mine.height
            insertChild(sibling, count: s.count, height: s.height, into: p, at: i + 1)
        }
    }

    /// Puts a child into a node with room, without touching ancestors.
    @inline(__always)
    mutating func place(_ child: UInt32, count: Int64, height: Int64, into n: UInt32, at position: Int) {
        let k = childCount(n), tail = k - position
        (children(n) + position + 1).update(from: children(n) + position, count: tail)
        (counts(n) + position + 1).update(from: counts(n) + position, count: tail)
        (heights(n) + position + 1).update(from: heights(n) + position, count: tail)
        children(n)[position] = child
        counts(n)[position] = count
        heights(n)[position] = height
        setChildCount(n, k + 1)
        setParent(ofChild: child, level: level(n), n)
    }

    /// Unlinks `leaf` and frees its number; the caller frees its page.
    mutating func removeLeaf(_ leaf: UInt32) {
        let info = leaves[Int(leaf)]
        rowCount -= Int(info.count)
        totalHeight -= info.height
        if info.prev == Self.none { firstLeaf = info.next } else { leaves[Int(info.prev)].next = info.next }
        if info.next == Self.none { lastLeaf = info.prev } else { leaves[Int(info.next)].prev = info.prev }
        removeChild(at: index(of: leaf, in: info.parent), from: info.parent)
        releaseLeaf(leaf)
    }

    /// Returns an unlinked leaf's number for reuse.
    mutating func releaseLeaf(_ leaf: UInt32) {
        leaves[Int(leaf)] = Leaf(page: nil, height: 0, count: -1, parent: Self.none, next: freeLeaf, prev: Self.none)
        freeLeaf = leaf
    }

    mutating func removeChild(at position: Int, from n: UInt32) {
        let k = childCount(n), tail = k - position - 1
        (children(n) + position).update(from: children(n) + position + 1, count: tail)
        (counts(n) + position).update(from: counts(n) + position + 1, count: tail)
        (heights(n) + position).update(from: heights(n) + position + 1, count: tail)
        setChildCount(n, k - 1)
        if n == root {
            collapseRoot()
            return
        }
        let p = parent(ofNode: n)
        if k - 1 == 0 {
            removeChild(at: index(of: n, in: p), from: p)
            freeNode(n)
            return
        }
        // Merge with a neighbour under the same parent when both fit in one node.
        let i = index(of: n, in: p)
        let left = i > 0 ? children(p)[i - 1] : Self.none
        let right = i + 1 < childCount(p) ? children(p)[i + 1] : Self.none
        if left != Self.none, childCount(left) + k - 1 <= fanout {
            absorb(n, into: left)
            refreshUpward(from: left)
            removeChild(at: i, from: p)
            freeNode(n)
        } else if right != Self.none, childCount(right) + k - 1 <= fanout {
            absorb(right, into: n)
            refreshUpward(from: n)
            removeChild(at: i + 1, from: p)
            freeNode(right)
        } else {
            refreshUpward(from: n)
        }
    }

    /// Appends all children of `source` to `target` (same level, enough room).
    mutating func absorb(_ source: UInt32, into target: UInt32) {
        let k = childCount(source), t = childCount(target), lvl = level(target)
        if deferring { mark(target) }
        (children(target) + t).update(from: children(source), count: k)
        (counts(target) + t).update(from: counts(source), count: k)
        (heights(target) + t).update(from: heights(source), count: k)
        for i in 0..<k { setParent(ofChild: children(source)[i], level: lvl, target) }
        setChildCount(target, t + k)
        setChildCount(source, 0)
    }

    mutating func collapseRoot() {
        while level(root) > 1 && childCount(root) == 1 {
            let child = children(root)[0]
            freeNode(root)
            root = child
            setParent(ofNode: root, Self.none)
        }
    }
}
