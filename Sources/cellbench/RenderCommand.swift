import ArgumentParser
import Foundation
@_spi(Benchmarks) import Tessera

/// `cellbench render`: an SVG of the first rows of a profile's generated list (the rows of
/// `cellbench measure` with the same seed) as Tessera lays them out: cell frames, element
/// boxes with their slot names, every text on its computed lines in the style's font,
/// dividers and headers, so a person can hold it against the anatomy in the seeds.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw the first rows of a profile's generated list as the engine laid them out (SVG)."
    )

    @Option(help: "Profile: george, fiori-android, fiori-ios, fiori-ios-collection, or a path.")
    var profile: String

    @Option(help: "Content width, points.")
    var width: Double

    @Option(help: "Rows to draw (the first N).")
    var rows = 20

    @Option(help: "The SVG file to write.")
    var out: String

    @Option(help: "Seed of the deterministic rows (as cellbench measure).")
    var seed: UInt64 = 0x7E55_E7A

    @Option(help: "Platform (ios or android; default: the profile's first).")
    var platform: String?

    @Flag(help: "Edit mode.")
    var editMode = false

    @Option(help: "Font scale.")
    var fontScale = 1.0

    func validate() throws {
        guard rows >= 1, rows <= 10_000 else { throw ValidationError("--rows must be in 1...10000") }
        guard width > 0, width <= 10_000 else { throw ValidationError("--width must be in (0, 10000]") }
        guard fontScale > 0, fontScale <= 10 else { throw ValidationError("--font-scale must be in (0, 10]") }
        if let platform, LayoutEnvironment.Platform(rawValue: platform) == nil { throw ValidationError("--platform must be ios or android") }
    }

    func run() throws {
        let profile = try MeasureSuite.loadProfile(self.profile)
        let platform = self.platform.flatMap(LayoutEnvironment.Platform.init(rawValue:)) ?? profile.platforms[0]
        let environment = LayoutEnvironment(width: width, platform: platform, editMode: editMode, fontScale: fontScale)
        let cells = try CellRowGenerator.rows(profile: profile, count: rows, seed: seed)
        let measurer = try CellMeasurer(profile: profile, environment: environment)
        try MeasureSuite.validate(cells, profile, environment)
        let svg = SVGRenderer(profile: profile, measurer: measurer, rows: cells).svg()
        do { try Data(svg.utf8).write(to: URL(fileURLWithPath: out)) } catch {
            throw SuiteFailure("cannot write \(out): \(error)")
        }
        print("\(out): \(rows) rows of \(profile.name) at \(MeasureSuite.describe(environment))")
    }
}

struct SVGRenderer {
    let profile: Profile
    let measurer: CellMeasurer
    let rows: CellRows

    static let caption = 28.0
    static let margin = 8.0

    /// A font file's family and weight as an SVG viewer resolves them through fontconfig.
    static func family(of file: String) -> (family: String, weight: Int) {
        let stem = (file as NSString).lastPathComponent.components(separatedBy: ".")[0]
        let known: [String: String] = ["DroidSansFallbackFull": "Droid Sans Fallback", "NotoColorEmoji": "Noto Color Emoji",
                                       "DejaVuSans": "DejaVu Sans"]
        if let f = known[stem] { return (f, 400) }
        let parts = stem.components(separatedBy: "-")
        let weights = ["Thin": 100, "Light": 300, "Regular": 400, "Medium": 500, "SemiBold": 600, "Bold": 700, "Black": 900]
        return (parts[0], parts.count > 1 ? weights[parts[1]] ?? 400 : 400)
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for ch in s {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(ch)
            }
        }
        return out
    }

    static func n(_ x: Double) -> String {
        x == x.rounded() ? String(Int(x)) : String(format: "%.3f", x).replacingOccurrences(of: #"0+$"#, with: "", options: .regularExpression)
    }

    func svg() -> String {
        let styles = measurer.textStyles
        let env = measurer.environment
        // Where each row goes: stacked, or packed into the grid.
        var frames: [CellFrames] = []
        var places: [CellRect] = []
        rows.withColumns { kinds, utf8, offsets in
            for r in 0..<rows.count {
                frames.append(measurer.frames(kind: kinds[r], utf8: utf8, slotOffsets: CellRows.slotOffsets(offsets, row: r, slotsPerRow: rows.slotsPerRow)))
            }
        }
        var total = 0.0
        if profile.hasGrid, let grid = measurer.gridLayout(kinds: rows.kinds, text: rows.text) {
            places = grid.frames
            total = grid.height
        } else {
            var y = 0.0
            for f in frames {
                places.append(CellRect(x: 0, y: y, width: f.width, height: f.height))
                y += f.height
            }
            total = y
        }
        let top = Self.caption, left = Self.margin
        let width = env.width + 2 * Self.margin, height = total + top + Self.margin
        var s = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.n(width))" height="\(Self.n(height))" viewBox="0 0 \(Self.n(width)) \(Self.n(height))">
            <rect x="0" y="0" width="\(Self.n(width))" height="\(Self.n(height))" fill="#ffffff"/>
            <text x="\(Self.n(left))" y="17" font-family="DejaVu Sans" font-size="9" fill="#555555">\(Self.escape("\(profile.name) · \(MeasureSuite.describe(env)) · \(measurer.widthClass) · rows 0–\(rows.count - 1)"))</text>
            <g transform="translate(\(Self.n(left)) \(Self.n(top)))">
            <rect x="0" y="0" width="\(Self.n(env.width))" height="\(Self.n(total))" fill="none" stroke="#999999" stroke-width="0.5"/>

            """
        var stickyDrawn = false
        var dividers = ""
        for r in 0..<rows.count {
            let kind = profile.kind(code: rows.kinds[r])!
            let f = frames[r], p = places[r]
            let header = kind.role == .header, footer = kind.role == .footer
            let fill = header ? (kind.isSticky ? "#e8eef8" : "#eef0f2") : footer ? "#fafafa" : "#ffffff"
            s += "<g transform=\"translate(\(Self.n(p.x)) \(Self.n(p.y)))\">\n"
            s += "<rect x=\"0\" y=\"0\" width=\"\(Self.n(f.width))\" height=\"\(Self.n(f.height))\" fill=\"\(fill)\" stroke=\"#dedede\" stroke-width=\"0.4\"/>\n"
            var tag = "\(r) \(kind.name) \(Self.n(f.height))"
            if header && kind.isSticky {
                tag += stickyDrawn ? " (sticky)" : " (sticky: pinned at the top)"
                stickyDrawn = true
            }
            s += "<text x=\"\(Self.n(f.width - 2))\" y=\"7\" text-anchor=\"end\" font-family=\"DejaVu Sans\" font-size=\"5.5\" fill=\"#b05050\">\(Self.escape(tag))</text>\n"
            for slot in f.slots {
                let r0 = slot.frame
                let slotIndex = kind.slots.firstIndex { $0.name == slot.name }!
                let type = kind.slots[slotIndex].type
                if let si = measurer.styleIndex(kind: rows.kinds[r], slot: slotIndex) {
                    let style = styles[si]
                    let (family, weight) = Self.family(of: style.fontFiles[0])
                    // Not the colour emoji face: listed, it takes the digits in librsvg/Pango;
                    // fontconfig still finds it for emoji.
                    let fallbacks = style.fontFiles.dropFirst().map { Self.family(of: $0).family }.filter { $0 != "Noto Color Emoji" }
                    let fontFamily = ([family] + fallbacks).joined(separator: ", ")
                    let font = style.style.fontChain.fonts[0]
                    let scale = style.size / Double(font.unitsPerEm)
                    let ascent = Double(font.metrics.ascender) * scale, descent = -Double(font.metrics.descender) * scale
                    if type == "button" {
                        s += "<rect x=\"\(Self.n(r0.x))\" y=\"\(Self.n(r0.y))\" width=\"\(Self.n(r0.width))\" height=\"\(Self.n(r0.height))\" rx=\"6\" fill=\"none\" stroke=\"#2f6fd0\" stroke-width=\"0.75\"/>\n"
                    }
                    for t in slot.texts {
                        s += "<rect x=\"\(Self.n(t.frame.x))\" y=\"\(Self.n(t.frame.y))\" width=\"\(Self.n(t.frame.width))\" height=\"\(Self.n(t.frame.height))\" fill=\"none\" stroke=\"#e3b0b0\" stroke-width=\"0.4\"/>\n"
                        let value = Array(rowValue(r, slot.valueIndex ?? 0).utf8)
                        for (i, line) in t.lines.enumerated() {
                            var text = String(decoding: value[line.range], as: UTF8.self)
                            while let last = text.last, last == " " || last == "\n" { text.removeLast() }
                            if line.isEllipsized { text += "…" }
                            let baseline = t.frame.y + Double(i) * style.lineHeight + (style.lineHeight - ascent - descent) / 2 + ascent
                            var attributes = "font-family=\"\(Self.escape(fontFamily))\" font-size=\"\(Self.n(style.size))\" font-weight=\"\(weight)\""
                            if style.letterSpacing != 0 { attributes += " letter-spacing=\"\(Self.n(style.letterSpacing))\"" }
                            s += "<text x=\"\(Self.n(t.frame.x))\" y=\"\(Self.n(baseline))\" \(attributes) xml:space=\"preserve\" fill=\"#1d1d1f\">\(Self.escape(text))</text>\n"
                        }
                    }
                } else {
                    // Boxes, images and box stacks: outlined, with the slot's name.
                    let boxes = slot.boxes.isEmpty ? [r0] : slot.boxes
                    let round = slot.name.lowercased().contains("image") || slot.name == "punchedImage"
                    for b in boxes {
                        s += "<rect x=\"\(Self.n(b.x))\" y=\"\(Self.n(b.y))\" width=\"\(Self.n(b.width))\" height=\"\(Self.n(max(b.height, 0.5)))\"\(round ? " rx=\"4\"" : "") fill=\"#eef4fc\" stroke=\"#4a7fc8\" stroke-width=\"0.6\" stroke-dasharray=\"2 1\"/>\n"
                    }
                    s += "<text x=\"\(Self.n(r0.x + 1))\" y=\"\(Self.n(r0.y + min(6, max(r0.height, 6))))\" font-family=\"DejaVu Sans\" font-size=\"4.5\" fill=\"#2a5aa0\">\(Self.escape(slot.name))</text>\n"
                }
            }
            // A divider between consecutive cells of a group, not after the last.
            if let d = f.divider, kind.role == .cell, r + 1 < rows.count, profile.kind(code: rows.kinds[r + 1])?.role == .cell, !profile.hasGrid {
                dividers += "<line x1=\"\(Self.n(p.x + d.x))\" y1=\"\(Self.n(p.y + d.y))\" x2=\"\(Self.n(p.x + d.x + d.width))\" y2=\"\(Self.n(p.y + d.y))\" stroke=\"#3a3a3c\" stroke-width=\"0.75\"/>\n"
            }
            s += "</g>\n"
        }
        s += "<!-- dividers: between consecutive cells of a group, at the divider's inset -->\n" + dividers
        s += "</g>\n</svg>\n"
        return s
    }

    func rowValue(_ r: Int, _ slot: Int) -> String { rows.value(row: r, slot: slot) }
}
