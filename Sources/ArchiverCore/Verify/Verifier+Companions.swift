// `verify --repair` for what is kept beside an episode: a damaged transcript, chapters document or artwork is
// fetched again through the episode path and replaces the damaged file only once it is complete and checked.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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
            guard
                case .downloaded(let result) = try await fetcher.fetch(
                    pseudo, in: show.state, options: options.forCompanions)
            else { return .storage("an earlier run left a download record for another file") }
            if let refusal = CompanionKeeper.refusal(ofSize: result.fileSize, options: options) {
                records.discard(partial)
                return refusal
            }
            aside = try contents.setAside(companion.file, in: show)
            guard
                try placer.move(
                    partial.body, to: companion.file, in: show,
                    published: entry.published.flatMap(FeedDate.parseRFC3339), origin: url)
            else {
                throw EpisodeFailure.storage("\(companion.file) was taken meanwhile; the damaged file is kept")
            }
            records.forget(partial)
            if let aside { try? files.removeItem(at: aside) }
            var repaired = companion
            repaired.size = result.fileSize
            repaired.sha256 = result.sha256
            repaired.contentType = (result.response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type")
            show.index.recordCompanion(repaired, forKey: entry.key)
            try indexes.save(&show)
            return nil
        } catch let failure as EpisodeFailure {
            // Keep what there was rather than nothing.
            if let aside {
                try? mover.moveItem(at: aside, to: show.folder.appendingPathComponent(companion.file))
            }
            return failure
        } catch {
            if let aside {
                try? mover.moveItem(at: aside, to: show.folder.appendingPathComponent(companion.file))
            }
            return .storage(error.reasonText)
        }
    }
}
