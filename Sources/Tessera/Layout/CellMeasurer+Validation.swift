/// Rules as validation (README "Rules (errors) and lint (warnings)"): a row that breaks its
/// kind's rules is a typed error naming the row and the rule. Checks read the row's values,
/// not the environment's layout (a hidden chevron still counts for exclusivity); image
/// ranges use the environment's parameter values.
extension CellMeasurer {
    /// Checks one row: its offsets and UTF-8, that every value has a slot, that values
    /// parse, and the kind's rules. Nothing changes either way.
    /// - Throws: `unknownKindCode`, `invalidTextOffsets`, `invalidUTF8`, `invalidSlotValue`
    ///   (an image size or box count that does not parse), `ruleViolation` (unknown slot,
    ///   too many items, image size or aspect, missing required slot, exclusive slots).
    public func validate(kind: UInt16, utf8: UnsafeRawBufferPointer, slotOffsets: UnsafeBufferPointer<Int>, row: Int) throws(TesseraError) {
        let k = profile.kindIndex(kind)
        guard k >= 0 else { throw .unknownKindCode(kind, profile: profile.name) }
        let p = program
        let kp = p.kinds[k]
        let model = profile.model.kinds[k]
        let values = RowValues(utf8: utf8, offsets: slotOffsets)
        let n = values.slotCount
        for i in 0..<n {
            let lo = slotOffsets[i], hi = slotOffsets[i + 1]
            guard lo >= 0, lo <= hi, hi <= utf8.count else { throw .invalidTextOffsets(row: row, slot: i) }
            if let bad = firstInvalidUTF8Byte(UnsafeRawBufferPointer(rebasing: utf8[lo..<hi])) {
                throw .invalidUTF8(row: row, slot: i, byteOffset: bad)
            }
        }
        for i in Int(kp.valueCount)..<Swift.max(n, Int(kp.valueCount)) where !values.range(i).isEmpty {
            throw .ruleViolation(row: row, kind: model.name, rule: .unknownSlot(index: i, valueCount: Int(kp.valueCount)))
        }
        // Values in index order: parse, maxima, image ranges.
        for v in 0..<Int(kp.valueCount) {
            let s = Int(p.valueSlots[Int(kp.valueStart) + v])
            let sp = p.slots[Int(kp.slotStart) + s]
            let bytes = values.bytes(values.range(v))
            let name = model.slots[s].name
            switch sp.type {
            case .textList:
                let count = Self.itemCount(bytes)
                if count > Int(sp.max) { throw .ruleViolation(row: row, kind: model.name, rule: .tooManyItems(slot: name, count: count, max: Int(sp.max))) }
            case .boxStack:
                guard !bytes.isEmpty else { break }
                guard let count = Self.parseDecimal(bytes, allowFraction: false) else {
                    throw .invalidSlotValue(row: row, slot: v, problem: "\(name): expected a count 0...\(sp.max) in decimal digits, found \(Self.quoted(bytes))")
                }
                if count > Double(sp.max) { throw .ruleViolation(row: row, kind: model.name, rule: .tooManyItems(slot: name, count: Int(count), max: Int(sp.max))) }
            case .image where !sp.flag:
                guard !bytes.isEmpty || sp.always else { break }
                guard let size = Self.parseImage(bytes, default: sp.imageDefault) else {
                    throw .invalidSlotValue(row: row, slot: v, problem: "\(name): expected an image size: a side (44), width x height (110x80) or * for the default, found \(Self.quoted(bytes))")
                }
                let w = LayoutUnit.points(size.width), h = LayoutUnit.points(size.height)
                if size.width < sp.imageMin || size.width > sp.imageMax || size.height < sp.imageMin || size.height > sp.imageMax {
                    throw .ruleViolation(row: row, kind: model.name, rule: .imageSizeOutOfRange(
                        slot: name, width: w, height: h, min: LayoutUnit.points(sp.imageMin), max: LayoutUnit.points(sp.imageMax)))
                }
                if sp.wideAspect ? size.width < size.height : size.width != size.height {
                    throw .ruleViolation(row: row, kind: model.name, rule: .imageAspect(slot: name, width: w, height: h, aspect: sp.wideAspect ? "widthAtLeastHeight" : "square"))
                }
            default: break
            }
        }
        for s in 0..<Int(kp.slotCount) {
            let sp = p.slots[Int(kp.slotStart) + s]
            if sp.required && !hasValue(sp, values) {
                throw .ruleViolation(row: row, kind: model.name, rule: .missingRequired(slot: model.slots[s].name))
            }
        }
        for r in p.ruleRanges[Int(kp.ruleStart)..<Int(kp.ruleStart + kp.ruleCount)] {
            var present = 0
            for i in r where hasValue(p.slots[Int(kp.slotStart) + Int(p.ruleSlots[Int(i)])], values) { present += 1 }
            if present > 1 {
                let names = r.compactMap { i -> String? in
                    let s = Int(p.ruleSlots[Int(i)])
                    return hasValue(p.slots[Int(kp.slotStart) + s], values) ? model.slots[s].name : nil
                }
                throw .ruleViolation(row: row, kind: model.name, rule: .exclusive(present: names))
            }
        }
    }

    /// `validate(kind:utf8:slotOffsets:row:)` of a row given as strings.
    public func validate(kind: UInt16, slots: [String], row: Int) throws(TesseraError) {
        try RowValues.withThrowing(slots) { (v: RowValues) throws(TesseraError) in
            try validate(kind: kind, utf8: v.utf8, slotOffsets: v.offsets, row: row)
        }
    }

    /// Whether the row gives the slot (a rule's notion of presence: the row's value, or
    /// always-present).
    func hasValue(_ sp: SlotProgram, _ values: RowValues) -> Bool {
        if sp.always { return true }
        guard sp.valueIndex >= 0 else { return false }
        let bytes = values.bytes(values.range(Int(sp.valueIndex)))
        switch sp.type {
        case .textList: return Self.itemCount(bytes) > 0
        case .boxStack: return !bytes.isEmpty && (Self.parseDecimal(bytes, allowFraction: false) ?? 0) > 0
        default: return !bytes.isEmpty
        }
    }

    static func quoted(_ bytes: UnsafeRawBufferPointer) -> String {
        let s = String(decoding: bytes.prefix(40), as: UTF8.self)
        return "\"\(s)\(bytes.count > 40 ? "…" : "")\""
    }

    /// Checks the groups of a list (or of rows a host appends as whole groups): rows of role
    /// `cell` between headers and footers form a group, and a kind with a `groupMinimum`
    /// rule needs at least that many rows in every group that has one. Row numbers in
    /// errors are `firstRow` plus the position in `rowKinds`.
    /// - Throws: `unknownKindCode`, `ruleViolation(row:kind:rule: .groupMinimum)` naming the
    ///   first row of the kind in the short group.
    public func validateGroup(rowKinds: UnsafeBufferPointer<UInt16>, firstRow: Int = 0) throws(TesseraError) {
        let p = program
        var start = 0
        for r in 0...rowKinds.count {
            var ends = r == rowKinds.count
            if !ends {
                let k = profile.kindIndex(rowKinds[r])
                guard k >= 0 else { throw .unknownKindCode(rowKinds[r], profile: profile.name) }
                ends = profile.kinds[k].role != .cell
            }
            guard ends else { continue }
            // Rows start..<r form a group.
            for (k, kp) in p.kinds.enumerated() where kp.groupMinimum > 0 {
                let code = profile.kinds[k].code
                var count = 0, first = -1
                for i in start..<r where rowKinds[i] == code {
                    if first < 0 { first = i }
                    count += 1
                }
                if count > 0 && count < Int(kp.groupMinimum) {
                    throw .ruleViolation(row: firstRow + first, kind: profile.kinds[k].name, rule: .groupMinimum(rows: count, minimum: Int(kp.groupMinimum)))
                }
            }
            start = r + 1
        }
    }

    public func validateGroup(rowKinds: [UInt16], firstRow: Int = 0) throws(TesseraError) {
        let r = rowKinds.withUnsafeBufferPointer { b -> Result<Void, TesseraError> in
            do throws(TesseraError) { return .success(try validateGroup(rowKinds: b, firstRow: firstRow)) } catch { return .failure(error) }
        }
        try r.get()
    }
}
