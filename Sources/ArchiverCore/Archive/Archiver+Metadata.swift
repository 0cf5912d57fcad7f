// `--metadata`: a JSON sidecar beside each archived file, and the feed's artwork once per feed folder.
//
// A sidecar is written after its episode is in place and in the index, so a crash can leave an episode without
// its sidecar (written by the next run that reads the feed) but never a sidecar without its episode, which would
// take the episode's name. Sidecars of episodes archived before `--metadata` was first given are written then.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Archiver {
    /// The sidecar of an archived file: `Season 1/Pilot.mp3` has `Season 1/Pilot.info.json`.
    public static func sidecarName(for file: String) -> String {
        // By bytes: String index arithmetic cost 40,000 instructions a name, and an archive has thousands.
        let utf8 = Array(file.utf8)
        var nameStart = 0
        var dot: Int?
        for (position, byte) in utf8.enumerated() {
            if byte == UInt8(ascii: "/") {
                nameStart = position + 1
                dot = nil
            } else if byte == UInt8(ascii: "."), position > nameStart {
                dot = position
            }
        }
        return String(decoding: utf8[..<(dot ?? utf8.count)], as: UTF8.self) + sidecarSuffix
    }

    /// What a sidecar's name ends with.
    static let sidecarSuffix = ".info.json"

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
    }

    /// Writes the sidecar of `entry` (the episode as the feed describes it now), dated like the episode.
    /// - Throws: `ArchiveError.storage` when it cannot be written (a full disk stops the run as for episodes).
    func writeSidecar(for episode: Episode, entry: ArchiveIndex.Entry, feedTitle: String, in context: FeedContext)
        throws
    {
        let sidecar = Sidecar(
            title: episode.title, description: episode.description, guid: episode.guid, url: episode.url,
            link: episode.link, image: episode.imageURL, published: episode.published.map(FeedDate.iso8601),
            duration: episode.duration, episode: episode.episodeNumber, season: episode.seasonNumber,
            type: episode.mimeType, feed: Sidecar.FeedInfo(title: feedTitle, url: context.index.feed),
            file: (entry.file as NSString).lastPathComponent, size: entry.size, sha256: entry.sha256,
            archived: entry.archived)
        let url = context.folder.appendingPathComponent(Self.sidecarName(for: entry.file), isDirectory: false)
        do {
            try writer.writeAtomically(try JSONEncoder.sidecars.encode(sidecar), to: url, durable: false)
        } catch {
            throw Self.storageError(error, path: url.path)
        }
        folders.setDates(of: url, to: episode.published)
    }

    // MARK: - Artwork

    /// The names the feed's artwork is kept under; one of them in the feed folder means it is there.
    static let artworkExtensions: Set<String> = ["jpg", "jpeg", "png", "webp", "gif"]

    static func isArtwork(_ name: String) -> Bool {
        let lowered = name.lowercased()
        guard lowered.hasPrefix("cover.") else { return false }
        return artworkExtensions.contains(String(lowered.dropFirst("cover.".count)))
    }

    /// Downloads the feed's artwork to `cover.<ext>` in the feed folder, with the checks, retries and resume of an
    /// episode.
    /// - Returns: the file, or why it could not be fetched (tried again on the next run).
    /// - Throws: `ArchiveError` when the archive cannot be written.
    func fetchArtwork(
        _ imageURL: String, in context: FeedContext, names: inout NameAllocator, options: SyncOptions
    ) async throws -> Result<URL, EpisodeFailure> {
        let image = Episode(title: "cover", guid: nil, url: imageURL)
        let partial = PartialFiles(key: image.identity, stateFolder: context.stateFolder)
        let result: DownloadResult
        do {
            switch try await fetch(.new(image), in: context.paths, options: options) {
            case .downloaded(let downloaded): result = downloaded
            case .placed: return .failure(.storage("the artwork's download record names an episode file"))
            }
        } catch let failure as EpisodeFailure {
            return .failure(failure)
        }
        let type = (result.response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type")
        let fromServer = FileNamer.fileExtension(url: imageURL, mimeType: type)?.lowercased()
        let ext = fromServer.flatMap { Self.artworkExtensions.contains($0) ? $0 : nil } ?? "jpg"
        let name = "cover.\(ext)"
        guard names.claim(exactly: name) else {
            folders.discard(partial)
            return .failure(.storage("\(name) is taken by an episode"))
        }
        let destination = context.folder.appendingPathComponent(name, isDirectory: false)
        do {
            try mover.moveItem(at: partial.body, to: destination)
        } catch {
            folders.discard(partial)
            if files.fileExists(atPath: destination.path) { return .failure(.storage("\(name) exists already")) }
            throw Self.storageError(error, path: destination.path)
        }
        try? files.removeItem(at: partial.record)
        folders.setOrigin(of: destination, to: imageURL)
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
