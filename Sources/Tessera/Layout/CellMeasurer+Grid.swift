/// The grid of a profile with a `grid` section, in the current environment (README "Grid
/// mode"). Column x positions are rounded to the nearest 1/64 pt; an item's width is its
/// own width capped by the slot width rounded down.
public struct GridMetrics: Sendable, Equatable {
    /// Items per grid row.
    public var columnCount: Int
    /// (W − 2·padding − (n−1)·columnGap) / n, unrounded.
    public var slotWidth: Double
    public var padding: Double
    public var columnGap: Double
    public var rowGap: Double

    /// The x of the items in grid column `i`.
    public func x(ofColumn i: Int) -> Double {
        LayoutUnit.points(LayoutUnit.units(padding + Double(i) * (slotWidth + columnGap)))
    }
}

/// Where the rows of a list go in grid mode.
public struct GridLayout: Sendable, Equatable {
    /// Per row: its frame in the list (x from the list's leading edge, y from its top).
    public var frames: [CellRect]
    /// The list's height: padding, grid rows and the gaps between them.
    public var height: Double
}

extension CellMeasurer {
    /// The grid for the environment, or nil when the profile has no grid.
    public var grid: GridMetrics? {
        program.grid.map {
            GridMetrics(columnCount: $0.columnCount, slotWidth: $0.slotWidth, padding: $0.padding, columnGap: $0.columnGap, rowGap: $0.rowGap)
        }
    }

    /// Packs valid rows into the grid: grid kinds `columnCount` to a grid row, top-aligned,
    /// each as wide as `cellWidth` and as tall as it measures; a grid row is as tall as
    /// its tallest item. A row of a kind outside the grid takes a line of its own at the
    /// content width. Lines are `rowGap` apart with `padding` above the first and below the
    /// last. nil when the profile has no grid. Rows as in `lint`.
    public func gridLayout(kinds: UnsafeBufferPointer<UInt16>, utf8: UnsafeRawBufferPointer, offsets: UnsafeBufferPointer<Int>, slotsPerRow: Int) -> GridLayout? {
        guard let g = program.grid, slotsPerRow >= 0, offsets.count == kinds.count * slotsPerRow + 1 else { return nil }
        let p = program
        let padding = LayoutUnit.units(g.padding), rowGap = LayoutUnit.units(g.rowGap)
        var frames = [CellRect](repeating: CellRect(x: 0, y: 0, width: 0, height: 0), count: kinds.count)
        var y = padding
        var column = 0
        var lineHeight: Int64 = 0
        var lines = 0
        func endLine() {
            guard column > 0 else { return }
            y += lineHeight + rowGap
            lines += 1
            column = 0
            lineHeight = 0
        }
        for r in 0..<kinds.count {
            let k = profile.kindIndex(kinds[r])
            guard k >= 0 else { continue }
            let kp = p.kinds[k]
            let row = RowValues(utf8: utf8, offsets: UnsafeBufferPointer(rebasing: offsets[r * slotsPerRow...(r + 1) * slotsPerRow]))
            let width = cellWidthUnits(kp, p, row)
            let height = layoutRow(kp, p, row, cellWidth: width)
            if kp.gridMode == 0 {
                endLine()
                frames[r] = CellRect(units: 0, y, width, height)
                lineHeight = height
                column = 1
                endLine()
                continue
            }
            let x = LayoutUnit.units(g.padding + Double(column) * (g.slotWidth + g.columnGap))
            frames[r] = CellRect(units: x, y, width, height)
            lineHeight = Swift.max(lineHeight, height)
            column += 1
            if column == g.columnCount { endLine() }
        }
        endLine()
        // The last line's gap becomes the bottom padding.
        let total = lines == 0 ? 2 * padding : y - rowGap + padding
        return GridLayout(frames: frames, height: LayoutUnit.points(total))
    }

    public func gridLayout(kinds: [UInt16], text: RowText) -> GridLayout? {
        kinds.withUnsafeBufferPointer { k in
            text.utf8.withUnsafeBytes { u in
                text.offsets.withUnsafeBufferPointer { o in gridLayout(kinds: k, utf8: u, offsets: o, slotsPerRow: text.slotsPerRow) }
            }
        }
    }
}
