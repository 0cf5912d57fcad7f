// Which show folder a name on the command line means (`list --archived`, `forget`, `export --show`).
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

    /// The show of the archive at `root` that `text` names, for a command that reads it to publish it elsewhere
    /// (`export --show`): a subscription's feed URL or folder name, a show folder of the root, or a show's title;
    /// a path only when it is (links resolved) one of the root's show folders, never a folder outside the root.
    /// - Throws: `ArchiveError.unknownShow`, naming the archive's shows, for anything else.
    func archivedShowFolder(_ text: String, root: URL) throws -> URL {
        let known = configuredArchiver().subscriptions(in: root).shows.map(\.folder)
        let isURL = ["http://", "https://"].contains(where: text.lowercased().hasPrefix)
        let isPath = (text.contains("/") || text == "." || text == "..") && !isURL
        if isPath {
            // Only a folder directly under the root that holds a show, whatever spelling or link leads to it.
            let resolved = URL(fileURLWithPath: absolute(text)).resolvingSymlinksInPath()
            let home = root.resolvingSymlinksInPath()
            guard resolved.deletingLastPathComponent().path == home.path,
                (try? configuredArchiver().archivedEpisodes(in: resolved)) != nil
            else { throw ArchiveError.unknownShow(text, known: known) }
            return root.appendingPathComponent(resolved.lastPathComponent, isDirectory: true)
        }
        return try showFolderOrTitle(text, root: root)
    }

    /// `showFolder`, else the one show folder of the root whose show has the title `text`.
    func showFolderOrTitle(_ text: String, root: URL) throws -> URL {
        do {
            return try showFolder(text, root: root)
        } catch ArchiveError.unknownShow(let name, let known) {
            let archiver = configuredArchiver()
            let titled = known.map { root.appendingPathComponent($0, isDirectory: true) }.filter {
                (try? archiver.archivedEpisodes(in: $0).title) == text
            }
            guard titled.count == 1 else { throw ArchiveError.unknownShow(name, known: known) }
            return titled[0]
        }
    }
}
