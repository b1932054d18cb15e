import CTessera
import Tessera

final class EngineHandle: CHandle {
    /// The list, behind a pointer: a class's stored property would cost a dynamic
    /// exclusivity check on every call (one thread at a time per handle is the contract).
    let list: UnsafeMutablePointer<ListEngine>
    /// Window rows when `VisibleRow` and `tess_visible_row` differ in layout (never, so far:
    /// the window is then written straight into the caller's buffer).
    var scratch = UnsafeMutableBufferPointer<VisibleRow>(start: nil, count: 0)
    /// Profile-driven engines: the text engine the rows are measured with (and the state of
    /// its host callback, if any).
    var text: TextEngineBox?
    /// Profile-driven engines: a measurer kept in the engine's environment for element
    /// frames and the width class, made on first use.
    var companion: CellMeasurer?
    /// The rows the last state-changing call (swipe, selection, viewed, apply) changed.
    var changed: [RowReference] = []

    init(_ engine: consuming ListEngine) {
        list = .allocate(capacity: 1)
        list.initialize(to: engine)
    }

    deinit {
        list.deinitialize(count: 1)
        list.deallocate()
        scratch.deallocate()
    }

    var engine: ListEngine {
        _read { yield list.pointee }
        _modify { yield &list.pointee }
    }
}

/// Whether `VisibleRow` has `tess_visible_row`'s layout, so windows can be written straight
/// into the host's buffer (checked once, field by field).
let visibleRowMatchesC: Bool = {
    typealias S = VisibleRow
    typealias C = tess_visible_row
    return MemoryLayout<S>.stride == MemoryLayout<C>.stride
        && MemoryLayout<S>.offset(of: \S.row) == MemoryLayout<C>.offset(of: \C.row)
        && MemoryLayout<S>.offset(of: \S.id) == MemoryLayout<C>.offset(of: \C.id)
        && MemoryLayout<S>.offset(of: \S.y) == MemoryLayout<C>.offset(of: \C.y)
        && MemoryLayout<S>.offset(of: \S.height) == MemoryLayout<C>.offset(of: \C.height)
        && MemoryLayout<S>.offset(of: \S.kind) == MemoryLayout<C>.offset(of: \C.kind)
        && MemoryLayout<S>.offset(of: \S.flags) == MemoryLayout<C>.offset(of: \C.flags)
        && MemoryLayout<Int>.size == 8 && MemoryLayout<RowFlags>.size == 2
}()

extension EngineHandle {
    /// Runs a window query into the host's rows: straight into its buffer when the layouts
    /// match, else through scratch. A too-small buffer sets `count` to the rows needed.
    @inline(__always)
    func window(_ rows: UnsafeMutablePointer<tess_visible_row>?, _ capacity: Int64, _ count: UnsafeMutablePointer<Int64>?,
                _ query: (UnsafeMutableBufferPointer<VisibleRow>) throws(TesseraError) -> WindowRange) throws(CFailure) {
        let count = try required(count, "count")
        let out = try outputBuffer(rows, capacity, "rows")
        var result: Result<WindowRange, TesseraError>
        if visibleRowMatchesC || out.count == 0 {
            let p = UnsafeMutableRawPointer(out.baseAddress)?.assumingMemoryBound(to: VisibleRow.self)
            let buffer = UnsafeMutableBufferPointer(start: p, count: out.count)
            do throws(TesseraError) { result = .success(try query(buffer)) } catch { result = .failure(error) }
        } else {
            if scratch.count < out.count {
                scratch.deallocate()
                scratch = .allocate(capacity: out.count)
            }
            let buffer = UnsafeMutableBufferPointer(rebasing: scratch[0..<out.count])
            do throws(TesseraError) { result = .success(try query(buffer)) } catch { result = .failure(error) }
            if case .success(let r) = result {
                for i in 0..<r.count {
                    let v = buffer[i]
                    out[i] = tess_visible_row(row: Int64(v.row), id: v.id, y: v.y, height: v.height, kind: v.kind,
                                              flags: v.flags.rawValue, reserved: 0)
                }
            }
        }
        switch result {
        case .success(let r):
            count.pointee = Int64(r.count)
        case .failure(.bufferTooSmall(let needed, let capacity)):
            count.pointee = Int64(needed)
            throw CFailure(TESS_ERROR_BUFFER_TOO_SMALL, "rows holds \(capacity) entries, \(needed) needed")
        case .failure(let error):
            throw CFailure(error, argument: "window")
        }
    }

    func checkRow(_ row: Int64, _ argument: StaticString = "row") throws(CFailure) -> Int {
        let n = engine.store.count
        guard row >= 0, row < Int64(n) else {
            throw CFailure(TESS_ERROR_OUT_OF_RANGE, "\(argument) \(row) out of bounds for \(n) rows")
        }
        return Int(row)
    }
}

/// A batch of rows from C columns, copied into the arrays the Swift API takes.
/// The host's row columns, checked and borrowed for the duration of a call.
func borrowedRows(_ ids: UnsafePointer<UInt64>?, _ kinds: UnsafePointer<UInt16>?, _ heights: UnsafePointer<Double>?, _ count: Int64,
                  _ text: UnsafePointer<tess_text_columns>?) throws(CFailure) -> RowColumns {
    let n = try nonNegative(count, "count")
    guard n < Int(Int32.max) else { throw CFailure(TESS_ERROR_CAPACITY, "count \(n) rows is over 2^31 - 1") }
    var columns: TextColumns? = nil
    if text != nil {
        let t = try TextColumnsArgument(text, rows: n, argument: "text")
        columns = TextColumns(utf8: t.utf8, offsets: t.offsets, slotsPerRow: t.slotsPerRow)
    }
    return RowColumns(
        ids: try inputArray(ids, n, "ids"), kinds: try inputArray(kinds, n, "kinds"),
        heights: heights.map { UnsafeBufferPointer(start: $0, count: n) }, text: columns)
}

/// The host's row columns copied into arrays, for the calls that take arrays (a
/// profile-driven list checks and keeps its rows' values through them).
struct RowBatch {
    var ids: [UInt64]
    var kinds: [UInt16]
    var heights: [Double]?
    var text: RowText?

    init(_ rows: RowColumns) {
        ids = copyArray(rows.ids)
        kinds = copyArray(rows.kinds)
        heights = rows.heights.map(copyArray)
        text = rows.text.map {
            RowText(utf8: copyArray($0.utf8.assumingMemoryBound(to: UInt8.self)), slotsPerRow: $0.slotsPerRow, offsets: copyArray($0.offsets))
        }
    }
}

/// Inserts the host's rows before `index`: a store-driven list reads them in place, a
/// profile-driven one through copies.
func insertRows(_ e: EngineHandle, _ rows: RowColumns, at index: Int) throws(CFailure) -> Double {
    try core("rows") { () throws(TesseraError) in
        if e.engine.profile == nil { return try e.engine.insert(rows, at: index) }
        let b = RowBatch(rows)
        return try e.engine.insert(ids: b.ids, kinds: b.kinds, heights: b.heights, text: b.text, at: index)
    }
}

@c @implementation
public func tess_engine_create(_ estimates: UnsafePointer<Double>?, _ kindCount: Int64, _ viewport: Double, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> tess_status {
    runWithoutHandle("tess_engine_create") { () throws(CFailure) in
        let out = try required(out, "out")
        out.pointee = nil
        let estimates = try required(estimates, "estimated_heights")
        let n = try nonNegative(kindCount, "kind_count")
        guard n <= 65536 else { throw CFailure(TESS_ERROR_CAPACITY, "kind_count \(n) is over 65536") }
        let heights = copyArray(UnsafeBufferPointer(start: estimates, count: n))
        let store = try core("estimated_heights") { () throws(TesseraError) in try RowStore(estimatedHeights: heights) }
        guard viewport.isFinite, viewport >= 0 else {
            throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "viewport \(viewport) must be finite and >= 0")
        }
        let engine: ListEngine
        do throws(TesseraError) { engine = try ListEngine(store: store, viewport: viewport) } catch {
            throw CFailure(error, argument: "viewport")
        }
        out.pointee = EngineHandle(engine).retainedPointer()
    }
}

@c @implementation
public func tess_engine_destroy(_ engine: OpaquePointer?) { EngineHandle.destroy(engine) }

@c @implementation
public func tess_engine_row_count(_ engine: OpaquePointer?, _ count: UnsafeMutablePointer<Int64>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_row_count", "engine") }
    return e.run("tess_engine_row_count") { () throws(CFailure) in
        try required(count, "count").pointee = Int64(e.engine.store.count)
    }
}

@c @implementation
public func tess_engine_total_height(_ engine: OpaquePointer?, _ out: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_total_height", "engine") }
    return e.run("tess_engine_total_height") { () throws(CFailure) in
        try required(out, "out").pointee = e.engine.store.totalHeight
    }
}

@c @implementation
public func tess_engine_insert(_ engine: OpaquePointer?, _ index: Int64, _ ids: UnsafePointer<UInt64>?, _ kinds: UnsafePointer<UInt16>?, _ heights: UnsafePointer<Double>?, _ count: Int64, _ text: UnsafePointer<tess_text_columns>?, _ scrollOffset: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_insert", "engine") }
    return e.run("tess_engine_insert") { () throws(CFailure) in
        let rows = e.engine.store.count
        guard index >= 0, index <= Int64(rows) else {
            throw CFailure(TESS_ERROR_OUT_OF_RANGE, "index \(index) out of bounds for insertion into \(rows) rows")
        }
        let y = try insertRows(e, try borrowedRows(ids, kinds, heights, count, text), at: Int(index))
        scrollOffset?.pointee = y
    }
}

@c @implementation
public func tess_engine_append(_ engine: OpaquePointer?, _ ids: UnsafePointer<UInt64>?, _ kinds: UnsafePointer<UInt16>?, _ heights: UnsafePointer<Double>?, _ count: Int64, _ text: UnsafePointer<tess_text_columns>?, _ scrollOffset: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_append", "engine") }
    return e.run("tess_engine_append") { () throws(CFailure) in
        let y = try insertRows(e, try borrowedRows(ids, kinds, heights, count, text), at: e.engine.store.count)
        scrollOffset?.pointee = y
    }
}

@c @implementation
public func tess_engine_remove(_ engine: OpaquePointer?, _ start: Int64, _ count: Int64, _ scrollOffset: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_remove", "engine") }
    return e.run("tess_engine_remove") { () throws(CFailure) in
        let n = try nonNegative(count, "count")
        let rows = e.engine.store.count
        guard start >= 0, start <= Int64(rows), Int64(n) <= Int64(rows) - start else {
            throw CFailure(TESS_ERROR_OUT_OF_RANGE, "rows \(start) ..< \(start) + \(count) out of bounds for \(rows) rows")
        }
        let s = Int(start)
        let y = try core("start") { () throws(TesseraError) in try e.engine.removeRows(s..<(s + n)) }
        scrollOffset?.pointee = y
    }
}

@c @implementation
public func tess_engine_set_heights(_ engine: OpaquePointer?, _ start: Int64, _ heights: UnsafePointer<Double>?, _ count: Int64, _ scrollOffset: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_set_heights", "engine") }
    return e.run("tess_engine_set_heights") { () throws(CFailure) in
        let n = try nonNegative(count, "count")
        let h = try inputArray(heights, n, "heights")
        let rows = e.engine.store.count
        guard start >= 0, start <= Int64(rows), Int64(n) <= Int64(rows) - start else {
            throw CFailure(TESS_ERROR_OUT_OF_RANGE, "rows \(start) ..< \(start) + \(count) out of bounds for \(rows) rows")
        }
        // All checked before the first change, so a failure changes nothing.
        for i in 0..<n where !(h[i].isFinite && h[i] >= 0 && h[i] <= RowStore.maximumRowHeight) {
            throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "heights[\(i)] \(h[i]) must be finite, >= 0 and <= \(RowStore.maximumRowHeight)")
        }
        var y = e.engine.scrollOffset
        for i in 0..<n {
            y = try core("heights") { () throws(TesseraError) in try e.engine.setHeight(h[i], ofRow: Int(start) + i) }
        }
        scrollOffset?.pointee = y
    }
}

@c @implementation
public func tess_engine_invalidate_height(_ engine: OpaquePointer?, _ row: Int64, _ scrollOffset: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_invalidate_height", "engine") }
    return e.run("tess_engine_invalidate_height") { () throws(CFailure) in
        let r = try e.checkRow(row)
        let y = try core("row") { () throws(TesseraError) in try e.engine.invalidateHeight(ofRow: r) }
        scrollOffset?.pointee = y
    }
}

@c @implementation
public func tess_engine_update_flags(_ engine: OpaquePointer?, _ row: Int64, _ set: UInt16, _ clear: UInt16) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_update_flags", "engine") }
    return e.run("tess_engine_update_flags") { () throws(CFailure) in
        let r = try e.checkRow(row)
        guard set & clear == 0 else {
            throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "set_flags 0x\(String(set, radix: 16)) and clear_flags 0x\(String(clear, radix: 16)) overlap")
        }
        try core("set_flags") { () throws(TesseraError) in
            try e.engine.updateFlags(ofRow: r, setting: RowFlags(rawValue: set), clearing: RowFlags(rawValue: clear))
        }
    }
}

@c @implementation
public func tess_engine_get_row(_ engine: OpaquePointer?, _ row: Int64, _ out: UnsafeMutablePointer<tess_row_info>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_get_row", "engine") }
    return e.run("tess_engine_get_row") { () throws(CFailure) in
        let out = try required(out, "out")
        let r = try e.checkRow(row)
        let info = try core("row") { () throws(TesseraError) in try e.engine.store.row(r) }
        out.pointee = tess_row_info(id: info.id, height: info.height, kind: info.kind, flags: info.flags.rawValue, reserved: 0)
    }
}

@c @implementation
public func tess_engine_row_text(_ engine: OpaquePointer?, _ row: Int64, _ slot: Int64, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int64, _ length: UnsafeMutablePointer<Int64>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_row_text", "engine") }
    return e.run("tess_engine_row_text") { () throws(CFailure) in
        let r = try e.checkRow(row)
        guard slot >= 0, slot <= 255 else { throw CFailure(TESS_ERROR_OUT_OF_RANGE, "slot \(slot) is outside 0...255") }
        let s = try core("row") { () throws(TesseraError) in try e.engine.store.text(ofRow: r, slot: Int(slot)) }
        try writeString(s, buffer, capacity, length)
    }
}

@c @implementation
public func tess_engine_index_of(_ engine: OpaquePointer?, _ id: UInt64, _ row: UnsafeMutablePointer<Int64>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_index_of", "engine") }
    return e.run("tess_engine_index_of") { () throws(CFailure) in
        let out = try required(row, "row")
        guard let i = e.engine.store.index(of: id) else { throw CFailure(TESS_ERROR_UNKNOWN_ID, "id \(id) is not in the list") }
        out.pointee = Int64(i)
    }
}

@c @implementation
public func tess_engine_offset_of_row(_ engine: OpaquePointer?, _ row: Int64, _ offset: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_offset_of_row", "engine") }
    return e.run("tess_engine_offset_of_row") { () throws(CFailure) in
        let out = try required(offset, "offset")
        let r = try e.checkRow(row)
        out.pointee = try core("row") { () throws(TesseraError) in try e.engine.store.offset(ofRow: r) }
    }
}

@c @implementation
public func tess_engine_row_at_offset(_ engine: OpaquePointer?, _ y: Double, _ row: UnsafeMutablePointer<Int64>?, _ offsetInRow: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_row_at_offset", "engine") }
    return e.run("tess_engine_row_at_offset") { () throws(CFailure) in
        let out = try required(row, "row")
        let hit = try core("y") { () throws(TesseraError) in try e.engine.store.row(atOffset: y) }
        out.pointee = Int64(hit?.row ?? -1)
        offsetInRow?.pointee = hit?.offsetInRow ?? 0
    }
}

@c @implementation
public func tess_engine_scroll_to(_ engine: OpaquePointer?, _ offset: Double, _ scrollOffset: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_scroll_to", "engine") }
    return e.run("tess_engine_scroll_to") { () throws(CFailure) in
        let y = try core("offset") { () throws(TesseraError) in try e.engine.scroll(to: offset) }
        scrollOffset?.pointee = y
    }
}

@c @implementation
public func tess_engine_get_scroll_offset(_ engine: OpaquePointer?, _ out: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_get_scroll_offset", "engine") }
    return e.run("tess_engine_get_scroll_offset") { () throws(CFailure) in
        try required(out, "out").pointee = e.engine.scrollOffset
    }
}

@c @implementation
public func tess_engine_max_scroll_offset(_ engine: OpaquePointer?, _ out: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_max_scroll_offset", "engine") }
    return e.run("tess_engine_max_scroll_offset") { () throws(CFailure) in
        try required(out, "out").pointee = e.engine.maximumScrollOffset
    }
}

@c @implementation
public func tess_engine_set_viewport(_ engine: OpaquePointer?, _ viewport: Double, _ scrollOffset: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_set_viewport", "engine") }
    return e.run("tess_engine_set_viewport") { () throws(CFailure) in
        try core("viewport") { () throws(TesseraError) in try e.engine.setViewport(viewport) }
        scrollOffset?.pointee = e.engine.scrollOffset
    }
}

@c @implementation
public func tess_engine_get_viewport(_ engine: OpaquePointer?, _ out: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_get_viewport", "engine") }
    return e.run("tess_engine_get_viewport") { () throws(CFailure) in
        try required(out, "out").pointee = e.engine.viewport
    }
}

@c @implementation
public func tess_engine_get_anchor(_ engine: OpaquePointer?, _ hasAnchor: UnsafeMutablePointer<Int32>?, _ id: UnsafeMutablePointer<UInt64>?, _ offsetInRow: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_get_anchor", "engine") }
    return e.run("tess_engine_get_anchor") { () throws(CFailure) in
        let has = try required(hasAnchor, "has_anchor")
        let a = e.engine.anchor
        has.pointee = a == nil ? 0 : 1
        id?.pointee = a?.id ?? 0
        offsetInRow?.pointee = a?.offsetInRow ?? 0
    }
}

@c @implementation
public func tess_engine_scroll_offset_to_row(_ engine: OpaquePointer?, _ row: Int64, _ position: Int32, _ offset: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_scroll_offset_to_row", "engine") }
    return e.run("tess_engine_scroll_offset_to_row") { () throws(CFailure) in
        let out = try required(offset, "offset")
        let r = try e.checkRow(row)
        let anchor: ScrollPosition
        switch position {
        case TESS_SCROLL_TOP: anchor = .top
        case TESS_SCROLL_CENTER: anchor = .center
        case TESS_SCROLL_BOTTOM: anchor = .bottom
        default: throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "position \(position) is not TESS_SCROLL_TOP, _CENTER or _BOTTOM")
        }
        out.pointee = try core("row") { () throws(TesseraError) in
            try e.engine.store.scrollOffset(toRow: r, anchor: anchor, viewport: e.engine.viewport)
        }
    }
}

// The window calls run once per frame: the handle is borrowed without retaining it.

@c @implementation
public func tess_engine_window(_ engine: OpaquePointer?, _ overscan: Double, _ rows: UnsafeMutablePointer<tess_visible_row>?, _ capacity: Int64, _ count: UnsafeMutablePointer<Int64>?) -> tess_status {
    guard let engine else { return nullHandle("tess_engine_window", "engine") }
    return Unmanaged<EngineHandle>.fromOpaque(UnsafeRawPointer(engine))._withUnsafeGuaranteedRef { e in
        e.run("tess_engine_window") { () throws(CFailure) in
            let list = e.list
            try e.window(rows, capacity, count) { (buffer) throws(TesseraError) in
                try list.pointee.window(overscan: overscan, into: buffer)
            }
        }
    }
}

@c @implementation
public func tess_engine_window_at(_ engine: OpaquePointer?, _ offset: Double, _ viewport: Double, _ before: Double, _ after: Double, _ rows: UnsafeMutablePointer<tess_visible_row>?, _ capacity: Int64, _ count: UnsafeMutablePointer<Int64>?) -> tess_status {
    guard let engine else { return nullHandle("tess_engine_window_at", "engine") }
    return Unmanaged<EngineHandle>.fromOpaque(UnsafeRawPointer(engine))._withUnsafeGuaranteedRef { e in
        e.run("tess_engine_window_at") { () throws(CFailure) in
            let list = e.list
            try e.window(rows, capacity, count) { (buffer) throws(TesseraError) in
                try list.pointee.store.window(
                    offset: offset, viewport: viewport, overscanBefore: before, overscanAfter: after, into: buffer)
            }
        }
    }
}
