// What a sync wants of a show's feed beyond its new episodes: which of the listed episodes (the filter), their
// companions, their sidecars. A `304` answers "the document is the one you read last time"; it is enough only when
// the run that read it wanted the same, and left nothing else undone (see `FeedValidators.covers`).
import Foundation

/// What one sync wants of a show's feed, as far as a `304` is concerned.
struct FeedWants: Sendable, Equatable {
    /// Sidecars are written (`--metadata`): a run that wants them after one that did not reads the feed in full.
    var metadata: Bool
    /// The fingerprint of the effective filter and companions (see `fingerprint(filter:companions:)`), saved with
    /// the validators (`FeedValidators.wants`): a run whose fingerprint differs reads the feed in full once.
    var fingerprint: String

    /// What a run wants that writes sidecars (`metadata`) or not, selects episodes with `filter` (`--limit`,
    /// `--since`, `--match`, from whichever layer set them: the command line, the configuration file, the show's
    /// saved settings) and keeps their companions or not.
    init(metadata: Bool, filter: EpisodeFilter, companions: Bool) {
        self.metadata = metadata
        fingerprint = Self.fingerprint(filter: filter, companions: companions)
    }

    /// A short, stable name of a filter and the companions switch: the same on every run that wants the same.
    static func fingerprint(filter: EpisodeFilter, companions: Bool) -> String {
        var parts = ["v1"]
        if let limit = filter.limit { parts.append("limit=\(limit)") }
        if let since = filter.since { parts.append("since=\(FeedDate.iso8601(since))") }
        if let match = filter.match { parts.append("match=\(match)") }
        if !companions { parts.append("no-companions") }
        return StableName.of(parts.joined(separator: "\n"))
    }
}
