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
        summary: "subscribe to feeds without downloading", operands: "<feed>...", completion: .file, repeats: true,
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
        let archiver = context.configuredArchiver()
        // A web page or an Apple Podcasts link is followed to its feed first: the feed is what is subscribed.
        let finding = FeedFinding(
            context: context, archiver: archiver, root: root,
            limits: FeedLimits(
                timeout: arguments.timeout,
                policy: TransferPolicy(
                    profile: RequestProfile(
                        userAgent: arguments.given.userAgent ?? arguments.configured.userAgent
                            ?? PodarchiveVersion.userAgent))),
            headersGiven: !arguments.headers.isEmpty, saying: true, verbose: arguments.verbose)
        var worst = ExitCode.success
        for typed in arguments.feeds {
            if Task.isCancelled { return .interrupted }
            switch await finding.feed(for: typed) {
            case .success(let resolved):
                worst.include(await add(resolved, into: root, archiver: archiver, finding: finding))
            case .failure(let failure):
                worst.include(failure.code)
            }
        }
        return worst
    }

    /// Subscribes the feed `resolved` names; when it reads as no feed and may be a web page, the feed the page
    /// links to instead.
    private func add(_ resolved: ResolvedFeed, into root: URL, archiver: Archiver, finding: FeedFinding) async
        -> ExitCode
    {
        do {
            try await subscribe(resolved, into: root, archiver: archiver)
            return .success
        } catch let error as FeedError where resolved.followable && error.isNotAFeed && !Task.isCancelled {
            switch await finding.follow(resolved) {
            case .failure(let failure): return failure.code
            case .success(nil): return context.report(error)
            case .success(let found?): return await add(found, into: root, archiver: archiver, finding: finding)
            }
        } catch  where Task.isCancelled {
            context.errors.write(
                "podarchive: interrupted while reading \(URLSecrets.redacted(resolved.text)); it is not subscribed\n")
            return .interrupted
        } catch {
            return context.report(error)
        }
    }

    /// Reads the feed `resolved` names with the access given (none of it when the feed was found on a page of
    /// another origin) and subscribes it, saying so.
    private func subscribe(_ resolved: ResolvedFeed, into root: URL, archiver: Archiver) async throws {
        let source = try FeedSource(resolved.text, currentDirectory: context.environment.currentDirectory)
        var settings = arguments.given
        settings.netrcFile = settings.netrcFile.map(context.absolute)
        var configured = arguments.configured
        configured.netrcFile = configured.netrcFile.map(context.absolute)
        // The feed is read with the settings given (saved with it; the credentials 0600) over the configuration
        // file's (never saved).
        var options = try SyncOptions().applying(
            SettingsLayers(given: settings, saved: nil, configuration: configured))
        options.episodeTimeout = arguments.timeout
        options.separate = arguments.separate
        options.netrc = options.netrc ?? context.defaultNetrc
        options.give(resolved.givenCredentials(to: source, headers: arguments.headers))
        options.namedAt = resolved.namedAt
        let said = CapturedEvents()
        let subscription = try await archiver.subscribe(
            source, into: root, settings: settings, options: options, onEvent: said.append)
        for event in said.events {
            switch event {
            case .readdressed(let from, let to):
                context.output.write(SyncFormatter.readdressed(from: from, to: to) + "\n")
            case .defaultLoginStays(let home, let host):
                context.output.write(SyncFormatter.defaultLoginStays(home: home, host: host) + "\n")
            case .keptBoth(let feed, let folder, let apart, let apartFolder):
                context.output.write(
                    SyncFormatter.keptBoth(feed: feed, folder: folder, apart: apart, apartFolder: apartFolder) + "\n")
            default: break
            }
        }
        context.output.write("subscribed \(subscription.feed) into \(subscription.folder)/\n")
    }
}

/// The events of one call, kept to be said after it.
private final class CapturedEvents: Sendable {
    private let kept: Locked<[SyncEvent]> = Locked([])
    var events: [SyncEvent] { kept.current }
    func append(_ event: SyncEvent) { kept.withLock { kept in kept.append(event) } }
}
