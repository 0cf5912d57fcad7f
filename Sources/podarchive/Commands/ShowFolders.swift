// Which show folder a name on the command line means (`list --archived`, `export --show`).
import ArchiverCore
import Foundation

extension CommandContext {
    /// The folder `text` names: a subscription's feed URL (in any spelling) or folder name, a show folder of the
    /// archive root (one no longer subscribed too), or a path (with a `/`). A bare name is never looked for in
    /// the current directory.
    /// - Throws: `ArchiveError.unknownShow`, naming the archive's shows, for a name the archive does not hold.
    func showFolder(_ text: String, root: URL) throws -> URL {
        let archiver = configuredArchiver()
        let shows = archiver.subscriptions(in: root).shows
        if let show = shows.first(where: { $0.feed == text || $0.folder == text }) {
            return root.appendingPathComponent(show.folder, isDirectory: true)
        }
        if ["http://", "https://"].contains(where: text.lowercased().hasPrefix),
            let source = try? FeedSource(text, currentDirectory: environment.currentDirectory),
            let found = try? archiver.subscription(for: source, in: root)
        {
            return root.appendingPathComponent(found.record.folder, isDirectory: true)
        }
        if text.contains("/") || text == "." || text == ".." {
            return URL(fileURLWithPath: absolute(text), isDirectory: true).standardizedFileURL
        }
        let folder = root.appendingPathComponent(text, isDirectory: true)
        guard (try? archiver.archivedEpisodes(in: folder)) != nil else {
            throw ArchiveError.unknownShow(text, known: shows.map(\.folder))
        }
        return folder
    }
}
