import Testing
@_spi(Benchmarks) @testable import Tessera

/// The measurer's shortcuts must not change a height: a text limited to one line is one
/// line whatever it holds, and trusted rows measure as validated ones.
@Suite struct MeasureShortcutTests {
    static let texts = [
        "", " ", "a", "Hello world", "ends with a newline\n", "\n", "\n\n\n", "two\nlines", "tab\there",
        String(repeating: "long words that wrap many times ", count: 40), "Rechnungsbetragsübersichtsvorlage",
        "日本語のテキストを折り返す", "emoji 🎉🎉🎉 and flags 🇦🇹🇩🇪", "trailing spaces     ", "\u{2028}separator",
    ]

    @Test func oneLineLimitIsOneLine() throws {
        let font = try Font(path: "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf")
        let style = try TextStyle(fonts: [font], size: 15, lineHeight: 20)
        let engine = TextLayoutEngine()
        for text in Self.texts {
            for width in [0.015625, 1, 10, 40, 200, 1e6] {
                #expect(try engine.measure(text, style: style, width: width, maxLines: 1).lineCount == 1, "\(text) at \(width)")
            }
        }
    }

    @Test func trustedRowsMeasureAsChecked() throws {
        let profile = try Profile.load(path: "Profiles/george.json")
        let m = try CellMeasurer(profile: profile, environment: LayoutEnvironment(width: 375, platform: .ios))
        let code = profile.kind(named: "transaction")!.code
        var text = RowText(slotsPerRow: 5)
        for t in Self.texts where !t.isEmpty { text.append([t, t, t, t, t]) }
        let kinds = [UInt16](repeating: code, count: text.offsets.count / 5)
        var checked = [Double](repeating: 0, count: kinds.count), trusted = checked
        try kinds.withUnsafeBufferPointer { k in
            try text.utf8.withUnsafeBytes { u in
                try text.offsets.withUnsafeBufferPointer { o in
                    try checked.withUnsafeMutableBufferPointer { try m.heights(kinds: k, utf8: u, offsets: o, slotsPerRow: 5, into: $0) }
                    try trusted.withUnsafeMutableBufferPointer {
                        try m.heights(kinds: k, utf8: u, offsets: o, slotsPerRow: 5, into: $0, rowsAreValidUTF8: true)
                    }
                }
            }
        }
        #expect(checked == trusted)
        #expect(checked.allSatisfy { $0 > 0 })
    }
}
