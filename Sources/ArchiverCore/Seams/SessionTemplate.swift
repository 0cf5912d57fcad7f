// Why podarchive's session configurations are copies of one made at start-up.
//
// On Linux, making any URLSessionConfiguration creates folders in the user's home, whatever the configuration
// then says (swift-corelibs-foundation, read and measured with Swift 6.3):
// - `.default` fills in the shared stores. `HTTPCookieStorage.shared` makes a folder for its cookie file in
//   `$XDG_DATA_HOME` (`~/.local/share`) named after the folder the binary is in (`bin`, `release`), and
//   `URLCache.shared`, made with no path, makes `$XDG_CACHE_HOME/org.swift.foundation.URLCache/<process>`.
// - `.ephemeral` is a copy of `.default` that then makes a URLCache of its own, again with no path, so again
//   with that folder. Setting `urlCache = nil` afterwards comes too late.
// So the first configuration is made with both XDG folders pointed at /dev/null, where no folder can be made:
// the shared stores and the template's own cache come up with no folder on disk, and every configuration
// podarchive uses is a copy of that template (an in-memory cookie jar, no cache). Nothing else in podarchive
// makes a configuration.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// Makes Foundation's networking come up without creating anything on disk.
public enum SessionTemplate {
    /// Makes the template now. Idempotent; the first call changes two environment variables for a moment, so a
    /// program makes it first thing, before it starts threads (podarchive's `main` does). Later calls do nothing.
    public static func prepare() {
        _ = template
    }

    /// A configuration of its own: the template's settings, its in-memory cookie jar, no cache on disk.
    static func copy() -> URLSessionConfiguration {
        template.copy() as! URLSessionConfiguration
    }

    private static let template: URLSessionConfiguration = {
        #if canImport(FoundationNetworking)
            let names = ["XDG_CACHE_HOME", "XDG_DATA_HOME"]
            let saved = names.map { name in getenv(name).map { String(cString: $0) } }
            for name in names { setenv(name, "/dev/null", 1) }
            defer {
                for (name, value) in zip(names, saved) {
                    if let value { setenv(name, value, 1) } else { unsetenv(name) }
                }
            }
        #endif
        return URLSessionConfiguration.ephemeral
    }()
}
