// `podarchive add` as one call: each show named is found (a page followed, a directory link looked up), read, and
// subscribed with the settings given, without downloading. What happens is told through the events a sync run
// tells; the report holds each show's outcome and the status, decided here.
import Foundation

/// Shows to subscribe to without downloading.
public struct AddRequest: Sendable {
    /// The archive.
    public var root: URL
    /// The shows, as typed: feeds, web pages, Apple Podcasts links.
    public var feeds: [String]
    /// Headers for them, sent to their own origins only and saved with them.
    public var headers: [String] = []
    /// The settings given (saved with each show, merged into any saved before) and the configuration file's.
    public var settings: CommandSettings
    /// How long each feed may take to arrive.
    public var timeout = TransferSettings().timeout
    /// Keep each feed apart from a show it shares a title or episodes with.
    public var separate = false
    /// The directory Apple Podcasts links are looked up in.
    public var directory = PodcastDirectory.apple

    /// Subscribing `root` to `feeds` with `settings`.
    public init(root: URL, feeds: [String], settings: CommandSettings) {
        self.root = root
        self.feeds = feeds
        self.settings = settings
    }
}

/// Carries out one `AddRequest` (`Archiver.add(_:onEvent:)`).
struct AddRunner: Sendable {
    let engine: any SyncEngine

    /// See `Archiver.add(_:onEvent:)`.
    func run(_ request: AddRequest, onEvent: @escaping @Sendable (SyncRunEvent) -> Void) async -> SyncRunReport {
        let finder = FeedFinder(
            archiver: engine, root: request.root, directory: request.directory,
            limits: FeedLimits(
                timeout: request.timeout,
                policy: TransferPolicy(
                    profile: RequestProfile(
                        userAgent: request.settings.given.userAgent ?? request.settings.configured.userAgent
                            ?? PodarchiveVersion.userAgent))),
            headersGiven: !request.headers.isEmpty, currentDirectory: request.settings.currentDirectory)
        var outcomes: [ShowOutcome] = []
        for (index, typed) in request.feeds.enumerated() {
            if Task.isCancelled { return SyncRunReport(outcomes: outcomes, status: .interrupted) }
            let outcome: ShowOutcome
            switch await finder.feed(for: typed, onEvent: onEvent) {
            case .success(let resolved):
                outcome = await add(resolved, at: index, request, finder: finder, onEvent: onEvent)
                onEvent(.ended(show: index, outcome))
            case .failure(let unfound):
                outcome = unfound.outcome
                onEvent(.unfound(outcome))
            }
            outcomes.append(outcome)
        }
        return SyncRunReport(outcomes: outcomes, status: RunStatus.worst(of: outcomes.map(\.status)))
    }

    /// Subscribes the feed `resolved` names; when it reads as no feed and may be a web page, the feed the page
    /// links to instead.
    private func add(
        _ resolved: ResolvedFeed, at index: Int, _ request: AddRequest, finder: FeedFinder,
        onEvent: @escaping @Sendable (SyncRunEvent) -> Void
    ) async -> ShowOutcome {
        let started = engine.now()
        func outcome(_ result: ShowOutcome.Result, _ status: RunStatus, _ source: FeedSource? = nil) -> ShowOutcome {
            ShowOutcome(
                feed: URLSecrets.redacted(resolved.text), source: source, result: result, status: status,
                seconds: engine.now().timeIntervalSince(started))
        }
        do {
            let subscription = try await subscribe(resolved, at: index, request, onEvent: onEvent)
            return outcome(.subscribed(subscription), .success)
        } catch let error as FeedError where resolved.followable && error.isNotAFeed && !Task.isCancelled {
            switch await finder.follow(resolved, show: nil, onEvent: onEvent) {
            case .failure(let unfound): return unfound.outcome
            case .success(nil): return outcome(.failed(error), RunStatus(for: error))
            case .success(let found?): return await add(found, at: index, request, finder: finder, onEvent: onEvent)
            }
        } catch  where Task.isCancelled {
            return outcome(.interrupted(finding: false), .interrupted)
        } catch {
            return outcome(.failed(error), RunStatus(for: error))
        }
    }

    /// Reads the feed `resolved` names with the access given (none of it when the feed was found on a page of
    /// another origin) and subscribes it; what reading it met is told once it is subscribed.
    private func subscribe(
        _ resolved: ResolvedFeed, at index: Int, _ request: AddRequest, onEvent: @Sendable (SyncRunEvent) -> Void
    ) async throws -> Subscription {
        let source = try FeedSource(resolved.text, currentDirectory: request.settings.currentDirectory)
        // The feed is read with the settings given (saved with it; the credentials 0600) over the configuration
        // file's (never saved).
        var options = try request.settings.options(saved: nil)
        options.episodeTimeout = request.timeout
        options.separate = request.separate
        options.give(resolved.givenCredentials(to: source, headers: request.headers))
        options.namedAt = resolved.namedAt
        let said = Locked<[SyncEvent]>([])
        let subscription = try await engine.subscribe(
            source, into: request.root, settings: request.settings.givenResolved, options: options,
            onEvent: { event in said.withLock { $0.append(event) } })
        for event in said.current { onEvent(.show(index, event)) }
        return subscription
    }
}
