import Foundation

/// A line chart as a standalone SVG document: axes (linear or log), series as polylines
/// (and dots when they have few points), horizontal reference lines, shaded spans along x
/// (the scroll phases) and a legend. Every series is a `<g class="series">` carrying its
/// name in `data-series`, so a reader (or a test) can find it.
struct SVGChart {
    struct Series {
        var name: String
        var color: String
        var points: [(x: Double, y: Double)]
    }

    struct Reference {
        var y: Double
        var label: String
    }

    struct Span {
        var from: Double
        var to: Double
        var label: String
    }

    var title: String
    var xLabel: String
    var yLabel: String
    var xLog = false
    var yLog = false
    var series: [Series] = []
    var references: [Reference] = []
    var spans: [Span] = []
    var xFormat: (Double) -> String = SVGChart.plain
    var yFormat: (Double) -> String = SVGChart.plain
    var width = 1_100.0
    var height = 420.0

    static let tessera = "#1f77b4"
    static let peer = "#d62728"
    static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"]

    /// The legend sits right of the plot, clear of the data.
    private let left = 80.0, right = 250.0, top = 40.0, bottom = 60.0

    /// The data range, padded; log axes use the positive values only.
    private func range(_ values: [Double], log: Bool, include: [Double]) -> (Double, Double) {
        var v = (values + include).filter { $0.isFinite && (!log || $0 > 0) }
        if v.isEmpty { v = log ? [1, 10] : [0, 1] }
        var lo = v.min()!, hi = v.max()!
        if log {
            lo = pow(10, floor(log10(lo)))
            hi = pow(10, ceil(log10(hi)))
            if lo == hi { hi = lo * 10 }
        } else {
            if lo > 0 { lo = 0 }
            if lo == hi { hi = lo + 1 }
            hi += (hi - lo) * 0.05
        }
        return (lo, hi)
    }

    private func ticks(_ lo: Double, _ hi: Double, log: Bool) -> [Double] {
        if log {
            // Decades; with two decades or fewer, 2x and 5x between them too.
            let fine = hi / lo <= 100.0001
            var t: [Double] = []
            var d = lo
            while d <= hi * 1.0001 {
                for m in fine ? [1.0, 2, 5] : [1.0] where d * m <= hi * 1.0001 { t.append(d * m) }
                d *= 10
            }
            return t
        }
        let raw = (hi - lo) / 6
        let magnitude = pow(10, floor(log10(raw)))
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? raw
        var t: [Double] = []
        var x = ceil(lo / step) * step
        while x <= hi + step * 1e-9 {
            t.append(x)
            x += step
        }
        return t
    }

    func render() -> String {
        let xs = series.flatMap { $0.points.map(\.x) } + spans.flatMap { [$0.from, $0.to] }
        let ys = series.flatMap { $0.points.map(\.y) }
        let (x0, x1) = range(xs, log: xLog, include: [])
        let (y0, y1) = range(ys, log: yLog, include: references.map(\.y))
        let plotW = width - left - right, plotH = height - top - bottom
        func px(_ x: Double) -> Double {
            left + plotW * (xLog ? (log10(Swift.max(x, x0)) - log10(x0)) / (log10(x1) - log10(x0)) : (x - x0) / (x1 - x0))
        }
        func py(_ y: Double) -> Double {
            let f = yLog ? (log10(Swift.max(y, y0)) - log10(y0)) / (log10(y1) - log10(y0)) : (y - y0) / (y1 - y0)
            return top + plotH * (1 - Swift.min(Swift.max(f, 0), 1))
        }
        func f(_ v: Double) -> String { String(format: "%.1f", v) }
        var s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        s += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" "
        s += "font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n"
        s += "<title>\(Self.escape(title))</title>\n"
        s += "<rect x=\"0\" y=\"0\" width=\"\(Int(width))\" height=\"\(Int(height))\" fill=\"white\"/>\n"
        s += "<text x=\"\(f(width / 2))\" y=\"22\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">\(Self.escape(title))</text>\n"
        // Spans (phases), alternately shaded, labelled at the top.
        s += "<g class=\"spans\">\n"
        for (i, span) in spans.enumerated() {
            let a = px(span.from), b = px(span.to)
            if i % 2 == 0 { s += "<rect x=\"\(f(a))\" y=\"\(f(top))\" width=\"\(f(Swift.max(b - a, 0)))\" height=\"\(f(plotH))\" fill=\"#f2f2f2\"/>\n" }
            s += "<text x=\"\(f((a + b) / 2))\" y=\"\(f(top + plotH - 6))\" text-anchor=\"middle\" font-size=\"10\" fill=\"#555\">\(Self.escape(span.label))</text>\n"
        }
        s += "</g>\n"
        // Axes, grid and ticks.
        s += "<g class=\"axes\" stroke=\"#999\" stroke-width=\"1\">\n"
        s += "<line x1=\"\(f(left))\" y1=\"\(f(top + plotH))\" x2=\"\(f(left + plotW))\" y2=\"\(f(top + plotH))\"/>\n"
        s += "<line x1=\"\(f(left))\" y1=\"\(f(top))\" x2=\"\(f(left))\" y2=\"\(f(top + plotH))\"/>\n"
        s += "</g>\n<g class=\"ticks\" font-size=\"11\" fill=\"#333\">\n"
        for t in ticks(x0, x1, log: xLog) {
            let x = px(t)
            s += "<line x1=\"\(f(x))\" y1=\"\(f(top))\" x2=\"\(f(x))\" y2=\"\(f(top + plotH))\" stroke=\"#e6e6e6\"/>"
            s += "<text x=\"\(f(x))\" y=\"\(f(top + plotH + 16))\" text-anchor=\"middle\">\(Self.escape(xFormat(t)))</text>\n"
        }
        for t in ticks(y0, y1, log: yLog) {
            let y = py(t)
            s += "<line x1=\"\(f(left))\" y1=\"\(f(y))\" x2=\"\(f(left + plotW))\" y2=\"\(f(y))\" stroke=\"#e6e6e6\"/>"
            s += "<text x=\"\(f(left - 6))\" y=\"\(f(y + 4))\" text-anchor=\"end\">\(Self.escape(yFormat(t)))</text>\n"
        }
        s += "</g>\n"
        s += "<text x=\"\(f(left + plotW / 2))\" y=\"\(f(height - 18))\" text-anchor=\"middle\">\(Self.escape(xLabel))</text>\n"
        s += "<text transform=\"translate(16 \(f(top + plotH / 2))) rotate(-90)\" text-anchor=\"middle\">\(Self.escape(yLabel))</text>\n"
        // Reference lines.
        for r in references {
            let y = py(r.y)
            s += "<g class=\"reference\" data-reference=\"\(Self.escape(r.label))\"><line x1=\"\(f(left))\" y1=\"\(f(y))\" x2=\"\(f(left + plotW))\" y2=\"\(f(y))\" "
            s += "stroke=\"#444\" stroke-dasharray=\"6 4\"/><text x=\"\(f(left + plotW - 4))\" y=\"\(f(y - 4))\" text-anchor=\"end\" fill=\"#444\">\(Self.escape(r.label))</text></g>\n"
        }
        // Series, the first drawn last so that it stays on top.
        for one in series.reversed() {
            let points = one.points.filter { $0.x.isFinite && $0.y.isFinite && (!yLog || $0.y > 0) && (!xLog || $0.x > 0) }
            s += "<g class=\"series\" data-series=\"\(Self.escape(one.name))\" data-points=\"\(points.count)\">"
            s += "<polyline fill=\"none\" stroke=\"\(one.color)\" stroke-width=\"1.4\" points=\""
            s += points.map { "\(f(px($0.x))),\(f(py($0.y)))" }.joined(separator: " ")
            s += "\"/>"
            if points.count <= 12 {
                for p in points { s += "<circle cx=\"\(f(px(p.x)))\" cy=\"\(f(py(p.y)))\" r=\"3\" fill=\"\(one.color)\"/>" }
            }
            s += "</g>\n"
        }
        // Legend.
        s += "<g class=\"legend\">\n"
        for (i, one) in series.enumerated() {
            let y = top + 10 + Double(i) * 18, x = width - right + 12
            s += "<rect x=\"\(f(x))\" y=\"\(f(y - 6))\" width=\"14\" height=\"4\" fill=\"\(one.color)\"/>"
            s += "<text x=\"\(f(x + 20))\" y=\"\(f(y))\" font-size=\"11\">\(Self.escape(one.name))</text>\n"
        }
        s += "</g>\n</svg>\n"
        return s
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// Nanoseconds as a readable time (100 ns, 10 µs, 1 ms).
    static func time(_ ns: Double) -> String {
        ns >= 1e9 ? "\(trim(ns / 1e9)) s" : ns >= 1e6 ? "\(trim(ns / 1e6)) ms" : ns >= 1e3 ? "\(trim(ns / 1e3)) µs" : "\(trim(ns)) ns"
    }

    /// Row counts as 10k, 1M.
    static func count(_ n: Double) -> String {
        n >= 1e6 ? "\(trim(n / 1e6))M" : n >= 1e3 ? "\(trim(n / 1e3))k" : trim(n)
    }

    /// A tick label: whole numbers without decimals, thousands grouped.
    static func plain(_ x: Double) -> String {
        guard x == x.rounded(), abs(x) < 1e15 else { return Report.number(x) }
        let digits = String(Int(abs(x)))
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out += "," }
            out.append(c)
        }
        return (x < 0 ? "-" : "") + out
    }

    static func trim(_ x: Double) -> String {
        x == x.rounded() ? String(Int(x)) : String(format: "%.1f", x)
    }
}
