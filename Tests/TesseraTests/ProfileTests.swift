#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import Tessera

/// Loading profiles: the four repository profiles, and every kind of bad document naming
/// the path inside it and what was expected there.
@Suite struct ProfileTests {
    static let george = JSONValue.parse(ProfileFixtures.text("george"))
    static let collection = JSONValue.parse(ProfileFixtures.text("fiori-ios-collection"))
    static let fioriIOS = JSONValue.parse(ProfileFixtures.text("fiori-ios"))

    /// The error of loading `document` (nil when it loads).
    static func loadError(_ document: JSONValue, fontDirectories: [String] = Profile.defaultFontDirectories) -> TesseraError? {
        loadError(document.json, fontDirectories: fontDirectories)
    }

    static func loadError(_ text: String, fontDirectories: [String] = Profile.defaultFontDirectories) -> TesseraError? {
        thrownError { _ = try Profile(json: Array(text.utf8), fontDirectories: fontDirectories) }
    }

    /// Expects loading to fail at `path` with a problem containing `problem`.
    static func expectInvalid(_ document: JSONValue, path: String, _ problem: String, sourceLocation: SourceLocation = #_sourceLocation) {
        expectInvalid(document.json, path: path, problem, sourceLocation: sourceLocation)
    }

    static func expectInvalid(_ text: String, path: String, _ problem: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .invalidProfile(let p, let message)? = loadError(text) else {
            Issue.record("expected invalidProfile at \(path), got \(String(describing: loadError(text)))", sourceLocation: sourceLocation)
            return
        }
        #expect(p == path, "\(message)", sourceLocation: sourceLocation)
        #expect(message.contains(problem), "\(message)", sourceLocation: sourceLocation)
    }

    @Test func repositoryProfilesLoad() {
        let g = ProfileFixtures.george
        #expect(g.name == "george" && g.unit == "pt" && g.platforms == [.ios, .android])
        #expect(g.kinds.count == 17 && g.kinds.map(\.code) == Array(1...17))
        #expect(g.kind(code: 13)!.name == "sectionHeader" && g.kind(code: 13)!.role == .header && g.kind(code: 13)!.isSticky)
        #expect(g.kind(named: "footerError")!.role == .footer)
        #expect(g.kind(named: "basicCell")!.valueCount == 10)
        #expect(g.kind(named: "singleSelectionLeading")!.slots.first!.valueIndex == nil)
        #expect(g.kind(code: 0) == nil && g.kind(code: 18) == nil && g.kind(named: "nope") == nil)
        #expect(g.kind(named: "basicCell")!.estimatedHeight(on: .android) == 48)
        #expect(g.estimatedHeights(platform: .ios).count == 18 && g.estimatedHeights(platform: .ios)[9] == 102)
        #expect(g.widthClass(forWidth: 599.9) == "compact" && g.widthClass(forWidth: 600) == "regular")

        let a = ProfileFixtures.fioriAndroid
        #expect(a.kinds.map(\.name) == ["objectCell", "singleActionCell", "contactCell"] && a.platforms == [.android])
        #expect(a.widthClasses.map(\.name) == ["compact", "medium", "expanded"] && a.widthClass(forWidth: 839) == "medium")
        #expect(a.parameters == [ProfileParameter(name: "descriptionLines", defaultValue: 3, minimum: 0, maximum: nil, allowed: nil)])
        #expect(ProfileFixtures.fioriIOS.kinds.count == 2 && ProfileFixtures.fioriIOS.parameters.count == 3)
        #expect(ProfileFixtures.collection.hasGrid && !g.hasGrid)
        #expect(ProfileFixtures.collection.kind(named: "collectionImage")!.estimatedHeight(on: .ios) == 60)
    }

    @Test func fontFilesAreLoadedOncePerProfile() {
        let g = ProfileFixtures.george
        // Two families: regular and medium share the fallback faces.
        #expect(g.fontChains.count == 2)
        #expect(g.fontChains[0].fonts[1] === g.fontChains[1].fonts[1])
        #expect(g.fontChains[0].fonts[2] === g.fontChains[1].fonts[2])
        #expect(g.fontChains[0].fonts[0] !== g.fontChains[1].fonts[0])
    }

    @Test func loadFromPathAndBytesAgree() throws {
        let bytes = ProfileFixtures.bytes("fiori-ios-collection")
        let fromBytes = try bytes.withUnsafeBytes { b throws(TesseraError) in try Profile(json: b) }
        #expect(fromBytes.kinds == ProfileFixtures.collection.kinds)
        #expect(thrownError { _ = try Profile.load(path: "/nonexistent/profile.json") } == .unreadableProfile(path: "/nonexistent/profile.json", errno: ENOENT))
        #expect(thrownError { _ = try Profile.load(path: "/tmp") } == .unreadableProfile(path: "/tmp", errno: EISDIR))
    }

    // MARK: Malformed JSON

    @Test func malformedJSONNamesThePathAndPosition() {
        Self.expectInvalid("", path: "", "malformed JSON at line 1, column 1: expected a value, found the end of the document")
        Self.expectInvalid("{\"kinds\": {\"a\": }}", path: "kinds.a", "line 1, column 17: expected a value, found '}'")
        Self.expectInvalid("{\"kinds\": {\"a\": {\"slots\": [1, 2,]}}}", path: "kinds.a.slots.2", "expected a value, found ']'")
        Self.expectInvalid("{\n  \"title\": \"x\",\n  \"title\": \"y\"}", path: "title", "line 3, column 3: duplicate member name")
        Self.expectInvalid("{\"title\": \"x}", path: "title", "expected '\"' to end the string")
        Self.expectInvalid("{\"title\": \"\\q\"}", path: "title", "expected one of")
        Self.expectInvalid("{\"title\": \"a\u{1}\"}", path: "title", "control characters must be escaped")
        Self.expectInvalid("{\"title\": \"\\ud800\"}", path: "title", "low surrogate")
        Self.expectInvalid("{\"a\": 01}", path: "", "column 8: expected ',' or '}', found '1'")
        Self.expectInvalid("{\"a\": 1.}", path: "a", "expected a digit after '.'")
        Self.expectInvalid("{\"a\": 1e999}", path: "a", "expected a number within the range of a double")
        Self.expectInvalid("{\"a\": tru}", path: "a", "expected true")
        Self.expectInvalid("{\"a\": 1} x", path: "", "expected the end of the document, found 'x'")
        Self.expectInvalid("{a: 1}", path: "", "expected a member name in double quotes")
        Self.expectInvalid(String(repeating: "[", count: 500), path: (0..<200).map { _ in "0" }.joined(separator: "."), "nesting deeper than 200")
        // Invalid UTF-8 inside a string.
        let bad: [UInt8] = Array("{\"title\": \"".utf8) + [0xC0, 0x80] + Array("\"}".utf8)
        guard case .invalidProfile(let path, let problem)? = thrownError({ _ = try Profile(json: bad) }) else {
            Issue.record("invalid UTF-8 accepted")
            return
        }
        #expect(path == "title" && problem.contains("expected valid UTF-8"))
        // A byte order mark is fine; a document that is not an object is not a profile.
        Self.expectInvalid("\u{FEFF}[]", path: "", "expected a profile object, found an array")
    }

    // MARK: Schema

    @Test func schemaViolations() {
        let g = Self.george
        Self.expectInvalid(g.setting("kinds.basicCell.slots.label.maxLines", .number(-1)), path: "kinds.basicCell.slots.label.maxLines",
                           "expected an integer >= 0 or a parameter reference (\"$name\"), found -1")
        Self.expectInvalid(g.setting("kinds.basicCell.slots.label.maxLines", .number(1.5)), path: "kinds.basicCell.slots.label.maxLines", "found 1.5")
        Self.expectInvalid(g.setting("kinds.basicCell.slots.label.maxLines", .string("lots")), path: "kinds.basicCell.slots.label.maxLines", "found \"lots\"")
        Self.expectInvalid(g.setting("schemaVersion", .number(2)), path: "schemaVersion", "expected 1 (the only version this engine knows), found 2")
        Self.expectInvalid(g.setting("schemaVersion", nil), path: "schemaVersion", "required field missing")
        Self.expectInvalid(g.setting("textStyles.label.size", .string("17")), path: "textStyles.label.size", "expected a number > 0")
        Self.expectInvalid(g.setting("textStyles.label.size", .number(0)), path: "textStyles.label.size", "found 0")
        Self.expectInvalid(g.setting("textStyles.label.onPlatform.android.lineHeight", .number(-2)), path: "textStyles.label.onPlatform.android.lineHeight", "found -2")
        Self.expectInvalid(g.setting("kinds.basicCell.padding.top", .number(-8)), path: "kinds.basicCell.padding.top", "expected a length (a number >= 0), found -8")
        Self.expectInvalid(g.setting("kinds.basicCell.padding.top", nil), path: "kinds.basicCell.padding.top", "required field missing (expected a length)")
        Self.expectInvalid(g.setting("kinds.basicCell.padding.top", .number(1e9)), path: "kinds.basicCell.padding.top", "expected a length <= 1000000")
        Self.expectInvalid(g.setting("kinds.basicCell.code", .number(0)), path: "kinds.basicCell.code", "expected an integer in 1...65535, found 0")
        Self.expectInvalid(g.setting("kinds.basicCell.role", .string("row")), path: "kinds.basicCell.role", "expected one of \"cell\", \"header\", \"footer\", found \"row\"")
        Self.expectInvalid(g.setting("kinds.basicCell.slots.label.type", .string("label")), path: "kinds.basicCell.slots.label.type", "expected one of \"text\"")
        Self.expectInvalid(g.setting("kinds.basicCell.slots.label.index", nil), path: "kinds.basicCell.slots.label.index", "required field missing")
        Self.expectInvalid(g.setting("kinds.basicCell.slots.label.index", .number(255)), path: "kinds.basicCell.slots.label.index", "expected an integer in 0...254, found 255")
        Self.expectInvalid(g.setting("kinds.basicCell.layout.columns", .array([])), path: "kinds.basicCell.layout.columns", "at least 1 element")
        Self.expectInvalid(g.setting("kinds.basicCell.layout.columns.0.width", .string("wide")), path: "kinds.basicCell.layout.columns.0.width", "expected one of \"fit\", \"fill\"")
        Self.expectInvalid(g.setting("kinds.basicCell.layout.columns.0.width", JSONValue.parse("{\"fraction\": 1}")), path: "kinds.basicCell.layout.columns.0.width.fraction", "expected a fraction > 0 and < 1, found 1")
        Self.expectInvalid(g.setting("kinds.basicCell.layout.columns.0.align", .string("middle")), path: "kinds.basicCell.layout.columns.0.align", "expected one of \"top\"")
        Self.expectInvalid(g.setting("kinds.basicCell.variants.0.when", JSONValue.parse("{}")), path: "kinds.basicCell.variants.0.when", "expected at least one condition")
        Self.expectInvalid(g.setting("kinds.basicCell.rules.0.rule", .string("unique")), path: "kinds.basicCell.rules.0.rule", "expected one of \"exclusive\", \"groupMinimum\"")
        Self.expectInvalid(g.setting("kinds.basicCell.rules.0.slots", JSONValue.parse("[\"subLine\"]")), path: "kinds.basicCell.rules.0.slots", "at least 2 elements")
        Self.expectInvalid(g.setting("kinds.singleSelectionLeading.rules.0.rows", .number(1)), path: "kinds.singleSelectionLeading.rules.0.rows", "expected an integer >= 2")
        Self.expectInvalid(g.setting("kinds.basicCell.lint.0.scope", .string("page")), path: "kinds.basicCell.lint.0.scope", "expected one of \"group\", \"list\"")
        Self.expectInvalid(g.setting("fonts.regular.files.0", .string("fonts/Roboto-Regular.ttf")), path: "fonts.regular.files.0", "without a directory")
        Self.expectInvalid(g.setting("platforms", JSONValue.parse("[\"ios\", \"ios\"]")), path: "platforms.1", "expected unique platforms")
        Self.expectInvalid(g.setting("name", .string("George")), path: "name", "expected a file stem")
        Self.expectInvalid(g.setting("kinds.basicCell.slots.toggle.width", JSONValue.parse("{\"ios\": 51}")), path: "kinds.basicCell.slots.toggle.width",
                           "expected a value for every platform of the profile (ios, android), missing android")
        Self.expectInvalid(g.setting("kinds.basicCell.sticky", .bool(true)), path: "kinds.basicCell.sticky", "only headers stick")
        Self.expectInvalid(g.setting("sources.seed", nil), path: "sources.seed", "required field missing")
        // Buttons: exactly one of height and paddingVertical.
        let c = Self.collection
        Self.expectInvalid(c.setting("kinds.collectionItem.slots.buttonAction.paddingVertical", .number(4)), path: "kinds.collectionItem.slots.buttonAction.paddingVertical", "found both")
        Self.expectInvalid(c.setting("kinds.collectionItem.slots.buttonAction.height", nil), path: "kinds.collectionItem.slots.buttonAction.height", "expected height or paddingVertical")
        Self.expectInvalid(c.setting("kinds.collectionImage.slots.image.size.default", nil), path: "kinds.collectionImage.slots.image.size.default", "required field missing")
        Self.expectInvalid(c.setting("grid.columns.1.count", JSONValue.parse("{\"min\": 5, \"max\": 4}")), path: "grid.columns.1.count.max", "expected a max >= min 5")
        Self.expectInvalid(Self.fioriIOS.setting("parameters.detailImageSize.default", .number(46)), path: "parameters.detailImageSize.default", "expected one of 44, 45, found 46")
    }

    @Test func unknownFieldsAreErrors() {
        let g = Self.george
        Self.expectInvalid(g.setting("colour", .string("red")), path: "colour", "unknown field; expected one of $schema, schemaVersion")
        Self.expectInvalid(g.setting("kinds.basicCell.slots.label.colour", .string("red")), path: "kinds.basicCell.slots.label.colour", "unknown field; expected one of type, index, required, doc, style, maxLines")
        // A field of another slot type is unknown here.
        Self.expectInvalid(g.setting("kinds.basicCell.slots.leadingIcon.style", .string("label")), path: "kinds.basicCell.slots.leadingIcon.style", "unknown field")
        Self.expectInvalid(g.setting("kinds.basicCell.layout.columns.0.padding", .number(2)), path: "kinds.basicCell.layout.columns.0.padding", "unknown field")
        Self.expectInvalid(g.setting("textStyles.label.onPlatform.web", JSONValue.parse("{\"size\": 3}")), path: "textStyles.label.onPlatform.web", "unknown field; expected one of ios, android")
        Self.expectInvalid(g.setting("kinds.infoHorizontal.variants.0.when.dark", .bool(true)), path: "kinds.infoHorizontal.variants.0.when.dark", "unknown field")
    }

    // MARK: Consistency

    @Test func referencesMustResolve() {
        let g = Self.george
        Self.expectInvalid(g.setting("kinds.basicCell.slots.label.style", .string("headline")), path: "kinds.basicCell.slots.label.style",
                           "unknown text style \"headline\"; expected one of label, secondary")
        Self.expectInvalid(g.setting("textStyles.label.font", .string("bold")), path: "textStyles.label.font", "unknown font family \"bold\"")
        Self.expectInvalid(g.setting("textStyles.tag.onPlatform.android.font", .string("bold")), path: "textStyles.tag.onPlatform.android.font", "unknown font family")
        Self.expectInvalid(g.setting("kinds.basicCell.slots.label.maxLines", .string("$labelLines")), path: "kinds.basicCell.slots.label.maxLines",
                           "unknown parameter \"$labelLines\"; the profile has no parameters")
        Self.expectInvalid(g.setting("kinds.basicCell.layout.columns.1.items.1", .string("lable")), path: "kinds.basicCell.layout.columns.1.items.1",
                           "unknown slot \"lable\"; the slots of basicCell are leadingIcon, topLine, label")
        Self.expectInvalid(g.setting("kinds.basicCell.variants.0.hide.0", .string("caret")), path: "kinds.basicCell.variants.0.hide.0", "unknown slot \"caret\"")
        Self.expectInvalid(g.setting("kinds.basicCell.rules.0.slots.1", .string("top")), path: "kinds.basicCell.rules.0.slots.1", "unknown slot \"top\"")
        Self.expectInvalid(g.setting("kinds.basicCell.lint.0.slot", .string("icon")), path: "kinds.basicCell.lint.0.slot", "unknown slot \"icon\"")
        Self.expectInvalid(g.setting("kinds.basicCell.divider.ios.leadingInset", .string("text")), path: "kinds.basicCell.divider.ios.leadingInset", "unknown slot \"text\"")
        Self.expectInvalid(g.setting("kinds.basicCell.variants.0.when", JSONValue.parse("{\"widthClass\": \"wide\"}")), path: "kinds.basicCell.variants.0.when.widthClass",
                           "unknown width class \"wide\"; expected one of compact, regular")
        Self.expectInvalid(g.setting("textStyles.label.source", .string("appleDocs")), path: "textStyles.label.source", "unknown source \"appleDocs\"")
        Self.expectInvalid(g.setting("provenance.0.paths.0", .string("kinds.basicCell.slots.lable.maxLines")), path: "provenance.0.paths.0", "names none")
        let c = Self.collection
        Self.expectInvalid(c.setting("grid.kinds.0.kind", .string("collectionCell")), path: "grid.kinds.0.kind", "unknown kind \"collectionCell\"")
        Self.expectInvalid(c.setting("grid.countItemWidth", .string("$cellWidth")), path: "grid.countItemWidth", "unknown parameter \"$cellWidth\"; expected one of $itemWidth")
        Self.expectInvalid(c.setting("grid.columns.1", nil), path: "grid.columns", "expected a column count for every width class, \"regular\" has none")
        Self.expectInvalid(c.setting("kinds.collectionItem.layout.overlays.0.anchorTo", .string("title")), path: "kinds.collectionItem.layout",
                           "to anchor to \"cell\" or to a required or always-present slot")
        Self.expectInvalid(c.setting("kinds.collectionImage.lint.1.slot", .string("image")), path: "kinds.collectionImage.lint.1.slot", "expected a textList or boxStack slot")
        Self.expectInvalid(c.setting("kinds.collectionImage.lint.0.slot", .string("iconActions")), path: "kinds.collectionImage.lint.0.slot", "expected an image slot")
        Self.expectInvalid(c.setting("kinds.collectionImage.slots.image.size.default", .number(120)), path: "kinds.collectionImage.slots.image.size.default",
                           "expected a default within 60...110, found 120")
    }

    @Test func widthClassesMustAscendWithoutOverlap() {
        let g = Self.george
        Self.expectInvalid(g.setting("widthClasses.2", JSONValue.parse("{\"name\": \"wide\", \"minWidth\": 600}")), path: "widthClasses.2.minWidth",
                           "expected a minWidth above 600 (width classes ascend and must not overlap), found 600")
        Self.expectInvalid(g.setting("widthClasses.1.minWidth", .number(0)), path: "widthClasses.1.minWidth", "must not overlap), found 0")
        Self.expectInvalid(g.setting("widthClasses.0.minWidth", .number(10)), path: "widthClasses.0.minWidth", "expected 0 (the first width class starts at 0)")
        Self.expectInvalid(g.setting("widthClasses.1.name", .string("compact")), path: "widthClasses.1.name", "expected unique width class names")
        Self.expectInvalid(g.setting("widthClasses", .array([])), path: "widthClasses", "at least 1 element")
    }

    @Test func kindsCodesAndIndexes() {
        let g = Self.george
        Self.expectInvalid(g.setting("kinds.footerError.code", .number(3)), path: "kinds.footerError.code",
                           "expected a code unique in the profile, found 3, the code of singleSelectionTrailing")
        Self.expectInvalid(g.setting("kinds.basicCell.slots.topLine.index", .number(2)), path: "kinds.basicCell.slots.label.index",
                           "expected an index unique in the kind, found 2, the index of topLine")
        Self.expectInvalid(g.setting("kinds.basicCell.slots.chevron.index", .number(12)), path: "kinds.basicCell.slots", "index 9 is missing")
        Self.expectInvalid(g.setting("kinds.basicCell.slots.spare", JSONValue.parse("{\"type\": \"box\", \"index\": 10, \"width\": 1, \"height\": 1}")),
                           path: "kinds.basicCell.slots.spare", "expected the slot to be placed by the layout or a variant; none places it")
        Self.expectInvalid(g.setting("kinds.singleSelectionLeading.rules.0", JSONValue.parse("{\"rule\": \"groupMinimum\", \"rows\": 2}"))
                            .setting("kinds.sectionHeader.rules.1", JSONValue.parse("{\"rule\": \"groupMinimum\", \"rows\": 2}")),
                           path: "kinds.sectionHeader.rules.1", "expected groupMinimum only on cell kinds")
    }

    @Test func effectiveLayoutsNeedExactlyOneFillColumn() {
        let g = Self.george
        // Two fill columns.
        Self.expectInvalid(g.setting("kinds.basicCell.layout.columns.0.width", .string("fill")), path: "kinds.basicCell.layout",
                           "expected exactly one fill column on ios, width class compact, edit mode off, font scale 1, found 2")
        // None.
        Self.expectInvalid(g.setting("kinds.basicCell.layout.columns.1.width", .string("fit")), path: "kinds.basicCell.layout", "found 0")
        // Only in some environments: the stacked variant of infoHorizontal at font scale ≥ 1.6.
        Self.expectInvalid(g.setting("kinds.infoHorizontal.variants.0.layout.columns.0.width", .string("fit")), path: "kinds.infoHorizontal.variants.0.layout",
                           "expected exactly one fill column on ios, width class compact, edit mode off, font scale 1.6, found 0")
        // Only in edit mode (an appended fill column).
        Self.expectInvalid(Self.fioriIOS.setting("kinds.objectCell.variants.2.appendColumns", JSONValue.parse("[{\"items\": [\"overflow\"], \"width\": \"fill\"}]")),
                           path: "kinds.objectCell.layout", "edit mode on")
        // A fill column must hold a required or always-present slot that is not hidden.
        Self.expectInvalid(g.setting("kinds.basicCell.slots.label.required", .bool(false)), path: "kinds.basicCell.layout",
                           "expected the fill column to hold a required or always-present slot")
        Self.expectInvalid(g.setting("kinds.basicCell.variants.0.hide.1", .string("label")), path: "kinds.basicCell.layout", "on android")
        // No slot twice; fractions below 1.
        Self.expectInvalid(g.setting("kinds.basicCell.layout.columns.0.items.1", .string("label")), path: "kinds.basicCell.layout", "\"label\" is placed twice")
        Self.expectInvalid(Self.fioriIOS.setting("kinds.objectCell.variants.0.layout.columns.4.width", JSONValue.parse("{\"fraction\": 0.4}")),
                           path: "kinds.objectCell.variants.0.layout", "expected fraction columns to sum below 1, found 1")
    }

    @Test func fontsThatCannotBeLoaded() throws {
        let g = Self.george
        let missing = g.setting("fonts.regular.files.0", .string("SFPro-Regular.ttf"))
        #expect(Self.loadError(missing) == .profileFontNotFound(file: "SFPro-Regular.ttf", directories: Profile.defaultFontDirectories))
        #expect(Self.loadError(g, fontDirectories: ["/nonexistent"]) == .profileFontNotFound(file: "Roboto-Regular.ttf", directories: ["/nonexistent"]))
        // A file that is there but is not a font.
        let dir = fontTemporaryDirectory("profile-fonts")
        #expect(fontWriteBytes(Array("not a font".utf8), to: dir + "/Junk.ttf"))
        let junk = g.setting("fonts.medium.files.0", .string("Junk.ttf"))
        guard case .invalidProfile(let path, let problem)? = Self.loadError(junk, fontDirectories: [dir] + Profile.defaultFontDirectories) else {
            Issue.record("junk font accepted")
            return
        }
        #expect(path == "fonts.medium.files.0" && problem.contains("malformed font"))
    }

    @Test func environmentErrorsLeaveTheMeasurerAsItWas() throws {
        let p = ProfileFixtures.fioriIOS
        let m = makeMeasurer(p, width: 390, engine: TextLayoutEngine())
        let rows = [
            p.row("objectCell", ["detailImage": "*", "title": "Title", "subtitle": "Subtitle", "description": "A description long enough to wrap at some widths", "chevron": "1"]),
            p.row("objectCellCentered", ["title": "Only a title", "attributes": "Open\u{1E}High"]),
        ]
        let before = rows.map(m.frames)
        let environment = m.environment
        let cases: [(LayoutEnvironment, TesseraError)] = [
            (LayoutEnvironment(width: 0, platform: .ios), .invalidEnvironment(field: "width", problem: "expected a finite width > 0 and <= 1000000 points, found 0.0")),
            (LayoutEnvironment(width: -10, platform: .ios), .invalidEnvironment(field: "width", problem: "expected a finite width > 0 and <= 1000000 points, found -10.0")),
            (LayoutEnvironment(width: .nan, platform: .ios), .invalidEnvironment(field: "width", problem: "expected a finite width > 0 and <= 1000000 points, found nan")),
            (LayoutEnvironment(width: .infinity, platform: .ios), .invalidEnvironment(field: "width", problem: "expected a finite width > 0 and <= 1000000 points, found inf")),
            (LayoutEnvironment(width: 2e6, platform: .ios), .invalidEnvironment(field: "width", problem: "expected a finite width > 0 and <= 1000000 points, found 2000000.0")),
            (LayoutEnvironment(width: 390, platform: .ios, fontScale: 0), .invalidEnvironment(field: "fontScale", problem: "expected a finite font scale > 0 and <= 10, found 0.0")),
            (LayoutEnvironment(width: 390, platform: .ios, fontScale: .nan), .invalidEnvironment(field: "fontScale", problem: "expected a finite font scale > 0 and <= 10, found nan")),
            (LayoutEnvironment(width: 390, platform: .android), .invalidEnvironment(field: "platform", problem: "expected one of the profile's platforms (ios), found android")),
            (LayoutEnvironment(width: 390, platform: .ios, parameters: ["titleLines": 2]), .invalidEnvironment(field: "parameters.titleLines", problem: "unknown parameter; expected one of descriptionLines, detailImageMin, detailImageSize")),
            (LayoutEnvironment(width: 390, platform: .ios, parameters: ["descriptionLines": -1]), .invalidEnvironment(field: "parameters.descriptionLines", problem: "expected an integer >= 0, found -1")),
            (LayoutEnvironment(width: 390, platform: .ios, parameters: ["detailImageMin": 20]), .invalidEnvironment(field: "parameters.detailImageMin", problem: "expected one of 16, 28, found 20")),
        ]
        for (env, expected) in cases {
            #expect(thrownError { try m.setEnvironment(env) } == expected)
            #expect(thrownError { _ = try CellMeasurer(profile: p, environment: env) } == expected)
            #expect(m.environment == environment)
            #expect(rows.map(m.frames) == before)
            m._checkInvariants()
        }
        // A good change, then back: the same answers.
        try m.setEnvironment(LayoutEnvironment(width: 1024, platform: .ios, editMode: true, fontScale: 1.3))
        #expect(m.widthClass == "regular")
        #expect(rows.map(m.frames) != before)
        try m.setEnvironment(environment)
        #expect(rows.map(m.frames) == before)
    }

    @Test func parameterValuesMustKeepTheProfileConsistent() {
        // A parameter without bounds used as a line limit: -1 is not a line count.
        let g = Self.george
            .setting("parameters", JSONValue.parse("{\"labelLines\": {\"default\": 0, \"description\": \"label lines\"}}"))
            .setting("kinds.basicCell.slots.label.maxLines", .string("$labelLines"))
        let profile = try! Profile(json: Array(g.json.utf8))
        #expect(thrownError { _ = try CellMeasurer(profile: profile, environment: LayoutEnvironment(width: 375, platform: .ios, parameters: ["labelLines": -1])) }
            == .invalidEnvironment(field: "parameters", problem: "kinds.basicCell.slots.label.maxLines: expected a line limit in 0...1000000, found -1"))
        let m = try! CellMeasurer(profile: profile, environment: LayoutEnvironment(width: 375, platform: .ios, parameters: ["labelLines": 1]))
        #expect(m.height(kind: 1, slots: ["", "", "a\nb\nc"]) == 44)
        // A default that breaks a range is caught on load.
        Self.expectInvalid(g.setting("parameters.labelLines.default", .number(-3)), path: "kinds.basicCell.slots.label.maxLines", "found -3 (with the parameters' defaults)")
    }
}
