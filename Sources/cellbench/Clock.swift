#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A monotonic clock in nanoseconds (`clock_gettime(CLOCK_MONOTONIC)`): cheap enough to
/// read around chunks of a timed loop, immune to wall-clock adjustments.
enum MonotonicClock {
    @inline(__always)
    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// Nanoseconds `body` takes.
    @inline(__always)
    static func time<E: Error>(_ body: () throws(E) -> Void) throws(E) -> UInt64 {
        let start = now()
        try body()
        return now() &- start
    }
}

/// Where results of timed loops go so that the optimizer cannot drop the work that made
/// them. The sum is printed as the run's checksum.
nonisolated(unsafe) private var sink: UInt64 = 0

@inline(never)
func blackHole(_ value: Int) {
    sink = sink &* 31 &+ UInt64(bitPattern: Int64(value))
}

var checksum: UInt64 { sink }

/// Runs `body` over `range` in chunks, timing only the calls to `body` (the progress line
/// is updated between chunks, outside the timed region). Returns nanoseconds.
func timedChunks<E: Error>(
    _ range: Range<Int>, chunks: Int = 20, progress: Progress, _ phase: String,
    _ body: (Range<Int>) throws(E) -> Void
) throws(E) -> UInt64 {
    progress.begin(phase, total: range.count)
    defer { progress.end() }
    let step = max(1, (range.count + chunks - 1) / chunks)
    var elapsed: UInt64 = 0
    var lo = range.lowerBound
    while lo < range.upperBound {
        let hi = min(range.upperBound, lo + step)
        let start = MonotonicClock.now()
        try body(lo..<hi)
        elapsed &+= MonotonicClock.now() &- start
        progress.advance(to: hi - range.lowerBound)
        lo = hi
    }
    return elapsed
}

/// The calling thread's CPU time in nanoseconds (`CLOCK_THREAD_CPUTIME_ID`): on a shared,
/// loaded machine it leaves out the time the thread waited for a core, which a wall clock
/// counts.
enum ThreadCPUClock {
    @inline(__always)
    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }
}

/// Wall-clock and thread-CPU nanoseconds of one timed call.
struct TimedCall {
    var wall: UInt64
    var cpu: UInt64

    @inline(__always)
    static func measure<E: Error>(_ body: () throws(E) -> Void) throws(E) -> TimedCall {
        let cpu0 = ThreadCPUClock.now(), wall0 = MonotonicClock.now()
        try body()
        let wall1 = MonotonicClock.now(), cpu1 = ThreadCPUClock.now()
        return TimedCall(wall: wall1 &- wall0, cpu: cpu1 &- cpu0)
    }
}

/// The process's user and system CPU time (ns) and minor page faults (`getrusage`): around
/// a pass that only its own threads run, how much of it the kernel did (the first touch of
/// fresh memory, mostly).
struct ProcessTimes {
    var user: UInt64
    var system: UInt64
    var minorFaults: Int

    static func now() -> ProcessTimes {
        var r = rusage()
        getrusage(RUSAGE_SELF_ID, &r)
        func ns(_ t: timeval) -> UInt64 { UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_usec) &* 1_000 }
        return ProcessTimes(user: ns(r.ru_utime), system: ns(r.ru_stime), minorFaults: r.ru_minflt)
    }

    static func - (a: ProcessTimes, b: ProcessTimes) -> ProcessTimes {
        ProcessTimes(user: a.user &- b.user, system: a.system &- b.system, minorFaults: a.minorFaults - b.minorFaults)
    }
}

/// `RUSAGE_SELF` (Glibc imports it as an enum case the call does not take).
private let RUSAGE_SELF_ID: Int32 = 0
