import ArgumentParser
import Tessera

/// `cellbench`: Tessera's throughput benchmarks, each suite measured against a peer in the
/// same run. Prints results; never fails because something was slow.
@main
struct Cellbench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cellbench",
        abstract: "Throughput and memory of Tessera against the approaches it replaces, measured in one run.",
        subcommands: [Geometry.self, Corpus.self],
        // `all` becomes the default once there is more than one suite.
        defaultSubcommand: Geometry.self
    )
}

struct Geometry: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Row geometry: build, window queries, inserts, removals and height updates, "
            + "against a flat prefix array (TanStack Virtual, react-window, FlashList)."
    )

    @Option(help: "Number of rows.")
    var rows = 10_000_000

    @Option(help: "Seed of the deterministic workload.")
    var seed: UInt64 = 0x7E55_E7A

    @Option(help: "Window queries per kind (scroll, random).")
    var queries = 200_000

    @Option(help: "Tessera's operations per mutation kind (default: 100000, at most rows/4).")
    var operations: Int?

    @Option(help: "The peer's operations per mutation kind, O(n) each (default: 2e9/rows, at least 50).")
    var peerOperations: Int?

    @Flag(help: "Print one JSON object instead of the table.")
    var json = false

    func validate() throws {
        guard rows >= 8 else { throw ValidationError("--rows must be at least 8") }
        guard queries >= 1 else { throw ValidationError("--queries must be at least 1") }
        if let operations, operations < 1 || operations > rows / 4 {
            throw ValidationError("--operations must be in 1...\(rows / 4) (rows/4)")
        }
        if let peerOperations, peerOperations < 1 { throw ValidationError("--peer-operations must be at least 1") }
    }

    func run() throws {
        let m = operations ?? min(100_000, max(1, rows / 4))
        let p = min(m, peerOperations ?? max(50, 2_000_000_000 / rows))
        let suite = GeometrySuite(
            configuration: .init(rows: rows, seed: seed, queries: queries, operations: m, peerOperations: p),
            progress: Progress())
        let report = try suite.run()
        if json { print(report.json()) } else { report.printTable() }
    }
}
