/// What `ListEngine` reads from the measurer and the profile's model, in one place so the
/// engine depends on no other internals of Layout.
extension CellMeasurer {
    /// Height of a row in 1/64 pt (a grid kind at its item width); 0 for an unknown kind.
    @inline(__always)
    func engineHeightUnits(kind: UInt16, _ row: RowValues) -> Int64 { heightUnits(kind: kind, row) }

    /// Starts a bulk measurement of stored rows (validated: the engine checks every row it
    /// takes, and again when parameters change) with `texts` (nil: none), stamping the
    /// rows' width ranges with `epoch` (0: leaving them); `engineEnd` ends it.
    func engineBegin(_ texts: CellTextBatch?, epoch: UInt32 = 0) {
        scratch.pointee.trustsRows = true
        scratch.pointee.rowsAreValid = true
        scratch.pointee.batchEpoch = epoch
        use(texts)
    }

    func engineEnd() {
        scratch.pointee.trustsRows = false
        scratch.pointee.rowsAreValid = false
        scratch.pointee.batchEpoch = 0
        use(nil)
    }

    /// `engineHeightUnits` for the row that is row `batchRow` of the batch in use.
    @inline(__always)
    func engineHeightUnits(kind: UInt16, _ row: RowValues, batchRow: Int) -> Int64 {
        scratch.pointee.batchRow = batchRow
        return heightUnits(kind: kind, row)
    }

    /// The batch in use (`engineBegin`), for loading rows' kept texts ahead of measuring them.
    var engineBatch: UnsafeMutablePointer<CellTextBatch.View>? { scratch.pointee.batch }

    /// A builder of a batch of `rowCount` stored rows (`slotsPerRow` value slots each).
    func engineBatchBuilder(rowCount: Int, slotsPerRow: Int) -> CellTextBatchBuilder {
        CellTextBatchBuilder(self, rowCount: rowCount, slotsPerRow: slotsPerRow, rowsAreValidUTF8: true)
    }

    /// The width a row is laid out at, in 1/64 pt (content width, or a grid item's width).
    func engineCellWidthUnits(kind: UInt16, _ row: RowValues) -> Int64 {
        let k = profile.kindIndex(kind)
        guard k >= 0 else { return 0 }
        return cellWidthUnits(program.kinds[k], program, row)
    }

    /// Per kind in profile order: whether it draws a divider on the environment's platform.
    var kindDividers: [Bool] { program.kinds.map { $0.dividerMode != 0 } }

    /// Per kind in profile order: its `groupMinimum` (0: no rule).
    var kindGroupMinimums: [Int] { program.kinds.map { Int($0.groupMinimum) } }

    /// Per kind in profile order: packed into the grid (its cell width is its item width).
    var kindInGrid: [Bool] { program.kinds.map { $0.gridMode != 0 } }

    /// Per kind in profile order: the grid item width setting (mode, units) a height depends on.
    var kindGridWidths: [(mode: UInt8, width: Int64)] { program.kinds.map { ($0.gridMode, $0.gridWidth) } }
}

extension Profile {
    /// Per kind in profile order: the positions of the variants whose conditions hold in
    /// `environment` (a kind's effective layout is a function of them).
    func holdingVariants(_ environment: LayoutEnvironment) -> [[Int]] {
        let widthClass = model.widthClass(of: environment)
        return model.kinds.map { k in
            k.variants.indices.filter {
                k.variants[$0].when.holds(widthClass: widthClass, editMode: environment.editMode, platform: environment.platform, fontScale: environment.fontScale)
            }
        }
    }

    /// Per kind in profile order: whether it has a slot laid out with a text style (text,
    /// text list, button), so its heights follow the font scale.
    var kindHasText: [Bool] {
        model.kinds.map { k in k.slots.contains { s in
            switch s.spec {
            case .text, .textList, .button: true
            default: false
            }
        } }
    }
}
