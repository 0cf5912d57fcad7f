// The publisher's hash, applied to a finished download before it is put in place. A file that does not match
// its Subresource Integrity value is not kept and the episode fails (tried again next run like any failure); a
// file that still differs on the `keptAfter`-th run in a row is kept and recorded as not matching, because some
// hosts insert ads into every download and never serve the bytes the publisher hashed: an archived episode is
// never lost to a hash.
import Foundation

/// Judges downloads against the publisher's hash.
enum IntegrityGate {
    /// The run, counted from the first that differed, on which a file that still differs is kept.
    static let keptAfter = 3

    /// The publisher's hash for the file of `episode` fetched from `url` (the enclosure's when nil): that of the
    /// alternate enclosure listing `url` among its sources, else that of the `default="true"` alternate naming the
    /// enclosure's URL. The text as the feed wrote it, with the value it parses to; nil when there is none, or
    /// when it names no known algorithm (SRI then says nothing).
    static func expected(for episode: Episode, fetchedFrom url: String? = nil) -> (
        text: String, value: SubresourceIntegrity
    )? {
        let fetched = url ?? episode.url
        let own = episode.alternates.first { $0.integrity != nil && $0.sources.contains(fetched) }
        let described = episode.alternates.first {
            $0.integrity != nil && $0.isDefault && $0.sources.contains(episode.url)
        }
        guard let text = (own ?? (fetched == episode.url ? described : nil))?.integrity,
            let value = SubresourceIntegrity(text)
        else { return nil }
        return (text, value)
    }

    /// The publisher's value for the file of `episode` when it names no algorithm podarchive knows with a digest of
    /// the right length (`sha1-…`, a typo): the file is then not checked, and that is said.
    static func unreadable(for episode: Episode) -> String? {
        let own = episode.alternates.first { $0.integrity != nil && $0.sources.contains(episode.url) }
        guard let text = own?.integrity, SubresourceIntegrity(text) == nil else { return nil }
        return text
    }

    /// What the judgement found for a file that is kept.
    struct Verdict: Equatable, Sendable {
        /// The publisher's value, as the feed wrote it.
        var integrity: String
        /// The digest the value allows, in SRI form (for messages).
        var expected: String
        /// The file's digest in SRI form when it did not match (kept after `keptAfter` runs); nil: it matched.
        var mismatch: String?
    }

    /// Judges `result`, the download of `episode` into `partial`, against the publisher's hash. `previous` is the
    /// episode's failure record from earlier runs, if any. Nil when there is no hash to judge by.
    /// - Throws: `EpisodeFailure.integrityMismatch` (after discarding the download) when the file does not match
    ///   and fewer than `keptAfter` runs in a row have received such a file.
    static func judge(
        _ result: DownloadResult, of episode: Episode, fetchedFrom url: String? = nil, partial: PartialFiles,
        previous: ArchiveIndex.Failure?, records: ShowRecords
    ) throws -> Verdict? {
        guard let (text, expected) = Self.expected(for: episode, fetchedFrom: url) else { return nil }
        let digest =
            result.integrityDigest?.count == expected.algorithm.byteCount
            ? result.integrityDigest : IntegrityHasher.digest(ofFileAtPath: partial.body.path, expected.algorithm)
        guard let digest else { return nil }
        if expected.matches(digest) { return Verdict(integrity: text, expected: expected.expected) }
        let received = SubresourceIntegrity.format(expected.algorithm, digest)
        let runs = (previous?.publisher?.mismatches ?? 0) + 1
        if runs >= keptAfter { return Verdict(integrity: text, expected: expected.expected, mismatch: received) }
        records.discard(partial)
        throw EpisodeFailure.integrityMismatch(expected: expected.expected, received: received)
    }

    /// The publisher's record a failure keeps: the hash it is judged by, and how many runs in a row received a
    /// file that did not match it (carried over from `previous`).
    static func record(
        for failure: EpisodeFailure, of episode: Episode, previous: ArchiveIndex.Failure?
    ) -> PublisherRecord? {
        guard let (text, _) = expected(for: episode) else { return nil }
        // Another failure between two that differed (a dropped connection) neither counts nor resets the count.
        var record = PublisherRecord(
            integrity: text, mismatch: previous?.publisher?.mismatch, mismatches: previous?.publisher?.mismatches)
        if case .integrityMismatch(_, let received) = failure {
            record.mismatch = received
            record.mismatches = (previous?.publisher?.mismatches ?? 0) + 1
        }
        return record
    }
}

extension IntegrityGate {
    /// The publisher's record an entry keeps for `item`: the alternates the feed listed and the verdict; nil when
    /// there is nothing to say (an entry fetched again then keeps what it had).
    static func record(of item: WorkItem, verdict: Verdict?, fetchedFrom url: String?) -> PublisherRecord? {
        // Kept as the archive keeps every URL: redacted (see `SecretForms`).
        let alternates = item.episode.alternates.map { alternate in
            var kept = alternate
            kept.sources = alternate.sources.map(URLSecrets.redacted)
            kept.indirectSources = alternate.indirectSources?.map(URLSecrets.redacted)
            return kept
        }
        var record = PublisherRecord(
            alternates: alternates.isEmpty ? nil : alternates, integrity: verdict?.integrity,
            mismatch: verdict?.mismatch)
        // Archived as an alternate (see `PreferredFile`): which one, and the source that gave the file.
        let episode = item.episode
        if let chosen = episode.alternates.first(where: { !$0.isDefault && $0.sources.contains(episode.url) }) {
            record.chosen = chosen.type
            record.source = URLSecrets.redacted(url.flatMap { chosen.sources.contains($0) ? $0 : nil } ?? episode.url)
        }
        return record.isEmpty ? nil : record
    }

    /// The episode of `failure`, to try again when the feed was not read: with the publisher's hash it failed
    /// against, as the `default="true"` alternate that describes its enclosure, so the retry is judged by it too.
    static func retried(_ failure: ArchiveIndex.Failure) -> Episode {
        var episode = failure.episode
        if let integrity = failure.publisher?.integrity {
            episode.alternates = [
                AlternateEnclosure(
                    type: failure.type ?? "", isDefault: true, sources: [episode.url], integrity: integrity)
            ]
        }
        return episode
    }
}
