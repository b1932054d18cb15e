import Testing
@testable import cellbench

/// The scroll simulation: deterministic, Tessera draws nothing unmeasured and keeps the
/// eye still, the jump metric sees movement, and bad options are one line.
@Suite struct ScrollSimulationTests {
    /// A small run (debug builds measure slowly): 2,000 rows, 4 background rows a frame.
    static func run(_ profile: String, rows: Int = 2_000, seed: UInt64 = 7) throws -> ScrollReport {
        let configuration = ScrollSuite.Configuration(profile: profile, rows: rows, seed: seed, backgroundRows: 4)
        return try ScrollSuite(configuration: configuration, progress: Progress(enabled: false)).run()
    }

    static func counts(_ records: [FrameRecord]) -> [String] {
        records.map { "\($0.phase.name) \($0.blankRows) \($0.jump)" }
    }

    @Test func theScriptDependsOnlyOnItsSeed() {
        let a = ScrollScript(seed: 1, rows: 5_000), b = ScrollScript(seed: 1, rows: 5_000), c = ScrollScript(seed: 2, rows: 5_000)
        #expect(a.frames == b.frames)
        #expect(a.frames != c.frames)
        // Every phase is there, in order, with the insert batches of the last one.
        #expect(ScrollPhase.allCases.allSatisfy { p in a.frames.contains { $0.phase == p } })
        #expect(a.frames.map(\.phase.rawValue) == a.frames.map(\.phase.rawValue).sorted())
        #expect(a.frames.compactMap(\.insertBatch) == Array(0..<ScrollScript.insertBatchCount))
        for frame in a.frames { if case .toRow(let r) = frame.input { #expect(r >= 0 && r < 5_000) } }
    }

    @Test func theSameSeedGivesTheSameFramesBlankRowsAndJumps() throws {
        let a = try Self.run("george"), b = try Self.run("george")
        #expect(a.frames == b.frames && a.tessera.count == a.frames)
        #expect(Self.counts(a.tessera) == Self.counts(b.tessera))
        #expect(Self.counts(a.peer) == Self.counts(b.peer))
        #expect(a.measuredRows == b.measuredRows && a.finalRows == b.finalRows)
        let c = try Self.run("george", seed: 8)
        #expect(Self.counts(a.peer) != Self.counts(c.peer))
    }

    @Test(arguments: ["george", "fiori-android", "fiori-ios"])
    func tesseraShowsNoBlankRowAndNoJump(profile: String) throws {
        let report = try Self.run(profile)
        for phase in ScrollPhase.allCases {
            let s = report.statistics(report.tessera, phase: phase)
            #expect(s.blankRows == 0, "\(profile) \(phase.name)")
            #expect(s.jump == 0, "\(profile) \(phase.name)")
        }
        // The peer's strategy shows both, so the metrics can see them.
        let peer = report.statistics(report.peer, phase: nil)
        #expect(peer.blankRows > 0 && peer.jump > 0)
        // Both sides measured rows, and every row both measured has one height.
        #expect(report.heightsChecked > 0)
    }

    /// The grid too: rows inserted above the first grid line take its top padding, which
    /// the anchor gives back, so the items read stay still in the inserts phase as well.
    @Test func theCollectionGridShowsNoBlankRowAndNoJump() throws {
        let report = try Self.run("fiori-ios-collection")
        for phase in ScrollPhase.allCases {
            let s = report.statistics(report.tessera, phase: phase)
            #expect(s.blankRows == 0, "\(phase.name)")
            #expect(s.jump == 0, "\(phase.name)")
        }
        // The inserts phase did insert above the first line while it was being read.
        #expect(report.finalRows > report.rows)
        let peer = report.statistics(report.peer, phase: nil)
        #expect(peer.blankRows > 0 && peer.jump > 0)
    }

    /// A list whose content jumps by 10 pt in frame 3 and shows one unmeasured row in
    /// frame 2: the simulation must report exactly that.
    final class ScriptedList: ScrollingList {
        let viewport = 100.0
        let shown = UnsafeMutableBufferPointer<ShownItem>.allocate(capacity: 16)
        var shownCount = 0
        var shownOffset = 0.0
        var frameIndex = 0
        var shift = 0.0

        deinit { shown.deallocate() }

        func frame(_ input: ScrollInput, insertBatch: Int?) throws -> FrameCost {
            var delta = 0.0
            if case .drag(let d) = input { delta = d }
            shownOffset += delta
            if frameIndex == 3 { shift = 10 }
            shownCount = 10
            for i in 0..<10 {
                shown[i] = ShownItem(id: UInt64(i), y: Double(i) * 20 + shift, height: 20, measured: !(frameIndex == 2 && i == 3))
            }
            frameIndex += 1
            return FrameCost(wall: 1, cpu: 1, userDelta: delta)
        }
    }

    @Test func theJumpAndBlankMetricsSeeWhatTheListDid() throws {
        let frames = (0..<6).map { _ in ScrollFrame(phase: .drag, input: .drag(1), insertBatch: nil) }
        let records = try ScrollSimulation(script: ScrollScript(frames: frames)).run(ScriptedList())
        #expect(records.map(\.jump) == [0, 0, 0, 10, 0, 0])
        #expect(records.map(\.blankRows) == [0, 0, 1, 0, 0, 0])
        let s = FrameStatistics(records)
        #expect(s.jump == 10 && s.jumpFrames == 1 && s.largestJump == 10 && s.blankRows == 1)
    }

    @Test func frameStatisticsRankAndCountOverBudget() {
        let records = (1...100).map { FrameRecord(phase: .fling, nanoseconds: UInt64($0) * 20_000, cpuNanoseconds: UInt64($0) * 10_000, blankRows: 0, jump: 0) }
        let s = FrameStatistics(records)
        #expect(s.frames == 100 && s.max == 2_000_000 && s.overBudget == 50 && s.cpuOverBudget == 0)
        #expect(s.p50 == 1_000_000 || s.p50 == 1_020_000)
        #expect(s.p99 == 1_980_000)
    }

    @Test func badOptionsAreOneLineErrors() throws {
        for arguments in [["--profile", "nope"], ["--profile", "george", "--rows", "abc"], ["--profile", "george", "--rows", "5"],
                          ["--profile", "george", "--rows", "20000001"], ["--profile", "george", "--seed", "x"],
                          ["--profile", "george", "--background-rows", "-1"], ["--profile", "george", "--bogus"], []] {
            #expect(throws: (any Error).self, "\(arguments)") { try Scroll.parse(arguments) }
        }
        let message = Scroll.message(for: OptionError("--profile: unknown profile 'nope'"))
        #expect(!message.contains("\n"))
        let all = try Scroll.parse(["--profile", "all", "--rows", "1_000"]).options()
        #expect(all.map(\.profile) == CellRowGenerator.profiles && all.allSatisfy { $0.rows == 1_000 })
    }
}
