// Where the repository's fixtures are, and fresh temporary folders for tests that need real files.
import Foundation

public enum Fixtures {
    /// The repository root, found from this file's path (never a hard-coded absolute path).
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Fixtures/<relative path>`.
    public static func url(_ relativePath: String) -> URL {
        repositoryRoot.appendingPathComponent("Fixtures").appendingPathComponent(relativePath)
    }

    /// The bytes of `Fixtures/<relative path>`; fails loudly when the fixture is missing.
    public static func data(_ relativePath: String) -> Data {
        guard let data = FileManager.default.contents(atPath: url(relativePath).path) else {
            preconditionFailure("missing fixture Fixtures/\(relativePath)")
        }
        return data
    }
}

/// A fresh folder under the system temporary directory, removed by `remove()`.
public struct TemporaryFolder: Sendable {
    public let url: URL

    public init(_ label: String = "test") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("podarchive-\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// The files a user sees: everything but podarchive's own `.podarchive` state folders.
    public func visibleFiles() -> [String] {
        files().filter { !$0.hasPrefix(".podarchive/") && !$0.contains("/.podarchive/") }
    }

    /// Every regular file below the folder, as paths relative to it, sorted.
    public func files() -> [String] {
        let base = url.standardizedFileURL.path
        let enumerator = FileManager.default.enumerator(atPath: base)
        var result: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: base + "/" + path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                result.append(path)
            }
        }
        return result.sorted()
    }
}

/// Points HOME and the XDG folders at a temporary folder for the whole test process, so that nothing a test runs
/// reads or writes the real home (podarchive itself makes no folder there: see `SessionTemplate`). The folder is
/// removed when the process exits.
public enum IsolatedHome {
    public static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("podarchive-home-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: IsolatedHome.folder) }
        setenv("HOME", url.path, 1)
        setenv("XDG_CACHE_HOME", url.appendingPathComponent(".cache").path, 1)
        setenv("XDG_DATA_HOME", url.appendingPathComponent(".local/share").path, 1)
        setenv("XDG_CONFIG_HOME", url.appendingPathComponent(".config").path, 1)
        return url
    }()

    /// Call before creating any URLSession.
    public static func activate() {
        _ = folder
    }
}
