// An episode archived as an alternate enclosure (`--prefer`) may be fetched from any of its sources: each http(s)
// one is tried in the feed's order until one gives the file.
import Foundation

extension EpisodeFetcher {
    /// What `fetch(trying:)` produced, and the URL of the source that served it.
    struct Sourced: Sendable {
        var fetched: Fetched
        /// One of the episode's URLs (see `PreferredFile.urls`), as the feed lists it.
        var url: String
    }

    /// `fetch` from each URL of `episode` in turn (see `PreferredFile.urls`), the one an earlier run's download of
    /// it came from first (its bytes resumed, or adopted); the last failure when none works.
    func fetch(
        trying episode: Episode, in paths: FolderPaths, options: SyncOptions,
        waiting: (@Sendable (TimeInterval, EpisodeFailure) -> Void)? = nil, progress: ProgressHandler? = nil
    ) async throws -> Sourced {
        var urls = PreferredFile.urls(for: episode)
        if urls.count > 1,
            let kept = records.loadDownloadRecord(PartialFiles(key: episode.identity, stateFolder: paths.stateFolder)),
            let earlier = urls.firstIndex(where: { URLSecrets.redacted($0) == kept.url })
        {
            urls.insert(urls.remove(at: earlier), at: 0)
        }
        var failure = EpisodeFailure.invalidURL
        for url in urls {
            var source = episode
            source.url = url
            do {
                return Sourced(
                    fetched: try await fetch(source, in: paths, options: options, waiting: waiting, progress: progress),
                    url: url)
            } catch let error as EpisodeFailure {
                failure = error  // the next source may have the file
            }
        }
        throw failure
    }
}

extension EpisodeFetcher.Fetched {
    /// The URL the file came from as the response names it (after redirects); nil for a file adopted in place.
    var url: String? {
        guard case .downloaded(let result) = self else { return nil }
        return result.response.url?.absoluteString
    }
}
