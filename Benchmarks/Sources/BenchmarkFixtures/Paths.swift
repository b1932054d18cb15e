import Tessera

/// Where the repository's files are: found from this source file's path, so the suites run
/// from any working directory.
public enum Paths {
    /// The repository root (this file is `Benchmarks/Sources/BenchmarkFixtures/Paths.swift`).
    public static let repository: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(4)
        return parts.joined(separator: "/")
    }()

    /// `Profiles/<name>.json`.
    public static func profile(_ name: String) -> String { "\(repository)/Profiles/\(name).json" }

    /// Debian's Roboto (fonts-roboto-unhinted) and the fallbacks the text benchmark of
    /// cellbench uses (fonts-droid-fallback, fonts-noto-color-emoji), as `scripts/bootstrap`
    /// installs them.
    public static let roboto = "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf"
    public static let fallbacks = [
        "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
        "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
    ]

    /// A profile loaded from `Profiles/`, or a stop naming the file.
    public static func loadProfile(_ name: String) -> Profile {
        do { return try Profile.load(path: profile(name)) } catch {
            fatalError("cannot load \(profile(name)): \(error)")
        }
    }

    /// Roboto at `size` pt with the CJK and emoji fallbacks.
    public static func textStyle(size: Double) -> TextStyle {
        do { return try TextStyle(fonts: ([roboto] + fallbacks).map { try Font(path: $0) }, size: size) } catch {
            fatalError("cannot load the fonts (scripts/bootstrap installs them): \(error)")
        }
    }
}
