// Why podarchive's session configurations are copies of one template, made with Foundation's folders pointed
// at /dev/null.
//
// On Linux, making any URLSessionConfiguration creates folders in the user's home, whatever the configuration
// then says (swift-corelibs-foundation, read and measured with Swift 6.3):
// - `.default` fills in the shared stores. `HTTPCookieStorage.shared` makes a folder for its cookie file in
//   `$XDG_DATA_HOME` (`~/.local/share`) named after the folder the binary is in (`bin`, `release`), and
//   `URLCache.shared`, made with no path, makes `$XDG_CACHE_HOME/org.swift.foundation.URLCache/<process>`.
// - `.ephemeral` is a copy of `.default` that then makes a URLCache of its own, again with no path, so again
//   with that folder. Setting `urlCache = nil` afterwards comes too late.
// So the template is made with both XDG folders pointed at /dev/null, where no folder can be made: the shared
// stores and the template's own cache come up with no folder on disk, and every configuration podarchive uses
// is a copy of that template (an in-memory cookie jar, no cache). Nothing else in podarchive makes one.
//
// The podarchive program points the two variables at /dev/null as it starts, before any thread, and leaves them
// so (`pinFoundationFolders`): the template can then be made on any thread, beside the run's own start-up (it
// takes about a millisecond), with no later change to the environment that a thread reading it could race.
// What a child process is given is the environment as the process found it (`environmentAtStart`). A process
// that did not pin them (a test) has them pinned when the template is first made: set once and left, never put
// back (putting back an unset variable shifts the environment under a thread reading it).
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// Makes Foundation's networking come up without creating anything on disk.
public enum SessionTemplate {
    /// The variables Foundation's networking reads to find the folders it makes.
    private static let folderVariables = ["XDG_CACHE_HOME", "XDG_DATA_HOME"]
    /// Their values as the process started, in `folderVariables`' order, once `pinFoundationFolders` changed them
    /// (nil: not pinned). An array, not a dictionary: a dictionary's type is looked up at run time (its keys'
    /// `Hashable`) the first time, and this is made first thing in every process.
    private static let pinned = Locked<[String?]?>(nil)

    /// Points the folders Foundation's networking would make at /dev/null for the rest of the process, so that
    /// the template can be made later on any thread. Call it first thing, before any thread starts (podarchive's
    /// `main` does); later calls do nothing.
    public static func pinFoundationFolders() {
        #if canImport(FoundationNetworking)
            pinned.withLock { pinned in
                guard pinned == nil else { return }
                pinned = folderVariables.map { name in
                    defer { setenv(name, "/dev/null", 1) }
                    return getenv(name).map { String(cString: $0) }
                }
            }
        #endif
    }

    /// The environment as the process found it: `pinFoundationFolders`' changes taken back. What a child process
    /// is given, and what the command line reads.
    public static var environmentAtStart: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in zip(folderVariables, pinned.current ?? []) { environment[name] = value }
        return environment
    }

    /// A configuration of its own: the template's settings, its in-memory cookie jar, no cache on disk.
    static func copy() -> URLSessionConfiguration {
        template.copy() as! URLSessionConfiguration
    }

    /// Made by the first `copy`; in a process that did not pin the folders, it pins them first.
    private static let template: URLSessionConfiguration = {
        pinFoundationFolders()
        return URLSessionConfiguration.ephemeral
    }()
}
