// `podarchive sync`: the feeds named (and listed), or every subscription; several shows at once, each with its
// saved settings under the command line's; the exit code is the worst outcome. Which shows, which settings and
// which outcome wins are ArchiverCore's (`Archiver.sync(_:onEvent:)`); this parses and says them.
import ArchiverCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct SyncCommand: CommandType {
    static let info = CommandInfo(
        name: "sync", about: "download every episode not yet archived (of the feeds named, or of every subscription)",
        operands: "[<feed>...]", completion: .file, repeats: true,
        fetches: true,
        discussion: SyncCommand.intro,
        afterOptions: """
            Each episode is streamed to a hidden file in `<feed folder>/.podarchive/` and renamed into place only after
            it is complete and checked (HTTP 2xx, Content-Length matched, not an HTML page); its SHA-256 is computed as
            it streams. Existing files are never overwritten. A full disk or unwritable folder stops the run (exit 5)
            with the index intact.

            On a terminal, each running download (bytes, percent, rate, time left) and the feed's "N of M" are shown
            below the lines and redrawn in place; not on a terminal, or with TERM=dumb, there is no progress and no
            escape code. NO_COLOR turns colours off.

            File dates: each file's modification date is set to the episode's publication date. On macOS its creation
            date is set too; on Linux the creation (birth) time cannot be set and stays the download time. An episode
            without a date keeps the download time.
            """,
        exitCodes: [
            .success, .episodesFailed, .usage, .feedFailed, .locked, .archiveFailed, .interrupted, .terminated,
        ],
        exitMeanings: [.usage: "usage error (also: a feed list that cannot be read)"], severalFeeds: true)

    static let options: [BoundOption<Arguments>] =
        [
            SourceOptions.opmlFile.at(\.opml), SourceOptions.feedList.at(\.feedList),
            SourceOptions.archiveDirectory.at(\.archiveDirectory),
        ] + SettingOptions.saved() + OffloadOptions.bound() + [
            AlternateOptions.prefer.setting(),
            OutputOptions.dryRun.at(\.dryRun),
            OutputOptions.quiet.at(\.quiet),
            OutputOptions.verbose.at(\.verbose),
            OutputOptions.json.at(\.json),
            OutputOptions.retryGone.at(\.retryGone),
            TransferOptions.maximumFeedSize.at(\.maximumFeedSize),
            TransferOptions.jobs.at(\.transfer.jobs),
            TransferOptions.feedJobs.at(\.feedJobs),
            TransferOptions.shard.at(\.shard),
            TransferOptions.retries.at(\.transfer.retries),
            TransferOptions.timeout.at(\.transfer.timeout),
            TransferOptions.wait.at(\.transfer.wait),
            AccessOptions.headers.appending(\.headers),
            AccessOptions.netrcFile.setting(),
            AccessOptions.userAgent.setting(),
            AccessOptions.limitRate.at(\.transfer.limitRate),
            AccessOptions.site.at(\.site),
            AccessOptions.noSite.at(\.site),
            WARCOptions.library.at(
                \.library,
                help: """
                    after syncing (and after the site), refresh the library of tagged copies in <DIR> as `export
                    --library` writes it: a setting of the archive, saved, so every later sync does it too, and says
                    nothing when nothing changed (`--no-library` stops)
                    """),
            WARCOptions.noLibrary.at(\.noLibrary),
            HookOptions.exec.at(\.exec),
            HookOptions.execTimeout.at(\.execTimeout),
            NotifyOptions.notify.at(\.notice.url),
            NotifyOptions.notifyOn.at(\.notice.when),
            NotifyOptions.notifyFormat.at(\.notice.format),
            NotifyOptions.notifyTimeout.at(\.notice.timeout),
            NotifyOptions.execAfterRun.at(\.execAfterRun),
        ]

    typealias Arguments = SyncArguments

    static func take(_ operands: [String], into arguments: inout Arguments) throws(UsageError) {
        arguments.feeds = operands
    }

    /// What `sync` does: it names the settings a show keeps.
    static var intro: String {
        """
        Downloads every episode of each <feed> that is not archived yet into <DIR>/<feed title>/, one file per episode \
        named after its title; with no <feed> (and no `--opml` or `--feeds`), of every show <DIR> is subscribed to. A \
        feed synced is subscribed, and the show settings given with it \
        (\(OptionCatalog.showSettings.map(\.name).joined(separator: ", "))) are saved with it. Each show syncs with \
        the options on the command line, else its saved settings, else the configuration file's (podarchive help \
        config), else the defaults. Up to `--feed-jobs` shows sync at once, each show's lines printed together, in \
        subscription order, with at most `--jobs` downloads in all. One feed failing never stops the others; the exit \
        code is the worst outcome (below). Run it again and it fetches only what is new; episodes that failed and \
        files deleted by hand are fetched again. The feed is asked for with If-None-Match/If-Modified-Since; when it \
        has not changed, only those are tried. An interrupted download resumes with a Range request when its server \
        named its version (ETag or Last-Modified) and takes ranges; one sent compressed starts again. A sync locks its \
        feed folder (`flock(2)`), so two syncs of one feed never run at once.
        """
    }

    let context: CommandContext
    let arguments: Arguments

    func run() async -> ExitCode {
        // A window with no place for what leaves it, on the command line or in the configuration file, is refused
        // before anything is fetched or saved.
        for (settings, whose) in [(arguments.given, ""), (arguments.configured, "the configuration file's ")] {
            guard settings[.keepLast] != nil || settings[.keepDays] != nil, settings[.into] == nil,
                settings[.delete] == nil
            else { continue }
            let option = settings[.keepLast] != nil ? "--keep-last" : "--keep-days"
            return context.usage(
                UsageError(
                    message: "\(whose)\(option) needs a place for the episodes that go: --into DIR, or --delete to "
                        + "delete them", command: Self.info.name))
        }
        guard let root = context.resolveRoot(arguments.archiveDirectory) else { return .usage }
        let console = SyncRunConsole(
            context: context, root: root, verbosity: arguments.verbosity, json: arguments.json,
            feedJobs: arguments.feedJobs, verbose: arguments.verbosity == .verbose)
        defer { console.end() }
        let request = request(root: root)
        // Refused before the archiver, and the network with it, is brought up.
        if let problem = request.selection.requestProblem {
            console.handle(.problem(problem))
            return problem.status
        }
        let report = await context.configuredArchiver().commands.sync(request, onEvent: console.handle)
        if arguments.json, let outcomes = report.outcomes {
            context.output.write(SyncRunConsole.json(outcomes, root: root))
        }
        console.sayNotices(report.notices.lines(verbose: arguments.verbosity == .verbose))
        return report.status
    }

    /// What the command line asks, for ArchiverCore.
    func request(root: URL) -> SyncRequest {
        let environment = context.environment
        var request = SyncRequest(
            root: root,
            selection: ShowSelection(
                feeds: arguments.feeds,
                lists: [(arguments.opml, true), (arguments.feedList, false)].compactMap { path, opml in
                    path.map { ShowSelection.FeedList(path: context.absolute($0), opml: opml) }
                },
                headers: arguments.headers,
                shard: arguments.shard.map { ShowSelection.Shard(index: $0.index, count: $0.count) },
                currentDirectory: environment.currentDirectory),
            settings: context.settings(given: arguments.given, configured: arguments.configured))
        request.transfer = arguments.transfer
        request.feedJobs = arguments.feedJobs
        request.dryRun = arguments.dryRun
        request.retryGone = arguments.retryGone
        request.maximumFeedSize = arguments.maximumFeedSize
        request.hook = arguments.hook
        request.site = arguments.site
        request.library = arguments.noLibrary ? "" : arguments.library.map(context.absolute)
        request.notice = arguments.notice
        request.notice.command = arguments.execAfterRun.map { EpisodeHook(command: $0, timeout: arguments.execTimeout) }
        request.directory = PodcastDirectory.from(environment: environment.variables)
        return request
    }
}

/// What `sync` is given: the feeds, the run's options and the show settings, as the command line reads them.
struct SyncArguments: CarriesShowSettings {
    /// Feeds named on the command line.
    var feeds: [String] = []
    /// An OPML subscription list, and a plain list (one feed a line), read for more feeds.
    var opml: String? = nil
    var feedList: String? = nil
    var archiveDirectory: String? = nil
    var transfer = TransferSettings()
    /// Print a machine-readable summary instead of lines for people.
    var json = false
    /// `--quiet`, `--verbose`: how much to say on standard output.
    var quiet = false
    var verbose = false
    /// Only say what would be downloaded.
    var dryRun = false
    /// Also try episodes recorded as gone upstream (`--retry-gone`).
    var retryGone = false
    /// The largest feed document read (`--max-feed-size`).
    var maximumFeedSize = FeedLimits.defaultMaximumBytes
    /// The show settings given on the command line (saved with the feeds named; over the saved ones for all).
    var given = ShowSettings()
    /// How many shows sync at once (`--feed-jobs`).
    var feedJobs = TransferOptions.defaultFeedJobs
    /// Only the shows of shard `index` of `count` (`--shard K/N`).
    var shard: Shard? = nil
    /// Headers for the feeds named (`--header`), sent to their own origin and saved with them.
    var headers: [String] = []
    /// `--site` (true) or `--no-site` (false): refresh the web pages after each sync, saved for the archive.
    var site: Bool? = nil
    /// `--library DIR`: refresh the library in DIR after each sync, saved for the archive; `--no-library` stops.
    var library: String? = nil
    var noLibrary = false
    /// `--exec`, `--exec-timeout`: the command run after each archived episode (never saved).
    var exec: String? = nil
    var execTimeout = EpisodeHook.defaultTimeout
    /// `--notify`, `--notify-on`, `--notify-format`, `--notify-timeout`: what is told once the run has ended.
    var notice = SyncRequest.Notice()
    /// `--exec-after-run`: the command run once the run has ended (never saved).
    var execAfterRun: String? = nil
    /// The show settings the configuration file gives: under those saved with each show, never saved.
    var configured = ShowSettings()

    /// How much to say (`--quiet` and `--verbose` exclude each other).
    var verbosity: Verbosity { quiet ? .quiet : verbose ? .verbose : .normal }

    /// The hook, when a command was given.
    var hook: EpisodeHook? { exec.map { EpisodeHook(command: $0, timeout: execTimeout) } }
}
