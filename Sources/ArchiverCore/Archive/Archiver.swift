// The sync pipeline: read the feed, then for each episode not yet archived, download it to a hidden file in
// the feed folder, check it, rename it into place, date it, and record it in the index.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Archives podcast feeds. Every effect goes through the injected seams.
public struct Archiver: Sendable {
    public typealias FileStore = FileReading & DirectoryCreation & FileRemoval & AtomicFileWriting

    private let loader: FeedLoader
    private let downloader: any FileDownloading
    private let mover: any FileMovement
    private let attributes: any FileAttributes
    private let files: any FileStore
    private let now: @Sendable () -> Date

    /// - Parameters:
    ///   - fetcher: fetches feeds (live: a URLSession that refuses non-http(s) redirects).
    ///   - downloader: streams episodes to disk (live: `URLSessionDownloader`).
    ///   - mover, attributes, files: the file system (live: `FileManager.default`).
    ///   - now: the clock, for the index's "archived" dates.
    public init(
        fetcher: any URLDataFetcher,
        downloader: any FileDownloading,
        mover: any FileMovement = FileManager.default,
        attributes: any FileAttributes = FileManager.default,
        files: any FileStore = FileManager.default,
        now: @escaping @Sendable () -> Date
    ) {
        self.loader = FeedLoader(fetcher: fetcher, files: files)
        self.downloader = downloader
        self.mover = mover
        self.attributes = attributes
        self.files = files
        self.now = now
    }

    /// Reads the feed at `source` without archiving anything.
    public func list(_ source: FeedSource) async throws -> Feed {
        try await loader.load(source)
    }

    /// Archives every episode of the feed at `source` that `root` does not hold yet.
    ///
    /// - Returns: what was archived, what failed (each failure is also reported through `onEvent`).
    /// - Throws: `FeedError` when the feed cannot be fetched or read, `ArchiveError` when the archive folder or
    ///   its index cannot be used. Nothing already archived is touched in either case.
    public func sync(
        _ source: FeedSource, into root: URL, onEvent: @Sendable (SyncEvent) -> Void = { _ in }
    ) async throws -> SyncReport {
        let feed = try await loader.load(source)
        let title = feed.title.flatMap { FileNamer.sanitize($0).isEmpty ? nil : $0 } ?? Self.fallbackTitle(for: source)
        let folder = root.appendingPathComponent(Self.folderName(for: title, source: source), isDirectory: true)
        let stateFolder = folder.appendingPathComponent(ArchiveIndex.stateFolderName, isDirectory: true)
        try createFolder(stateFolder)

        let indexURL = stateFolder.appendingPathComponent(ArchiveIndex.fileName)
        var index = try loadIndex(at: indexURL) ?? ArchiveIndex(feed: source.displayName, title: feed.title)
        index.feed = source.displayName
        index.title = feed.title

        let pending = feed.episodes.filter { index.entry(forKey: $0.identity) == nil }
        var report = SyncReport(feedTitle: title, folder: folder)
        report.alreadyArchived = feed.episodes.count - pending.count
        onEvent(.feedRead(title: title, folder: folder, episodes: feed.episodes.count, new: pending.count))
        guard !pending.isEmpty else { return report }

        var names = NameAllocator(taken: Set((try? files.contentsOfDirectory(atPath: folder.path)) ?? []))
        var seenThisRun = Set<String>()
        for episode in pending where seenThisRun.insert(episode.identity).inserted {
            do {
                let (file, size) = try await archive(episode, in: folder, stateFolder: stateFolder, names: &names)
                index.record(
                    ArchiveIndex.Entry(
                        key: episode.identity, title: episode.title, url: episode.url, file: file.lastPathComponent,
                        size: size, published: episode.published.map(FeedDate.iso8601),
                        archived: FeedDate.iso8601(now())))
                try save(index, to: indexURL)
                report.archived.append(file)
                report.bytes += size
                onEvent(.archived(episode, file: file, bytes: size))
            } catch let failure as EpisodeFailure {
                report.failed.append((episode, failure))
                onEvent(.failed(episode, failure))
            }
        }
        return report
    }

    // MARK: - One episode

    private func archive(
        _ episode: Episode, in folder: URL, stateFolder: URL, names: inout NameAllocator
    ) async throws -> (URL, Int64) {
        guard let url = URL(string: episode.url), let scheme = url.scheme?.lowercased() else {
            throw EpisodeFailure.invalidURL
        }
        guard scheme == "http" || scheme == "https", url.host?.isEmpty == false else {
            throw scheme == "http" || scheme == "https"
                ? EpisodeFailure.invalidURL : EpisodeFailure.unsupportedScheme(scheme)
        }
        let partial = stateFolder.appendingPathComponent("download-\(Self.stableHash(episode.identity)).part")
        var request = URLRequest(url: url)
        request.setValue(PodarchiveVersion.userAgent, forHTTPHeaderField: "User-Agent")
        // Media is already compressed; asking for identity keeps Content-Length comparable with what arrives.
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")

        let result: DownloadResult
        do {
            result = try await downloader.download(request, to: partial)
        } catch let error as DownloadError {
            discard(partial)
            switch error {
            case .refusedRedirect(let location): throw EpisodeFailure.refusedRedirect(location)
            case .transport(let reason): throw EpisodeFailure.transport(reason)
            case .file(let path, let reason): throw EpisodeFailure.storage("cannot write \(path): \(reason)")
            }
        } catch {
            discard(partial)
            throw EpisodeFailure.transport(TransportReason.describe(error))
        }
        if let failure = DownloadCheck.failure(of: result) {
            discard(partial)
            throw failure
        }

        let stem = Self.stem(for: episode)
        let ext = FileNamer.fileExtension(url: episode.url, mimeType: episode.mimeType)
        let destination = try moveIntoPlace(partial, in: folder, stem: stem, ext: ext, names: &names)
        if let published = episode.published {
            // Linux cannot set a birth time: the creation date is ignored there, the modification date is set.
            try? attributes.setAttributes(
                [.modificationDate: published, .creationDate: published], ofItemAtPath: destination.path)
        }
        return (destination, result.bytesWritten)
    }

    /// Renames the checked download to the first free name; an existing file is never overwritten.
    private func moveIntoPlace(
        _ partial: URL, in folder: URL, stem: String, ext: String?, names: inout NameAllocator
    ) throws -> URL {
        var lastError: Error?
        for _ in 0..<100 {
            let name = names.claim(stem: stem, extension: ext)
            let destination = folder.appendingPathComponent(name, isDirectory: false)
            guard destination.deletingLastPathComponent().standardizedFileURL == folder.standardizedFileURL else {
                continue  // Unreachable with sanitized names; refuse rather than write outside the folder.
            }
            do {
                try mover.moveItem(at: partial, to: destination)
                return destination
            } catch {
                lastError = error
                // Taken meanwhile (or unwritable): try the next name only if the target now exists.
                guard files.fileExists(atPath: destination.path) else { break }
            }
        }
        discard(partial)
        throw EpisodeFailure.storage("cannot move download into \(folder.path): \(Self.describe(lastError))")
    }

    private func discard(_ file: URL) {
        try? files.removeItem(at: file)
    }

    // MARK: - Folder and index

    private func createFolder(_ url: URL) throws {
        do {
            try files.createDirectory(at: url, withIntermediateDirectories: true, attributes: nil)
        } catch {
            throw ArchiveError.cannotCreateFolder(path: url.path, reason: Self.describe(error))
        }
    }

    private func loadIndex(at url: URL) throws -> ArchiveIndex? {
        guard let data = files.contents(atPath: url.path) else { return nil }
        let index: ArchiveIndex
        do {
            index = try ArchiveIndex.decode(data)
        } catch {
            throw ArchiveError.damagedIndex(path: url.path, reason: "not valid index JSON")
        }
        guard index.version <= ArchiveIndex.currentVersion else {
            throw ArchiveError.newerIndex(path: url.path, version: index.version)
        }
        return index
    }

    private func save(_ index: ArchiveIndex, to url: URL) throws {
        do {
            try files.writeAtomically(try index.encoded(), to: url)
        } catch {
            throw ArchiveError.cannotWriteIndex(path: url.path, reason: Self.describe(error))
        }
    }

    // MARK: - Names

    /// The feed folder's name: the feed title, made safe.
    static func folderName(for title: String, source: FeedSource) -> String {
        let name = FileNamer.sanitize(title)
        return name.isEmpty ? FileNamer.sanitize(fallbackTitle(for: source)) : name
    }

    /// A name for a feed without a title: its host and path ("example.com-podcast-feed").
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
        return "Episode \(stableHash(episode.identity))"
    }

    /// FNV-1a, 64 bits, hex: a stable short name for an episode's partial download.
    static func stableHash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    static func describe(_ error: Error?) -> String {
        guard let error else { return "unknown error" }
        if let cocoa = error as? CocoaError, let underlying = cocoa.userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        return error.localizedDescription
    }
}

/// Hands out distinct file names within one folder: "Title.mp3", then "Title (2).mp3", ...
struct NameAllocator {
    private var taken: Set<String>

    init(taken: Set<String>) {
        // Compare the way case-insensitive file systems (macOS, Windows) would.
        self.taken = Set(taken.map { $0.lowercased() })
    }

    mutating func claim(stem: String, extension ext: String?) -> String {
        var counter = 1
        while true {
            let name = FileNamer.fileName(stem: stem, extension: ext, counter: counter)
            if taken.insert(name.lowercased()).inserted { return name }
            counter += 1
        }
    }
}

/// The checks a finished download must pass before it is renamed into place.
enum DownloadCheck {
    static func failure(of result: DownloadResult) -> EpisodeFailure? {
        if let http = result.response as? HTTPURLResponse {
            guard (200..<300).contains(http.statusCode) else { return .httpStatus(http.statusCode) }
            let encoding = http.value(forHTTPHeaderField: "Content-Encoding")?.lowercased() ?? "identity"
            if encoding == "identity", let declared = http.value(forHTTPHeaderField: "Content-Length"),
                let expected = Int64(declared.trimmingCharacters(in: .whitespaces)), expected != result.bytesWritten
            {
                return .lengthMismatch(expected: expected, received: result.bytesWritten)
            }
            if let type = http.value(forHTTPHeaderField: "Content-Type")?.lowercased(),
                type.hasPrefix("text/html") || type.hasPrefix("application/xhtml")
            {
                return .htmlPage
            }
        }
        if result.bytesWritten == 0 { return .emptyBody }
        return looksLikeHTML(result.leadingBytes) ? .htmlPage : nil
    }

    /// True when the body starts (after a BOM and white space) like an HTML document.
    static func looksLikeHTML(_ bytes: Data) -> Bool {
        var text = String(decoding: bytes.prefix(512), as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let head = text.drop(while: { $0.isWhitespace }).prefix(15).lowercased()
        return ["<!doctype html", "<html", "<head", "<body", "<title"].contains { head.hasPrefix($0) }
    }
}
