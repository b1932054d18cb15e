import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import cellbench

/// `cellbench plot`: well-formed SVG with the expected series from results JSON, and
/// malformed results refused with one line and no file written.
@Suite struct PlotTests {
    /// The SVG's series (`<g class="series" data-series=...>`) and reference lines, read by
    /// XMLParser: parsing fails on anything not well-formed.
    final class SVGReader: NSObject, XMLParserDelegate {
        var series: [String] = []
        var references: [String] = []
        var root: String?
        var polylines = 0

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            if root == nil { root = name }
            if name == "g", attributes["class"] == "series", let s = attributes["data-series"] { series.append(s) }
            if name == "g", attributes["class"] == "reference", let r = attributes["data-reference"] { references.append(r) }
            if name == "polyline" { polylines += 1 }
        }

        static func read(_ svg: String) -> SVGReader? {
            let reader = SVGReader()
            let parser = XMLParser(data: Data(svg.utf8))
            parser.delegate = reader
            return parser.parse() ? reader : nil
        }
    }

    static func folder(_ name: String) -> String {
        (NSTemporaryDirectory() as NSString).appendingPathComponent("cellbench-plot-tests-\(getpid())-\(name)")
    }

    /// A small scroll run's JSON and geometry/measure/diff results at two sizes.
    static func writeResults(to path: String) throws {
        let fm = FileManager.default
        try fm.createDirectory(atPath: path + "/rows-2000", withIntermediateDirectories: true)
        let report = try ScrollSuite(configuration: .init(profile: "george", rows: 1_000, seed: 3, backgroundRows: 2),
                                     progress: Progress(enabled: false)).run()
        try Data(ScrollReport.json([report]).utf8).write(to: URL(fileURLWithPath: path + "/scroll.json"))
        for (rows, folder) in [(1_000, path), (2_000, path + "/rows-2000")] {
            let geometry = """
                {"suite": "geometry", "rows": \(rows), "results": [{"name": "window_query_scroll", "value": 70, "peer_value": 80},
                {"name": "window_query_random", "value": 300, "peer_value": 320}, {"name": "insert_middle", "value": 1800, "peer_value": \(rows * 5)}]}
                """
            let measure = """
                {"suite": "measure", "profiles": [{"suite": "measure", "profile": "george", "rows": \(rows), "peer_rows": 500,
                "results": [{"name": "measure_all_cold", "value": 1400, "peer_value": 93000}]}]}
                """
            let diff = """
                {"suite": "diff", "rows": \(rows), "results": [{"name": "sparse_1m_batch", "rows": \(rows), "value": 40, "peer_rows": \(rows / 2), "peer_value": 16000}]}
                """
            for (name, text) in [("geometry", geometry), ("measure", measure), ("diff", diff)] {
                try Data(text.utf8).write(to: URL(fileURLWithPath: "\(folder)/\(name).json"))
            }
        }
    }

    @Test func chartsAreWellFormedSVGWithTheirSeries() throws {
        let results = Self.folder("results"), plots = Self.folder("plots")
        defer { for p in [results, plots] { try? FileManager.default.removeItem(atPath: p) } }
        try Self.writeResults(to: results)
        let data = try PlotData(folder: results)
        #expect(data.scroll["george"]?.tesseraNs.count == ScrollScript(seed: 3, rows: 1_000).frames.count)
        #expect(data.scaling["geometry.insert_middle"]?.count == 2 && data.scaling["diff.sparse_1m_batch"]?[2_000]?.peerRows == 1_000)

        try Plot.parse([results, "--out", plots]).run()
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: plots))
        #expect(files == ["scroll_frames_george.svg", "scroll_jump_george.svg", "scaling_window_queries.svg", "scaling_inserts.svg",
                          "scaling_measurement.svg", "scaling_diff.svg"])
        func read(_ file: String) throws -> SVGReader {
            let svg = try String(contentsOfFile: plots + "/" + file, encoding: .utf8)
            return try #require(SVGReader.read(svg), "\(file) is not well-formed XML")
        }
        let frames = try read("scroll_frames_george.svg")
        #expect(frames.root == "svg")
        #expect(Set(frames.series) == ["Tessera", "estimate-and-correct peer"])
        #expect(frames.references == ["8.3 ms: a whole 120 Hz frame", "1 ms: the engine's budget"])
        #expect(Set(try read("scroll_jump_george.svg").series) == ["Tessera", "estimate-and-correct peer"])
        #expect(try read("scaling_window_queries.svg").series.count == 4)
        #expect(Set(try read("scaling_inserts.svg").series) == ["Tessera", "flat prefix array"])
        #expect(Set(try read("scaling_measurement.svg").series) == ["Tessera, george", "Pango per cell, george"])
        #expect(Set(try read("scaling_diff.svg").series) == ["Tessera, 4 % changed", "Swift difference(from:), 4 % changed"])
    }

    @Test func aChartEscapesTextAndDrawsEveryPoint() throws {
        var chart = SVGChart(title: "a <b> & \"c\"", xLabel: "x", yLabel: "y", xLog: true, yLog: true)
        chart.series = [.init(name: "s&t", color: "#000", points: [(10, 1), (100, 10), (1_000, 100)])]
        let reader = try #require(SVGReader.read(chart.render()))
        #expect(reader.series == ["s&t"] && reader.polylines == 1)
        #expect(chart.render().contains("data-points=\"3\""))
    }

    @Test func malformedResultsAreOneLineAndWriteNothing() throws {
        let results = Self.folder("bad"), plots = Self.folder("bad-plots")
        defer { for p in [results, plots] { try? FileManager.default.removeItem(atPath: p) } }
        try FileManager.default.createDirectory(atPath: results, withIntermediateDirectories: true)
        for (text, expected) in [("{\"suite\": \"geometry\", \"rows\": ", "malformed JSON"), ("[1, 2]", "not a JSON object"),
                                 ("{\"suite\": \"scroll\", \"profile\": \"george\", \"rows\": 5}", "without"),
                                 ("{\"suite\": \"geometry\", \"rows\": \"many\", \"results\": []}", "not a number")] {
            try Data(text.utf8).write(to: URL(fileURLWithPath: results + "/bad.json"))
            do {
                try Plot.parse([results, "--out", plots]).run()
                Issue.record("accepted \(text)")
            } catch {
                let message = "\(error)"
                #expect(message.contains("bad.json") && message.contains(expected) && !message.contains("\n"), "\(message)")
            }
            #expect(!FileManager.default.fileExists(atPath: plots))
        }
        #expect(throws: (any Error).self) { try Plot.parse([Self.folder("missing"), "--out", plots]).run() }
        #expect(throws: (any Error).self) { try Plot.parse([results]) }
    }
}
