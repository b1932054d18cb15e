import Tessera

/// Rows of one profile's kinds as the row store and the measurer read them: a kind code
/// per row and one UTF-8 text slot per value index (`RowText` layout, `slotsPerRow` = the
/// largest value count of the profile's kinds; slot `i` of a row is value index `i`).
struct CellRows {
    var kinds: [UInt16] = []
    var utf8: [UInt8] = []
    var offsets: [Int] = [0]
    let slotsPerRow: Int

    init(slotsPerRow: Int) { self.slotsPerRow = slotsPerRow }

    var count: Int { kinds.count }
    var text: RowText { RowText(utf8: utf8, slotsPerRow: slotsPerRow, offsets: offsets) }

    /// Appends a row: `values[i]` is value index `i` (missing or nil = empty).
    mutating func append(kind: UInt16, _ values: [String?]) {
        precondition(values.count <= slotsPerRow, "more values than slots per row")
        kinds.append(kind)
        for s in 0..<slotsPerRow {
            if s < values.count, let v = values[s] { utf8.append(contentsOf: v.utf8) }
            offsets.append(utf8.count)
        }
    }

    /// The first `n` rows.
    mutating func truncate(to n: Int) {
        guard n < count else { return }
        kinds.removeSubrange(n...)
        offsets.removeSubrange((n * slotsPerRow + 1)...)
        utf8.removeSubrange(offsets[offsets.count - 1]...)
    }

    /// Calls `body` with the columns as `CellMeasurer` takes them.
    func withColumns<R>(_ body: (UnsafeBufferPointer<UInt16>, UnsafeRawBufferPointer, UnsafeBufferPointer<Int>) throws -> R) rethrows -> R {
        try kinds.withUnsafeBufferPointer { k in
            try utf8.withUnsafeBytes { u in try offsets.withUnsafeBufferPointer { o in try body(k, u, o) } }
        }
    }

    /// Row `r`'s slot offsets (`slotsPerRow + 1` entries) inside `offsets`.
    static func slotOffsets(_ offsets: UnsafeBufferPointer<Int>, row r: Int, slotsPerRow: Int) -> UnsafeBufferPointer<Int> {
        UnsafeBufferPointer(rebasing: offsets[(r * slotsPerRow)...((r + 1) * slotsPerRow)])
    }

    /// The rows ordered by kind, then by which values each has (a stable sort): rows that
    /// share a plan (`RowPlans`) come together. A diagnostic of `cellbench measure
    /// --grouped-rows`: what the rows' variety from one to the next costs a pass.
    func groupedByPresentValues() -> CellRows {
        func key(_ r: Int) -> UInt64 {
            var present: UInt64 = 0
            for s in 0..<min(slotsPerRow, 48) where offsets[r * slotsPerRow + s + 1] > offsets[r * slotsPerRow + s] { present |= 1 << UInt64(s) }
            return UInt64(kinds[r]) << 48 | present
        }
        let order = (0..<count).map { (key($0), $0) }.sorted { $0 < $1 }
        var grouped = CellRows(slotsPerRow: slotsPerRow)
        grouped.kinds.reserveCapacity(count)
        grouped.utf8.reserveCapacity(utf8.count)
        grouped.offsets.reserveCapacity(offsets.count)
        for (_, r) in order {
            grouped.kinds.append(kinds[r])
            let base = offsets[r * slotsPerRow], shift = grouped.utf8.count - base
            grouped.utf8.append(contentsOf: utf8[base..<offsets[(r + 1) * slotsPerRow]])
            for s in 1...slotsPerRow { grouped.offsets.append(offsets[r * slotsPerRow + s] + shift) }
        }
        return grouped
    }

    /// The string in slot `s` of row `r`.
    func value(row r: Int, slot s: Int) -> String {
        let lo = offsets[r * slotsPerRow + s], hi = offsets[r * slotsPerRow + s + 1]
        return String(decoding: utf8[lo..<hi], as: UTF8.self)
    }
}

/// A kind of the profile and where its named values go in a row.
struct KindWriter {
    let code: UInt16
    let valueCount: Int
    private let index: [String: Int]

    init(_ profile: Profile, _ name: String) throws {
        guard let kind = profile.kind(named: name) else { throw SuiteFailure("profile \(profile.name) has no kind \(name)") }
        code = kind.code
        valueCount = kind.valueCount
        var index: [String: Int] = [:]
        for s in kind.slots { if let v = s.valueIndex { index[s.name] = v } }
        self.index = index
    }

    /// The row's values by slot name (nil or absent = empty).
    func values(_ named: [(String, String?)]) -> [String?] {
        var values = [String?](repeating: nil, count: valueCount)
        for (name, value) in named {
            guard let i = index[name] else { preconditionFailure("kind has no value slot \(name)") }
            values[i] = value
        }
        return values
    }
}

/// Deterministic rows of realistic content for a profile (seeded; the rows of a smaller
/// count are a prefix of the rows of a larger one).
///
/// - `george`: a George account history, newest first. A title header per month, a
///   sticky section header per day with the day's sum, then the day's transactions
///   (punched avatar, merchant or counterpart, optional top-line, reference sub-line,
///   PFM category label, amount), with a few standing orders, bill payments, basic cells
///   (pending transactions, statements) and balances among them, and now and then an
///   info footer under a day.
/// - `fiori-android`: a Fiori for Android list report: object cells (purchase and
///   maintenance orders, products, suppliers) with unread dots, icon stacks, images,
///   subtitles, captions, descriptions of 40–400 characters, status labels and actions;
///   single-action cells with a button or an icon; contact cells.
/// - `fiori-ios`: Fiori for iOS object cells with icon stacks, detail images of several
///   sizes, two-line titles, subtitles, footnotes, descriptions, attributes and one
///   accessory each; centred cells with a title only.
/// - `fiori-ios-collection`: a product grid: items with a title of up to two lines, a
///   price or brand, an attribute, icon actions or a button; image-only cells of several
///   sizes and aspects.
///
/// Text comes from the text corpus's generators (`CorpusGenerator`): merchants, people,
/// products, addresses, amounts, dates and sentences in English and German (some French,
/// Polish, and a few Greek, Cyrillic, CJK and emoji strings).
enum CellRowGenerator {
    static let profiles = ["george", "fiori-android", "fiori-ios", "fiori-ios-collection"]

    static func rows(profile: Profile, count: Int, seed: UInt64) throws -> CellRows {
        let slots = profile.kinds.map(\.valueCount).max() ?? 0
        var rows = CellRows(slotsPerRow: slots)
        rows.kinds.reserveCapacity(count)
        rows.offsets.reserveCapacity(count * slots + 1)
        var g = CorpusGenerator(seed: seed)
        switch profile.name {
        case "george":
            var george = try George(profile)
            while rows.count < count { george.day(&g, &rows) }
        case "fiori-android":
            let f = try FioriAndroid(profile)
            while rows.count < count { f.row(&g, &rows) }
        case "fiori-ios":
            let f = try FioriIOS(profile)
            while rows.count < count { f.row(&g, &rows) }
        case "fiori-ios-collection":
            let f = try Collection(profile)
            while rows.count < count { f.row(&g, &rows) }
        default:
            throw SuiteFailure("no row generator for profile \(profile.name) (there are generators for \(profiles.joined(separator: ", ")))")
        }
        rows.truncate(to: count)
        return rows
    }

    // MARK: Shared content

    /// An amount in cents formatted in the language's style, with a sign (U+2212 minus).
    static func money(_ cents: Int, _ l: Language, currency: String = "EUR") -> String {
        let negative = cents < 0, v = abs(cents)
        let units = v / 100, c = v % 100
        let sign = negative ? "\u{2212}" : cents > 0 ? "+" : ""
        func grouped(_ separator: String) -> String {
            let s = String(units)
            var out = ""
            for (i, ch) in s.enumerated() {
                if i > 0, (s.count - i) % 3 == 0 { out += separator }
                out.append(ch)
            }
            return out
        }
        let cc = c < 10 ? "0\(c)" : "\(c)"
        switch l {
        case .en: return "\(sign)\(grouped(",")).\(cc) \(currency)"
        case .fr: return "\(sign)\(grouped("\u{202F}")),\(cc)\u{00A0}\(currency == "EUR" ? "€" : currency)"
        default: return "\(sign)\(grouped(".")),\(cc) \(currency)"
        }
    }

    /// An expense in cents: mostly small, sometimes large.
    static func expense(_ g: inout CorpusGenerator) -> Int {
        switch g.weighted([50, 30, 15, 5]) {
        case 0: return 150 + g.rng.below(3_000)
        case 1: return 3_000 + g.rng.below(12_000)
        case 2: return 15_000 + g.rng.below(85_000)
        default: return 100_000 + g.rng.below(400_000)
        }
    }

    /// A description of 40–400 characters (median about 130) in the language.
    static func description(_ g: inout CorpusGenerator, _ l: Language) -> String {
        let target = g.longTarget(40, 400)
        return g.description(target: target) { $0.latinSentence(l) }
    }

    /// A name in another script now and then (2 % each Cyrillic, Greek, CJK).
    static func foreignName(_ g: inout CorpusGenerator) -> String? {
        switch g.rng.below(50) {
        case 0: return g.cyrPerson()
        case 1: return g.greekPerson()
        case 2: return g.chance(0.5) ? g.zhMerchant() : g.jaMerchant()
        default: return nil
        }
    }

    static let weekdays: [Language: [String]] = [
        .de: ["Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"],
        .en: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
    ]

    // MARK: George

    /// A George account history, one day (and its month header) at a time, newest first.
    struct George {
        let transaction, sectionHeader, titleHeader, orderList, billPayment, basicCell, infoHorizontal, footerInfo: KindWriter
        /// Days before 30 June 2025 (a Monday).
        var day = 0
        var balance = 1_234_567
        var month = -1

        static let categories: [Language: [String]] = [
            .de: ["Lebensmittel", "Restaurants & Cafés", "Transport", "Wohnen", "Gehalt", "Freizeit", "Shopping", "Gesundheit",
                  "Bargeld", "Versicherungen", "Reisen", "Kinder", "Bildung", "Sparen & Anlegen", "Abos & Streaming", "Sonstiges"],
            .en: ["Groceries", "Restaurants & cafés", "Transport", "Housing", "Salary", "Leisure", "Shopping", "Health", "Cash",
                  "Insurance", "Travel", "Kids", "Education", "Savings & investments", "Subscriptions", "Other"],
        ]

        init(_ p: Profile) throws {
            transaction = try KindWriter(p, "transaction")
            sectionHeader = try KindWriter(p, "sectionHeader")
            titleHeader = try KindWriter(p, "titleHeader")
            orderList = try KindWriter(p, "orderList")
            billPayment = try KindWriter(p, "billPayment")
            basicCell = try KindWriter(p, "basicCell")
            infoHorizontal = try KindWriter(p, "infoHorizontal")
            footerInfo = try KindWriter(p, "footerInfo")
        }

        /// The calendar date `day` days before 30 June 2025: (day, month 1...12, year, weekday 0 = Monday).
        static func date(_ daysBack: Int) -> (d: Int, m: Int, y: Int, weekday: Int) {
            let lengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
            var d = 30 - daysBack, m = 6, y = 2025
            while d < 1 {
                m -= 1
                if m == 0 { m = 12; y -= 1 }
                let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
                d += m == 2 && leap ? 29 : lengths[m - 1]
            }
            let weekday = ((0 - daysBack) % 7 + 7) % 7
            return (d, m, y, weekday)
        }

        mutating func day(_ g: inout CorpusGenerator, _ rows: inout CellRows) {
            let (d, m, y, weekday) = Self.date(day)
            defer { day += 1 }
            // About one day in six without bookings.
            guard g.rng.below(6) != 0 || day < 2 else { return }
            let l: Language = .de
            if m != month {
                month = m
                let title = "\(Words.months[l]![m - 1]) \(y)"
                let action = g.rng.below(10)
                rows.append(kind: titleHeader.code, titleHeader.values([
                    ("title", title), ("actionLabel", action < 3 ? "Alle anzeigen" : nil), ("actionIcon", action == 3 ? "1" : nil),
                ]))
            }
            // The day's rows first, so the header can carry their sum.
            var dayRows: [(UInt16, [String?])] = []
            var sum = 0
            let count = 1 + g.weighted([20, 25, 20, 12, 8, 6, 5, 4])
            for _ in 0..<count {
                let roll = g.rng.below(100)
                let lang: Language = g.chance(0.15) ? .en : .de
                if roll < 88 {
                    var cents = -expense(&g)
                    var label: String
                    var category: String? = nil
                    switch g.weighted([55, 20, 15, 5, 5]) {
                    case 0: label = g.merchant(lang)
                    case 1:
                        label = g.person(lang)
                        if g.chance(0.4) { cents = -cents }
                    case 2: label = g.transaction(lang)
                    case 3: label = foreignName(&g) ?? g.merchant(lang)
                    default:
                        label = "\(g.merchant(lang)) \(g.emojis(1))"
                    }
                    if g.chance(0.02) {
                        label = lang == .de ? "Gehalt \(Words.months[.de]![m - 1]) \(y) \(g.brand()) GmbH" : "Salary \(g.brand()) Ltd"
                        cents = 180_000 + g.rng.below(300_000)
                        category = Self.categories[l]![4]
                    }
                    let top: String? = switch g.rng.below(20) {
                    case 0, 1: "Vorgemerkt"
                    case 2: "Debitkarte ••\(g.digits(4))"
                    case 3: "Kreditkarte ••\(g.digits(4))"
                    default: nil
                    }
                    let sub: String? = switch g.weighted([40, 25, 15, 20]) {
                    case 0: nil
                    case 1: "\(lang == .de ? "Verwendungszweck" : "Reference"): \(g.latinSentence(lang))"
                    case 2: g.iban(g.pick(["AT", "DE", "AT", "CZ", "SK"]))
                    default: "\(g.dateText(.latin(lang))) \(g.time())"
                    }
                    if category == nil, g.rng.below(4) != 0 { category = g.pick(Self.categories[l]!) }
                    sum += cents
                    dayRows.append((transaction.code, transaction.values([
                        ("topLine", top), ("label", label), ("subLine", sub), ("pfmLabel", category), ("amount", money(cents, l)),
                    ])))
                } else if roll < 92 {
                    let cents = -expense(&g)
                    sum += cents
                    dayRows.append((orderList.code, orderList.values([
                        ("topLine", g.chance(0.5) ? "Dauerauftrag" : "Bestellung \(g.digits(6))"),
                        ("label", g.chance(0.5) ? g.merchant(lang) : g.person(lang)),
                        ("subLine", g.chance(0.7) ? "monatlich, nächste Ausführung \(g.dateText(.latin(.de)))" : nil),
                        ("amount", money(cents, l)),
                    ])))
                } else if roll < 95 {
                    dayRows.append((billPayment.code, billPayment.values([
                        ("label", "\(g.pick(["Rechnung bezahlen", "Zahlschein", "Rechnung scannen"])): \(g.merchant(.de))"),
                    ])))
                } else if roll < 98 {
                    let icon = g.chance(0.5)
                    let labels = ["\(1 + g.rng.below(6)) vorgemerkte Umsätze", "Kontoauszug \(Words.months[.de]![m - 1]) \(y)",
                                  "Umsätze exportieren", "Belege zu diesem Tag", g.latinSentence(.de)]
                    let label = labels[g.rng.below(labels.count)]
                    dayRows.append((basicCell.code, basicCell.values([
                        ("leadingIcon", icon ? "1" : nil), ("label", label),
                        ("subLine", g.chance(0.4) ? g.latinSentence(.de) : nil), ("chevron", "1"),
                    ])))
                } else {
                    dayRows.append((infoHorizontal.code, infoHorizontal.values([
                        ("key", g.pick(["Kontostand am Tagesende", "Verfügbar", "Überziehungsrahmen", "Zinsen"])),
                        ("value", money(balance, l)),
                    ])))
                }
            }
            balance += sum
            let headline: String
            if day == 0 { headline = "Heute" } else if day == 1 { headline = "Gestern" } else {
                headline = "\(weekdays[.de]![weekday]), \(d). \(Words.months[.de]![m - 1]) \(y)"
            }
            rows.append(kind: sectionHeader.code, sectionHeader.values([
                ("avatarIndent", "1"), ("headline", headline), ("sum", money(sum, l)),
            ]))
            for (kind, values) in dayRows { rows.append(kind: kind, values) }
            if g.rng.below(20) == 0 {
                let target = g.longTarget(40, 200)
                let text = g.chance(0.5) ? "Vorgemerkte Umsätze können sich bis zur Buchung noch ändern."
                    : g.description(target: target) { $0.latinSentence(.de) }
                rows.append(kind: footerInfo.code, footerInfo.values([("text", text)]))
            }
        }
    }

    // MARK: Fiori for Android

    static let statuses: [String] = ["High Priority", "Overdue", "Open", "In Process", "Approved", "Rejected", "Blocked",
                                     "Hohe Priorität", "Überfällig", "Freigegeben", "Completed", "Draft"]

    static func businessObject(_ g: inout CorpusGenerator, _ l: Language) -> String {
        switch g.weighted([25, 25, 20, 15, 15]) {
        case 0: return "\(g.pick(["Purchase Order", "Sales Order", "Bestellung", "Invoice", "Notification"])) \(g.pick(["45", "30", "10"]))\(g.digits(8))"
        case 1: return g.product(l)
        case 2: return "\(g.pick(["Maintenance Order", "Instandhaltungsauftrag", "Work Order"])) \(g.digits(7)) – \(l == .de ? g.compound() : g.pick(Words.products[l]!))"
        case 3: return g.merchant(l)
        default: return foreignName(&g) ?? g.product(l)
        }
    }

    static func caption(_ g: inout CorpusGenerator, _ l: Language) -> String {
        switch g.rng.below(4) {
        case 0: return "\(l == .de ? "Fällig" : "Due") \(g.dateText(.latin(l)))"
        case 1: return "\(l == .de ? "Werk" : "Plant") \(g.digits(4)) · \(g.pick(Words.cities[l]!))"
        case 2: return g.dateText(.latin(l))
        default: return money(-expense(&g), l).replacingOccurrences(of: "\u{2212}", with: "")
        }
    }

    static func statusList(_ g: inout CorpusGenerator, _ l: Language, max: Int) -> String? {
        let n = g.weighted([40, 40, 20])
        guard n > 0 else { return nil }
        var items: [String] = []
        for i in 0..<Swift.min(n, max) {
            items.append(i == 1 && g.chance(0.4) ? money(-expense(&g), l).replacingOccurrences(of: "\u{2212}", with: "") : g.pick(statuses))
        }
        return items.joined(separator: "\u{1E}")
    }

    struct FioriAndroid {
        let object, single, contact: KindWriter
        init(_ p: Profile) throws {
            object = try KindWriter(p, "objectCell")
            single = try KindWriter(p, "singleActionCell")
            contact = try KindWriter(p, "contactCell")
        }

        func row(_ g: inout CorpusGenerator, _ rows: inout CellRows) {
            let l: Language = g.chance(0.3) ? .de : .en
            let roll = g.rng.below(100)
            let image: String? = switch g.rng.below(10) { case 0..<5: "40"; case 5, 6: "*"; default: nil }
            if roll < 80 {
                rows.append(kind: object.code, object.values([
                    ("unreadIndicator", g.rng.below(7) == 0 ? "1" : nil),
                    ("icons", ["", "", "", "1", "1", "2"][g.rng.below(6)]),
                    ("image", image),
                    ("title", businessObject(&g, l)),
                    ("subtitle", g.rng.below(7) != 0 ? (g.chance(0.6) ? g.merchant(l) : g.person(l)) : nil),
                    ("caption", g.chance(0.7) ? caption(&g, l) : nil),
                    ("description", g.chance(0.55) ? description(&g, l) : nil),
                    ("statusInfo", statusList(&g, l, max: 2)),
                    ("actions", ["", "", "", "", "1", "2"][g.rng.below(6)]),
                ]))
            } else if roll < 92 {
                let icon = g.chance(0.5)
                rows.append(kind: single.code, single.values([
                    ("unreadIndicator", g.rng.below(7) == 0 ? "1" : nil),
                    ("icons", ["", "", "1", "2"][g.rng.below(4)]),
                    ("image", image),
                    ("title", businessObject(&g, l)),
                    ("subtitle", g.chance(0.8) ? g.merchant(l) : nil),
                    ("caption", g.chance(0.6) ? caption(&g, l) : nil),
                    ("actionIcon", icon ? "1" : nil),
                    ("actionButton", icon ? nil : g.pick(["Approve", "Follow", "Unfollow", "Accept", "Freigeben", "Genehmigen", "Reject"])),
                ]))
            } else {
                rows.append(kind: contact.code, contact.values([
                    ("image", g.chance(0.8) ? "40" : nil),
                    ("title", foreignName(&g) ?? g.person(l)),
                    ("subtitle", g.chance(0.8) ? g.pick(["Purchasing Manager", "Einkaufsleiterin", "Plant Technician", "Sales Representative",
                                                         "Accounts Payable Clerk", "Projektleiter Instandhaltung", "Chief Financial Officer"]) : nil),
                    ("caption", g.chance(0.6) ? (g.chance(0.5) ? g.email(l) : g.phone(g.pick(["43", "49", "1", "44"]))) : nil),
                    ("actions", ["", "1", "2", "3", "3"][g.rng.below(5)]),
                ]))
            }
        }
    }

    // MARK: Fiori for iOS

    struct FioriIOS {
        let object, centered: KindWriter
        init(_ p: Profile) throws {
            object = try KindWriter(p, "objectCell")
            centered = try KindWriter(p, "objectCellCentered")
        }

        func row(_ g: inout CorpusGenerator, _ rows: inout CellRows) {
            let l: Language = g.chance(0.3) ? .de : .en
            let image: String? = switch g.rng.below(20) {
            case 0..<9: "44"
            case 9, 10, 11: "*"
            case 12: "28"
            case 13: "60"
            case 14: "32"
            default: nil
            }
            if g.rng.below(100) < 88 {
                let accessory = g.weighted([55, 5, 5, 5, 5, 25])
                rows.append(kind: object.code, object.values([
                    ("icons", ["", "", "", "", "1", "1", "2", "3"][g.rng.below(8)]),
                    ("detailImage", image),
                    ("title", businessObject(&g, l)),
                    ("subtitle", g.chance(0.8) ? (g.chance(0.6) ? g.merchant(l) : g.person(l)) : nil),
                    ("footnote", g.chance(0.6) ? caption(&g, l) : nil),
                    ("description", g.chance(0.45) ? description(&g, l) : nil),
                    ("attributes", g.chance(0.6) ? statusList(&g, l, max: 2) : nil),
                    ("chevron", accessory == 0 ? "1" : nil),
                    ("infoDisclosure", accessory == 1 ? "1" : nil),
                    ("actionIcon", accessory == 2 ? "1" : nil),
                    ("actionButton", accessory == 3 ? g.pick(["Follow", "Approve", "Folgen", "Open in Maps"]) : nil),
                    ("overflow", accessory == 4 ? "1" : nil),
                ]))
            } else {
                rows.append(kind: centered.code, centered.values([
                    ("detailImage", image),
                    ("title", g.chance(0.5) ? g.person(l) : g.merchant(l)),
                    ("chevron", g.chance(0.7) ? "1" : nil),
                ]))
            }
        }
    }

    // MARK: Collection

    struct Collection {
        let item, image: KindWriter
        init(_ p: Profile) throws {
            item = try KindWriter(p, "collectionItem")
            image = try KindWriter(p, "collectionImage")
        }

        func row(_ g: inout CorpusGenerator, _ rows: inout CellRows) {
            let l: Language = g.chance(0.3) ? .de : .en
            if g.rng.below(100) < 85 {
                let button = g.rng.below(100) < 15
                rows.append(kind: item.code, item.values([
                    ("iconActions", button ? nil : ["", "", "1", "2"][g.rng.below(4)]),
                    ("title", g.chance(0.05) ? (foreignName(&g) ?? g.product(l)) : g.product(l)),
                    ("subtitle", g.chance(0.8) ? (g.chance(0.7) ? money(expense(&g), l).replacingOccurrences(of: "+", with: "") : g.brand()) : nil),
                    ("attribute", g.chance(0.6) ? g.pick(["In stock", "Only 3 left", "★ 4.5 (128)", "Free delivery", "Auf Lager",
                                                         "Lieferung in 2–3 Tagen", "New", "−20 %"]) : nil),
                    ("buttonAction", button ? g.pick(["Add to Cart", "Download", "Open", "In den Warenkorb"]) : nil),
                ]))
            } else {
                rows.append(kind: image.code, image.values([
                    ("iconActions", ["", "", "1", "2"][g.rng.below(4)]),
                    ("image", g.pick(["60", "80", "110", "110x80", "100x60", "90", "*"])),
                ]))
            }
        }
    }
}
