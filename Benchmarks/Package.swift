// swift-tools-version: 6.1
import PackageDescription

// The benchmarks live in their own package so that the core package has no dependency on
// package-benchmark, ordo-one/benchmark (as swift-nio and swift-collections do). Run from this directory:
//
//   swift package --scratch-path .build-pkgbench benchmark list
//   swift package --scratch-path .build-pkgbench benchmark --target GeometryBenchmarks
//
// `MallocInterposer` gives the malloc metrics (mallocCountTotal) on Swift 6.3.
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
        .executableTarget(
            name: "GeometryBenchmarks",
            dependencies: [
                .product(name: "Tessera", package: "Tessera"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/GeometryBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
    ]
)
