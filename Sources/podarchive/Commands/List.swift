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
            var feed = try await makeArchiver().list(
                source, limits: FeedLimits(maximumBytes: arguments.maximumFeedSize))
            feed.episodes = arguments.filter.apply(to: feed.episodes)
            if arguments.json {
                output.write(utf8: ListFormatter.json(feed))
            } else {
                output.write(ListFormatter.table(feed))
            }
            return .success
        } catch {
            return report(error)
        }
    }
}
