import Testing
@testable import Tessera

/// What a host decides instead of the profile: the width class (iOS's size class) and
/// fonts given as loaded fonts rather than found in directories.
@Suite struct HostEnvironmentTests {
    static let object = ["Pump P-200 replacement", "Order 4711 · Plant Vienna", "due 21.11.", "A long description of the order that wraps over several lines at list widths and moves to its own column in the regular width class."]

    /// Heights of every kind's first rows of the generator-free fixture rows, in `env`.
    static func heights(_ profile: Profile, _ env: LayoutEnvironment) throws -> [Double] {
        let m = try CellMeasurer(profile: profile, environment: env)
        var out: [Double] = []
        for kind in profile.kinds where kind.role == .cell {
            var slots = [String](repeating: "", count: kind.valueCount)
            for slot in kind.slots where slot.type == "text" {
                guard let v = slot.valueIndex else { continue }
                slots[v] = Self.object[v % Self.object.count]
            }
            guard (try? m.validate(kind: kind.code, slots: slots, row: 0)) != nil else { continue }
            out.append(m.height(kind: kind.code, slots: slots))
        }
        return out
    }

    @Test func widthClassSetByTheHost() throws {
        let profile = ProfileFixtures.fioriIOS
        let compact = LayoutEnvironment(width: 390, platform: .ios)
        var regular = compact
        regular.widthClass = "regular"
        let m = try CellMeasurer(profile: profile, environment: regular)
        #expect(m.widthClass == "regular")
        #expect(try CellMeasurer(profile: profile, environment: compact).widthClass == "compact")
        // The regular layouts at 390 pt: at least one kind measures differently (the
        // description's own column), and the same as at a regular width when nothing wraps.
        #expect(try Self.heights(profile, regular) != Self.heights(profile, compact))
        var wide = LayoutEnvironment(width: 2_000, platform: .ios)
        wide.widthClass = "regular"
        #expect(try Self.heights(profile, wide) == Self.heights(profile, LayoutEnvironment(width: 2_000, platform: .ios)))

        // An unknown class is an environment error and changes nothing.
        var bad = compact
        bad.widthClass = "roomy"
        #expect(throws: TesseraError.self) { try m.setEnvironment(bad) }
        do {
            try m.setEnvironment(bad)
        } catch {
            guard case .invalidEnvironment(let field, _) = error else { Issue.record("\(error)"); return }
            #expect(field == "widthClass")
        }
        #expect(m.environment == regular && m.widthClass == "regular")
    }

    @Test func engineMeasuresInTheHostsWidthClass() throws {
        let profile = ProfileFixtures.fioriIOS
        var env = LayoutEnvironment(width: 390, platform: .ios)
        var list = try ListEngine(profile: profile, environment: env, viewport: 800)
        let kind = profile.kinds.first { $0.role == .cell }!
        var text = RowText(slotsPerRow: kind.valueCount)
        var slots = [String](repeating: "", count: kind.valueCount)
        for slot in kind.slots where slot.type == "text" {
            guard let v = slot.valueIndex else { continue }
            slots[v] = Self.object[v % Self.object.count]
        }
        for _ in 0..<20 { text.append(slots) }
        try list.append(ids: (1...20).map { UInt64($0) }, kinds: [UInt16](repeating: kind.code, count: 20), text: text)
        try list.measureAll(threads: 1)
        env.widthClass = "regular"
        try list.setEnvironment(env)
        try list.measureAll(threads: 1)
        let fresh = try CellMeasurer(profile: profile, environment: env)
        for r in 0..<20 {
            #expect(try list.store.row(r).height == fresh.height(kind: kind.code, slots: slots))
        }
    }

    @Test func fontsGivenAsLoadedFonts() throws {
        let files = [
            "Roboto-Regular.ttf": "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf",
            "Roboto-Medium.ttf": "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Medium.ttf",
            "DroidSansFallbackFull.ttf": "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
            "NotoColorEmoji.ttf": "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
        ]
        var fonts: [String: Font] = [:]
        for (file, path) in files { fonts[file] = try Font(bytes: fontReadBytes(path)!) }
        let json = ProfileFixtures.bytes("george")
        let hosted = try json.withUnsafeBytes { (b) throws(TesseraError) in try Profile(json: b, fonts: fonts, fontDirectories: ["/nowhere"]) }
        for width in [200.0, 375] {
            let env = LayoutEnvironment(width: width, platform: .android)
            #expect(try Self.heights(hosted, env) == Self.heights(ProfileFixtures.george, env))
        }
        // Without the fonts, nothing is found.
        #expect(throws: TesseraError.self) {
            _ = try json.withUnsafeBytes { (b) throws(TesseraError) in try Profile(json: b, fonts: [:], fontDirectories: ["/nowhere"]) }
        }
        // A second measuring thread gets its own copies of the host's fonts too (they were
        // shared when copies meant loading files again), and measures the same.
        let own = hosted.withOwnFonts()
        for (a, b) in zip(hosted.fontChains, own.fontChains) {
            #expect(a !== b && a.fonts.count == b.fonts.count)
            for (x, y) in zip(a.fonts, b.fonts) {
                #expect(x !== y && x.kerningMemo !== y.kerningMemo)
                #expect(x.unitsPerEm == y.unitsPerEm && x.glyphCount == y.glyphCount && x.metrics == y.metrics && x.kerningSource == y.kerningSource)
            }
        }
        for text in Self.object + ["Überweisung an Müller GmbH", "日本語のテキスト 👍🏽 AV To Wa"] {
            #expect(hosted.fontChains[0].fonts.map { $0.unscaledWidth(of: text) } == own.fontChains[0].fonts.map { $0.unscaledWidth(of: text) })
        }
        for width in [200.0, 375] {
            let env = LayoutEnvironment(width: width, platform: .android)
            #expect(try Self.heights(own, env) == Self.heights(hosted, env))
        }
        let kind = hosted.kinds.first { $0.role == .cell }!
        var text = RowText(slotsPerRow: kind.valueCount)
        for r in 0..<400 {
            // The label alone (the kind's rules allow some slots only apart).
            var slots = [String](repeating: "", count: kind.valueCount)
            let v = kind.slots.first { $0.name == "label" }!.valueIndex!
            slots[v] = Self.object[r % Self.object.count] + " \(r) 日本語 👍"
            text.append(slots)
        }
        var engine = try ListEngine(profile: hosted, environment: LayoutEnvironment(width: 375, platform: .android), viewport: 800)
        var one = try ListEngine(profile: hosted, environment: LayoutEnvironment(width: 375, platform: .android), viewport: 800)
        for e in [0, 1] {
            let ids = (1...400).map { UInt64($0) }, kinds = [UInt16](repeating: kind.code, count: 400)
            if e == 0 { try engine.append(ids: ids, kinds: kinds, text: text) } else { try one.append(ids: ids, kinds: kinds, text: text) }
        }
        try engine.measureAll(threads: 2)
        try one.measureAll(threads: 1)
        for r in 0..<400 { #expect(try engine.store.row(r).height == one.store.row(r).height) }
    }
}
