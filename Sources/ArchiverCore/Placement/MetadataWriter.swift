// `--metadata`: a JSON sidecar beside each archived file, and the feed's artwork once per feed folder.
//
// A sidecar is written after its episode is in place and in the index, so a crash can leave an episode without
// its sidecar (written by the next run that reads the feed) but never a sidecar without its episode, which would
// take the episode's name. Sidecars of episodes archived before `--metadata` was first given are written then.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Writes what `--metadata` keeps beside the episodes: sidecars, and the feed's artwork.
struct MetadataWriter: Sendable {
    let fetcher: EpisodeFetcher
    let files: any FileStore
    let mover: any FileMovement
    let writer: any AtomicFileWriting
    let records: ShowRecords
    let contents: FolderContents

    /// What a sidecar holds. Absent values are left out.
    struct Sidecar: Encodable {
        struct FeedInfo: Encodable {
            var title: String
            var url: String
        }

        var title: String?
        var description: String?
        var guid: String?
        /// The enclosure URL.
        var url: String
        /// The episode's web page.
        var link: String?
        var image: String?
        var published: String?
        var duration: TimeInterval?
        var episode: Int?
        var season: Int?
        var type: String?
        var feed: FeedInfo
        var file: String
        var size: Int64
        var sha256: String?
        var archived: String
        /// Transcripts, chapters and artwork kept beside the file (absent when none).
        var companions: [CompanionFile]?
        /// The alternate enclosures, the one archived and the publisher's hash (absent when the feed gave none).
        var publisher: PublisherRecord?
    }

    /// Writes the sidecar of `entry` (the episode as the feed describes it now), dated like the episode.
    /// - Throws: `ArchiveError.storage` when it cannot be written (a full disk stops the run as for episodes).
    func writeSidecar(for episode: Episode, entry: ArchiveIndex.Entry, in show: FeedFolder) throws {
        // Every URL as it may be read by anyone the archive is served to: redacted (see `SecretForms`).
        let sidecar = Sidecar(
            title: episode.title, description: episode.description, guid: episode.guid.map(URLSecrets.redacted),
            url: URLSecrets.redacted(episode.url), link: episode.link.map(URLSecrets.redacted),
            image: episode.imageURL.map(URLSecrets.redacted), published: episode.published.map(FeedDate.iso8601),
            duration: episode.duration, episode: episode.episodeNumber, season: episode.seasonNumber,
            type: episode.mimeType,
            feed: Sidecar.FeedInfo(title: show.title, url: URLSecrets.redacted(show.index.feed)),
            file: (entry.file as NSString).lastPathComponent, size: entry.size, sha256: entry.sha256,
            archived: entry.archived, companions: entry.companions.flatMap { $0.isEmpty ? nil : $0 },
            publisher: entry.publisher)
        let url = show.folder.appendingPathComponent(ArchiveNames.sidecarName(for: entry.file), isDirectory: false)
        do {
            try writer.writeAtomically(
                try JSONEncoder.sidecars.encode(sidecar), to: url, durable: false, stagedIn: show.stateFolder)
        } catch {
            throw ArchiveError.storage(error, path: url.path)
        }
        contents.setDates(of: url, to: episode.published)
    }

    // MARK: - Artwork

    /// Downloads the feed's artwork to `cover.<ext>` in the feed folder, with the checks, retries, resume and
    /// deadline of an episode and the size cap of a companion.
    /// - Returns: the file, or why it could not be fetched (tried again on the next run).
    /// - Throws: `ArchiveError` when the archive cannot be written.
    func fetchArtwork(
        _ imageURL: String, in show: FeedFolder, names: inout NameAllocator, options: SyncOptions
    ) async throws -> Result<URL, EpisodeFailure> {
        let image = Episode(title: "cover", guid: nil, url: imageURL)
        let partial = show.partial(image.identity)
        let fetched: EpisodeFetcher.Fetched
        do {
            fetched = try await fetcher.fetch(image, in: show.state, options: options.forCompanions)
        } catch let failure as EpisodeFailure {
            return .failure(failure)
        }
        guard case .downloaded(let result) = fetched else {
            return .failure(.storage("the artwork's download record names an episode file"))
        }
        // Named after what its bytes are, whatever the feed or the server said: an SVG (which runs scripts where
        // the archive is served) or anything else not a raster image is not kept as the show's cover.
        guard
            case .image(let ext) = LiveContent.sniff(
                files.prefix(ofFileAtPath: partial.body.path, count: 1024) ?? Data())
        else {
            records.discard(partial)
            return .failure(.storage("it is not a JPEG, PNG, WebP or GIF image; not kept"))
        }
        let name = ArchiveLayout.coverName(ext)
        guard names.claim(siteFile: name) else {
            records.discard(partial)
            return .failure(.storage("\(name) is taken by an episode"))
        }
        let destination = show.folder.appendingPathComponent(name, isDirectory: false)
        do {
            try mover.moveItem(at: partial.body, to: destination)
        } catch {
            records.discard(partial)
            if files.fileExists(atPath: destination.path) {
                return .failure(.storage("\(name) exists already"))
            }
            throw ArchiveError.storage(error, path: destination.path)
        }
        records.forget(partial)
        contents.setOrigin(of: destination, to: imageURL)
        // What its server sent, for the export (the index records no cover).
        contents.setMediaType(
            of: destination, to: (result.response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type"))
        return .success(destination)
    }
}

extension JSONEncoder {
    /// Sidecars are for people too: indented, keys sorted.
    static let sidecars: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
