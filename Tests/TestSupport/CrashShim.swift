// A crash at every file effect of a podarchive process: a small library preloaded into the built binary that counts
// each call changing a file under a folder (writes, syncs, renames, links, unlinks, dates and extended attributes set;
// across all threads, in the order they happen) and kills the process with SIGKILL just before the one numbered
// `PODARCHIVE_SHIM_KILL_AT`. The crash matrix (Tests/CrashMatrix) preloads the same library. Running a command with 1, 2, 3... until it completes kills it once at each point, the
// last effect included (strace's `inject` counts per thread, so a multi-threaded binary would skip points). Only a
// process named `podarchive` counts: a hook it runs inherits the variables and is left alone. Built with the
// system's C compiler on first use from Fixtures/crash-shim/crash-shim.c; a machine without one skips the tests.
import Foundation

/// The preloaded crash library (see the file's opening comment).
public enum CrashShim {
    /// The library, built once per test process; nil (with why) when it cannot be.
    public static let library: Result<URL, CrashShimUnavailable> = build()

    /// The environment that preloads the library into a podarchive, killed before its `killAt`-th effect under
    /// `folder` (nil: counted, never killed).
    public static func environment(_ library: URL, under folder: URL, killAt: Int?) -> [String: String] {
        var variables = [
            "LD_PRELOAD": library.path,
            "PODARCHIVE_SHIM_UNDER": folder.resolvingSymlinksInPath().path + "/",
        ]
        if let killAt { variables["PODARCHIVE_SHIM_KILL_AT"] = String(killAt) }
        return variables
    }

    /// Runs the built podarchive with `arguments`, its home and current folder `home` (`extra` added to its isolated
    /// environment), killed before its `killAt`-th effect under `folder` when `killAt` is given.
    public static func podarchive(
        _ arguments: [String], home: URL, library: URL, under folder: URL, killAt: Int?, extra: [String: String] = [:]
    ) throws -> ProcessResult {
        var variables = extra
        if let killAt { variables.merge(environment(library, under: folder, killAt: killAt)) { $1 } }
        return try ProcessRunner.run(
            ProcessRunner.podarchive, arguments,
            environment: ProcessRunner.isolatedEnvironment(home: home, extra: variables), currentDirectory: home)
    }

    /// Why `binary` cannot be crashed through the library, if it cannot: a sanitizer's runtime, linked into the
    /// executable, defines the same functions, and the executable's come before a preloaded library's.
    public static func refusal(of binary: URL) -> String? {
        guard let bytes = FileManager.default.contents(atPath: binary.path) else { return "\(binary.path) unreadable" }
        for marker in ["__tsan_init", "__asan_init"] where bytes.range(of: Data(marker.utf8)) != nil {
            return "\(binary.lastPathComponent) is built with a sanitizer (\(marker)): its interceptors come first"
        }
        return nil
    }

    private static func build() -> Result<URL, CrashShimUnavailable> {
        // The system's compiler, else the Swift toolchain's own clang (on the PATH the tests run with).
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        let compilers = ["/usr/bin/cc", "/usr/bin/clang", "/usr/bin/gcc"] + path.map { $0 + "/clang" }
        guard let compiler = compilers.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return .failure(CrashShimUnavailable(reason: "no C compiler at \(compilers)"))
        }
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("podarchive-crash-shim-\(UUID().uuidString)", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let source = Fixtures.url("crash-shim/crash-shim.c")
            let library = folder.appendingPathComponent("crash-shim.so")
            let built = try ProcessRunner.run(
                URL(fileURLWithPath: compiler), ["-shared", "-fPIC", "-O1", "-o", library.path, source.path, "-ldl"],
                environment: ["PATH": "/usr/bin:/bin"])
            guard built.status == 0 else {
                return .failure(CrashShimUnavailable(reason: "\(compiler) failed: \(built.stderr)"))
            }
            return .success(library)
        } catch {
            return .failure(CrashShimUnavailable(reason: "\(error)"))
        }
    }
}

/// Why the crash library cannot be built here.
public struct CrashShimUnavailable: Error, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}
