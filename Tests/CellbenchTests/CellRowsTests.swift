import Testing
import Tessera
@testable import cellbench

@Suite struct CellRowsTests {
    /// `--grouped-rows` reorders the generated rows and changes nothing else: the same rows,
    /// ordered by kind and then by which values are present, ties in generated order.
    @Test(arguments: CellRowGenerator.profiles)
    func groupedRowsAreTheRowsOrderedByKindAndPresentValues(_ name: String) throws {
        let profile = try MeasureSuite.loadProfile(name)
        let rows = try CellRowGenerator.rows(profile: profile, count: 600, seed: 7)
        let grouped = rows.groupedByPresentValues()
        func values(_ r: CellRows, _ i: Int) -> [String] { (0..<r.slotsPerRow).map { r.value(row: i, slot: $0) } }
        // The reference: a stable sort of whole rows on a key read from their strings.
        let expected = (0..<rows.count).map { i in (kind: rows.kinds[i], values: values(rows, i), index: i) }.sorted {
            let a = ($0.kind, $0.values.map { $0.isEmpty ? 0 : 1 }), b = ($1.kind, $1.values.map { $0.isEmpty ? 0 : 1 })
            if a.0 != b.0 { return a.0 < b.0 }
            // Value 0's presence is the lowest bit of the grouping key: compare from the last value down.
            if a.1 != b.1 { return a.1.reversed().lexicographicallyPrecedes(b.1.reversed()) }
            return $0.index < $1.index
        }
        #expect(grouped.count == rows.count)
        #expect(grouped.utf8.count == rows.utf8.count)
        for (i, row) in expected.enumerated() {
            #expect(grouped.kinds[i] == row.kind && values(grouped, i) == row.values, "row \(i)")
        }
    }
}
