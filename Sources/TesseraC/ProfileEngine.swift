import CTessera
import Tessera

// The profile-driven engine (ABI version 2): the same `tess_engine_t` handle as the
// store-driven one, made from a profile and an environment, measuring its own rows.

extension EngineHandle {
    /// The profile-driven state, or a failure naming the call's need for it.
    func profiled() throws(CFailure) -> (Profile, LayoutEnvironment, TextEngineBox) {
        guard let p = engine.profile, let env = engine.environment, let text else {
            throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "engine: a store-driven engine has no profile")
        }
        return (p, env, text)
    }

    /// A measurer in the engine's current environment (made once, re-environmented when the
    /// engine's changed): element frames and the width class.
    func companionMeasurer() throws(CFailure) -> CellMeasurer {
        let (profile, env, text) = try profiled()
        if let c = companion {
            if c.environment != env { try core("environment") { () throws(TesseraError) in try c.setEnvironment(env) } }
            return c
        }
        let c = try core("environment") { () throws(TesseraError) in
            try CellMeasurer(profile: profile, environment: env, textEngine: text.engine)
        }
        companion = c
        return c
    }

    /// Runs a call that may measure text: a host callback's bad width fails it (and empties
    /// every measurer's caches, the workers' too, so no result built on it survives).
    func measuring<T>(_ body: (_ accept: () -> Bool) throws(CFailure) -> T) throws(CFailure) -> T {
        let (_, _, text) = try profiled()
        let callback = text.callback
        let accept = { () -> Bool in !(callback?.failed.load(ordering: .acquiring) ?? false) }
        do throws(CFailure) {
            return try text.measuring { () throws(CFailure) in try body(accept) }
        } catch {
            if error.status == TESS_ERROR_CALLBACK { engine.removeAllCachedTextResults() }
            throw error
        }
    }

    /// Sets a new environment built from the current one.
    func changeEnvironment(_ scrollOffset: UnsafeMutablePointer<Double>?, _ change: (inout LayoutEnvironment) throws(CFailure) -> Void) throws(CFailure) {
        var env = try profiled().1
        try change(&env)
        let y = try core("environment") { () throws(TesseraError) in try engine.setEnvironment(env) }
        scrollOffset?.pointee = y
    }
}

/// Parameter values by name from C columns (all checked before any is used).
func parameterValues(_ p: UnsafePointer<tess_parameters>?, into values: inout [String: Int]) throws(CFailure) {
    guard let p = p?.pointee else { return }
    let n = try nonNegative(p.count, "parameters.count")
    let bytes = try nonNegative(p.names_byte_count, "parameters.names_byte_count")
    let utf8 = UnsafeRawBufferPointer(try inputArray(p.names_utf8, bytes, "parameters.names_utf8"))
    guard n < Int(Int32.max) else { throw CFailure(TESS_ERROR_CAPACITY, "parameters.count \(n) is over 2^31 - 1") }
    let offsets = try inputArray(p.name_offsets, n == 0 ? 0 : n + 1, "parameters.name_offsets")
    let v = try inputArray(p.values, n, "parameters.values")
    for i in 0..<n {
        let lo = offsets[i], hi = offsets[i + 1]
        guard lo >= 0, lo <= hi, hi <= Int64(bytes) else {
            throw CFailure(TESS_ERROR_INVALID_TEXT_OFFSETS, "parameters.name_offsets[\(i)] \(lo) ..< \(hi) outside 0 ... \(bytes)")
        }
        let raw = UnsafeRawBufferPointer(rebasing: utf8[Int(lo)..<Int(hi)])
        guard let name = String(validating: raw, as: UTF8.self) else {
            throw CFailure(TESS_ERROR_INVALID_UTF8, "parameters: name \(i) is not valid UTF-8")
        }
        guard v[i] >= Int64(Int32.min), v[i] <= Int64(Int32.max) else {
            throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "parameters.values[\(i)] \(v[i]) is outside the 32-bit range")
        }
        values[name] = Int(v[i])
    }
}

func cEnvironment(_ e: LayoutEnvironment) -> tess_environment {
    tess_environment(
        width: e.width, platform: e.platform == .ios ? TESS_PLATFORM_IOS : TESS_PLATFORM_ANDROID, edit_mode: e.editMode ? 1 : 0,
        font_scale: e.fontScale)
}

@c @implementation
public func tess_engine_create_with_profile(_ profile: OpaquePointer?, _ env: UnsafePointer<tess_environment>?, _ parameters: UnsafePointer<tess_parameters>?, _ viewport: Double, _ overscan: Double, _ textEngine: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> tess_status {
    runWithoutHandle("tess_engine_create_with_profile") { () throws(CFailure) in
        let out = try required(out, "out")
        out.pointee = nil
        guard let p = ProfileHandle.object(profile) else { throw CFailure(TESS_ERROR_NULL_ARGUMENT, "profile is NULL") }
        var values: [String: Int] = [:]
        try parameterValues(parameters, into: &values)
        let e = try environment(env, parameters: values)
        guard viewport.isFinite, viewport >= 0 else {
            throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "viewport \(viewport) must be finite and >= 0")
        }
        guard overscan.isFinite, overscan >= 0 else {
            throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "overscan \(overscan) must be finite and >= 0")
        }
        let box = TextEngineHandle.object(textEngine)?.box ?? TextEngineBox(engine: TextLayoutEngine(), callback: nil)
        let list = try core("environment") { () throws(TesseraError) in
            try ListEngine(profile: p.profile, environment: e, viewport: viewport, overscan: overscan, textEngine: box.engine)
        }
        let handle = EngineHandle(list)
        handle.text = box
        out.pointee = handle.retainedPointer()
    }
}

@c @implementation
public func tess_engine_has_profile(_ engine: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_has_profile", "engine") }
    return e.run("tess_engine_has_profile") { () throws(CFailure) in
        try required(out, "out").pointee = e.engine.profile == nil ? 0 : 1
    }
}

/// Rows with versions from C columns, copied into the arrays the Swift API takes.
struct VersionedRows {
    var ids: [UInt64]
    var kinds: [UInt16]
    var versions: [UInt64]?
    var text: RowText?

    init(_ ids: UnsafePointer<UInt64>?, _ kinds: UnsafePointer<UInt16>?, _ versions: UnsafePointer<UInt64>?, _ count: Int64,
         _ text: UnsafePointer<tess_text_columns>?) throws(CFailure) {
        let b = RowBatch(try borrowedRows(ids, kinds, nil, count, text))
        self.ids = b.ids
        self.kinds = b.kinds
        self.text = b.text
        self.versions = versions.map { copyArray(UnsafeBufferPointer(start: $0, count: b.ids.count)) }
    }
}

@c @implementation
public func tess_engine_insert_rows(_ engine: OpaquePointer?, _ index: Int64, _ ids: UnsafePointer<UInt64>?, _ kinds: UnsafePointer<UInt16>?, _ versions: UnsafePointer<UInt64>?, _ count: Int64, _ text: UnsafePointer<tess_text_columns>?, _ scrollOffset: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_insert_rows", "engine") }
    return e.run("tess_engine_insert_rows") { () throws(CFailure) in
        let rows = e.engine.store.count
        guard index >= 0, index <= Int64(rows) else {
            throw CFailure(TESS_ERROR_OUT_OF_RANGE, "index \(index) out of bounds for insertion into \(rows) rows")
        }
        let b = try VersionedRows(ids, kinds, versions, count, text)
        let y = try core("rows") { () throws(TesseraError) in
            try e.engine.insert(ids: b.ids, kinds: b.kinds, text: b.text, versions: b.versions, at: Int(index))
        }
        scrollOffset?.pointee = y
    }
}

@c @implementation
public func tess_engine_append_rows(_ engine: OpaquePointer?, _ ids: UnsafePointer<UInt64>?, _ kinds: UnsafePointer<UInt16>?, _ versions: UnsafePointer<UInt64>?, _ count: Int64, _ text: UnsafePointer<tess_text_columns>?, _ scrollOffset: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_append_rows", "engine") }
    return e.run("tess_engine_append_rows") { () throws(CFailure) in
        let b = try VersionedRows(ids, kinds, versions, count, text)
        let y = try core("rows") { () throws(TesseraError) in
            try e.engine.append(ids: b.ids, kinds: b.kinds, text: b.text, versions: b.versions)
        }
        scrollOffset?.pointee = y
    }
}

@c @implementation
public func tess_engine_update_rows(_ engine: OpaquePointer?, _ ids: UnsafePointer<UInt64>?, _ versions: UnsafePointer<UInt64>?, _ count: Int64, _ text: UnsafePointer<tess_text_columns>?, _ scrollOffset: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_update_rows", "engine") }
    return e.run("tess_engine_update_rows") { () throws(CFailure) in
        let n = try nonNegative(count, "count")
        guard n < Int(Int32.max) else { throw CFailure(TESS_ERROR_CAPACITY, "count \(n) rows is over 2^31 - 1") }
        let idList = copyArray(try inputArray(ids, n, "ids"))
        let versionList = copyArray(try inputArray(versions, n, "versions"))
        var rowText: RowText?
        if text != nil {
            let t = try TextColumnsArgument(text, rows: n, argument: "text")
            rowText = RowText(utf8: copyArray(t.utf8.assumingMemoryBound(to: UInt8.self)), slotsPerRow: t.slotsPerRow, offsets: copyArray(t.offsets))
        }
        let y = try core("rows") { () throws(TesseraError) in
            try e.engine.updateContent(ids: idList, versions: versionList, text: rowText)
        }
        scrollOffset?.pointee = y
    }
}

@c @implementation
public func tess_engine_row_version(_ engine: OpaquePointer?, _ row: Int64, _ version: UnsafeMutablePointer<UInt64>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_row_version", "engine") }
    return e.run("tess_engine_row_version") { () throws(CFailure) in
        let out = try required(version, "version")
        let r = try e.checkRow(row)
        out.pointee = try core("row") { () throws(TesseraError) in try e.engine.store.contentVersion(ofRow: r) }
    }
}

// MARK: Environment

@c @implementation
public func tess_engine_get_environment(_ engine: OpaquePointer?, _ out: UnsafeMutablePointer<tess_environment>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_get_environment", "engine") }
    return e.run("tess_engine_get_environment") { () throws(CFailure) in
        let out = try required(out, "out")
        out.pointee = cEnvironment(try e.profiled().1)
    }
}

@c @implementation
public func tess_engine_set_environment(_ engine: OpaquePointer?, _ env: UnsafePointer<tess_environment>?, _ scrollOffset: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_set_environment", "engine") }
    return e.run("tess_engine_set_environment") { () throws(CFailure) in
        let current = try e.profiled().1
        var new = try environment(env, parameters: current.parameters)
        new.widthClass = current.widthClass
        try e.changeEnvironment(scrollOffset) { (env) throws(CFailure) in env = new }
    }
}

@c @implementation
public func tess_engine_set_width(_ engine: OpaquePointer?, _ width: Double, _ scrollOffset: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_set_width", "engine") }
    return e.run("tess_engine_set_width") { () throws(CFailure) in
        try e.changeEnvironment(scrollOffset) { (env) throws(CFailure) in env.width = width }
    }
}

@c @implementation
public func tess_engine_set_edit_mode(_ engine: OpaquePointer?, _ editMode: Int32, _ scrollOffset: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_set_edit_mode", "engine") }
    return e.run("tess_engine_set_edit_mode") { () throws(CFailure) in
        guard editMode == 0 || editMode == 1 else {
            throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "edit_mode \(editMode) is not 0 or 1")
        }
        try e.changeEnvironment(scrollOffset) { (env) throws(CFailure) in env.editMode = editMode == 1 }
    }
}

@c @implementation
public func tess_engine_set_font_scale(_ engine: OpaquePointer?, _ fontScale: Double, _ scrollOffset: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_set_font_scale", "engine") }
    return e.run("tess_engine_set_font_scale") { () throws(CFailure) in
        try e.changeEnvironment(scrollOffset) { (env) throws(CFailure) in env.fontScale = fontScale }
    }
}

@c @implementation
public func tess_engine_set_platform(_ engine: OpaquePointer?, _ value: Int32, _ scrollOffset: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_set_platform", "engine") }
    return e.run("tess_engine_set_platform") { () throws(CFailure) in
        let p = try platform(value, "platform")
        try e.changeEnvironment(scrollOffset) { (env) throws(CFailure) in env.platform = p }
    }
}

@c @implementation
public func tess_engine_set_parameters(_ engine: OpaquePointer?, _ parameters: UnsafePointer<tess_parameters>?, _ scrollOffset: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_set_parameters", "engine") }
    return e.run("tess_engine_set_parameters") { () throws(CFailure) in
        _ = try e.profiled()
        _ = try required(parameters, "parameters")
        try e.changeEnvironment(scrollOffset) { (env) throws(CFailure) in try parameterValues(parameters, into: &env.parameters) }
    }
}

@c @implementation
public func tess_engine_width_class(_ engine: OpaquePointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int64, _ length: UnsafeMutablePointer<Int64>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_width_class", "engine") }
    return e.run("tess_engine_width_class") { () throws(CFailure) in
        try writeString(try e.companionMeasurer().widthClass, buffer, capacity, length)
    }
}

@c @implementation
public func tess_engine_set_width_class(_ engine: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ nameLength: Int64, _ scrollOffset: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_set_width_class", "engine") }
    return e.run("tess_engine_set_width_class") { () throws(CFailure) in
        let widthClass = name == nil && nameLength == 0 ? nil : try utf8String(name, nameLength, "name")
        try e.changeEnvironment(scrollOffset) { (env) throws(CFailure) in env.widthClass = widthClass }
    }
}

@c @implementation
public func tess_engine_set_overscan(_ engine: OpaquePointer?, _ overscan: Double) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_set_overscan", "engine") }
    return e.run("tess_engine_set_overscan") { () throws(CFailure) in
        guard overscan.isFinite, overscan >= 0 else {
            throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "overscan \(overscan) must be finite and >= 0")
        }
        try core("overscan") { () throws(TesseraError) in try e.engine.setOverscan(overscan) }
    }
}

@c @implementation
public func tess_engine_get_overscan(_ engine: OpaquePointer?, _ out: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_get_overscan", "engine") }
    return e.run("tess_engine_get_overscan") { () throws(CFailure) in
        try required(out, "out").pointee = e.engine.overscan
    }
}

// MARK: Measurement

@c @implementation
public func tess_engine_dirty_count(_ engine: OpaquePointer?, _ count: UnsafeMutablePointer<Int64>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_dirty_count", "engine") }
    return e.run("tess_engine_dirty_count") { () throws(CFailure) in
        try required(count, "count").pointee = Int64(e.engine.dirtyCount)
    }
}

@c @implementation
public func tess_engine_measure(_ engine: OpaquePointer?, _ budgetKind: Int32, _ budget: Int64, _ progress: UnsafeMutablePointer<tess_measure_progress>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_measure", "engine") }
    return e.run("tess_engine_measure") { () throws(CFailure) in
        let amount = try nonNegative(budget, "budget")
        let b: MeasureBudget
        switch budgetKind {
        case TESS_BUDGET_ROWS: b = .rows(amount)
        case TESS_BUDGET_NANOSECONDS: b = .nanoseconds(UInt64(amount))
        default: throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "budget_kind \(budgetKind) is not TESS_BUDGET_ROWS or TESS_BUDGET_NANOSECONDS")
        }
        let p = try e.measuring { (accept) throws(CFailure) in
            try core("budget") { () throws(TesseraError) in try e.engine.measure(budget: b, acceptIf: accept) }
        }
        progress?.pointee = tess_measure_progress(measured: Int64(p.measured), remaining: Int64(p.remaining), scroll_offset: p.scrollOffset)
    }
}

@c @implementation
public func tess_engine_measure_all(_ engine: OpaquePointer?, _ threads: Int64, _ scrollOffset: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_measure_all", "engine") }
    return e.run("tess_engine_measure_all") { () throws(CFailure) in
        guard threads >= 1, threads <= 256 else { throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "threads \(threads) is outside 1...256") }
        let y = try e.measuring { (accept) throws(CFailure) in
            try core("threads") { () throws(TesseraError) in try e.engine.measureAll(threads: Int(threads), acceptIf: accept) }
        }
        scrollOffset?.pointee = y
    }
}

@c @implementation
public func tess_engine_get_statistics(_ engine: OpaquePointer?, _ out: UnsafeMutablePointer<tess_text_statistics>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_get_statistics", "engine") }
    return e.run("tess_engine_get_statistics") { () throws(CFailure) in
        let out = try required(out, "out")
        let s = try e.profiled().2.engine.statistics
        out.pointee = tess_text_statistics(
            segments: cStatistics(s.segments), prepared_texts: cStatistics(s.preparedTexts), line_breaks: cStatistics(s.lineBreaks))
    }
}

// MARK: Window and frames

func cItem(_ v: VisibleItem) -> tess_visible_item {
    tess_visible_item(
        row: Int64(v.row), id: v.id, x: v.x, y: v.y, width: v.width, height: v.height, kind: v.kind, flags: v.flags.rawValue,
        reserved: 0)
}

/// Whether `VisibleItem` has `tess_visible_item`'s layout, so items are written straight
/// into the host's buffer (checked once, field by field).
let visibleItemMatchesC: Bool = {
    typealias S = VisibleItem
    typealias C = tess_visible_item
    return MemoryLayout<S>.stride == MemoryLayout<C>.stride
        && MemoryLayout<S>.offset(of: \S.row) == MemoryLayout<C>.offset(of: \C.row)
        && MemoryLayout<S>.offset(of: \S.id) == MemoryLayout<C>.offset(of: \C.id)
        && MemoryLayout<S>.offset(of: \S.x) == MemoryLayout<C>.offset(of: \C.x)
        && MemoryLayout<S>.offset(of: \S.y) == MemoryLayout<C>.offset(of: \C.y)
        && MemoryLayout<S>.offset(of: \S.width) == MemoryLayout<C>.offset(of: \C.width)
        && MemoryLayout<S>.offset(of: \S.height) == MemoryLayout<C>.offset(of: \C.height)
        && MemoryLayout<S>.offset(of: \S.kind) == MemoryLayout<C>.offset(of: \C.kind)
        && MemoryLayout<S>.offset(of: \S.flags) == MemoryLayout<C>.offset(of: \C.flags)
        && MemoryLayout<Int>.size == 8 && MemoryLayout<RowFlags>.size == 2
}()

// Runs once per frame: the handle is borrowed without retaining it, and the items go
// straight into the host's buffer when the layouts match (nothing allocated).
@c @implementation
public func tess_engine_items(_ engine: OpaquePointer?, _ items: UnsafeMutablePointer<tess_visible_item>?, _ capacity: Int64, _ count: UnsafeMutablePointer<Int64>?, _ sticky: UnsafeMutablePointer<tess_visible_item>?, _ hasSticky: UnsafeMutablePointer<Int32>?) -> tess_status {
    guard let engine else { return nullHandle("tess_engine_items", "engine") }
    return Unmanaged<EngineHandle>.fromOpaque(UnsafeRawPointer(engine))._withUnsafeGuaranteedRef { e in
        e.run("tess_engine_items") { () throws(CFailure) in
            let count = try required(count, "count")
            let out = try outputBuffer(items, capacity, "items")
            let list = e.list
            func query(_ buffer: UnsafeMutableBufferPointer<VisibleItem>) throws(CFailure) -> WindowResult {
                do throws(TesseraError) {
                    return try list.pointee.window(into: buffer)
                } catch {
                    if case .bufferTooSmall(let needed, let capacity) = error {
                        count.pointee = Int64(needed)
                        throw CFailure(TESS_ERROR_BUFFER_TOO_SMALL, "items holds \(capacity) entries, \(needed) needed")
                    }
                    throw CFailure(error, argument: "window")
                }
            }
            let result: WindowResult
            if visibleItemMatchesC || out.count == 0 {
                let p = UnsafeMutableRawPointer(out.baseAddress)?.assumingMemoryBound(to: VisibleItem.self)
                result = try query(UnsafeMutableBufferPointer(start: p, count: out.count))
            } else {
                let scratch = UnsafeMutableBufferPointer<VisibleItem>.allocate(capacity: out.count)
                defer { scratch.deallocate() }
                result = try query(scratch)
                for i in 0..<result.count { out[i] = cItem(scratch[i]) }
            }
            count.pointee = Int64(result.count)
            if let s = result.stickyHeader {
                sticky?.pointee = cItem(s)
                hasSticky?.pointee = 1
            } else {
                sticky?.pointee = tess_visible_item()
                hasSticky?.pointee = 0
            }
        }
    }
}

@c @implementation
public func tess_engine_row_frames(_ engine: OpaquePointer?, _ row: Int64, _ frames: UnsafeMutablePointer<tess_element_frame>?, _ capacity: Int64, _ count: UnsafeMutablePointer<Int64>?, _ cellWidth: UnsafeMutablePointer<Double>?, _ cellHeight: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_row_frames", "engine") }
    return e.run("tess_engine_row_frames") { () throws(CFailure) in
        let count = try required(count, "count")
        let out = try outputBuffer(frames, capacity, "frames")
        let m = try e.companionMeasurer()
        let r = try e.checkRow(row)
        // The stored row's values as one buffer and slot offsets, as the measurer reads them.
        let (kind, utf8, offsets) = try core("row") { () throws(TesseraError) in
            let info = try e.engine.store.row(r)
            let slots = try e.engine.store.textSlotCount(ofRow: r)
            var utf8: [UInt8] = [], offsets: [Int] = [0]
            for s in 0..<slots {
                utf8 += Array(try e.engine.store.text(ofRow: r, slot: s).utf8)
                offsets.append(utf8.count)
            }
            return (info.kind, utf8, offsets)
        }
        let f = try e.measuring { (_) throws(CFailure) in
            utf8.withUnsafeBytes { u in
                offsets.withUnsafeBufferPointer { o in m.frames(kind: kind, utf8: u, slotOffsets: o) }
            }
        }
        let elements = cFrames(f, positions: slotPositions(m.profile, kind))
        cellWidth?.pointee = f.width
        cellHeight?.pointee = f.height
        try fits(elements.count, out.count, count, "frames")
        for (i, x) in elements.enumerated() { out[i] = x }
    }
}
