import CTessera
import Synchronization
import Tessera

final class FontHandle: CHandle {
    let font: Font
    init(_ font: Font) { self.font = font }
}

final class TextStyleHandle: CHandle {
    let style: TextStyle
    init(_ style: TextStyle) { self.style = style }
}

/// What a host callback did wrong during one call (set from any measuring thread).
final class CallbackState: Sendable {
    /// Bit pattern of the first bad width, with `failed` set.
    let failed = Atomic<Bool>(false)
    let badWidth = Atomic<UInt64>(0)
    let badSize = Atomic<UInt64>(0)

    func reset() {
        failed.store(false, ordering: .relaxed)
    }

    func report(width: Double, size: Double) {
        if !failed.load(ordering: .relaxed) {
            badWidth.store(width.bitPattern, ordering: .relaxed)
            badSize.store(size.bitPattern, ordering: .relaxed)
            failed.store(true, ordering: .releasing)
        }
    }
}

/// A text engine and, with a host callback, the state that catches bad widths. Shared by
/// the text engine handle and the measurers made with it.
final class TextEngineBox {
    let engine: TextLayoutEngine
    let callback: CallbackState?

    init(engine: TextLayoutEngine, callback: CallbackState?) {
        self.engine = engine
        self.callback = callback
    }

    /// Runs a measuring call; a callback that returned a bad width fails it, and the caches
    /// are emptied so no result built on that width survives.
    @inline(__always)
    func measuring<T>(_ body: () throws(CFailure) -> T) throws(CFailure) -> T {
        guard let callback else { return try body() }
        callback.reset()
        let result: T
        do throws(CFailure) {
            result = try body()
        } catch {
            if callback.failed.load(ordering: .acquiring) { engine.removeAllCachedResults() }
            throw error
        }
        if callback.failed.load(ordering: .acquiring) {
            engine.removeAllCachedResults()
            let w = Double(bitPattern: callback.badWidth.load(ordering: .relaxed))
            let s = Double(bitPattern: callback.badSize.load(ordering: .relaxed))
            throw CFailure(TESS_ERROR_CALLBACK, "measure callback returned \(w) for a run at size \(s) (must be finite and >= 0)")
        }
        return result
    }
}

final class TextEngineHandle: CHandle {
    let box: TextEngineBox
    init(_ box: TextEngineBox) { self.box = box }
}

func configuration(_ budgets: UnsafePointer<tess_cache_budgets>?) throws(CFailure) -> TextLayoutEngine.Configuration {
    guard let b = budgets?.pointee else { return TextLayoutEngine.Configuration() }
    func budget(_ value: Int64, _ argument: StaticString) throws(CFailure) -> Int {
        let bytes = try nonNegative(value, argument)
        guard bytes <= 1 << 30 else { throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "\(argument) \(value) is over 1 GiB") }
        return bytes
    }
    return TextLayoutEngine.Configuration(
        segmentCacheBytes: try budget(b.segment_bytes, "budgets.segment_bytes"),
        preparedTextCacheBytes: try budget(b.prepared_text_bytes, "budgets.prepared_text_bytes"),
        lineBreakCacheBytes: try budget(b.line_break_bytes, "budgets.line_break_bytes"))
}

func faceIndex(_ value: Int64) throws(CFailure) -> Int {
    guard value >= 0, value <= 0xFFFF else {
        throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "face_index \(value) is outside 0...65535")
    }
    return Int(value)
}

// MARK: Fonts

@c @implementation
public func tess_font_load_path(_ path: UnsafePointer<CChar>?, _ pathLength: Int64, _ index: Int64, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> tess_status {
    runWithoutHandle("tess_font_load_path") { () throws(CFailure) in
        let out = try required(out, "out")
        out.pointee = nil
        let path = try utf8String(path, pathLength, "path")
        let face = try faceIndex(index)
        let font = try core("path") { () throws(TesseraError) in try Font(path: path, faceIndex: face) }
        out.pointee = FontHandle(font).retainedPointer()
    }
}

@c @implementation
public func tess_font_load_bytes(_ bytes: UnsafeRawPointer?, _ byteCount: Int64, _ index: Int64, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> tess_status {
    runWithoutHandle("tess_font_load_bytes") { () throws(CFailure) in
        let out = try required(out, "out")
        out.pointee = nil
        let bytes = try required(bytes, "bytes")
        let n = try nonNegative(byteCount, "byte_count")
        let face = try faceIndex(index)
        let font = try core("bytes") { () throws(TesseraError) in
            try Font(bytes: UnsafeRawBufferPointer(start: bytes, count: n), faceIndex: face)
        }
        out.pointee = FontHandle(font).retainedPointer()
    }
}

@c @implementation
public func tess_font_destroy(_ font: OpaquePointer?) { FontHandle.destroy(font) }

@c @implementation
public func tess_font_get_info(_ font: OpaquePointer?, _ out: UnsafeMutablePointer<tess_font_info>?) -> tess_status {
    guard let f = FontHandle.object(font) else { return nullHandle("tess_font_get_info", "font") }
    return f.run("tess_font_get_info") { () throws(CFailure) in
        let out = try required(out, "out")
        let m = f.font.metrics
        out.pointee = tess_font_info(
            units_per_em: Int32(f.font.unitsPerEm), ascender: Int32(m.ascender), descender: Int32(m.descender),
            line_gap: Int32(m.lineGap), glyph_count: Int64(f.font.glyphCount))
    }
}

@c @implementation
public func tess_font_text_width(_ font: OpaquePointer?, _ utf8: UnsafePointer<CChar>?, _ byteCount: Int64, _ size: Double, _ out: UnsafeMutablePointer<Double>?) -> tess_status {
    guard let f = FontHandle.object(font) else { return nullHandle("tess_font_text_width", "font") }
    return f.run("tess_font_text_width") { () throws(CFailure) in
        let out = try required(out, "out_width")
        let n = try nonNegative(byteCount, "byte_count")
        let bytes = UnsafeRawBufferPointer(try inputArray(utf8, n, "utf8"))
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CFailure(TESS_ERROR_INVALID_UTF8, "utf8 is not valid UTF-8")
        }
        guard size.isFinite, size > 0 else { throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "size \(size) must be finite and > 0") }
        out.pointee = f.font.width(of: text, size: size)
    }
}

// MARK: Styles

@c @implementation
public func tess_text_style_create(_ fonts: UnsafePointer<OpaquePointer?>?, _ fontCount: Int64, _ size: Double, _ lineHeight: Double, _ letterSpacing: Double, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> tess_status {
    runWithoutHandle("tess_text_style_create") { () throws(CFailure) in
        let out = try required(out, "out")
        out.pointee = nil
        let n = try nonNegative(fontCount, "font_count")
        guard n >= 1 else { throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "font_count 0: a style needs at least one font") }
        guard n <= 64 else { throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "font_count \(n) is over 64") }
        let list = try inputArray(fonts, n, "fonts")
        var faces: [Font] = []
        for i in 0..<n {
            guard let f = FontHandle.object(list[i]) else {
                throw CFailure(TESS_ERROR_NULL_ARGUMENT, "fonts[\(i)] is NULL")
            }
            faces.append(f.font)
        }
        guard lineHeight == 0 || (lineHeight.isFinite && lineHeight > 0) else {
            throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "line_height \(lineHeight) must be 0 (from the font) or finite and > 0")
        }
        let style = try core("size") { () throws(TesseraError) in
            try TextStyle(fonts: faces, size: size, lineHeight: lineHeight == 0 ? nil : lineHeight, letterSpacing: letterSpacing)
        }
        out.pointee = TextStyleHandle(style).retainedPointer()
    }
}

@c @implementation
public func tess_text_style_destroy(_ style: OpaquePointer?) { TextStyleHandle.destroy(style) }

// MARK: Text engine

@c @implementation
public func tess_text_engine_create(_ budgets: UnsafePointer<tess_cache_budgets>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> tess_status {
    runWithoutHandle("tess_text_engine_create") { () throws(CFailure) in
        let out = try required(out, "out")
        out.pointee = nil
        let engine = TextLayoutEngine(configuration: try configuration(budgets))
        out.pointee = TextEngineHandle(TextEngineBox(engine: engine, callback: nil)).retainedPointer()
    }
}

/// The host's function and context, callable from any measuring thread.
struct HostMeasure: @unchecked Sendable {
    let function: tess_measure_fn
    let context: UnsafeMutableRawPointer?
}

@c @implementation
public func tess_text_engine_create_with_callback(_ measure: tess_measure_fn?, _ context: UnsafeMutableRawPointer?, _ usesFontFallback: Int32, _ budgets: UnsafePointer<tess_cache_budgets>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> tess_status {
    runWithoutHandle("tess_text_engine_create_with_callback") { () throws(CFailure) in
        let out = try required(out, "out")
        out.pointee = nil
        let host = HostMeasure(function: try required(measure, "measure"), context: context)
        guard usesFontFallback == 0 || usesFontFallback == 1 else {
            throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "uses_font_fallback \(usesFontFallback) is not 0 or 1")
        }
        let config = try configuration(budgets)
        let state = CallbackState()
        let shaper = HostCallbackShaper(usesFontFallback: usesFontFallback == 1) { utf8, face, size in
            let w = host.function(
                host.context, utf8.baseAddress!.assumingMemoryBound(to: CChar.self), Int64(utf8.count), Int32(face), size)
            guard w.isFinite, w >= 0 else {
                state.report(width: w, size: size)
                return 0
            }
            return w
        }
        let engine = TextLayoutEngine(shaper: shaper, configuration: config)
        out.pointee = TextEngineHandle(TextEngineBox(engine: engine, callback: state)).retainedPointer()
    }
}

@c @implementation
public func tess_text_engine_destroy(_ engine: OpaquePointer?) { TextEngineHandle.destroy(engine) }

func cStatistics(_ s: CacheStatistics) -> tess_cache_statistics {
    tess_cache_statistics(
        hits: Int64(s.hits), misses: Int64(s.misses), evictions: Int64(s.evictions), entries: Int64(s.entries),
        bytes: Int64(s.bytes), budget: Int64(s.budget), bypasses: Int64(s.bypasses))
}

@c @implementation
public func tess_text_engine_get_statistics(_ engine: OpaquePointer?, _ out: UnsafeMutablePointer<tess_text_statistics>?) -> tess_status {
    guard let t = TextEngineHandle.object(engine) else { return nullHandle("tess_text_engine_get_statistics", "engine") }
    return t.run("tess_text_engine_get_statistics") { () throws(CFailure) in
        let out = try required(out, "out")
        let s = t.box.engine.statistics
        out.pointee = tess_text_statistics(
            segments: cStatistics(s.segments), prepared_texts: cStatistics(s.preparedTexts), line_breaks: cStatistics(s.lineBreaks))
    }
}

@c @implementation
public func tess_text_engine_clear_caches(_ engine: OpaquePointer?) -> tess_status {
    guard let t = TextEngineHandle.object(engine) else { return nullHandle("tess_text_engine_clear_caches", "engine") }
    return t.run("tess_text_engine_clear_caches") { () throws(CFailure) in
        t.box.engine.removeAllCachedResults()
    }
}

func cMetrics(_ m: TextMetrics) -> tess_text_metrics {
    tess_text_metrics(line_count: Int64(m.lineCount), height: m.height, width: m.width, truncated: m.isTruncated ? 1 : 0, reserved: 0)
}

/// The arguments every text measuring call shares.
func textArguments(_ style: OpaquePointer?, _ utf8: UnsafePointer<CChar>?, _ byteCount: Int64, _ width: Double, _ maxLines: Int64)
    throws(CFailure) -> (style: TextStyle, bytes: UnsafeRawBufferPointer, maxLines: Int)
{
    guard let s = TextStyleHandle.object(style) else { throw CFailure(TESS_ERROR_NULL_ARGUMENT, "style is NULL") }
    let n = try nonNegative(byteCount, "byte_count")
    let bytes = UnsafeRawBufferPointer(try inputArray(utf8, n, "utf8"))
    guard width.isFinite, width > 0 else { throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "width \(width) must be finite and > 0") }
    let lines = try nonNegative(maxLines, "max_lines")
    return (s.style, bytes, lines)
}

@c @implementation
public func tess_text_measure(_ engine: OpaquePointer?, _ style: OpaquePointer?, _ utf8: UnsafePointer<CChar>?, _ byteCount: Int64, _ width: Double, _ maxLines: Int64, _ out: UnsafeMutablePointer<tess_text_metrics>?) -> tess_status {
    guard let t = TextEngineHandle.object(engine) else { return nullHandle("tess_text_measure", "engine") }
    return t.run("tess_text_measure") { () throws(CFailure) in
        let out = try required(out, "out")
        let a = try textArguments(style, utf8, byteCount, width, maxLines)
        let m = try t.box.measuring { () throws(CFailure) in
            try core("utf8") { () throws(TesseraError) in
                try t.box.engine.measure(utf8: a.bytes, style: a.style, width: width, maxLines: a.maxLines)
            }
        }
        out.pointee = cMetrics(m.metrics)
    }
}

@c @implementation
public func tess_text_measure_lines(_ engine: OpaquePointer?, _ style: OpaquePointer?, _ utf8: UnsafePointer<CChar>?, _ byteCount: Int64, _ width: Double, _ maxLines: Int64, _ lines: UnsafeMutablePointer<tess_text_line>?, _ capacity: Int64, _ count: UnsafeMutablePointer<Int64>?, _ metrics: UnsafeMutablePointer<tess_text_metrics>?) -> tess_status {
    guard let t = TextEngineHandle.object(engine) else { return nullHandle("tess_text_measure_lines", "engine") }
    return t.run("tess_text_measure_lines") { () throws(CFailure) in
        let count = try required(count, "count")
        let out = try outputBuffer(lines, capacity, "lines")
        let a = try textArguments(style, utf8, byteCount, width, maxLines)
        let m = try t.box.measuring { () throws(CFailure) in
            try core("utf8") { () throws(TesseraError) in
                try t.box.engine.measure(utf8: a.bytes, style: a.style, width: width, maxLines: a.maxLines, includeLines: true)
            }
        }
        metrics?.pointee = cMetrics(m.metrics)
        try fits(m.lines.count, out.count, count, "lines")
        for (i, line) in m.lines.enumerated() {
            out[i] = tess_text_line(
                start: Int64(line.range.lowerBound), end: Int64(line.range.upperBound), width: line.width,
                ellipsized: line.isEllipsized ? 1 : 0, reserved: 0)
        }
    }
}

@c @implementation
public func tess_text_measure_bulk(_ engine: OpaquePointer?, _ style: OpaquePointer?, _ utf8: UnsafePointer<CChar>?, _ byteCount: Int64, _ offsets: UnsafePointer<Int64>?, _ textCount: Int64, _ width: Double, _ maxLines: Int64, _ threads: Int64, _ results: UnsafeMutablePointer<tess_text_metrics>?, _ capacity: Int64) -> tess_status {
    guard let t = TextEngineHandle.object(engine) else { return nullHandle("tess_text_measure_bulk", "engine") }
    return t.run("tess_text_measure_bulk") { () throws(CFailure) in
        let offsets = try required(offsets, "offsets")
        let n = try nonNegative(textCount, "text_count")
        let out = try outputBuffer(results, capacity, "results")
        let a = try textArguments(style, utf8, byteCount, width, maxLines)
        guard threads >= 1, threads <= 256 else {
            throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "threads \(threads) is outside 1...256")
        }
        guard out.count >= n else { throw CFailure(TESS_ERROR_BUFFER_TOO_SMALL, "results holds \(out.count) entries, \(n) needed") }
        // Offsets are checked here: the engine trusts them.
        var previous = offsets[0]
        guard previous >= 0, previous <= byteCount else {
            throw CFailure(TESS_ERROR_INVALID_TEXT_OFFSETS, "offsets[0] \(previous) is outside the text buffer")
        }
        for i in stride(from: 1, through: n, by: 1) {
            let o = offsets[i]
            guard o >= previous, o <= byteCount else {
                throw CFailure(TESS_ERROR_INVALID_TEXT_OFFSETS, "offsets[\(i)] \(o) is decreasing or past byte_count \(byteCount)")
            }
            previous = o
        }
        let metrics = UnsafeMutableBufferPointer<TextMetrics>.allocate(capacity: n)
        metrics.initialize(repeating: TextMetrics())
        defer { metrics.deallocate() }
        try offsets.withMemoryRebound(to: Int.self, capacity: n + 1) { (o) throws(CFailure) in
            let offsetBuffer = UnsafeBufferPointer(start: o, count: n + 1)
            try t.box.measuring { () throws(CFailure) in
                try core("utf8") { () throws(TesseraError) in
                    try t.box.engine.measure(
                        texts: a.bytes, offsets: offsetBuffer, style: a.style, width: width, maxLines: a.maxLines,
                        into: metrics, threads: Int(threads))
                }
            }
        }
        for i in 0..<n { out[i] = cMetrics(metrics[i]) }
    }
}
