import CTessera
import Tessera

final class DifferHandle: CHandle {
    let differ = KeyedDiffer()
    /// The last successful diff and its sequential form.
    var batch: DiffBatch?
    var operations: [DiffOperation] = []

    func last() throws(CFailure) -> DiffBatch {
        guard let batch else { throw CFailure(TESS_ERROR_NO_RESULT, "no diff has been computed yet") }
        return batch
    }

    var counts: tess_diff_counts {
        guard let b = batch else { return tess_diff_counts() }
        return tess_diff_counts(
            old_count: Int64(b.oldCount), new_count: Int64(b.newCount), deletes: Int64(b.deletes.count),
            inserts: Int64(b.inserts.count), moves: Int64(b.moves.count), updates: Int64(b.updates.count),
            operations: Int64(operations.count))
    }
}

@c @implementation
public func tess_differ_create(_ out: UnsafeMutablePointer<OpaquePointer?>?) -> tess_status {
    runWithoutHandle("tess_differ_create") { () throws(CFailure) in
        let out = try required(out, "out")
        out.pointee = DifferHandle().retainedPointer()
    }
}

@c @implementation
public func tess_differ_destroy(_ differ: OpaquePointer?) { DifferHandle.destroy(differ) }

@c @implementation
public func tess_differ_diff(_ differ: OpaquePointer?, _ oldIDs: UnsafePointer<UInt64>?, _ oldVersions: UnsafePointer<UInt64>?, _ oldCount: Int64, _ newIDs: UnsafePointer<UInt64>?, _ newVersions: UnsafePointer<UInt64>?, _ newCount: Int64, _ counts: UnsafeMutablePointer<tess_diff_counts>?) -> tess_status {
    guard let d = DifferHandle.object(differ) else { return nullHandle("tess_differ_diff", "differ") }
    return d.run("tess_differ_diff") { () throws(CFailure) in
        let n = try nonNegative(oldCount, "old_count")
        let m = try nonNegative(newCount, "new_count")
        let oi = try inputArray(oldIDs, n, "old_ids"), ov = try inputArray(oldVersions, n, "old_versions")
        let ni = try inputArray(newIDs, m, "new_ids"), nv = try inputArray(newVersions, m, "new_versions")
        let batch = try core("ids") { () throws(TesseraError) in
            try d.differ.diff(oldIDs: oi, oldVersions: ov, newIDs: ni, newVersions: nv)
        }
        d.operations = d.differ.operations(for: batch)
        d.batch = batch
        counts?.pointee = d.counts
    }
}

@c @implementation
public func tess_differ_get_counts(_ differ: OpaquePointer?, _ out: UnsafeMutablePointer<tess_diff_counts>?) -> tess_status {
    guard let d = DifferHandle.object(differ) else { return nullHandle("tess_differ_get_counts", "differ") }
    return d.run("tess_differ_get_counts") { () throws(CFailure) in
        let out = try required(out, "out")
        _ = try d.last()
        out.pointee = d.counts
    }
}

@c @implementation
public func tess_differ_indexes(_ differ: OpaquePointer?, _ which: Int32, _ indexes: UnsafeMutablePointer<Int64>?, _ capacity: Int64, _ count: UnsafeMutablePointer<Int64>?) -> tess_status {
    guard let d = DifferHandle.object(differ) else { return nullHandle("tess_differ_indexes", "differ") }
    return d.run("tess_differ_indexes") { () throws(CFailure) in
        let count = try required(count, "count")
        let out = try outputBuffer(indexes, capacity, "indexes")
        try writeIndexes(try d.last(), which, out, count)
    }
}

/// One of a batch's index lists (`TESS_DIFF_`) into a host buffer: the differ's and a
/// prepared or applied batch's readers share it.
func writeIndexes(_ b: DiffBatch, _ which: Int32, _ out: UnsafeMutableBufferPointer<Int64>, _ count: UnsafeMutablePointer<Int64>) throws(CFailure) {
    let list: [Int]
    switch which {
    case TESS_DIFF_DELETES: list = b.deletes
    case TESS_DIFF_INSERTS: list = b.inserts
    case TESS_DIFF_UPDATES: list = b.updates
    case TESS_DIFF_UPDATED_NEW_INDEXES: list = b.updatedNewIndexes
    default: throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "which \(which) is not one of TESS_DIFF_DELETES ... TESS_DIFF_UPDATED_NEW_INDEXES")
    }
    try fits(list.count, out.count, count, "indexes")
    for (i, x) in list.enumerated() { out[i] = Int64(x) }
}

/// A batch's moves into a host buffer.
func writeMoves(_ b: DiffBatch, _ out: UnsafeMutableBufferPointer<tess_diff_move>, _ count: UnsafeMutablePointer<Int64>) throws(CFailure) {
    try fits(b.moves.count, out.count, count, "moves")
    for (i, m) in b.moves.enumerated() { out[i] = tess_diff_move(from: Int64(m.from), to: Int64(m.to)) }
}

@c @implementation
public func tess_differ_moves(_ differ: OpaquePointer?, _ moves: UnsafeMutablePointer<tess_diff_move>?, _ capacity: Int64, _ count: UnsafeMutablePointer<Int64>?) -> tess_status {
    guard let d = DifferHandle.object(differ) else { return nullHandle("tess_differ_moves", "differ") }
    return d.run("tess_differ_moves") { () throws(CFailure) in
        let count = try required(count, "count")
        let out = try outputBuffer(moves, capacity, "moves")
        try writeMoves(try d.last(), out, count)
    }
}

@c @implementation
public func tess_differ_operations(_ differ: OpaquePointer?, _ operations: UnsafeMutablePointer<tess_diff_operation>?, _ capacity: Int64, _ count: UnsafeMutablePointer<Int64>?) -> tess_status {
    guard let d = DifferHandle.object(differ) else { return nullHandle("tess_differ_operations", "differ") }
    return d.run("tess_differ_operations") { () throws(CFailure) in
        let count = try required(count, "count")
        let out = try outputBuffer(operations, capacity, "operations")
        _ = try d.last()
        try fits(d.operations.count, out.count, count, "operations")
        for (i, op) in d.operations.enumerated() { out[i] = cOperation(op) }
    }
}
