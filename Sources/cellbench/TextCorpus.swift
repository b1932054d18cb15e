#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The script group a corpus string belongs to, by the letters it contains.
///
/// `latin` covers Latin letters with any accents (and strings with no letters at all, such
/// as "12.03.2024 14:32", which a Latin font sets); `emoji` is emoji with Latin text or
/// none; `mixed` is letters of two or more of Latin, Greek, Cyrillic and CJK, or emoji
/// with non-Latin letters. Digits, punctuation, spaces and currency signs are common to all.
enum ScriptGroup: String, CaseIterable, Sendable {
    case latin, greek, cyrillic, cjk, emoji, mixed

    /// The group of `string` by the rule above (what the corpus tags each string with).
    static func classify(_ string: String) -> ScriptGroup {
        var latin = false, greek = false, cyrillic = false, cjk = false, emoji = false
        for scalar in string.unicodeScalars {
            switch scalar.value {
            case 0x41...0x5A, 0x61...0x7A, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x24F, 0x1E00...0x1EFF, 0xFF21...0xFF3A,
                 0xFF41...0xFF5A:
                latin = true
            case 0x370...0x3FF, 0x1F00...0x1FFF: greek = true
            case 0x400...0x52F: cyrillic = true
            case 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0x20000...0x3FFFF:
                cjk = true
            case 0x1F000...0x1FAFF, 0x2600...0x27BF, 0x2B50, 0x2B55: emoji = true
            default: break
            }
        }
        let scripts = (latin ? 1 : 0) + (greek ? 1 : 0) + (cyrillic ? 1 : 0) + (cjk ? 1 : 0)
        if emoji { return scripts == 0 || (scripts == 1 && latin) ? .emoji : .mixed }
        if scripts > 1 { return .mixed }
        if greek { return .greek }
        if cyrillic { return .cyrillic }
        if cjk { return .cjk }
        return .latin
    }
}

/// A deterministic corpus of realistic list texts for the text-layout benchmark: what a
/// banking or ERP list shows in its cells (transaction descriptions, merchants, people,
/// products, addresses, dates with amounts, e-mail addresses, URLs, multi-sentence
/// descriptions), in the scripts such an app meets.
///
/// The mix, per string drawn independently (so a corpus of n strings has these shares up to
/// sampling noise; `TextCorpus.mix` is the source of truth):
///
/// | group | share | content |
/// |---|---:|---|
/// | latin | 80 % | English 30 %, German 40 % (compounds such as Rechnungsbetragsübersicht), French 15 %, Polish 15 % |
/// | cyrillic | 7 % | Russian, Ukrainian, Bulgarian, Serbian |
/// | greek | 5 % | |
/// | cjk | 4 % | Chinese and Japanese, half each |
/// | emoji | 2 % | Latin text with emoji, ZWJ sequences, skin tones and flags; some emoji-only |
/// | mixed | 2 % | two scripts in one string (a Cyrillic transaction at a Latin merchant, …) |
///
/// Within Latin, Greek, Cyrillic and CJK the kinds are: transaction descriptions 26–30 %,
/// people's names 12–15 %, product names 10–12 %, merchant names 10 %, addresses 8–10 %,
/// dates with amounts 5–8 %, multi-sentence descriptions 17–20 %, and (Latin only) e-mail
/// addresses 4 % and URLs 3 %. Lengths run from 3 to 400 characters (extended grapheme
/// clusters); descriptions are long (40–400, median about 130; CJK 15–150), everything else
/// short (3–90).
///
/// Every string is valid UTF-8 without control characters or line and paragraph separators
/// (no U+0000–U+001F, U+007F–U+009F, U+2028, U+2029), so a corpus file can hold one string
/// per line. Each string's tag is `ScriptGroup.classify` of the string.
struct TextCorpus {
    static let minLength = 3
    static let maxLength = 400

    /// Shares per mille, in the order strings of each group are drawn.
    static let mix: [(group: ScriptGroup, perMille: Int)] = [
        (.latin, 800), (.cyrillic, 70), (.greek, 50), (.cjk, 40), (.emoji, 20), (.mixed, 20),
    ]

    var strings: [String]
    var groups: [ScriptGroup]

    init(count: Int, seed: UInt64) {
        precondition(count >= 0, "count must not be negative")
        var generator = CorpusGenerator(seed: seed)
        strings = []
        groups = []
        strings.reserveCapacity(count)
        groups.reserveCapacity(count)
        for _ in 0..<count {
            let (string, group) = generator.next()
            strings.append(string)
            groups.append(group)
        }
    }

    /// The corpus file: every string followed by one LF (0x0A), UTF-8, no byte-order mark.
    /// Strings never contain LF, CR or NUL, so string *i* is line *i* (0-based).
    func utf8Lines() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(strings.reduce(0) { $0 + $1.utf8.count + 1 })
        for string in strings {
            bytes.append(contentsOf: string.utf8)
            bytes.append(0x0A)
        }
        return bytes
    }

    /// Writes the corpus file (see `utf8Lines`) to `path`.
    func write(to path: String) throws(CorpusFileError) {
        try Self.writeFile(utf8Lines(), to: path)
    }

    /// Writes the tags, one group name per line in the order of the strings, to `path`.
    func writeGroups(to path: String) throws(CorpusFileError) {
        var bytes: [UInt8] = []
        for group in groups {
            bytes.append(contentsOf: group.rawValue.utf8)
            bytes.append(0x0A)
        }
        try Self.writeFile(bytes, to: path)
    }

    static func writeFile(_ bytes: [UInt8], to path: String) throws(CorpusFileError) {
        guard let file = fopen(path, "wb") else {
            throw CorpusFileError(path: path, reason: String(cString: strerror(errno)))
        }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        let closed = fclose(file)
        guard written == bytes.count, closed == 0 else {
            throw CorpusFileError(path: path, reason: String(cString: strerror(errno)))
        }
    }
}

struct CorpusFileError: Error, CustomStringConvertible {
    var path: String
    var reason: String
    var description: String { "cannot write \(path): \(reason)" }
}

/// Draws corpus strings. All randomness comes from one xoshiro256** stream, so a seed
/// fixes the corpus on every platform.
struct CorpusGenerator {
    var rng: Xoshiro256

    init(seed: UInt64) { rng = Xoshiro256(seed: seed) }

    /// The next string and its group.
    mutating func next() -> (String, ScriptGroup) {
        var roll = rng.below(1000)
        var intended = ScriptGroup.latin
        for entry in TextCorpus.mix {
            if roll < entry.perMille { intended = entry.group; break }
            roll -= entry.perMille
        }
        // A string whose letters do not match its intended group (a mixed template whose
        // second script was clipped away) is drawn again, so the shares hold and every tag
        // is the classification of its string.
        var string = ""
        for _ in 0..<32 {
            string = Self.finish(draw(intended))
            if string.count >= TextCorpus.minLength, ScriptGroup.classify(string) == intended { break }
        }
        if string.count < TextCorpus.minLength { string = "n/a" }
        return (string, ScriptGroup.classify(string))
    }

    mutating func draw(_ group: ScriptGroup) -> String {
        switch group {
        case .latin: latin(language())
        case .greek: greek()
        case .cyrillic: cyrillic()
        case .cjk: chance(0.5) ? chinese() : japanese()
        case .emoji: emojiText()
        case .mixed: mixed()
        }
    }

    /// Clips to `maxLength` characters at a word boundary when there is one in the second
    /// half, marking the cut with an ellipsis.
    static func finish(_ string: String) -> String {
        var s = string
        if s.count > TextCorpus.maxLength {
            var cut = s.prefix(TextCorpus.maxLength - 1)
            if let space = cut.lastIndex(of: " "), cut.distance(from: cut.startIndex, to: space) > TextCorpus.maxLength / 2 {
                cut = cut[..<space]
            }
            while let last = cut.last, last == " " || last == "," || last == ";" || last == ":" { cut = cut.dropLast() }
            s = String(cut) + "…"
        }
        precondition(!s.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value)
                         || $0.value == 0x2028 || $0.value == 0x2029 },
                     "corpus string contains a control character or separator")
        return s
    }

    // MARK: Random helpers

    mutating func pick(_ words: [String]) -> String { words[rng.below(words.count)] }
    mutating func chance(_ p: Double) -> Bool { rng.unit() < p }
    mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + rng.below(range.count) }

    /// Index drawn with the given integer weights.
    mutating func weighted(_ weights: [Int]) -> Int {
        var roll = rng.below(weights.reduce(0, +))
        for (i, w) in weights.enumerated() {
            if roll < w { return i }
            roll -= w
        }
        return weights.count - 1
    }

    mutating func digits(_ n: Int) -> String {
        var s = ""
        for _ in 0..<n { s.append(Character(Unicode.Scalar(UInt8(48 + rng.below(10))))) }
        return s
    }

    mutating func hex(_ n: Int) -> String {
        let alphabet = Array("0123456789ABCDEF")
        return String((0..<n).map { _ in alphabet[rng.below(16)] })
    }

    static func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }

    /// Fills `{key}` slots of a template.
    mutating func fill(_ template: String, _ slot: (inout CorpusGenerator, Substring) -> String) -> String {
        var out = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            out += rest[..<open]
            let value = slot(&self, rest[rest.index(after: open)..<close])
            out += value
            rest = rest[rest.index(after: close)...]
            // A value ending in a period ("12.03.") absorbs the template's sentence period.
            if value.hasSuffix("."), rest.hasPrefix(".") { rest = rest.dropFirst() }
        }
        out += rest
        return out
    }

    /// A description length target: 40–400 characters, skewed short (median about 130).
    mutating func longTarget(_ low: Int, _ high: Int) -> Int {
        let u = rng.unit()
        return low + Int(Double(high - low) * u * u)
    }

    // MARK: Dates, amounts, numbers

    mutating func date() -> (d: Int, m: Int, y: Int) { (int(1...28), int(1...12), int(2019...2025)) }

    mutating func dateText(_ style: DateStyle) -> String {
        let (d, m, y) = date()
        let dd = Self.two(d), mm = Self.two(m)
        switch style {
        case .latin(.en):
            return [ "\(Words.months[.en]![m - 1]) \(d), \(y)", "\(mm)/\(dd)/\(y)", "\(y)-\(mm)-\(dd)", "\(d) \(Words.months[.en]![m - 1].prefix(3)) \(y)"][rng.below(4)]
        case .latin(.de):
            return ["\(dd).\(mm).\(y)", "\(d). \(Words.months[.de]![m - 1]) \(y)", "\(dd).\(mm)."][rng.below(3)]
        case .latin(.fr):
            return ["\(dd)/\(mm)/\(y)", "\(d) \(Words.months[.fr]![m - 1]) \(y)"][rng.below(2)]
        case .latin(.pl):
            return ["\(dd).\(mm).\(y)", "\(d) \(Words.months[.pl]![m - 1]) \(y) r."][rng.below(2)]
        case .greek:
            return ["\(dd)/\(mm)/\(y)", "\(d) \(Words.greekMonths[m - 1]) \(y)"][rng.below(2)]
        case .cyrillic:
            return ["\(dd).\(mm).\(y)", "\(d) \(Words.cyrMonths[m - 1]) \(y) г."][rng.below(2)]
        case .cjk:
            return ["\(y)年\(m)月\(d)日", "\(m)月\(d)日", "\(y)-\(mm)-\(dd)"][rng.below(3)]
        }
    }

    mutating func time() -> String { "\(Self.two(int(0...23))):\(Self.two(int(0...59)))" }

    /// Integer part with a grouping separator every three digits.
    static func grouped(_ value: Int, _ separator: String) -> String {
        let s = String(value)
        var out = ""
        for (i, c) in s.enumerated() {
            if i > 0, (s.count - i) % 3 == 0 { out += separator }
            out.append(c)
        }
        return out
    }

    mutating func amount(_ style: AmountStyle) -> String {
        // Log-uniform-ish magnitude: 0.10 to 999,999.99.
        var cents = int(1...9)
        for _ in 0..<int(1...7) { cents = cents * 10 + rng.below(10) }
        let negative = chance(0.55)
        let sign = negative ? (chance(0.7) ? "\u{2212}" : "-") : (chance(0.2) ? "+" : "")
        let units = cents / 100, c = Self.two(cents % 100)
        switch style {
        case .de:
            let n = "\(sign)\(Self.grouped(units, ".")),\(c)"
            return ["\(n) EUR", "\(n) €", "€ \(n)", "CHF \(sign)\(Self.grouped(units, "'")).\(c)"][weighted([5, 4, 2, 1])]
        case .en:
            let g = Self.grouped(units, ",")
            return ["\(sign)$\(g).\(c)", "\(sign)£\(g).\(c)", "USD \(sign)\(g).\(c)", "\(sign)€\(g).\(c)"][rng.below(4)]
        case .fr:
            return "\(sign)\(Self.grouped(units, "\u{202F}")),\(c)\u{00A0}€"
        case .pl:
            let n = "\(sign)\(Self.grouped(units, chance(0.5) ? " " : "\u{00A0}")),\(c)"
            return chance(0.7) ? "\(n) zł" : "\(n) PLN"
        case .greek:
            return "\(sign)\(Self.grouped(units, ".")),\(c) €"
        case .cyrillic:
            let n = "\(sign)\(Self.grouped(units, "\u{00A0}")),\(c)"
            return "\(n) " + pick(["₽", "руб.", "грн", "₴", "лв.", "дин."])
        case .zh:
            return chance(0.6) ? "\(sign)¥\(Self.grouped(units, ",")).\(c)" : "\(sign)\(Self.grouped(units, ",")).\(c)元"
        case .ja:
            return chance(0.5) ? "\(sign)¥\(Self.grouped(units, ","))" : "\(sign)\(Self.grouped(units, ","))円"
        }
    }

    mutating func phone(_ prefix: String) -> String {
        "+\(prefix) \(digits(3)) \(digits(3)) \(digits(int(3...4)))"
    }

    mutating func iban(_ country: String) -> String {
        var s = country + digits(2)
        let spaced = chance(0.6)
        for _ in 0..<int(4...5) { s += (spaced ? " " : "") + digits(4) }
        return s
    }

    mutating func reference() -> String {
        ["RF\(digits(2))\(digits(int(8...14)))", "\(int(2019...2025))-\(digits(9))", "M-\(hex(8))",
         "\(digits(3))/\(digits(5))/\(int(2019...2025))", "INV-\(digits(6))"][rng.below(5)]
    }

    // MARK: Latin script

    mutating func language() -> Language { [.en, .de, .fr, .pl][weighted([30, 40, 15, 15])] }

    mutating func given(_ l: Language) -> String { pick(Words.givenStart[l]!) + pick(Words.givenEnd[l]!) }
    mutating func surname(_ l: Language) -> String { pick(Words.surnameStart[l]!) + pick(Words.surnameEnd[l]!) }

    mutating func person(_ l: Language) -> String {
        let g = given(l), s = surname(l)
        switch weighted([6, 2, 1, 1, 1]) {
        case 0: return "\(g) \(s)"
        case 1: return "\(s), \(g)"
        case 2: return "\(g.prefix(1)). \(s)"
        case 3: return "\(g) \(given(l).prefix(1)). \(s)-\(surname(l))"
        default:
            let titles: [Language: [String]] = [.en: ["Dr", "Mr", "Ms"], .de: ["Dr.", "Mag.", "DI", "Ing."],
                                                 .fr: ["M.", "Mme", "Me"], .pl: ["dr", "mgr inż.", "Pan", "Pani"]]
            return "\(pick(titles[l]!)) \(g) \(s)"
        }
    }

    mutating func brand() -> String { pick(Words.brandStart) + pick(Words.brandEnd) }

    mutating func merchant(_ l: Language) -> String {
        switch rng.below(5) {
        case 0: return "\(brand()) \(pick(Words.legalForms[l]!))"
        case 1: return "\(pick(Words.shopTypes[l]!)) \(surname(l))"
        case 2: return l == .en ? "\(given(l))'s \(pick(Words.shopTypes[l]!))" : "\(pick(Words.shopTypes[l]!)) \(brand())"
        case 3: return "\(brand()) \(pick(Words.shopTypes[l]!)) \(pick(Words.cities[l]!))"
        default: return brand()
        }
    }

    mutating func postcode(_ l: Language) -> String {
        switch l {
        case .en: chance(0.5) ? digits(5) : "\(pick(["SW1", "M4", "EC2", "LS6"])) \(int(1...9))\(pick(["AA", "BD", "JX", "QT"]))"
        case .de: chance(0.6) ? "\(int(1...9))\(digits(3))" : "\(int(1...9))\(digits(4))"
        case .fr: "\(Self.two(int(1...95)))\(digits(3))"
        case .pl: "\(digits(2))-\(digits(3))"
        }
    }

    mutating func address(_ l: Language) -> String {
        let street = pick(Words.streets[l]!), city = pick(Words.cities[l]!), n = int(1...240)
        switch l {
        case .en: return "\(n) \(street), \(city) \(postcode(l))" + (chance(0.3) ? ", United Kingdom" : "")
        case .de: return "\(street) \(n)" + (chance(0.4) ? "/\(int(1...9))/\(int(1...30))" : "") + ", \(postcode(l)) \(city)"
        case .fr: return "\(n) \(street), \(postcode(l)) \(city)" + (chance(0.2) ? ", France" : "")
        case .pl: return "\(street) \(n)/\(int(1...80)), \(postcode(l)) \(city)"
        }
    }

    /// A German compound of two to four parts with linking -s- or -n- where German has one.
    mutating func compound() -> String {
        var word = ""
        for i in 0..<weighted([0, 0, 6, 3, 1]) {
            var part = pick(Words.compoundParts)
            if i > 0 { part = part.prefix(1).lowercased() + part.dropFirst() }
            if !word.isEmpty {
                if ["ung", "heit", "keit", "schaft", "sicht", "tion", "tät", "trag", "zug"].contains(where: { word.hasSuffix($0) }) {
                    word += "s"
                } else if word.hasSuffix("e"), chance(0.5) {
                    word += "n"
                }
            }
            word += part
        }
        return word
    }

    mutating func product(_ l: Language) -> String {
        switch rng.below(4) {
        case 0 where l == .en: return "\(pick(Words.productAdjectives)) \(pick(Words.products[.en]!)) \(pick(Words.productSpecs))"
        case 1: return "\(pick(Words.products[l]!)), \(pick(Words.productSpecs))"
        case 2: return "\(pick(Words.products[l]!)) \(brand().uppercased())-\(digits(4)) (\(l == .de ? compound() : pick(Words.productSpecs)))"
        case 3: return "Material \(digits(9)) – \(pick(Words.products[l]!))"
        default: return pick(Words.products[l]!)
        }
    }

    mutating func email(_ l: Language) -> String {
        let local = switch rng.below(4) {
        case 0: "\(given(l)).\(surname(l))"
        case 1: "\(given(l).prefix(1))\(surname(l))"
        case 2: pick(["info", "office", "rechnung", "facturation", "biuro", "noreply", "support"])
        default: "\(given(l))+\(pick(["shop", "bank", "news"]))"
        }
        return Self.ascii(local.lowercased()) + "@" + Self.ascii(brand().lowercased()) + pick(Words.tlds)
    }

    mutating func url() -> String {
        let host = Self.ascii(brand().lowercased()) + pick(Words.tlds)
        switch rng.below(4) {
        case 0: return "www.\(host)"
        case 1: return "https://\(host)/\(pick(Words.urlPaths))/\(digits(int(5...9)))"
        case 2: return "https://www.\(host)/\(pick(Words.urlPaths))?id=\(hex(int(8...24)).lowercased())&utm_source=newsletter&utm_medium=email"
        default: return "https://\(host)/\(pick(Words.urlPaths))/\(hex(32).lowercased())"
        }
    }

    /// Folds the accented letters the word lists use to ASCII, as e-mail addresses do.
    static func ascii(_ s: String) -> String {
        let folds: [Character: String] = [
            "ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "é": "e", "è": "e", "ê": "e", "ë": "e", "à": "a", "â": "a",
            "ç": "c", "ô": "o", "î": "i", "ï": "i", "û": "u", "ù": "u", "ą": "a", "ę": "e", "ł": "l", "ń": "n",
            "ó": "o", "ś": "s", "ź": "z", "ż": "z", "ć": "c", "'": "", " ": "-",
        ]
        var out = ""
        for c in s {
            if c.isASCII { out.append(c) } else if let f = folds[c] { out += f }
        }
        return out
    }

    mutating func transaction(_ l: Language) -> String {
        let (d, m, y) = date()
        let dm = "\(Self.two(d)).\(Self.two(m)).", city = pick(Words.cities[l]!)
        var s: String
        switch l {
        case .en:
            switch rng.below(7) {
            case 0: s = "CARD PAYMENT \(dm) \(merchant(l).uppercased()) \(postcode(l)) \(city.uppercased())"
            case 1: s = "POS \(dateText(.latin(l))) \(time()) \(merchant(l).uppercased()) \(city.uppercased()) \(pick(Words.flagRegions))"
            case 2: s = "SEPA CREDIT TRANSFER FROM \(person(l).uppercased()) \(iban("GB")) REF \(reference())"
            case 3: s = "Direct debit \(merchant(l)) mandate \(reference())"
            case 4: s = "ATM WITHDRAWAL \(dm)\(y) \(time()) \(city.uppercased())"
            case 5: s = "Standing order \(person(l)) – rent \(Words.months[.en]![m - 1]) \(y)"
            default: s = "Refund \(merchant(l)) order #\(digits(int(6...10)))"
            }
        case .de:
            switch rng.below(7) {
            case 0: s = "CARD PAYMENT \(dm) \(merchant(l).uppercased()) DANKT \(postcode(l)) \(city.uppercased())"
            case 1: s = "Kartenzahlung \(dm) \(merchant(l)) \(postcode(l)) \(city)"
            case 2: s = "Überweisung an \(person(l)), Verwendungszweck: \(compound()) \(reference())"
            case 3: s = "Lastschrift \(merchant(l)) Mandat \(reference()) Gläubiger-ID AT\(digits(2))ZZZ\(digits(8))"
            case 4: s = "Bankomat \(city) \(dateText(.latin(l))) \(time())"
            case 5: s = "Gutschrift \(compound()) \(Words.months[.de]![m - 1]) \(y)"
            default: s = "Dauerauftrag Miete \(Words.months[.de]![m - 1]) \(y) \(person(l)) \(iban("AT"))"
            }
        case .fr:
            switch rng.below(5) {
            case 0: s = "PAIEMENT PAR CARTE \(Self.two(d))/\(Self.two(m)) \(merchant(l).uppercased()) \(city.uppercased())"
            case 1: s = "Virement reçu de \(person(l)) – \(pick(["loyer", "remboursement", "cadeau", "facture"])) \(reference())"
            case 2: s = "Prélèvement \(merchant(l)) échéance \(dateText(.latin(l)))"
            case 3: s = "Retrait DAB \(dateText(.latin(l))) \(city)"
            default: s = "Virement SEPA émis vers \(person(l)) \(iban("FR"))"
            }
        case .pl:
            switch rng.below(5) {
            case 0: s = "Płatność kartą \(dateText(.latin(l))) \(merchant(l)) \(city)"
            case 1: s = "Przelew przychodzący od \(person(l)): \(pick(["czynsz", "zwrot za bilety", "prezent", "faktura"])) \(reference())"
            case 2: s = "Polecenie zapłaty \(merchant(l)) za okres \(Self.two(m))/\(y)"
            case 3: s = "Wypłata z bankomatu \(city.uppercased()) \(dateText(.latin(l)))"
            default: s = "Przelew na rachunek \(iban("PL")) – \(person(l))"
            }
        }
        if chance(0.4) { s += " " + amount(amountStyle(l)) }
        return s
    }

    func amountStyle(_ l: Language) -> AmountStyle {
        switch l { case .en: .en; case .de: .de; case .fr: .fr; case .pl: .pl }
    }

    mutating func latinSentence(_ l: Language) -> String {
        fill(pick(Words.sentences[l]!)) { g, key in
            switch key {
            case "no": g.reference()
            case "date": g.dateText(.latin(l))
            case "amount": g.amount(g.amountStyle(l))
            case "city": g.pick(Words.cities[l]!)
            case "name": g.person(l)
            case "email": g.email(l)
            case "compound": g.compound()
            case "product": g.product(l)
            default: String(g.int(2...30))
            }
        }
    }

    mutating func description(target: Int, _ sentence: (inout CorpusGenerator) -> String,
                                      separator: String = " ") -> String {
        var s = sentence(&self)
        while s.count < target {
            var next = sentence(&self)
            for _ in 0..<3 where s.contains(next) { next = sentence(&self) }  // few verbatim repeats
            s += separator + next
        }
        return s
    }

    mutating func latin(_ l: Language) -> String {
        switch weighted([26, 10, 12, 12, 8, 8, 4, 3, 17]) {
        case 0: return transaction(l)
        case 1: return merchant(l)
        case 2: return person(l)
        case 3: return product(l)
        case 4: return address(l)
        case 5: return "\(dateText(.latin(l))) · \(amount(amountStyle(l)))"
        case 6: return email(l)
        case 7: return url()
        default: return description(target: longTarget(40, 400)) { $0.latinSentence(l) }
        }
    }

    // MARK: Greek

    mutating func greekPerson() -> String {
        let g = pick(Words.greekGivenStart) + pick(Words.greekGivenEnd)
        let s = pick(Words.greekSurnameStart) + pick(Words.greekSurnameEnd)
        return chance(0.8) ? "\(g) \(s)" : "\(g.prefix(1)). \(s)"
    }

    mutating func greekMerchant() -> String {
        switch rng.below(3) {
        case 0: "\(pick(Words.greekShops)) \(pick(Words.greekSurnameStart) + pick(Words.greekSurnameEnd))"
        case 1: "\(pick(Words.greekShops)) \(pick(Words.greekCities)) \(pick(Words.greekLegal))"
        default: pick(Words.greekShops)
        }
    }

    mutating func greekSentence() -> String {
        fill(pick(Words.greekSentences)) { g, key in
            switch key {
            case "no": g.digits(g.int(4...8))
            case "date": g.dateText(.greek)
            case "amount": g.amount(.greek)
            case "city": g.pick(Words.greekCities)
            case "name": g.greekPerson()
            case "phone": g.phone("30")
            case "product": g.pick(Words.greekProducts)
            default: String(g.int(2...10))
            }
        }
    }

    mutating func greek() -> String {
        switch weighted([30, 10, 15, 10, 10, 5, 20]) {
        case 0:
            var s = "\(pick(Words.greekTransactions)) \(dateText(.greek)) \(greekMerchant())"
            if chance(0.3) { s = s.uppercased() }
            return chance(0.5) ? s + " " + amount(.greek) : s
        case 1: return greekMerchant()
        case 2: return greekPerson()
        case 3: return "\(pick(Words.greekProducts)), \(pick(Words.greekSpecs))"
        case 4: return "\(pick(Words.greekStreets)) \(int(1...200)), \(digits(3)) \(digits(2)) \(pick(Words.greekCities))"
        case 5: return "\(dateText(.greek)) · \(amount(.greek))"
        default: return description(target: longTarget(40, 400)) { $0.greekSentence() }
        }
    }

    // MARK: Cyrillic

    mutating func cyrPerson() -> String {
        let g = pick(Words.cyrGivenStart) + pick(Words.cyrGivenEnd)
        let s = pick(Words.cyrSurnameStart) + pick(Words.cyrSurnameEnd)
        return chance(0.8) ? "\(g) \(s)" : "\(s) \(g.prefix(1))."
    }

    mutating func cyrMerchant() -> String {
        switch rng.below(3) {
        case 0: "\(pick(Words.cyrLegal)) «\(pick(Words.cyrShops)) \(pick(Words.cyrSurnameStart))»"
        case 1: "\(pick(Words.cyrShops)) \(pick(Words.cyrCities))"
        default: pick(Words.cyrShops)
        }
    }

    mutating func cyrSentence() -> String {
        fill(pick(Words.cyrSentences)) { g, key in
            switch key {
            case "no": g.digits(g.int(4...8))
            case "date": g.dateText(.cyrillic)
            case "amount": g.amount(.cyrillic)
            case "city": g.pick(Words.cyrCities)
            case "name": g.cyrPerson()
            case "phone": g.phone(g.pick(["7", "380", "359", "381"]))
            case "product": g.pick(Words.cyrProducts)
            default: String(g.int(2...10))
            }
        }
    }

    mutating func cyrillic() -> String {
        switch weighted([30, 10, 15, 10, 10, 5, 20]) {
        case 0:
            var s = "\(pick(Words.cyrTransactions)) \(dateText(.cyrillic)) \(chance(0.5) ? cyrMerchant() : cyrPerson())"
            if chance(0.3) { s = s.uppercased() }
            return chance(0.5) ? s + " " + amount(.cyrillic) : s
        case 1: return cyrMerchant()
        case 2: return cyrPerson()
        case 3: return "\(pick(Words.cyrProducts)), \(pick(Words.cyrSpecs))"
        case 4: return "\(pick(Words.cyrStreets)), д. \(int(1...200)), кв. \(int(1...300)), \(pick(Words.cyrCities)), \(digits(6))"
        case 5: return "\(dateText(.cyrillic)) · \(amount(.cyrillic))"
        default: return description(target: longTarget(40, 400)) { $0.cyrSentence() }
        }
    }

    // MARK: CJK

    mutating func zhPerson() -> String {
        pick(Words.zhSurnames) + pick(Words.zhGiven) + (chance(0.6) ? pick(Words.zhGiven) : "")
    }

    mutating func jaPerson() -> String {
        pick(Words.jaFamily) + pick(Words.jaFamily) + (chance(0.6) ? " " : "") + pick(Words.jaGiven)
    }

    mutating func zhMerchant() -> String {
        (chance(0.5) ? pick(Words.zhCities) : "") + pick(Words.zhBrands) + pick(Words.zhShops)
    }

    mutating func jaMerchant() -> String {
        (chance(0.3) ? "株式会社" : "") + pick(Words.jaBrands) + pick(Words.jaShops) + (chance(0.4) ? " " + pick(Words.jaCities) + "店" : "")
    }

    mutating func cjkSentence(japanese: Bool) -> String {
        fill(pick(japanese ? Words.jaSentences : Words.zhSentences)) { g, key in
            switch key {
            case "no": g.digits(g.int(6...12))
            case "date": g.dateText(.cjk)
            case "amount": g.amount(japanese ? .ja : .zh)
            case "name": japanese ? g.jaPerson() : g.zhPerson()
            case "phone": japanese ? "0\(g.int(3...9))-\(g.digits(4))-\(g.digits(4))" : "1\(g.digits(2)) \(g.digits(4)) \(g.digits(4))"
            case "product": g.pick(japanese ? Words.jaProducts : Words.zhProducts)
            default: String(g.int(2...10))
            }
        }
    }

    mutating func chinese() -> String {
        switch weighted([30, 10, 15, 10, 10, 5, 20]) {
        case 0: return "\(dateText(.cjk)) \(pick(Words.zhTransactions)) \(chance(0.6) ? zhMerchant() : zhPerson())" + (chance(0.5) ? " " + amount(.zh) : "")
        case 1: return zhMerchant()
        case 2: return zhPerson()
        case 3: return pick(Words.zhProducts) + " " + pick(Words.zhSpecs)
        case 4: return "\(pick(Words.zhCities))市\(pick(Words.zhDistricts))区\(pick(Words.zhRoads))路\(int(1...999))号"
        case 5: return "\(dateText(.cjk)) \(amount(.zh))"
        default: return description(target: longTarget(15, 150), { $0.cjkSentence(japanese: false) }, separator: "")
        }
    }

    mutating func japanese() -> String {
        switch weighted([30, 10, 15, 10, 10, 5, 20]) {
        case 0: return "\(dateText(.cjk)) \(pick(Words.jaTransactions)) \(chance(0.6) ? jaMerchant() : jaPerson())" + (chance(0.5) ? " " + amount(.ja) : "")
        case 1: return jaMerchant()
        case 2: return jaPerson()
        case 3: return pick(Words.jaProducts) + " " + pick(Words.jaSpecs)
        case 4: return "〒\(digits(3))-\(digits(4)) \(pick(Words.jaPrefectures))\(pick(Words.jaWards))\(int(1...9))丁目\(int(1...30))-\(int(1...20))"
        case 5: return "\(dateText(.cjk)) \(amount(.ja))"
        default: return description(target: longTarget(15, 150), { $0.cjkSentence(japanese: true) }, separator: "")
        }
    }

    // MARK: Emoji and mixed

    mutating func flag() -> String {
        String(String.UnicodeScalarView(pick(Words.flagRegions).unicodeScalars.map {
            Unicode.Scalar(0x1F1E6 + $0.value - 0x41)!
        }))
    }

    mutating func oneEmoji() -> String {
        switch weighted([6, 2, 2]) {
        case 0: pick(Words.emoji)
        case 1: pick(Words.emojiZWJ)
        default: flag()
        }
    }

    mutating func emojis(_ n: Int) -> String {
        var s = ""
        for _ in 0..<n { s += oneEmoji() }
        return s
    }

    mutating func emojiText() -> String {
        let l = language()
        let phrase = fill(pick(Words.emojiPhrases)) { g, key in
            switch key {
            case "first": g.given(l)
            case "city": g.pick(Words.cities[l]!)
            default: Words.months[l]![g.int(0...11)]
            }
        }
        switch weighted([5, 2, 1, 1, 1]) {
        case 0: return "\(phrase) \(emojis(int(1...3)))"
        case 1: return "\(emojis(1)) \(phrase)" + (chance(0.5) ? " · \(amount(amountStyle(l)))" : "")
        case 2: return emojis(int(3...8))
        case 3: return "\(String(repeating: "⭐", count: int(1...5))) \(latinSentence(l))"
        default: return "\(latinSentence(l)) \(emojis(1)) \(latinSentence(l)) \(emojis(int(1...2)))"
        }
    }

    mutating func mixed() -> String {
        let l = language()
        switch rng.below(9) {
        case 0: return "\(pick(Words.cyrTransactions)) \(merchant(l).uppercased()) \(pick(Words.cyrCities))" + (chance(0.5) ? " " + amount(.cyrillic) : "")
        case 1: return "\(pick(Words.greekTransactions)) \(merchant(l)) \(pick(Words.greekCities))" + (chance(0.5) ? " " + amount(.greek) : "")
        case 2: return "\(pick(["Transfer to", "Überweisung an", "Virement à", "Przelew do", "Payment from"])) \([zhPerson(), jaPerson(), cyrPerson(), greekPerson()][rng.below(4)])"
        case 3: return "\(brand()) \(pick(["Café", "Restaurant", "Market"])) \(zhMerchant()) \(pick(Words.cities[l]!))"
        case 4: return "\(cyrSentence()) \(pick(["Подробнее:", "Детальніше:", "E-mail:"])) \(chance(0.5) ? url() : email(l))"
        case 5: return "\(greekSentence()) \(chance(0.5) ? url() : email(l))"
        case 6: return "\(pick(["Order", "Bestellung", "Commande", "Zamówienie"])) \(digits(6)): \(chance(0.5) ? pick(Words.zhProducts) + " " + pick(Words.zhSpecs) : pick(Words.jaProducts) + " " + pick(Words.jaSpecs))"
        case 7: return "\(chance(0.5) ? cjkSentence(japanese: true) : cjkSentence(japanese: false)) \(emojis(int(1...3)))"
        default: return "\(pick(["С днём рождения!", "З днем народження!", "Χρόνια πολλά!", "Καλό ταξίδι!", "Спасибо за ужин!"])) \(emojis(int(1...3)))"
        }
    }
}

enum DateStyle { case latin(Language), greek, cyrillic, cjk }
enum AmountStyle { case en, de, fr, pl, greek, cyrillic, zh, ja }
