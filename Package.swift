// swift-tools-version:6.0
// podarchive: a command-line podcast archiver. No dependencies beyond the toolchain.
import PackageDescription

let package = Package(
    name: "podarchive",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "podarchive", targets: ["podarchive"]),
        .library(name: "ArchiverCore", targets: ["ArchiverCore"]),
    ],
    targets: [
        .target(name: "ArchiverCore"),
        .executableTarget(name: "podarchive", dependencies: ["ArchiverCore"]),
        // Loopback HTTP server and fixture helpers shared by both test targets.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "ArchiverCoreTests", dependencies: ["ArchiverCore", "TestSupport"]),
        .testTarget(name: "podarchiveTests", dependencies: ["podarchive", "ArchiverCore", "TestSupport"]),
    ]
)
