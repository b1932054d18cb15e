#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// One plain progress line on stderr, rewritten in place with `\r`, for phases that run
/// longer than a second, and only when stderr is a terminal (a pipe or a log file gets
/// nothing). A background thread redraws it four times a second, so a phase that is a single
/// long call (building ten million rows) still shows its elapsed time; timed loops only
/// update a counter between chunks.
final class Progress: Sendable {
    private struct State {
        var phase = ""
        var done = 0
        var total = 0
        var started: UInt64 = 0
        var active = false
        var shownWidth = 0
    }

    private let state = Mutex(State())
    let enabled: Bool

    init(enabled: Bool = isatty(2) != 0) {
        self.enabled = enabled
        guard enabled else { return }
        let thread = Thread { [self] in
            while true {
                usleep(250_000)
                redraw()
            }
        }
        thread.start()
    }

    /// Starts a phase of `total` steps (0 when it has no steps to count).
    func begin(_ phase: String, total: Int = 0) {
        guard enabled else { return }
        state.withLock {
            $0.phase = phase
            $0.done = 0
            $0.total = total
            $0.started = MonotonicClock.now()
            $0.active = true
        }
    }

    func advance(to done: Int) {
        guard enabled else { return }
        state.withLock { $0.done = done }
    }

    /// Ends the phase and clears its line if one was drawn.
    func end() {
        guard enabled else { return }
        state.withLock {
            $0.active = false
            if $0.shownWidth > 0 {
                Self.emit("\r" + String(repeating: " ", count: $0.shownWidth) + "\r")
                $0.shownWidth = 0
            }
        }
    }

    private func redraw() {
        state.withLock {
            guard $0.active else { return }
            let seconds = Double(MonotonicClock.now() &- $0.started) / 1e9
            guard seconds >= 1 else { return }
            var line = "cellbench: \($0.phase)"
            if $0.total > 0 {
                let percent = Int((100 * Double($0.done) / Double($0.total)).rounded(.down))
                line += " \($0.done)/\($0.total) (\(percent)%)"
            }
            line += " \(Int(seconds)) s"
            let pad = max(0, $0.shownWidth - line.count)
            Self.emit("\r" + line + String(repeating: " ", count: pad))
            $0.shownWidth = line.count
        }
    }

    private static func emit(_ text: String) {
        var text = text
        text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    }
}
