import ArgumentParser
import Foundation

struct Plot: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "SVG charts from results folders: frame time and jump through the scroll run (Tessera and the peer), and "
            + "scaling curves (ns/op against rows, log scale) of window queries, inserts, measurement and diff."
    )

    @Argument(help: "A results folder (cellbench all --out); its subfolders are read too, so results of several --rows give the scaling curves.")
    var results: String

    @Option(help: "Folder for the SVG files (created if missing; files of the same names are replaced).")
    var out: String

    func run() throws {
        let data = try PlotData(folder: results)
        let charts = PlotCharts.make(data)
        guard !charts.isEmpty else { throw SuiteFailure("plot: no scroll, geometry, measure or diff results in \(results)") }
        let folder = try ResultsFolder(path: out)
        do {
            for (name, chart) in charts { try folder.write(chart.render(), name: name) }
            try folder.commit()
        } catch {
            folder.discard()
            throw error
        }
        print("plot: \(charts.count) charts in \(out)/: \(charts.map(\.name).joined(separator: ", "))")
    }
}

/// What the plots read from results folders.
struct PlotData {
    struct ScrollRun {
        var profile: String
        var rows: Int
        var phaseNames: [String]
        var phase: [Int]
        var tesseraNs: [Double], peerNs: [Double]
        var tesseraJump: [Double], peerJump: [Double]
    }

    /// A point of a scaling curve: the suite's rows, Tessera's value, the peer's value and
    /// the rows the peer ran on (the diff peer runs on fewer rows when its time would not fit).
    struct Point: Equatable {
        var rows: Double
        var value: Double
        var peer: Double?
        var peerRows: Double
    }

    var scroll: [String: ScrollRun] = [:]
    /// Curve name (suite.metric, measure per profile) → points by rows.
    var scaling: [String: [Double: Point]] = [:]

    init(folder: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw SuiteFailure("plot: \(folder) is not a results folder (no such folder)")
        }
        guard let walker = FileManager.default.enumerator(atPath: folder) else { throw SuiteFailure("plot: cannot read \(folder)") }
        var files: [String] = []
        while let next = walker.nextObject() as? String {
            // Staging folders of interrupted runs are not results.
            if next.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            if next.hasSuffix(".json") { files.append(next) }
        }
        for file in files.sorted() {
            let path = (folder as NSString).appendingPathComponent(file)
            guard let data = FileManager.default.contents(atPath: path) else { throw SuiteFailure("plot: cannot read \(path)") }
            let object: Any
            do { object = try JSONSerialization.jsonObject(with: data) } catch {
                throw SuiteFailure("plot: \(path): malformed JSON (\(Self.reason(error)))")
            }
            guard let top = object as? [String: Any] else { throw SuiteFailure("plot: \(path): malformed results (not a JSON object)") }
            try read(top, path: path)
        }
    }

    static func reason(_ error: Error) -> String {
        let e = error as NSError
        return (e.userInfo[NSDebugDescriptionErrorKey] as? String) ?? e.localizedDescription
    }

    private mutating func read(_ top: [String: Any], path: String) throws {
        let parts = (top["profiles"] as? [[String: Any]]) ?? [top]
        for o in parts {
            switch o["suite"] as? String {
            case "scroll": try readScroll(o, path: path)
            case "geometry":
                let rows = try Self.number(o["rows"], "rows", path)
                for name in ["window_query_scroll", "window_query_random", "insert_middle"] {
                    if let r = try Self.result(o, name, path) { add("geometry.\(name)", Point(rows: rows, value: r.value, peer: r.peer, peerRows: rows)) }
                }
            case "measure":
                let rows = try Self.number(o["rows"], "rows", path), profile = o["profile"] as? String ?? "?"
                if let r = try Self.result(o, "measure_all_cold", path) {
                    let peerRows = (o["peer_rows"] as? Double) ?? rows
                    add("measure.\(profile)", Point(rows: rows, value: r.value, peer: r.peer, peerRows: peerRows))
                }
            case "diff":
                guard let results = o["results"] as? [[String: Any]] else { throw SuiteFailure("plot: \(path): diff results without \"results\"") }
                for name in ["sparse_1m_batch", "prepend_1m_batch"] {
                    guard let r = results.first(where: { $0["name"] as? String == name }) else { continue }
                    let rows = try Self.number(r["rows"], "rows", path), value = try Self.number(r["value"], "value", path)
                    let peerRows = (r["peer_rows"] as? Double) ?? rows
                    // The peer's curve is at its own rows; Tessera's value there is in value_at_peer_rows.
                    add("diff.\(name)", Point(rows: rows, value: value, peer: r["peer_value"] as? Double, peerRows: peerRows))
                }
            default: continue
            }
        }
    }

    private mutating func add(_ curve: String, _ point: Point) {
        scaling[curve, default: [:]][point.rows] = point
    }

    private mutating func readScroll(_ o: [String: Any], path: String) throws {
        guard let profile = o["profile"] as? String, let series = o["series"] as? [String: Any] else {
            throw SuiteFailure("plot: \(path): scroll result without \"profile\" or \"series\"")
        }
        let rows = Int(try Self.number(o["rows"], "rows", path))
        func column(_ name: String) throws -> [Double] {
            guard let values = series[name] as? [Any] else { throw SuiteFailure("plot: \(path): scroll series without \"\(name)\"") }
            return try values.map { v in
                if v is NSNull { return 0 }
                guard let d = v as? Double else { throw SuiteFailure("plot: \(path): series \"\(name)\" holds a non-number") }
                return d
            }
        }
        let run = ScrollRun(
            profile: profile, rows: rows, phaseNames: series["phase_names"] as? [String] ?? [], phase: try column("phase").map { Int($0) },
            tesseraNs: try column("tessera_ns"), peerNs: try column("peer_ns"),
            tesseraJump: try column("tessera_jump"), peerJump: try column("peer_jump"))
        let n = run.phase.count
        guard [run.tesseraNs, run.peerNs, run.tesseraJump, run.peerJump].allSatisfy({ $0.count == n }) else {
            throw SuiteFailure("plot: \(path): scroll series of different lengths")
        }
        // The largest run of a profile is the one drawn.
        if let kept = scroll[profile], kept.rows > rows { return }
        scroll[profile] = run
    }

    static func number(_ value: Any?, _ name: String, _ path: String) throws -> Double {
        guard let d = value as? Double else { throw SuiteFailure("plot: \(path): \"\(name)\" missing or not a number") }
        return d
    }

    static func result(_ o: [String: Any], _ name: String, _ path: String) throws -> (value: Double, peer: Double?)? {
        guard let results = o["results"] as? [[String: Any]] else { throw SuiteFailure("plot: \(path): results without \"results\"") }
        guard let r = results.first(where: { $0["name"] as? String == name }) else { return nil }
        return (try number(r["value"], "\(name).value", path), r["peer_value"] as? Double)
    }
}

/// The charts drawn from `PlotData`, by file name.
enum PlotCharts {
    static func make(_ data: PlotData) -> [(name: String, chart: SVGChart)] {
        var charts: [(String, SVGChart)] = []
        for profile in data.scroll.keys.sorted() {
            let run = data.scroll[profile]!
            charts.append(("scroll_frames_\(profile).svg", frames(run)))
            charts.append(("scroll_jump_\(profile).svg", jump(run)))
        }
        let s = data.scaling
        func curve(_ name: String, _ label: String, peer: Bool, color: String) -> SVGChart.Series? {
            guard let points = s[name], !points.isEmpty else { return nil }
            let sorted = points.values.sorted { $0.rows < $1.rows }
            return SVGChart.Series(
                name: label, color: color,
                points: peer ? sorted.compactMap { p in p.peer.map { (p.peerRows, $0) } } : sorted.map { ($0.rows, $0.value) })
        }
        func scaling(_ file: String, _ title: String, _ unit: String, _ series: [SVGChart.Series?]) {
            let present = series.compactMap { $0 }.filter { !$0.points.isEmpty }
            guard !present.isEmpty else { return }
            var chart = SVGChart(title: title, xLabel: "rows (log scale)", yLabel: "\(unit) (log scale)", xLog: true, yLog: true, series: present)
            chart.xFormat = SVGChart.count
            chart.yFormat = SVGChart.time
            charts.append((file, chart))
        }
        let t = SVGChart.tessera, p = SVGChart.peer, pal = SVGChart.palette
        scaling("scaling_window_queries.svg", "Window queries: Tessera's height tree vs a flat prefix array", "time per query", [
            curve("geometry.window_query_scroll", "Tessera, scrolling", peer: false, color: t),
            curve("geometry.window_query_scroll", "flat prefix array, scrolling", peer: true, color: p),
            curve("geometry.window_query_random", "Tessera, random offsets", peer: false, color: pal[2]),
            curve("geometry.window_query_random", "flat prefix array, random offsets", peer: true, color: pal[3]),
        ])
        scaling("scaling_inserts.svg", "Insert one row in the middle: O(log n) vs O(n)", "time per insert", [
            curve("geometry.insert_middle", "Tessera", peer: false, color: t),
            curve("geometry.insert_middle", "flat prefix array", peer: true, color: p),
        ])
        let profiles = Set(s.keys.filter { $0.hasPrefix("measure.") }.map { String($0.dropFirst("measure.".count)) }).sorted()
        scaling("scaling_measurement.svg", "Measuring every row cold: Tessera vs Pango per cell", "time per row",
                profiles.enumerated().flatMap { i, profile in [
                    curve("measure.\(profile)", "Tessera, \(profile)", peer: false, color: pal[(2 * i) % pal.count]),
                    curve("measure.\(profile)", "Pango per cell, \(profile)", peer: true, color: pal[(2 * i + 1) % pal.count]),
                ] })
        scaling("scaling_diff.svg", "Keyed diff vs difference(from:).inferringMoves()", "time per row", [
            curve("diff.sparse_1m_batch", "Tessera, 4 % changed", peer: false, color: t),
            curve("diff.sparse_1m_batch", "Swift difference(from:), 4 % changed", peer: true, color: p),
            curve("diff.prepend_1m_batch", "Tessera, rows prepended", peer: false, color: pal[2]),
            curve("diff.prepend_1m_batch", "Swift difference(from:), rows prepended", peer: true, color: pal[3]),
        ])
        return charts
    }

    /// Spans of the scroll phases along x (seconds at 120 Hz).
    static func phases(_ run: PlotData.ScrollRun) -> [SVGChart.Span] {
        var spans: [SVGChart.Span] = []
        var start = 0
        for i in 1...run.phase.count where i == run.phase.count || run.phase[i] != run.phase[start] {
            let name = run.phase[start] < run.phaseNames.count ? run.phaseNames[run.phase[start]] : "phase \(run.phase[start])"
            spans.append(SVGChart.Span(from: Double(start) / 120, to: Double(i) / 120, label: name))
            start = i
        }
        return spans
    }

    static func frames(_ run: PlotData.ScrollRun) -> SVGChart {
        var chart = SVGChart(
            title: "\(run.profile), \(SVGChart.count(Double(run.rows))) rows: engine time per frame at 120 Hz",
            xLabel: "time through the scroll script (s)", yLabel: "frame time (log scale)", yLog: true,
            series: [
                .init(name: "Tessera", color: SVGChart.tessera,
                      points: run.tesseraNs.enumerated().map { (Double($0.offset) / 120, $0.element) }),
                .init(name: "estimate-and-correct peer", color: SVGChart.peer,
                      points: run.peerNs.enumerated().map { (Double($0.offset) / 120, $0.element) }),
            ],
            references: [.init(y: 8_333_333, label: "8.3 ms: a whole 120 Hz frame"), .init(y: 1_000_000, label: "1 ms: the engine's budget")],
            spans: phases(run))
        chart.yFormat = SVGChart.time
        return chart
    }

    static func jump(_ run: PlotData.ScrollRun) -> SVGChart {
        func cumulative(_ values: [Double]) -> [(x: Double, y: Double)] {
            var sum = 0.0
            return values.enumerated().map { i, v in
                sum += v
                return (Double(i) / 120, sum)
            }
        }
        return SVGChart(
            title: "\(run.profile), \(SVGChart.count(Double(run.rows))) rows: how far the row under the eye jumped (total)",
            xLabel: "time through the scroll script (s)", yLabel: "jump so far (px)",
            series: [
                .init(name: "Tessera", color: SVGChart.tessera, points: cumulative(run.tesseraJump)),
                .init(name: "estimate-and-correct peer", color: SVGChart.peer, points: cumulative(run.peerJump)),
            ],
            spans: phases(run))
    }
}
