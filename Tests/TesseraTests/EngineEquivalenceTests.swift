import Testing
@testable import Tessera

/// Incremental measurement against measuring everything from scratch: random
/// interleavings of appends, inserts, removals, environment changes (widths across the
/// width-class breakpoints, edit mode, font scale, platform), budgeted measurements,
/// scrolling and `measureAll`, each followed by a full comparison with the naive model
/// (heights, dirty flags, offsets, anchor, window, dividers, sticky header) and a check
/// that the anchor row did not move on screen.
@Suite struct EngineEquivalenceTests {
    struct Scenario: CustomTestStringConvertible, Sendable {
        let profile: String
        let platform: LayoutEnvironment.Platform
        let seed: UInt64
        var testDescription: String { "\(profile) \(platform) seed \(seed)" }
    }

    static let scenarios: [Scenario] = (1...6).flatMap { i -> [Scenario] in
        let seed = UInt64(i) * 10
        return [
            Scenario(profile: "george", platform: .ios, seed: seed + 1), Scenario(profile: "george", platform: .android, seed: seed + 2),
            Scenario(profile: "fiori-ios", platform: .ios, seed: seed + 3), Scenario(profile: "fiori-android", platform: .android, seed: seed + 4),
            Scenario(profile: "fiori-ios-collection", platform: .ios, seed: seed + 5),
        ]
    }

    /// Parameter values hosts may set, per profile (those that keep every generated row
    /// valid; `EngineBadInputTests` covers the others).
    static func parameters(_ profile: String, _ rng: inout SplitMix64) -> [String: Int] {
        switch profile {
        case "fiori-ios": ["descriptionLines": rng.int(0...4), "detailImageSize": rng.pick([44, 45])]
        case "fiori-android": ["descriptionLines": rng.int(0...4)]
        case "fiori-ios-collection": ["itemWidth": rng.pick([110, 120])]
        default: [:]
        }
    }

    static func profile(_ name: String) -> Profile {
        switch name {
        case "george": ProfileFixtures.george
        case "fiori-ios": ProfileFixtures.fioriIOS
        case "fiori-android": ProfileFixtures.fioriAndroid
        default: ProfileFixtures.collection
        }
    }

    static let widths: [Double] = [320, 375, 390.5, 414, 599, 600, 700, 768, 839, 840, 1024, 1366]
    static let fontScales: [Double] = [0.85, 1, 1.25, 1.6, 2]

    @Test(arguments: scenarios)
    func incrementalMatchesFromScratch(_ s: Scenario) throws {
        try Self.run(s, profile: Self.profile(s.profile), steps: 120)
    }

    /// One random interleaving of `steps` changes on `profile` (parameters as for the
    /// profile named by the scenario).
    static func run(_ s: Scenario, profile: Profile, steps: Int) throws {
        var rng = SplitMix64(seed: s.seed &* 0x9E37_79B9)
        let factory = EngineRowFactory(profile)
        var ids = IDSource(seed: s.seed)
        var env = LayoutEnvironment(width: rng.pick(Self.widths), platform: s.platform)
        let viewport = Double(rng.int(200...900))
        let overscan = Double(rng.pick([0, 50, 250]))
        var engine = try ListEngine(
            profile: profile, environment: env, viewport: viewport, overscan: overscan, textEngine: TextLayoutEngine(),
            pageCapacity: rng.int(3...12), treeFanout: rng.int(4...6))
        let m = ProfileListModel(profile: profile, env: env, viewport: viewport, overscan: overscan) { TextLayoutEngine() }
        m.reanchor()
        let c = Checker(s.testDescription)
        verifyProfileEngine(engine, m, c)

        for step in 0..<steps where c.ok {
            c.context = "\(s.testDescription), step \(step)"
            let before = anchorScreenY(engine, m)
            var checksAnchor = true
            switch rng.below(20) {
            case 0, 1, 2:
                let b = factory.batch(rows: rng.int(1...(m.count < 40 ? 60 : 25)), &rng, ids: &ids)
                let got = try engine.append(ids: b.ids, kinds: b.kinds, text: b.text)
                m.insert(b, at: m.count)
                verifyProfileEngine(engine, m, c, returned: got)
            case 3:
                let b = factory.batch(rows: rng.int(1...10), &rng, ids: &ids)
                let at = rng.int(0...m.count)
                do {
                    let got = try engine.insert(ids: b.ids, kinds: b.kinds, text: b.text, at: at)
                    m.insert(b, at: at)
                    verifyProfileEngine(engine, m, c, returned: got)
                } catch {
                    // A header inside a group of selection cells can leave one of them alone.
                    guard case .ruleViolation(_, _, .groupMinimum) = error else { throw error }
                    verifyProfileEngine(engine, m, c)
                }
            case 4:
                guard m.count > 0 else { continue }
                let lo = rng.below(m.count), hi = min(m.count, lo + rng.int(1...6))
                do {
                    let got = try engine.removeRows(lo..<hi)
                    m.remove(lo..<hi)
                    verifyProfileEngine(engine, m, c, returned: got)
                } catch {
                    guard case .ruleViolation(_, _, .groupMinimum) = error else { throw error }
                    verifyProfileEngine(engine, m, c)
                }
            case 5, 6, 7:
                switch rng.below(5) {
                case 4: env.parameters = rng.chance(0.3) ? [:] : Self.parameters(s.profile, &rng)
                case 0: env.editMode.toggle()
                case 1: env.fontScale = rng.pick(Self.fontScales)
                case 2 where profile.platforms.count > 1: env.platform = env.platform == .ios ? .android : .ios
                default: env.width = rng.pick(Self.widths)
                }
                if rng.chance(0.3) { env.width = rng.pick(Self.widths) }
                let got = try engine.setEnvironment(env)
                m.setEnvironment(env, engineDirty: engineDirtyFlags(engine), c)
                verifyProfileEngine(engine, m, c, returned: got)
            case 8, 9, 10, 11, 12:
                let order = m.priorityOrder()
                let wasDirty = m.dirty
                let budget = rng.chance(0.2) ? rng.int(0...3) : rng.int(1...40)
                let progress = try engine.measure(budget: .rows(budget))
                let now = engineDirtyFlags(engine)
                let cleaned = (0..<m.count).filter { wasDirty[$0] && !now[$0] }
                let expected = Array(order.prefix(budget))
                c.equal(cleaned, expected.sorted(), "rows measured by a budget of \(budget)")
                c.equal(progress.measured, expected.count, "measured count")
                m.measured(expected)
                c.equal(progress.remaining, m.dirty.filter { $0 }.count, "remaining")
                verifyProfileEngine(engine, m, c, returned: progress.scrollOffset)
            case 13:
                // A time budget measures some prefix of the same order.
                let order = m.priorityOrder()
                let wasDirty = m.dirty
                let progress = try engine.measure(budget: .nanoseconds(UInt64(rng.int(0...3_000_000))))
                let now = engineDirtyFlags(engine)
                let cleaned = (0..<m.count).filter { wasDirty[$0] && !now[$0] }
                let prefix = Array(order.prefix(cleaned.count))
                c.equal(cleaned, prefix.sorted(), "rows measured within a time budget")
                c.equal(progress.measured, cleaned.count, "measured count")
                m.measured(prefix)
                verifyProfileEngine(engine, m, c, returned: progress.scrollOffset)
            case 14:
                let got = try engine.measureAll(threads: rng.int(1...3))
                m.measured((0..<m.count).filter { m.dirty[$0] })
                verifyProfileEngine(engine, m, c, returned: got)
            case 15:
                guard m.count > 0 else { continue }
                let r = rng.below(m.count)
                let got = try engine.invalidateHeight(ofRow: r)
                if !m.dirty[r] {
                    m.measured[r] = m.fresh(r)
                    m.dirty[r] = true
                }
                verifyProfileEngine(engine, m, c, returned: got)
            default:
                checksAnchor = false
                if rng.chance(0.15) {
                    let v = Double(rng.int(0...900))
                    try engine.setViewport(v)
                    m.viewport = v
                    m.scroll(to: min(m.scrollOffset, m.maximumScrollOffset))
                } else {
                    let y = Double(rng.below(Int(m.maximumScrollOffset * 256) + 1)) / 256
                    let got = try engine.scroll(to: y)
                    m.scroll(to: y)
                    c.equal(got, m.scrollOffset, "scroll")
                }
                verifyProfileEngine(engine, m, c)
            }
            if checksAnchor { checkAnchorStill(before, engine, c) }
        }
        // Everything measured at the end equals measuring every row from scratch.
        c.context = "\(s.testDescription), measureAll"
        try engine.measureAll(threads: 2)
        m.measured((0..<m.count).filter { m.dirty[$0] })
        verifyProfileEngine(engine, m, c)
        #expect(engine.dirtyCount == 0)
    }
}
