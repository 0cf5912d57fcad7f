// `podarchive list <feed>`: a feed's episodes, as a table or as JSON, without downloading anything.
import ArchiverCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct ListCommand: CommandType {
    static let info = CommandInfo(
        name: "list", about: "show a feed's episodes without downloading anything",
        operands: "<feed>", completion: .file, fetches: true,
        discussion: """
            Prints the episodes of <feed> in document order without downloading anything, then those of the
            further pages and archive documents it links to (rel="next", rel="prev-archive", JSON Feed's next_url,
            on the feed's own host), each episode once. A page that cannot be read is named on standard error and
            the exit code is 1. With --archived, <feed> names a show of the archive instead (its folder, or a
            subscription's feed URL or folder name) and what the archive holds of it is listed, without network:
            episodes the feed no longer lists are marked as removed upstream.
            """,
        exitCodes: [.success, .episodesFailed, .usage, .feedFailed, .archiveFailed, .interrupted],
        exitMeanings: [
            .success: "every page of the feed listed",
            .episodesFailed: "a page the feed links to could not be read (named on standard error)",
        ], severalFeeds: true)

    static let options: [BoundOption<Arguments>] =
        [SourceOptions.archiveDirectory.at(\.archiveDirectory)] + SettingOptions.filters() + [
            OutputOptions.json.at(\.json),
            OutputOptions.archived.at(\.archived),
            OutputOptions.firstPage.at(\.firstPage),
            TransferOptions.maximumFeedSize.at(\.maximumFeedSize),
            TransferOptions.timeout.at(\.timeout),
            AccessOptions.headers.appending(\.headers),
            AccessOptions.netrcFile.setting(),
            AccessOptions.userAgent.setting(),
        ]

    struct Arguments: CarriesShowSettings {
        var feed = ""
        var json = false
        var maximumFeedSize = FeedLimits.defaultMaximumBytes
        /// Only the document itself, not the pages it links to (`--first-page`).
        var firstPage = false
        /// What the archive holds of the show instead (`--archived`), and the archive root (`--to`).
        var archived = false
        var archiveDirectory: String? = nil
        /// `--header`.
        var headers: [String] = []
        /// The filter (`--limit`, `--since`, `--match`) and the access (`--user-agent`, `--netrc-file`) given.
        var given = ShowSettings()
        /// `--timeout`: how long the feed, and each page it links to, may take to arrive.
        var timeout = TransferSettings().timeout
        /// The access settings the configuration file gives, under those saved with the show.
        var configured = ShowSettings()
    }

    static func take(_ operands: [String], into arguments: inout Arguments) throws(UsageError) {
        arguments.feed = try Operands.one(operands, "feed URL or file", command: info.name)
    }

    let context: CommandContext
    let arguments: Arguments

    func run() async -> ExitCode {
        if arguments.archived { return listArchived(arguments) }
        var request = ListRequest(
            feed: arguments.feed, settings: context.settings(given: arguments.given, configured: arguments.configured))
        request.root = try? context.archiveRoot(arguments.archiveDirectory).get()
        request.headers = arguments.headers
        request.maximumFeedSize = arguments.maximumFeedSize
        request.timeout = arguments.timeout
        request.firstPage = arguments.firstPage
        let outcome = await context.configuredArchiver().commands.list(request)
        switch outcome.result {
        case .success(let listing):
            // What a private feed supplies is listed as its taint says (see `Taint`).
            await listing.taint.run { say(listing.walk) }
        case .failure where outcome.status == .interrupted:
            context.errors.write("podarchive: interrupted before the feed was read; nothing listed\n")
        case .failure(let error):
            context.say(error)
        }
        return outcome.status
    }

    /// The feed's episodes, and what stopped the walk of its pages.
    private func say(_ walk: PageWalk) {
        let feed = walk.feed
        for item in feed.skippedItems {
            context.errors.write("podarchive: \(SkippedItemsFormatter.listLine(item))\n")
        }
        if arguments.json {
            context.output.write(utf8: ListFormatter.json(feed))
        } else {
            context.output.write(ListFormatter.table(feed))
        }
        if let cycle = walk.cycle {
            context.errors.write(
                "podarchive: page <\(cycle)> of the feed is linked twice; the walk stopped there\n")
        }
        if let problem = walk.problem {
            context.errors.write(
                "podarchive: page <\(problem.url)> of the feed could not be read: "
                    + "\(SyncFormatter.oneLine(problem.reason)); the episodes above are those read before it\n")
        }
    }

    /// `list --archived <show>`: what the index holds, removed-upstream episodes marked; no network.
    private func listArchived(_ arguments: ListCommand.Arguments) -> ExitCode {
        guard let root = context.resolveRoot(arguments.archiveDirectory) else { return .usage }
        let archiver = context.configuredArchiver()
        do {
            let (title, episodes) = try archiver.archivedEpisodes(
                in: archiver.commands.showFolder(
                    arguments.feed, in: root, currentDirectory: context.environment.currentDirectory))
            if arguments.json {
                context.output.write(ListFormatter.archivedJSON(title: title, episodes))
            } else {
                context.output.write(ListFormatter.archivedTable(title: title, episodes))
            }
            return .success
        } catch {
            return context.report(error)
        }
    }
}
