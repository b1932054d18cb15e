#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import Tessera

/// Fonts the bootstrap installs (Debian fonts-roboto-unhinted, fonts-dejavu-core,
/// fonts-droid-fallback, fonts-noto-color-emoji).
enum TestFonts {
    static let roboto = "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf"
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let droid = "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"
    static let emoji = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"
}

/// Reads a whole file (test fixtures only).
func fontReadBytes(_ path: String) -> [UInt8]? {
    guard let f = fopen(path, "rb") else { return nil }
    defer { fclose(f) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, f) }
        if n == 0 { break }
        bytes.append(contentsOf: chunk[0..<n])
    }
    return bytes
}

@discardableResult
func fontWriteBytes(_ bytes: [UInt8], to path: String) -> Bool {
    guard let f = fopen(path, "wb") else { return false }
    defer { fclose(f) }
    return bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) } == bytes.count
}

/// A fresh temporary directory for this process.
func fontTemporaryDirectory(_ name: String) -> String {
    var template = Array("/tmp/tessera-\(name)-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    precondition(made != nil, "mkdtemp failed")
    return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Runs a shell command and returns its standard output (nil when it cannot start or
/// exits non-zero).
func fontRunCommand(_ command: String) -> String? {
    guard let pipe = popen(command, "r") else { return nil }
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, pipe) }
        if n == 0 { break }
        out.append(contentsOf: chunk[0..<n])
    }
    let status = pclose(pipe)
    guard status == 0 else { return nil }
    return String(decoding: out, as: UTF8.self)
}

func fontShellQuoted(_ s: String) -> String { "'" + s.fontTestReplacing("'", with: "'\\''") + "'" }

extension String {
    /// Every occurrence of `target` replaced (no Foundation in these tests).
    func fontTestReplacing(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

/// One glyph of `hb-shape` text output (`gid=cluster@dx,dy+ax`).
struct ShapedGlyph: Equatable {
    var glyph: UInt32
    var cluster: Int
    var xAdvance: Int
}

/// Shapes every line of `lines` with `hb-shape` in one call (font units: the default font
/// size is the em size) and returns the glyphs of each line. `features` is passed to
/// `--features` when non-empty.
func hbShape(font: String, lines: [String], features: String) -> [[ShapedGlyph]]? {
    let dir = fontTemporaryDirectory("hb")
    defer { _ = fontRunCommand("rm -rf \(fontShellQuoted(dir))") }
    let input = dir + "/lines.txt"
    guard fontWriteBytes(Array((lines.joined(separator: "\n") + "\n").utf8), to: input) else { return nil }
    var command = "hb-shape --no-glyph-names --text-file=\(fontShellQuoted(input))"
    if !features.isEmpty { command += " --features=\(fontShellQuoted(features))" }
    command += " \(fontShellQuoted(font))"
    guard let output = fontRunCommand(command) else { return nil }
    var result: [[ShapedGlyph]] = []
    for line in output.split(separator: "\n", omittingEmptySubsequences: false) where line.hasPrefix("[") {
        let body = line.dropFirst().dropLast()
        var glyphs: [ShapedGlyph] = []
        for item in body.split(separator: "|") {
            // gid=cluster[@dx,dy]+ax
            guard let eq = item.firstIndex(of: "="), let plus = item.lastIndex(of: "+") else { return nil }
            let gid = UInt32(item[item.startIndex..<eq])
            let afterEq = item[item.index(after: eq)..<plus]
            let clusterText = afterEq.split(separator: "@").first ?? ""
            guard let gid, let cluster = Int(clusterText), let ax = Int(item[item.index(after: plus)...]) else {
                return nil
            }
            glyphs.append(ShapedGlyph(glyph: gid, cluster: cluster, xAdvance: ax))
        }
        result.append(glyphs)
    }
    return result.count == lines.count ? result : nil
}

/// Deterministic words in English, German, French, Polish, Greek and Russian/Ukrainian
/// built from each language's syllables, with capitals, all-caps words and punctuation.
func fontTestCorpus(wordsPerLanguage: Int = 1000, seed: UInt64 = 0x5EED_F0F7) -> [(language: String, word: String)] {
    struct Language {
        var name: String
        var onsets: [String]
        var vowels: [String]
        var codas: [String]
    }
    let languages = [
        Language(
            name: "en",
            onsets: ["", "b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "y", "th", "sh", "ch", "st", "tr", "br", "pl", "gr", "fl", "wh", "qu"],
            vowels: ["a", "e", "i", "o", "u", "ou", "ea", "ee", "oo", "ai", "y", "aw", "ow"],
            codas: ["", "", "n", "r", "s", "t", "ng", "ll", "ck", "st", "rd", "x", "ff", "fi", "fl", "ft", "ve"]),
        Language(
            name: "de",
            onsets: ["", "b", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "w", "z", "sch", "st", "sp", "pf", "kr", "tr", "fr", "gl", "v", "j"],
            vowels: ["a", "e", "i", "o", "u", "ä", "ö", "ü", "ei", "ie", "au", "eu", "äu"],
            codas: ["", "", "n", "r", "s", "t", "ch", "tz", "ß", "ng", "ck", "lt", "rf", "ff", "nd", "st"]),
        Language(
            name: "fr",
            onsets: ["", "b", "c", "d", "f", "g", "j", "l", "m", "n", "p", "qu", "r", "s", "t", "v", "ch", "gr", "tr", "pl", "fl", "ç", "y"],
            vowels: ["a", "e", "é", "è", "ê", "i", "î", "o", "ô", "u", "û", "ou", "oi", "au", "eau", "ai", "œu", "à", "â", "ë", "ï"],
            codas: ["", "", "", "n", "r", "s", "t", "x", "l", "ll", "ff", "que", "nt", "ps"]),
        Language(
            name: "pl",
            onsets: ["", "b", "c", "d", "g", "k", "l", "ł", "m", "n", "p", "r", "s", "ś", "t", "w", "z", "ź", "ż", "sz", "cz", "rz", "dz", "dź", "ch", "prz", "trz", "ć", "ń"],
            vowels: ["a", "ą", "e", "ę", "i", "o", "ó", "u", "y", "ie", "ia"],
            codas: ["", "", "", "ć", "ł", "n", "ń", "s", "ś", "j", "k", "w", "sz", "cz", "m"]),
        Language(
            name: "el",
            onsets: ["", "β", "γ", "δ", "ζ", "θ", "κ", "λ", "μ", "ν", "ξ", "π", "ρ", "σ", "τ", "φ", "χ", "ψ", "στ", "τρ", "γρ", "πλ"],
            vowels: ["α", "ε", "η", "ι", "ο", "υ", "ω", "ά", "έ", "ή", "ί", "ό", "ύ", "ώ", "αι", "ει", "οι", "ου", "ϊ", "ΐ", "ΰ"],
            codas: ["", "", "", "σ", "ν", "ρ", "ς"]),
        Language(
            name: "ru",
            onsets: ["", "б", "в", "г", "д", "ж", "з", "к", "л", "м", "н", "п", "р", "с", "т", "ф", "х", "ц", "ч", "ш", "щ", "ст", "пр", "тр", "кр", "зв"],
            vowels: ["а", "е", "ё", "и", "о", "у", "ы", "э", "ю", "я", "і", "ї", "є"],
            codas: ["", "", "ь", "й", "н", "р", "с", "т", "к", "л", "м", "ть", "сть", "ъ"]),
    ]
    let prefixes = ["«", "(", "„", "\"", "‘", "¿", "¡"]
    let suffixes = [",", ".", "!", "?", ":", ";", "»", ")", "\"", "’s", "…", "-", "—"]
    var rng = SplitMix64(seed: seed)
    var words: [(String, String)] = []
    for language in languages {
        for _ in 0..<wordsPerLanguage {
            var word = ""
            for _ in 0..<rng.int(1...4) {
                word += rng.pick(language.onsets) + rng.pick(language.vowels) + rng.pick(language.codas)
            }
            if language.name == "el" {
                // Final sigma at the end only.
                word = word.fontTestReplacing("ς", with: "σ")
                if word.hasSuffix("σ") { word = String(word.dropLast()) + "ς" }
            }
            let style = rng.below(20)
            if style < 4 {
                word = word.prefix(1).uppercased() + word.dropFirst()
            } else if style == 4 {
                word = word.uppercased()
            }
            if rng.chance(0.1) { word = rng.pick(prefixes) + word }
            if rng.chance(0.15) { word += rng.pick(suffixes) }
            words.append((language.name, word))
        }
    }
    // Kerning-heavy words.
    let fixed = [
        "AVATAR", "WAVE", "Tower", "Type", "Yacht", "LTA", "P.", "Wolf", "VAT", "Tr", "Ty", "Vo", "y.", "r,",
        "ΑΥΤΟ", "ΤΑΥΤΟΤΗΤΑ", "ΓΑΛΑ", "ГОД", "ТАК", "УГОЛ", "Т.", "Уа", "Гоа", "ŁÓDŹ", "Żółw", "À", "Ça",
        "L’Ÿ", "T’a", "«Vous»", "„Tor“", "F.A.Q.", "Av", "Aw", "Ay", "fj", "ff", "ffi", "ffl", "fi", "fl",
        // Combining marks (composed by HarfBuzz where the font has the composed glyph, else
        // zero-advance marks) and default ignorables.
        "e\u{301}te\u{301}", "q\u{301}", "x\u{323}\u{302}", "Ы\u{301}", "A\u{30A}ngstro\u{308}m", "n\u{303}o",
        "Te\u{301}Va", "a\u{200D}b", "soft\u{AD}hyphen", "zero\u{200B}width", "V\u{34F}A",
    ]
    for w in fixed { words.append(("fixed", w)) }
    return words
}
