import CTessera
import Tessera

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed C call: its status and a message naming the argument. Built only on failure.
struct CFailure: Error {
    var status: tess_status
    var message: String

    init(_ status: Int32, _ message: String) {
        self.status = tess_status(status)
        self.message = message
    }

    /// A Tessera error about `argument`.
    init(_ error: TesseraError, argument: StaticString) {
        self.init(statusCode(of: error), "\(argument): \(error)")
    }
}

/// The status a `TesseraError` maps to. `default` keeps this building when the core adds
/// cases; they report TESS_ERROR_INTERNAL with their message until mapped here.
func statusCode(of error: TesseraError) -> Int32 {
    switch error {
    case .invalidHeight, .invalidOffset, .invalidViewport, .columnLengthMismatch, .invalidFlags, .invalidTextWidth,
         .invalidMaxLines, .emptyFontChain, .invalidFontSize, .invalidLineHeight, .invalidLetterSpacing,
         .invalidBudget, .invalidThreadCount, .unsupported, .invalidSwipeWidth:
        TESS_ERROR_INVALID_ARGUMENT
    // Reached only through ABI version 2's calls (apply, swipe, selection).
    case .staleBatch: TESS_ERROR_STALE_BATCH
    case .interactionNotAllowed: TESS_ERROR_NOT_ALLOWED
    case .rowOutOfBounds, .rangeOutOfBounds: TESS_ERROR_OUT_OF_RANGE
    case .bufferTooSmall: TESS_ERROR_BUFFER_TOO_SMALL
    case .duplicateID, .duplicateIDInDiff: TESS_ERROR_DUPLICATE_ID
    case .unknownID: TESS_ERROR_UNKNOWN_ID
    case .unknownKind, .unknownKindCode: TESS_ERROR_UNKNOWN_KIND
    case .invalidTextOffsets: TESS_ERROR_INVALID_TEXT_OFFSETS
    case .invalidUTF8, .invalidUTF8Text: TESS_ERROR_INVALID_UTF8
    case .malformedFont: TESS_ERROR_INVALID_FONT
    case .unreadableFont, .unreadableProfile: TESS_ERROR_IO
    case .capacityExceeded: TESS_ERROR_CAPACITY
    case .invalidProfile, .profileFontNotFound: TESS_ERROR_INVALID_PROFILE
    case .invalidEnvironment: TESS_ERROR_INVALID_ENVIRONMENT
    case .ruleViolation, .invalidSlotValue, .selectionRuleViolation: TESS_ERROR_RULE_VIOLATION
    @unknown default: TESS_ERROR_INTERNAL
    }
}

/// Runs `body`, turning a `TesseraError` into a failure about `argument`.
@inline(__always)
func core<T: ~Copyable>(_ argument: StaticString, _ body: () throws(TesseraError) -> T) throws(CFailure) -> T {
    do { return try body() } catch { throw CFailure(error, argument: argument) }
}

/// A C string the library owns, NUL-terminated, kept until replaced.
struct OwnedMessage {
    private(set) var pointer: UnsafeMutablePointer<CChar>?

    mutating func set(_ message: String) {
        free(pointer)
        let bytes = Array(message.utf8)
        let p = malloc(bytes.count + 1)!.assumingMemoryBound(to: CChar.self)
        bytes.withUnsafeBytes { raw in
            if raw.count > 0 { memcpy(p, raw.baseAddress!, raw.count) }
        }
        p[bytes.count] = 0
        pointer = p
    }

    func release() { free(pointer) }
}

/// Static NUL-terminated text (string literals live for the program).
@inline(__always)
func cString(_ s: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(s.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// The base of every handle: the last error message. Handles are Swift objects passed to C
/// as retained opaque pointers (`Unmanaged`); `destroy` releases that reference.
class CHandle {
    var lastError = OwnedMessage()

    deinit { lastError.release() }

    /// Records a failure of `function` and returns its status.
    final func record(_ failure: CFailure, in function: StaticString) -> tess_status {
        lastError.set("\(function): \(failure.message)")
        return failure.status
    }

    /// Runs a call's body; a failure is recorded on this handle.
    @inline(__always)
    final func run(_ function: StaticString, _ body: () throws(CFailure) -> Void) -> tess_status {
        do throws(CFailure) {
            try body()
            return tess_status(TESS_OK)
        } catch {
            return record(error, in: function)
        }
    }

    /// A new retained opaque pointer for C.
    final func retainedPointer() -> OpaquePointer {
        OpaquePointer(Unmanaged.passRetained(self).toOpaque())
    }
}

extension CHandle {
    /// The object behind a handle pointer (not retained: the caller's reference keeps it).
    @inline(__always)
    static func object(_ pointer: OpaquePointer?) -> Self? {
        guard let pointer else { return nil }
        return Unmanaged<Self>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }

    /// Releases the reference a `create` gave out.
    static func destroy(_ pointer: OpaquePointer?) {
        guard let pointer else { return }
        Unmanaged<Self>.fromOpaque(UnsafeRawPointer(pointer)).release()
    }
}

// MARK: Failures of calls without a handle: per-thread messages.

/// One heap message per thread, freed with the thread.
let threadErrorKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { free($0) }
    return key
}()

func recordThreadError(_ failure: CFailure, in function: StaticString) -> tess_status {
    free(pthread_getspecific(threadErrorKey))
    var message = OwnedMessage()
    message.set("\(function): \(failure.message)")
    pthread_setspecific(threadErrorKey, message.pointer)
    return failure.status
}

/// Runs the body of a call without a handle (a create); a failure is recorded per thread.
@inline(__always)
func runWithoutHandle(_ function: StaticString, _ body: () throws(CFailure) -> Void) -> tess_status {
    do throws(CFailure) {
        try body()
        return tess_status(TESS_OK)
    } catch {
        return recordThreadError(error, in: function)
    }
}

/// The failure of a call whose handle argument is NULL (recorded per thread: there is no
/// handle to record it on).
func nullHandle(_ function: StaticString, _ argument: StaticString) -> tess_status {
    recordThreadError(CFailure(TESS_ERROR_NULL_ARGUMENT, "\(argument) is NULL"), in: function)
}

// MARK: Argument checks

@inline(__always)
func required<T>(_ pointer: T?, _ argument: StaticString) throws(CFailure) -> T {
    guard let pointer else { throw CFailure(TESS_ERROR_NULL_ARGUMENT, "\(argument) is NULL") }
    return pointer
}

@inline(__always)
func nonNegative(_ value: Int64, _ argument: StaticString) throws(CFailure) -> Int {
    guard value >= 0 else { throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "\(argument) \(value) is negative") }
    guard value <= Int64(Int.max) else { throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "\(argument) \(value) is too large") }
    return Int(value)
}

@inline(__always)
func finite(_ value: Double, _ argument: StaticString) throws(CFailure) -> Double {
    guard value.isFinite else { throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "\(argument) \(value) is not finite") }
    return value
}

/// An input array of `count` elements: NULL only when the count is 0.
@inline(__always)
func inputArray<T>(_ pointer: UnsafePointer<T>?, _ count: Int, _ argument: StaticString) throws(CFailure) -> UnsafeBufferPointer<T> {
    if count == 0 { return UnsafeBufferPointer(start: nil, count: 0) }
    guard let pointer else { throw CFailure(TESS_ERROR_NULL_ARGUMENT, "\(argument) is NULL with \(count) entries") }
    return UnsafeBufferPointer(start: pointer, count: count)
}

/// An output buffer: capacity >= 0, NULL only with capacity 0.
@inline(__always)
func outputBuffer<T>(_ pointer: UnsafeMutablePointer<T>?, _ capacity: Int64, _ argument: StaticString) throws(CFailure) -> UnsafeMutableBufferPointer<T> {
    guard capacity >= 0 else { throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "capacity \(capacity) is negative") }
    if capacity == 0 { return UnsafeMutableBufferPointer(start: nil, count: 0) }
    guard let pointer else { throw CFailure(TESS_ERROR_NULL_ARGUMENT, "\(argument) is NULL with capacity \(capacity)") }
    guard capacity <= Int64(Int32.max) * 64 else { throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "capacity \(capacity) is too large") }
    return UnsafeMutableBufferPointer(start: pointer, count: Int(capacity))
}

/// Writes `needed` to `count`, then fails when it does not fit `capacity`.
@inline(__always)
func fits(_ needed: Int, _ capacity: Int, _ count: UnsafeMutablePointer<Int64>, _ argument: StaticString) throws(CFailure) {
    count.pointee = Int64(needed)
    guard needed <= capacity else {
        throw CFailure(TESS_ERROR_BUFFER_TOO_SMALL, "\(argument) holds \(capacity) entries, \(needed) needed")
    }
}

/// A UTF-8 string argument with an explicit length (no NUL inside: it names a file or key).
func utf8String(_ pointer: UnsafePointer<CChar>?, _ length: Int64, _ argument: StaticString) throws(CFailure) -> String {
    let n = try nonNegative(length, argument)
    let bytes = try inputArray(pointer, n, argument)
    let raw = UnsafeRawBufferPointer(bytes)
    guard let s = String(validating: raw, as: UTF8.self) else {
        throw CFailure(TESS_ERROR_INVALID_UTF8, "\(argument) is not valid UTF-8")
    }
    guard !raw.contains(0) else { throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "\(argument) contains a NUL byte") }
    return s
}

/// Copies a string into a caller buffer (bytes, not NUL-terminated).
func writeString(_ s: String, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int64, _ length: UnsafeMutablePointer<Int64>?) throws(CFailure) {
    let length = try required(length, "length")
    let out = try outputBuffer(buffer, capacity, "buffer")
    let bytes = Array(s.utf8)
    try fits(bytes.count, out.count, length, "buffer")
    bytes.withUnsafeBytes { raw in
        if raw.count > 0 { memcpy(out.baseAddress!, raw.baseAddress!, raw.count) }
    }
}

/// `[T]` copied from a C array in one memcpy. A large copy lands in fresh pages, and faulting
/// them in one 4 KiB page at a time cost more than the copy: the whole 2 MiB pages inside
/// it are advised for transparent huge pages first (a hint; harmless when refused).
/// (An empty source gives `[]`: the initializer would write the count 0 into the shared
/// empty-array storage, which ThreadSanitizer reports when two threads do it at once.)
@inline(__always)
func copyArray<T>(_ source: UnsafeBufferPointer<T>) -> [T] {
    if source.isEmpty { return [] }
    return Array(unsafeUninitializedCapacity: source.count) { buffer, initialized in
        let bytes = source.count * MemoryLayout<T>.stride
        if bytes >= 4 << 20 { adviseHugePages(UnsafeMutableRawPointer(buffer.baseAddress!), bytes) }
        if source.count > 0 { memcpy(buffer.baseAddress!, source.baseAddress!, bytes) }
        initialized = source.count
    }
}

func adviseHugePages(_ start: UnsafeMutableRawPointer, _ bytes: Int) {
    let huge = 2 << 20
    let first = (Int(bitPattern: start) + huge - 1) & ~(huge - 1)
    let end = (Int(bitPattern: start) + bytes) & ~(huge - 1)
    if end > first { _ = madvise(UnsafeMutableRawPointer(bitPattern: first), end - first, MADV_HUGEPAGE) }
}
