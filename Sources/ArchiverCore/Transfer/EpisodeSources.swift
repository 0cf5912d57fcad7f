// An episode may be fetched from more than one place: an alternate enclosure (`--prefer`) from any of its sources,
// each http(s) one tried in the feed's order until one gives the file; and when every source of the file chosen
// answers with something that is not media (a torrent, a streaming playlist), the episode's other files in turn
// (see `PreferredFile.candidates`). One download of each is `EpisodeFetcher.fetch`.
import Foundation

/// An episode's files and their sources, tried in turn until one gives the file.
struct EpisodeSources: Sendable {
    let fetcher: EpisodeFetcher

    /// What `fetch` produced, and the episode as the source that served it describes it.
    struct Sourced: Sendable {
        var fetched: EpisodeFetcher.Fetched
        /// The episode as fetched: the file chosen or another of the episode's files, its URL the one of its
        /// sources (see `PreferredFile.urls`) that served the bytes, as the feed lists it.
        var episode: Episode
        /// The sources passed over on the way because they answered with something that is not media.
        var passedOver: [PassedOver] = []
    }

    /// A source that answered with the way to the media (a torrent, a playlist) rather than the media.
    struct PassedOver: Sendable, Equatable {
        var url: String
        var kind: NotMedia
    }

    /// `EpisodeFetcher.fetch` from each URL of `episode` in turn (see `PreferredFile.urls`), the one an earlier
    /// run's download of it came from first (its bytes resumed, or adopted); when each answered with something that
    /// is not media, the same for each of `others` (the episode's other files, in the order they are tried). The
    /// failure when none works: one that another run may cure where there is one, else that it is not media.
    func fetch(
        _ episode: Episode, otherwise others: [Episode] = [], in paths: ShowState, options: SyncOptions,
        shortBefore: Int64? = nil, waiting: (@Sendable (TimeInterval, EpisodeFailure) -> Void)? = nil,
        progress: EpisodeFetcher.ProgressHandler? = nil
    ) async throws -> Sourced {
        var passedOver: [PassedOver] = []
        var notMedia: EpisodeFailure?
        var other: EpisodeFailure?
        for (number, file) in ([episode] + others).enumerated() {
            for url in urls(of: file, first: number == 0, in: paths) {
                var source = file
                source.url = url
                do {
                    let fetched = try await fetcher.fetch(
                        source, in: paths, options: options, shortBefore: number == 0 ? shortBefore : nil,
                        waiting: waiting, progress: progress)
                    return Sourced(fetched: fetched, episode: source, passedOver: passedOver)
                } catch let failure as EpisodeFailure {
                    // The next source may have the file.
                    if case .notMedia(let kind) = failure {
                        passedOver.append(PassedOver(url: url, kind: kind))
                        notMedia = failure
                    } else {
                        other = failure
                    }
                }
            }
            // Another file of the episode only when this one is no file at all: one that failed otherwise (a 404,
            // a timeout) is tried again next run, never replaced by another encoding in passing.
            if other != nil { break }
        }
        throw other ?? notMedia ?? EpisodeFailure.invalidURL
    }

    /// The URLs to try for `file`: for the first file, the one an earlier run's download came from first.
    private func urls(of file: Episode, first: Bool, in paths: ShowState) -> [String] {
        var urls = PreferredFile.urls(for: file)
        if first, urls.count > 1,
            let kept = fetcher.records.loadDownloadRecord(
                PartialFiles(key: file.identity, state: paths)),
            let earlier = urls.firstIndex(where: { URLSecrets.redacted($0) == kept.url })
        {
            urls.insert(urls.remove(at: earlier), at: 0)
        }
        return urls
    }
}

extension EpisodeFetcher.Fetched {
    /// The URL the file came from as the response names it (after redirects); nil for a file adopted in place.
    var url: String? {
        guard case .downloaded(let result) = self else { return nil }
        return result.response.url?.absoluteString
    }
}
