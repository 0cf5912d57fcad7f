// One checked download into place: its name (kept for a file fetched again, claimed for a new one, or the same
// bytes already in the folder), the record that it is complete, the rename that never overwrites, its dates, and
// its entry in the index.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Puts checked downloads, and files already in the folder, into the index; runs on the sync's own task, in feed
/// order.
struct EpisodePlacer: Sendable {
    let files: any FileStore
    let attributes: any FileAttributes
    let mover: any FileMovement
    let writer: any AtomicFileWriting
    let hasher: any FileHashing
    let indexes: IndexStore
    let records: ShowRecords
    let contents: FolderContents
    let clock: SyncClock
    #if PODARCHIVE_TEST_HOOKS
        /// Called at each `FaultPoint` (the crash tests; test builds only, see `Archiver.injectingFaults`).
        var faults: (@Sendable (FaultPoint) -> Void)?
    #endif

    /// The serial half of archiving an episode, after `EpisodeFetcher.fetch`: renames the download into place
    /// (unless an earlier run already had) and records it in the index; `SyncRun.commit` (or, for a repair,
    /// `IndexStore.commitJournal`) then makes the record durable, for several episodes at once, and the download
    /// record goes after that.
    func complete(
        _ fetched: EpisodeFetcher.Fetched, item: WorkItem, in show: inout FeedFolder, names: inout NameAllocator,
        template: NameTemplate, describe: (inout ArchiveIndex.Entry) -> Void = { _ in }
    ) throws -> ArchiveIndex.Entry {
        var entry: ArchiveIndex.Entry
        switch fetched {
        case .placed(let adopted): entry = adopted
        case .downloaded(let result):
            entry = try place(result, item: item, in: show, names: &names, template: template)
            // What the server said the file is, for the export (a WARC's Content-Type).
            entry.contentType = (result.response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type")
        }
        if case .missing(let earlier) = item {
            // A file fetched again is the same episode: what the index knew of it stays (its companions, when it
            // was published and first archived, whether the feed still lists it).
            entry.companions = earlier.companions
            entry.published = earlier.published
            entry.archived = earlier.archived
            entry.removedUpstream = earlier.removedUpstream
            entry.lastSeen = earlier.lastSeen
            entry.key = earlier.key
            entry.publisher = earlier.publisher
        }
        describe(&entry)
        show.index.record(entry)
        show.unjournaled.append((entry, show.partial(item.episode.identity)))
        return entry
    }

    /// Records the checked download as complete, renames it into place (never over another file) and dates it.
    private func place(
        _ result: DownloadResult, item: WorkItem, in show: FeedFolder, names: inout NameAllocator,
        template: NameTemplate
    ) throws -> ArchiveIndex.Entry {
        let episode = item.episode
        let partial = show.partial(episode.identity)
        let newFile = template.newFile(for: episode, feedTitle: show.title)
        var name: String
        if case .missing(let entry) = item {
            // A file fetched again goes back under its old name.
            names.release(entry.file)
            name = names.claim(exactly: entry.file) ? entry.file : names.claim(newFile)
        } else {
            // The same bytes already in the folder, unindexed (an index rebuilt): that file is this episode.
            if let existing = contents.unindexedFile(newFile, in: show),
                let hashed = try? hasher.sha256(ofFileAtPath: show.folder.appendingPathComponent(existing).path),
                hashed.size == result.fileSize, hashed.digest == result.sha256
            {
                records.discard(partial)
                contents.setDates(of: show.folder.appendingPathComponent(existing), to: episode.published)
                return entry(for: episode, file: existing, size: hashed.size, sha256: hashed.digest)
            }
            name = names.claim(newFile)
        }
        try makeSubfolders(for: name, in: show, names: &names)
        // What resuming needed (the validator) is of no use once the body is complete: the record now says only
        // what `EpisodeFetcher.adopt` checks.
        var record = PartialRecord(
            url: URLSecrets.redacted(episode.url), completeSize: result.fileSize, sha256: result.sha256)
        for _ in 0..<100 {
            record.target = name
            try records.saveDownloadRecord(record, for: partial)
            #if PODARCHIVE_TEST_HOOKS
                faults?(.beforeRename)
            #endif
            if try move(partial.body, to: name, in: show, published: episode.published, origin: episode.url) {
                #if PODARCHIVE_TEST_HOOKS
                    faults?(.afterRename)
                #endif
                return entry(for: episode, file: name, size: result.fileSize, sha256: result.sha256)
            }
            // Taken meanwhile by something else: never overwrite it, take the next name.
            name = names.claim(newFile)
        }
        throw EpisodeFailure.storage("no free name for \(name) in \(show.folder.path)")
    }

    /// Renames a download of changed content into place as a new version of `entry` (`Title (v2).mp3`, else v3...),
    /// records it, and marks `entry` as replaced by it (`verify --repair` when the publisher's file changed).
    func placeVersion(
        _ result: DownloadResult, of entry: ArchiveIndex.Entry, in show: inout FeedFolder, names: inout NameAllocator
    ) throws -> String {
        let file = entry.file as NSString
        let ext = file.pathExtension
        let stem = file.deletingPathExtension
        for number in 2...1000 {
            let name = "\(stem) (v\(number))" + (ext.isEmpty ? "" : ".\(ext)")
            guard names.claim(exactly: name),
                try move(
                    show.partial(entry.key).body, to: name, in: show,
                    published: entry.published.flatMap(FeedDate.parseRFC3339), origin: entry.url)
            else { continue }
            show.index.record(
                ArchiveIndex.Entry(
                    key: "\(entry.key)#v\(number)", guid: nil, title: entry.title, url: entry.url, file: name,
                    size: result.fileSize, sha256: result.sha256, published: entry.published,
                    archived: FeedDate.iso8601(clock.now())))
            show.index.markReplaced(entry.file, by: name)
            try indexes.save(&show)
            records.forget(show.partial(entry.key))
            return name
        }
        throw EpisodeFailure.storage("no free name for a new version of \(entry.file)")
    }

    /// New episodes whose file is already in the folder but not in the index, as the feed describes it: at the
    /// name this episode would get, with the size the feed gives. Each is hashed and recorded, not downloaded.
    /// (A file whose size the feed does not give is compared with the download instead; see `place`.)
    func adoptUnindexedFiles(
        _ work: [WorkItem], in show: inout FeedFolder, template: NameTemplate
    ) throws -> (work: [WorkItem], adopted: [(Episode, String)]) {
        var remaining: [WorkItem] = []
        var adopted: [(Episode, String)] = []
        var claimed = show.index.fileNames
        for item in work {
            guard case .new(let episode) = item, let length = episode.length, length > 0,
                let name = contents.unindexedFile(template.newFile(for: episode, feedTitle: show.title), in: show),
                !claimed.contains(name),
                let hashed = try? hasher.sha256(ofFileAtPath: show.folder.appendingPathComponent(name).path),
                hashed.size == length
            else {
                remaining.append(item)
                continue
            }
            claimed.insert(name)
            show.index.record(entry(for: episode, file: name, size: hashed.size, sha256: hashed.digest))
            adopted.append((episode, name))
        }
        if !adopted.isEmpty { try indexes.save(&show) }
        return (remaining, adopted)
    }

    // MARK: - Steps

    /// Renames `body` to `name` in the show's folder unless something is there (false), then dates it and records
    /// its origin. Every file podarchive puts in a show's folder goes through here (episodes, versions,
    /// companions).
    /// - Throws: `ArchiveError.storage` when the rename fails for another reason (a full disk stops the run).
    func move(_ body: URL, to name: String, in show: FeedFolder, published: Date?, origin: String) throws
        -> Bool
    {
        let destination = show.folder.appendingPathComponent(name, isDirectory: false)
        do {
            try mover.moveItem(at: body, to: destination)
        } catch {
            if files.fileExists(atPath: destination.path) { return false }
            throw ArchiveError.storage(error, path: destination.path)
        }
        contents.setDates(of: destination, to: published)
        contents.setOrigin(of: destination, to: origin)
        return true
    }

    /// The subfolders a templated name (`Season 2/Pilot.mp3`) needs. A file where the template wants a folder is
    /// this episode's problem, not the archive's: it fails (and is tried again next run) while the others go on.
    /// Other errors (a full disk) stop the run.
    private func makeSubfolders(for name: String, in show: FeedFolder, names: inout NameAllocator) throws {
        guard let slash = name.lastIndex(of: "/") else { return }
        let subfolder = show.folder.appendingPathComponent(String(name[..<slash]), isDirectory: true)
        let files = self.files
        var ancestor = subfolder
        while ancestor.path.count > show.folder.path.count {
            if files.fileExists(atPath: ancestor.path), (try? files.contentsOfDirectory(atPath: ancestor.path)) == nil {
                names.release(name)
                throw EpisodeFailure.storage("\(ancestor.path) is a file, where the name template wants a folder")
            }
            ancestor.deleteLastPathComponent()
        }
        try FolderContents.createFolder(subfolder, with: files)
    }

    private func entry(for episode: Episode, file: String, size: Int64, sha256: String) -> ArchiveIndex.Entry {
        ArchiveIndex.Entry(archiving: episode, file: file, size: size, sha256: sha256, at: clock.now())
    }
}
