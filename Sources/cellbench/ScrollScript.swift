import Foundation

/// What the user does in one 120 Hz frame of the scroll simulation.
enum ScrollInput: Equatable {
    /// The finger (or a fling's momentum) moves the content by this many points; positive
    /// scrolls towards the end of the list.
    case drag(Double)
    /// Scroll-to-index: the row's top at the top of the viewport (a search result, a
    /// "jump to date").
    case toRow(Int)
    /// Scroll to the end of the list (the last row's bottom at the viewport's bottom).
    case toEnd
    /// Scroll to the top (a tap on the status bar).
    case toTop

    /// A programmatic scroll: what the user saw before is gone, so nothing on screen can be
    /// said to have jumped in this frame.
    var breaksContinuity: Bool {
        if case .drag = self { return false }
        return true
    }
}

/// One frame of the script: its phase, the user's input and, in the insert phase, the
/// batch of new rows that arrives at the top in this frame (an index into the suite's
/// insert batches).
struct ScrollFrame: Equatable {
    var phase: ScrollPhase
    var input: ScrollInput
    var insertBatch: Int?
}

enum ScrollPhase: Int, CaseIterable {
    case drag, fling, jump, endAndBack, inserts

    var name: String {
        switch self {
        case .drag: "drag"
        case .fling: "fling"
        case .jump: "jump"
        case .endAndBack: "end_and_back"
        case .inserts: "inserts"
        }
    }
}

/// The deterministic script of a scroll run at 120 Hz: the same seed and row count give the
/// same frames. The script is geometry-free (points and row indexes), so both sides of the
/// run replay exactly the same inputs.
///
/// - `drag`: 2 s of a slow drag down from the top, 250–650 pt/s, the speed wavering as a
///   finger's does.
/// - `fling`: three flings down, 6,000–9,000 pt/s each, decelerating as UIScrollView's
///   normal rate does (0.998 per ms), 1.5 s each before the next flick.
/// - `jump`: three scroll-to-index jumps to random rows, each followed by 0.5 s of reading
///   upwards (the context above a search result) and 0.5 s back down.
/// - `end_and_back`: scroll to the end, read upwards for 1 s, scroll back to the top, drag
///   down for 0.5 s.
/// - `inserts`: 4 s of slow reading (80 pt/s down) while a batch of new rows arrives at
///   the top every 0.25 s (a chat or a feed).
struct ScrollScript {
    static let framesPerSecond = 120.0
    /// UIScrollView's `DecelerationRate.normal`: velocity kept per millisecond.
    static let decelerationPerMillisecond = 0.998
    static let insertInterval = 30
    static let insertFrames = 480
    static var insertBatchCount: Int { insertFrames / insertInterval }

    let frames: [ScrollFrame]

    /// A script of given frames (tests).
    init(frames: [ScrollFrame]) { self.frames = frames }

    init(seed: UInt64, rows: Int) {
        precondition(rows >= 1)
        var rng = Xoshiro256(seed: seed ^ 0x5C20_11F0)
        var frames: [ScrollFrame] = []
        let dt = 1 / Self.framesPerSecond
        func drag(_ phase: ScrollPhase, seconds: Double, pointsPerSecond v: Double) {
            for _ in 0..<Int(seconds * Self.framesPerSecond) {
                frames.append(ScrollFrame(phase: phase, input: .drag(v * dt), insertBatch: nil))
            }
        }

        // A slow drag: the speed wavers around 450 pt/s.
        for i in 0..<240 {
            let t = Double(i) * dt
            let v = 450 + 150 * sin(2 * Double.pi * t / 1.3) + 100 * (rng.unit() - 0.5)
            frames.append(ScrollFrame(phase: .drag, input: .drag(v * dt), insertBatch: nil))
        }
        // Flings with deceleration.
        let decay = pow(Self.decelerationPerMillisecond, 1000 * dt)
        for _ in 0..<3 {
            var v = 6_000 + 3_000 * rng.unit()
            for _ in 0..<180 {
                frames.append(ScrollFrame(phase: .fling, input: .drag(v * dt), insertBatch: nil))
                v *= decay
            }
        }
        // Jumps to random rows, then reading around them.
        for _ in 0..<3 {
            frames.append(ScrollFrame(phase: .jump, input: .toRow(rng.below(rows)), insertBatch: nil))
            drag(.jump, seconds: 0.5, pointsPerSecond: -300)
            drag(.jump, seconds: 0.5, pointsPerSecond: 300)
        }
        // To the end, reading up, back to the top.
        frames.append(ScrollFrame(phase: .endAndBack, input: .toEnd, insertBatch: nil))
        drag(.endAndBack, seconds: 1, pointsPerSecond: -400)
        frames.append(ScrollFrame(phase: .endAndBack, input: .toTop, insertBatch: nil))
        drag(.endAndBack, seconds: 0.5, pointsPerSecond: 300)
        // Reading while new rows arrive at the top.
        for i in 0..<Self.insertFrames {
            let batch = i % Self.insertInterval == Self.insertInterval - 1 ? i / Self.insertInterval : nil
            frames.append(ScrollFrame(phase: .inserts, input: .drag(80 * dt), insertBatch: batch))
        }
        self.frames = frames
    }
}
