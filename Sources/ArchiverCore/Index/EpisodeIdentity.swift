// Recognising an episode across feed churn: a new tracking query on its URL, a missing or regenerated GUID,
// a corrected title. Other archivers re-download in all three cases.
import Foundation

enum EpisodeIdentity {
    /// The enclosure URL without what changes for the same file: the query and fragment are dropped when the path
    /// names a media file (`/ep1.mp3?token=...`), and kept when the path is a script (`/get.php?id=3`), where
    /// the query is what tells episodes apart. Scheme and host are lowercased.
    static func urlKey(_ url: String) -> String {
        // Compared as kept: a token's value is never part of the key (see `SecretForms`).
        let url = URLSecrets.redacted(url)
        guard var components = URLComponents(string: url) else { return url }
        components.scheme = components.scheme?.lowercased()
        components.host = components.host?.lowercased()
        components.fragment = nil
        let last = components.path.split(separator: "/").last.map(String.init) ?? ""
        if let dot = last.lastIndex(of: "."),
            !MediaTypes.scriptExtensions.contains(last[last.index(after: dot)...].lowercased())
        {
            components.query = nil
        }
        return components.string ?? url
    }
}
