#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser

/// `cellbench corpus`: writes the text benchmark's corpus to a file, for the Pango harness
/// (`Benchmarks/pango`) or for reproducing a run by hand.
struct Corpus: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the deterministic text corpus of the text benchmark (UTF-8, one string per line).",
        discussion: """
            The file holds every string followed by LF; strings contain no control characters, \
            so string i is line i. --groups writes each string's script group (latin, greek, \
            cyrillic, cjk, emoji, mixed) one per line, in the same order. A summary goes to stderr.
            """
    )

    @Option(help: "Number of strings.")
    var strings = 100_000

    @Option(help: "Seed of the deterministic corpus.")
    var seed: UInt64 = 0x7E55_E7A

    @Option(help: "The corpus file to write.")
    var out: String

    @Option(help: "Also write the script group of each string, one per line, to this file.")
    var groups: String?

    func validate() throws {
        guard strings >= 1 else { throw ValidationError("--strings must be at least 1") }
    }

    func run() throws {
        let corpus = TextCorpus(count: strings, seed: seed)
        try corpus.write(to: out)
        if let groups { try corpus.writeGroups(to: groups) }

        var counts: [ScriptGroup: Int] = [:]
        for group in corpus.groups { counts[group, default: 0] += 1 }
        let lengths = corpus.strings.map(\.count).sorted()
        let bytes = corpus.strings.reduce(0) { $0 + $1.utf8.count + 1 }
        var summary = "corpus: \(strings) strings, seed \(seed), \(bytes) bytes → \(out)\n"
        summary += "  characters: min \(lengths.first!), median \(lengths[lengths.count / 2]), "
            + "p90 \(lengths[lengths.count * 9 / 10]), max \(lengths.last!)\n  groups:"
        for group in ScriptGroup.allCases {
            let n = counts[group, default: 0]
            let percent = Double(n * 1000 / strings) / 10
            summary += " \(group.rawValue) \(n) (\(percent) %)"
        }
        printError(summary)
    }
}

private func printError(_ text: String) {
    var line = text + "\n"
    line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}
