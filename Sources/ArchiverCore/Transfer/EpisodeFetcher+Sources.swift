// An episode archived as an alternate enclosure (`--prefer`) may be fetched from any of its sources: each http(s)
// one is tried in the feed's order until one gives the file.
import Foundation

extension EpisodeFetcher {
    /// `fetch` from each URL of `episode` in turn (see `PreferredFile.urls`); the last failure when none works.
    func fetch(
        trying episode: Episode, in paths: FolderPaths, options: SyncOptions,
        waiting: (@Sendable (TimeInterval, EpisodeFailure) -> Void)? = nil, progress: ProgressHandler? = nil
    ) async throws -> Fetched {
        var failure = EpisodeFailure.invalidURL
        for url in PreferredFile.urls(for: episode) {
            var source = episode
            source.url = url
            do {
                return try await fetch(source, in: paths, options: options, waiting: waiting, progress: progress)
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
