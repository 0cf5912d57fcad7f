// `podarchive search WORDS` as one call: the podcast directory asked for shows.
import Foundation

/// What `search` is asked.
public struct SearchRequest: Sendable {
    /// The words searched for, joined by spaces.
    public var term: String
    /// At most this many shows (1 to 200).
    public var limit: Int
    /// The process's environment: `PODARCHIVE_DIRECTORY_URL` names another directory (see `PodcastDirectory`).
    public var environment: [String: String]
    /// The directory is asked within this many seconds.
    public var timeout: TimeInterval = 60

    /// A request for `term`.
    public init(term: String, limit: Int, environment: [String: String]) {
        self.term = term
        self.limit = limit
        self.environment = environment
    }
}

/// The shows the directory found.
public struct SearchReport: Sendable {
    /// The words searched for.
    public var term: String
    /// The shows, in the directory's order.
    public var shows: [DirectoryShow]
}

/// `search`, made of the archiver.
struct SearchRunner: Sendable {
    let engine: any SyncEngine

    func run(_ request: SearchRequest) async -> CommandOutcome<SearchReport> {
        let resolver = engine.feedResolver(directory: PodcastDirectory.from(environment: request.environment))
        do {
            let shows = try await resolver.search(
                request.term, limit: request.limit, limits: FeedLimits(timeout: request.timeout))
            return CommandOutcome(SearchReport(term: request.term, shows: shows), status: .success)
        } catch {
            return CommandOutcome(failure: error, cancelled: Task.isCancelled)
        }
    }
}
