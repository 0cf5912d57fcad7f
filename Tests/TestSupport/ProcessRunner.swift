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
        try start(executable, arguments, environment: environment, currentDirectory: currentDirectory, timeout: timeout)
            .wait()
    }

    /// Starts `executable` and returns at once; `wait()` collects its result, `kill()` sends SIGKILL.
    public static func start(
        _ executable: URL, _ arguments: [String], environment: [String: String], currentDirectory: URL? = nil,
        timeout: TimeInterval = 60
    ) throws -> RunningProcess {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment.merging(sanitizerOptions) { given, _ in given }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return RunningProcess(process: process, out: out, err: err, timeout: timeout)
    }

    /// A sanitizer run's options (`make test-asan` turns LeakSanitizer off), passed on to every child: a child
    /// built with the sanitizer reads them too, whatever environment a test gives it.
    static var sanitizerOptions: [String: String] {
        ProcessInfo.processInfo.environment.filter {
            ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS"].contains($0.key)
        }
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

/// A child process started by `ProcessRunner.start`.
public final class RunningProcess: @unchecked Sendable {
    private let process: Process
    private let group = DispatchGroup()
    private let outBox = DataBox()
    private let errBox = DataBox()
    private let watchdog: DispatchWorkItem

    init(process: Process, out: Pipe, err: Pipe, timeout: TimeInterval) {
        self.process = process
        watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        // Drain both pipes as output comes, so a chatty process never blocks on a full pipe.
        for (pipe, box) in [(out, outBox), (err, errBox)] {
            group.enter()
            DispatchQueue.global().async { [group] in
                box.data = pipe.fileHandleForReading.readDataToEndOfFile()
                group.leave()
            }
        }
    }

    public var pid: Int32 { process.processIdentifier }

    /// SIGKILL: the process gets no chance to clean up, as in a power cut or the OOM killer.
    public func kill() {
        _ = sendSignal(process.processIdentifier, SIGKILL)
    }

    /// Sends `signal` (SIGINT as Ctrl-C does, SIGTERM as `systemctl stop` does).
    public func send(_ signal: Int32) {
        _ = sendSignal(process.processIdentifier, signal)
    }

    public func wait() -> ProcessResult {
        group.wait()
        process.waitUntilExit()
        watchdog.cancel()
        let status =
            process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return ProcessResult(
            status: status, stdout: String(decoding: outBox.data, as: UTF8.self),
            stderr: String(decoding: errBox.data, as: UTF8.self))
    }
}

#if canImport(Glibc)
    import Glibc
    private let sendSignal = Glibc.kill
#elseif canImport(Darwin)
    import Darwin
    private let sendSignal = Darwin.kill
#endif

private final class DataBox: @unchecked Sendable {
    var data = Data()
}
