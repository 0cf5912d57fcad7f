// What a sync wants of a show's feed beyond its new episodes: which of the listed episodes (the filter), their
// companions, their sidecars. A `304` answers "the document is the one you read last time"; it is enough only when
// the run that read it wanted the same, and left nothing else undone (see `FeedValidators.covers`).
import Foundation

/// What one sync wants of a show's feed, as far as a `304` is concerned.
struct FeedWants: Sendable, Equatable {
    /// Sidecars are written (`--metadata`): a run that wants them after one that did not reads the feed in full.
    var metadata: Bool
    /// The fingerprint of the effective filter and companions (see `fingerprint(criteria:companions:)`), saved with
    /// the validators (`FeedValidators.wants`): a run whose fingerprint differs reads the feed in full once.
    var fingerprint: String

    /// What a run wants that writes sidecars (`metadata`) or not, selects episodes by the filter's `criteria`
    /// (`EpisodeFilter.criteria`, from whichever layer set them: the command line, the configuration file, the
    /// show's saved settings) and keeps their companions or not.
    init(metadata: Bool, criteria: [String], companions: Bool) {
        self.metadata = metadata
        fingerprint = Self.fingerprint(criteria: criteria, companions: companions)
    }

    /// A short, stable name of a filter's criteria and the companions switch: the same on every run that wants
    /// the same.
    static func fingerprint(criteria: [String], companions: Bool) -> String {
        var parts = ["v1"] + criteria
        if !companions { parts.append("no-companions") }
        return StableName.of(parts.joined(separator: "\n"))
    }
}
