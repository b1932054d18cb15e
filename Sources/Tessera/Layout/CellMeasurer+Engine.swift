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
        scratch.pointee.keptKeys.update(repeating: KeptKey(), count: KeptKey.slots)
        let kinds = profile.kindByCode.count
        if scratch.pointee.keptKindCount < kinds {
            Jemalloc.free(scratch.pointee.keptKinds)
            scratch.pointee.keptKinds = Jemalloc.allocate(KeptKind.self, capacity: kinds)
            scratch.pointee.keptKindCount = kinds
        }
        scratch.pointee.keptKinds.initialize(repeating: KeptKind(), count: scratch.pointee.keptKindCount)
        scratch.pointee.trustsRows = true
        scratch.pointee.rowsAreValid = true
        scratch.pointee.batchEpoch = epoch
        scratch.pointee.recordReads = 0
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
    /// the plans' entries by key and the epoch rows are stamped with.
    struct KeptResults {
        let batch: UnsafeMutablePointer<CellTextBatch.View>
        let keys: UnsafeMutablePointer<KeptKey>
        let plans: UnsafeMutablePointer<RowPlans>
        let kinds: UnsafeMutablePointer<KeptKind>
        let kindCount: Int
        let epoch: UInt32
        /// The rows' text arena (`TextRecordReference`).
        let arena: UnsafeRawPointer

        /// Whether `engineKeptHeight` is worth asking for a row of kind `kind` (`KeptKind`).
        @inline(__always)
        func worthTrying(_ kind: UInt16) -> Bool { Int(kind) < kindCount && kinds[Int(kind)].worthTrying }
    }

    /// Rows measured from kept results that read their text record since `engineBegin`.
    var engineRecordReads: Int { scratch.pointee.recordReads }

    /// For `engineKeptHeight`, after `engineBegin`: nil without a batch (or with a text log).
    func engineKeptResults(arena: UnsafeRawPointer) -> KeptResults? {
        guard let batch = scratch.pointee.batch, scratch.pointee.textLog == nil else { return nil }
        return KeptResults(batch: batch, keys: scratch.pointee.keptKeys, plans: scratch.pointee.plans, kinds: scratch.pointee.keptKinds,
                           kindCount: scratch.pointee.keptKindCount, epoch: scratch.pointee.batchEpoch, arena: arena)
    }

    /// The height of the batch's row `batchRow` (kind `kind`) from what the batch kept for
    /// it, or nil: then `engineHeightUnits` measures it (to the same height, and for a list
    /// row the same width range). Only for a row measured with the batch before (its present
    /// values kept) whose plan has one of the shapes of `KeptPlan` and every text of it
    /// kept. Line counts and natural widths come from the kept widths (`keptLines`,
    /// `keptNaturalUnits`); only a text that needs its bytes (an emergency break, a text
    /// measured again in the current style) reads them, from the row's text record
    /// (`textReference`: its page's reference to it). The batch must be the one built from
    /// the stored rows (a kept text is not checked against the row's bytes). Not inlined: in
    /// each of the engine's loops it took registers their other rows need (fiori-android's
    /// relayouts ran a third longer).
    @inline(never)
    func engineKeptHeight(_ kept: KeptResults, kind: UInt16, batchRow b: Int, textReference: UnsafePointer<UInt32>) -> Int64? {
        let record = TextRecordReference(arena: kept.arena, reference: textReference)
        // Asked only while worth trying: `kind` is in range.
        let counts = kept.kinds + Int(kind)
        counts.pointee.tries &+= 1
        guard let height = keptHeight(kept, kind: kind, batchRow: b, record: record) else { return nil }
        counts.pointee.hits &+= 1
        return height
    }

    @inline(__always)
    func keptHeight(_ kept: KeptResults, kind: UInt16, batchRow b: Int, record: TextRecordReference) -> Int64? {
        let batch = kept.batch
        guard b < batch.pointee.rowCount else { return nil }
        let stored = batch.pointee.widthRanges.baseAddress.unsafelyUnwrapped + b
        guard stored.pointee.epoch != 0 else { return nil }
        let key = UInt64(kind) << 32 | UInt64(stored.pointee.present)
        let slot = kept.keys + KeptKey.slot(key)
        if slot.pointee.key != key { slot.pointee = findKeptPlan(key) }
        if slot.pointee.walk >= 0 {
            // `plannedHeight` for a list row, its items read from the kept results.
            let index = Int(slot.pointee.walk), width = kept.plans.pointee.plans.base[index].width
            var range = (low: width, high: width + 1)
            let row = KeptRow(batch: batch, b: b, record: record)
            guard let height = Unmanaged.passUnretained(program)._withUnsafeGuaranteedRef({
                runPlan(index, $0, row, wantsRange: kept.epoch != 0, range: &range)
            }) else { return nil }
            if kept.epoch != 0 { stored.pointee = CellTextBatch.WidthRange(range: range, width: width, epoch: kept.epoch, present: stored.pointee.present) }
            return height
        }
        guard slot.pointee.kept >= 0 else { return nil }
        let plan = UnsafePointer(kept.plans.pointee.kept.base + Int(slot.pointee.kept))
        switch plan.pointee.shape {
        case .none, .walk:
            return nil
        case .sole:
            // A grid item of a fixed width keeps no range (`plannedHeight`): its stamp
            // stays as it was.
            guard let lines = keptLines(batch, b, plan.pointee.text, width: plan.pointee.soleWidth, record) else { return nil }
            let text = plan.pointee.soleConstant + Int64(lines) * plan.pointee.text.lineHeight
            return Swift.max(plan.pointee.padding + Swift.max(plan.pointee.constantHeight, text), plan.pointee.minHeight)
        case .fill:
            return keptFillHeight(batch, b, plan, stored, record, epoch: kept.epoch)
        }
    }

    /// A row as `runPlan` reads it from kept results (`engineKeptHeight`): batch row `b`,
    /// whose values are in `record`. Texts and button labels come from the batch (nil when
    /// one is not kept); images and box stacks from their values' bytes.
    struct KeptRow: PlanRow {
        let batch: UnsafeMutablePointer<CellTextBatch.View>
        let b: Int
        let record: TextRecordReference

        @inline(__always)
        func bytes(_ sp: UnsafePointer<SlotProgram>) -> UnsafeRawBufferPointer { record.record.bytes(slot: Int(sp.pointee.valueIndex)) }

        /// An image's size as the batch keeps it parsed, else from its value.
        @inline(__always)
        func imageSize(_ sp: UnsafePointer<SlotProgram>) -> (width: Int64, height: Int64) {
            CellTextBatch.imageSize(code: batch.pointee.code(row: b, value: sp.pointee.valueIndex), default: sp.pointee.imageDefault)
                ?? CellMeasurer.imageSize(bytes(sp), sp)
        }

        /// A box stack's count as the batch keeps it parsed, else from its value.
        @inline(__always)
        func boxCount(_ sp: UnsafePointer<SlotProgram>) -> Int32 {
            guard let count = CellTextBatch.boxCount(code: batch.pointee.code(row: b, value: sp.pointee.valueIndex)) else {
                return CellMeasurer.boxCount(bytes(sp), sp)
            }
            return Swift.min(count, sp.pointee.max)
        }

        @inline(__always)
        func natural(_ m: CellMeasurer, _ item: RowPlans.Item, _ slots: UnsafePointer<SlotProgram>, _ p: CellProgram) -> Int64? {
            let s = Int(item.slot), sp = slots + s
            // The text test and the switch become one jump table (LLVM folds the test in);
            // dispatching by bit tests instead measured the same (3dfbc76, reverted).
            if item.kind == .text { return m.keptNatural(batch, b, KeptPlan.Text(sp, p), record) }
            switch item.kind {
            case .text: return nil
            case .textList: return m.keptListNatural(batch, b, sp, p, count: nil) { bytes(sp) }
            case .image, .imageMeasured:
                let size = imageSize(sp)
                m.slotState[s].height = size.height
                return size.width
            case .boxStack: return CellMeasurer.boxStackSize(sp, count: boxCount(sp)).width
            case .imageFromColumn: return 0
            case .stated: return buttonNatural(m, sp, p)
            }
        }

        /// A button's natural width (`CellMeasurer.natural`): its label's and its padding.
        @inline(__always)
        func buttonNatural(_ m: CellMeasurer, _ sp: UnsafePointer<SlotProgram>, _ p: CellProgram) -> Int64? {
            guard sp.pointee.type == .button, let label = m.keptNatural(batch, b, KeptPlan.Text(sp, p), record) else { return nil }
            return label + 2 * sp.pointee.paddingHorizontal
        }

        @inline(__always)
        func height(_ m: CellMeasurer, _ item: RowPlans.Item, _ slots: UnsafePointer<SlotProgram>, _ p: CellProgram, columnWidth: Int64) -> Int64? {
            let s = Int(item.slot), sp = slots + s
            // One jump table, as in `natural`.
            if item.kind == .text {
                let text = KeptPlan.Text(sp, p)
                guard text.maxLines >= 0 else { return nil }
                return m.keptLines(batch, b, text, width: columnWidth, record).map { Int64($0) * text.lineHeight }
            }
            switch item.kind {
            case .text: return nil
            case .textList: return m.keptListHeight(batch, b, sp, p, columnWidth: columnWidth) { bytes(sp) }
            case .image: return imageSize(sp).height
            case .imageMeasured: return m.slotState[s].height
            case .imageFromColumn: return Swift.min(Swift.max(columnWidth, sp.pointee.imageMin), sp.pointee.imageMax)
            case .boxStack: return CellMeasurer.boxStackSize(sp, count: boxCount(sp)).height
            case .stated:
                // A button (`CellMeasurer.itemHeight`): its label's lines at its width less
                // its padding, a fit one's width its natural one at most.
                guard sp.pointee.type == .button else { return nil }
                if sp.pointee.buttonHeight >= 0 { return sp.pointee.buttonHeight }
                var width = columnWidth
                if !sp.pointee.flag {
                    guard let natural = buttonNatural(m, sp, p) else { return nil }
                    width = Swift.min(natural, columnWidth)
                }
                let label = KeptPlan.Text(sp, p)
                guard label.maxLines >= 0, let lines = m.keptLines(batch, b, label, width: width - 2 * sp.pointee.paddingHorizontal, record) else { return nil }
                return Int64(lines) * label.lineHeight + 2 * sp.pointee.paddingVertical
            }
        }

        /// Kept rows keep no slot state: buttons are measured from their kept labels.
        func readSlot(_ m: CellMeasurer, _ s: Int, _ slots: UnsafePointer<SlotProgram>) -> Bool { true }
    }

    /// `keptNatural` where it is known at once (the text's natural width found before, in
    /// its current style or scaled by the ratio its style last gave), else nil: inlined in
    /// `keptFillHeight`, which calls `keptNatural` only for the rest.
    @inline(__always)
    func knownNatural(_ batch: UnsafeMutablePointer<CellTextBatch.View>, _ b: Int, _ text: KeptPlan.Text) -> Int64? {
        let t = batch.pointee.rowText(row: b, value: text.value, styleIndex: text.style)
        guard t >= 0 else { return nil }
        let known = batch.pointee.natural[t], from = batch.pointee.measuredIn[t], s = Int(text.style)
        guard known >= 0 else { return nil }
        if from == batch.pointee.current[s] { return Swift.max(LayoutUnit.unitsUp(known), 0) }
        guard batch.pointee.flags[t] & CellTextBatch.View.nonNegative != 0, batch.pointee.ratioFrom[s] == from else { return nil }
        #if TESSERA_INVARIANTS
        if batch.pointee.restylesEveryText { return nil }
        #endif
        let ratio = batch.pointee.ratio[s]
        return ratio > 0 ? Self.scaledNaturalUnits(known, ratio: ratio) : nil
    }

    /// Kept text `text` of batch row `b`: its natural width (`textNatural`), or nil when the
    /// row has no kept text for it. Out of line: most calls are for a width `knownNatural`
    /// gives first, and its frame was paid by every fill row.
    @inline(never)
    func keptNatural(_ batch: UnsafeMutablePointer<CellTextBatch.View>, _ b: Int, _ text: KeptPlan.Text, _ record: TextRecordReference) -> Int64? {
        let t = batch.pointee.rowText(row: b, value: text.value, styleIndex: text.style)
        guard t >= 0 else { return nil }
        if let ratio = batch.pointee.keptScale(t, style: text.style), let natural = keptNaturalUnits(batch, t, ratio: ratio) { return natural }
        return keptNaturalFromBytes(batch, t, text, record)
    }

    /// The widest item of text list slot `sp` of batch row `b` (`textListNatural`), or nil
    /// when its kept items do not account for its value (`count` bytes; nil: a batch built
    /// from the rows). The value's `bytes` are read only for an item the kept widths do
    /// not settle.
    @inline(__always)
    func keptListNatural(_ batch: UnsafeMutablePointer<CellTextBatch.View>, _ b: Int, _ sp: UnsafePointer<SlotProgram>, _ p: CellProgram,
                         count: Int?, _ bytes: () -> UnsafeRawBufferPointer) -> Int64? {
        guard let items = batch.pointee.listItems(row: b, sp, count: count) else { return nil }
        let style = sp.pointee.style
        var w: Int64 = 0, from = 0
        for t in items {
            let length = Int(batch.pointee.length[t])
            if let ratio = batch.pointee.keptScale(t, style: style), let units = keptNaturalUnits(batch, t, ratio: ratio) {
                w = Swift.max(w, units)
            } else {
                let item = UnsafeRawBufferPointer(rebasing: bytes()[from..<(from &+ length)])
                w = Swift.max(w, batchNatural(batch, t, item, p, style: style, ratio: keptRatio(batch, t, item, p, style: style)))
            }
            from &+= length &+ 1
        }
        return w
    }

    /// Text list slot `sp` of batch row `b` at `columnWidth` (`textListHeight`), or nil
    /// when its kept items do not account for its value (a batch built from the rows keeps
    /// only those that do). The value's `bytes` are read only for an item the kept widths
    /// do not settle.
    @inline(__always)
    func keptListHeight(_ batch: UnsafeMutablePointer<CellTextBatch.View>, _ b: Int, _ sp: UnsafePointer<SlotProgram>, _ p: CellProgram,
                        columnWidth: Int64, _ bytes: () -> UnsafeRawBufferPointer) -> Int64? {
        guard let items = batch.pointee.listItems(row: b, sp, count: nil) else { return nil }
        let style = sp.pointee.style, maxLines = Int(sp.pointee.maxLines), lineHeight = p.lineHeights[Int(style)]
        let gaps = Int64(items.count &- 1) &* sp.pointee.gap
        if maxLines == 1 { return Int64(items.count) &* lineHeight &+ gaps }
        guard maxLines >= 0 else { return nil }
        let width = LayoutUnit.points(Swift.max(columnWidth, 1))
        var h = gaps, from = 0
        for t in items {
            let length = Int(batch.pointee.length[t])
            var lines = -1
            if let ratio = batch.pointee.keptScale(t, style: style) { lines = keptLines(batch, t, width: width, maxLines: maxLines, ratio: ratio) }
            if lines < 0 {
                let item = UnsafeRawBufferPointer(rebasing: bytes()[from..<(from &+ length)])
                lines = batchLines(batch, t, item, p, style: style, width: width, maxLines: maxLines, ratio: keptRatio(batch, t, item, p, style: style))
            }
            h &+= Int64(lines) &* lineHeight
            from &+= length &+ 1
        }
        return h
    }

    /// `runPlan` and `plannedHeight` for a plan of shape `fill`, from kept results.
    @inline(always)
    func keptFillHeight(_ batch: UnsafeMutablePointer<CellTextBatch.View>, _ b: Int, _ plan: UnsafePointer<KeptPlan>,
                        _ stored: UnsafeMutablePointer<CellTextBatch.WidthRange>, _ record: TextRecordReference, epoch: UInt32) -> Int64? {
        let width = plan.pointee.width, inner = width - plan.pointee.padHorizontal
        var used = plan.pointee.usedConstant, capped = false
        var fitWidths: (Int64, Int64) = (0, 0)
        for f in 0..<plan.pointee.fitCount {
            let fit = f == 0 ? plan.pointee.fits.0 : plan.pointee.fits.1
            var w = fit.constant
            if fit.text.value >= 0 {
                guard let natural = knownNatural(batch, b, fit.text) ?? keptNatural(batch, b, fit.text, record) else { return nil }
                w = Swift.max(w, natural)
            }
            if fit.maxMode == 1 { w = Swift.min(w, fit.maxLength) }
            if fit.maxMode == 2 && w > fit.cap {
                w = fit.cap
                capped = true
            }
            if f == 0 { fitWidths.0 = w } else { fitWidths.1 = w }
            used += w
        }
        let fill = Swift.max(inner - used, 0)
        let constant = width - fill
        scratch.pointee.lineRange = nil
        guard let lines = keptLines(batch, b, plan.pointee.text, width: fill, record) else { return nil }
        let tallest = Swift.max(plan.pointee.constantHeight, plan.pointee.fillConstant + Int64(lines) * plan.pointee.text.lineHeight)
        // The width range as `runPlan` narrows it (the fill column's text bounds it).
        var range = (low: width, high: width + 1)
        if plan.pointee.fillFollowsWidth && inner - used >= 0 && !capped, let lineRange = scratch.pointee.lineRange {
            let (low, high) = CellTextBatch.WidthRange.fillWidths(lineRange)
            let fillLow = Swift.max(low ?? 1, 1), fillHigh = high ?? .max
            var uncapped: Int64 = 0
            for f in 0..<plan.pointee.fitCount {
                let fit = f == 0 ? plan.pointee.fits.0 : plan.pointee.fits.1
                if fit.maxMode == 2 {
                    uncapped = Swift.max(uncapped, Self.leastInner(reaching: f == 0 ? fitWidths.0 : fitWidths.1, fit.maxFraction, below: inner))
                }
            }
            range.low = Swift.max(Swift.max(constant, uncapped + plan.pointee.padHorizontal), fillLow &+ constant)
            range.high = fillHigh == .max ? .max : fillHigh &+ constant
        }
        if epoch != 0 { stored.pointee = CellTextBatch.WidthRange(range: range, width: width, epoch: epoch, present: stored.pointee.present) }
        return Swift.max(plan.pointee.padding + tallest, plan.pointee.minHeight)
    }

    /// Kept text `text` of batch row `b`: its line count at a column `width` units wide
    /// (`textHeight`), or nil when the row has no kept text for it.
    @inline(__always)
    func keptLines(_ batch: UnsafeMutablePointer<CellTextBatch.View>, _ b: Int, _ text: KeptPlan.Text, width: Int64, _ record: TextRecordReference) -> Int? {
        if text.maxLines == 1 { return 1 }
        let t = batch.pointee.rowText(row: b, value: text.value, styleIndex: text.style)
        guard t >= 0 else { return nil }
        let points = LayoutUnit.points(Swift.max(width, 1))
        if let ratio = batch.pointee.keptScale(t, style: text.style) {
            let lines = keptLines(batch, t, width: points, maxLines: text.maxLines, ratio: ratio)
            if lines >= 0 { return lines }
        }
        return keptLinesFromBytes(batch, t, text, width: points, record)
    }

    /// `batchLines` for kept text `t` (of `text`, in the row's `record`) where the kept
    /// widths alone do not give the count: an emergency break (bounded without the bytes
    /// where it can be, `keptEmergencyBound`), or a text measured again in the current
    /// style first.
    @inline(never)
    func keptLinesFromBytes(_ batch: UnsafeMutablePointer<CellTextBatch.View>, _ t: Int, _ text: KeptPlan.Text, width: Double,
                            _ record: TextRecordReference) -> Int {
        if let count = keptEmergencyBound(batch, t, style: text.style, width: width, maxLines: Int(text.maxLines)) { return count }
        scratch.pointee.recordReads &+= 1
        let bytes = record.record.bytes(slot: Int(text.value))
        return Unmanaged.passUnretained(program)._withUnsafeGuaranteedRef { p in
            batchLines(batch, t, bytes, p, style: text.style, width: width, maxLines: text.maxLines,
                       ratio: keptRatio(batch, t, bytes, p, style: text.style))
        }
    }

    /// `batchNatural` for kept text `t` (of `text`, in the row's `record`) where the kept
    /// widths alone do not give it.
    @inline(never)
    func keptNaturalFromBytes(_ batch: UnsafeMutablePointer<CellTextBatch.View>, _ t: Int, _ text: KeptPlan.Text, _ record: TextRecordReference) -> Int64 {
        scratch.pointee.recordReads &+= 1
        let bytes = record.record.bytes(slot: Int(text.value))
        return Unmanaged.passUnretained(program)._withUnsafeGuaranteedRef { p in
            batchNatural(batch, t, bytes, p, style: text.style, ratio: keptRatio(batch, t, bytes, p, style: text.style))
        }
    }

    /// The slot of rows of kind code and present values `key` (`engineKeptHeight`): their
    /// plan's entry in `RowPlans.kept`, made on first use (the plan compiled if need be), or
    /// -1; nothing kept (key `.max`) while the plans are full.
    @inline(never)
    func findKeptPlan(_ key: UInt64) -> KeptKey {
        let k = profile.kindIndex(UInt16(truncatingIfNeeded: key >> 32))
        guard k >= 0, scratch.pointee.textLog == nil else { return KeptKey(key: key) }
        let plans = scratch.pointee.plans, present = UInt32(truncatingIfNeeded: key), valid = scratch.pointee.rowsAreValid
        let planKey = RowPlans.key(kind: k, present: present, valid: valid)
        var index = plans.pointee.find(planKey)
        if index < 0 {
            guard plans.pointee.plans.count < RowPlans.capacity else { return KeptKey() }
            index = Unmanaged.passUnretained(program)._withUnsafeGuaranteedRef { compilePlan($0.kinds[k], $0, present, valid: valid) }
            plans.pointee.insert(planKey, index)
        }
        let kept = plans.pointee.keptIndex.base + Int(index)
        if kept.pointee == -2 {
            let found = keptPlan(k, index)
            kept.pointee = found.shape == .none ? -1 : Int32(plans.pointee.kept.count)
            if found.shape != .none { plans.pointee.kept.append(found) }
        }
        let walks = kept.pointee >= 0 && plans.pointee.kept.base[Int(kept.pointee)].shape == .walk
        return KeptKey(key: key, kept: kept.pointee, walk: walks ? index : -1)
    }

    /// What `engineKeptHeight` reads of plan `index` (of kind index `k`), or shape `none`.
    func keptPlan(_ k: Int, _ index: Int32) -> KeptPlan {
        var found = keptSoleOrFillPlan(k, index)
        // Any other list row: its plan walked.
        if found.shape == .none && scratch.pointee.batch != nil && program.kinds[k].gridMode == 0 {
            found.shape = .walk
        }
        return found
    }

    /// `keptPlan` of shape `sole` or `fill`, or `none`.
    func keptSoleOrFillPlan(_ k: Int, _ index: Int32) -> KeptPlan {
        var found = KeptPlan()
        guard let batch = scratch.pointee.batch else { return found }
        let p = program, kp = p.kinds[k], plans = scratch.pointee.plans, plan = plans.pointee.plans[index]
        guard kp.gridMode != 2 else { return found }
        let items = plans.pointee.items.base
        func text(_ item: RowPlans.Item) -> KeptPlan.Text? {
            let sp = p.slots.baseAddress.unsafelyUnwrapped + Int(plan.slotStart) + Int(item.slot)
            guard item.kind == .text, sp.pointee.maxLines >= 0, sp.pointee.valueIndex >= 0, Int(sp.pointee.valueIndex) < batch.pointee.slotsPerRow else { return nil }
            return KeptPlan.Text(sp, p)
        }
        found.constantHeight = plan.constantHeight
        found.padding = plan.padTop + plan.padBottom
        found.minHeight = plan.minHeight
        if kp.gridMode == 1 {
            guard plan.soleText >= 0, let t = text(items[Int(plan.soleText)]) else { return found }
            found.text = t
            found.soleWidth = plan.soleWidth
            found.soleConstant = plan.soleConstant
            found.shape = .sole
            return found
        }
        // A list row: one text in the fill column, fit columns of a constant or one text.
        let fits = plans.pointee.fits.base
        guard plan.needsWidths, !plan.widthFree, plan.stated.isEmpty, plan.fractions.isEmpty, plan.columns.count == 1,
              plan.fits.count <= 2 else { return found }
        let column = plans.pointee.columns.base[Int(plan.columns.lowerBound)]
        guard column.fixed < 0, column.column == plan.fill, column.items.count == 1,
              let t = text(items[Int(column.items.lowerBound)]) else { return found }
        for f in Int(plan.fits.lowerBound)..<Int(plan.fits.upperBound) {
            let fit = fits[f]
            var kept = KeptPlan.Fit(constant: fit.constant, maxMode: fit.maxMode, maxLength: fit.maxLength, cap: fit.cap, maxFraction: fit.maxFraction)
            guard fit.items.count <= 1 else { return found }
            if fit.items.count == 1 {
                guard let t = text(items[Int(fit.items.lowerBound)]) else { return found }
                kept.text = t
            }
            if found.fitCount == 0 { found.fits.0 = kept } else { found.fits.1 = kept }
            found.fitCount += 1
        }
        found.text = t
        found.width = plan.width
        found.padHorizontal = plan.padHorizontal
        found.usedConstant = plan.usedConstant
        found.fillConstant = column.constant
        found.fillFollowsWidth = plan.fillFollowsWidth
        found.shape = .fill
        return found
    }

    #if TESSERA_INVARIANTS
    /// Batch row `b`'s width range, for checking the one `engineKeptHeight` stored.
    func engineWidthRange(batchRow b: Int) -> CellTextBatch.WidthRange? {
        guard let batch = scratch.pointee.batch, b < batch.pointee.rowCount else { return nil }
        return batch.pointee.widthRanges[b]
    }
    #endif

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
