import CTessera
import Tessera

// Swipe, selection and unread state. Each changing call records the rows it changed in
// the handle (read with tess_engine_changed_rows), so no call that changes state can fail
// for want of buffer space after changing it.

extension EngineHandle {
    func record(_ change: InteractionChange, _ changedCount: UnsafeMutablePointer<Int64>?) {
        changed = change.rows
        changedCount?.pointee = Int64(change.rows.count)
    }
}

@c @implementation
public func tess_engine_changed_rows(_ engine: OpaquePointer?, _ rows: UnsafeMutablePointer<tess_row_reference>?, _ capacity: Int64, _ count: UnsafeMutablePointer<Int64>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_changed_rows", "engine") }
    return e.run("tess_engine_changed_rows") { () throws(CFailure) in
        let count = try required(count, "count")
        let out = try outputBuffer(rows, capacity, "rows")
        try fits(e.changed.count, out.count, count, "rows")
        for (i, r) in e.changed.enumerated() { out[i] = tess_row_reference(id: r.id, row: Int64(r.row)) }
    }
}

@c @implementation
public func tess_engine_swipe(_ engine: OpaquePointer?, _ id: UInt64, _ edge: Int32, _ revealedWidth: Double, _ changedCount: UnsafeMutablePointer<Int64>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_swipe", "engine") }
    return e.run("tess_engine_swipe") { () throws(CFailure) in
        let side: SwipeEdge
        switch edge {
        case TESS_SWIPE_LEADING: side = .leading
        case TESS_SWIPE_TRAILING: side = .trailing
        default: throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "edge \(edge) is not TESS_SWIPE_LEADING or TESS_SWIPE_TRAILING")
        }
        let c = try core("id") { () throws(TesseraError) in try e.engine.swipe(id: id, edge: side, revealedWidth: revealedWidth) }
        e.record(c, changedCount)
    }
}

@c @implementation
public func tess_engine_close_swipe(_ engine: OpaquePointer?, _ changedCount: UnsafeMutablePointer<Int64>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_close_swipe", "engine") }
    return e.run("tess_engine_close_swipe") { () throws(CFailure) in
        e.record(e.engine.closeSwipe(), changedCount)
    }
}

@c @implementation
public func tess_engine_get_swipe(_ engine: OpaquePointer?, _ isOpen: UnsafeMutablePointer<Int32>?, _ id: UnsafeMutablePointer<UInt64>?, _ edge: UnsafeMutablePointer<Int32>?, _ revealedWidth: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_get_swipe", "engine") }
    return e.run("tess_engine_get_swipe") { () throws(CFailure) in
        let open = try required(isOpen, "is_open")
        let s = e.engine.openSwipe
        open.pointee = s == nil ? 0 : 1
        id?.pointee = s?.id ?? 0
        edge?.pointee = s.map { $0.edge == .leading ? TESS_SWIPE_LEADING : TESS_SWIPE_TRAILING } ?? 0
        revealedWidth?.pointee = s?.revealedWidth ?? 0
    }
}

@c @implementation
public func tess_engine_commit_swipe(_ engine: OpaquePointer?, _ id: UInt64, _ batch: OpaquePointer?, _ scrollOffset: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_commit_swipe", "engine") }
    return e.run("tess_engine_commit_swipe") { () throws(CFailure) in
        let result = try core("id") { () throws(TesseraError) in try e.engine.commitSwipe(id: id) }
        e.applied(result, BatchHandle.object(batch), scrollOffset)
    }
}

@c @implementation
public func tess_engine_select(_ engine: OpaquePointer?, _ id: UInt64, _ changedCount: UnsafeMutablePointer<Int64>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_select", "engine") }
    return e.run("tess_engine_select") { () throws(CFailure) in
        e.record(try core("id") { () throws(TesseraError) in try e.engine.select(id: id) }, changedCount)
    }
}

@c @implementation
public func tess_engine_deselect(_ engine: OpaquePointer?, _ id: UInt64, _ changedCount: UnsafeMutablePointer<Int64>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_deselect", "engine") }
    return e.run("tess_engine_deselect") { () throws(CFailure) in
        e.record(try core("id") { () throws(TesseraError) in try e.engine.deselect(id: id) }, changedCount)
    }
}

@c @implementation
public func tess_engine_set_selection(_ engine: OpaquePointer?, _ ids: UnsafePointer<UInt64>?, _ count: Int64, _ changedCount: UnsafeMutablePointer<Int64>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_set_selection", "engine") }
    return e.run("tess_engine_set_selection") { () throws(CFailure) in
        let n = try nonNegative(count, "count")
        let list = copyArray(try inputArray(ids, n, "ids"))
        e.record(try core("ids") { () throws(TesseraError) in try e.engine.setSelection(list) }, changedCount)
    }
}

@c @implementation
public func tess_engine_clear_selection(_ engine: OpaquePointer?, _ changedCount: UnsafeMutablePointer<Int64>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_clear_selection", "engine") }
    return e.run("tess_engine_clear_selection") { () throws(CFailure) in
        e.record(e.engine.clearSelection(), changedCount)
    }
}

@c @implementation
public func tess_engine_selection(_ engine: OpaquePointer?, _ ids: UnsafeMutablePointer<UInt64>?, _ capacity: Int64, _ count: UnsafeMutablePointer<Int64>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_selection", "engine") }
    return e.run("tess_engine_selection") { () throws(CFailure) in
        let count = try required(count, "count")
        let out = try outputBuffer(ids, capacity, "ids")
        let selected = e.engine.selectedIDs
        try fits(selected.count, out.count, count, "ids")
        for (i, id) in selected.enumerated() { out[i] = id }
    }
}

@c @implementation
public func tess_engine_mark_viewed(_ engine: OpaquePointer?, _ start: Int64, _ count: Int64, _ changedCount: UnsafeMutablePointer<Int64>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_mark_viewed", "engine") }
    return e.run("tess_engine_mark_viewed") { () throws(CFailure) in
        let n = try nonNegative(count, "count")
        let rows = e.engine.store.count
        guard start >= 0, start <= Int64(rows), Int64(n) <= Int64(rows) - start else {
            throw CFailure(TESS_ERROR_OUT_OF_RANGE, "rows \(start) ..< \(start) + \(count) out of bounds for \(rows) rows")
        }
        let s = Int(start)
        e.record(try core("start") { () throws(TesseraError) in try e.engine.markViewed(rows: s..<(s + n)) }, changedCount)
    }
}

@c @implementation
public func tess_engine_mark_visible_viewed(_ engine: OpaquePointer?, _ changedCount: UnsafeMutablePointer<Int64>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_mark_visible_viewed", "engine") }
    return e.run("tess_engine_mark_visible_viewed") { () throws(CFailure) in
        e.record(e.engine.markVisibleRowsViewed(), changedCount)
    }
}
