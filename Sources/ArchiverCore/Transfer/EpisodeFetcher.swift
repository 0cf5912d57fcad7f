// One episode's download: resume or adopt what an earlier run left, try again what may succeed later (within
// the episode's deadline), check the result. Runs beside other episodes and touches only its own hidden files.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches one episode into its hidden file, ready for `EpisodePlacer.place`.
struct EpisodeFetcher: Sendable {
    let downloader: any FileDownloading
    let hasher: any FileHashing
    let files: any FileStore
    let records: ShowRecords
    let contents: FolderContents
    let clock: SyncClock

    /// What `fetch` produced.
    enum Fetched: Sendable {
        /// An earlier run had already renamed the file into place; only its index entry was missing.
        case placed(ArchiveIndex.Entry)
        /// The checked download waits in its hidden file for `place`.
        case downloaded(DownloadResult)
    }

    /// Everything for one episode that can run beside other episodes: resume or adopt what an earlier run left,
    /// download with retries, check. Touches only this episode's hidden files. `waiting` hears of each wait
    /// before a retry (how long, and why), so a user is told. `shortBefore`: the size the body had when an earlier
    /// run's try ended with its connection short of the feed's length (see `DownloadCheck.failure`).
    func fetch(
        _ episode: Episode, in paths: ShowState, options: SyncOptions, shortBefore: Int64? = nil,
        waiting: (@Sendable (TimeInterval, EpisodeFailure) -> Void)? = nil, progress: ProgressHandler? = nil
    ) async throws -> Fetched {
        let files = PartialFiles(key: episode.identity, state: paths)
        // The record is read once here; each attempt then knows it as a value (`kept`), updated as it goes.
        var kept = records.loadDownloadRecord(files)
        // No record: nothing to resume (a body left without one is truncated when the download opens it; lines
        // that do not decode stay unread). A record of another URL: its bytes are not this episode's.
        if let record = kept, URLSecrets.redacted(record.url) != URLSecrets.redacted(episode.url) {
            records.discard(files)
            kept = nil
        }
        if let kept, let adopted = try adopt(kept, episode: episode, files: files, folder: paths.folder) {
            return adopted
        }
        // A URL kept redacted (an archived episode whose feed no longer lists it) has lost its secret: asking
        // for `REDACTED` would only earn a 401.
        guard !URLSecrets.carriesRedaction(episode.url) else {
            throw EpisodeFailure.storage(
                "its URL's secret is not kept in the archive and the feed no longer lists it, so it cannot be fetched")
        }
        let url = try Self.downloadableURL(episode.url)

        // Set when the first attempt gets its download slot: waiting behind other downloads is no time spent on
        // this one.
        var deadline: Date?
        var attempt = 0
        var short = shortBefore
        while true {
            attempt += 1
            do {
                return .downloaded(
                    try await attemptDownload(
                        url, episode: episode, files: files, kept: &kept, deadline: &deadline, options: options,
                        shortBefore: short, progress: progress))
            } catch let stop as AttemptFailure {
                switch stop {
                case .startOver:
                    records.discard(files)
                    kept = nil
                    if attempt > options.retry.retries + 1 {
                        throw EpisodeFailure.transport("the server kept changing the file")
                    }
                case .waitForSpace:
                    // Another download has the space this one needs: wait for it to end, then ask again (no retry
                    // spent; the partial file, if any, stays).
                    attempt -= 1
                    if let budget = options.budget { try await budget.spaceReturned() }
                case .failed(let failure, let retryAfter):
                    if case .shortOfFeedLength(_, let received) = failure { short = received }
                    guard RetryPolicy.isRetryable(failure), attempt <= options.retry.retries else { throw failure }
                    let delay = options.retry.delay(
                        beforeRetry: attempt, jitter: clock.jitter(), retryAfter: retryAfter)
                    // No time left to wait and try again: the partial file stays for the next run to resume.
                    let ends = deadline ?? clock.now().addingTimeInterval(options.episodeTimeout)
                    let left = ends.timeIntervalSince(clock.now())
                    guard delay < left else {
                        throw RetryPolicy.unwaited(
                            failure, retryAfter: retryAfter, left: left, deadline: options.episodeTimeout)
                    }
                    waiting?(delay, failure)
                    try await clock.sleep(delay)
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
        /// The disk holds it only once downloads in flight are done (see `DownloadBudget`).
        case waitForSpace
    }

    // MARK: - One attempt

    /// Reports a download's bytes so far, and the total when the server or the feed said it.
    typealias ProgressHandler = @Sendable (_ received: Int64, _ expected: Int64?) -> Void

    /// One request for the episode: resumes what `kept` describes, and leaves in `kept` what the server
    /// announced for the next attempt. The episode's deadline starts when its first attempt gets a slot.
    /// `shortBefore` is the size of a body that ended with its connection short of the feed's length on an earlier
    /// try or run (see `DownloadCheck.failure`).
    func attemptDownload(
        _ url: URL, episode: Episode, files partial: PartialFiles, kept: inout PartialRecord?, deadline: inout Date?,
        options: SyncOptions, shortBefore: Int64? = nil, progress: ProgressHandler?
    ) async throws -> DownloadResult {
        let record = kept
        var offset: Int64 = 0
        if let record, record.validator != nil, let size = contents.fileSize(partial.body), size > 0 {
            offset = size
            if let expected = record.expectedSize, expected == size {
                // Every byte arrived before the process stopped: nothing to fetch, only to check.
                return try completedPartial(url, files: partial, size: size)
            }
        }
        // A slot of the run's budget (at most so many downloads in all and to one host, across shows) for this
        // request alone: given back when the transfer ends, before the file is synced, and never held while
        // waiting to try again or for disk space.
        let slot = try await options.budget?.slot(host: url.host ?? "")
        defer { slot?.release() }
        let ends = deadline ?? clock.now().addingTimeInterval(options.episodeTimeout)
        deadline = ends
        var request = options.profile.request(for: url)
        request.setValue(
            BodyFraming.acceptEncoding(compressible: MediaTypes.isText(episode.mimeType)),
            forHTTPHeaderField: "Accept-Encoding")
        if offset > 0, let validator = record?.validator {
            request.setValue("bytes=\(offset)-", forHTTPHeaderField: "Range")
            request.setValue(validator, forHTTPHeaderField: "If-Range")
        }
        let expected = ExpectedSize(episode.length)
        let announced = AnnouncedRecord()
        let claim = SpaceClaim(budget: options.budget)
        defer { claim.end() }
        let admit = admission(
            for: episode.url, files: partial, offset: offset, expected: expected, announced: announced, claim: claim,
            maximumBytes: options.maximumDownloadBytes)
        // Whatever happens to this attempt, what the server announced is what the next one resumes against.
        defer { if let record = announced.record { kept = record } }
        let remaining = ends.timeIntervalSince(clock.now())
        guard remaining > 0 else { throw AttemptFailure.failed(.timedOut(options.episodeTimeout), retryAfter: nil) }

        let result: DownloadResult
        let finalRequest = request
        let startedAt = offset
        let onBytes: @Sendable (Int64) -> Void = { bytes in
            claim.wrote(bytes - startedAt)
            progress?(bytes, expected.value)
        }
        var asked = DownloadOptions(
            resumeOffset: offset, admit: admit, progress: onBytes,
            resumeValidator: record?.validator, resumeTotal: record?.expectedSize, policy: options.policy,
            transferEnded: slot.map(Self.releasing), maximumBytes: options.maximumDownloadBytes)
        // The publisher's hash is checked against a digest computed in the same pass as SHA-256.
        asked.integrityAlgorithm = IntegrityGate.expected(for: episode)?.value.algorithm
        let transferOptions = asked
        do {
            result = try await Deadline.run(seconds: remaining, timer: clock.timer) { [downloader] in
                try await downloader.download(finalRequest, to: partial.body, options: transferOptions)
            }
        } catch is Deadline.Exceeded {
            throw AttemptFailure.failed(.timedOut(options.episodeTimeout), retryAfter: nil)
        } catch is SpaceClaim.Wait {
            throw AttemptFailure.waitForSpace
        } catch let error as DownloadError {
            switch error {
            case .refusedRedirect(let location):
                throw AttemptFailure.failed(.refusedRedirect(location), retryAfter: nil)
            case .transport(let reason): throw AttemptFailure.failed(.transport(reason), retryAfter: nil)
            case .unexpectedRange: throw AttemptFailure.startOver
            case .contradicted(let reason):
                // What the server announced before for this version caught it: that record stays, for the next
                // answer to be held to (it is the only memory of the size, across runs too); the body goes.
                try? files.removeItem(at: partial.body)
                if let record, announced.record != nil, announced.record != record {
                    try? records.saveDownloadRecord(record, for: partial)
                }
                announced.record = nil
                throw AttemptFailure.failed(.incompleteBody(reason), retryAfter: nil)
            case .lengthMismatch, .incomplete, .unsupportedEncoding:
                let (failure, resumable) = DownloadCheck.framingFailure(error)
                if !resumable { records.discard(partial) }
                throw AttemptFailure.failed(failure, retryAfter: nil)
            case .tooLarge(let limit, let announced):
                // Nothing of a file refused for its size is worth keeping for a resume.
                records.discard(partial)
                throw AttemptFailure.failed(Self.sizeRefusal(limit: limit, announced: announced), retryAfter: nil)
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
            of: result, expectedSize: (announced.record ?? record)?.expectedSize, feedLength: episode.length,
            shortBefore: shortBefore, declaredType: episode.mimeType)
        {
            switch failure {
            case .lengthMismatch(let expected, let received) where received > expected: records.discard(partial)
            // A body that ended with its connection is never resumed: its next try starts from its first byte, so
            // that the same size again can be known for the file.
            case .shortOfFeedLength, .htmlPage, .notMedia, .emptyBody: records.discard(partial)
            default: break
            }
            // Another status to a request from the start (a 404, a 410): its hidden file holds nothing to resume.
            if offset == 0, case .httpStatus = failure { records.discard(partial) }
            // A 401 to a request that carried credentials: they were refused, not missing.
            let said =
                failure == .httpStatus(401)
                    && options.profile.sendsCredentials(to: result.response.url ?? url, firstURL: url)
                ? EpisodeFailure.credentialsRefused : failure
            throw AttemptFailure.failed(said, retryAfter: RetryPolicy.retryAfter(result.response, now: clock.now()))
        }
        return result
    }

    /// Sees each response before its body: records what a later resume needs, and refuses a file the disk
    /// cannot hold.
    func admission(
        for url: String, files partial: PartialFiles, offset: Int64, expected: ExpectedSize,
        announced: AnnouncedRecord, claim: SpaceClaim, maximumBytes: Int64? = nil
    ) -> @Sendable (HTTPURLResponse, Bool) -> Error? {
        let records = self.records
        // Kept as the show's taint says: made here, on the episode's task (the closure runs on the transfer's
        // queue, where no task's taint is known).
        let keptURL = URLSecrets.redacted(url)
        let files = self.files
        return { response, appending in
            let etag = response.value(forHTTPHeaderField: "ETag").flatMap { $0.hasPrefix("W/") ? nil : $0 }
            let validator = etag ?? response.value(forHTTPHeaderField: "Last-Modified")
            let length = response.value(forHTTPHeaderField: "Content-Length").flatMap(Self.headerNumber)
            let encoded =
                (try? BodyFraming.coding(of: response.value(forHTTPHeaderField: "Content-Encoding") ?? ""))
                != .identity
            let total =
                appending
                ? ContentRange(response.value(forHTTPHeaderField: "Content-Range"))?.total
                : (encoded ? nil : length)
            if let maximumBytes, let announced = total ?? length, announced > maximumBytes {
                return DownloadError.tooLarge(limit: maximumBytes, announced: announced)
            }
            // A validator only where a resume can continue what is kept: the partial of a body that arrived
            // encoded holds decoded bytes, and a server that says it takes no ranges sends the whole file again.
            let resumable = !encoded && response.value(forHTTPHeaderField: "Accept-Ranges")?.lowercased() != "none"
            let record = PartialRecord(
                url: keptURL, validator: resumable ? validator : nil, expectedSize: total)
            if let total { expected.value = total }
            do {
                try records.saveDownloadRecord(record, for: partial)
            } catch {
                return error
            }
            announced.record = record
            let needed = (total ?? length ?? 0) - (appending ? offset : 0)
            let folder = partial.body.deletingLastPathComponent()
            guard needed > 0 else { return nil }
            var free: Int64 = 0
            let decision = claim.claim(needed) {
                let attributes = try? files.attributesOfFileSystem(forPath: folder.path)
                free = (attributes?[.systemFreeSize] as? NSNumber)?.int64Value ?? Int64.max
                return attributes == nil ? nil : free
            }
            switch decision {
            case .claimed, nil: return nil
            case .wait: return SpaceClaim.Wait()
            case .refused: return SpaceRefusal(folder: folder.path, needed: needed, free: free)
            }
        }
    }

    /// A partial file that already holds every byte: hash it from disk instead of fetching anything.
    func completedPartial(_ url: URL, files partial: PartialFiles, size: Int64) throws -> DownloadResult {
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

    /// An earlier run finished this download and died around the rename: finish its work instead of downloading
    /// again (and instead of keeping the episode twice).
    func adopt(
        _ record: PartialRecord, episode: Episode, files partial: PartialFiles, folder: URL
    ) throws -> Fetched? {
        guard let sha256 = record.sha256, let size = record.completeSize, let target = record.target else { return nil }
        let placed = folder.appendingPathComponent(target)
        if contents.fileSize(partial.body) == nil, let hashed = try? hasher.sha256(ofFileAtPath: placed.path),
            hashed.size == size, hashed.digest == sha256
        {
            // Renamed into place; only the index entry was missing.
            contents.setDates(of: placed, to: episode.published)
            contents.setOrigin(of: placed, to: episode.url)
            return .placed(
                ArchiveIndex.Entry(archiving: episode, file: target, size: size, sha256: sha256, at: clock.now()))
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
        records.discard(partial)
        return nil
    }

    /// Why a file larger than `limit` bytes is not kept: `announced` by the server, or passed while it arrived.
    static func sizeRefusal(limit: Int64, announced: Int64?) -> EpisodeFailure {
        let cap =
            limit % (1 << 20) == 0
            ? "\(limit >> 20) MB" : limit % (1 << 10) == 0 ? "\(limit >> 10) KB" : "\(limit) bytes"
        guard let announced else {
            return .storage("it grew past the \(cap) it may be while it downloaded; stopped there, nothing kept")
        }
        return .storage("it is \(announced) bytes, more than the \(cap) it may be; not downloaded")
    }

    /// A header's decimal value, spaces and tabs around it allowed (Foundation's `trimmingCharacters` costs more
    /// than the rest of the admission).
    static func headerNumber(_ text: String) -> Int64? {
        let blank: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !blank($0) }), let last = scalars.lastIndex(where: { !blank($0) })
        else { return nil }
        return Int64(String(scalars[first...last]))
    }

    /// What gives `slot` back when a transfer ends.
    private static func releasing(_ slot: DownloadBudget.Slot) -> @Sendable () -> Void {
        { slot.release() }
    }

    static func downloadableURL(_ text: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            throw EpisodeFailure.invalidURL
        }
        guard WebScheme.isWeb(scheme) else { throw EpisodeFailure.unsupportedScheme(scheme) }
        guard url.host?.isEmpty == false else { throw EpisodeFailure.invalidURL }
        return url
    }
}
