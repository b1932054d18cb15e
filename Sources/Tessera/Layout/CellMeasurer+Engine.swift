/// What `ListEngine` reads from the measurer and the profile's model, in one place so the
/// engine depends on no other internals of Layout.
extension CellMeasurer {
    /// Height of a row in 1/64 pt (a grid kind at its item width); 0 for an unknown kind.
    @inline(__always)
    func engineHeightUnits(kind: UInt16, _ row: RowValues) -> Int64 { heightUnits(kind: kind, row) }

    /// Starts a bulk measurement of stored rows (validated: the engine checks every row it
    /// takes, and again when parameters change) with `texts` (nil: none; else built from
    /// these rows, so a kept text is taken as its value without comparing their lengths),
    /// stamping the rows' width ranges with `epoch` (0: leaving them); `engineEnd` ends it.
    func engineBegin(_ texts: CellTextBatch?, epoch: UInt32 = 0) {
        scratch.pointee.keptPlans.update(repeating: KeptPlan(), count: KeptPlan.slots)
        scratch.pointee.trustsRows = true
        scratch.pointee.rowsAreValid = true
        scratch.pointee.batchEpoch = epoch
        use(texts)
        scratch.pointee.batchIsRows = scratch.pointee.batch != nil
    }

    func engineEnd() {
        scratch.pointee.trustsRows = false
        scratch.pointee.rowsAreValid = false
        scratch.pointee.batchEpoch = 0
        use(nil)
        scratch.pointee.batchIsRows = false
    }

    /// `engineHeightUnits` for the row that is row `batchRow` of the batch in use.
    @inline(__always)
    func engineHeightUnits(kind: UInt16, _ row: RowValues, batchRow: Int) -> Int64 {
        scratch.pointee.batchRow = batchRow
        return heightUnits(kind: kind, row)
    }

    /// What `engineKeptHeight` reads for every row, taken once per batch: the batch in use,
    /// the plans kept by key and the epoch rows are stamped with.
    struct KeptResults {
        let batch: UnsafeMutablePointer<CellTextBatch.View>
        let plans: UnsafeMutablePointer<KeptPlan>
        let epoch: UInt32
    }

    /// For `engineKeptHeight`, after `engineBegin`: nil without a batch (or with a text log).
    var engineKeptResults: KeptResults? {
        guard let batch = scratch.pointee.batch, scratch.pointee.textLog == nil else { return nil }
        return KeptResults(batch: batch, plans: scratch.pointee.keptPlans, epoch: scratch.pointee.batchEpoch)
    }

    /// The height of the batch's row `batchRow` (kind `kind`) from what the batch kept for
    /// it, without reading its values, or nil: then `engineHeightUnits` measures it (to
    /// the same height). Only for a grid item whose plan is one text in a column of known
    /// width (`RowPlans.Plan.soleText`), the row measured with the batch before (its present
    /// values kept), and the text's kept line count holding at the column's limit, as
    /// `batchLines` takes it. The batch must be the one built from the stored rows (the
    /// kept text is not checked against the row's bytes). Not inlined: in each of the
    /// engine's loops it took registers their other rows need (fiori-android's relayouts
    /// ran a third longer).
    @inline(never)
    func engineKeptHeight(_ kept: KeptResults, kind: UInt16, batchRow b: Int) -> Int64? {
        let batch = kept.batch
        guard b < batch.pointee.rowCount else { return nil }
        let stored = batch.pointee.widthRanges.baseAddress.unsafelyUnwrapped + b
        guard stored.pointee.epoch != 0 else { return nil }
        // A few plans serve most rows: their figures are kept by key, at hand without the
        // lookup's loads, each depending on the one before.
        let key = UInt64(kind) << 32 | UInt64(stored.pointee.present)
        let entry = kept.plans + KeptPlan.slot(key)
        if entry.pointee.key != key { entry.pointee = findKeptPlan(key) }
        let plan = UnsafePointer(entry)
        guard plan.pointee.maxLines >= 0 else { return nil }
        let lines: Int
        if plan.pointee.maxLines == 1 {
            lines = 1
        } else {
            let view = batch.pointee, style = plan.pointee.style, maxLines = plan.pointee.maxLines
            let t = Int(view.first[b &* view.slotsPerRow &+ plan.pointee.value])
            guard t >= 0, Int(view.style[t]) == style else { return nil }
            let memo = view.lines[t]
            let counts = !memo.partial || (maxLines > 0 && maxLines < Int(memo.count))
            let limit = plan.pointee.limit
            let now = view.current[style], from = view.measuredIn[t]
            // `batchLines`' first two answers: the kept count where it holds, else a count
            // that follows from the text's kept results (`boundedCount`).
            let holds: Bool, narrow: Double
            if from == now {
                holds = counts && limit >= Double(memo.low) && limit < Double(memo.high)
                narrow = limit
            } else {
                guard view.flags[t] & CellTextBatch.View.scalable == CellTextBatch.View.scalable else { return nil }
                let ratio = batch.pointee.scale(style: style, from: from)
                guard ratio > 0 else { return nil }
                let m = Self.scaleMargin, scaled = limit / ratio
                holds = counts && scaled >= Double(memo.low) * (1 + m) && scaled < Double(memo.high) * (1 - m)
                narrow = scaled * (1 + m)
            }
            if holds {
                lines = maxLines > 0 ? Swift.min(Int(memo.count), maxLines) : Int(memo.count)
            } else if let known = boundedCount(batch, t, memo, maxLines: maxLines, narrow: narrow) {
                lines = known.count
            } else {
                return nil
            }
        }
        if kept.epoch != 0 { stored.pointee.epoch = kept.epoch }
        let text = plan.pointee.soleConstant + Int64(lines) * plan.pointee.lineHeight
        return Swift.max(plan.pointee.padding + Swift.max(plan.pointee.constantHeight, text), plan.pointee.minHeight)
    }

    /// Fills `keptPlan` for rows of kind code and present values `key` (`engineKeptHeight`):
    /// `maxLines` -1 when their height does not follow from a kept text alone, or their
    /// plan is not compiled yet (the row measured in full compiles it).
    @inline(never)
    func findKeptPlan(_ key: UInt64) -> KeptPlan {
        var found = KeptPlan(key: key)
        let k = profile.kindIndex(UInt16(truncatingIfNeeded: key >> 32))
        guard k >= 0, scratch.pointee.textLog == nil else { return found }
        let p = program
        guard p.kinds[k].gridMode == 1 else { return found }
        let plans = scratch.pointee.plans
        let index = plans.pointee.find(RowPlans.key(kind: k, present: UInt32(truncatingIfNeeded: key), valid: scratch.pointee.rowsAreValid))
        // Not compiled yet: nothing kept, so that the next row finds it compiled.
        guard index >= 0 else { return KeptPlan() }
        let plan = plans.pointee.plans[index]
        guard plan.soleText >= 0 else { return found }
        let sp = p.slots[Int(plan.slotStart) + Int(plans.pointee.items[plan.soleText].slot)]
        let v = Int(sp.valueIndex)
        guard sp.maxLines >= 0, v >= 0, v < scratch.pointee.batch?.pointee.slotsPerRow ?? 0 else { return found }
        found.value = v
        found.style = Int(sp.style)
        found.maxLines = Int(sp.maxLines)
        found.limit = LayoutUnit.points(Swift.max(plan.soleWidth, 1)) + TextLayoutEngine.widthTolerance
        found.soleConstant = plan.soleConstant
        found.constantHeight = plan.constantHeight
        found.padding = plan.padTop + plan.padBottom
        found.minHeight = plan.minHeight
        found.lineHeight = p.lineHeights[Int(sp.style)]
        return found
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
