import CTessera
import Tessera

/// A batch prepared against one engine state, or the record of one applied. The sequential
/// form is derived on first read (hosts of the batch form need not pay for it).
final class BatchHandle: CHandle {
    // Two optionals rather than one enum of three cases: valgrind reported the tag test of
    // that multi-payload enum as a read of uninitialised bytes (the payloads differ in
    // size); at most one of the two is set.
    /// A prepared batch not applied yet.
    private(set) var prepared: PreparedBatch?
    /// The record of an applied batch.
    private(set) var applied: DiffBatch?
    private var operationsCache: [DiffOperation]?

    func setPrepared(_ p: PreparedBatch) {
        prepared = p
        applied = nil
        operationsCache = nil
    }

    func setApplied(_ b: DiffBatch) {
        prepared = nil
        applied = b
        operationsCache = nil
    }

    func batch() throws(CFailure) -> DiffBatch {
        if let prepared { return prepared.batch }
        if let applied { return applied }
        throw CFailure(TESS_ERROR_NO_RESULT, "batch holds no batch yet")
    }

    func operations() throws(CFailure) -> [DiffOperation] {
        if let operationsCache { return operationsCache }
        let ops = try batch().operations()
        operationsCache = ops
        return ops
    }
}

func cOperation(_ op: DiffOperation) -> tess_diff_operation {
    let (type, a, b): (Int32, Int, Int) = switch op {
    case .remove(let at, let n): (TESS_OP_REMOVE, at, n)
    case .insert(let at, let n): (TESS_OP_INSERT, at, n)
    case .move(let from, let to): (TESS_OP_MOVE, from, to)
    case .change(let at, let n): (TESS_OP_CHANGE, at, n)
    }
    return tess_diff_operation(type: type, reserved: 0, a: Int64(a), b: Int64(b))
}

/// A snapshot from C columns, copied into the arrays the Swift API takes (ids, kinds and
/// versions; the text when given; heights and unread flags when given).
func rowSnapshot(_ s: UnsafePointer<tess_snapshot>?) throws(CFailure) -> RowSnapshot {
    let s = try required(s, "snapshot").pointee
    let n = try nonNegative(s.count, "snapshot.count")
    guard n < Int(Int32.max) else { throw CFailure(TESS_ERROR_CAPACITY, "snapshot.count \(n) rows is over 2^31 - 1") }
    let ids = copyArray(try inputArray(s.ids, n, "snapshot.ids"))
    let kinds = copyArray(try inputArray(s.kinds, n, "snapshot.kinds"))
    let versions = copyArray(try inputArray(s.versions, n, "snapshot.versions"))
    var text: RowText?
    if s.text != nil {
        let t = try TextColumnsArgument(s.text, rows: n, argument: "snapshot.text")
        text = RowText(utf8: copyArray(t.utf8.assumingMemoryBound(to: UInt8.self)), slotsPerRow: t.slotsPerRow, offsets: copyArray(t.offsets))
    }
    let heights = s.heights.map { copyArray(UnsafeBufferPointer(start: $0, count: n)) }
    var unread: [Bool]?
    if let u = s.unread {
        var flags = [Bool](repeating: false, count: n)
        for i in 0..<n {
            guard u[i] <= 1 else { throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "snapshot.unread[\(i)] \(u[i]) is not 0 or 1") }
            flags[i] = u[i] == 1
        }
        unread = flags
    }
    return RowSnapshot(ids: ids, kinds: kinds, versions: versions, text: text, heights: heights, unread: unread)
}

@c @implementation
public func tess_batch_create(_ out: UnsafeMutablePointer<OpaquePointer?>?) -> tess_status {
    runWithoutHandle("tess_batch_create") { () throws(CFailure) in
        try required(out, "out").pointee = BatchHandle().retainedPointer()
    }
}

@c @implementation
public func tess_batch_destroy(_ batch: OpaquePointer?) { BatchHandle.destroy(batch) }

@c @implementation
public func tess_batch_is_prepared(_ batch: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> tess_status {
    guard let b = BatchHandle.object(batch) else { return nullHandle("tess_batch_is_prepared", "batch") }
    return b.run("tess_batch_is_prepared") { () throws(CFailure) in
        let out = try required(out, "out")
        out.pointee = b.prepared == nil ? 0 : 1
    }
}

@c @implementation
public func tess_batch_get_counts(_ batch: OpaquePointer?, _ out: UnsafeMutablePointer<tess_diff_counts>?) -> tess_status {
    guard let b = BatchHandle.object(batch) else { return nullHandle("tess_batch_get_counts", "batch") }
    return b.run("tess_batch_get_counts") { () throws(CFailure) in
        let out = try required(out, "out")
        let d = try b.batch()
        out.pointee = tess_diff_counts(
            old_count: Int64(d.oldCount), new_count: Int64(d.newCount), deletes: Int64(d.deletes.count),
            inserts: Int64(d.inserts.count), moves: Int64(d.moves.count), updates: Int64(d.updates.count),
            operations: Int64(try b.operations().count))
    }
}

@c @implementation
public func tess_batch_indexes(_ batch: OpaquePointer?, _ which: Int32, _ indexes: UnsafeMutablePointer<Int64>?, _ capacity: Int64, _ count: UnsafeMutablePointer<Int64>?) -> tess_status {
    guard let b = BatchHandle.object(batch) else { return nullHandle("tess_batch_indexes", "batch") }
    return b.run("tess_batch_indexes") { () throws(CFailure) in
        let count = try required(count, "count")
        let out = try outputBuffer(indexes, capacity, "indexes")
        try writeIndexes(try b.batch(), which, out, count)
    }
}

@c @implementation
public func tess_batch_moves(_ batch: OpaquePointer?, _ moves: UnsafeMutablePointer<tess_diff_move>?, _ capacity: Int64, _ count: UnsafeMutablePointer<Int64>?) -> tess_status {
    guard let b = BatchHandle.object(batch) else { return nullHandle("tess_batch_moves", "batch") }
    return b.run("tess_batch_moves") { () throws(CFailure) in
        let count = try required(count, "count")
        let out = try outputBuffer(moves, capacity, "moves")
        try writeMoves(try b.batch(), out, count)
    }
}

@c @implementation
public func tess_batch_operations(_ batch: OpaquePointer?, _ operations: UnsafeMutablePointer<tess_diff_operation>?, _ capacity: Int64, _ count: UnsafeMutablePointer<Int64>?) -> tess_status {
    guard let b = BatchHandle.object(batch) else { return nullHandle("tess_batch_operations", "batch") }
    return b.run("tess_batch_operations") { () throws(CFailure) in
        let count = try required(count, "count")
        let out = try outputBuffer(operations, capacity, "operations")
        let ops = try b.operations()
        try fits(ops.count, out.count, count, "operations")
        for (i, op) in ops.enumerated() { out[i] = cOperation(op) }
    }
}

// MARK: Preparing and applying

@c @implementation
public func tess_engine_prepare(_ engine: OpaquePointer?, _ snapshot: UnsafePointer<tess_snapshot>?, _ batch: OpaquePointer?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_prepare", "engine") }
    return e.run("tess_engine_prepare") { () throws(CFailure) in
        guard let b = BatchHandle.object(batch) else { throw CFailure(TESS_ERROR_NULL_ARGUMENT, "batch is NULL") }
        let s = try rowSnapshot(snapshot)
        let prepared = try core("snapshot") { () throws(TesseraError) in try e.engine.prepare(s) }
        b.setPrepared(prepared)
    }
}

extension EngineHandle {
    /// Records what an applied batch did: its record in `batch` (if any), the rows whose
    /// interaction state it changed, the corrected offset.
    func applied(_ result: AppliedBatch, _ batch: BatchHandle?, _ scrollOffset: UnsafeMutablePointer<Double>?) {
        batch?.setApplied(result.batch)
        changed = result.interaction.rows
        scrollOffset?.pointee = result.scrollOffset
    }
}

@c @implementation
public func tess_engine_apply_prepared(_ engine: OpaquePointer?, _ batch: OpaquePointer?, _ scrollOffset: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_apply_prepared", "engine") }
    return e.run("tess_engine_apply_prepared") { () throws(CFailure) in
        guard let b = BatchHandle.object(batch) else { throw CFailure(TESS_ERROR_NULL_ARGUMENT, "batch is NULL") }
        guard let prepared = b.prepared else {
            throw CFailure(TESS_ERROR_NO_RESULT, "batch holds no prepared batch (prepare one with tess_engine_prepare)")
        }
        let result = try core("batch") { () throws(TesseraError) in try e.engine.apply(prepared) }
        e.applied(result, b, scrollOffset)
    }
}

@c @implementation
public func tess_engine_apply(_ engine: OpaquePointer?, _ snapshot: UnsafePointer<tess_snapshot>?, _ batch: OpaquePointer?, _ scrollOffset: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let e = EngineHandle.object(engine) else { return nullHandle("tess_engine_apply", "engine") }
    return e.run("tess_engine_apply") { () throws(CFailure) in
        let s = try rowSnapshot(snapshot)
        let result = try core("snapshot") { () throws(TesseraError) in try e.engine.apply(s) }
        e.applied(result, BatchHandle.object(batch), scrollOffset)
    }
}
