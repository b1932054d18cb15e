import Testing
@testable import Tessera

/// The repository's profiles, each loaded once for the whole test run.
enum ProfileFixtures {
    /// `Profiles/` of this checkout (this file is `Tests/TesseraTests/…`).
    static let directory: String = {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/Profiles"
    }()

    static func path(_ name: String) -> String { directory + "/" + name + ".json" }
    static func bytes(_ name: String) -> [UInt8] { fontReadBytes(path(name))! }
    static func text(_ name: String) -> String { String(decoding: bytes(name), as: UTF8.self) }

    static let george = try! Profile.load(path: path("george"))
    static let fioriAndroid = try! Profile.load(path: path("fiori-android"))
    static let fioriIOS = try! Profile.load(path: path("fiori-ios"))
    static let collection = try! Profile.load(path: path("fiori-ios-collection"))
    static var all: [Profile] { [george, fioriAndroid, fioriIOS, collection] }
}

/// A text engine whose widths are chosen per byte, so the README's worked examples (given
/// as line counts and natural widths) can be reproduced exactly through the real engine:
/// line counts come from mandatory breaks ("a\nb" is two lines at any width), widths from
/// the table below (size ignored; letter spacing is still added by the engine).
enum StubText {
    static func width(_ b: UInt8) -> Double {
        switch b {
        case UInt8(ascii: "x"): 10
        case UInt8(ascii: "y"): 9.9
        case UInt8(ascii: " "): 5
        default: 10
        }
    }

    static func engine() -> TextLayoutEngine {
        TextLayoutEngine(shaper: HostCallbackShaper(usesFontFallback: false) { utf8, _, _ in
            var w = 0.0
            for b in utf8 { w += width(b) }
            return w
        })
    }

    /// `n` lines (n − 1 line feeds) of one short word each.
    static func lines(_ n: Int) -> String { Array(repeating: "a", count: n).joined(separator: "\n") }
}

extension Profile {
    /// A row of kind `kind` as slot strings, from values by slot name.
    func row(_ kind: String, _ values: [String: String]) -> (code: UInt16, slots: [String]) {
        let k = self.kind(named: kind)!
        var slots = [String](repeating: "", count: k.valueCount)
        for (name, value) in values {
            let slot = k.slots.first { $0.name == name }!
            slots[slot.valueIndex!] = value
        }
        return (k.code, slots)
    }
}

extension CellMeasurer {
    func height(_ row: (code: UInt16, slots: [String])) -> Double { height(kind: row.code, slots: row.slots) }
    func frames(_ row: (code: UInt16, slots: [String])) -> CellFrames { frames(kind: row.code, slots: row.slots) }
}

func makeMeasurer(
    _ profile: Profile, width: Double, platform: LayoutEnvironment.Platform = .ios, editMode: Bool = false, fontScale: Double = 1,
    parameters: [String: Int] = [:], engine: TextLayoutEngine = StubText.engine()
) -> CellMeasurer {
    try! CellMeasurer(
        profile: profile, environment: LayoutEnvironment(width: width, platform: platform, editMode: editMode, fontScale: fontScale, parameters: parameters),
        textEngine: engine)
}

/// Expects the slot's frame to be exactly (x, y, width, height).
func expectFrame(_ frames: CellFrames, _ slot: String, _ x: Double, _ y: Double, _ width: Double, _ height: Double,
                 sourceLocation: SourceLocation = #_sourceLocation) {
    guard let f = frames[slot] else {
        Issue.record("no frame for \(slot); present: \(frames.slots.map(\.name))", sourceLocation: sourceLocation)
        return
    }
    #expect(f.frame == CellRect(x: x, y: y, width: width, height: height), "\(slot)", sourceLocation: sourceLocation)
}


/// Editing profile documents in tests: parse, change one value by dotted path, write back.
extension JSONValue {
    static func parse(_ text: String) -> JSONValue {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { try! JSONParser.parse(UnsafeRawBufferPointer($0)) }
    }

    /// The document with the value at `path` replaced (nil removes it; a missing member is
    /// added at the end).
    func setting(_ path: String, _ value: JSONValue?) -> JSONValue {
        setting(path.split(separator: ".").map(String.init)[...], value)
    }

    private func setting(_ path: ArraySlice<String>, _ value: JSONValue?) -> JSONValue {
        guard let key = path.first else { return value ?? .null }
        let rest = path.dropFirst()
        switch self {
        case .object(var members):
            if let i = members.firstIndex(where: { $0.key == key }) {
                if rest.isEmpty && value == nil {
                    members.remove(at: i)
                } else {
                    members[i].value = members[i].value.setting(rest, value)
                }
            } else if let value {
                precondition(rest.isEmpty, "no member \(key)")
                members.append((key, value))
            }
            return .object(members)
        case .array(var elements):
            let i = Int(key)!
            if rest.isEmpty && value == nil {
                elements.remove(at: i)
            } else if i == elements.count {
                elements.append(value!)
            } else {
                elements[i] = elements[i].setting(rest, value)
            }
            return .array(elements)
        default:
            preconditionFailure("\(key) inside a scalar")
        }
    }

    func value(at path: String) -> JSONValue? {
        var node: JSONValue? = self
        for key in path.split(separator: ".") {
            switch node {
            case .object?: node = node?[String(key)]
            case .array(let a)?: node = a[Int(key)!]
            default: return nil
            }
        }
        return node
    }

    var json: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : "\(n)"
        case .string(let s): return JSONValue.quote(s)
        case .array(let a): return "[" + a.map(\.json).joined(separator: ",") + "]"
        case .object(let m): return "{" + m.map { JSONValue.quote($0.key) + ":" + $0.value.json }.joined(separator: ",") + "}"
        }
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default:
                if u.value < 0x20 { out += "\\u00" + (u.value < 0x10 ? "0" : "") + String(u.value, radix: 16) } else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }
}
