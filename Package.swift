// swift-tools-version: 6.1
import PackageDescription

// Invariant checks (`_checkInvariants()`) are compiled into debug builds only, as
// swift-collections does with COLLECTIONS_INTERNAL_CHECKS; release builds carry none.
let invariants: [SwiftSetting] = [.define("TESSERA_INVARIANTS", .when(configuration: .debug))]

let package = Package(
    name: "Tessera",
    products: [
        .library(name: "Tessera", targets: ["Tessera"]),
        .executable(name: "cellbench", targets: ["cellbench"]),
        // The C ABI (Sources/CTessera/include/tessera.h) as libtessera.so.
        .library(name: "tessera", type: .dynamic, targets: ["TesseraC", "CTesseraAllocator"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CJemalloc",
            pkgConfig: "jemalloc",
            providers: [.apt(["libjemalloc-dev"])]
        ),
        .target(
            name: "Tessera",
            dependencies: ["CJemalloc"],
            swiftSettings: invariants,
            linkerSettings: [.linkedLibrary("m")]  // rounding calls into libm
        ),
        // tessera.h, the one C header; the target's C file checks it compiles as C.
        .target(name: "CTessera"),
        // The C ABI implemented in Swift (`@c @implementation` against tessera.h).
        .target(
            name: "TesseraC",
            dependencies: ["Tessera", "CTessera"]
        ),
        // libtessera.so's allocator: jemalloc's calls on the host's malloc, hidden
        // (Sources/CTesseraAllocator/allocator.c says why). In the dynamic product only.
        .target(name: "CTesseraAllocator"),
        // The C ABI's speed against the Swift API's in one run (`make c-bench`).
        .executableTarget(
            name: "cabi-bench",
            dependencies: ["Tessera", "TesseraC", "CTessera"]
        ),
        .executableTarget(
            name: "cellbench",
            dependencies: [
                "Tessera",
                "CJemalloc",  // allocation counts (jemalloc statistics)
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The diff suite's generators, verification and targets (cellbench is an
        // executable; its module is testable).
        .testTarget(
            name: "CellbenchTests",
            dependencies: ["cellbench", "Tessera"]
        ),
        .testTarget(
            name: "TesseraTests",
            dependencies: ["Tessera"],
            swiftSettings: invariants
        ),
    ]
)
