// Which show folder of an archive a name on the command line means (`list --archived`, `forget`, `export --show`):
// a subscription's feed URL (in any spelling) or folder name, a show folder of the root (one no longer subscribed
// too), a show's title, or a path. A bare name is never looked for in the current directory.
import Foundation

/// Finds the show folder a name means.
struct ShowFinder: Sendable {
    let engine: any SyncEngine
    let root: URL
    /// Where a relative path given starts.
    let currentDirectory: String

    /// The folder `text` names: a subscription's feed URL or folder name, a show folder of the root, or a path
    /// (with a `/`).
    /// - Throws: `ArchiveError.unknownShow`, naming the archive's shows, for a name the archive does not hold.
    func folder(_ text: String) throws -> URL {
        let shows = engine.subscriptions(in: root).shows
        if let show = shows.first(where: { $0.feed == text || $0.folder == text }) {
            return root.appendingPathComponent(show.folder, isDirectory: true)
        }
        if Self.isURL(text), let source = try? FeedSource(text, currentDirectory: currentDirectory),
            let found = try? engine.subscription(for: source, in: root)
        {
            return root.appendingPathComponent(found.record.folder, isDirectory: true)
        }
        if Self.isPath(text) {
            return URL(fileURLWithPath: absolute(text), isDirectory: true).standardizedFileURL
        }
        let folder = root.appendingPathComponent(text, isDirectory: true)
        guard (try? engine.archivedEpisodes(in: folder)) != nil else {
            throw ArchiveError.unknownShow(text, known: shows.map(\.folder))
        }
        return folder
    }

    /// The saved settings of the subscription `text` names (its folder name, or its feed in any spelling: a URL or
    /// a local file), nil when it saved none.
    /// - Throws: `ArchiveError.unknownShow`, naming the archive's shows.
    func savedSettings(_ text: String) throws -> ShowSettings? {
        let shows = engine.subscriptions(in: root).shows
        if let show = shows.first(where: { $0.folder == text || $0.feed == text }) { return show.settings }
        if let source = try? FeedSource(text, currentDirectory: currentDirectory),
            let found = try? engine.subscription(for: source, in: root)
        {
            return found.record.settings
        }
        throw ArchiveError.unknownShow(text, known: shows.map(\.folder))
    }

    /// `folder`, else the one show folder of the root whose show has the title `text`.
    func folderOrTitle(_ text: String) throws -> URL {
        do {
            return try folder(text)
        } catch ArchiveError.unknownShow(let name, let known) {
            let titled = known.map { root.appendingPathComponent($0, isDirectory: true) }.filter {
                (try? engine.archivedEpisodes(in: $0).title) == text
            }
            guard titled.count == 1 else { throw ArchiveError.unknownShow(name, known: known) }
            return titled[0]
        }
    }

    /// The show `text` names, for a command that reads it to publish it elsewhere (`export --show`): as
    /// `folderOrTitle`, but a path only when it is (links resolved) one of the root's show folders, never a
    /// folder outside the root.
    func archivedFolder(_ text: String) throws -> URL {
        guard Self.isPath(text) else { return try folderOrTitle(text) }
        let known = engine.subscriptions(in: root).shows.map(\.folder)
        // Only a folder directly under the root that holds a show, whatever spelling or link leads to it.
        let resolved = URL(fileURLWithPath: absolute(text)).resolvingSymlinksInPath()
        guard resolved.deletingLastPathComponent().path == root.resolvingSymlinksInPath().path,
            (try? engine.archivedEpisodes(in: resolved)) != nil
        else { throw ArchiveError.unknownShow(text, known: known) }
        return root.appendingPathComponent(resolved.lastPathComponent, isDirectory: true)
    }

    private static func isURL(_ text: String) -> Bool {
        ["http://", "https://"].contains(where: text.lowercased().hasPrefix)
    }

    private static func isPath(_ text: String) -> Bool {
        (text.contains("/") || text == "." || text == "..") && !isURL(text)
    }

    private func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : currentDirectory + "/" + path
    }
}

extension ArchiveCommands {
    /// The show folder of `root` that `text` names: a subscription's feed URL (any spelling) or folder name, a
    /// show folder of the root (one no longer subscribed too), or a path (with a `/`, from `currentDirectory`);
    /// with `byTitle`, else the one show whose title is `text`.
    /// - Throws: `ArchiveError.unknownShow`, naming the archive's shows.
    public func showFolder(_ text: String, in root: URL, currentDirectory: String, byTitle: Bool = false) throws
        -> URL
    {
        let finder = ShowFinder(engine: archiver, root: root, currentDirectory: currentDirectory)
        return try byTitle ? finder.folderOrTitle(text) : finder.folder(text)
    }

    /// The settings saved with the show `text` names (`config SHOW`: its folder name or feed); nil for none.
    public func savedSettings(ofShow text: String, in root: URL, currentDirectory: String) throws -> ShowSettings? {
        try ShowFinder(engine: archiver, root: root, currentDirectory: currentDirectory).savedSettings(text)
    }
}
