/// A row as the user sees it in a frame: where it is in the content and whether it had
/// been measured (a row shown unmeasured is shown at a guessed size: a blank row).
struct ShownItem {
    var id: UInt64
    var y: Double
    var height: Double
    var measured: Bool
}

/// One side of a scroll run: a virtualized list that does a frame's work for an input and
/// says what the user saw in that frame.
protocol ScrollingList: AnyObject {
    var viewport: Double { get }
    /// Does one frame's work (the user's scroll, rows arriving, measurement, the window
    /// query) and returns what it cost and how far the user's input moved the content.
    func frame(_ input: ScrollInput, insertBatch: Int?) throws -> FrameCost
    /// The scroll offset of what was on screen in the last frame.
    var shownOffset: Double { get }
    /// The rows drawn in the last frame (the window with its overscan), top to bottom.
    var shown: UnsafeMutableBufferPointer<ShownItem> { get }
    var shownCount: Int { get }
}

/// One frame's engine work: wall-clock and thread CPU nanoseconds (the CPU clock leaves out
/// the time the thread waited for a core on a shared machine: a 4 ms scheduler tick lost
/// to another process shows in the wall time only), and how far the user's input moved
/// the content (the drag after clamping to the content; 0 for programmatic scrolls).
struct FrameCost {
    var wall: UInt64
    var cpu: UInt64
    var userDelta: Double
}

/// What one frame cost and showed.
struct FrameRecord: Equatable {
    var phase: ScrollPhase
    var nanoseconds: UInt64
    var cpuNanoseconds: UInt64
    /// Rows inside the viewport shown before they were measured.
    var blankRows: Int
    /// How far (points) the row under the user's eye moved on screen beyond what the
    /// user's own scroll moved it, since the previous frame.
    var jump: Double
}

/// Replays a script on one side and records every frame.
///
/// The eye: in each frame the user looks at the row under the middle of the viewport. In
/// the next frame that row should have moved by exactly the user's scroll; any other
/// movement (a height corrected above it, rows inserted above it, the content clamped
/// after it shrank) is a jump. A programmatic scroll (to a row, the end, the top) starts
/// afresh: nothing is compared across it.
struct ScrollSimulation {
    let script: ScrollScript
    static let tolerance = 0.001

    func run(_ list: ScrollingList, progress: Progress? = nil, label: String = "") throws -> [FrameRecord] {
        var records: [FrameRecord] = []
        records.reserveCapacity(script.frames.count)
        var eye: (id: UInt64, screenY: Double)? = nil
        progress?.begin(label, total: script.frames.count)
        defer { progress?.end() }
        for (i, frame) in script.frames.enumerated() {
            let cost = try list.frame(frame.input, insertBatch: frame.insertBatch)
            let delta = cost.userDelta
            let offset = list.shownOffset, viewport = list.viewport
            let shown = UnsafeBufferPointer(rebasing: list.shown[..<list.shownCount])
            var blank = 0
            for item in shown where !item.measured && item.y + item.height > offset && item.y < offset + viewport { blank += 1 }
            var jump = 0.0
            if !frame.input.breaksContinuity, let seen = eye {
                // The eye row stays within the window (drags are far shorter than the overscan
                // plus half the viewport); if it left, the whole view moved: count it all.
                if let item = shown.first(where: { $0.id == seen.id }) {
                    jump = abs((item.y - offset) - (seen.screenY - delta))
                    // Offsets are doubles far from zero (10^7 pt and more): below a
                    // thousandth of a point is rounding, not movement.
                    if jump < Self.tolerance { jump = 0 }
                } else {
                    jump = viewport / 2
                }
            }
            eye = Self.eye(shown, offset: offset, viewport: viewport)
            records.append(FrameRecord(phase: frame.phase, nanoseconds: cost.wall, cpuNanoseconds: cost.cpu, blankRows: blank, jump: jump))
            if i & 63 == 0 { progress?.advance(to: i) }
        }
        return records
    }

    /// The row under the middle of the viewport (the last one starting at or above it) and
    /// its y on screen.
    static func eye(_ shown: UnsafeBufferPointer<ShownItem>, offset: Double, viewport: Double) -> (id: UInt64, screenY: Double)? {
        let middle = offset + viewport / 2
        var best: ShownItem? = nil
        for item in shown where item.y <= middle && item.height > 0 {
            if best == nil || item.y >= best!.y { best = item }
        }
        return best.map { ($0.id, $0.y - offset) }
    }
}
