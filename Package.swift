// swift-tools-version:6.0
// podarchive: a command-line podcast archiver. No dependencies beyond the toolchain.
import Foundation
import PackageDescription

// CCurlSockets defines four of libcurl's functions so that FoundationNetworking's calls reach it first. Linked
// statically (the release build), Foundation binds to them at link time; linked dynamically (debug builds, tests), it
// asks the loader for libcurl's versioned symbols, which bind to a program's own definitions only when exported.
let exportsCurlSockets: [LinkerSetting] = [
    .unsafeFlags(
        ["curl_multi_setopt", "curl_multi_cleanup", "curl_multi_socket_action", "curl_easy_setopt"].flatMap {
            ["-Xlinker", "--export-dynamic-symbol=\($0)"]
        }, .when(platforms: [.linux]))
]

// The crash tests' fault injection (`Archiver.injectingFaults`, `DurableFileWriter`'s hooks, the executable's
// PODARCHIVE_TEST_CRASH switch) is compiled in only under PODARCHIVE_TEST_HOOKS: always in debug builds, and in an
// optimised build only when the environment sets PODARCHIVE_TEST_HOOKS (`make test-release` does). `make release`
// and `make install` never set it, and build in a folder of their own, so the shipped binary holds none of it.
let testHooks: [SwiftSetting] = [
    ProcessInfo.processInfo.environment["PODARCHIVE_TEST_HOOKS"].map { !$0.isEmpty } == true
        ? .define("PODARCHIVE_TEST_HOOKS") : .define("PODARCHIVE_TEST_HOOKS", .when(configuration: .debug))
]

let package = Package(
    name: "podarchive",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "podarchive", targets: ["podarchive"]),
        .library(name: "ArchiverCore", targets: ["ArchiverCore"]),
        // Test doubles for code that embeds ArchiverCore: a fake file system, spies, stubs, a clock.
        .library(name: "ArchiverCoreTesting", targets: ["ArchiverCoreTesting"]),
    ],
    targets: [
        // SHA-256 compression with the x86 SHA instructions, used by ArchiverCore.SHA256 when the CPU has them.
        .target(name: "CSHA256"),
        // sync_file_range(2), which Swift's Glibc module leaves out: starts writing a download to disk early.
        .target(name: "CWriteback"),
        // Linux: corrects how FoundationNetworking watches libcurl's sockets (it never stops watching a connected
        // socket for writing, so a transfer waiting for data kept a core busy), and turns libcurl's body decoding
        // off (podarchive inflates and checks compressed bodies itself). Linked into every URLSession user.
        .target(name: "CCurlSockets"),
        // The system's zlib, for the gzip-compressed feed history (not a package: every Linux and macOS has it).
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .target(
            name: "ArchiverCore", dependencies: ["CCurlSockets", "CSHA256", "CWriteback", "CZlib"],
            swiftSettings: testHooks),
        // Built without XCTest, so it ships: doubles report an unscripted call through a hook the test gives.
        .target(name: "ArchiverCoreTesting", dependencies: ["ArchiverCore"]),
        .executableTarget(
            name: "podarchive", dependencies: ["ArchiverCore"],
            // Installed by `make install`, not built: the man page and the systemd units.
            exclude: ["Systemd"], swiftSettings: testHooks, linkerSettings: exportsCurlSockets),
        // Reference passes for `make bench`: bare XMLParser and JSONSerialization reads, SHA-256 throughput.
        .executableTarget(
            name: "podarchive-bench", dependencies: ["ArchiverCore", "CCurlSockets"], linkerSettings: exportsCurlSockets
        ),
        // Loopback HTTP server and fixture helpers shared by both test targets.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "ArchiverCoreTests",
            dependencies: ["ArchiverCore", "ArchiverCoreTesting", "CCurlSockets", "TestSupport"],
            swiftSettings: testHooks, linkerSettings: exportsCurlSockets),
        .testTarget(
            name: "podarchiveTests",
            dependencies: ["podarchive", "ArchiverCore", "ArchiverCoreTesting", "TestSupport"],
            swiftSettings: testHooks, linkerSettings: exportsCurlSockets),
        // The README's embedding example, built with plain imports as an outside package builds it.
        .testTarget(name: "EmbeddingTests", dependencies: ["ArchiverCore", "ArchiverCoreTesting"]),
    ]
)

// The libFuzzer target has no main() of its own (libFuzzer supplies it), so it only links when built with
// -sanitize=fuzzer: `make fuzz` sets PODARCHIVE_FUZZ=1 to add it.
if ProcessInfo.processInfo.environment["PODARCHIVE_FUZZ"] != nil {
    package.targets += [
        .target(name: "FeedFuzzerMain"),
        .executableTarget(name: "FeedFuzzer", dependencies: ["ArchiverCore", "FeedFuzzerMain"]),
    ]
}
