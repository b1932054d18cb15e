/// Benchmark support (`cellbench measure`'s per-cell Pango peer and `cellbench render`):
/// the text measurements a row's template asks for, and the styles they use. Not part of
/// the supported API (`@_spi(Benchmarks)`).

/// The text measurements of rows, in the order the template makes them: each text slot
/// (text, text-list item, button label) at the width and line limit the template gives,
/// and each natural (single-line) width a `fit` column needs.
///
/// - `record`: the measurer measures as usual and appends a `Request` per measurement,
///   with Tessera's answer.
/// - `replay`: the measurer measures nothing; it takes the answers (`lines`, `width`) of
///   `requests[cursor...]` in order, so the same template arithmetic runs over another
///   layout engine's line counts and widths. The requests must be the ones a `record`
///   pass of the same rows in the same environment made. With `updatesWidths`, each text
///   request answered also takes the width the template asks for now (which follows the
///   natural widths replayed), so another engine can lay the texts out at its own widths.
@_spi(Benchmarks)
public final class CellTextLog {
    public enum Mode: Sendable { case record, replay }

    public struct Request: Sendable, Equatable {
        /// The slot's position in its kind's `slots`.
        public var slot: Int
        /// Index into `CellMeasurer.textStyles`.
        public var style: Int
        /// The layout width in points; for a natural width, `CellMeasurer.naturalLayoutWidth`.
        public var width: Double
        public var maxLines: Int
        /// A natural (single-line, unlimited width) measurement.
        public var isNatural: Bool
        /// Where the text is in the row's UTF-8 buffer.
        public var bytes: Range<Int>
        /// The answer: line count, and the widest line in points.
        public var lines: Int
        public var lineWidth: Double

        public init(slot: Int, style: Int, width: Double, maxLines: Int, isNatural: Bool, bytes: Range<Int>, lines: Int, lineWidth: Double) {
            self.slot = slot
            self.style = style
            self.width = width
            self.maxLines = maxLines
            self.isNatural = isNatural
            self.bytes = bytes
            self.lines = lines
            self.lineWidth = lineWidth
        }
    }

    public var mode: Mode
    public var updatesWidths = false
    public var requests: [Request] = []
    /// The next request to answer in replay mode.
    public var cursor = 0

    public init(mode: Mode) { self.mode = mode }

    /// The byte range of `bytes` inside the row buffer the measurer reads.
    private func range(_ bytes: UnsafeRawBufferPointer, _ m: CellMeasurer) -> Range<Int> {
        guard let b = bytes.baseAddress, let base = m.currentRowBase else { return 0..<bytes.count }
        let lo = base.distance(to: b)
        return lo..<(lo + bytes.count)
    }

    func height(_ m: CellMeasurer, _ bytes: UnsafeRawBufferPointer, _ p: CellProgram, style: Int32, width: Int64, maxLines: Int32, slot: Int) -> Int64 {
        let lines: Int
        switch mode {
        case .record:
            let r = m.textMeasure(bytes, p, style: style, width: width, maxLines: maxLines)
            lines = r?.lineCount ?? 1
            requests.append(Request(slot: slot, style: Int(style), width: LayoutUnit.points(Swift.max(width, 1)), maxLines: Int(maxLines),
                                    isNatural: false, bytes: range(bytes, m), lines: lines, lineWidth: r?.width ?? 0))
        case .replay:
            precondition(cursor < requests.count && !requests[cursor].isNatural && requests[cursor].slot == slot, "replay out of step")
            if updatesWidths { requests[cursor].width = LayoutUnit.points(Swift.max(width, 1)) }
            lines = requests[cursor].lines
            cursor += 1
        }
        return Int64(lines) * p.lineHeights[Int(style)]
    }

    func natural(_ m: CellMeasurer, _ bytes: UnsafeRawBufferPointer, _ p: CellProgram, style: Int32, slot: Int) -> Int64 {
        let width: Double
        switch mode {
        case .record:
            let r = m.textLayout(bytes, p.styles[Int(style)], width: CellMeasurer.naturalLayoutWidth, maxLines: 0, includeLines: false)
            width = r?.width ?? 0
            requests.append(Request(slot: slot, style: Int(style), width: CellMeasurer.naturalLayoutWidth, maxLines: 0,
                                    isNatural: true, bytes: range(bytes, m), lines: r?.lineCount ?? 1, lineWidth: width))
        case .replay:
            precondition(cursor < requests.count && requests[cursor].isNatural && requests[cursor].slot == slot, "replay out of step")
            width = requests[cursor].lineWidth
            cursor += 1
        }
        return Swift.max(LayoutUnit.unitsUp(width), 0)
    }
}

/// A text style of the profile in the measurer's environment, with the font files it
/// was loaded from.
@_spi(Benchmarks)
public struct CellTextStyleInfo: Sendable {
    public var name: String
    /// The primary face's file first, then the fallbacks, as the profile's font family lists them.
    public var fontFiles: [String]
    public var size: Double
    public var lineHeight: Double
    public var letterSpacing: Double
    public var style: TextStyle
}

@_spi(Benchmarks)
extension CellMeasurer {
    /// The profile's text styles at the environment's platform and font scale, in profile order.
    public var textStyles: [CellTextStyleInfo] {
        let model = profile.model
        return model.textStyles.enumerated().map { i, s in
            let r = s.resolved(environment.platform)
            let family = model.fonts.firstIndex { $0.name == r.font }!
            let style = program.styles[i]
            return CellTextStyleInfo(name: s.name, fontFiles: profile.fontFiles[family], size: style.size, lineHeight: style.lineHeight,
                                     letterSpacing: style.letterSpacing, style: style)
        }
    }

    /// The text style index of a text, text-list or button slot (by its position in the
    /// kind's `slots`), nil for other slots and unknown kinds.
    public func styleIndex(kind: UInt16, slot: Int) -> Int? {
        let k = profile.kindIndex(kind)
        guard k >= 0, slot >= 0, slot < Int(program.kinds[k].slotCount) else { return nil }
        let s = program.slots[Int(program.kinds[k].slotStart) + slot].style
        return s >= 0 ? Int(s) : nil
    }

    /// Heights of rows with a text log attached: `height(kind:utf8:slotOffsets:)` with the
    /// row's buffer known to the log, so request ranges are offsets into `utf8`.
    public func loggedHeight(kind: UInt16, utf8: UnsafeRawBufferPointer, slotOffsets: UnsafeBufferPointer<Int>) -> Double {
        currentRowBase = utf8.baseAddress
        defer { currentRowBase = nil }
        return height(kind: kind, utf8: utf8, slotOffsets: slotOffsets)
    }
}
