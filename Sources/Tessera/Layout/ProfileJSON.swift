/// A parsed JSON value. Objects keep their members in document order (kind codes and
/// error messages follow the file), and a key may appear only once.
enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    /// What a value is, for "expected …, found …" messages.
    var found: String {
        switch self {
        case .null: "null"
        case .bool(let b): "\(b)"
        case .number(let n): ProfileFormat.number(n)
        case .string(let s): s.count > 40 ? "a string" : "\"\(s)\""
        case .array: "an array"
        case .object: "an object"
        }
    }

    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        for m in members where m.key == key { return m.value }
        return nil
    }
}

/// A strict RFC 8259 parser over UTF-8 bytes (no Foundation in the core). Errors name the
/// dotted path of the value being read (`kinds.basicCell.slots`), the line and column, and
/// what was expected there. Nesting is limited so hostile input cannot exhaust the stack.
struct JSONParser {
    static let maximumDepth = 200

    private let bytes: UnsafeRawBufferPointer
    private var i = 0
    private var path: [String] = []

    private init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    static func parse(_ bytes: UnsafeRawBufferPointer) throws(TesseraError) -> JSONValue {
        var p = JSONParser(bytes)
        // A UTF-8 byte order mark is tolerated, as most editors may write one.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { p.i = 3 }
        p.skipWhitespace()
        let value = try p.value()
        p.skipWhitespace()
        if p.i < bytes.count { throw p.error("expected the end of the document") }
        return value
    }

    private func error(_ expected: String) -> TesseraError {
        var line = 1, column = 1, k = 0
        while k < i && k < bytes.count {
            if bytes[k] == 0x0A { line += 1; column = 1 } else if bytes[k] & 0xC0 != 0x80 { column += 1 }
            k += 1
        }
        let found: String
        if i >= bytes.count {
            found = "the end of the document"
        } else if bytes[i] >= 0x20 && bytes[i] < 0x7F {
            found = "'\(Character(Unicode.Scalar(bytes[i])))'"
        } else {
            found = "byte 0x\(String(bytes[i], radix: 16))"
        }
        return .invalidProfile(path: path.joined(separator: "."), problem: "malformed JSON at line \(line), column \(column): \(expected), found \(found)")
    }

    private mutating func skipWhitespace() {
        while i < bytes.count {
            let b = bytes[i]
            guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return }
            i += 1
        }
    }

    private var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

    private mutating func value() throws(TesseraError) -> JSONValue {
        guard let b = peek else { throw error("expected a value") }
        switch b {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("expected a value")
        }
    }

    private mutating func literal(_ word: StaticString) throws(TesseraError) {
        let w = UnsafeRawBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for k in 0..<w.count {
            guard i < bytes.count, bytes[i] == w[k] else { throw error("expected \(word)") }
            i += 1
        }
    }

    private mutating func object() throws(TesseraError) -> JSONValue {
        guard path.count < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        i += 1
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if peek == UInt8(ascii: "}") { i += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\"") else { throw error("expected a member name in double quotes") }
            let keyStart = i
            let key = try string()
            if members.contains(where: { $0.key == key }) {
                i = keyStart
                path.append(key)
                throw error("duplicate member name")
            }
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else { throw error("expected ':'") }
            i += 1
            skipWhitespace()
            path.append(key)
            let v = try value()
            path.removeLast()
            members.append((key, v))
            skipWhitespace()
            if peek == UInt8(ascii: ",") { i += 1; continue }
            if peek == UInt8(ascii: "}") { i += 1; return .object(members) }
            throw error("expected ',' or '}'")
        }
    }

    private mutating func array() throws(TesseraError) -> JSONValue {
        guard path.count < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        i += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek == UInt8(ascii: "]") { i += 1; return .array(elements) }
        while true {
            skipWhitespace()
            path.append(String(elements.count))
            let v = try value()
            path.removeLast()
            elements.append(v)
            skipWhitespace()
            if peek == UInt8(ascii: ",") { i += 1; continue }
            if peek == UInt8(ascii: "]") { i += 1; return .array(elements) }
            throw error("expected ',' or ']'")
        }
    }

    private mutating func hex4() throws(TesseraError) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let b = peek else { throw error("expected 4 hexadecimal digits") }
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error("expected 4 hexadecimal digits")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    private mutating func string() throws(TesseraError) -> String {
        i += 1  // opening quote
        var out: [UInt8] = []
        while true {
            guard let b = peek else { throw error("expected '\"' to end the string") }
            switch b {
            case UInt8(ascii: "\""):
                i += 1
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                i += 1
                guard let e = peek else { throw error("expected an escape character") }
                i += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var v = try hex4()
                    if v >= 0xD800 && v < 0xDC00 {
                        guard peek == UInt8(ascii: "\\"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "u") else {
                            throw error("expected a low surrogate escape after a high surrogate")
                        }
                        i += 2
                        let low = try hex4()
                        guard low >= 0xDC00 && low < 0xE000 else { throw error("expected a low surrogate (\\uDC00-\\uDFFF)") }
                        v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)
                    } else if v >= 0xDC00 && v < 0xE000 {
                        throw error("expected a high surrogate before a low one")
                    }
                    out.append(contentsOf: Array(String(Unicode.Scalar(v).unsafelyUnwrapped).utf8))
                default:
                    i -= 1
                    throw error("expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u")
                }
            case 0..<0x20:
                throw error("expected a character (control characters must be escaped)")
            case 0x80...:
                // Copy one whole, valid UTF-8 sequence.
                let rest = UnsafeRawBufferPointer(rebasing: bytes[i..<min(i + 4, bytes.count)])
                let n = utf8SequenceLength(b)
                guard n > 1, n <= rest.count, firstInvalidUTF8Byte(UnsafeRawBufferPointer(rebasing: rest[0..<n])) == nil else {
                    throw error("expected valid UTF-8")
                }
                out.append(contentsOf: rest[0..<n])
                i += n
            default:
                out.append(b)
                i += 1
            }
        }
    }

    private func utf8SequenceLength(_ b: UInt8) -> Int {
        switch b {
        case 0xC2...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF4: 4
        default: 0
        }
    }

    private mutating func number() throws(TesseraError) -> Double {
        let start = i
        func digit(_ b: UInt8?) -> Bool { b.map { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } ?? false }
        if peek == UInt8(ascii: "-") { i += 1 }
        if peek == UInt8(ascii: "0") {
            i += 1
        } else if digit(peek) {
            while digit(peek) { i += 1 }
        } else {
            throw error("expected a digit")
        }
        if peek == UInt8(ascii: ".") {
            i += 1
            guard digit(peek) else { throw error("expected a digit after '.'") }
            while digit(peek) { i += 1 }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            i += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { i += 1 }
            guard digit(peek) else { throw error("expected a digit in the exponent") }
            while digit(peek) { i += 1 }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        guard let v = Double(text), v.isFinite else {
            i = start
            throw error("expected a number within the range of a double")
        }
        return v
    }
}
