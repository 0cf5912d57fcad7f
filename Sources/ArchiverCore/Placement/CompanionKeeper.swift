// What comes with an episode, kept beside it: after the episodes of a sync are in place, each archived episode's
// transcripts, chapters and (with --metadata) artwork that the folder lacks are fetched through the episode path
// (a hidden file; the same checks, retries, resume and deadline; at most 20 MB, stopped there as the body
// streams), renamed beside the episode's file (never over another), dated like it, and recorded in the index with
// their SHA-256. A companion that fails is reported and tried again next run; it never fails its episode or the run.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches and places the companions of archived episodes.
struct CompanionKeeper: Sendable {
    let fetcher: EpisodeFetcher
    /// Puts companions in place as it puts episodes (`EpisodePlacer.move`).
    var placer: EpisodePlacer
    let files: any FileStore
    let writer: any AtomicFileWriting
    let hasher: any FileHashing
    let indexes: IndexStore
    let records: ShowRecords
    let contents: FolderContents

    /// Why a download of `size` bytes cannot be kept as a companion, or nil. The downloader stops a companion at
    /// the cap as it arrives; this catches a complete file an earlier run left.
    static func refusal(ofSize size: Int64, options: SyncOptions) -> EpisodeFailure? {
        let limit = options.forCompanions.maximumDownloadBytes ?? .max
        return size <= limit ? nil : EpisodeFetcher.sizeRefusal(limit: limit, announced: size)
    }

    /// One companion to keep: for which episode, and under which name.
    struct Wanted: Sendable {
        var episode: Episode
        var key: String
        var companion: Companion
        var name: String
    }

    /// Keeps the companions `feed` lists for the episodes `show`'s index holds that the folder lacks.
    /// - Returns: how many could not be kept (tried again next run), and the index keys of the episodes that
    ///   gained some (their sidecars name them).
    /// - Throws: `ArchiveError` when the archive cannot be written (a full disk stops the run).
    /// `present` is what the folder held when the sync began (its listing): a recorded companion missing from
    /// it is fetched again, without a look-up per companion on every run. A companion several episodes name (one
    /// transcript URL for three episodes) is fetched once and kept for each as a file of its own (see
    /// `CompanionSource`).
    func keep(
        _ feed: Feed, in show: inout FeedFolder, present: Set<String>, options: SyncOptions,
        onEvent: @Sendable (SyncEvent) -> Void
    ) async throws -> (failed: Int, updated: Set<String>) {
        var misses = CompanionMisses.load(show.state.companionMisses, files: records.files)
        let wanted = self.wanted(feed, in: show, present: present, options: options).filter {
            options.retryGone || !misses.gaveUp($0.name)
        }
        guard !wanted.isEmpty else { return (0, []) }
        defer { misses.save(to: show.state.companionMisses, writer: records.writer) }
        let sources = CompanionSource.plan(
            wanted.map { $0.companion.url.map(URLSecrets.redacted) }, index: show.index, present: present)
        var updated = Set<String>()
        let paths = show.state
        let companionOptions = options.forCompanions
        var failed = 0
        var recorded = false
        // What each position kept or why it failed, for those after it that share its URL.
        var outcomes: [Int: Result<CompanionFile, EpisodeFailure>] = [:]
        // Cancelled, the companions not started are tried next run; those kept are recorded below all the same.
        do {
            try await OrderedTasks.run(
                count: wanted.count, width: companionOptions.jobs,
                operation: { position -> CompanionSource.Got in
                    let item = wanted[position]
                    switch sources[position] {
                    case .inline: return .inline
                    case .sameAs(let leader): return .sameAs(leader)
                    case .copy(let kept):
                        if intact(kept, in: paths) { return .copy(kept) }
                    case .fetch: break
                    }
                    guard let url = item.companion.url else { return .inline }
                    let pseudo = Episode(title: item.name, guid: nil, url: url, mimeType: item.companion.type)
                    return .fetched(
                        await Result { try await fetcher.fetch(pseudo, in: paths, options: companionOptions) })
                },
                settle: { position, got in
                    let item = wanted[position]
                    let url = item.companion.url.map(URLSecrets.redacted) ?? item.name
                    do {
                        let file = try place(item, got, earlier: outcomes, in: &show, options: companionOptions)
                        outcomes[position] = .success(file)
                        recorded = true
                        updated.insert(item.key)
                        misses.settle(item.name)
                        onEvent(.companion(file: show.folder.appendingPathComponent(file.file)))
                    } catch let failure as EpisodeFailure {
                        outcomes[position] = .failure(failure)
                        // A companion is optional: one its server says is not there, run after run, is given up.
                        if let reason = misses.missed(item.name, failure) {
                            onEvent(.companionGivenUp(episode: item.episode, url: url, reason: reason))
                        } else {
                            failed += 1
                            onEvent(.companionFailed(episode: item.episode, url: url, failure))
                        }
                    }
                }
            )
        } catch is CancellationError {}
        if recorded { try indexes.save(&show) }
        return (failed, updated)
    }

    /// The companions to fetch: each one the feed lists for an archived episode (artwork only with metadata) whose
    /// file the index does not record or the folder no longer has; a name listed twice, once.
    private func wanted(_ feed: Feed, in show: FeedFolder, present: Set<String>, options: SyncOptions) -> [Wanted] {
        var wanted: [Wanted] = []
        var names = Set<String>()
        for episode in feed.episodes where !episode.companions.isEmpty || episode.imageURL != nil {
            // An episode away on purpose took its companions with it: none is fetched again.
            guard let entry = show.index.entry(for: episode), entry.isHere else { continue }
            let recorded = entry.companions ?? []
            for companion in episode.companions(besides: feed.imageURL)
            where companion.kind != .artwork || options.metadata {
                // Beside `cover.mp3`, its artwork is `cover (2).jpg`: `cover.jpg` is the show's (see `ArchiveLayout`).
                // Two of one name (two English VTT transcripts) are both kept: the second is `Pilot.en.2.vtt`.
                let declared = NewFileName.allowed(companion.fileName(beside: entry.file))
                var name = declared
                var counter = 1
                while !names.insert(name.lowercased()).inserted, counter < 99 {
                    counter += 1
                    let ext = (declared as NSString).pathExtension
                    name = (declared as NSString).deletingPathExtension + ".\(counter)" + (ext.isEmpty ? "" : "." + ext)
                }
                // Kept under the name its bytes gave it (`LiveContent`), which may not be the declared one.
                let shown = companion.url.map(URLSecrets.redacted)
                let kept = recorded.first { $0.file == name || ($0.url != nil && $0.url == shown) }
                if let kept, present.contains(kept.file) { continue }
                wanted.append(Wanted(episode: episode, key: entry.key, companion: companion, name: name))
            }
        }
        return wanted
    }

    /// Puts one companion in place and records it: fetched, given inline, or a copy of one kept (by this run, at
    /// an earlier position of `earlier`, or by an earlier run).
    private func place(
        _ item: Wanted, _ got: CompanionSource.Got, earlier: [Int: Result<CompanionFile, EpisodeFailure>],
        in show: inout FeedFolder, options: SyncOptions
    ) throws -> CompanionFile {
        let outcome: Result<EpisodeFetcher.Fetched, Error>?
        switch got {
        case .inline: outcome = nil
        case .fetched(let fetched): outcome = fetched
        case .copy(let kept): return try placeCopy(of: kept, for: item, in: &show)
        case .sameAs(let leader):
            // Fetched once for every episode that names it: what the first kept, each of the others keeps too.
            switch earlier[leader] {
            case .success(let kept)?: return try placeCopy(of: kept, for: item, in: &show)
            case .failure(let failure)?: throw failure
            case nil: throw EpisodeFailure.storage("another episode's copy of it was not kept")
            }
        }
        var name = item.name
        let destination = show.folder.appendingPathComponent(item.name, isDirectory: false)
        let (size, digest): (Int64, String)
        var sent: String?
        switch outcome {
        case nil:
            // Chapters the feed gave inline: written as they are.
            let content = item.companion.content ?? Data()
            if files.fileExists(atPath: destination.path),
                files.contents(atPath: destination.path) != content
            {
                throw EpisodeFailure.storage("\(item.name) exists already and is another file")
            }
            do {
                try writer.writeAtomically(content, to: destination, durable: false, stagedIn: show.stateFolder)
            } catch {
                throw ArchiveError.storage(error, path: destination.path)
            }
            contents.setDates(of: destination, to: item.episode.published)
            (size, digest) = (Int64(content.count), SHA256.hex(content))
        case .some(.failure(let error)):
            // Refused for its size, or not there: nothing of it is worth keeping for a resume.
            switch error as? EpisodeFailure {
            case .storage?, .httpStatus?: records.discard(show.partial(item.companion.url ?? item.name))
            default: break
            }
            throw error
        case .some(.success(.placed)):
            throw EpisodeFailure.storage("an earlier run left a download record for another file")
        case .some(.success(.downloaded(let result))):
            let partial = show.partial(item.companion.url ?? item.name)
            if let refusal = Self.refusal(ofSize: result.fileSize, options: options) {
                records.discard(partial)
                throw refusal
            }
            if item.companion.kind == .chapters,
                let problem = ChaptersShape.problem(atPath: partial.body.path, in: files)
            {
                records.discard(partial)
                throw EpisodeFailure.invalid("not a valid chapters document: \(problem)")
            }
            let head = files.prefix(ofFileAtPath: partial.body.path, count: 1024) ?? Data()
            name = LiveContent.name(
                for: item.name, artwork: item.companion.kind == .artwork, sniffed: LiveContent.sniff(head))
            do {
                try putInPlace(
                    partial.body, as: name, size: result.fileSize, sha256: result.sha256, for: item, in: show)
            } catch {
                records.discard(partial)
                throw error
            }
            records.forget(partial)
            (size, digest) = (result.fileSize, result.sha256)
            sent = (result.response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type")
        }
        return record(item, file: name, size: size, sha256: digest, contentType: sent, in: &show)
    }

    /// Renames `body` (checked: `size` bytes of SHA-256 `sha256`) into the show's folder as `name`, never over
    /// another file: one already there is taken for it only when it holds the same bytes (an index rebuilt, a
    /// damaged journal record); `body` is gone either way.
    /// - Throws: `EpisodeFailure.storage` when another file has the name; `ArchiveError` when the rename fails.
    func putInPlace(_ body: URL, as name: String, size: Int64, sha256: String, for item: Wanted, in show: FeedFolder)
        throws
    {
        guard
            !(try placer.move(
                body, to: name, in: show, published: item.episode.published, origin: item.companion.url ?? ""))
        else { return }
        try? files.removeItem(at: body)
        let there = try? hasher.sha256(ofFileAtPath: show.folder.appendingPathComponent(name).path)
        guard there?.size == size, there?.digest == sha256 else {
            throw EpisodeFailure.storage("\(name) exists already and is another file")
        }
    }

    /// Records the companion `item` kept as `file` in the index, with the `Content-Type` its server sent.
    func record(
        _ item: Wanted, file name: String, size: Int64, sha256 digest: String, contentType: String?,
        in show: inout FeedFolder
    ) -> CompanionFile {
        let file = CompanionFile(
            kind: item.companion.kind.rawValue, file: name, url: item.companion.url.map(URLSecrets.redacted),
            type: item.companion.type,
            language: item.companion.language, size: size, sha256: digest, contentType: contentType)
        show.index.recordCompanion(file, forKey: item.key)
        return file
    }
}
