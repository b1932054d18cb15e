import CTessera
import Tessera

final class MeasurerHandle: CHandle {
    let measurer: CellMeasurer
    let text: TextEngineBox
    /// The profile's slot positions by kind code and slot name (frames name slots).
    let slotPositions: [UInt16: [String: Int]]

    init(_ measurer: CellMeasurer, text: TextEngineBox) {
        self.measurer = measurer
        self.text = text
        var positions: [UInt16: [String: Int]] = [:]
        for k in measurer.profile.kinds {
            var byName: [String: Int] = [:]
            for (i, s) in k.slots.enumerated() { byName[s.name] = i }
            positions[k.code] = byName
        }
        slotPositions = positions
    }
}

func environment(_ env: UnsafePointer<tess_environment>?, parameters: [String: Int]) throws(CFailure) -> LayoutEnvironment {
    let e = try required(env, "environment").pointee
    guard e.edit_mode == 0 || e.edit_mode == 1 else {
        throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "environment.edit_mode \(e.edit_mode) is not 0 or 1")
    }
    return LayoutEnvironment(
        width: e.width, platform: try platform(e.platform, "environment.platform"), editMode: e.edit_mode == 1,
        fontScale: e.font_scale, parameters: parameters)
}

/// Text columns from C, checked for shape (the core checks offsets and UTF-8).
struct TextColumnsArgument {
    var utf8: UnsafeRawBufferPointer
    /// rows * slotsPerRow + 1 entries, as Int (the same width as int64_t here).
    var offsets: UnsafeBufferPointer<Int>
    var slotsPerRow: Int

    init(_ text: UnsafePointer<tess_text_columns>?, rows: Int, argument: StaticString) throws(CFailure) {
        let t = try required(text, argument).pointee
        guard t.slots_per_row >= 0, t.slots_per_row <= 255 else {
            throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "\(argument).slots_per_row \(t.slots_per_row) is outside 0...255")
        }
        let bytes = try nonNegative(t.byte_count, "text.byte_count")
        utf8 = UnsafeRawBufferPointer(try inputArray(t.utf8, bytes, "text.utf8"))
        slotsPerRow = Int(t.slots_per_row)
        let (product, overflow) = rows.multipliedReportingOverflow(by: slotsPerRow)
        guard !overflow, product < Int(Int32.max) * 255 else {
            throw CFailure(TESS_ERROR_CAPACITY, "\(rows) rows of \(slotsPerRow) slots")
        }
        let o = try required(t.offsets, "text.offsets")
        offsets = UnsafeBufferPointer(start: UnsafeRawPointer(o).assumingMemoryBound(to: Int.self), count: product + 1)
    }

    /// The slot offsets of row `r`.
    func row(_ r: Int) -> UnsafeBufferPointer<Int> {
        UnsafeBufferPointer(rebasing: offsets[r * slotsPerRow...(r + 1) * slotsPerRow])
    }
}

@c @implementation
public func tess_measurer_create(_ profile: OpaquePointer?, _ env: UnsafePointer<tess_environment>?, _ textEngine: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> tess_status {
    runWithoutHandle("tess_measurer_create") { () throws(CFailure) in
        let out = try required(out, "out")
        out.pointee = nil
        guard let p = ProfileHandle.object(profile) else { throw CFailure(TESS_ERROR_NULL_ARGUMENT, "profile is NULL") }
        let e = try environment(env, parameters: [:])
        let box = TextEngineHandle.object(textEngine)?.box ?? TextEngineBox(engine: TextLayoutEngine(), callback: nil)
        let m = try core("environment") { () throws(TesseraError) in
            try CellMeasurer(profile: p.profile, environment: e, textEngine: box.engine)
        }
        out.pointee = MeasurerHandle(m, text: box).retainedPointer()
    }
}

@c @implementation
public func tess_measurer_destroy(_ measurer: OpaquePointer?) { MeasurerHandle.destroy(measurer) }

@c @implementation
public func tess_measurer_set_environment(_ measurer: OpaquePointer?, _ env: UnsafePointer<tess_environment>?) -> tess_status {
    guard let m = MeasurerHandle.object(measurer) else { return nullHandle("tess_measurer_set_environment", "measurer") }
    return m.run("tess_measurer_set_environment") { () throws(CFailure) in
        let e = try environment(env, parameters: m.measurer.environment.parameters)
        try core("environment") { () throws(TesseraError) in try m.measurer.setEnvironment(e) }
    }
}

@c @implementation
public func tess_measurer_set_parameter(_ measurer: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ nameLength: Int64, _ value: Int64) -> tess_status {
    guard let m = MeasurerHandle.object(measurer) else { return nullHandle("tess_measurer_set_parameter", "measurer") }
    return m.run("tess_measurer_set_parameter") { () throws(CFailure) in
        let key = try utf8String(name, nameLength, "name")
        var e = m.measurer.environment
        e.parameters[key] = Int(value)
        try core("name") { () throws(TesseraError) in try m.measurer.setEnvironment(e) }
    }
}

@c @implementation
public func tess_measurer_get_environment(_ measurer: OpaquePointer?, _ out: UnsafeMutablePointer<tess_environment>?) -> tess_status {
    guard let m = MeasurerHandle.object(measurer) else { return nullHandle("tess_measurer_get_environment", "measurer") }
    return m.run("tess_measurer_get_environment") { () throws(CFailure) in
        let out = try required(out, "out")
        let e = m.measurer.environment
        out.pointee = tess_environment(
            width: e.width, platform: e.platform == .ios ? TESS_PLATFORM_IOS : TESS_PLATFORM_ANDROID,
            edit_mode: e.editMode ? 1 : 0, font_scale: e.fontScale)
    }
}

@c @implementation
public func tess_measurer_width_class(_ measurer: OpaquePointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int64, _ length: UnsafeMutablePointer<Int64>?) -> tess_status {
    guard let m = MeasurerHandle.object(measurer) else { return nullHandle("tess_measurer_width_class", "measurer") }
    return m.run("tess_measurer_width_class") { () throws(CFailure) in
        try writeString(m.measurer.widthClass, buffer, capacity, length)
    }
}

@c @implementation
public func tess_measurer_validate(_ measurer: OpaquePointer?, _ kind: UInt16, _ text: UnsafePointer<tess_text_columns>?, _ row: Int64) -> tess_status {
    guard let m = MeasurerHandle.object(measurer) else { return nullHandle("tess_measurer_validate", "measurer") }
    return m.run("tess_measurer_validate") { () throws(CFailure) in
        let t = try TextColumnsArgument(text, rows: 1, argument: "text")
        try core("text") { () throws(TesseraError) in
            try m.measurer.validate(kind: kind, utf8: t.utf8, slotOffsets: t.offsets, row: Int(row))
        }
    }
}

@c @implementation
public func tess_measurer_heights(_ measurer: OpaquePointer?, _ kinds: UnsafePointer<UInt16>?, _ rowCount: Int64, _ text: UnsafePointer<tess_text_columns>?, _ heights: UnsafeMutablePointer<Double>?, _ capacity: Int64) -> tess_status {
    guard let m = MeasurerHandle.object(measurer) else { return nullHandle("tess_measurer_heights", "measurer") }
    return m.run("tess_measurer_heights") { () throws(CFailure) in
        let kinds = try required(kinds, "kinds")
        let n = try nonNegative(rowCount, "row_count")
        let out = try outputBuffer(heights, capacity, "heights")
        guard out.count >= n else { throw CFailure(TESS_ERROR_BUFFER_TOO_SMALL, "heights holds \(out.count) entries, \(n) needed") }
        let t = try TextColumnsArgument(text, rows: n, argument: "text")
        for r in 0..<n {
            try core("text") { () throws(TesseraError) in
                try m.measurer.validate(kind: kinds[r], utf8: t.utf8, slotOffsets: t.row(r), row: r)
            }
        }
        let results = UnsafeMutableBufferPointer<Double>.allocate(capacity: n)
        defer { results.deallocate() }
        try m.text.measuring { () throws(CFailure) in
            try core("text") { () throws(TesseraError) in
                try m.measurer.heights(
                    kinds: UnsafeBufferPointer(start: kinds, count: n), utf8: t.utf8, offsets: t.offsets,
                    slotsPerRow: t.slotsPerRow, into: results)
            }
        }
        if n > 0 { out.baseAddress!.update(from: results.baseAddress!, count: n) }
    }
}

@c @implementation
public func tess_measurer_frames(_ measurer: OpaquePointer?, _ kind: UInt16, _ text: UnsafePointer<tess_text_columns>?, _ frames: UnsafeMutablePointer<tess_element_frame>?, _ capacity: Int64, _ count: UnsafeMutablePointer<Int64>?, _ cellWidth: UnsafeMutablePointer<Double>?, _ cellHeight: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let m = MeasurerHandle.object(measurer) else { return nullHandle("tess_measurer_frames", "measurer") }
    return m.run("tess_measurer_frames") { () throws(CFailure) in
        let count = try required(count, "count")
        let out = try outputBuffer(frames, capacity, "frames")
        let t = try TextColumnsArgument(text, rows: 1, argument: "text")
        try core("text") { () throws(TesseraError) in
            try m.measurer.validate(kind: kind, utf8: t.utf8, slotOffsets: t.offsets, row: 0)
        }
        let f = try m.text.measuring { () throws(CFailure) in
            m.measurer.frames(kind: kind, utf8: t.utf8, slotOffsets: t.offsets)
        }
        let elements = cFrames(f, positions: m.slotPositions[kind] ?? [:])
        cellWidth?.pointee = f.width
        cellHeight?.pointee = f.height
        try fits(elements.count, out.count, count, "frames")
        for (i, e) in elements.enumerated() { out[i] = e }
    }
}

/// The slot positions of kind `kind` by slot name (frames name slots).
func slotPositions(_ profile: Profile, _ kind: UInt16) -> [String: Int] {
    var byName: [String: Int] = [:]
    if let k = profile.kinds.first(where: { $0.code == kind }) {
        for (i, s) in k.slots.enumerated() { byName[s.name] = i }
    }
    return byName
}

/// A cell's frames as C elements, in order: each slot followed by its texts or boxes, the
/// divider last.
func cFrames(_ f: CellFrames, positions: [String: Int]) -> [tess_element_frame] {
    var elements: [tess_element_frame] = []
    func element(_ type: Int32, _ slot: Int32, _ value: Int32, _ item: Int32, _ r: CellRect,
                 _ bytes: Range<Int> = 0..<0, lines: Int = 0, truncated: Bool = false) -> tess_element_frame {
        tess_element_frame(
            type: type, slot: slot, value_index: value, item: item, x: r.x, y: r.y, width: r.width, height: r.height,
            byte_start: Int64(bytes.lowerBound), byte_end: Int64(bytes.upperBound), line_count: Int32(lines),
            truncated: truncated ? 1 : 0)
    }
    for s in f.slots {
        let slot = Int32(positions[s.name] ?? -1), value = Int32(s.valueIndex ?? -1)
        elements.append(element(TESS_ELEMENT_SLOT, slot, value, -1, s.frame))
        for (i, text) in s.texts.enumerated() {
            elements.append(element(
                TESS_ELEMENT_TEXT, slot, value, Int32(i), text.frame, text.byteRange, lines: text.lines.count,
                truncated: text.isTruncated))
        }
        for (i, box) in s.boxes.enumerated() { elements.append(element(TESS_ELEMENT_BOX, slot, value, Int32(i), box)) }
    }
    if let d = f.divider { elements.append(element(TESS_ELEMENT_DIVIDER, -1, -1, -1, d)) }
    return elements
}
