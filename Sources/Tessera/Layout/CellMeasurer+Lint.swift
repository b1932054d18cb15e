/// Group consistency (README "lint"): warnings, never errors.
extension CellMeasurer {
    /// Runs every kind's lint entries over valid rows. Row `r` has kind `kinds[r]` and slot
    /// `s` at `utf8[offsets[r * slotsPerRow + s] ..< offsets[r * slotsPerRow + s + 1]]`.
    /// Groups are runs of cell rows between header and footer rows; `list` scope is every
    /// row. Within a scope, the rows of the kind are compared with the first of them.
    /// Rows of unknown kinds, and offsets that do not fit, are skipped.
    public func lint(kinds: UnsafeBufferPointer<UInt16>, utf8: UnsafeRawBufferPointer, offsets: UnsafeBufferPointer<Int>, slotsPerRow: Int) -> [LintWarning] {
        guard slotsPerRow >= 0, offsets.count == kinds.count * slotsPerRow + 1 else { return [] }
        let p = program
        let model = profile.model
        func row(_ r: Int) -> RowValues {
            RowValues(utf8: utf8, offsets: UnsafeBufferPointer(rebasing: offsets[r * slotsPerRow...(r + 1) * slotsPerRow]))
        }
        // Scopes: the groups, and the whole list.
        var groups: [Range<Int>] = []
        var start = 0
        for r in 0...kinds.count {
            let ends = r == kinds.count || profile.kind(code: kinds[r]).map { $0.role != .cell } ?? false
            if ends {
                if r > start { groups.append(start..<r) }
                start = r + 1
            }
        }
        var warnings: [LintWarning] = []
        for (k, kind) in model.kinds.enumerated() {
            let kp = p.kinds[k]
            for entry in kind.lints {
                let scopes = entry.scopeIsList ? [0..<kinds.count] : groups
                for scope in scopes {
                    let rows = scope.filter { kinds[$0] == kind.code }
                    guard rows.count > 1 else { continue }
                    var differing: [Int] = []
                    let check: LintWarning.Check
                    var slotName: String? = nil
                    switch entry.lint {
                    case .groupConsistent(let name):
                        check = .groupConsistent
                        slotName = name
                        let sp = p.slots[Int(kp.slotStart) + kind.slotIndex(named: name)!]
                        let lacking = rows.filter { !hasValue(sp, row($0)) }
                        if lacking.count < rows.count { differing = lacking }
                    case .consistentCount(let name):
                        check = .consistentCount
                        slotName = name
                        let sp = p.slots[Int(kp.slotStart) + kind.slotIndex(named: name)!]
                        let counts = rows.map { itemCount(sp, row($0)) }
                        differing = zip(rows, counts).filter { $0.1 != counts[0] }.map(\.0)
                    case .consistentSize(let name):
                        check = .consistentSize
                        slotName = name
                        let sp = p.slots[Int(kp.slotStart) + kind.slotIndex(named: name)!]
                        let sizes = rows.map { r -> [Int64] in
                            let v = row(r)
                            guard sp.always || !v.range(Int(sp.valueIndex)).isEmpty else { return [] }
                            let size = Self.parseImage(v.bytes(v.range(Int(sp.valueIndex))), default: sp.imageDefault)
                            return size.map { [$0.width, $0.height] } ?? []
                        }
                        differing = zip(rows, sizes).filter { $0.1 != sizes[0] }.map(\.0)
                    case .consistentHeight:
                        check = .consistentHeight
                        let heights = rows.map { heightUnits(kind: kind.code, row($0)) }
                        differing = zip(rows, heights).filter { $0.1 != heights[0] }.map(\.0)
                    }
                    if !differing.isEmpty {
                        warnings.append(LintWarning(check: check, kind: kind.name, slot: slotName, scope: scope, rows: differing))
                    }
                }
            }
        }
        return warnings
    }

    /// `lint` over a `RowText` batch.
    public func lint(kinds: [UInt16], text: RowText) -> [LintWarning] {
        kinds.withUnsafeBufferPointer { k in
            text.utf8.withUnsafeBytes { u in
                text.offsets.withUnsafeBufferPointer { o in lint(kinds: k, utf8: u, offsets: o, slotsPerRow: text.slotsPerRow) }
            }
        }
    }

    private func itemCount(_ sp: SlotProgram, _ v: RowValues) -> Int {
        guard sp.valueIndex >= 0 else { return 0 }
        let bytes = v.bytes(v.range(Int(sp.valueIndex)))
        if sp.type == .textList { return Self.itemCount(bytes) }
        return bytes.isEmpty ? 0 : Int(Self.parseDecimal(bytes, allowFraction: false) ?? 0)
    }
}
