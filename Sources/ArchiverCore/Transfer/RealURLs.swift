// The real URLs of the files whose URL the archive keeps redacted, read from the feed when a command needs them
// (see `Verification.realURLs`).
import Foundation

/// The real URLs of a show's archived files, by index key (episodes) and by file (companions).
struct RealURLs: Sendable {
    var episodes: [String: String] = [:]
    var companions: [String: String] = [:]

    /// `entry` with its real URL and its companions', where the feed gave them.
    func applied(to entry: ArchiveIndex.Entry) -> ArchiveIndex.Entry {
        var entry = entry
        if URLSecrets.carriesRedaction(entry.url), let url = episodes[entry.key] { entry.url = url }
        entry.companions = entry.companions?.map { companion in
            var companion = companion
            if let url = companion.url, URLSecrets.carriesRedaction(url), let real = companions[companion.file] {
                companion.url = real
            }
            return companion
        }
        return entry
    }
}
