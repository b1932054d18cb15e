import Foundation

/// What a result is held against. Targets are printed with their verdict; cellbench never
/// fails because one is missed (benchmarks assert nothing about speed).
enum Target {
    /// `peer / value >= x` (time units: Tessera at least x times faster).
    case speedupAtLeast(Double)
    /// `value < x`.
    case below(Double)
    /// `value <= x`.
    case atMost(Double)
    /// `referenceValue / value >= factor`: at least `factor` times faster than another
    /// metric of the same run (`reference` names it).
    case fasterThan(reference: String, factor: Double, referenceValue: Double)
    /// `value < factor * referenceValue`: under `factor` times another metric of the same
    /// run (`reference` names it), for example a 10x larger input in under 10x the time.
    case withinFactor(reference: String, factor: Double, referenceValue: Double)
    /// `value == referenceValue && value <= bound`: the same count as another measurement
    /// (`reference` names it, for example the same case at a tenth of the rows) and at most
    /// `bound`, so the count does not grow with the input.
    case constant(reference: String, referenceValue: Double, bound: Double)

    func met(value: Double, speedup: Double?) -> Bool {
        switch self {
        case .speedupAtLeast(let x): (speedup ?? 0) >= x
        case .below(let x): value < x
        case .atMost(let x): value <= x
        case .fasterThan(_, let factor, let reference): value > 0 && reference / value >= factor
        case .withinFactor(_, let factor, let reference): reference > 0 && value < factor * reference
        case .constant(_, let reference, let bound): value == reference && value <= bound
        }
    }

    func text(unit: String) -> String {
        switch self {
        case .speedupAtLeast(let x): "speedup >= \(Report.number(x))"
        case .below(let x): "< \(Report.number(x)) \(unit)"
        case .atMost(let x): "<= \(Report.number(x)) \(unit)"
        case .fasterThan(let name, let factor, _): "\(name)/this >= \(Report.number(factor))"
        case .withinFactor(let name, let factor, _): "this/\(name) < \(Report.number(factor))"
        case .constant(let name, let reference, let bound): "= \(Report.number(reference)) (\(name)), <= \(Report.number(bound))"
        }
    }

    /// The ratio a `fasterThan` (reference / value) or `withinFactor` (value / reference)
    /// target is held against (nil for the others).
    func ratio(value: Double) -> Double? {
        switch self {
        case .fasterThan(_, _, let reference) where value > 0: reference / value
        case .withinFactor(_, _, let reference) where reference > 0: value / reference
        default: nil
        }
    }
}

/// One timed metric: Tessera's value and the peer's, measured in the same run.
struct TimedResult {
    var name: String
    var unit: String
    var value: Double
    var peerValue: Double
    var target: Target?
    /// How many operations each side did, for the notes.
    var operations: Int
    var peerOperations: Int
    /// A rate rather than a time (rows per millisecond): the speedup is `value / peer`.
    var higherIsBetter = false
    /// Tessera's value on the peer's input when the peer ran on a smaller input than
    /// `value` was measured on (the O(ND) diff peer): the speedup compares equal inputs.
    var valueAtPeerSize: Double? = nil

    /// How many times better Tessera is: `peer / value` for times, `value / peer` for rates
    /// (nil when a value is zero), on the same input.
    var speedup: Double? {
        let own = valueAtPeerSize ?? value
        guard own > 0 && peerValue > 0 else { return nil }
        return higherIsBetter ? own / peerValue : peerValue / own
    }
    var met: Bool? { target.map { $0.met(value: value, speedup: speedup) } }

    /// This result's row of a suite's table (a `fasterThan` target shows its ratio).
    func tableRow(suite: String) -> [String] {
        var targetText = target?.text(unit: unit) ?? "-"
        if let r = target?.ratio(value: value) { targetText += " (\(Report.number(r))x)" }
        return [suite, name, unit, Report.number(value), peerValue.isNaN ? "-" : Report.number(peerValue),
                speedup.map { Report.number($0) + "x" } ?? "-", targetText, met.map { $0 ? "yes" : "NO" } ?? "-"]
    }

    /// The JSON members every suite writes for a result, `extra` (", \"key\": value"...)
    /// appended before the closing brace.
    func json(peer: String, extra: String = "") -> String {
        var o = "{\"name\": \(Report.string(name)), \"unit\": \(Report.string(unit)), "
        o += "\"value\": \(Report.json(value)), \"peer\": \(Report.string(peer)), "
        o += "\"peer_value\": \(Report.json(peerValue)), \"speedup\": \(Report.json(speedup))"
        if let target {
            o += ", \"target\": \(Report.string(target.text(unit: unit))), \"met\": \(met! ? "true" : "false")"
            if let r = target.ratio(value: value) { o += ", \"target_ratio\": \(Report.json(r))" }
        }
        return o + extra + "}"
    }
}

/// Memory of the store and of the peer, from jemalloc's `stats.allocated`.
struct MemoryResult {
    var bytesPerRow: Double
    var bytesPerRowStore: Double
    /// `stats.allocated` and `stats.resident` growth across building the store.
    var allocatedBytes: Int
    var residentBytes: Int
    /// The process's totals right after the build.
    var processAllocatedBytes: Int
    var processResidentBytes: Int
    /// `store.memory` right after the build.
    var pages: Int, textReferences: Int, tree: Int, idIndex: Int, textArena: Int, scratch: Int
    var peerBytesPerRow: Double
    var peerAllocatedBytes: Int

    static let bytesPerRowTarget = 16.0
    static let bytesPerRowStoreTarget = 32.0

    static let note = """
        allocated_bytes = growth of jemalloc stats.allocated across RowStore(estimatedHeights:) \
        + append(ids:kinds:heights:) of all rows (the input columns were allocated before the \
        first reading; temporaries freed by the end do not count). \
        bytes_per_row_store = (allocated_bytes - store.memory.textArena) / rows: the whole \
        store (pages, tree, id index, scratch page). \
        bytes_per_row = (allocated_bytes - store.memory.idIndex - textArena - scratch - \
        text_reference_bytes - contentVersions) / rows, where text_reference_bytes = \
        store.memory.textReferences, the text-reference column's 4 bytes per row slot of the \
        pages, and contentVersions the content-version column's 8 (a slot is id 8, height 3, \
        kind 2, flags 2, content version 8, text reference 4 = 27 bytes): the fixed per-row \
        columns (id, height, kind, flags) plus the summary tree. \
        resident_bytes = growth of stats.resident over the same span (includes pages of freed \
        temporaries jemalloc has not yet returned). peer_bytes_per_row = stats.allocated growth \
        across building the flat prefix array / rows (offset 8 + id 8 + height 4 + kind 2).
        """
}

struct GeometryReport {
    var rows: Int
    var seed: UInt64
    var results: [TimedResult]
    var memory: MemoryResult
    var notes: [String]
    var checksum: UInt64

    static let suite = "geometry"
    static let peerName = "flat prefix array"
    static let targetRows = 10_000_000

    // MARK: Table

    func printTable() {
        var table: [[String]] = [["suite", "metric", "unit", "tessera", "peer", "speedup", "target", "met"]]
        table += results.map { $0.tableRow(suite: Self.suite) }
        let m = memory
        let memoryRows: [(String, String, Double, Double?, Double?)] = [
            ("bytes_per_row", "B/row", m.bytesPerRow, nil, MemoryResult.bytesPerRowTarget),
            ("bytes_per_row_store", "B/row", m.bytesPerRowStore, m.peerBytesPerRow, MemoryResult.bytesPerRowStoreTarget),
            ("allocated_bytes", "B", Double(m.allocatedBytes), Double(m.peerAllocatedBytes), nil),
            ("resident_bytes", "B", Double(m.residentBytes), nil, nil),
        ]
        for (name, unit, value, peer, target) in memoryRows {
            table.append([
                Self.suite, name, unit, Report.number(value), peer.map { Report.number($0) } ?? "-", "-",
                target.map { "<= \(Report.number($0)) \(unit)" } ?? "-",
                target.map { value <= $0 ? "yes" : "NO" } ?? "-",
            ])
        }
        Report.printTable(table)
        print()
        print("rows: \(rows), seed: \(seed), peer: \(Self.peerName) (the same queries and operations, same run)")
        for note in notes { print("note: \(note)") }
        print("store: pages \(m.pages) B (text references \(m.textReferences) B), tree \(m.tree) B, id index \(m.idIndex) B, text arena \(m.textArena) B, scratch \(m.scratch) B")
        print("memory: \(MemoryResult.note)")
        print("checksum: \(String(checksum, radix: 16))")
    }

    // MARK: JSON

    /// Exactly one JSON object, keys in a fixed order.
    func json() -> String {
        var out = "{"
        out += "\"suite\": \(Report.string(Self.suite)), \"rows\": \(rows), \"seed\": \(seed), "
        out += "\"peer\": \(Report.string(Self.peerName)), \"results\": ["
        out += results.map {
            $0.json(peer: Self.peerName, extra: ", \"operations\": \($0.operations), \"peer_operations\": \($0.peerOperations)")
        }.joined(separator: ", ")
        out += "], \"memory\": {"
        let m = memory
        out += "\"bytes_per_row\": \(Report.json(m.bytesPerRow)), "
        out += "\"bytes_per_row_store\": \(Report.json(m.bytesPerRowStore)), "
        out += "\"allocated_bytes\": \(m.allocatedBytes), \"resident_bytes\": \(m.residentBytes), "
        out += "\"process_allocated_bytes\": \(m.processAllocatedBytes), "
        out += "\"process_resident_bytes\": \(m.processResidentBytes), "
        out += "\"store\": {\"pages\": \(m.pages), \"tree\": \(m.tree), \"id_index\": \(m.idIndex), "
        out += "\"text_arena\": \(m.textArena), \"scratch\": \(m.scratch), "
        out += "\"text_reference_bytes\": \(m.textReferences)}, "
        out += "\"peer_bytes_per_row\": \(Report.json(m.peerBytesPerRow)), "
        out += "\"peer_allocated_bytes\": \(m.peerAllocatedBytes), "
        out += "\"targets\": {\"bytes_per_row\": {\"target\": \"<= \(Report.number(MemoryResult.bytesPerRowTarget))\", "
        out += "\"met\": \(m.bytesPerRow <= MemoryResult.bytesPerRowTarget)}, "
        out += "\"bytes_per_row_store\": {\"target\": \"<= \(Report.number(MemoryResult.bytesPerRowStoreTarget))\", "
        out += "\"met\": \(m.bytesPerRowStore <= MemoryResult.bytesPerRowStoreTarget)}}, "
        out += "\"note\": \(Report.string(MemoryResult.note))}, "
        out += "\"notes\": [\(notes.map(Report.string).joined(separator: ", "))], "
        out += "\"checksum\": \(Report.string(String(checksum, radix: 16)))}"
        return out
    }
}

enum Report {
    /// Prints rows of cells in aligned columns, numbers (columns 3 to 5) right-aligned, a
    /// rule under the header row.
    static func printTable(_ table: [[String]]) {
        let widths = (0..<table[0].count).map { c in table.map { $0[c].count }.max()! }
        for (i, line) in table.enumerated() {
            let cells = line.enumerated().map { c, cell in
                c >= 3 && c <= 5 ? String(repeating: " ", count: widths[c] - cell.count) + cell
                    : cell + String(repeating: " ", count: widths[c] - cell.count)
            }
            print(cells.joined(separator: "  ").trimmingCharacters(in: .whitespaces))
            if i == 0 { print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")) }
        }
    }

    /// A readable number: 3 significant decimals for small values, fewer for large ones.
    static func number(_ x: Double) -> String {
        let a = abs(x)
        let format = a >= 1000 ? "%.0f" : a >= 100 ? "%.1f" : a >= 10 ? "%.2f" : "%.3f"
        return String(format: format, x)
    }

    static func json(_ x: Double?) -> String {
        guard let x, x.isFinite else { return "null" }
        return String(format: "%.4f", x)
    }

    static func string(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 { out += String(format: "\\u%04x", u.value) } else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }
}
