// `podarchive sync`: the feeds named (and listed), or every subscription; several shows at once, each with its
// saved settings under the command line's; the exit code is the worst outcome. Which shows, which settings and
// which outcome wins are ArchiverCore's (`ShowSelection`, `SettingsLayers`, `RunStatus`); this says them.
import ArchiverCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct SyncCommand: CommandType {
    static let info = CommandInfo(
        name: "sync", about: "download every episode not yet archived, of the feeds named or of every subscription",
        summary: "archive every episode not archived yet", operands: "[<feed>...]", completion: .file, repeats: true,
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
        ] + SettingOptions.saved() + [
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
            HookOptions.exec.at(\.exec),
            HookOptions.execTimeout.at(\.execTimeout),
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
        guard let root = context.resolveRoot(arguments.archiveDirectory) else { return .usage }
        var arguments = self.arguments
        arguments.given.netrcFile = arguments.given.netrcFile.map(context.absolute)
        var selection = ShowSelection(
            feeds: arguments.feeds,
            lists: [(arguments.opml, true), (arguments.feedList, false)].compactMap { path, opml in
                path.map { ShowSelection.FeedList(path: context.absolute($0), opml: opml) }
            },
            headers: arguments.headers, given: arguments.given,
            shard: arguments.shard.map { ShowSelection.Shard(index: $0.index, count: $0.count) },
            currentDirectory: context.environment.currentDirectory)
        // Headers are a show's secrets: they go with the feeds they were given for, never to every subscription.
        if let problem = selection.requestProblem {
            say(problem)
            return problem.status
        }
        let archiver = context.configuredArchiver()
        // Apple Podcasts links named are looked up first, and web pages followed to their feeds (when reading them
        // finds no feed): the feed is what is synced and saved. One that leads to none is said and left out; when
        // that leaves nothing named, nothing syncs (never every subscription instead).
        let (feeds, namedAt, following, unfound) = await findFeeds(arguments, root: root, archiver: archiver)
        if !arguments.feeds.isEmpty, feeds.isEmpty, selection.lists.isEmpty {
            if arguments.json { context.output.write(SyncFormatter.json(entries: unfound.map(\.entry))) }
            return ExitCode.overall(of: unfound.map(\.code), cancelled: Task.isCancelled)
        }
        selection.feeds = feeds
        selection.namedAt = namedAt
        let subscriptions = archiver.subscriptions(in: root)
        warnOfSecretsInside(subscriptions, root: root)
        sayMerged(subscriptions)
        let choice = selection.choose(from: subscriptions, in: root, catalog: archiver)
        for problem in choice.problems { say(problem, root: root) }
        guard let shows = choice.shows else { return choice.status }
        // --jobs caps downloads in all; requests to one host are capped whatever --jobs and --feed-jobs say.
        let budget = DownloadBudget(jobs: arguments.transfer.jobs)
        let limits = RunLimits(
            budget: budget, throttle: arguments.transfer.limitRate.map { Throttle(bytesPerSecond: $0) })
        let run = ShowSync(
            context: context, arguments: arguments, root: root, archiver: archiver, limits: limits,
            following: following)
        let results = await run.runAll(shows)
        var statuses = [choice.status] + unfound.map(\.code) + results.map(\.0)
        if !arguments.dryRun, !Task.isCancelled {
            statuses.append(refreshSite(root, archiver: archiver, arguments))
        }
        if arguments.json {
            context.output.write(SyncFormatter.json(entries: unfound.map(\.entry) + results.map(\.1)))
        }
        return ExitCode.overall(of: statuses, cancelled: Task.isCancelled)
    }

    /// The feeds named, each directory link looked up (and an address given with credentials followed when it
    /// is a page), with the page's origin for those found on a page of another (`ResolvedFeed.namedAt`); how to
    /// follow the others when they turn out to be pages; and those that led to no feed, with their exit codes and
    /// `--json` entries.
    private func findFeeds(_ arguments: SyncCommand.Arguments, root: URL, archiver: Archiver) async -> (
        [String], [String: Origin], PageFollowing, [(code: ExitCode, entry: String)]
    ) {
        let finding = FeedFinding(
            context: context, archiver: archiver, root: root,
            limits: FeedLimits(
                maximumBytes: arguments.maximumFeedSize, timeout: arguments.transfer.timeout,
                policy: TransferPolicy(
                    profile: RequestProfile(
                        userAgent: arguments.given.userAgent ?? arguments.configured.userAgent
                            ?? PodarchiveVersion.userAgent),
                    throttle: arguments.transfer.limitRate.map { Throttle(bytesPerSecond: $0) })),
            headersGiven: !arguments.headers.isEmpty,
            saying: !arguments.json && arguments.verbosity != .quiet, verbose: arguments.verbosity == .verbose)
        var feeds: [String] = []
        var namedAt: [String: Origin] = [:]
        var followable: [String: ResolvedFeed] = [:]
        var unfound: [(code: ExitCode, entry: String)] = []
        for typed in arguments.feeds {
            let started = context.now()
            switch await finding.feed(for: typed) {
            case .success(let resolved):
                feeds.append(resolved.text)
                if let origin = resolved.namedAt { namedAt[resolved.text] = origin }
                if resolved.followable,
                    let source = try? FeedSource(resolved.text, currentDirectory: context.environment.currentDirectory)
                {
                    followable[source.displayName] = resolved
                }
            case .failure(let failure):
                unfound.append(
                    (
                        failure.code,
                        SyncFormatter.jsonEntry(
                            feed: URLSecrets.redacted(typed), report: nil, root: root, code: failure.code,
                            seconds: context.now().timeIntervalSince(started), error: failure.error)
                    ))
            }
        }
        return (
            feeds, namedAt, PageFollowing(finding: finding, addresses: followable, headers: arguments.headers), unfound
        )
    }

    /// `--site`/`--no-site` saved for the archive; the site written again when it is on.
    private func refreshSite(_ root: URL, archiver: Archiver, _ arguments: SyncCommand.Arguments) -> ExitCode {
        var settings = archiver.siteSettings(in: root)
        if let wanted = arguments.site, wanted != (settings.enabled ?? false) {
            settings.enabled = wanted
            do {
                try archiver.saveSiteSettings(settings, in: root)
            } catch {
                return context.report(error)
            }
        }
        guard settings.enabled == true else { return .success }
        return SiteCommand.write(
            root, context: context, archiver: archiver, settings: settings,
            quiet: arguments.json || arguments.verbosity == .quiet)
    }

    /// One line on standard error for a problem met choosing the shows.
    private func say(_ problem: SelectionProblem, root: URL? = nil) {
        let line: String
        switch problem {
        case .headersWithoutNamedFeeds:
            line =
                "option '--header' needs the feeds it is for named on the command line (and no --opml or --feeds "
                + "list): it is sent to their hosts only"
        case .damagedRecord(let path, let reason):
            line = "subscription record \(path) is damaged (\(reason)); skipped"
        case .noSubscriptions:
            line =
                "\(root?.path ?? "") has no subscriptions; add one with 'podarchive add <feed>' or name a feed"
        case .credentialsMissing(let reason), .untrustedFile(let reason):
            line = reason
        case .unusableSubscription(let feed):
            line = "subscription \(feed) is not a feed URL or path; skipped"
        case .invalidFeed(let reason), .unreadableList(let reason), .lookupFailed(let reason):
            line = SyncFormatter.oneLine(reason)
        case .invalidListLine(let list, let reason):
            line = "feed list \(list): \(SyncFormatter.oneLine(reason))"
        case .emptyLists:
            line = "the feed lists name no feeds"
        }
        context.errors.write("podarchive: \(line)\n")
    }

    /// Says, once, which records of one show were merged (an archive made before addresses were normalised).
    private func sayMerged(_ subscriptions: SubscriptionSet) {
        for merge in subscriptions.merged {
            context.output.write(
                "<\(merge.removed.shownFeed)> and <\(merge.kept.shownFeed)> are one show, in \(merge.kept.folder)/: "
                    + "its subscription is <\(merge.kept.shownFeed)> from now on\n")
        }
    }

    /// Says once a run, while any subscription record still holds a secret an earlier podarchive kept inside the
    /// archive, where they are and the one command that moves them out. They are used as they are meanwhile.
    private func warnOfSecretsInside(_ subscriptions: SubscriptionSet, root: URL) {
        let holding = subscriptions.shows.filter(\.holdsSecrets)
        guard !holding.isEmpty else { return }
        let shows = holding.count == 1 ? "1 show's credentials are" : "\(holding.count) shows' credentials are"
        context.errors.write(
            "podarchive: \(shows) kept inside the archive, in \(root.path)/.podarchive/feeds, where anyone the "
                + "archive is served or copied to can read them; move them to the configuration folder with "
                + "'podarchive credentials --move'\n")
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
    /// `--exec`, `--exec-timeout`: the command run after each archived episode (never saved).
    var exec: String? = nil
    var execTimeout = EpisodeHook.defaultTimeout
    /// The show settings the configuration file gives: under those saved with each show, never saved.
    var configured = ShowSettings()

    /// How much to say (`--quiet` and `--verbose` exclude each other).
    var verbosity: Verbosity { quiet ? .quiet : verbose ? .verbose : .normal }

    /// The hook, when a command was given.
    var hook: EpisodeHook? { exec.map { EpisodeHook(command: $0, timeout: execTimeout) } }
}
