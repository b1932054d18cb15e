/// A value (also a ~Copyable one: `RowStore`, `ListEngine`) kept at a fixed address for the
/// benchmark closures, which reach it through `pointee` without the dynamic exclusivity
/// check a class's stored `var` would cost on every access.
public final class Held<Value: ~Copyable>: @unchecked Sendable {
    public let pointer: UnsafeMutablePointer<Value>

    public init(_ value: consuming Value) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: value)
    }

    deinit {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }
}
