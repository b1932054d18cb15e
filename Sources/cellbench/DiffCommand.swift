import ArgumentParser
import Foundation

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Keyed diff: both output forms on DifferenceKit's case, a prepend, a sparse 1 % change, a reversal and a "
            + "shuffle, against Swift's difference(from:).inferringMoves() in the same run."
    )

    // Numbers are read as text and parsed here, so a bad value is one line naming the
    // option (ArgumentParser's own parse errors add the usage).
    @Option(help: "Rows of the 1M cases (prepend_1m, sparse_1m); the 100k cases take a tenth. 1000...20000000.")
    var rows = "1000000"

    @Option(help: "Seed of the deterministic snapshots.")
    var seed = "132472442"

    @Option(help: "Timed calls per form (the median is reported), after one warm-up. 1...1000.")
    var repetitions = "9"

    @Option(help: "Comma-separated cases to run (default: all): \((DiffCase.allCases.map(\.name) + [ApplyCase.name]).joined(separator: ", ")).")
    var cases = "all"

    @Option(help: "The peer's largest edit distance D (its time grows with D²: 4–10 s at 25000 on this machine, with the load); a case with a larger D runs the peer on fewer rows of the same shape. 1...1000000.")
    var peerMaxEdits = "\(PeerBudget.standard.maximumEdits)"

    @Flag(help: "Print one JSON object instead of the table.")
    var json = false

    func validate() throws {
        _ = try options()
    }

    func options() throws(OptionError) -> DiffSuite.Configuration {
        let rows = try OptionError.integer(self.rows, "--rows", in: 1_000...20_000_000)
        let seed = try OptionError.unsigned(self.seed, "--seed")
        let repetitions = try OptionError.integer(self.repetitions, "--repetitions", in: 1...1_000)
        let edits = try OptionError.integer(peerMaxEdits, "--peer-max-edits", in: 1...1_000_000)
        var selected: [DiffCase] = []
        var includesApply = false
        let known = (DiffCase.allCases.map(\.name) + [ApplyCase.name]).joined(separator: ", ")
        if cases == "all" {
            selected = DiffCase.allCases
            includesApply = true
        } else {
            for name in cases.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
                if name == ApplyCase.name {
                    guard !includesApply else { throw OptionError("--cases: '\(name)' given twice") }
                    includesApply = true
                    continue
                }
                guard let c = DiffCase(rawValue: name) else {
                    throw OptionError("--cases: unknown case '\(name)' (cases: \(known))")
                }
                guard !selected.contains(c) else { throw OptionError("--cases: '\(name)' given twice") }
                selected.append(c)
            }
        }
        return DiffSuite.Configuration(
            rows: rows, seed: seed, repetitions: repetitions, cases: selected, includesApply: includesApply,
            peerBudget: PeerBudget(maximumEdits: edits))
    }

    func run() throws {
        let report = try DiffSuite(configuration: try options(), progress: Progress()).run()
        if json { print(RunInfo.stamp(report.json(), seed: report.configuration.seed)) } else { report.printTable() }
    }
}

/// A bad command-line value, reported as one line naming the option.
struct OptionError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }

    /// A whole number in `range`; `_` separators allowed (1_000_000).
    static func integer(_ text: String, _ option: String, in range: ClosedRange<Int>) throws(OptionError) -> Int {
        let digits = text.replacingOccurrences(of: "_", with: "")
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigitOrSign), let value = Int(digits) else {
            throw OptionError("\(option): '\(text)' is not a whole number")
        }
        guard range.contains(value) else {
            throw OptionError("\(option): \(value) is out of range (\(range.lowerBound)...\(range.upperBound))")
        }
        return value
    }

    static func unsigned(_ text: String, _ option: String) throws(OptionError) -> UInt64 {
        let digits = text.replacingOccurrences(of: "_", with: "")
        guard let value = digits.hasPrefix("0x") ? UInt64(digits.dropFirst(2), radix: 16) : UInt64(digits) else {
            throw OptionError("\(option): '\(text)' is not a whole number in 0...\(UInt64.max)")
        }
        return value
    }
}

extension Character {
    fileprivate var isASCIIDigitOrSign: Bool { ("0"..."9").contains(self) || self == "-" || self == "+" }
}
