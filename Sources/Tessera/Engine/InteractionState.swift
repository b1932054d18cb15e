/// A row as the host addresses it after a change: its id and its current index.
public struct RowReference: Equatable, Hashable, Sendable {
    public var id: UInt64
    public var row: Int

    public init(id: UInt64, row: Int) {
        self.id = id
        self.row = row
    }
}

/// Rows whose interaction state (swipe, selection, unread) changed, ascending by index:
/// the host reconfigures them (UIKit `reconfigureItems`, RecyclerView `notifyItemChanged`
/// with a payload), reading their flags from the window.
public struct InteractionChange: Equatable, Sendable {
    public var rows: [RowReference]

    public init(rows: [RowReference] = []) { self.rows = rows }

    public var isEmpty: Bool { rows.isEmpty }
}

/// The side a row is swiped from, as UIKit's leading and trailing swipe actions.
public enum SwipeEdge: Sendable, Equatable {
    case leading, trailing
}

/// The one row swiped open: its id, the edge whose actions it reveals and how wide.
public struct SwipeState: Equatable, Sendable {
    public var id: UInt64
    public var edge: SwipeEdge
    /// Points of actions revealed.
    public var revealedWidth: Double

    public init(id: UInt64, edge: SwipeEdge, revealedWidth: Double) {
        self.id = id
        self.edge = edge
        self.revealedWidth = revealedWidth
    }
}

/// A set of row ids in one flat open-addressing table (linear probing, backward-shift
/// deletion): no object per id, O(1) expected per operation.
struct IDSet {
    private var keys: [UInt64] = []
    private var used: [Bool] = []
    private(set) var count = 0

    private var mask: Int { keys.count - 1 }

    @inline(__always) private func home(_ id: UInt64) -> Int { Int(truncatingIfNeeded: mix64(id)) & mask }

    private func slot(of id: UInt64) -> Int? {
        guard count > 0 else { return nil }
        var i = home(id)
        while used[i] {
            if keys[i] == id { return i }
            i = (i + 1) & mask
        }
        return nil
    }

    func contains(_ id: UInt64) -> Bool { slot(of: id) != nil }

    /// Adds `id`; false when it was there.
    @discardableResult
    mutating func insert(_ id: UInt64) -> Bool {
        if contains(id) { return false }
        if (count + 1) * 4 > keys.count * 3 { grow() }
        var i = home(id)
        while used[i] { i = (i + 1) & mask }
        keys[i] = id
        used[i] = true
        count += 1
        return true
    }

    /// Removes `id`; false when it was not there.
    @discardableResult
    mutating func remove(_ id: UInt64) -> Bool {
        guard var hole = slot(of: id) else { return false }
        var j = hole
        while true {
            j = (j + 1) & mask
            guard used[j] else { break }
            let h = home(keys[j])
            // An entry may fill the hole unless its home lies cyclically in (hole, j].
            let stays = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j)
            if !stays {
                keys[hole] = keys[j]
                hole = j
            }
        }
        used[hole] = false
        count -= 1
        return true
    }

    mutating func removeAll() {
        keys = []
        used = []
        count = 0
    }

    /// Every id, in table order.
    var elements: [UInt64] {
        var out: [UInt64] = []
        out.reserveCapacity(count)
        for i in keys.indices where used[i] { out.append(keys[i]) }
        return out
    }

    private mutating func grow() {
        let old = elements
        let capacity = max(16, keys.count * 2)
        keys = [UInt64](repeating: 0, count: capacity)
        used = [Bool](repeating: false, count: capacity)
        count = 0
        for id in old { insert(id) }
    }
}

/// Per-id interaction state of a `ListEngine`: the one open swipe and the selected ids.
/// The store's flag bits (`swipeOpen`, `selected`) mirror it row by row; unread is a flag
/// bit only, carried with its row.
struct InteractionState {
    var swipe: SwipeState?
    var selected = IDSet()
}
