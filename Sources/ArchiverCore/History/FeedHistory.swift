// The feed's own history: each revision of the fetched document, gzip-compressed, in
// `<show>/.podarchive/history/<UTC time>.<xml|json>.gz` (a later revision within the same second gets `_002`,
// `_003`... after the time), and the newest as `history/current.<xml|json>`. A revision is a change in what the
// feed says of its episodes (the set, or any episode's data, show notes included), not in `lastBuildDate` or the
// order of items; so show notes of a deleted episode can always be found again. A revision is never overwritten.
import Foundation

/// What a feed says of its episodes, as one digest: equal for documents that differ only in volatile parts
/// (build dates, item order, whitespace, markup of the same values).
enum FeedRevision {
    static func digest(of feed: Feed) -> String {
        var hasher = SHA256()
        func add(_ text: String?) {
            hasher.update(Array((text ?? "\u{1}").utf8))
            hasher.update([0])
        }
        // URLs as they are kept: a token that changes on every fetch is no new revision (see `SecretForms`).
        func add(url text: String?) { add(text.map(URLSecrets.redacted)) }
        add(feed.title)
        add(url: feed.imageURL)
        for episode in feed.episodes.sorted(by: { $0.identity < $1.identity }) {
            add(url: episode.identity)
            add(episode.title)
            add(url: episode.guid)
            add(url: episode.url)
            add(episode.mimeType)
            add(episode.length.map(String.init))
            add(episode.published.map(FeedDate.iso8601))
            add(episode.description)
            add(url: episode.link)
            add(episode.duration.map { String($0) })
            add(url: episode.imageURL)
            add(episode.episodeNumber.map(String.init))
            add(episode.seasonNumber.map(String.init))
            hasher.update([0x0A])
        }
        return hasher.hexDigest()
    }

    /// The extension the document is kept under.
    static func fileExtension(of feed: Feed) -> String {
        switch feed.format {
        case .rss, .atom: return "xml"
        default: return "json"
        }
    }
}

/// The names of the history's revisions: the UTC second the document was fetched in (`2025-01-31T18-00-00Z`, as
/// earlier versions name every revision), then, for a later revision within the same second, `_002`, `_003`...:
/// sorted as text, names are in the order the documents were fetched (`_` sorts after the `.` of the extension).
enum RevisionName {
    /// `2025-01-31T18-00-00Z`: a time that sorts as text and is a valid file name everywhere.
    static func stamp(_ date: Date) -> String {
        FeedDate.iso8601(date).replacingOccurrences(of: ":", with: "-")
    }

    /// The file name of the `number`th revision (from 1) fetched within the second `stamp`.
    static func name(stamp: String, number: Int, ext: String) -> String {
        (number <= 1 ? "\(stamp).\(ext)" : "\(stamp)_\(String(format: "%03d", number)).\(ext)")
            + ArchiveLayout.revisionSuffix
    }

    /// Which revision within the second `stamp` the file `name` is (1 for the first), or nil when it is none.
    static func number(of name: String, stamp: String) -> Int? {
        guard name.hasPrefix(stamp), name.hasSuffix(ArchiveLayout.revisionSuffix) else { return nil }
        let rest = name.dropFirst(stamp.count)
        if rest.hasPrefix(".") { return 1 }
        guard rest.hasPrefix("_") else { return nil }
        return Int(rest.dropFirst().prefix { $0.isASCII && $0.isNumber })
    }
}

/// Keeps the revisions of a show's feed in its history folder, and finds those that no longer read back.
struct HistoryStore: Sendable {
    let files: any FileStore
    let writer: any AtomicFileWriting

    /// The history folder of a show.
    static func historyFolder(of show: FeedFolder) -> URL {
        show.state.history
    }

    /// The episodes the feed listed when a sync last read it (the current document the history keeps), each
    /// known apart as a sync knows it (`Episode.keepingApart`); none when no document is kept or it cannot be read.
    static func lastListed(by show: ShowState, files: any FileReading) -> [Episode] {
        lastRead(by: show, files: files).map { Episode.keepingApart($0.episodes) } ?? []
    }

    /// The feed as a sync last read it: the current document the history keeps, its relative URLs resolved
    /// against `url`; nil when none is kept or it cannot be read. Kept redacted (see `keepRevision`): a URL that
    /// carries the redaction marker is no URL to fetch.
    static func lastRead(by show: ShowState, files: any FileReading, url: URL? = nil) -> Feed? {
        for ext in ArchiveLayout.documentExtensions {
            guard let data = files.contents(atPath: show.currentDocument(ext).path),
                let feed = try? FeedParser.parse(data, url: url)
            else { continue }
            return feed
        }
        return nil
    }

    /// Keeps `feed`'s document as a new revision when what it says differs from `previous` (a digest), and as
    /// the current document; returns the new digest. History is a record, not the archive: a failure to write
    /// it is reported by the caller and costs no episode.
    func keepRevision(of feed: Feed, previous: String?, in show: FeedFolder, at now: Date) throws -> String {
        let digest = FeedRevision.digest(of: feed)
        guard digest != previous, let document = feed.document else { return previous ?? digest }
        let folder = Self.historyFolder(of: show)
        try FolderContents.createFolder(folder, with: files)
        let ext = FeedRevision.fileExtension(of: feed)
        // Kept as anyone the archive is served to may read it: every URL in it redacted.
        let kept = TextSecrets.redactingURLs(in: document)
        try keepNewRevision(Gzip.compress(kept), ext: ext, in: folder, staging: show.stateFolder, at: now)
        let current = show.state.currentDocument(ext)
        do {
            try writer.writeAtomically(kept, to: current, durable: false, stagedIn: show.stateFolder)
        } catch {
            throw ArchiveError.storage(error, path: current.path)
        }
        // A feed that changed format (RSS to JSON Feed) leaves no older current document beside the newest.
        for other in ArchiveLayout.documentExtensions where other != ext {
            let stale = show.state.currentDocument(other)
            guard files.fileExists(atPath: stale.path) else { continue }
            do {
                try files.removeItem(at: stale)
            } catch {
                throw ArchiveError.storage(error, path: stale.path)
            }
        }
        return digest
    }

    /// Writes `data` as a new revision file, never over one already there: named after the second `now` is in,
    /// numbered after every revision of that second the folder holds, whatever its format (see `RevisionName`).
    /// Written through `staging` (the show's state folder); a temporary file an earlier version left in the
    /// folder is removed (the show's lock is held).
    private func keepNewRevision(_ data: Data, ext: String, in folder: URL, staging: URL, at now: Date) throws {
        let stamp = RevisionName.stamp(now)
        let names = (try? files.contentsOfDirectory(atPath: folder.path)) ?? []
        TemporaryFiles.sweep(names, in: folder, files: files) { _ in true }
        let first = (names.compactMap { RevisionName.number(of: $0, stamp: stamp) }.max() ?? 0) + 1
        // Each name taken meanwhile (by another process) is a revision kept: the next number is tried.
        for number in first..<(first + 1000) {
            let url = folder.appendingPathComponent(RevisionName.name(stamp: stamp, number: number, ext: ext))
            do {
                if try writer.createExclusively(data, at: url, stagedIn: staging) { return }
            } catch let failure as FileSystemError where FileSystemError.meansNoHardLinks(failure.code) {
                // A file system without hard links (FAT, exFAT, some network shares), from a writer that does not
                // fall back itself (the live one does, with O_EXCL): the show's lock keeps every other sync out of
                // this folder, so a name no file has is taken with an atomic write.
                guard !files.fileExists(atPath: url.path) else { continue }
                do {
                    return try writer.writeAtomically(data, to: url, durable: true, stagedIn: staging)
                } catch {
                    throw ArchiveError.storage(error, path: url.path)
                }
            } catch {
                throw ArchiveError.storage(error, path: url.path)
            }
        }
        throw ArchiveError.storage(
            path: folder.path, reason: "a thousand revisions of the feed within the second \(stamp) exist already")
    }

    /// The revisions of `show`'s history that do not read back, with why.
    func damagedRevisions(in show: FeedFolder) -> [(file: String, reason: String)] {
        let folder = Self.historyFolder(of: show)
        let names = ((try? files.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
            $0.hasSuffix(ArchiveLayout.revisionSuffix)
        }
        return names.sorted().compactMap { name in
            guard let data = files.contents(atPath: folder.appendingPathComponent(name).path) else {
                return (name, "it cannot be read")
            }
            do {
                _ = try Gzip.decompress(data)
                return nil
            } catch let damaged as Gzip.Damaged {
                return (name, damaged.reason)
            } catch {
                return (name, "\(error)")
            }
        }
    }
}
