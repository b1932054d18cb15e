#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Tessera

/// Checks, outside any timed region, that the peer's offsets are the prefix sums of its
/// heights and that Tessera and the peer give the same answers: row count, total height,
/// the top of sampled rows and whole windows (every row's index, id, y, height and kind) at
/// sampled offsets. A disagreement ends the run with status 1.
struct Agreement {
    let buffer: UnsafeMutableBufferPointer<VisibleRow>
    let peerBuffer: UnsafeMutableBufferPointer<VisibleRow>
    let progress: Progress
    private(set) var windowsCompared = 0

    init(buffer: UnsafeMutableBufferPointer<VisibleRow>, peerBuffer: UnsafeMutableBufferPointer<VisibleRow>, progress: Progress) {
        self.buffer = buffer
        self.peerBuffer = peerBuffer
        self.progress = progress
    }

    static func fail(_ message: String) -> Never {
        let text = "cellbench: Tessera and the flat prefix array disagree: \(message)\n"
        var bytes = Array(text.utf8)
        _ = write(2, &bytes, bytes.count)
        exit(1)
    }

    /// Compares the stores' totals, then the given rows' tops and the windows starting at
    /// those rows' tops (and half a row further down).
    mutating func check(
        _ store: borrowing RowStore, _ peer: FlatPrefixArray, rowsAndOffsets rows: [Int], _ context: String
    ) throws(TesseraError) {
        try totals(store, peer, context)
        var offsets = [Double]()
        for r in rows {
            let mine = try store.offset(ofRow: r), theirs = peer.offset(ofRow: r)
            guard mine == theirs else { Self.fail("\(context): row \(r) starts at \(mine) pt, peer says \(theirs) pt") }
            offsets.append(mine)
            offsets.append(mine + Double(peer.heights[r]) / FlatPrefixArray.unitsPerPoint / 2)
        }
        try windows(store, peer, offsets: offsets, context)
    }

    mutating func check(
        _ store: borrowing RowStore, _ peer: FlatPrefixArray, offsets: [Double], _ context: String
    ) throws(TesseraError) {
        try totals(store, peer, context)
        try windows(store, peer, offsets: offsets, context)
    }

    private func totals(_ store: borrowing RowStore, _ peer: FlatPrefixArray, _ context: String) throws(TesseraError) {
        guard peer._checkOffsets() else { Self.fail("\(context): the peer's offsets are not the prefix sums of its heights") }
        guard store.count == peer.count else { Self.fail("\(context): \(store.count) rows, peer has \(peer.count)") }
        guard store.totalHeight == peer.totalHeight else {
            Self.fail("\(context): total height \(store.totalHeight) pt, peer says \(peer.totalHeight) pt")
        }
    }

    private mutating func windows(
        _ store: borrowing RowStore, _ peer: FlatPrefixArray, offsets: [Double], _ context: String
    ) throws(TesseraError) {
        progress.begin("checking \(context)", total: offsets.count)
        defer { progress.end() }
        let v = GeometrySuite.viewport, o = GeometrySuite.overscan
        for (i, y) in offsets.enumerated() {
            let mine = try store.window(offset: y, viewport: v, overscanBefore: o, overscanAfter: o, into: buffer)
            let theirs = peer.window(offset: y, viewport: v, overscanBefore: o, overscanAfter: o, into: peerBuffer)
            guard mine.rows == theirs else {
                Self.fail("\(context): window at \(y) pt holds rows \(mine.rows), peer says \(theirs)")
            }
            for k in 0..<Swift.min(mine.count, buffer.count) {
                let a = buffer[k], b = peerBuffer[k]
                guard a.row == b.row, a.id == b.id, a.y == b.y, a.height == b.height, a.kind == b.kind else {
                    Self.fail("\(context): window at \(y) pt, entry \(k): \(a) vs peer \(b)")
                }
            }
            windowsCompared += 1
            if i % 256 == 0 { progress.advance(to: i) }
        }
    }
}
