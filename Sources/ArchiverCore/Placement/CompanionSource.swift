// A companion several episodes name (one transcript, chapters document or image URL for three episodes) is fetched
// once and kept for each episode as a file of its own (dated like its episode, checked, repaired and exported as
// any other): the first of them fetches it, the others copy what it kept; one an earlier run kept, intact, is
// copied rather than fetched again. Fetched side by side into one hidden file, they overwrote each other.
import Foundation

/// Where the companion at one position of a run's list comes from.
enum CompanionSource: Equatable, Sendable {
    /// Fetched (the first position that names its URL).
    case fetch
    /// Given inline by the feed (chapters).
    case inline
    /// A copy of what an earlier position that names the same URL keeps.
    case sameAs(Int)
    /// A copy of a file the show keeps of the same URL, if it is intact (else fetched).
    case copy(CompanionFile)

    /// What one position produced: fetched, inline, or to be copied.
    enum Got: Sendable {
        case fetched(Result<EpisodeFetcher.Fetched, Error>)
        case inline
        case sameAs(Int)
        case copy(CompanionFile)
    }

    /// The source of each of the companions at `urls` (nil: given inline), as the index records them (redacted):
    /// the first that names a URL fetches it, unless the show already keeps a file of it (`index`'s, in
    /// `present`); the others copy what the first keeps.
    static func plan(_ urls: [String?], index: ArchiveIndex, present: Set<String>) -> [CompanionSource] {
        var kept: [String: CompanionFile] = [:]
        for entry in index.episodes {
            for companion in entry.companions ?? [] {
                guard let url = companion.url, present.contains(companion.file), kept[url] == nil else { continue }
                kept[url] = companion
            }
        }
        var first: [String: Int] = [:]
        return urls.enumerated().map { position, url in
            guard let url else { return .inline }
            if let leader = first[url] { return .sameAs(leader) }
            first[url] = position
            return kept[url].map(CompanionSource.copy) ?? .fetch
        }
    }
}

extension CompanionKeeper {
    /// Whether the show's file `kept` still holds what its record says.
    func intact(_ kept: CompanionFile, in paths: ShowState) -> Bool {
        let digest = try? hasher.sha256(ofFileAtPath: paths.folder.appendingPathComponent(kept.file).path)
        return digest?.size == kept.size && digest?.digest == kept.sha256
    }

    /// Keeps a copy of the show's file `kept` (intact as recorded) as `item`'s own: copied under a temporary name
    /// in the state folder (cleared of what a killed run left when the show is next opened), checked against the
    /// record, renamed into place (never over another file) and recorded.
    /// - Throws: `EpisodeFailure` when it cannot be copied whole; `ArchiveError` when the archive cannot be written.
    func placeCopy(of kept: CompanionFile, for item: Wanted, in show: inout FeedFolder) throws -> CompanionFile {
        let source = show.folder.appendingPathComponent(kept.file, isDirectory: false)
        let staged = show.state.listed(TemporaryFiles.name(for: (item.name as NSString).lastPathComponent))
        do {
            try placer.mover.copyItem(at: source, to: staged)
        } catch {
            try? files.removeItem(at: staged)
            // Gone meanwhile, it is this companion's failure; a copy the state folder cannot take (a full disk)
            // stops the run, as a download would.
            guard files.fileExists(atPath: source.path) else {
                throw EpisodeFailure.storage("\(kept.file), of which it is a copy, is gone")
            }
            throw ArchiveError.storage(error, path: staged.path)
        }
        let copied = try? hasher.sha256(ofFileAtPath: staged.path)
        guard let copied, copied.size == kept.size, copied.digest == kept.sha256 else {
            try? files.removeItem(at: staged)
            throw EpisodeFailure.storage("\(kept.file) changed while it was copied")
        }
        // Named as its bytes say, as the first one was (see `LiveContent`).
        let head = files.prefix(ofFileAtPath: staged.path, count: 1024) ?? copied.leading
        let name = LiveContent.name(
            for: item.name, artwork: item.companion.kind == .artwork, sniffed: LiveContent.sniff(head))
        try putInPlace(staged, as: name, size: kept.size, sha256: kept.sha256, for: item, in: show)
        // The same bytes from the same URL: what its server sent is this copy's too.
        return record(
            item, file: name, size: kept.size, sha256: kept.sha256, contentType: kept.contentType, in: &show)
    }
}
