// `podarchive add <feed>... [settings]`: subscribe without downloading; the settings and credentials given are
// saved with each show, kept in the archive itself (its secrets in the configuration folder).
import ArchiverCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct AddCommand: CommandType {
    static let info = CommandInfo(
        name: "add", about: "subscribe to feeds (with their settings) without downloading",
        operands: "<feed>...", completion: .file, repeats: true,
        fetches: true,
        discussion: """
            Subscribes <DIR> to each <feed> without downloading anything: the feed is fetched and read, its folder
            chosen and created, and the settings given saved with it, merged into any saved before as sync merges them
            (each one given replaces its saved value, the others stay; `--clear` <NAME> forgets one). 'podarchive sync'
            with no feed then syncs it. A feed that cannot be read is not subscribed (exit 3); the others are.

            <feed> may also be the show's web page or its Apple Podcasts link (sync takes them too). An address is read
            as a feed first, and followed as a page (told from its bytes, not its URL) only when it sends no feed: to
            the feed its head links to (<link rel="alternate">; of several, the first that reads as a feed with at least
            one episode; `--verbose` lists the others). An Apple Podcasts link
            (`https://podcasts.apple.com/`<country>`/podcast/`<slug>`/id`<N>, or an episode's, with `?i=`) is looked up
            with the iTunes lookup API and its `feedUrl` followed the same way. The feed is what is subscribed. A page
            is never sent the login or headers given with it: an address given with a login or `--header` is read first
            without them, and they bind to the feed's origin, never the page's. A page that links to no feed, or a link
            the directory cannot resolve, is one line naming it, exit 3.
            """,
        exitCodes: [.success, .usage, .feedFailed, .archiveFailed],
        exitMeanings: [
            .success: "every feed subscribed",
            .feedFailed: "a feed could not be fetched or read (it is not subscribed; the others are)",
        ], severalFeeds: true)

    static let options: [BoundOption<Arguments>] =
        [SourceOptions.separate.at(\.separate), SourceOptions.archiveDirectory.at(\.archiveDirectory)]
        + SettingOptions.saved() + [
            AlternateOptions.prefer.setting(),
            OutputOptions.verbose.at(\.verbose),
            TransferOptions.timeout.at(\.timeout),
            AccessOptions.headers.appending(\.headers),
            AccessOptions.netrcFile.setting(),
            AccessOptions.userAgent.setting(),
        ]

    struct Arguments: CarriesShowSettings {
        var feeds: [String] = []
        var archiveDirectory: String? = nil
        /// The show settings given: merged into those saved with each feed.
        var given = ShowSettings()
        var headers: [String] = []
        /// `--timeout`: how long each feed may take to arrive.
        var timeout = TransferSettings().timeout
        /// `--verbose`: also list the other feeds a show's web page links to.
        var verbose = false
        /// The show settings the configuration file gives: used to read the feeds, never saved.
        var configured = ShowSettings()
        /// `--separate`: each feed kept apart from a show it shares a title or episodes with.
        var separate = false
    }

    static func take(_ operands: [String], into arguments: inout Arguments) throws(UsageError) {
        arguments.feeds = try Operands.some(operands, "feed URL or file", command: info.name)
    }

    let context: CommandContext
    let arguments: Arguments

    /// Subscribes each feed without downloading: exit 3 for a feed that cannot be read (nothing saved for it).
    func run() async -> ExitCode {
        guard let root = context.resolveRoot(arguments.archiveDirectory) else { return .usage }
        var request = AddRequest(
            root: root, feeds: arguments.feeds,
            settings: context.settings(given: arguments.given, configured: arguments.configured))
        request.headers = arguments.headers
        request.timeout = arguments.timeout
        request.separate = arguments.separate
        request.directory = PodcastDirectory.from(environment: context.environment.variables)
        let console = SyncRunConsole(
            context: context, root: root, verbosity: .normal, json: false, feedJobs: 1, verbose: arguments.verbose)
        return await context.configuredArchiver().commands.add(request, onEvent: console.handle).status
    }
}
