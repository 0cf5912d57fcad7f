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
        // A subscription's feed URL or folder name, else a folder path.
        let shows = archiver.subscriptions(in: root).shows
        let folder: URL
        if let show = shows.first(where: { $0.feed == arguments.feed || $0.folder == arguments.feed }) {
            folder = root.appendingPathComponent(show.folder, isDirectory: true)
        } else {
            folder = URL(fileURLWithPath: absolute(arguments.feed), isDirectory: true).standardizedFileURL
        }
        do {
            let (title, episodes) = try archiver.archivedEpisodes(in: folder)
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
}
