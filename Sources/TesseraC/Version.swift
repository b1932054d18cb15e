import CTessera

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

@c @implementation
public func tess_abi_version() -> UInt32 { UInt32(TESS_ABI_VERSION) }

@c @implementation
public func tess_status_name(_ status: tess_status) -> UnsafePointer<CChar> {
    switch status {
    case TESS_OK: cString("OK")
    case TESS_ERROR_NULL_ARGUMENT: cString("NULL_ARGUMENT")
    case TESS_ERROR_INVALID_ARGUMENT: cString("INVALID_ARGUMENT")
    case TESS_ERROR_OUT_OF_RANGE: cString("OUT_OF_RANGE")
    case TESS_ERROR_BUFFER_TOO_SMALL: cString("BUFFER_TOO_SMALL")
    case TESS_ERROR_DUPLICATE_ID: cString("DUPLICATE_ID")
    case TESS_ERROR_UNKNOWN_ID: cString("UNKNOWN_ID")
    case TESS_ERROR_UNKNOWN_KIND: cString("UNKNOWN_KIND")
    case TESS_ERROR_INVALID_UTF8: cString("INVALID_UTF8")
    case TESS_ERROR_INVALID_TEXT_OFFSETS: cString("INVALID_TEXT_OFFSETS")
    case TESS_ERROR_INVALID_PROFILE: cString("INVALID_PROFILE")
    case TESS_ERROR_INVALID_FONT: cString("INVALID_FONT")
    case TESS_ERROR_IO: cString("IO")
    case TESS_ERROR_CAPACITY: cString("CAPACITY")
    case TESS_ERROR_CALLBACK: cString("CALLBACK")
    case TESS_ERROR_RULE_VIOLATION: cString("RULE_VIOLATION")
    case TESS_ERROR_INVALID_ENVIRONMENT: cString("INVALID_ENVIRONMENT")
    case TESS_ERROR_NO_RESULT: cString("NO_RESULT")
    case TESS_ERROR_INTERNAL: cString("INTERNAL")
    case TESS_ERROR_STALE_BATCH: cString("STALE_BATCH")
    case TESS_ERROR_NOT_ALLOWED: cString("NOT_ALLOWED")
    default: cString("UNKNOWN")
    }
}

@c @implementation
public func tess_last_error(_ handle: UnsafeRawPointer?) -> UnsafePointer<CChar> {
    if let handle {
        let object = Unmanaged<CHandle>.fromOpaque(handle).takeUnretainedValue()
        return UnsafePointer(object.lastError.pointer) ?? cString("")
    }
    if let message = pthread_getspecific(threadErrorKey) {
        return UnsafePointer(message.assumingMemoryBound(to: CChar.self))
    }
    return cString("")
}
