import Foundation
import Testing
@testable import cellbench

/// The diff suite's met / not-met verdicts on known measurements.
@Suite struct DiffReportTests {
    static func measurement(rows: Int, batchMs: Double, sequentialMs: Double? = nil, allocations: (Int, Int) = (5, 1)) -> TesseraDiffMeasurement {
        TesseraDiffMeasurement(
            rows: rows, batchNanos: UInt64(batchMs * 1e6), sequentialNanos: UInt64((sequentialMs ?? batchMs * 1.5) * 1e6),
            batchCPUNanos: UInt64(batchMs * 0.9e6), sequentialCPUNanos: UInt64((sequentialMs ?? batchMs * 1.5) * 0.9e6),
            repetitions: 9, batch: BatchCounts(deletes: 1, inserts: 1, moves: 1, updates: 1),
            sequential: OperationCounts(removes: 1, inserts: 1, moves: 1, changes: 1),
            allocations: DiffAllocations(diff: allocations.0, operations: allocations.1))
    }

    static func report(
        _ c: DiffCase, rows: Int, batchMs: Double, peerSeconds: Double, peerRows: Int? = nil, batchMsAtPeerRows: Double? = nil,
        allocations: (Int, Int) = (5, 1), tenth: (Int, Int) = (5, 1)
    ) -> DiffCaseReport {
        let p = peerRows ?? rows
        return DiffCaseReport(
            diffCase: c, rows: rows, newRows: rows, plan: c.plan(rows: rows),
            tessera: measurement(rows: rows, batchMs: batchMs, allocations: allocations),
            tenthRows: rows / 10, tenthAllocations: DiffAllocations(diff: tenth.0, operations: tenth.1), peerRows: p,
            tesseraAtPeerRows: batchMsAtPeerRows.map { measurement(rows: p, batchMs: $0) },
            peer: PeerMeasurement(rows: p, nanos: UInt64(peerSeconds * 1e9), cpuNanos: UInt64(peerSeconds * 0.9e9), repetitions: 1,
                                  counts: PeerCounts()))
    }

    static func result(_ results: [TimedResult], _ name: String) -> TimedResult {
        results.first { $0.name == name }!
    }

    @Test func diffkitSpeedupTarget() {
        let met = DiffReport.results([Self.report(.diffkit, rows: 100_000, batchMs: 5, peerSeconds: 9)])
        let r = Self.result(met, "diffkit_100k_batch")
        #expect(r.speedup! > 1799 && r.speedup! < 1801)
        #expect(r.met == true)
        let missed = DiffReport.results([Self.report(.diffkit, rows: 100_000, batchMs: 10, peerSeconds: 9)])
        #expect(Self.result(missed, "diffkit_100k_batch").met == false)  // 900x
        #expect(Self.result(missed, "diffkit_100k_sequential").met == nil)
    }

    /// A peer on fewer rows is compared with Tessera on those rows, not on the full size.
    @Test func speedupComparesEqualInputs() {
        let results = DiffReport.results([
            Self.report(.reverse, rows: 100_000, batchMs: 4, peerSeconds: 2, peerRows: 12_000, batchMsAtPeerRows: 0.5)
        ])
        let r = Self.result(results, "reverse_100k_batch")
        #expect(r.value == 40)  // 4 ms / 100,000 rows
        #expect(r.peerValue > 166_666 && r.peerValue < 166_667)  // 2 s / 12,000 rows
        #expect(r.speedup! > 3999 && r.speedup! < 4001)  // 2 s / 0.5 ms
        #expect(r.met == nil)
    }

    @Test func sparseTimeTarget() {
        let diffkit = Self.report(.diffkit, rows: 100_000, batchMs: 5, peerSeconds: 9)
        let within = DiffReport.results([diffkit, Self.report(.sparse, rows: 1_000_000, batchMs: 40, peerSeconds: 9, peerRows: 200_000, batchMsAtPeerRows: 8)])
        let r = Self.result(within, "sparse_1m_time")
        #expect(r.value == 40 && r.met == true)
        #expect(r.target!.ratio(value: r.value) == 8)
        let over = DiffReport.results([diffkit, Self.report(.sparse, rows: 1_000_000, batchMs: 50, peerSeconds: 9)])
        #expect(Self.result(over, "sparse_1m_time").met == false)  // exactly 10x is not under 10x
        // Without diffkit_100k in the run, there is nothing to hold sparse_1m against.
        let alone = DiffReport.results([Self.report(.sparse, rows: 1_000_000, batchMs: 40, peerSeconds: 9)])
        #expect(!alone.contains { $0.name == "sparse_1m_time" })
    }

    @Test func constantAllocationsTarget() {
        func verdicts(_ full: (Int, Int), _ tenth: (Int, Int)) -> (Bool?, Bool?) {
            let results = DiffReport.results([Self.report(.sparse, rows: 1_000_000, batchMs: 40, peerSeconds: 9, allocations: full, tenth: tenth)])
            return (Self.result(results, "sparse_1m_allocations").met, Self.result(results, "sparse_1m_allocations_sequential").met)
        }
        #expect(verdicts((5, 1), (5, 1)) == (true, true))
        #expect(verdicts((5, 1), (4, 1)) == (false, false))  // grows with the rows
        #expect(verdicts((5, 2), (5, 2)) == (true, false))  // the sequential form allocates more than its array
        #expect(verdicts((7, 0), (7, 0)) == (false, false))  // the same count, but more than the result's arrays
        // Other cases' allocations are reported without a target.
        let other = DiffReport.results([Self.report(.shuffle, rows: 100_000, batchMs: 4, peerSeconds: 2)])
        #expect(Self.result(other, "shuffle_100k_allocations").met == nil)
    }

    @Test func jsonIsOneObjectWithEveryCase() throws {
        let cases = [Self.report(.diffkit, rows: 100_000, batchMs: 5, peerSeconds: 9),
                     Self.report(.sparse, rows: 1_000_000, batchMs: 40, peerSeconds: 9, peerRows: 200_000, batchMsAtPeerRows: 8)]
        let report = DiffReport(
            configuration: .init(rows: 1_000_000, seed: 1, repetitions: 9, cases: [.diffkit, .sparse], peerBudget: .standard),
            cases: cases, results: DiffReport.results(cases), loadBefore: nil, loadAfter: nil, checksum: 0)
        let json = report.json()
        #expect(json.hasPrefix("{\"suite\": \"diff\""))
        #expect(json.contains("\"peer_rows\": 200000") && json.contains("\"value_at_peer_rows\""))
        #expect(json.contains("\"name\": \"sparse_1m_time\""))
        #expect(json.contains("\"sparse_to_diffkit_cpu_ratio\": 8.0000"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect((object["cases"] as? [Any])?.count == 2)
        #expect((object["results"] as? [Any])?.count == 9)  // 4 per case and sparse_1m_time
    }
}
