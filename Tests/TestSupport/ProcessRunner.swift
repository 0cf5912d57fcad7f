// Runs the built podarchive binary (or any program) as a user would, capturing its output and exit code.
import Foundation

public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

public enum ProcessRunner {
    /// The folder SwiftPM built the products into (where the test bundle itself lives).
    public static var productsDirectory: URL {
        #if os(macOS)
            for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
                return bundle.bundleURL.deletingLastPathComponent()
            }
            fatalError("no .xctest bundle found")
        #else
            return Bundle.main.bundleURL
        #endif
    }

    /// The built `podarchive` executable.
    public static var podarchive: URL { productsDirectory.appendingPathComponent("podarchive") }

    /// Runs `executable` with `arguments`, killing it if it runs past `timeout` seconds.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String], currentDirectory: URL? = nil,
        timeout: TimeInterval = 60
    ) throws -> ProcessResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        // Read both pipes before waiting so a chatty process never blocks on a full pipe.
        let group = DispatchGroup()
        let outBox = DataBox()
        let errBox = DataBox()
        for (pipe, box) in [(out, outBox), (err, errBox)] {
            group.enter()
            DispatchQueue.global().async {
                box.data = pipe.fileHandleForReading.readDataToEndOfFile()
                group.leave()
            }
        }
        group.wait()
        process.waitUntilExit()
        watchdog.cancel()
        return ProcessResult(
            status: process.terminationStatus, stdout: String(decoding: outBox.data, as: UTF8.self),
            stderr: String(decoding: errBox.data, as: UTF8.self))
    }

    /// The environment for a child podarchive: isolated HOME and caches, nothing from the developer's shell.
    public static func isolatedEnvironment(home: URL, extra: [String: String] = [:]) -> [String: String] {
        var environment = [
            "HOME": home.path, "XDG_CACHE_HOME": home.path + "/.cache", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
        ]
        if let tmp = ProcessInfo.processInfo.environment["TMPDIR"] { environment["TMPDIR"] = tmp }
        environment.merge(extra) { _, new in new }
        return environment
    }
}

private final class DataBox: @unchecked Sendable {
    var data = Data()
}
