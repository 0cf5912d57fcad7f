// One episode: resume what an earlier run left, try again what may succeed later, check the result, record it
// as complete, and only then rename it into place.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Archiver {
    /// Downloads, checks, places and records one episode; returns its index entry (already saved).
    /// - Throws: `EpisodeFailure` for this episode only; `ArchiveError` when the run must stop (disk full...).
    func archive(
        _ item: WorkItem, in context: inout FeedContext, names: inout NameAllocator, options: SyncOptions
    ) async throws -> ArchiveIndex.Entry {
        try complete(
            try await fetch(item, in: context.paths, options: options), item: item, in: &context, names: &names)
    }

    /// The serial half of archiving an episode, after `fetch`: rename the download into place (unless an earlier
    /// run already had), record it in the index, save the index, and drop the download record.
    func complete(
        _ fetched: Fetched, item: WorkItem, in context: inout FeedContext, names: inout NameAllocator
    ) throws -> ArchiveIndex.Entry {
        let entry: ArchiveIndex.Entry
        switch fetched {
        case .placed(let adopted):
            entry = adopted
        case .downloaded(let result):
            entry = try place(
                result, item: item, files: PartialFiles(key: item.episode.identity, stateFolder: context.stateFolder),
                context: context, names: &names)
        }
        context.index.record(entry)
        try folders.save(context.index, to: context.indexURL)
        forgetDownload(of: item.episode, in: context.stateFolder)
        return entry
    }

    /// What `fetch` produced.
    enum Fetched: Sendable {
        /// An earlier run had already renamed the file into place; only its index entry was missing.
        case placed(ArchiveIndex.Entry)
        /// The checked download waits in its hidden file for `place`.
        case downloaded(DownloadResult)
    }

    /// The folders one episode's work happens in.
    struct FolderPaths: Sendable {
        var folder: URL
        var stateFolder: URL
    }

    /// Everything for one episode that can run beside other episodes: resume or adopt what an earlier run left,
    /// download with retries, check. Touches only this episode's hidden files.
    func fetch(
        _ item: WorkItem, in paths: FolderPaths, options: SyncOptions, progress: ProgressHandler? = nil
    ) async throws -> Fetched {
        let episode = item.episode
        let url = try Self.downloadableURL(episode.url)
        let files = PartialFiles(key: episode.identity, stateFolder: paths.stateFolder)
        var record: PartialRecord? = folders.loadRecord(files.record)
        if record?.url != episode.url {
            discard(files)
            record = nil
        }
        if let record, let adopted = try adopt(record, episode: episode, files: files, folder: paths.folder) {
            return adopted
        }

        let deadline = now().addingTimeInterval(options.episodeTimeout)
        var attempt = 0
        while true {
            attempt += 1
            do {
                return .downloaded(
                    try await attemptDownload(
                        url, episode: episode, files: files, deadline: deadline, options: options, progress: progress)
                )
            } catch let stop as AttemptFailure {
                switch stop {
                case .startOver:
                    discard(files)
                    if attempt > options.retry.retries + 1 {
                        throw EpisodeFailure.transport("the server kept changing the file")
                    }
                case .failed(let failure, let retryAfter):
                    guard RetryPolicy.isRetryable(failure), attempt <= options.retry.retries else { throw failure }
                    let delay = options.retry.delay(beforeRetry: attempt, jitter: jitter(), retryAfter: retryAfter)
                    // No time left to wait and try again: the partial file stays for the next run to resume.
                    guard delay < deadline.timeIntervalSince(now()) else { throw failure }
                    try await sleep(delay)
                }
            }
        }
    }

    /// Why one attempt did not produce a file.
    enum AttemptFailure: Error {
        /// Worth another attempt or not (see `RetryPolicy`), with the server's `Retry-After` if it sent one.
        case failed(EpisodeFailure, retryAfter: TimeInterval?)
        /// What was kept cannot be continued (416, a changed file): drop it and download from the start.
        case startOver
    }

    /// The hidden files of one episode's download: the bytes so far and what is known about them.
    struct PartialFiles {
        var body: URL
        var record: URL

        init(key: String, stateFolder: URL) {
            let base = "download-\(StableName.of(key))"
            body = stateFolder.appendingPathComponent(base + ".part")
            record = stateFolder.appendingPathComponent(base + ".json")
        }
    }

    // MARK: - One attempt

    /// Reports a download's bytes so far, and the total when the server or the feed said it.
    typealias ProgressHandler = @Sendable (_ received: Int64, _ expected: Int64?) -> Void

    private func attemptDownload(
        _ url: URL, episode: Episode, files partial: PartialFiles, deadline: Date, options: SyncOptions,
        progress: ProgressHandler?
    ) async throws -> DownloadResult {
        let record: PartialRecord? = folders.loadRecord(partial.record)
        var offset: Int64 = 0
        if let record, record.validator != nil, let size = fileSize(partial.body), size > 0 {
            offset = size
            if let expected = record.expectedSize, expected == size {
                // Every byte arrived before the process stopped: nothing to fetch, only to check.
                return try completedPartial(url, files: partial, size: size)
            }
        }
        var request = URLRequest(url: url)
        request.setValue(PodarchiveVersion.userAgent, forHTTPHeaderField: "User-Agent")
        // Media is already compressed; identity keeps Content-Length comparable with what arrives.
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        if offset > 0, let validator = record?.validator {
            request.setValue("bytes=\(offset)-", forHTTPHeaderField: "Range")
            request.setValue(validator, forHTTPHeaderField: "If-Range")
        }
        let expected = ExpectedSize(episode.length)
        let admit = admission(for: episode.url, files: partial, offset: offset, expected: expected)
        let remaining = deadline.timeIntervalSince(now())
        guard remaining > 0 else { throw AttemptFailure.failed(.timedOut(options.episodeTimeout), retryAfter: nil) }

        let result: DownloadResult
        let finalRequest = request
        var onBytes: (@Sendable (Int64) -> Void)?
        if let progress { onBytes = { bytes in progress(bytes, expected.value) } }
        let transferOptions = DownloadOptions(
            resumeOffset: offset, admit: admit, progress: onBytes,
            resumeValidator: offset > 0 ? record?.validator : nil,
            resumeTotal: offset > 0 ? record?.expectedSize : nil)
        do {
            result = try await Deadline.run(seconds: remaining) { [downloader] in
                try await downloader.download(finalRequest, to: partial.body, options: transferOptions)
            }
        } catch is Deadline.Exceeded {
            throw AttemptFailure.failed(.timedOut(options.episodeTimeout), retryAfter: nil)
        } catch let error as DownloadError {
            switch error {
            case .refusedRedirect(let location):
                throw AttemptFailure.failed(.refusedRedirect(location), retryAfter: nil)
            case .transport(let reason): throw AttemptFailure.failed(.transport(reason), retryAfter: nil)
            case .unexpectedRange: throw AttemptFailure.startOver
            case .file(let path, let reason, let code):
                if [ENOSPC, EDQUOT, EROFS, EACCES, EPERM].contains(code) {
                    throw ArchiveError.storage(path: path, reason: reason)
                }
                throw AttemptFailure.failed(.storage("cannot write \(path): \(reason)"), retryAfter: nil)
            }
        }
        guard let http = result.response as? HTTPURLResponse else { return result }
        if http.statusCode == 416, offset > 0 { throw AttemptFailure.startOver }
        if let failure = DownloadCheck.failure(
            of: result,
            expectedSize: folders.loadRecord(partial.record).flatMap { (r: PartialRecord) in r.expectedSize },
            feedLength: episode.length)
        {
            if case .lengthMismatch(let expected, let received) = failure, received > expected { discard(partial) }
            if failure == .htmlPage || failure == .emptyBody { discard(partial) }
            throw AttemptFailure.failed(failure, retryAfter: RetryPolicy.retryAfter(result.response, now: now()))
        }
        return result
    }

    /// Sees each response before its body: records what a later resume needs, and refuses a file the disk
    /// cannot hold.
    private func admission(
        for url: String, files partial: PartialFiles, offset: Int64, expected: ExpectedSize
    ) -> @Sendable (HTTPURLResponse, Bool) -> Error? {
        let writer = self.writer
        let files = self.files
        return { response, appending in
            let etag = response.value(forHTTPHeaderField: "ETag").flatMap { $0.hasPrefix("W/") ? nil : $0 }
            let validator = etag ?? response.value(forHTTPHeaderField: "Last-Modified")
            let length = response.value(forHTTPHeaderField: "Content-Length").flatMap {
                Int64($0.trimmingCharacters(in: .whitespaces))
            }
            let encoded =
                (response.value(forHTTPHeaderField: "Content-Encoding") ?? "identity").lowercased() != "identity"
            let total =
                appending
                ? ContentRange(response.value(forHTTPHeaderField: "Content-Range"))?.total
                : (encoded ? nil : length)
            let record = PartialRecord(url: url, validator: validator, expectedSize: total)
            if let total { expected.value = total }
            do {
                try writer.writeAtomically(try JSONEncoder.records.encode(record), to: partial.record, durable: false)
            } catch {
                return Archiver.storageError(error, path: partial.record.path)
            }
            let needed = (total ?? length ?? 0) - (appending ? offset : 0)
            let folder = partial.body.deletingLastPathComponent().path
            if needed > 0,
                let free = (try? files.attributesOfFileSystem(forPath: folder))?[.systemFreeSize] as? NSNumber,
                free.int64Value < needed
            {
                return ArchiveError.storage(
                    path: folder,
                    reason: "the episode needs \(needed) bytes and only \(free.int64Value) are free")
            }
            return nil
        }
    }

    /// A partial file that already holds every byte: hash it from disk instead of fetching anything.
    private func completedPartial(_ url: URL, files partial: PartialFiles, size: Int64) throws -> DownloadResult {
        let hashed: FileDigest
        do {
            hashed = try hasher.sha256(ofFileAtPath: partial.body.path)
        } catch {
            throw AttemptFailure.startOver
        }
        let response = HTTPURLResponse(
            url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Length": String(size)])!
        return DownloadResult(
            response: response, bytesWritten: hashed.size, fileSize: hashed.size, sha256: hashed.digest,
            leadingBytes: hashed.leading)
    }

    // MARK: - Into place

    /// Records the checked download as complete, renames it into place (never over another file) and dates it.
    func place(
        _ result: DownloadResult, item: WorkItem, files partial: PartialFiles, context: FeedContext,
        names: inout NameAllocator
    ) throws -> ArchiveIndex.Entry {
        let episode = item.episode
        let feedTitle = context.index.title ?? context.folder.lastPathComponent
        var name: String
        if case .missing(let entry) = item {
            // A file fetched again goes back under its old name.
            names.release(entry.file)
            name =
                names.claim(exactly: entry.file)
                ? entry.file : names.claim(for: episode, template: context.names, feedTitle: feedTitle)
        } else {
            // The same bytes already in the folder, unindexed (an index rebuilt): that file is this episode.
            if let existing = unindexedFile(for: episode, in: context, template: context.names),
                let hashed = try? hasher.sha256(ofFileAtPath: context.folder.appendingPathComponent(existing).path),
                hashed.size == result.fileSize, hashed.digest == result.sha256
            {
                try? files.removeItem(at: partial.body)
                setDates(of: context.folder.appendingPathComponent(existing), to: episode.published)
                return entry(for: episode, file: existing, size: hashed.size, sha256: hashed.digest)
            }
            name = names.claim(for: episode, template: context.names, feedTitle: feedTitle)
        }
        if let slash = name.lastIndex(of: "/") {
            let subfolder = context.folder.appendingPathComponent(String(name[..<slash]), isDirectory: true)
            // A file where the template wants a folder is this episode's problem, not the archive's: it fails
            // (and is tried again next run) while the others go on. Other errors (a full disk) stop the run.
            var ancestor = subfolder
            while ancestor.path.count > context.folder.path.count {
                if files.fileExists(atPath: ancestor.path),
                    (try? files.contentsOfDirectory(atPath: ancestor.path)) == nil
                {
                    names.release(name)
                    throw EpisodeFailure.storage("\(ancestor.path) is a file, where the name template wants a folder")
                }
                ancestor.deleteLastPathComponent()
            }
            try folders.createFolder(subfolder)
        }
        var record: PartialRecord = folders.loadRecord(partial.record) ?? PartialRecord(url: episode.url)
        record.completeSize = result.fileSize
        record.sha256 = result.sha256
        for _ in 0..<100 {
            record.target = name
            try folders.saveRecord(record, to: partial.record)
            faults?(.beforeRename)
            let destination = context.folder.appendingPathComponent(name, isDirectory: false)
            do {
                try mover.moveItem(at: partial.body, to: destination)
                faults?(.afterRename)
                setDates(of: destination, to: episode.published)
                setOrigin(of: destination, to: episode.url)
                return entry(for: episode, file: name, size: result.fileSize, sha256: result.sha256)
            } catch {
                // Taken meanwhile by something else: never overwrite it, take the next name.
                guard self.files.fileExists(atPath: destination.path) else {
                    throw Self.storageError(error, path: destination.path)
                }
                name = names.claim(for: episode, template: context.names, feedTitle: feedTitle)
            }
        }
        throw EpisodeFailure.storage("no free name for \(name) in \(context.folder.path)")
    }

    /// An earlier run finished this download and died around the rename: finish its work instead of downloading
    /// again (and instead of keeping the episode twice).
    private func adopt(
        _ record: PartialRecord, episode: Episode, files partial: PartialFiles, folder: URL
    ) throws -> Fetched? {
        guard let sha256 = record.sha256, let size = record.completeSize, let target = record.target else { return nil }
        let placed = folder.appendingPathComponent(target)
        if fileSize(partial.body) == nil, let hashed = try? hasher.sha256(ofFileAtPath: placed.path),
            hashed.size == size, hashed.digest == sha256
        {
            // Renamed into place; only the index entry was missing.
            setDates(of: placed, to: episode.published)
            setOrigin(of: placed, to: episode.url)
            return .placed(entry(for: episode, file: target, size: size, sha256: sha256))
        }
        if let hashed = try? hasher.sha256(ofFileAtPath: partial.body.path), hashed.size == size,
            hashed.digest == sha256
        {
            // Complete and checked, not yet renamed: `place` renames it.
            return .downloaded(
                DownloadResult(
                    response: HTTPURLResponse(
                        url: URL(string: record.url)!, statusCode: 200, httpVersion: nil, headerFields: nil)!,
                    bytesWritten: size, fileSize: size, sha256: sha256, leadingBytes: hashed.leading))
        }
        discard(partial)
        return nil
    }

    func entry(for episode: Episode, file: String, size: Int64, sha256: String) -> ArchiveIndex.Entry {
        ArchiveIndex.Entry(
            key: episode.identity, guid: episode.guid, title: episode.title, url: episode.url, file: file, size: size,
            sha256: sha256, published: episode.published.map(FeedDate.iso8601), archived: FeedDate.iso8601(now()))
    }

    /// The modification date (and, where the OS allows, the creation date) becomes the publication date.
    func setDates(of file: URL, to published: Date?) {
        guard let published else { return }
        // Linux cannot set a birth time: FileManager ignores the creation date there and sets the modification date.
        try? attributes.setAttributes(
            [.modificationDate: published, .creationDate: published], ofItemAtPath: file.path)
    }

    /// Records where the file came from in `user.xdg.origin.url`, as `curl --xattr` and `wget --xattr` do, where
    /// the file system keeps extended attributes. A separate call, so a file system without them costs nothing else.
    func setOrigin(of file: URL, to url: String) {
        try? attributes.setAttributes(
            [Self.extendedAttributesKey: [Self.originAttribute: Data(url.utf8)]], ofItemAtPath: file.path)
    }

    /// FileManager's (undocumented, but stable on Linux and macOS) key for extended attributes.
    static let extendedAttributesKey = FileAttributeKey("NSFileExtendedAttributes")
    /// The freedesktop.org name for a file's source URL.
    public static let originAttribute = "user.xdg.origin.url"

    func discard(_ partial: PartialFiles) {
        try? files.removeItem(at: partial.body)
        try? files.removeItem(at: partial.record)
    }

    /// Drops the download record once the index lists the episode.
    func forgetDownload(of episode: Episode, in stateFolder: URL) {
        try? files.removeItem(at: PartialFiles(key: episode.identity, stateFolder: stateFolder).record)
    }

    func fileSize(_ url: URL) -> Int64? {
        guard files.fileExists(atPath: url.path) else { return nil }
        return ((try? attributes.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.int64Value
    }

    static func downloadableURL(_ text: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            throw EpisodeFailure.invalidURL
        }
        guard scheme == "http" || scheme == "https" else { throw EpisodeFailure.unsupportedScheme(scheme) }
        guard url.host?.isEmpty == false else { throw EpisodeFailure.invalidURL }
        return url
    }
}

/// The checks a finished download must pass before it is renamed into place.
enum DownloadCheck {
    static func failure(of result: DownloadResult, expectedSize: Int64? = nil, feedLength: Int64? = nil)
        -> EpisodeFailure?
    {
        if let http = result.response as? HTTPURLResponse {
            guard (200..<300).contains(http.statusCode) else { return .httpStatus(http.statusCode) }
            // A body that ends when the connection closes (no Content-Length, not chunked) cannot tell a cut from
            // the end: when the feed announced more, it is taken for a cut, kept, and fetched on.
            let delimitedByClose =
                http.value(forHTTPHeaderField: "Content-Length") == nil
                && http.value(forHTTPHeaderField: "Content-Range") == nil
                && !(http.value(forHTTPHeaderField: "Transfer-Encoding")?.lowercased().contains("chunked") ?? false)
            if delimitedByClose, expectedSize == nil, let feedLength, feedLength > result.fileSize {
                return .lengthMismatch(expected: feedLength, received: result.fileSize)
            }
            let encoding = http.value(forHTTPHeaderField: "Content-Encoding")?.lowercased() ?? "identity"
            if encoding == "identity", let declared = http.value(forHTTPHeaderField: "Content-Length"),
                let expected = Int64(declared.trimmingCharacters(in: .whitespaces)), expected != result.bytesWritten
            {
                return .lengthMismatch(
                    expected: expected + result.fileSize - result.bytesWritten, received: result.fileSize)
            }
            if let type = http.value(forHTTPHeaderField: "Content-Type")?.lowercased(),
                type.hasPrefix("text/html") || type.hasPrefix("application/xhtml")
            {
                return .htmlPage
            }
        }
        if let expectedSize, expectedSize != result.fileSize {
            return .lengthMismatch(expected: expectedSize, received: result.fileSize)
        }
        if result.fileSize == 0 { return .emptyBody }
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

/// The size a download is expected to reach: the feed's declared length until the response says better. Read by
/// progress reports on the transfer's thread, written by the admission hook.
final class ExpectedSize: @unchecked Sendable {
    private let lock = NSLock()
    private var size: Int64?

    init(_ size: Int64?) { self.size = size }

    var value: Int64? {
        get { lock.withLock { size } }
        set { lock.withLock { size = newValue } }
    }
}
