// Fetches a feed's bytes from its source and parses them.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How much a feed fetch may take: bytes (after decompression) and time, all of it included.
public struct FeedLimits: Sendable, Equatable {
    /// The largest document read; a larger one stops the fetch as soon as the cap is passed.
    public var maximumBytes: Int64
    /// The fetch must be complete within this many seconds (a server sending a byte a second never idles out).
    public var timeout: TimeInterval
    /// The show's User-Agent and credentials, and the run's bandwidth cap.
    public var policy: TransferPolicy
    /// The most documents one walk of a feed's pages fetches (the first included); archive documents read on an
    /// earlier run are passed without being fetched, so a longer chain is read over several runs.
    public var maximumPages = 1_000
    /// The run's slots per host, shared with its downloads: each request waits for one of its host's (the
    /// deadline starts once it has it). Nil: no cap but the session's own.
    public var budget: DownloadBudget?
    /// How often a fetch that failed in a way another may cure (a connection failure, 5xx, 408, 429) is tried
    /// again, and how long to wait first: the episodes' policy (`sync` gives its own). Every try and wait of
    /// one document is within `timeout`. By default none.
    public var retry = RetryPolicy(retries: 0)

    /// 256 MB is more than ten times the largest real feed seen (21 MB for 20,000 episodes).
    public static let defaultMaximumBytes: Int64 = 256 << 20

    /// Limits for one feed fetch.
    public init(
        maximumBytes: Int64 = FeedLimits.defaultMaximumBytes, timeout: TimeInterval = 3600,
        policy: TransferPolicy = TransferPolicy(), budget: DownloadBudget? = nil
    ) {
        self.maximumBytes = maximumBytes
        self.timeout = timeout
        self.policy = policy
        self.budget = budget
    }

    /// The request for `url`, with the show's User-Agent and the credentials for its origin.
    func request(for url: URL) -> URLRequest {
        (policy.profile ?? RequestProfile()).request(for: url)
    }
}

/// Loads and parses feeds through the injected fetcher and file reader.
struct FeedLoader: Sendable {
    let fetcher: any URLDataFetcher
    private let files: any FileReading
    /// Deadlines, the waits between tries (`FeedLimits.retry`) and their jitter.
    let clock: SyncClock

    /// Waits out a fetch's deadline.
    var timer: @Sendable (TimeInterval) async throws -> Void { clock.timer }

    /// Loads remote feeds through `fetcher` and local ones through `files`, with `clock`'s deadlines (its
    /// `timer`) and waits between tries (its `sleep`, `now` and `jitter`).
    public init(fetcher: any URLDataFetcher, files: any FileReading, clock: SyncClock) {
        self.fetcher = fetcher
        self.files = files
        self.clock = clock
    }

    /// Loads remote feeds through `fetcher` and local ones through `files`.
    /// - Parameter timer: waits out a fetch's deadline (`FeedLimits.timeout`) and is cancelled when the fetch ends
    ///   first (live: `Task.sleep`); waits between tries are the wall clock's.
    public init(
        fetcher: any URLDataFetcher, files: any FileReading,
        timer: @escaping @Sendable (TimeInterval) async throws -> Void
    ) {
        let wall = SyncClock.wall
        self.init(
            fetcher: fetcher, files: files,
            clock: SyncClock(now: wall.now, sleep: wall.sleep, timer: timer, jitter: wall.jitter))
    }

    /// The loader with the live system: `FeedSession`, FileManager and the wall clock.
    public static func live() -> FeedLoader {
        FeedLoader(fetcher: FeedSession(), files: FileManager.default, timer: Deadline.realTime)
    }

    /// Fetches and parses the feed at `source` (with show notes when `descriptions`).
    /// - Throws: `FeedError` naming the feed and what went wrong.
    public func load(_ source: FeedSource, descriptions: Bool = false, limits: FeedLimits = FeedLimits())
        async throws -> Feed
    {
        switch try await load(source, ifChangedSince: nil, descriptions: descriptions, limits: limits) {
        case .changed(let feed, _): return feed
        case .notModified: throw FeedError.httpStatus(url: source.displayName, status: 304)
        }
    }

    /// Fetches the feed, conditionally when `validators` are given (`If-None-Match` / `If-Modified-Since`);
    /// with `descriptions`, episodes carry their show notes (see `FeedParser.parse`).
    public func load(
        _ source: FeedSource, ifChangedSince validators: FeedValidators?, descriptions: Bool = false,
        limits: FeedLimits = FeedLimits()
    ) async throws -> FeedFetch {
        switch source {
        case .local(let path):
            guard let data = files.contents(atPath: path) else {
                throw FeedError.unreadableFile(path: path, reason: Self.whyUnreadable(path, files: files))
            }
            var feed = try FeedParser.parse(data, url: source.url, descriptions: descriptions)
            feed.document = data
            return .changed(feed, FeedValidators(etag: nil, lastModified: nil))
        case .remote(let url):
            guard
                let (data, finalURL, newValidators, movedTo) = try await fetch(
                    url, validators: validators, limits: limits)
            else {
                return .notModified
            }
            var feed = try FeedParser.parse(data, url: finalURL, descriptions: descriptions)
            feed.movedTo = movedTo?.absoluteString
            feed.document = data
            return .changed(feed, newValidators)
        }
    }

    /// Fetches `url` (conditionally with `validators`), trying again what another try may cure, as an episode
    /// is (`FeedLimits.retry`: a connection failure or a body cut short, 5xx, 408, 429, `Retry-After` honoured),
    /// every try and wait within `limits.timeout` from the first try's slot. Nil for a 304.
    private func fetch(_ url: URL, validators: FeedValidators?, limits: FeedLimits) async throws -> (
        Data, URL, FeedValidators, URL?
    )? {
        var request = limits.request(for: url)
        if let etag = validators?.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let date = validators?.lastModified { request.setValue(date, forHTTPHeaderField: "If-Modified-Since") }
        request.setValue(
            "application/rss+xml, application/atom+xml, application/feed+json, application/json;q=0.9, "
                + "application/xml;q=0.9, text/xml;q=0.9, */*;q=0.8",
            forHTTPHeaderField: "Accept")
        request.setValue(BodyFraming.acceptEncoding(compressible: true), forHTTPHeaderField: "Accept-Encoding")
        var ends: Date?
        var attempt = 0
        while true {
            attempt += 1
            let failure: FeedError
            var retryAfter: TimeInterval?
            do {
                let fetched = try await fetchOnce(request, of: url, limits: limits, ends: &ends)
                guard let http = fetched.response as? HTTPURLResponse, RetryPolicy.isRetryable(status: http.statusCode)
                else { return try judge(fetched, of: url, validators: validators, limits: limits) }
                failure = .httpStatus(url: url.absoluteString, status: http.statusCode)
                retryAfter = RetryPolicy.retryAfter(http, now: clock.now())
            } catch FeedFetchTry.retryable(let error) {
                failure = error
            }
            guard attempt <= limits.retry.retries, let ends else { throw failure }
            let delay = limits.retry.delay(beforeRetry: attempt, jitter: clock.jitter(), retryAfter: retryAfter)
            // No time left to wait and try again within the deadline: this try's failure is the answer, and when
            // the server asked for the wait, why it was not waited for.
            let left = ends.timeIntervalSince(clock.now())
            guard delay < left else {
                guard let retryAfter, retryAfter >= left, case .httpStatus(let url, let status) = failure else {
                    throw failure
                }
                throw FeedError.waitRefused(
                    url: url, status: status, asked: retryAfter, left: left, deadline: limits.timeout)
            }
            try await clock.sleep(delay)
        }
    }

    /// One request, within what is left of the deadline `ends` (set when the first try gets its slot).
    /// - Throws: `FeedFetchTry.retryable` for a failure another try may cure, `FeedError` for any other.
    private func fetchOnce(_ request: URLRequest, of url: URL, limits: FeedLimits, ends: inout Date?) async throws
        -> FetchedBody
    {
        do {
            // A slot of the host first, as a download takes one: the host is asked at most so much at once, and
            // waiting behind other requests is no time spent on this one (the wait ends when a slot is given back,
            // each held by one request within its deadline, or when the run is cancelled). Never held while
            // waiting to try again.
            let slot = try await limits.budget?.slot(host: url.host ?? "", kind: .request)
            defer { slot?.release() }
            let deadline = ends ?? clock.now().addingTimeInterval(limits.timeout)
            ends = deadline
            return try await Deadline.run(seconds: deadline.timeIntervalSince(clock.now()), timer: timer) {
                [fetcher] in
                try await fetcher.fetch(request, maximumBytes: limits.maximumBytes, policy: limits.policy)
            }
        } catch is Deadline.Exceeded {
            throw FeedError.transport(
                url: url.absoluteString, reason: "not complete within \(Deadline.describe(limits.timeout))")
        } catch FetchError.tooLarge(let limit) {
            throw FeedError.tooLarge(url: url.absoluteString, limit: limit)
        } catch FetchError.unsupportedEncoding(let encoding) {
            throw FeedError.unsupportedEncoding(url: url.absoluteString, encoding: encoding)
        } catch {
            let failure = FeedError.transport(url: url.absoluteString, reason: TransportReason.describe(error))
            if Task.isCancelled { throw failure }
            throw FeedFetchTry.retryable(failure)
        }
    }

    /// What a fetched answer means: the feed's bytes and validators, nil for a 304 to a conditional request, or
    /// the error its status is.
    private func judge(_ fetched: FetchedBody, of url: URL, validators: FeedValidators?, limits: FeedLimits) throws
        -> (Data, URL, FeedValidators, URL?)?
    {
        let response = fetched.response
        let finalURL = response.url ?? url
        var newValidators = FeedValidators(etag: nil, lastModified: nil)
        if let http = response as? HTTPURLResponse {
            if http.statusCode == 304, validators != nil { return nil }
            newValidators = FeedValidators(
                etag: http.value(forHTTPHeaderField: "ETag"),
                lastModified: http.value(forHTTPHeaderField: "Last-Modified"))
            if (300..<400).contains(http.statusCode), let location = http.value(forHTTPHeaderField: "Location") {
                throw FeedError.refusedRedirect(url: url.absoluteString, location: location)
            }
            if http.statusCode == 401, limits.policy.profile?.sendsCredentials(to: finalURL, firstURL: url) == true {
                throw FeedError.refusedCredentials(url: url.absoluteString)
            }
            guard (200..<300).contains(http.statusCode) else {
                throw FeedError.httpStatus(url: url.absoluteString, status: http.statusCode)
            }
        }
        return (fetched.data, finalURL, newValidators, fetched.movedTo)
    }
}

/// A feed fetch's failure that another try may cure (the connection, a body cut short).
private enum FeedFetchTry: Error {
    case retryable(FeedError)
}

extension FeedLoader {
    /// Why a local feed file cannot be read.
    static func whyUnreadable(_ path: String, files: any FileReading) -> String {
        guard files.fileExists(atPath: path) else { return "no such file" }
        if (try? files.contentsOfDirectory(atPath: path)) != nil { return "it is a folder" }
        if !files.isReadableFile(atPath: path) { return "permission denied" }
        return "it cannot be read"
    }

    /// Reads a subscription list from disk: OPML when `opml` is true, else one feed a line.
    public func subscriptions(atPath path: String, opml: Bool) throws -> [String] {
        guard let data = files.contents(atPath: path) else { throw SubscriptionList.Failure.unreadable(path: path) }
        return opml ? try SubscriptionList.feeds(fromOPML: data, path: path) : SubscriptionList.feeds(fromLines: data)
    }
}

/// The result of a conditional fetch.
enum FeedFetch: Sendable, Equatable {
    /// The feed, and the validators to send next time.
    case changed(Feed, FeedValidators)
    /// `304 Not Modified`: the feed is as it was last time.
    case notModified

    /// The feed, when it changed.
    public var feed: Feed? {
        if case .changed(let feed, _) = self { return feed }
        return nil
    }
}
