#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

/// One design system's cell kinds, loaded from a profile (`Profiles/README.md` is the
/// format). Loading checks the document against the schema's rules and the cross-field
/// consistency rules, and loads every font file it names, each once; a profile that loads
/// is one every environment the profile supports can compile. Immutable and shareable
/// between threads; `CellMeasurer` does the measuring.
public final class Profile: Sendable {
    /// Debian's directories of the fonts the profiles name (fonts-roboto-unhinted,
    /// fonts-dejavu-core, fonts-droid-fallback, fonts-noto-color-emoji).
    public static let defaultFontDirectories = [
        "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF",
        "/usr/share/fonts/truetype/dejavu",
        "/usr/share/fonts/truetype/droid",
        "/usr/share/fonts/truetype/noto",
    ]

    /// The file stem (`george`, `fiori-ios`, …).
    public let name: String
    public let title: String
    /// `pt` or `dp`; both are engine points.
    public let unit: String
    public let platforms: [LayoutEnvironment.Platform]
    /// The kinds in document order.
    public let kinds: [CellKind]
    public let widthClasses: [WidthClass]
    public let parameters: [ProfileParameter]
    /// Whether rows of some kinds are packed into a grid (`CellMeasurer.grid`).
    public var hasGrid: Bool { model.grid != nil }
    /// The names of the kinds the grid packs (empty without a grid).
    public var gridKinds: [String] { model.grid?.kinds.map(\.kind) ?? [] }

    let model: ProfileModel
    /// One chain per font family, in `model.fonts` order; faces shared between families.
    let fontChains: [FontChain]
    /// The font files each family was loaded from (paths, primary first), in `model.fonts`
    /// order; a font the host gave as loaded is listed by its file name.
    let fontFiles: [[String]]
    /// Kind position in `kinds` by code (-1: no such kind).
    let kindByCode: [Int32]

    /// Reads and loads the profile at `path`.
    /// - Throws: `unreadableProfile`, `invalidProfile(path:problem:)` (malformed JSON, schema
    ///   or consistency violations, a font that is not a usable font),
    ///   `profileFontNotFound`.
    public static func load(path: String, fontDirectories: [String] = Profile.defaultFontDirectories) throws(TesseraError) -> Profile {
        let bytes = try readProfileFile(path)
        return try Profile(json: bytes, fontDirectories: fontDirectories)
    }

    public convenience init(json: [UInt8], fontDirectories: [String] = Profile.defaultFontDirectories) throws(TesseraError) {
        let r = json.withUnsafeBytes { bytes -> Result<ProfileModel, TesseraError> in
            do throws(TesseraError) { return .success(try Profile.decode(bytes)) } catch { return .failure(error) }
        }
        try self.init(model: try r.get(), fontDirectories: fontDirectories)
    }

    public convenience init(json: UnsafeRawBufferPointer, fontDirectories: [String] = Profile.defaultFontDirectories) throws(TesseraError) {
        try self.init(model: try Profile.decode(json), fontDirectories: fontDirectories)
    }

    /// A profile whose font files are given as loaded fonts by file name (the `files` the
    /// profile's font families list), for hosts that hold fonts as bytes (an Android app's
    /// assets); a file not in `fonts` is looked up in `fontDirectories`.
    public convenience init(json: UnsafeRawBufferPointer, fonts: [String: Font], fontDirectories: [String] = []) throws(TesseraError) {
        try self.init(model: try Profile.decode(json), fontDirectories: fontDirectories, fonts: fonts)
    }

    static func decode(_ json: UnsafeRawBufferPointer) throws(TesseraError) -> ProfileModel {
        let root = try JSONParser.parse(json)
        var decoder = ProfileDecoder()
        let model = try decoder.decode(root)
        try ProfileModel.checkSourceKeys(root, "", sources: model.sources)
        try model.checkConsistency()
        return model
    }

    init(model: ProfileModel, fontDirectories: [String], fonts: [String: Font] = [:]) throws(TesseraError) {
        self.model = model
        name = model.name
        title = model.title
        unit = model.unit
        platforms = model.platforms
        widthClasses = model.widthClasses.map { WidthClass(name: $0.name, minWidth: $0.minWidth) }
        parameters = model.parameters.map {
            ProfileParameter(name: $0.name, defaultValue: $0.defaultValue, minimum: $0.minimum, maximum: $0.maximum, allowed: $0.allowed)
        }
        kinds = model.kinds.map { k in
            CellKind(
                code: k.code, name: k.name, role: k.role, isSticky: k.sticky, selection: k.selection, valueCount: k.valueCount,
                slots: k.slots.map { CellKind.Slot(name: $0.name, type: $0.spec.type.name, valueIndex: $0.index, isRequired: $0.required) },
                estimatedHeights: (k.estimatedHeight.ios ?? 0, k.estimatedHeight.android ?? 0))
        }
        var byCode = [Int32](repeating: -1, count: Int(model.kinds.map(\.code).max() ?? 0) + 1)
        for (i, k) in model.kinds.enumerated() { byCode[Int(k.code)] = Int32(i) }
        kindByCode = byCode

        // Each file once, however many families name it.
        var loaded: [String: Font] = [:]
        var chains: [FontChain] = []
        var files: [[String]] = []
        for family in model.fonts {
            var faces: [Font] = []
            var paths: [String] = []
            for (i, file) in family.files.enumerated() {
                if let font = fonts[file] {
                    paths.append(file)
                    faces.append(font)
                    continue
                }
                guard let path = Profile.findFont(file, in: fontDirectories) else {
                    throw .profileFontNotFound(file: file, directories: fontDirectories)
                }
                paths.append(path)
                if let f = loaded[file] {
                    faces.append(f)
                    continue
                }
                do throws(TesseraError) {
                    let font = try Font(path: path)
                    loaded[file] = font
                    faces.append(font)
                } catch {
                    throw .invalidProfile(path: "fonts.\(family.name).files.\(i)", problem: "cannot load \(path): \(error)")
                }
            }
            chains.append(try FontChain(faces))
            files.append(paths)
        }
        fontChains = chains
        fontFiles = files
    }

    /// A profile like this one whose font objects and chains are its own (`Font.ownCopy`:
    /// the same tables, its own memo): measuring on another thread with it touches no
    /// reference count or memo the first profile's threads touch.
    func withOwnFonts() -> Profile {
        var copies: [ObjectIdentifier: Font] = [:]
        let chains = fontChains.map { chain in
            let faces = chain.fonts.map { font in
                if let copy = copies[ObjectIdentifier(font)] { return copy }
                let copy = font.ownCopy()
                copies[ObjectIdentifier(font)] = copy
                return copy
            }
            // The faces passed every check when the chain was first made.
            return try! FontChain(faces)
        }
        return Profile(copying: self, fontChains: chains)
    }

    private init(copying other: Profile, fontChains: [FontChain]) {
        model = other.model
        name = other.name
        title = other.title
        unit = other.unit
        platforms = other.platforms
        widthClasses = other.widthClasses
        parameters = other.parameters
        kinds = other.kinds
        kindByCode = other.kindByCode
        self.fontChains = fontChains
        fontFiles = other.fontFiles
    }

    static func findFont(_ file: String, in directories: [String]) -> String? {
        for d in directories {
            let path = d.hasSuffix("/") ? d + file : d + "/" + file
            var info = stat()
            if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { return path }
        }
        return nil
    }

    /// The kind with this code, or nil.
    public func kind(code: UInt16) -> CellKind? {
        let i = kindIndex(code)
        return i < 0 ? nil : kinds[i]
    }

    /// The kind with this name, or nil.
    public func kind(named name: String) -> CellKind? { kinds.first { $0.name == name } }

    @inline(__always)
    func kindIndex(_ code: UInt16) -> Int {
        Int(code) < kindByCode.count ? Int(kindByCode[Int(code)]) : -1
    }

    /// The width class of content width `width` (the last class whose minWidth ≤ width).
    public func widthClass(forWidth width: Double) -> String { model.widthClass(forWidth: width) }

    /// Estimated heights indexed by kind code (code 0, "no kind", and unused codes get 0),
    /// as `RowStore(estimatedHeights:)` takes them.
    public func estimatedHeights(platform: LayoutEnvironment.Platform) -> [Double] {
        var result = [Double](repeating: 0, count: kindByCode.count)
        for k in kinds { result[Int(k.code)] = k.estimatedHeight(on: platform) }
        return result
    }

    static func readProfileFile(_ path: String) throws(TesseraError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw .unreadableProfile(path: path, errno: errno) }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) != 0 { throw .unreadableProfile(path: path, errno: errno) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw .unreadableProfile(path: path, errno: EISDIR) }
        // Profiles are tens of kilobytes; anything past 64 MiB is not one.
        let limit = 64 << 20
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .unreadableProfile(path: path, errno: errno)
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > limit { throw .invalidProfile(path: "", problem: "\(path) is larger than \(limit) bytes") }
        }
        return bytes
    }
}

/// A cell kind of a profile.
public struct CellKind: Sendable, Equatable {
    public enum Role: String, Sendable {
        /// Rows that form groups.
        case cell
        /// Starts a group.
        case header
        /// Ends a group.
        case footer
    }

    /// How rows of a kind are selected in edit mode.
    public enum Selection: String, Sendable {
        /// At most one row of the group is selected (radio buttons, checkmarks): selecting
        /// one deselects the other.
        case single
        /// Any number of rows are selected (checkboxes).
        case multiple
    }

    /// One element of the kind.
    public struct Slot: Sendable, Equatable {
        public let name: String
        /// `text`, `textList`, `button`, `box`, `image` or `boxStack`.
        public let type: String
        /// The position of its value in a row, or nil for an always-present slot that reads none.
        public let valueIndex: Int?
        public let isRequired: Bool
    }

    /// The number hosts store per row.
    public let code: UInt16
    public let name: String
    public let role: Role
    /// A header that sticks to the top of the viewport while its group scrolls under it.
    public let isSticky: Bool
    /// How its rows are selected in edit mode; nil when they are not selectable.
    public let selection: Selection?
    /// Values a row of this kind carries (slot `i` of a row is value index `i`).
    public let valueCount: Int
    /// The kind's slots in document order.
    public let slots: [Slot]
    let estimatedHeights: (ios: Double, android: Double)

    /// The height used before a row of this kind is measured.
    public func estimatedHeight(on platform: LayoutEnvironment.Platform) -> Double {
        platform == .ios ? estimatedHeights.ios : estimatedHeights.android
    }

    public static func == (a: CellKind, b: CellKind) -> Bool {
        a.code == b.code && a.name == b.name && a.role == b.role && a.isSticky == b.isSticky && a.selection == b.selection && a.valueCount == b.valueCount
            && a.slots == b.slots && a.estimatedHeights == b.estimatedHeights
    }
}

/// A width class: content widths from `minWidth` up to the next class's.
public struct WidthClass: Sendable, Equatable {
    public let name: String
    public let minWidth: Double
}

/// A host-overridable integer of a profile.
public struct ProfileParameter: Sendable, Equatable {
    public let name: String
    public let defaultValue: Int
    public let minimum: Int?
    public let maximum: Int?
    /// When present, the only values a host may set.
    public let allowed: [Int]?
}
