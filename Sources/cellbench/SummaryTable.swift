/// `cellbench all`'s one table: a row per result (suite, metric, unit, value, peer,
/// speedup, target, met), in the suites' own order, and a memory row per suite.
struct SummaryTable {
    static let header = ["suite", "metric", "unit", "value", "peer", "speedup", "target", "met"]
    private(set) var rows: [[String]] = []

    mutating func add(_ results: [TimedResult], suite: String) {
        rows += results.map { $0.tableRow(suite: suite) }
    }

    /// A row a suite made itself (no target, or one the suite judged).
    mutating func add(row: [String]) {
        precondition(row.count == Self.header.count)
        rows.append(row)
    }

    /// jemalloc's allocated and resident bytes per row of a suite at its size (no target).
    mutating func add(memory: SuiteMemory, suite: String, note: String) {
        rows.append([suite, "allocated_bytes_per_row", "B/row", Report.number(memory.allocatedPerRow), "-", "-", note, "-"])
        rows.append([suite, "resident_bytes_per_row", "B/row", Report.number(memory.residentPerRow), "-", "-", "at \(memory.rows) rows", "-"])
    }

    /// Results whose target was met, missed, and without a target.
    var verdicts: (met: Int, missed: Int) {
        rows.reduce((0, 0)) { c, row in (c.0 + (row[7] == "yes" ? 1 : 0), c.1 + (row[7] == "NO" ? 1 : 0)) }
    }

    func print() {
        Report.printTable([Self.header] + rows)
        let v = verdicts
        Swift.print("\ntargets: \(v.met) met, \(v.missed) not met (reported, not asserted)")
    }

    /// The table as JSON: one object per row.
    func json() -> String {
        "[" + rows.map { row in
            "{" + zip(Self.header, row).map { "\(Report.string($0)): \(Report.string($1))" }.joined(separator: ", ") + "}"
        }.joined(separator: ", ") + "]"
    }
}
