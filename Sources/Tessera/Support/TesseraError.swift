/// Every failure Tessera reports. A throwing call that fails leaves all state as it was.
public enum TesseraError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A height that is negative, NaN, infinite or over `RowStore.maximumRowHeight` points.
    case invalidHeight(Double)
    /// A scroll offset that is negative, NaN or infinite.
    case invalidOffset(Double)
    /// A viewport height or overscan that is negative, NaN or infinite.
    case invalidViewport(Double)
    /// A row index outside `0..<count`.
    case rowOutOfBounds(index: Int, count: Int)
    /// A row range (or insertion index) outside the store.
    case rangeOutOfBounds(lowerBound: Int, upperBound: Int, count: Int)
    /// A caller buffer too small for the result; `needed` is the size that would fit it.
    case bufferTooSmall(needed: Int, capacity: Int)
    // Errors about a batch of rows give the row's position within the batch, and
    // `invalidUTF8`'s `byteOffset` counts from the start of the slot.

    /// An id that is already in the store, or twice in one batch.
    case duplicateID(UInt64)
    /// An id the store does not hold.
    case unknownID(UInt64)
    /// A kind with no estimated height (kinds are `0..<kindCount`).
    case unknownKind(UInt16, kindCount: Int)
    /// Parallel columns of different lengths.
    case columnLengthMismatch(column: String, expected: Int, actual: Int)
    /// Text slot offsets that are not non-decreasing or point past the text buffer.
    case invalidTextOffsets(row: Int, slot: Int)
    /// A text slot that is not valid UTF-8; `byteOffset` is where decoding failed.
    case invalidUTF8(row: Int, slot: Int, byteOffset: Int)
    /// Text handed to the text engine that is not valid UTF-8; `byteOffset` is where
    /// decoding failed.
    case invalidUTF8Text(byteOffset: Int)
    /// Font data that is not a usable OpenType/TrueType font: the reason names the table
    /// and what is wrong with it.
    case malformedFont(String)
    /// A font file that could not be read (`errno` from the system).
    case unreadableFont(path: String, errno: Int32)
    /// Flag bits a host may not set or clear (see `RowFlags.hostSettable`).
    case invalidFlags(UInt16)
    /// More rows or text than the store's fixed-width references can address.
    case capacityExceeded(String)
    /// A layout width that is NaN, infinite, zero or negative (points).
    case invalidTextWidth(Double)
    /// A maximum line count below zero (0 means unlimited).
    case invalidMaxLines(Int)
    /// A text style with no fonts.
    case emptyFontChain
    /// A font size that is NaN, infinite, zero or negative (points).
    case invalidFontSize(Double)
    /// An explicit line height that is NaN, infinite, zero or negative (points).
    case invalidLineHeight(Double)
    /// A letter spacing that is NaN or infinite (points; negative values are allowed).
    case invalidLetterSpacing(Double)
    /// An id twice in one side of a diff: `side` is `"old"` or `"new"`, and the id sits at
    /// `firstIndex` and again at `secondIndex` (`firstIndex < secondIndex`) of that side.
    case duplicateIDInDiff(UInt64, side: String, firstIndex: Int, secondIndex: Int)
    // Profiles and cell measurement (Layout/).

    /// A profile that is not valid JSON, breaks the schema or is inconsistent. `path` is the
    /// dotted path of the offending value inside the document
    /// (`kinds.basicCell.slots.label.maxLines`; empty for the document itself) and `problem`
    /// says what was expected there and what was found.
    case invalidProfile(path: String, problem: String)
    /// A profile file that could not be read (`errno` from the system).
    case unreadableProfile(path: String, errno: Int32)
    /// A font file a profile names that is in none of the font directories.
    case profileFontNotFound(file: String, directories: [String])
    /// A kind code the profile does not define.
    case unknownKindCode(UInt16, profile: String)
    /// An environment the profile cannot lay out: `field` is `width`, `fontScale`,
    /// `platform` or `parameters.<name>`.
    case invalidEnvironment(field: String, problem: String)
    /// A row that breaks a rule of its kind; `row` is the caller's row number.
    case ruleViolation(row: Int, kind: String, rule: CellRuleViolation)
    /// A slot value that cannot be read as its slot requires (an image size, a count).
    case invalidSlotValue(row: Int, slot: Int, problem: String)
    // The list engine (Engine/).

    /// An operation the list does not offer in its mode (explicit heights on a
    /// profile-driven list, an environment on a list without a profile); the message says
    /// which.
    case unsupported(String)
    /// A measurement budget of fewer than 0 rows.
    case invalidBudget(rows: Int)
    /// A thread count outside 1...256.
    case invalidThreadCount(Int)
    /// A prepared batch applied to a list it was not computed for: another list, or this
    /// one after its rows changed since.
    case staleBatch(String)
    /// A swipe or selection the row does not allow: `reason` says why (not in edit mode, a
    /// kind without selection, a header).
    case interactionNotAllowed(id: UInt64, reason: String)
    /// A swipe's revealed width that is not finite and > 0, or wider than the content.
    case invalidSwipeWidth(Double)
    /// Rows selected together that their group's single-selection rule forbids: `id` and
    /// `otherID` are in the same single-selection group.
    case selectionRuleViolation(id: UInt64, otherID: UInt64)

    public var description: String {
        switch self {
        case .invalidHeight(let h): "invalid height \(h) pt (must be finite, >= 0 and <= \(RowStore.maximumRowHeight))"
        case .invalidOffset(let y): "invalid scroll offset \(y) pt (must be finite and >= 0)"
        case .invalidViewport(let v): "invalid viewport or overscan \(v) pt (must be finite and >= 0)"
        case .rowOutOfBounds(let i, let n): "row \(i) out of bounds for \(n) rows"
        case .rangeOutOfBounds(let lo, let hi, let n): "range \(lo)..<\(hi) out of bounds for \(n) rows"
        case .bufferTooSmall(let needed, let capacity): "buffer holds \(capacity) entries, \(needed) needed"
        case .duplicateID(let id): "duplicate row id \(id)"
        case .unknownID(let id): "unknown row id \(id)"
        case .unknownKind(let k, let n): "unknown kind \(k) (\(n) kinds have estimates)"
        case .columnLengthMismatch(let c, let e, let a): "column \(c) has \(a) entries, \(e) expected"
        case .invalidTextOffsets(let r, let s): "text offsets of row \(r) slot \(s) are decreasing or past the text buffer"
        case .invalidUTF8(let r, let s, let o): "row \(r) slot \(s) is not valid UTF-8 at byte \(o)"
        case .invalidUTF8Text(let o): "text is not valid UTF-8 at byte \(o)"
        case .malformedFont(let reason): "malformed font: \(reason)"
        case .unreadableFont(let path, let e): "cannot read font \(path) (errno \(e))"
        case .invalidFlags(let bits): "flags 0x\(String(bits, radix: 16)) are not host-settable"
        case .capacityExceeded(let what): "capacity exceeded: \(what)"
        case .invalidTextWidth(let w): "invalid text width \(w) pt (must be finite and > 0)"
        case .invalidMaxLines(let n): "invalid maximum line count \(n) (must be >= 0; 0 means unlimited)"
        case .emptyFontChain: "a text style needs at least one font"
        case .invalidFontSize(let s): "invalid font size \(s) pt (must be finite and > 0)"
        case .invalidLineHeight(let h): "invalid line height \(h) pt (must be finite and > 0)"
        case .invalidLetterSpacing(let l): "invalid letter spacing \(l) pt (must be finite)"
        case .duplicateIDInDiff(let id, let side, let first, let second):
            "row id \(id) appears more than once in the \(side) rows of a diff, at indexes \(first) and \(second)"
        case .invalidProfile(let path, let problem): path.isEmpty ? "invalid profile: \(problem)" : "invalid profile at \(path): \(problem)"
        case .unreadableProfile(let path, let e): "cannot read profile \(path) (errno \(e))"
        case .profileFontNotFound(let file, let dirs): "font file \(file) not found in \(dirs.joined(separator: ", "))"
        case .unknownKindCode(let code, let profile): "unknown kind code \(code) in profile \(profile)"
        case .invalidEnvironment(let field, let problem): "invalid layout environment \(field): \(problem)"
        case .ruleViolation(let row, let kind, let rule): "row \(row) (\(kind)) breaks a rule: \(rule)"
        case .invalidSlotValue(let row, let slot, let problem): "row \(row) slot \(slot): \(problem)"
        case .unsupported(let what): "not supported: \(what)"
        case .invalidBudget(let rows): "invalid measurement budget of \(rows) rows (must be >= 0)"
        case .invalidThreadCount(let n): "invalid thread count \(n) (must be 1...256)"
        case .staleBatch(let why): "stale batch: \(why)"
        case .interactionNotAllowed(let id, let reason): "row id \(id): \(reason)"
        case .invalidSwipeWidth(let w): "invalid swipe width \(w) pt (must be finite, > 0 and at most the content width)"
        case .selectionRuleViolation(let id, let other): "rows \(id) and \(other) are in one single-selection group: at most one may be selected"
        }
    }
}
