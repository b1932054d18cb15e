// swift-tools-version: 6.1
import PackageDescription

// Uses Tessera the way an app would: as a package dependency, through its public API only.
//
//   cd Tests/Consumer && swift run --scratch-path .build-consumer consumer
let package = Package(
    name: "TesseraConsumer",
    dependencies: [
        // Named, so the product reference does not depend on the clone's directory name.
        .package(name: "Tessera", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "consumer",
            dependencies: [.product(name: "Tessera", package: "Tessera")]
        ),
    ]
)
