/// The word lists the corpus generator draws from, written for this project: syllables to
/// synthesise people's and merchants' names from, generic nouns, place names, and short
/// template sentences. No copied text. Every entry is free of newlines, NULs and other
/// control characters (the corpus file format relies on it).
enum Words {
    // MARK: Latin script — English, German, French, Polish

    static let givenStart: [Language: [String]] = [
        .en: ["Ja", "Mi", "Ro", "Da", "Sa", "Em", "Oli", "Lu", "Ca", "Ha", "Be", "No", "Ev", "Ma", "Wil", "Ge", "Ri", "Ju"],
        .de: ["Jo", "Lu", "Ma", "Fe", "Han", "Kat", "Ste", "Gre", "Ul", "Wer", "Frie", "Jür", "Lie", "Bär", "Mö"],
        .fr: ["Ma", "Cé", "Jé", "Hé", "Ro", "Lu", "An", "Fran", "Gé", "Chlo", "Clé", "Mé", "Zo", "Noé", "Au"],
        .pl: ["Ma", "Ka", "Zo", "Ło", "Łu", "Mał", "Grze", "Wo", "Jo", "Prze", "Ag", "Ba", "Do", "Ślą", "Bo"],
    ]
    static let givenEnd: [Language: [String]] = [
        .en: ["son", "ra", "ly", "na", "mes", "lia", "ver", "cas", "rah", "ry", "vin", "ton", "die", "nor"],
        .de: ["nas", "kas", "rie", "lix", "nes", "rin", "fan", "ta", "rike", "ner", "da", "gen", "sel", "bel"],
        .fr: ["lène", "line", "rôme", "lise", "main", "cie", "toine", "çois", "rard", "ment", "lanie", "dré", "rèle"],
        .pl: ["łgorzata", "sia", "fia", "kasz", "cja", "gorz", "jciech", "anna", "mysław", "nieszka", "rbara", "żena", "sław"],
    ]
    static let surnameStart: [Language: [String]] = [
        .en: ["Ash", "Brook", "Hart", "Mill", "Wood", "Clay", "Stan", "Fair", "Hol", "Pres", "Whit", "Cor", "Dun"],
        .de: ["Bau", "Hof", "Mül", "Schnei", "Wag", "Stein", "Berg", "Brun", "Pich", "Leit", "Grün", "Strau", "Kö", "Hö", "Wein"],
        .fr: ["Le", "Du", "Ber", "Mar", "Fon", "Ro", "Gi", "Cha", "Lam", "Mo", "Fau", "Bé", "Mé"],
        .pl: ["Kowal", "Nowa", "Wiśniew", "Kamiń", "Zieliń", "Szymań", "Dąbrow", "Kozłow", "Jabłoń", "Grzyb", "Śliw", "Żół", "Łęcz", "Pęk", "Sąd"],
    ]
    static let surnameEnd: [Language: [String]] = [
        .en: ["ford", "well", "ton", "man", "ley", "wood", "field", "er", "son", "by", "ridge"],
        .de: ["er", "ler", "mann", "ner", "hofer", "bauer", "berger", "huber", "inger", "maier", "l", "brunner"],
        .fr: ["blanc", "pont", "trand", "tin", "taine", "ché", "rard", "teau", "bert", "reau", "vel", "nière"],
        .pl: ["ski", "ska", "czyk", "ak", "iewicz", "ek", "owski", "owska", "ński"],
    ]

    static let brandStart: [String] = ["Alpi", "Nor", "Vero", "Lumi", "Terra", "Flora", "Brava", "Quanti", "Sol", "Nova",
                                       "Verde", "Kro", "Mira", "Zeni", "Pronto", "Urba", "Cava", "Delta", "Orbi", "Vita"]
    static let brandEnd: [String] = ["net", "tec", "mar", "ka", "ra", "lia", "do", "vo", "tex", "ma", "lux", "ria", "ton", "sys"]

    static let shopTypes: [Language: [String]] = [
        .en: ["Coffee House", "Bakery", "Market", "Pharmacy", "Books", "Hardware", "Garden Center", "Electronics",
              "Fuel Station", "Cinema", "Pizzeria", "Bistro", "Logistics", "Consulting", "Office Supplies",
              "Wholesale", "Dental Clinic", "Fitness Club", "Car Wash", "Pet Store"],
        .de: ["Bäckerei", "Apotheke", "Buchhandlung", "Baumarkt", "Tankstelle", "Gasthaus", "Konditorei",
              "Fleischerei", "Blumenhandlung", "Elektrohandel", "Schuhhaus", "Optiker", "Trafik", "Drogerie",
              "Reisebüro", "Autowerkstatt", "Getränkemarkt", "Heurigenschank"],
        .fr: ["Boulangerie", "Pharmacie", "Librairie", "Épicerie", "Boucherie", "Crêperie", "Brasserie",
              "Fromagerie", "Pâtisserie", "Quincaillerie", "Café", "Hôtel", "Fleuriste", "Opticien", "Tabac-Presse"],
        .pl: ["Piekarnia", "Apteka", "Księgarnia", "Sklep spożywczy", "Kwiaciarnia", "Stacja paliw", "Cukiernia",
              "Restauracja", "Warzywniak", "Pralnia", "Kawiarnia", "Drogeria", "Zakład fryzjerski", "Sklep mięsny"],
    ]
    static let legalForms: [Language: [String]] = [
        .en: ["Ltd", "Inc.", "LLC", "PLC", "& Sons"],
        .de: ["GmbH", "AG", "KG", "GmbH & Co. KG", "e.U."],
        .fr: ["SARL", "SAS", "S.A.", "& Fils"],
        .pl: ["Sp. z o.o.", "S.A.", "s.c.", "Sp.j."],
    ]
    static let cities: [Language: [String]] = [
        .en: ["London", "Manchester", "Leeds", "New York", "Chicago", "Boston", "Toronto", "Dublin", "Edinburgh", "Seattle"],
        .de: ["Wien", "Graz", "Linz", "Salzburg", "Innsbruck", "Klagenfurt", "München", "Köln", "Düsseldorf",
              "Zürich", "St. Pölten", "Wiener Neustadt", "Göttingen", "Lübeck"],
        .fr: ["Paris", "Lyon", "Besançon", "Orléans", "Nîmes", "Genève", "Montréal", "Saint-Étienne",
              "Aix-en-Provence", "Bruxelles", "Périgueux"],
        .pl: ["Warszawa", "Kraków", "Łódź", "Wrocław", "Poznań", "Gdańsk", "Szczecin", "Białystok", "Częstochowa",
              "Świnoujście", "Zielona Góra", "Bielsko-Biała"],
    ]
    static let streets: [Language: [String]] = [
        .en: ["High Street", "Station Road", "Church Lane", "Park Avenue", "Mill Road", "Queen's Walk", "Elm Street", "Harbour View"],
        .de: ["Hauptstraße", "Bahnhofstraße", "Schillergasse", "Mariahilfer Straße", "Lindenweg", "Kirchenplatz",
              "Marktgasse", "Am Grünen Anger", "Wiedner Hauptstraße", "Mozartstraße"],
        .fr: ["rue de la République", "avenue des Écoles", "boulevard du Château", "place de l'Église",
              "allée des Lilas", "rue du Marché", "chemin des Vignes", "quai de la Gare"],
        .pl: ["ul. Mickiewicza", "ul. Słowackiego", "ul. Kościuszki", "ul. Długa", "ul. Krótka", "ul. Polna",
              "ul. Leśna", "al. Jerozolimskie", "ul. Świętokrzyska", "pl. Grunwaldzki", "ul. Źródlana"],
    ]
    static let months: [Language: [String]] = [
        .en: ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"],
        .de: ["Jänner", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"],
        .fr: ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"],
        .pl: ["stycznia", "lutego", "marca", "kwietnia", "maja", "czerwca", "lipca", "sierpnia", "września",
              "października", "listopada", "grudnia"],
    ]

    /// German compound parts; the generator joins two to four (Rechnungsbetragsübersicht).
    static let compoundParts: [String] = [
        "Rechnung", "Betrag", "Übersicht", "Konto", "Auszug", "Lieferung", "Schein", "Bestellung", "Nummer",
        "Zahlung", "Erinnerung", "Steuer", "Erklärung", "Versicherung", "Beitrag", "Miete", "Neben", "Kosten",
        "Abrechnung", "Dauer", "Auftrag", "Last", "Schrift", "Überweisung", "Kredit", "Karte", "Gebühr", "Jahr",
        "Wartung", "Vertrag", "Kunde", "Dienst", "Strom", "Wasser", "Haus", "Verwaltung", "Grund", "Arbeit",
        "Geber", "Gesellschaft", "Prüfung", "Bericht", "Vorauszahlung", "Sicherheit", "Leistung", "Zeitraum",
        "Bank", "Verbindung", "Umsatz", "Gutschrift",
    ]

    static let productAdjectives: [String] = ["Stainless", "Ergonomic", "Wireless", "Organic", "Recycled", "Heavy-duty",
                                              "Compact", "Premium", "Waterproof", "Adjustable", "Foldable", "Refurbished"]
    static let products: [Language: [String]] = [
        .en: ["Water Bottle", "Office Chair", "Keyboard", "Desk Lamp", "Coffee Beans", "Notebook", "Backpack",
              "Drill Set", "Cable Ties", "Safety Gloves", "Hydraulic Pump", "Ball Bearing", "Printer Toner", "Monitor Arm"],
        .de: ["Bio-Vollmilch", "Kaffeebohnen Crema", "Akkubohrschrauber", "Kugellager", "Druckerpapier",
              "Wasserkocher", "Werkzeugkoffer", "Sicherheitsschuhe", "Reinigungsmittel", "Schreibtischleuchte"],
        .fr: ["Café moulu", "Lait demi-écrémé", "Crème fraîche", "Pâte à tartiner", "Gants de sécurité",
              "Perceuse sans fil", "Papier d'impression", "Bouilloire électrique", "Chaise de bureau", "Câble réseau"],
        .pl: ["Chleb żytni", "Masło extra", "Kawa ziarnista", "Ręcznik papierowy", "Śruby do drewna",
              "Wiertarka akumulatorowa", "Rękawice ochronne", "Papier ksero", "Czajnik elektryczny", "Żarówka LED"],
    ]
    static let productSpecs: [String] = ["750 ml", "1 kg", "250 g", "24-pack", "A4, 80 g/m²", "6204-2RS", "Ø 12 mm",
                                         "black", "size L", "18 V", "3,5 %", "1 l", "2 × 500 g", "EAN 9001234567890"]

    /// Sentences with slots: {name} {date} {amount} {city} {no} {email} {compound} {product}.
    static let sentences: [Language: [String]] = [
        .en: ["Order {no} was shipped to {city} on {date}.",
              "The invoice includes {n} items and a discount of {n} %.",
              "Please contact {name} at {email} if you have any questions.",
              "Delivery is expected within {n} business days.",
              "Payment of {amount} was received with reference {no}.",
              "The technician replaced the {product} and tested the unit.",
              "Your subscription renews automatically on {date}.",
              "We could not reach you at the address given, so the parcel is waiting at the depot in {city}."],
        .de: ["Die Rechnung {no} wurde am {date} versendet.",
              "Bitte überweisen Sie den Betrag von {amount} bis {date}.",
              "Die {compound} liegt diesem Schreiben bei.",
              "Bei Fragen wenden Sie sich bitte an {name} unter {email}.",
              "Der Techniker hat {product} getauscht und die Anlage geprüft.",
              "Die Lieferung nach {city} erfolgt voraussichtlich in {n} Werktagen.",
              "Ihre {compound} für den Zeitraum bis {date} ist nun abrufbar."],
        .fr: ["La facture {no} a été envoyée le {date}.",
              "Merci de régler le montant de {amount} avant le {date}.",
              "Pour toute question, veuillez contacter {name} à l'adresse {email}.",
              "La livraison à {city} est prévue sous {n} jours ouvrés.",
              "Le technicien a remplacé {product} et vérifié l'installation.",
              "Votre abonnement sera renouvelé automatiquement le {date}.",
              "Nous n'avons pas pu vous joindre ; le colis vous attend à l'agence de {city}."],
        .pl: ["Faktura {no} została wysłana {date}.",
              "Prosimy o zapłatę kwoty {amount} do dnia {date}.",
              "W razie pytań prosimy o kontakt z {name}: {email}.",
              "Dostawa do miejscowości {city} nastąpi w ciągu {n} dni roboczych.",
              "Serwisant wymienił {product} i sprawdził urządzenie.",
              "Subskrypcja odnowi się automatycznie {date}.",
              "Płatność została zaksięgowana, dziękujemy za zakupy."],
    ]

    // MARK: Greek

    static let greekGivenStart: [String] = ["Γι", "Κω", "Δη", "Νι", "Μα", "Ελ", "Σο", "Κα", "Αν", "Πα", "Ευ", "Χρι"]
    static let greekGivenEnd: [String] = ["ώργος", "νσταντίνος", "μήτρης", "κόλαος", "ρία", "ένη", "φία", "τερίνα",
                                          "ναστασία", "ύλος", "άγγελος", "στίνα"]
    static let greekSurnameStart: [String] = ["Παπα", "Γεωργ", "Οικον", "Νικολ", "Κωνσταντιν", "Δημητρ", "Αλεξ",
                                              "Μιχαλ", "Βασιλ", "Ιωάνν"]
    static let greekSurnameEnd: [String] = ["δόπουλος", "ίου", "όπουλος", "ίδης", "άκης", "άτος", "ίδου", "άκη"]
    static let greekShops: [String] = ["Φαρμακείο", "Αρτοποιείο", "Καφετέρια", "Βιβλιοπωλείο", "Ταβέρνα",
                                       "Σούπερ Μάρκετ", "Ζαχαροπλαστείο", "Πρατήριο Καυσίμων", "Κρεοπωλείο", "Ανθοπωλείο"]
    static let greekLegal: [String] = ["Α.Ε.", "Ο.Ε.", "Ε.Π.Ε.", "Ι.Κ.Ε."]
    static let greekCities: [String] = ["Αθήνα", "Θεσσαλονίκη", "Πάτρα", "Ηράκλειο", "Λάρισα", "Βόλος", "Ιωάννινα",
                                        "Χανιά", "Καλαμάτα", "Ρόδος"]
    static let greekStreets: [String] = ["Οδός Ερμού", "Λεωφόρος Αλεξάνδρας", "Οδός Σταδίου", "Οδός Πατησίων",
                                         "Οδός Αγίου Δημητρίου", "Λεωφόρος Κηφισίας", "Οδός Ελευθερίας"]
    static let greekTransactions: [String] = ["Πληρωμή με κάρτα", "Μεταφορά σε", "Ανάληψη μετρητών", "Πάγια εντολή",
                                              "Επιστροφή χρημάτων", "Μισθοδοσία", "Πληρωμή λογαριασμού ρεύματος"]
    static let greekProducts: [String] = ["Ελαιόλαδο παρθένο", "Φέτα", "Καφές ελληνικός", "Μέλι θυμαρίσιο",
                                          "Χαρτί εκτύπωσης", "Γάντια εργασίας", "Λάμπα γραφείου", "Καρέκλα γραφείου"]
    static let greekSpecs: [String] = ["1 λίτρο", "400 γρ.", "500 γρ.", "Α4", "συσκευασία 6 τεμ.", "μαύρο"]
    static let greekMonths: [String] = ["Ιανουαρίου", "Φεβρουαρίου", "Μαρτίου", "Απριλίου", "Μαΐου", "Ιουνίου",
                                        "Ιουλίου", "Αυγούστου", "Σεπτεμβρίου", "Οκτωβρίου", "Νοεμβρίου", "Δεκεμβρίου"]
    static let greekSentences: [String] = [
        "Το τιμολόγιο αρ. {no} εκδόθηκε στις {date}.",
        "Παρακαλούμε εξοφλήστε το ποσό των {amount} έως τις {date}.",
        "Η παραγγελία σας θα παραδοθεί στην πόλη {city} σε {n} εργάσιμες ημέρες.",
        "Για απορίες επικοινωνήστε με τον/την {name} στο {phone}.",
        "Η πληρωμή καταχωρήθηκε με επιτυχία.",
        "Ο τεχνικός αντικατέστησε το εξάρτημα {product} και έλεγξε τη συσκευή.",
        "Ο λογαριασμός σας για τον μήνα είναι πλέον διαθέσιμος.",
    ]

    // MARK: Cyrillic — Russian, Ukrainian, Bulgarian, Serbian

    static let cyrGivenStart: [String] = ["Алек", "Ни", "Ива", "Сер", "Ди", "Ана", "Ма", "Ека", "Оль", "Тать", "Юли",
                                          "Дми", "Ната", "Бог", "Ђор", "Їв"]
    static let cyrGivenEnd: [String] = ["сандр", "колай", "н", "гей", "ана", "стасия", "рия", "терина", "га", "яна",
                                        "я", "трий", "лья", "дан", "ђе", "ан"]
    static let cyrSurnameStart: [String] = ["Иван", "Петр", "Смирн", "Кузнец", "Поп", "Сокол", "Лебед", "Козл",
                                            "Новик", "Мороз", "Волк", "Шевч", "Бонд", "Коваль", "Ткач", "Јовано"]
    static let cyrSurnameEnd: [String] = ["ов", "ова", "ев", "ева", "ин", "ина", "енко", "ук", "ский", "ская", "чук", "вић"]
    static let cyrShops: [String] = ["Магазин", "Аптека", "Пекарня", "Кафе", "Книжный магазин", "Супермаркет",
                                     "Автозаправка", "Цветочный салон", "Химчистка", "Ресторан", "Кондитерська",
                                     "Продукти", "Пекара", "Хранителни стоки"]
    static let cyrLegal: [String] = ["ООО", "АО", "ИП", "ТОВ", "ЕООД", "д.о.о."]
    static let cyrCities: [String] = ["Москва", "Санкт-Петербург", "Новосибирск", "Екатеринбург", "Київ", "Львів",
                                      "Одеса", "Харків", "София", "Пловдив", "Београд", "Нови Сад", "Алматы", "Минск"]
    static let cyrStreets: [String] = ["ул. Садовая", "пр. Мира", "ул. Центральная", "вул. Шевченка",
                                       "бул. Витоша", "ул. Пушкина", "вул. Хрещатик", "Кнез Михаилова"]
    static let cyrTransactions: [String] = ["Оплата картой", "Перевод от", "Перевод для", "Снятие наличных",
                                            "Зарплата за месяц", "Возврат средств", "Оплата коммунальных услуг",
                                            "Поповнення рахунку", "Плащане с карта"]
    static let cyrProducts: [String] = ["Молоко 3,2 %", "Хлеб ржаной", "Кофе в зёрнах", "Бумага для принтера",
                                        "Перчатки рабочие", "Настольная лампа", "Шуруповёрт аккумуляторный",
                                        "Чай чёрный", "Гречка ядрица", "Сир твердий"]
    static let cyrSpecs: [String] = ["1 л", "500 г", "1 кг", "А4", "упаковка 10 шт.", "чёрный"]
    static let cyrMonths: [String] = ["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа",
                                      "сентября", "октября", "ноября", "декабря"]
    static let cyrSentences: [String] = [
        "Счёт № {no} выставлен {date}.",
        "Пожалуйста, оплатите сумму {amount} до {date}.",
        "Заказ будет доставлен в город {city} в течение {n} рабочих дней.",
        "По всем вопросам обращайтесь к {name} по телефону {phone}.",
        "Платіж успішно зараховано.",
        "Мастер заменил деталь «{product}» и проверил устройство.",
        "Сметката за електричество е готова за плащане.",
        "Ваш заказ передан в службу доставки.",
    ]

    // MARK: CJK — Chinese and Japanese

    static let zhSurnames: [String] = ["王", "李", "张", "刘", "陈", "杨", "黄", "赵", "周", "吴", "徐", "孙"]
    static let zhGiven: [String] = ["伟", "芳", "娜", "敏", "静", "丽", "强", "磊", "军", "洋", "勇", "艳", "杰", "涛", "明", "超", "秀", "霞"]
    static let jaFamily: [String] = ["佐", "藤", "鈴", "木", "高", "橋", "田", "中", "渡", "辺", "山", "本", "村", "小", "林", "松", "井"]
    static let jaGiven: [String] = ["太郎", "花子", "健", "翔", "陽菜", "結衣", "大輝", "美咲", "さくら", "ゆい", "はると"]
    static let zhCities: [String] = ["北京", "上海", "广州", "深圳", "杭州", "成都", "南京", "武汉", "台北", "香港"]
    static let zhBrands: [String] = ["星光", "金龙", "和平", "长城", "东方", "万家", "百佳", "新华", "永和", "大明"]
    static let zhShops: [String] = ["咖啡店", "超市", "餐厅", "书店", "药房", "面包房", "便利店", "花店", "电器行", "有限公司"]
    static let zhTransactions: [String] = ["刷卡消费", "转账给", "工资入账", "取现", "退款", "水电费", "房租", "手机充值", "网上购物"]
    static let zhDistricts: [String] = ["朝阳", "浦东", "天河", "南山", "西湖", "武侯"]
    static let zhRoads: [String] = ["人民", "中山", "解放", "建设", "和平", "长江"]
    static let zhProducts: [String] = ["有机牛奶", "咖啡豆", "打印纸", "无线鼠标", "保温杯", "工作手套", "台灯", "办公椅"]
    static let zhSpecs: [String] = ["1升", "500克", "12个装", "黑色", "大号"]
    static let zhSentences: [String] = [
        "订单{no}已于{date}发货。", "请于{date}前支付{amount}。", "如有疑问，请联系{name}，电话{phone}。",
        "本月账单已生成，请及时查看。", "您的退款将在三至五个工作日内到账。", "维修人员已更换{product}并完成检测。",
    ]
    static let jaCities: [String] = ["東京", "大阪", "京都", "横浜", "名古屋", "札幌", "福岡", "神戸"]
    static let jaBrands: [String] = ["さくら", "みどり", "ひかり", "あおば", "ふじ", "やまと", "あさひ", "つばさ"]
    static let jaShops: [String] = ["カフェ", "ベーカリー", "薬局", "書店", "スーパー", "コンビニ", "食堂", "電機", "商店", "株式会社"]
    static let jaTransactions: [String] = ["カード支払い", "振込", "給与振込", "現金引出し", "口座振替", "返金"]
    static let jaPrefectures: [String] = ["東京都", "大阪府", "神奈川県", "愛知県", "福岡県"]
    static let jaWards: [String] = ["港区", "中央区", "北区", "緑区", "西区"]
    static let jaProducts: [String] = ["有機牛乳", "コーヒー豆", "コピー用紙", "ワイヤレスマウス", "水筒", "作業用手袋", "デスクライト", "オフィスチェア"]
    static let jaSpecs: [String] = ["1リットル", "500グラム", "12個入り", "黒", "大サイズ"]
    static let jaSentences: [String] = [
        "ご注文{no}は{date}に発送されました。", "{date}までに{amount}をお支払いください。",
        "ご不明な点は{name}までお問い合わせください。", "今月のご利用明細を発行しました。",
        "お届けまで三営業日ほどかかります。", "担当者が{product}を交換し、動作を確認しました。",
    ]

    // MARK: Emoji

    /// Single emoji, a few with variation selector 16 or a skin tone modifier.
    static let emoji: [String] = [
        "☕", "🍕", "🍺", "🛒", "🚗", "⛽", "🏠", "💡", "📱", "🎁", "✈️", "🏥", "💊", "🎬", "🎵", "📦", "💳",
        "💶", "💰", "🧾", "❤️", "👍", "🎉", "✅", "⚠️", "🎂", "⭐", "🔥", "🙏", "😀", "😂", "🥳", "🍣", "🥐",
        "👍🏽", "👋🏻", "💪🏿", "🙌🏼",
    ]
    /// Zero-width-joiner sequences (one grapheme each).
    static let emojiZWJ: [String] = [
        "👨‍👩‍👧‍👦", "👩‍💻", "🧑‍🍳", "👨‍🔧", "🏳️‍🌈", "👩‍❤️‍👨", "🧑‍🤝‍🧑", "👩🏽‍⚕️", "🐻‍❄️", "😶‍🌫️",
    ]
    /// Region codes turned into flag sequences (two regional indicator symbols).
    static let flagRegions: [String] = ["AT", "DE", "FR", "PL", "GR", "UA", "JP", "CN", "US", "GB", "CZ", "HR", "IT", "ES", "CH"]
    static let emojiPhrases: [String] = [
        "Pizza night", "Dinner with {first}", "Rent {month}", "Trip to {city}", "Birthday gift for {first}",
        "Coffee", "Groceries", "Thanks for lunch!", "Concert tickets", "Gym membership", "Miete {month}",
        "Danke fürs Essen!", "Urlaub in {city}", "Geschenk für {first}", "Merci pour le dîner", "Prezent dla {first}",
        "Wakacje: {city}", "Split bill", "Car service", "Happy birthday, {first}!",
    ]

    // MARK: Shared

    static let tlds: [String] = [".com", ".at", ".de", ".fr", ".pl", ".eu", ".net", ".org", ".co.uk"]
    static let urlPaths: [String] = ["orders", "invoices", "account/statements", "support/tickets", "shop/product",
                                     "track", "de/rechnungen", "fr/factures", "pl/zamowienia"]
}

enum Language: CaseIterable { case en, de, fr, pl }
