import ArgumentParser
import Foundation

struct Scroll: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A 120 Hz scroll through a freshly loaded list (drag, fling, jump to a row, to the end and back, rows arriving "
            + "at the top): frame times, blank rows and jump, against estimate-and-correct virtualization in the same run."
    )

    @Option(help: "Profile: \(CellRowGenerator.profiles.joined(separator: ", ")), or all.")
    var profile: String

    // Numbers are read as text and parsed here, so a bad value is one line naming the option.
    @Option(help: "Rows of the list. 100...20000000.")
    var rows = "1000000"

    @Option(help: "Seed of the deterministic rows and script.")
    var seed = "132472442"

    @Option(help: "Rows Tessera measures per frame beyond the window (nearest first). 0...100000.")
    var backgroundRows = "16"

    @Flag(help: "Print JSON instead of the table (one object; with --profile all, an object holding one per profile).")
    var json = false

    func validate() throws {
        _ = try options()
    }

    func options() throws(OptionError) -> [ScrollSuite.Configuration] {
        let rows = try OptionError.integer(self.rows, "--rows", in: 100...20_000_000)
        let seed = try OptionError.unsigned(self.seed, "--seed")
        let background = try OptionError.integer(backgroundRows, "--background-rows", in: 0...100_000)
        let names = try Self.profiles(profile)
        return names.map { ScrollSuite.Configuration(profile: $0, rows: rows, seed: seed, backgroundRows: background) }
    }

    /// `all` or one known profile name.
    static func profiles(_ name: String) throws(OptionError) -> [String] {
        if name == "all" { return CellRowGenerator.profiles }
        guard CellRowGenerator.profiles.contains(name) else {
            throw OptionError("--profile: unknown profile '\(name)' (profiles: \(CellRowGenerator.profiles.joined(separator: ", ")), all)")
        }
        return [name]
    }

    func run() throws {
        let progress = Progress()
        var reports: [ScrollReport] = []
        for (i, configuration) in try options().enumerated() {
            let report = try ScrollSuite(configuration: configuration, progress: progress).run()
            if !json {
                if i > 0 { print() }
                report.printTable()
            }
            reports.append(report)
        }
        if json { print(ScrollReport.json(reports)) }
    }
}

extension ScrollReport {
    /// One report's object, or `{"suite": "scroll", "profiles": [...]}` for several.
    static func json(_ reports: [ScrollReport]) -> String {
        reports.count == 1 ? reports[0].json()
            : RunInfo.stamp("{\"suite\": \"scroll\", \"profiles\": [" + reports.map { $0.json() }.joined(separator: ", ") + "]}", seed: reports.first?.seed)
    }
}
