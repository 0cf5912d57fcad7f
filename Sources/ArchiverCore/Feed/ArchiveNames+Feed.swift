// The names podarchive makes from what a feed says, when it says too little: a show's from its feed's address, an
// episode file's stem from its title, enclosure or GUID. (The names that need no feed: ArchiveNames.swift.)
import Foundation

extension ArchiveNames {
    /// A name for a feed without a title: its host and path ("example.com/podcast/feed").
    static func fallbackTitle(for source: FeedSource) -> String {
        switch source {
        case .remote(let url):
            let path = url.deletingPathExtension().path
            return (url.host ?? "feed") + (path == "/" ? "" : path)
        case .local(let path):
            return URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        }
    }

    /// The episode file's stem: its title, else the enclosure's file name, else its GUID.
    static func stem(for episode: Episode) -> String {
        let candidates = [
            episode.title,
            URL(string: episode.url).map { $0.deletingPathExtension().lastPathComponent },
            episode.guid,
        ]
        for case let candidate? in candidates {
            let name = FileNamer.sanitize(candidate, maximumBytes: 200)
            if !name.isEmpty { return name }
        }
        return "Episode \(StableName.of(episode.identity))"
    }
}
