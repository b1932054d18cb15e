import Tessera

/// Rows of a profile's kinds as `ListEngine.append` takes them: a kind code per row and one
/// UTF-8 slot per value index.
public struct ProfileRows {
    public var kinds: [UInt16] = []
    public var text: RowText
    public var count: Int { kinds.count }

    init(_ profile: Profile, capacity: Int) {
        let slots = profile.kinds.map(\.valueCount).max() ?? 0
        text = RowText(slotsPerRow: slots)
        text.utf8.reserveCapacity(capacity * 80)
        text.offsets.reserveCapacity(capacity * slots + 1)
        kinds.reserveCapacity(capacity)
    }

    /// Appends a row of `kind` with the named values (nil: absent), unless `limit` rows are
    /// there already.
    mutating func add(_ kind: KindSlots, _ values: [String: String?], limit: Int) {
        guard kinds.count < limit else { return }
        var slots = [String](repeating: "", count: kind.valueCount)
        for (name, value) in values {
            guard let value, let i = kind.index[name] else { continue }
            slots[i] = value
        }
        kinds.append(kind.code)
        text.append(slots)
    }

    /// A George account history, newest first, as rows of `Profiles/george.json`: a title
    /// header per month, a sticky section header per day with the day's sum, then the day's
    /// transactions (merchant or person, an optional top line, reference and category, the
    /// amount), now and then a basic cell, a balance and an info footer under a day.
    /// Deterministic for a seed; `count` rows (the last day may be cut short).
    public static func george(_ profile: Profile, count: Int, seed: UInt64 = 0x6E0_46E) -> ProfileRows {
        var r = ProfileRows(profile, capacity: count)
        r.george(profile, count, seed)
        return r
    }

    private mutating func george(_ profile: Profile, _ count: Int, _ seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let title = KindSlots(profile, "titleHeader"), header = KindSlots(profile, "sectionHeader")
        let transaction = KindSlots(profile, "transaction"), basic = KindSlots(profile, "basicCell")
        let info = KindSlots(profile, "infoHorizontal"), footer = KindSlots(profile, "footerInfo")
        var day = 0, month = -1, balance = 1_234_567
        while kinds.count < count {
            defer { day += 1 }
            let m = (5 - day / 30 % 12 + 12) % 12, year = 2025 - day / 360
            if m != month {
                month = m
                add(title, ["title": "\(Words.months[m]) \(year)", "actionLabel": rng.chance(0.3) ? "Alle anzeigen" : nil], limit: count)
            }
            var rows: [(KindSlots, [String: String?])] = [], sum = 0
            for _ in 0..<(1 + rng.below(6)) {
                let roll = rng.below(100)
                if roll < 90 {
                    var cents = -(100 + rng.below(rng.chance(0.1) ? 150_000 : 8_000))
                    let label: String
                    if rng.chance(0.7) { label = rng.pick(Words.merchants) } else {
                        label = rng.pick(Words.people)
                        if rng.chance(0.4) { cents = -cents }
                    }
                    let sub: String? = switch rng.below(4) {
                    case 0: nil
                    case 1: "Verwendungszweck: \(rng.pick(Words.purposes))"
                    case 2: Words.iban(&rng)
                    default: "\(1 + rng.below(28)).\(m + 1).\(year) \(rng.below(24)):\(10 + rng.below(50))"
                    }
                    let top: String? = rng.below(10) == 0 ? "Vorgemerkt" : nil
                    sum += cents
                    rows.append((transaction, ["topLine": top, "label": label, "subLine": sub,
                                               "pfmLabel": rng.chance(0.75) ? rng.pick(Words.categories) : nil,
                                               "amount": Words.money(cents)]))
                } else if roll < 95 {
                    rows.append((basic, ["leadingIcon": "1", "label": "\(1 + rng.below(6)) vorgemerkte Umsätze",
                                         "subLine": rng.chance(0.4) ? rng.pick(Words.sentences) : nil, "chevron": "1"]))
                } else {
                    rows.append((info, ["key": "Kontostand am Tagesende", "value": Words.money(balance)]))
                }
            }
            balance += sum
            let headline = day == 0 ? "Heute" : day == 1 ? "Gestern" : "\(Words.weekdays[day % 7]), \(1 + day % 28). \(Words.months[m]) \(year)"
            add(header, ["avatarIndent": "1", "headline": headline, "sum": Words.money(sum)], limit: count)
            for (kind, values) in rows { add(kind, values, limit: count) }
            if rng.below(20) == 0 { add(footer, ["text": rng.pick(Words.sentences)], limit: count) }
        }
    }

    /// A product grid of `Profiles/fiori-ios-collection.json`: items with a title of up to
    /// two lines, a price or brand, an attribute, icon actions or a button, and image-only
    /// cells of several sizes (cellbench's collection rows, simplified).
    public static func collection(_ profile: Profile, count: Int, seed: UInt64 = 0xC011) -> ProfileRows {
        var r = ProfileRows(profile, capacity: count)
        var rng = SplitMix64(seed: seed)
        let item = KindSlots(profile, "collectionItem"), image = KindSlots(profile, "collectionImage")
        while r.count < count {
            if rng.below(100) < 85 {
                let button = rng.below(100) < 15
                r.add(item, ["iconActions": button ? nil : rng.pick(["", "", "1", "2"]),
                             "title": rng.pick(Words.products),
                             "subtitle": rng.chance(0.8) ? Words.money(100 + rng.below(90_000)).dropFirst().description : nil,
                             "attribute": rng.chance(0.6) ? rng.pick(["In stock", "Only 3 left", "★ 4.5 (128)", "Free delivery",
                                                                     "Auf Lager", "Lieferung in 2–3 Tagen", "New", "−20 %"]) : nil,
                             "buttonAction": button ? rng.pick(["Add to Cart", "Download", "Open", "In den Warenkorb"]) : nil],
                      limit: count)
            } else {
                r.add(image, ["iconActions": rng.pick(["", "", "1", "2"]), "image": rng.pick(["60", "80", "110", "110x80", "100x60", "90"])],
                      limit: count)
            }
        }
        return r
    }
}

/// A kind's code and where its named values go.
struct KindSlots {
    let code: UInt16
    let valueCount: Int
    let index: [String: Int]

    init(_ profile: Profile, _ name: String) {
        guard let kind = profile.kind(named: name) else { fatalError("profile \(profile.name) has no kind \(name)") }
        code = kind.code
        valueCount = kind.valueCount
        var index: [String: Int] = [:]
        for s in kind.slots { if let v = s.valueIndex { index[s.name] = v } }
        self.index = index
    }
}
