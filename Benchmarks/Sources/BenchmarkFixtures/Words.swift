/// Word lists of the generated rows and texts: what a banking or ERP list shows (merchants,
/// people, references, amounts, dates), mostly German and English with some French, Polish,
/// Czech, Greek, Cyrillic, CJK and emoji, so the fallback fonts take part.
public enum Words {
    public static let merchants = [
        "BILLA DANKT 1230 WIEN", "SPAR Supermarkt Mariahilfer Straße", "HOFER DANKT", "Lidl Österreich", "OMV Tankstelle A2",
        "Wiener Linien Ticketshop", "ÖBB Personenverkehr", "Amazon EU S.a.r.L.", "Starbucks Westbahnhof", "IKEA Vösendorf",
        "MediaMarkt Wien Mitte", "dm drogerie markt", "Netflix International B.V.", "Spotify AB", "A1 Telekom Austria AG",
        "Wien Energie GmbH", "Apotheke zum goldenen Löwen", "Bäckerei Ströck", "Café Landtmann", "Thalia Buchhandlung",
        "H&M Hennes & Mauritz", "Zara Kärntner Straße", "Uber *TRIP", "Bolt.eu", "Booking.com", "Ryanair", "Austrian Airlines",
        "Carrefour Market Paris 11e", "Biedronka Kraków", "Żabka Polska", "Albert Heijn", "Tesco Praha Smíchov",
        "Κρεοπωλείο Παπαδόπουλος", "Пятёрочка Москва", "ФОРА Київ", "ローソン 渋谷店", "全家便利店 上海",
    ]

    public static let people = [
        "Anna Huber", "Lukas Gruber", "Marie Wagner", "Jakob Pichler", "Sophie Moser", "Elias Steiner", "Lena Hofer",
        "Maximilian Leitner", "Hannah Berger", "Felix Fuchs", "Jiří Novák", "Zofia Kowalska", "Łukasz Wiśniewski",
        "François Dubois", "Émilie Lefèvre", "Γιώργος Παπαδόπουλος", "Ольга Иванова", "Олександр Шевченко", "田中 美咲",
        "Dr. Katharina Schwarzenberger-Habsburg", "Mag. Johann Sebastian Oberhuber",
    ]

    public static let categories = [
        "Lebensmittel", "Restaurants & Cafés", "Transport", "Wohnen", "Gehalt", "Freizeit", "Shopping", "Gesundheit",
        "Bargeld", "Versicherungen", "Reisen", "Kinder", "Bildung", "Sparen & Anlegen", "Abos & Streaming", "Sonstiges",
    ]

    public static let purposes = [
        "Miete Juni Top 14", "Rechnung 2025-0613", "Danke für das Abendessen", "Geburtstagsgeschenk für Oma",
        "Versicherungsprämie Haushalt und Eigenheim, Polizze 4711-0815", "Mitgliedsbeitrag Sportverein 2025",
        "Rückerstattung Bestellung 302-5588124-7781236", "Anteil Urlaub Kroatien Ferienwohnung", "Strom und Gas Abschlag",
        "invoice INV-2025-004211 consulting services May", "refund order 114-2208761", "rent June flat 3",
        "Kaution Wohnung Neubaugasse 25/7, 1070 Wien, laut Mietvertrag vom 1. März", "Spende Rotes Kreuz",
    ]

    public static let products = [
        "Wireless Noise Cancelling Headphones", "Espresso Machine", "Trail Running Shoes", "Bluetooth Speaker",
        "Kabelloser Staubsauger mit Wandhalterung", "Edelstahl-Trinkflasche 750 ml", "Laptop Sleeve 14\"", "Smart Watch Series 7",
        "Organic Green Tea", "LED Desk Lamp", "Mechanical Keyboard", "Yoga Mat", "Kaffeebohnen Hausmischung 1 kg",
        "USB-C Ladegerät 65 W", "Rucksack", "Pan", "Notebook A5 dotted", "Ergonomic Office Chair with Lumbar Support",
    ]

    public static let months = ["Jänner", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
                                "November", "Dezember"]
    public static let weekdays = ["Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"]

    public static let sentences = [
        "Vorgemerkte Umsätze können sich bis zur Buchung noch ändern.",
        "Die Umsätze der letzten 24 Monate stehen hier zur Verfügung; ältere Kontoauszüge finden Sie im Postfach.",
        "Pending transactions may still change until they are booked.",
        "Ihre Karte wurde für Zahlungen im Ausland freigeschaltet. Die Freischaltung gilt 30 Tage.",
        "Les opérations en attente peuvent encore être modifiées jusqu'à leur comptabilisation.",
        "Transakcje oczekujące mogą jeszcze ulec zmianie do momentu zaksięgowania.",
        "Η συναλλαγή θα εμφανιστεί στο υπόλοιπο μετά την εκκαθάριση.",
        "Операция будет отражена в выписке после списания средств.",
        "取引は確定するまで変更される場合があります。",
        "Rechnungsbetragsübersicht und Zahlungsverkehrsdienstleistungsentgelte für das Geschäftsjahr 2025",
        "Thanks for the coffee ☕️ see you next week 🎉",
        "Kontakt: service@example.at oder https://www.example.at/hilfe/umsaetze-exportieren",
    ]

    /// An amount in Austrian notation: "-1.234,56 EUR".
    public static func money(_ cents: Int) -> String {
        let sign = cents < 0 ? "-" : "+", c = abs(cents)
        var euros = String(c / 100), grouped = ""
        while euros.count > 3 {
            grouped = "." + euros.suffix(3) + grouped
            euros.removeLast(3)
        }
        let rest = c % 100
        return "\(sign)\(euros)\(grouped),\(rest < 10 ? "0" : "")\(rest) EUR"
    }

    /// An Austrian IBAN-looking string.
    public static func iban(_ rng: inout SplitMix64) -> String {
        var s = "AT\(10 + rng.below(90))"
        for _ in 0..<4 { s += " \(1000 + rng.below(9000))" }
        return s
    }
}
