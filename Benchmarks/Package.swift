// swift-tools-version: 6.1
import PackageDescription

// The benchmarks live in their own package so that the core package has no dependency on
// package-benchmark, ordo-one/benchmark (as swift-nio and swift-collections do), and so
// `make test` never builds them. From the repository root:
//
//   make bench              every suite: wall clock, throughput, allocation counts
//   make bench-check        the allocation counts against Thresholds/ (non-zero exit on a change)
//   make bench-thresholds   records the current counts in Thresholds/
//   make bench-arc          retains, releases and objects allocated
//
// or from this directory, e.g.
//
//   swift package --scratch-path .build-pkgbench benchmark list
//   swift package --scratch-path .build-pkgbench benchmark --no-progress --target TextBenchmarks
//
// `MallocInterposer` gives the malloc metrics (mallocCountTotal) on Swift 6.3; CMallocxCounter
// adds Tessera's jemalloc calls, which the interposer does not see (Sources/BenchmarkFixtures/
// Suite.swift describes the metrics).
let package = Package(
    name: "TesseraBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        // Named explicitly so the product reference does not depend on the name of the
        // directory the repository was cloned into.
        .package(name: "Tessera", path: ".."),
        // ordo-one/benchmark was called package-benchmark before; the plugin warns about
        // the old identifier, so the new one is used.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        // Fixtures shared by the suites: deterministic rows, texts and snapshots, paths of
        // the profiles and fonts. Built in each benchmark's setup, outside the measured region.
        .target(
            name: "BenchmarkFixtures",
            dependencies: [
                "CMallocxCounter",
                .product(name: "Tessera", package: "Tessera"),
                .product(name: "Benchmark", package: "benchmark"),
            ]
        ),
        // jemalloc's allocation counts (Debian's libjemalloc-dev, which scripts/bootstrap
        // installs): see Suite.swift.
        .target(
            name: "CMallocxCounter",
            linkerSettings: [.linkedLibrary("jemalloc")]
        ),
        suite("GeometryBenchmarks"),
        suite("WindowBenchmarks"),
        suite("TextBenchmarks"),
        suite("CellBenchmarks"),
        suite("DiffBenchmarks"),
    ]
)

/// One benchmark executable under `Benchmarks/<name>`.
func suite(_ name: String) -> Target {
    .executableTarget(
        name: name,
        dependencies: [
            "BenchmarkFixtures",
            .product(name: "Tessera", package: "Tessera"),
            .product(name: "Benchmark", package: "benchmark"),
        ],
        path: "Benchmarks/\(name)",
        plugins: [
            .plugin(name: "BenchmarkPlugin", package: "benchmark"),
        ]
    )
}
