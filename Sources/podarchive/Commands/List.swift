// `podarchive list <feed>`: a feed's episodes, as a table or as JSON, without downloading anything.
import ArchiverCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension CommandLineTool {
    func list(_ arguments: ListArguments) async -> ExitCode {
        if arguments.archived { return listArchived(arguments) }
        do {
            let source = try FeedSource(arguments.feed, currentDirectory: environment.currentDirectory)
            let archiver = configuredArchiver()
            // The feed's login and headers as given, over those saved with it when the archive follows it.
            var options = SyncOptions()
            options.netrc = defaultNetrc
            options.give(
                Self.credentials(login: FeedSource.login(in: arguments.feed), headers: arguments.headers, for: source))
            var access = arguments.access
            access.netrcFile = access.netrcFile.map(absolute)
            options = try archiver.access(
                options.applying(access), for: source, in: try? archiveRoot(arguments.archiveDirectory).get())
            let walk = try await archiver.listPages(
                source,
                limits: FeedLimits(
                    maximumBytes: arguments.maximumFeedSize, timeout: arguments.timeout, policy: options.policy),
                allPages: !arguments.firstPage)
            var feed = walk.feed
            feed.episodes = arguments.filter.apply(to: feed.episodes)
            for item in feed.skippedItems { errors.write("podarchive: \(SkippedItemsFormatter.listLine(item))\n") }
            if arguments.json {
                output.write(utf8: ListFormatter.json(feed))
            } else {
                output.write(ListFormatter.table(feed))
            }
            if let cycle = walk.cycle {
                errors.write("podarchive: page <\(cycle)> of the feed is linked twice; the walk stopped there\n")
            }
            if let problem = walk.problem {
                errors.write(
                    "podarchive: page <\(problem.url)> of the feed could not be read: "
                        + "\(SyncFormatter.oneLine(problem.reason)); the episodes above are those read before it\n")
                return .episodesFailed
            }
            return .success
        } catch  where Task.isCancelled {
            errors.write("podarchive: interrupted before the feed was read; nothing listed\n")
            return .interrupted
        } catch {
            return report(error)
        }
    }

    /// `list --archived <show>`: what the index holds, removed-upstream episodes marked; no network.
    private func listArchived(_ arguments: ListArguments) -> ExitCode {
        guard let root = resolveRoot(arguments.archiveDirectory) else { return .usage }
        let archiver = configuredArchiver()
        do {
            let (title, episodes) = try archiver.archivedEpisodes(in: archivedFolder(arguments.feed, root: root))
            if arguments.json {
                output.write(ListFormatter.archivedJSON(title: title, episodes))
            } else {
                output.write(ListFormatter.archivedTable(title: title, episodes))
            }
            return .success
        } catch {
            return report(error)
        }
    }

    /// The folder `text` names: a subscription's feed URL (in any spelling) or folder name, a show folder of the
    /// archive root (one no longer subscribed too), or a path (with a `/`). A bare name is never looked for in
    /// the current directory.
    /// - Throws: `ArchiveError.unknownShow`, naming the archive's shows, for a name the archive does not hold.
    private func archivedFolder(_ text: String, root: URL) throws -> URL {
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
