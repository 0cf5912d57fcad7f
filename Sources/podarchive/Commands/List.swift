// `podarchive list <feed>`: a feed's episodes, as a table or as JSON, without downloading anything.
import ArchiverCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension CommandLineTool {
    func list(_ arguments: ListArguments) async -> ExitCode {
        do {
            let source = try FeedSource(arguments.feed, currentDirectory: environment.currentDirectory)
            let walk = try await makeArchiver().listPages(
                source, limits: FeedLimits(maximumBytes: arguments.maximumFeedSize), allPages: !arguments.firstPage)
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
        } catch {
            return report(error)
        }
    }
}
