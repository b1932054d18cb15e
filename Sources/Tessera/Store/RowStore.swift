/// The table of rows, struct-of-arrays, in pages of `pageCapacity` rows.
///
/// Each page holds the columns of its rows side by side (`id`, `height`, `kind`, `flags`,
/// content version, text reference); the pages are the leaves of a `HeightTree`, so an insert or remove in
/// the middle of ten million rows moves at most one page of column data plus O(log n)
/// summaries, and an id lookup never has to renumber the rows after it. The id index and
/// the text arena sit beside the tree. No row is ever an object.
///
/// One thread at a time may use a store; its storage is freed with it.
public struct RowStore: ~Copyable {
    /// The tallest row the store represents (262,143.98 pt): heights are 24-bit counts of
    /// 1/64 pt.
    public static let maximumRowHeight = LayoutUnit.points(LayoutUnit.maximumRowUnits)

    /// Rows per page by default: 376 rows of 27 bytes and their group sums fill a 10 KiB
    /// jemalloc size class.
    public static let defaultPageCapacity = 376

    var tree: HeightTree
    /// Column offsets of a page; `layout.capacity` rows per page.
    let layout: Page.Layout
    var pageCapacity: Int { layout.capacity }
    /// Rows an append puts in a page: a few slots under capacity (7 of 376), so that a
    /// later batch's inserts, which come with about as many removals per page, fit in the
    /// page they land in instead of pushing rows on to the next pages or splitting it.
    var appendFill: Int { pageCapacity - pageCapacity / 48 }
    /// Where row 0 of a page filled by an append (or written whole) sits: the slots left
    /// free are split between both ends, so a later change can shift whichever side of
    /// it is shorter.
    var appendStart: Int { (pageCapacity - appendFill) / 2 }
    var index: IDIndex
    var text = TextArena()
    /// Estimated height per kind, in 1/64 pt, for rows not yet measured.
    var estimates: [UInt32]
    /// One page of room for splitting a page without allocating.
    let scratch: UnsafeMutableRawPointer
    /// Where the last window query started, so a scroll continues from there.
    let cursor: UnsafeMutablePointer<WindowCursor>
    /// Bumped by every mutation; stale cursors are recognised by it.
    var version: UInt64 = 0
    /// Bumped by every change to which rows there are, their order or their content (ids,
    /// kinds, text, content versions): what a prepared batch was computed against.
    var contentMutations: UInt64 = 0
    /// Tells this store from every other, so a batch prepared for one is not applied to
    /// another (random: no shared counter between threads).
    let identity: UInt64

    /// A store whose kinds `0..<estimatedHeights.count` start at these heights (points).
    ///
    /// `pageCapacity` (rows per page, 2...4096) and `treeFanout` (children per summary
    /// node, 4...64) trade memory for speed; the defaults suit millions of rows, and tiny
    /// values let tests reach deep trees with few rows.
    public init(
        estimatedHeights: [Double], pageCapacity: Int = defaultPageCapacity, treeFanout: Int = 64
    ) throws(TesseraError) {
        try self.init(estimatedHeights: estimatedHeights, pageCapacity: pageCapacity, treeFanout: treeFanout, itemColumn: false)
    }

    /// A store whose pages also hold each row's own height beside its height (a grid's:
    /// item heights beside line spans) when `itemColumn`.
    init(estimatedHeights: [Double], pageCapacity: Int, treeFanout: Int, itemColumn: Bool) throws(TesseraError) {
        guard (2...4096).contains(pageCapacity) else { throw .capacityExceeded("page capacity \(pageCapacity), allowed 2...4096") }
        guard (4...64).contains(treeFanout) else { throw .capacityExceeded("tree fanout \(treeFanout), allowed 4...64") }
        var units = [UInt32]()
        units.reserveCapacity(estimatedHeights.count)
        for h in estimatedHeights { units.append(try LayoutUnit.rowHeight(h)) }
        guard units.count <= Int(UInt16.max) + 1 else {
            throw .capacityExceeded("\(units.count) kinds, at most 65536")
        }
        estimates = units
        layout = Page.Layout(capacity: pageCapacity, itemColumn: itemColumn)
        tree = HeightTree(fanout: treeFanout)
        index = IDIndex(seed: UInt64.random(in: .min ... .max))
        identity = UInt64.random(in: .min ... .max)
        scratch = Page.allocate(layout).base
        cursor = .allocate(capacity: 1)
        cursor.initialize(to: WindowCursor())
    }

    deinit {
        var l = tree.firstLeaf
        while l != HeightTree.none {
            Jemalloc.free(tree.leaves[Int(l)].page!)
            l = tree.leaves[Int(l)].next
        }
        Jemalloc.free(scratch)
        cursor.deallocate()
    }

    /// Number of rows.
    public var count: Int { tree.rowCount }

    /// Height of all rows, measured or estimated, in points.
    public var totalHeight: Double { LayoutUnit.points(tree.totalHeight) }

    /// Number of cell kinds with an estimated height.
    public var kindCount: Int { estimates.count }

    /// The estimated height of a kind, in points.
    public func estimatedHeight(ofKind kind: UInt16) throws(TesseraError) -> Double {
        guard Int(kind) < estimates.count else { throw .unknownKind(kind, kindCount: estimates.count) }
        return LayoutUnit.points(Int64(estimates[Int(kind)]))
    }

    // MARK: Reading rows

    func checkRow(_ row: Int) throws(TesseraError) {
        guard row >= 0, row < count else { throw .rowOutOfBounds(index: row, count: count) }
    }

    func locate(_ row: Int) -> (page: Page, slot: Int) {
        let found = tree.leaf(containingRow: row)
        return (Page(tree.leaves[Int(found.leaf)].page!, layout), found.slot)
    }

    /// The columns of one row.
    public func row(_ row: Int) throws(TesseraError) -> RowInfo {
        try checkRow(row)
        let (page, slot) = locate(row)
        return RowInfo(
            id: page.ids[slot], kind: page.kinds[slot], flags: RowFlags(rawValue: page.flags[slot]),
            height: LayoutUnit.points(page.height(slot)), contentVersion: page.versions[slot])
    }

    /// The row index of `id`, or nil when the store does not hold it. O(log n) plus one
    /// page scan.
    public func index(of id: UInt64) -> Int? {
        guard let (leaf, slot) = find(id) else { return nil }
        return tree.start(ofLeaf: leaf).row + slot
    }

    func find(_ id: UInt64) -> (leaf: UInt32, slot: Int)? {
        var slot = -1
        let leaves = tree.leaves
        guard let leaf = index.page(of: id, where: { l in
            let info = leaves[Int(l)]
            slot = Page(info.page!, layout).slot(of: id, count: Int(info.count))
            return slot >= 0
        }) else { return nil }
        return (leaf, slot)
    }

    /// The content version the host gave a row (0 when it gave none): what a keyed diff
    /// compares to tell an updated row from an unchanged one.
    public func contentVersion(ofRow row: Int) throws(TesseraError) -> UInt64 {
        try checkRow(row)
        let (page, slot) = locate(row)
        return page.versions[slot]
    }

    /// Text slot `slot` of a row (empty when the row has fewer slots).
    public func text(ofRow row: Int, slot: Int) throws(TesseraError) -> String {
        try checkRow(row)
        let (page, s) = locate(row)
        return String(decoding: text.bytes(page.text[s], slot: slot), as: UTF8.self)
    }

    /// Number of text slots a row has (0 when every slot it was given is empty: such rows
    /// share the arena's empty record).
    public func textSlotCount(ofRow row: Int) throws(TesseraError) -> Int {
        try checkRow(row)
        let (page, s) = locate(row)
        return text.slotCount(page.text[s])
    }

    /// Bytes jemalloc holds for this store, split by part (size classes included).
    public var memory: StoreMemory {
        var pages = 0, pageCount = 0
        var l = tree.firstLeaf
        while l != HeightTree.none {
            pages += Jemalloc.usableSize(tree.leaves[Int(l)].page!)
            pageCount += 1
            l = tree.leaves[Int(l)].next
        }
        return StoreMemory(
            pages: pages, textReferences: pageCount * layout.capacity * 4,
            contentVersions: pageCount * layout.capacity * 8, tree: tree.allocatedBytes,
            idIndex: index.allocatedBytes, textArena: text.allocatedBytes, scratch: Jemalloc.usableSize(scratch))
    }
}

/// The columns of one row, heights in points.
public struct RowInfo: Equatable, Sendable {
    public var id: UInt64
    public var kind: UInt16
    public var flags: RowFlags
    public var height: Double
    /// The host's content version (see `RowStore.contentVersion(ofRow:)`).
    public var contentVersion: UInt64

    public init(id: UInt64, kind: UInt16, flags: RowFlags, height: Double, contentVersion: UInt64 = 0) {
        self.id = id
        self.kind = kind
        self.flags = flags
        self.height = height
        self.contentVersion = contentVersion
    }
}

/// jemalloc bytes a store holds, by part.
public struct StoreMemory: Equatable, Sendable {
    /// Row pages: id, height, kind, flags, content version and text reference columns (and
    /// a grid's item heights).
    public var pages: Int
    /// The part of `pages` taken by the text reference column (4 bytes per row slot).
    public var textReferences: Int
    /// The part of `pages` taken by the content version column (8 bytes per row slot).
    public var contentVersions: Int
    /// Inner summary nodes and the leaf records.
    public var tree: Int
    /// The id → page hash table.
    public var idIndex: Int
    /// Text bytes and slot tables.
    public var textArena: Int
    /// The one spare page used when splitting.
    public var scratch: Int

    public var total: Int { pages + tree + idIndex + textArena + scratch }
}
