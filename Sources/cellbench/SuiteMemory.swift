import Tessera

/// jemalloc's growth across the part of a suite that holds its data at full size (what a
/// suite reports as bytes per row at its size): `stats.allocated` (live bytes) and
/// `stats.resident` (resident pages jemalloc maps, freed ones it has not returned included).
struct SuiteMemory: Equatable {
    var rows: Int
    var allocated: Int
    var resident: Int

    init(rows: Int, allocated: Int, resident: Int) {
        self.rows = rows
        self.allocated = allocated
        self.resident = resident
    }

    init(rows: Int, from a: MemoryStatistics, to b: MemoryStatistics) {
        self.init(rows: rows, allocated: b.allocated - a.allocated, resident: b.resident - a.resident)
    }

    var allocatedPerRow: Double { rows > 0 ? Double(allocated) / Double(rows) : 0 }
    var residentPerRow: Double { rows > 0 ? Double(resident) / Double(rows) : 0 }

    /// The larger growth of two (the suite's fullest moment).
    func max(_ other: SuiteMemory) -> SuiteMemory { other.allocated > allocated ? other : self }

    func json(what: String) -> String {
        "{\"rows\": \(rows), \"allocated_bytes\": \(allocated), \"resident_bytes\": \(resident), "
            + "\"allocated_bytes_per_row\": \(Report.json(allocatedPerRow)), \"resident_bytes_per_row\": \(Report.json(residentPerRow)), "
            + "\"what\": \(Report.string(what))}"
    }
}
