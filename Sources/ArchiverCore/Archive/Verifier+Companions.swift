// `verify --repair` for what is kept beside an episode: a damaged transcript, chapters document or artwork is
// fetched again through the episode path and replaces the damaged file only once it is complete and checked.
import Foundation

extension Verifier {
    /// Fetches `companion` again and puts it in place of the damaged file; the damaged file stays when that
    /// fails. Returns why it failed, or nil.
    func repairCompanion(
        _ companion: CompanionFile, of entry: ArchiveIndex.Entry, in show: inout FeedFolder, options: SyncOptions
    ) async -> EpisodeFailure? {
        guard let url = companion.url else {
            return .storage("the feed gave these chapters inline; the next sync writes them again when it lists them")
        }
        let pseudo = Episode(title: companion.file, guid: nil, url: url, mimeType: companion.type)
        let partial = show.partial(url)
        var aside: URL?
        do {
            guard case .downloaded(let result) = try await fetcher.fetch(pseudo, in: show.paths, options: options)
            else { return .storage("an earlier run left a download record for another file") }
            guard result.fileSize <= CompanionKeeper.maximumBytes else {
                folders.discard(partial)
                return .storage("it is \(result.fileSize) bytes, more than a companion may be")
            }
            aside = try folders.setAside(companion.file, in: show)
            let destination = show.folder.appendingPathComponent(companion.file, isDirectory: false)
            do {
                try folders.mover.moveItem(at: partial.body, to: destination)
            } catch {
                throw EpisodeFailure.storage("\(companion.file) could not be put back: \(ArchiveError.describe(error))")
            }
            folders.forget(partial)
            if let aside { try? folders.files.removeItem(at: aside) }
            folders.setDates(of: destination, to: entry.published.flatMap(FeedDate.parseRFC3339))
            folders.setOrigin(of: destination, to: url)
            var repaired = companion
            repaired.size = result.fileSize
            repaired.sha256 = result.sha256
            show.index.recordCompanion(repaired, forKey: entry.key)
            try folders.save(show.index, to: show.indexURL)
            return nil
        } catch let failure as EpisodeFailure {
            // Keep what there was rather than nothing.
            if let aside {
                try? folders.mover.moveItem(at: aside, to: show.folder.appendingPathComponent(companion.file))
            }
            return failure
        } catch {
            if let aside {
                try? folders.mover.moveItem(at: aside, to: show.folder.appendingPathComponent(companion.file))
            }
            return .storage(error.reasonText)
        }
    }
}
